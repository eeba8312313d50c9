#include "formats/xctrace_xml/labels.h"

#include "base/text.h"

namespace instrumentscope::xctrace_xml {

std::string ProcessName(std::string_view fmt, int64_t pid) {
  std::string suffix = " (" + std::to_string(pid) + ")";
  std::string_view name = TrimWhitespace(fmt);
  if (EndsWith(name, suffix)) name.remove_suffix(suffix.size());
  return std::string(TrimWhitespace(name));
}

std::string_view BacktraceLeafName(std::string_view fmt) {
  static constexpr std::string_view kArrow = " \xE2\x86\x90 ";  // " ← "
  size_t arrow = fmt.find(kArrow);
  return TrimWhitespace(arrow == std::string_view::npos ? fmt : fmt.substr(0, arrow));
}

std::string Plural(uint64_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

Status ExtraCellError(size_t columns) {
  return Status(ErrorCode::kXmlBadStructure,
                "the row has more cells than the schema's " + Plural(columns, "column"));
}

}  // namespace instrumentscope::xctrace_xml
