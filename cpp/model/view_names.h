// The words profiles are named and labelled with, shared by the thread
// profiles, their views and the interval profiles.
#ifndef INSTRUMENTSCOPE_MODEL_VIEW_NAMES_H_
#define INSTRUMENTSCOPE_MODEL_VIEW_NAMES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace instrumentscope {

inline constexpr const char* kUnnamedProcess = "unnamed process";
inline constexpr const char* kUnnamedThread = "unnamed thread";

// "proc (pid 83138)", "pid 83138", "proc", or empty when the input names no process.
std::string ProcessLabel(const std::string& name, int64_t pid);

// The parts of a profile's name that are not empty, joined: "Main Thread
// 0x9db2dc — proc (pid 83138)".
std::string JoinName(const std::vector<std::string>& parts);

// A thread's name without the thread id its end repeats: "_dispatch_worker_thread2"
// of "_dispatch_worker_thread2 0x461f64". Empty for a name that is only an id.
std::string_view PoolName(std::string_view thread_name);

// Nanoseconds as a person reads them: "2.3 s", "812 ms", "4.7 µs", "15 ns".
std::string DurationText(int64_t nanoseconds);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_VIEW_NAMES_H_
