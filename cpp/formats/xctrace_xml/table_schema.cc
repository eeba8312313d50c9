#include "formats/xctrace_xml/table_schema.h"

#include <algorithm>

#include "tables/catalogue.h"

namespace instrumentscope::xctrace_xml {

const std::vector<std::string_view>& CpuSampleSchemas() {
  static const std::vector<std::string_view> schemas = tables::CpuSampleSchemas(false);
  return schemas;
}

TableLayout ReadTableLayout(std::string schema, const std::vector<Column>& columns) {
  TableLayout layout;
  layout.schema = std::move(schema);
  bool has_time = false, has_thread = false, has_stack = false;
  for (const Column& column : columns) {
    const std::string& type = column.engineering_type;
    ColumnRole role = ColumnRole::kIgnored;
    if (type == "sample-time" && !has_time) {
      role = ColumnRole::kTime;
      has_time = true;
    } else if (type == "thread" && !has_thread) {
      role = ColumnRole::kThread;
      has_thread = true;
    } else if (type == "process") {
      role = ColumnRole::kProcess;
    } else if (column.mnemonic == "weight" && !layout.has_weight) {
      role = ColumnRole::kWeight;
      layout.has_weight = true;
      layout.weight_unit = type == "weight" ? WeightUnit::kNanoseconds
                           : type == "any"  ? WeightUnit::kFromCell
                                            : WeightUnit::kCount;
    } else if (type == "backtrace" || type == "tagged-backtrace" || type == "kperf-bt") {
      bool kernel = column.mnemonic.find("kernel") != std::string::npos;
      role = kernel ? ColumnRole::kKernelStack : ColumnRole::kStack;
      has_stack = true;
    }
    layout.roles.push_back(role);
  }
  const auto& known = CpuSampleSchemas();
  layout.has_cpu_samples = std::find(known.begin(), known.end(), layout.schema) != known.end() &&
                           has_time && has_thread && has_stack;
  return layout;
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

std::optional<WeightedLayout> ReadWeightedLayout(const std::string& schema,
                                                 const std::vector<Column>& columns) {
  const tables::OtherTable* table = tables::FindOtherTable(schema);
  if (!table || table->becomes != tables::OtherTable::Becomes::kWeightedEvents) {
    return std::nullopt;
  }
  WeightedLayout weighted;
  TableLayout& layout = weighted.table;
  layout.schema = schema;
  bool has_time = false, has_thread = false, has_process = false;
  for (const Column& column : columns) {
    const std::string& type = column.engineering_type;
    ColumnRole role = ColumnRole::kIgnored;
    if (!has_time && (type == "start-time" || column.mnemonic == "start")) {
      role = ColumnRole::kTime;
      has_time = true;
    } else if (!layout.has_weight && (type == "duration" || column.mnemonic == "duration")) {
      role = ColumnRole::kWeight;
      layout.has_weight = true;
      layout.weight_unit = WeightUnit::kNanoseconds;
    } else if (!has_thread && (type == "thread" || column.mnemonic == "thread")) {
      role = ColumnRole::kThread;
      has_thread = true;
    } else if (!has_process && (type == "process" || column.mnemonic == "process")) {
      role = ColumnRole::kProcess;
      has_process = true;
    } else if (type == "backtrace") {
      role = ColumnRole::kStack;
    }
    layout.roles.push_back(role);
  }
  if (!has_time || !layout.has_weight || !has_thread) return std::nullopt;
  layout.weighted_events = true;
  weighted.weighs = std::string(table->weighs);
  return weighted;
}

}  // namespace instrumentscope::xctrace_xml
