#include "model/view_names.h"

#include <cstdio>

#include "base/text.h"

namespace instrumentscope {

std::string ProcessLabel(const std::string& name, int64_t pid) {
  if (pid < 0) return name;
  std::string id = std::to_string(pid);
  return name.empty() ? "pid " + id : name + " (pid " + id + ")";
}

std::string JoinName(const std::vector<std::string>& parts) {
  std::vector<std::string> named;
  for (const std::string& part : parts) {
    if (!part.empty()) named.push_back(part);
  }
  return JoinList(named, " — ");
}

std::string_view PoolName(std::string_view thread_name) {
  size_t space = thread_name.rfind(' ');
  if (space == std::string_view::npos) return thread_name.substr(0, 2) == "0x" ? "" : thread_name;
  std::string_view id = thread_name.substr(space + 1);
  bool is_id = id.size() > 2 && id.substr(0, 2) == "0x" &&
               id.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string_view::npos;
  return is_id ? TrimWhitespace(thread_name.substr(0, space)) : thread_name;
}

std::string DurationText(int64_t nanoseconds) {
  struct Unit {
    double size;
    const char* name;
  };
  constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}};
  for (const Unit& unit : kUnits) {
    double value = static_cast<double>(nanoseconds) / unit.size;
    if (value < 1) continue;
    char text[32];
    std::snprintf(text, sizeof text, value < 100 ? "%.3g %s" : "%.0f %s", value, unit.name);
    return text;
  }
  return std::to_string(nanoseconds) + " ns";
}

}  // namespace instrumentscope
