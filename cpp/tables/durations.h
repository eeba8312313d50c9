// Interval durations as recordings give them, read alike from bundles and
// exports: a duration of all ones means the interval was still going when the
// recording stopped [26.0: a life-cycle-period row], which is drawn to the end
// of its run like any interval that never ended, not refused as damage.
#ifndef INSTRUMENTSCOPE_TABLES_DURATIONS_H_
#define INSTRUMENTSCOPE_TABLES_DURATIONS_H_

#include <cstdint>
#include <optional>

#include "model/profile_builder.h"

namespace instrumentscope::tables {

// Whether a duration of `bits` bits (a bundle may pack it in fewer than 64)
// is all ones: still going when the recording stopped.
inline bool StillGoing(uint64_t duration, uint32_t bits = 64) {
  return duration == (bits >= 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1);
}

// When an interval of `duration` ns from `start` (ns since the run started)
// ends: ProfileBuilder::kOpenEnd when StillGoing(); nullopt when the end lies
// past the largest time the builder keeps.
inline std::optional<int64_t> IntervalEnd(int64_t start, uint64_t duration, uint32_t bits = 64) {
  if (StillGoing(duration, bits)) return ProfileBuilder::kOpenEnd;
  if (start < 0 || duration > static_cast<uint64_t>(ProfileBuilder::kOpenEnd - 1 - start)) {
    return std::nullopt;
  }
  return start + static_cast<int64_t>(duration);
}

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_DURATIONS_H_
