#include "formats/xctrace_xml/elements.h"

#include <unordered_map>

namespace instrumentscope::xctrace_xml {

Element ElementFromName(std::string_view name) {
  static const std::unordered_map<std::string_view, Element> elements = {
      {"trace-query-result", Element::kTraceQueryResult},
      {"trace-toc", Element::kTraceToc},
      {"node", Element::kNode},
      {"schema", Element::kSchema},
      {"col", Element::kCol},
      {"mnemonic", Element::kMnemonic},
      {"engineering-type", Element::kEngineeringType},
      {"row", Element::kRow},
      {"sentinel", Element::kSentinel},
      {"thread", Element::kThread},
      {"tid", Element::kTid},
      {"process", Element::kProcess},
      {"pid", Element::kPid},
      {"backtrace", Element::kBacktrace},
      {"tagged-backtrace", Element::kTaggedBacktrace},
      {"kperf-bt", Element::kKperfBt},
      {"frame", Element::kFrame},
      {"binary", Element::kBinary},
      {"source", Element::kSource},
      {"path", Element::kPath},
      {"text-addresses", Element::kTextAddresses},
      {"text-address", Element::kTextAddress},
      {"run", Element::kRun},
      {"table", Element::kTable},
      {"os-log-metadata", Element::kOsLogMetadata},
  };
  auto entry = elements.find(name);
  return entry == elements.end() ? Element::kOther : entry->second;
}

std::string DecodeAttribute(std::string_view raw) {
  std::string value(raw);
  if (value.find('&') == std::string::npos) return value;
  static constexpr std::string_view kAmpersand = "&#38;";
  std::string decoded;
  decoded.reserve(value.size());
  for (size_t i = 0; i < value.size();) {
    if (std::string_view(value).substr(i, kAmpersand.size()) == kAmpersand) {
      decoded.push_back('&');
      i += kAmpersand.size();
    } else {
      decoded.push_back(value[i++]);
    }
  }
  return decoded;
}

bool RequireNumber(const OpenElement& element, const Value& value, const char* what,
                   FirstError& error) {
  if (value.value_class == ValueClass::kNumber) return true;
  error.Set(
      Status(ErrorCode::kXmlBadValue,
             std::string(what) + " <" + std::string(AsView(element.name)) + "> holds " +
                 (value.value_class == ValueClass::kOpaque ? "no integer"
                                                           : ValueClassName(value.value_class)) +
                 ", not an integer"));
  return false;
}

}  // namespace instrumentscope::xctrace_xml
