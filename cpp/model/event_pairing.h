// Begin and end events made intervals, as Instruments pairs os_signpost
// begins and ends (and kdebug-style run loop events): in time order, an end
// closes the newest begin still open with the same key. Importers number the
// keys (what makes a begin and an end one interval: a signpost's process,
// subsystem, category, name and id; a thread and an interval type) and keep
// what the events say; this says which events make each interval.
//
// Kept, not dropped: an end whose begin came before the recording (drawn from
// the run's start), a begin never ended (drawn to the run's end), and points
// in time (zero long).
#ifndef INSTRUMENTSCOPE_MODEL_EVENT_PAIRING_H_
#define INSTRUMENTSCOPE_MODEL_EVENT_PAIRING_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace instrumentscope {

enum class EventRole : uint8_t { kBegin, kEnd, kPoint };

struct KeyedEvent {
  int64_t time;  // ns since the run started
  uint64_t key;
  EventRole role;
};

// The events that make one interval, as indexes into the events paired.
struct PairedEvents {
  static constexpr size_t kNone = SIZE_MAX;
  size_t begin = kNone;  // kNone: ended without beginning in the recording
  size_t end = kNone;    // kNone: begun and never ended; a point is its own begin and end

  bool unbegun() const { return begin == kNone; }
  bool unended() const { return end == kNone; }
  // The event whose name and message label the interval: its begin's, else its end's.
  size_t first() const { return begin == kNone ? end : begin; }
  // When it starts: its begin's time, or `open_start` (the builder's kOpenStart) when unbegun.
  int64_t StartTime(const std::vector<KeyedEvent>& events, int64_t open_start) const {
    return unbegun() ? open_start : events[begin].time;
  }
  // When it ends: its end's time, or `open_end` (the builder's kOpenEnd) when unended.
  int64_t EndTime(const std::vector<KeyedEvent>& events, int64_t open_end) const {
    return unended() ? open_end : events[end].time;
  }
};

// Events in any order (ties in time keep theirs). The intervals come as each
// closes (points as they happen, pairs at their end, unbegun ends at their
// end), then those never ended in the order they began.
std::vector<PairedEvents> PairEvents(const std::vector<KeyedEvent>& events);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_EVENT_PAIRING_H_
