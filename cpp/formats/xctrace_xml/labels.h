// Names shown to people, taken from the `fmt` attributes xctrace writes:
// thread labels, process names and the leaf symbol of an address-only stack.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace instrumentscope::xctrace_xml {

// "Main Thread 0x9db2dc" from any of the thread `fmt` spellings seen:
//   "Main Thread  0xe7716 (java, pid: 23369)"        (Xcode 12–14)
//   "Main Thread 0x2b73e56 (test-simple, pid: 49230)" (Xcode 16)
//   "Main Thread (0x13e4cf3) (a.out, pid: 34963)"     (Xcode 26)
// An unnamed thread becomes "Thread 0x…".
std::string ThreadLabel(std::string_view fmt, uint64_t tid);

// "java" from a process `fmt` "java (23369)".
std::string ProcessName(std::string_view fmt, int64_t pid);

// The leaf symbol from a backtrace `fmt` "mach_msg2_trap ← (8 other frames)";
// empty when the fmt names none.
std::string_view BacktraceLeafName(std::string_view fmt);

// "0x1834a4734"
std::string HexAddress(uint64_t address);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_LABELS_H_
