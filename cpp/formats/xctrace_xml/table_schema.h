// What an export's <schema> and <node> say of a table beyond its catalogue
// entry (tables/catalogue.h): its columns' engineering types, and its run.
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
  std::string engineering_type;  // "sample-time", "thread", "kperf-bt"…
};

// The CPU sample schemas exports are read for, most useful first (tables/catalogue.h).
const std::vector<std::string_view>& CpuSampleSchemas();

// The run of a <node>, from its xpath "//trace-toc[1]/run[3]/data[1]/table[4]";
// 1 when the xpath names none.
uint32_t RunFromXpath(std::string_view xpath);

// The xctrace command line that exports `schema` of the `run`-th run.
std::string ExportCommand(uint32_t run, std::string_view schema);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_SCHEMA_H_
