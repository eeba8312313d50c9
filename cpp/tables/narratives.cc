#include "tables/narratives.h"

namespace instrumentscope::tables {

std::optional<std::string_view> OffCpuSpan(std::string_view narrative) {
  // Opening words as 26.x writes them, and the span each tells of.
  static constexpr std::pair<std::string_view, std::string_view> kSpans[] = {
      {"Blocked for ", "Blocked"},
      // "The thread was made runnable by … It waited for an available CPU for …"
      {"The thread was ", "Waiting for a CPU"},
      {"Preempted at ", "Preempted"},
      {"Interrupted for ", "Interrupted"},
      {"Idle for ", "Idle"},
  };
  for (const auto& [opening, span] : kSpans) {
    if (narrative.substr(0, opening.size()) == opening) return span;
  }
  return std::nullopt;
}

}  // namespace instrumentscope::tables
