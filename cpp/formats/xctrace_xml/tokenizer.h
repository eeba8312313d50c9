// Streams XML through libxml2's SAX2 push parser and reports each element to
// the DocumentReader, keeping what every element shares: the stack of open
// elements (and the path and line an error names), the text since the last
// tag, the ids and refs inside rows, and the limits on elements, depth, text
// and ids.
//
// Not supported: DOCTYPEs (refused before anything is declared, so no entity
// is expanded or loaded and nothing touches the network), namespaces (names
// are matched by their local part).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TOKENIZER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TOKENIZER_H_

#include <libxml/parser.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/integer_map.h"
#include "base/limits.h"
#include "base/status.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/id_table.h"

namespace instrumentscope::xctrace_xml {

class DocumentReader;

class Tokenizer {
 public:
  Tokenizer(const Limits& limits, DocumentReader& reader) : limits_(limits), reader_(reader) {}
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // The next bytes of the document; the first call creates the parser.
  Status Feed(ByteSpan bytes);
  // After the last Feed: fails unless the document is complete.
  Status Finish();

 private:
  // libxml2 callbacks.
  static void OnStartElement(void* context, const xmlChar* localname, const xmlChar* prefix,
                             const xmlChar* uri, int namespace_count, const xmlChar** namespaces,
                             int attribute_count, int defaulted_count, const xmlChar** attributes);
  static void OnEndElement(void* context, const xmlChar* localname, const xmlChar* prefix,
                           const xmlChar* uri);
  static void OnCharacters(void* context, const xmlChar* text, int length);
  static void OnDoctype(void* context, const xmlChar* name, const xmlChar* external_id,
                        const xmlChar* system_id);
  static void OnXmlError(void* context, xmlErrorPtr error);

  Status CreateParser(ByteSpan first_bytes);
  Status ParseChunk(ByteSpan bytes, bool terminate);

  void StartElement(const xmlChar* localname, const Attributes& attributes);
  void EndElement();
  // The elements inside a <row> that is read (Content::kValues).
  void StartValue(OpenElement& open, const Attributes& attributes);
  void ResolveRef(OpenElement& open, std::string_view ref_text);
  void EndValue(const OpenElement& open);

  void Fail(Status status);
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
  xmlParserCtxtPtr parser_ = nullptr;
  Status status_;

  std::vector<OpenElement> stack_;
  // libxml2 interns element names in its dictionary: one pointer per name,
  // numbered in the order first seen (the name_id of OpenElement).
  IntegerMap name_ids_;                        // the pointer → its name_id
  std::vector<const xmlChar*> element_names_;  // by name_id
  std::vector<Element> element_kinds_;         // by name_id
  std::string text_;                           // text since the last start or end tag
  uint64_t element_count_ = 0;
  // The content of the innermost open element that decides for all inside it
  // (kValues, kSkipped or kStartTags); kElements outside those.
  Content region_ = Content::kElements;
  uint32_t skip_nesting_ = 0;  // elements open inside a kSkipped one
  // Values behind ids, for the current kTable element.
  IdTable ids_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TOKENIZER_H_
