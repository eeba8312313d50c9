#include "formats/xctrace_xml/table_schema.h"

#include "tables/catalogue.h"

namespace instrumentscope::xctrace_xml {

const std::vector<std::string_view>& CpuSampleSchemas() {
  static const std::vector<std::string_view> schemas = tables::CpuSampleSchemas(false);
  return schemas;
}

uint32_t RunFromXpath(std::string_view xpath) {
  static constexpr std::string_view kRun = "/run[";
  size_t start = xpath.find(kRun);
  if (start == std::string_view::npos) return 1;
  uint64_t run = 0;
  bool digits = false;
  for (size_t i = start + kRun.size(); i < xpath.size() && xpath[i] >= '0' && xpath[i] <= '9';
       ++i) {
    run = run * 10 + static_cast<uint64_t>(xpath[i] - '0');
    digits = true;
    if (run > UINT32_MAX) return 1;
  }
  return digits && run > 0 ? static_cast<uint32_t>(run) : 1;
}

std::string ExportCommand(uint32_t run, std::string_view schema) {
  return "xctrace export --input YOUR.trace --xpath '/trace-toc/run[" + std::to_string(run) +
         "]/data/table[@schema=\"" + std::string(schema) + "\"]' --output " + std::string(schema) +
         ".xml";
}

}  // namespace instrumentscope::xctrace_xml
