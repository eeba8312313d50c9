// What the ElementTracker reports to the readers, as plain data: the kinds of
// element xctrace writes, what is kept for each open element, the attributes
// of a start tag as libxml2's SAX2 hands them over, and the first error a
// reader meets. Elements the importer gives no meaning to are kOther; their
// namespaces are not looked at.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENTS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENTS_H_

#include <libxml/xmlstring.h>

#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/status.h"
#include "base/text.h"
#include "formats/xctrace_xml/id_table.h"

namespace instrumentscope::xctrace_xml {

// The elements the importer gives meaning to; everything else is kOther and
// matters only as a holder of ids.
enum class Element : uint8_t {
  kOther,
  kTraceQueryResult,
  kTraceToc,
  kNode,
  kSchema,
  kCol,
  kMnemonic,
  kEngineeringType,
  kRow,
  kSentinel,
  kThread,
  kTid,
  kProcess,
  kPid,
  kBacktrace,
  kTaggedBacktrace,
  kKperfBt,
  kFrame,
  kBinary,
  kSource,
  kPath,
  kTextAddresses,
  kTextAddress,
  kRun,
  kTable,
  kOsLogMetadata,  // a signpost's or log's message, made of its pieces
};

Element ElementFromName(std::string_view name);

// What the ElementTracker does with an element's content, as the reader decides
// when the element starts.
enum class Content : uint8_t {
  kElements,   // every child is reported as it starts and as it ends
  kTable,      // as kElements, and the ids defined inside end with the element (a <node>)
  kValues,     // every element inside becomes a Value, ids and refs resolved (a <row> that is read)
  kSkipped,    // nothing inside is reported (a <row> of a table that is not read)
  kStartTags,  // only the start tags inside are reported (a table of contents)
};

struct OpenElement {
  const xmlChar* name;  // owned by the parser's dictionary
  Element element;
  uint16_t name_id = 0;  // the tracker's number for the name
  Content content = Content::kElements;
  bool has_child = false;
  bool is_ref = false;
  bool has_id = false;
  uint64_t id = 0;
  Value ref_value;
  uint64_t index = 0;  // 1-based position, for nodes and rows in error paths
};

inline std::string_view AsView(const xmlChar* text) {
  return std::string_view(reinterpret_cast<const char*>(text));
}

// With entity replacement off, libxml2 hands SAX2 an '&' written as &amp; or
// &#38; in an attribute as the text "&#38;". No other reference survives: the
// DOCTYPE is refused, so no entity can be declared.
std::string DecodeAttribute(std::string_view raw);

// The attributes of a start tag: SAX2's five pointers each (local name,
// prefix, namespace, start and end of the value).
class Attributes {
 public:
  Attributes(const xmlChar** raw, int count) : raw_(raw), count_(count) {}

  int size() const { return count_; }
  // Compares without measuring the name first: this runs for every attribute in a row.
  bool NameIs(int i, std::string_view expected) const {
    const xmlChar* name = raw_[i * 5];
    for (char c : expected) {
      if (*name++ != static_cast<xmlChar>(c)) return false;
    }
    return *name == 0;
  }
  const xmlChar* name(int i) const { return raw_[i * 5]; }
  // As written: an '&' is still "&#38;".
  std::string_view raw_value(int i) const {
    const xmlChar* const* attribute = raw_ + i * 5;
    return std::string_view(reinterpret_cast<const char*>(attribute[3]),
                            static_cast<size_t>(attribute[4] - attribute[3]));
  }
  // The raw value of the last attribute with this local name.
  std::optional<std::string_view> Find(std::string_view name) const {
    std::optional<std::string_view> found;
    for (int i = 0; i < count_; ++i) {
      if (NameIs(i, name)) found = raw_value(i);
    }
    return found;
  }
  // Decoded; empty when there is none.
  std::string Decoded(std::string_view name) const {
    std::optional<std::string_view> raw = Find(name);
    return raw ? DecodeAttribute(*raw) : std::string();
  }

 private:
  const xmlChar** raw_;
  int count_;
};

template <typename T>
std::optional<T> ParseDecimal(std::string_view text) {
  // Ids, refs and times are short runs of digits, millions of them: read
  // directly when they cannot overflow (18 digits fit any 64-bit type).
  if (!text.empty() && text.size() <= 18) {
    uint64_t value = 0;
    bool digits = true;
    for (char c : text) {
      auto digit = static_cast<unsigned>(c - '0');
      digits = digits && digit < 10;
      value = value * 10 + digit;
    }
    if (digits && (sizeof(T) >= 8 || value <= std::numeric_limits<T>::max())) {
      return static_cast<T>(value);
    }
  }
  text = TrimWhitespace(text);
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

inline Value MakeValue(ValueClass value_class, uint32_t index) {
  Value value;
  value.value_class = value_class;
  value.index = index;
  return value;
}

// The first error the readers meet. The tracker looks at it after every
// call into them, adds where it happened and stops the parser. A part's
// error (a table that cannot be read, which is left out) is located the same
// way, handed back to the reader, and the parse goes on.
class FirstError {
 public:
  // Either error is set: the one test the tracker makes after every call.
  bool any() const { return any_; }
  bool failed() const { return !status_.ok(); }
  void Set(Status status) {
    if (status_.ok()) status_ = std::move(status);
    any_ = true;
  }
  Status Take() { return std::exchange(status_, Status()); }

  bool part_failed() const { return !part_.ok(); }
  void SetPart(Status status) {
    if (part_.ok()) part_ = std::move(status);
    any_ = true;
  }
  Status TakePart() {
    any_ = !status_.ok();
    return std::exchange(part_, Status());
  }

 private:
  Status status_;
  Status part_;
  bool any_ = false;
};

// Sets `error` unless `value` is an integer; `what` names the cell's role.
bool RequireNumber(const OpenElement& element, const Value& value, const char* what,
                   FirstError& error);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ELEMENTS_H_
