#include "formats/trace_bundle/run_summary.h"

#include <string_view>

namespace instrumentscope::trace_bundle {

std::vector<std::string> SummaryLines(const KeyedArchive& archive, uint32_t lines) {
  std::vector<std::string> summary;
  auto elements = archive.ArrayElements(lines);
  if (!elements.ok()) return summary;
  for (uint32_t element : *elements) {
    auto line = archive.String(element);
    if (line.ok() && !line->empty()) summary.emplace_back(*line);
  }
  return summary;
}

std::vector<std::string> RunInfoLines(const KeyedArchive& archive, uint32_t info) {
  auto text = [&](std::string_view key) -> std::string {
    auto value = archive.OptionalField(info, key);
    if (!value.ok() || !*value || archive.IsNull(**value)) return std::string();
    auto string = archive.String(**value);
    return string.ok() && *string != "$null" ? std::string(*string) : std::string();
  };
  std::vector<std::string> summary;
  auto add = [&](const std::string& label, const std::string& value) {
    if (!value.empty()) summary.push_back(label + ": " + value);
  };
  struct Side {
    const char* field;  // the fields' prefix
    const char* label;
  };
  for (Side side : {Side{"_target", "Target"}, Side{"_host", "Host"}}) {
    std::string field(side.field);
    std::string label(side.label);
    add(label + " Name", text(field + "Name"));
    add(label + " Model", text(field + "Model"));
    std::string platform = text(field + "Platform");
    add(label + " " + (platform.empty() ? "OS" : platform), text(field + "OperatingSystem"));
  }
  add("Template Name", text("_templateName"));
  add("End reason", text("_endReason"));
  add("Instruments", text("_instrumentVersion"));
  return summary;
}

}  // namespace instrumentscope::trace_bundle
