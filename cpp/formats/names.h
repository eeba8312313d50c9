// Thread labels as Instruments writes them, shared by the importers.
#ifndef INSTRUMENTSCOPE_FORMATS_NAMES_H_
#define INSTRUMENTSCOPE_FORMATS_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace instrumentscope {

// "Main Thread 0x9db2dc" from the ways Instruments writes thread names:
//   "Main Thread  0xe7716 (java, pid: 23369)"        (xctrace, Xcode 12–14)
//   "Main Thread 0x2b73e56 (test-simple, pid: 49230)" (xctrace, Xcode 16)
//   "Main Thread (0x13e4cf3) (a.out, pid: 34963)"     (xctrace, Xcode 26)
//   "Main Thread  0x3c1feee"                          (form.template, 8–11)
// An unnamed thread becomes "Thread 0x…".
std::string ThreadLabel(std::string_view name, uint64_t tid);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_FORMATS_NAMES_H_
