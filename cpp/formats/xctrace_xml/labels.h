// Names shown to people, taken from the `fmt` attributes xctrace writes:
// process names and the leaf symbol of an address-only stack. Thread labels
// are in formats/names.h. Also the counted nouns of messages.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace instrumentscope::xctrace_xml {

// "java" from a process `fmt` "java (23369)".
std::string ProcessName(std::string_view fmt, int64_t pid);

// The leaf symbol from a backtrace `fmt` "mach_msg2_trap ← (8 other frames)";
// empty when the fmt names none.
std::string_view BacktraceLeafName(std::string_view fmt);

// "1 row", "2 rows".
std::string Plural(uint64_t count, const char* noun);

// A row with more cells than its table's schema has columns.
Status ExtraCellError(size_t columns);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_
