#include "model/event_pairing.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace instrumentscope {

std::vector<PairedEvents> PairEvents(const std::vector<KeyedEvent>& events) {
  // Rows are mostly in time order, not always.
  std::vector<size_t> order(events.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&events](size_t a, size_t b) { return events[a].time < events[b].time; });

  std::vector<PairedEvents> intervals;
  std::unordered_map<uint64_t, std::vector<size_t>> open;  // by key, newest last
  std::vector<size_t> begun;                               // every begin, in time order
  for (size_t i : order) {
    const KeyedEvent& event = events[i];
    switch (event.role) {
      case EventRole::kPoint: intervals.push_back(PairedEvents{i, i}); break;
      case EventRole::kBegin:
        open[event.key].push_back(i);
        begun.push_back(i);
        break;
      case EventRole::kEnd: {
        std::vector<size_t>& begins = open[event.key];
        if (begins.empty()) {
          intervals.push_back(PairedEvents{PairedEvents::kNone, i});
        } else {
          intervals.push_back(PairedEvents{begins.back(), i});
          begins.pop_back();
        }
        break;
      }
    }
  }
  // Those still open, in the order they began.
  std::vector<bool> still_open(events.size(), false);
  for (const auto& entry : open) {
    for (size_t i : entry.second) still_open[i] = true;
  }
  for (size_t i : begun) {
    if (still_open[i]) intervals.push_back(PairedEvents{i, PairedEvents::kNone});
  }
  return intervals;
}

}  // namespace instrumentscope
