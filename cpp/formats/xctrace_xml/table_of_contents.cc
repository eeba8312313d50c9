#include "formats/xctrace_xml/table_of_contents.h"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "formats/xctrace_xml/table_schema.h"

namespace instrumentscope::xctrace_xml {

void TableOfContents::Start(Element element, size_t depth, const Attributes& attributes) {
  // A name appears once in a start tag: libxml2 refuses a repeated attribute.
  if (element == Element::kRun && depth == 1) {
    runs_.push_back(Run{attributes.Decoded("number"), {}});
  } else if (element == Element::kTable && !runs_.empty()) {
    std::string schema = attributes.Decoded("schema");
    auto& schemas = runs_.back().schemas;
    if (!schema.empty() && std::find(schemas.begin(), schemas.end(), schema) == schemas.end()) {
      schemas.push_back(std::move(schema));
    }
  }
}

Status TableOfContents::Error() const {
  std::string message =
      "this is a table of contents (xctrace export --toc): it lists the recording's tables but "
      "holds none of their rows.";
  std::string command;
  for (size_t run = 0; run < runs_.size(); ++run) {
    const Run& toc_run = runs_[run];
    std::vector<std::string_view> cpu_schemas;
    for (std::string_view schema : CpuSampleSchemas()) {
      if (std::find(toc_run.schemas.begin(), toc_run.schemas.end(), schema) !=
          toc_run.schemas.end()) {
        cpu_schemas.push_back(schema);
        if (command.empty()) command = ExportCommand(static_cast<uint32_t>(run + 1), schema);
      }
    }
    std::string cpu_tables = JoinList(cpu_schemas);
    message +=
        " Run " + (toc_run.number.empty() ? std::to_string(run + 1) : toc_run.number) +
        (cpu_tables.empty() ? " has no CPU sample table" : " has CPU samples in " + cpu_tables) +
        ".";
  }
  if (command.empty()) {
    message += " Record with the Time Profiler or CPU Profiler template to get CPU samples.";
  } else {
    message += " Export a table with:\n  " + command;
  }
  return Status(ErrorCode::kXmlTableOfContents, message);
}

}  // namespace instrumentscope::xctrace_xml
