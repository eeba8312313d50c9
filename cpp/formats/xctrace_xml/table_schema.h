// Reading a table through its <schema>: which columns hold the sample time,
// thread, weight and stacks, and whether the table holds CPU samples at all.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_SCHEMA_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_SCHEMA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace instrumentscope::xctrace_xml {

struct Column {
  std::string mnemonic;          // "time", "weight", "stack", "cp-user-callstack"…
  std::string engineering_type;  // "sample-time", "cycle-weight", "kperf-bt"…
};

enum class ColumnRole : uint8_t {
  kIgnored,
  kTime,
  kThread,
  kProcess,
  kWeight,
  kStack,        // user (or only) stack
  kKernelStack,  // time-sample's kernel callstack, drawn above the user stack
};

enum class WeightUnit : uint8_t {
  kNanoseconds,  // engineering type "weight"
  kCount,        // cycles, events, or a count of samples when there is no weight column
  kFromCell,     // engineering type "any": <weight> cells are time, others counts
};

struct TableLayout {
  std::string schema;
  bool has_cpu_samples = false;
  std::vector<ColumnRole> roles;  // one per column
  bool has_weight = false;
  WeightUnit weight_unit = WeightUnit::kCount;
  // Events of another table weighted by their durations (WeightedLayout):
  // the time column is their start.
  bool weighted_events = false;
};

// The CPU sample schemas exports are read for, most useful first (tables/catalogue.h).
const std::vector<std::string_view>& CpuSampleSchemas();

TableLayout ReadTableLayout(std::string schema, const std::vector<Column>& columns);

// A table of events with stacks, weighted by their durations.
struct WeightedLayout {
  TableLayout table;   // start time as the sample time, duration as the weight
  std::string weighs;  // "time in page faults"
};

// nullopt unless `schema` is virtual-memory (page faults, weighted by how
// long each took) with a start, a duration and a thread column.
std::optional<WeightedLayout> ReadWeightedLayout(const std::string& schema,
                                                 const std::vector<Column>& columns);

// The run of a <node>, from its xpath "//trace-toc[1]/run[3]/data[1]/table[4]";
// 1 when the xpath names none.
uint32_t RunFromXpath(std::string_view xpath);

// The xctrace command line that exports `schema` of the `run`-th run.
std::string ExportCommand(uint32_t run, std::string_view schema);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_SCHEMA_H_
