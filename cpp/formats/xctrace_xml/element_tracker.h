// What every element of an XML document shares, as SaxParser reports them
// (the Handler there) and the DocumentReader reads them: the stack of open
// elements (and the path and line an error names), the text since the last
// tag, the ids and refs inside rows, and the limits on elements, depth, text
// and ids.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENT_TRACKER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENT_TRACKER_H_

#include <libxml/xmlstring.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/integer_map.h"
#include "base/limits.h"
#include "base/status.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/id_table.h"
#include "formats/xctrace_xml/sax_parser.h"

namespace instrumentscope::xctrace_xml {

class DocumentReader;

class ElementTracker {
 public:
  // `where` says where the parse is, for the errors.
  ElementTracker(const Limits& limits, DocumentReader& reader, std::function<XmlLocation()> where)
      : limits_(limits), reader_(reader), where_(std::move(where)) {}
  ElementTracker(const ElementTracker&) = delete;
  ElementTracker& operator=(const ElementTracker&) = delete;

  // SaxParser's Handler (Start, End, Characters, Fail, failed).
  void Start(const xmlChar* localname, const Attributes& attributes) {
    Start(localname, attributes, std::nullopt);
  }
  // Whether the elements starting now are a row's values (Content::kValues),
  // which StartRef can take.
  bool in_values() const { return region_ == Content::kValues; }
  // As Start, in a row's values, for a start tag whose one attribute is
  // ref="`ref`", already read as a number (ReplayEvents: most values are so).
  void StartRef(const xmlChar* localname, uint64_t ref) {
    Start(localname, Attributes(nullptr, 0), ref);
  }
  void End();
  void Characters(const xmlChar* text, int length);
  // Keeps the first error, located.
  void Fail(Status status);
  bool failed() const { return !status_.ok(); }

  const Status& status() const { return status_; }

  // The names' pointers come from another parser's dictionary from now on.
  void ForgetNamePointers() { name_ids_ = IntegerMap(); }
  // The elements open: the root and a <node> between two of its rows.
  const std::vector<OpenElement>& open_elements() const { return stack_; }
  // The line the open element at `depth` (0: the root) started on.
  uint32_t context_line(size_t depth) const { return context_lines_[depth]; }

 private:
  // `ref`: the value of the start tag's one attribute, ref=, when it was read already.
  void Start(const xmlChar* localname, const Attributes& attributes, std::optional<uint64_t> ref);
  void StartElement(const xmlChar* localname, const Attributes& attributes,
                    std::optional<uint64_t> ref);
  // The name_id of `name`, numbered in the order first seen; kNoValue past the limit.
  uint32_t InternName(std::string_view name);
  void EndElement();
  // The elements inside a <row> that is read (Content::kValues).
  void StartValue(OpenElement& open, const Attributes& attributes);
  // Fails when the element around the one just started is a ref, which holds nothing.
  bool InsideRef();
  void ResolveRef(OpenElement& open, uint64_t ref);
  void EndValue(const OpenElement& open);

  // Fails with the reader's error, if it met one.
  bool ReaderFailed();
  void FailWithReaderError();
  // A table's error, for the reader to leave the table out and go on.
  void LocatePartError();
  // `status` with where the parse is: the path of the open elements, the line and offset.
  Status Located(Status status) const;
  Status DepthError() const;
  std::string CurrentPath() const;

  const Limits& limits_;
  DocumentReader& reader_;
  std::function<XmlLocation()> where_;
  Status status_;

  std::vector<OpenElement> stack_;
  // libxml2 interns element names in its dictionary: one pointer per name,
  // numbered in the order first seen (the name_id of OpenElement).
  IntegerMap name_ids_;  // the pointer → its name_id
  // Each name, by its name_id: a copy, since a slice's parser and its
  // dictionary go once the slice is read.
  std::deque<std::string> element_names_;
  std::unordered_map<std::string_view, uint32_t> names_;  // views of element_names_
  std::vector<Element> element_kinds_;                    // by name_id
  // The lines of the root and of the <node> open, for a slice parsed again.
  uint32_t context_lines_[2] = {0, 0};
  std::string text_;  // text since the last start or end tag
  uint64_t element_count_ = 0;
  // The content of the innermost open element that decides for all inside it
  // (kValues, kSkipped or kStartTags); kElements outside those.
  Content region_ = Content::kElements;
  uint32_t skip_nesting_ = 0;  // elements open inside a kSkipped one
  // Values behind ids, for the current kTable element.
  IdTable ids_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENT_TRACKER_H_
