// The speedscope file format, as produced here: the subset of
// https://www.speedscope.app/file-format-schema.json that instrumentscope
// writes (sampled and evented profiles, shared frames). web/src/index.d.ts mirrors it for
// JavaScript callers, and tests validate every output against the schema.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_FILE_FORMAT_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_FILE_FORMAT_H_

#include "model/profile.h"

namespace instrumentscope::speedscope {

inline constexpr const char* kSchemaUrl = "https://www.speedscope.app/file-format-schema.json";
inline constexpr const char* kSampledProfileType = "sampled";
inline constexpr const char* kEventedProfileType = "evented";

// Which FileFormat.Profile a profile is written as.
inline bool IsEvented(const Profile& profile) {
  return profile.kind == ProfileKind::kIntervals;
}

// The summary's and the JavaScript API's name for a profile's kind.
inline const char* KindName(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::kThread: return "thread";
    case ProfileKind::kWeighted: return "weighted";
    case ProfileKind::kAllThreads: return "all-threads";
    case ProfileKind::kThreadPool: return "thread-pool";
    case ProfileKind::kIntervals: return "intervals";
    case ProfileKind::kDuring: return "during";
    case ProfileKind::kAllocations: return "allocations";
    case ProfileKind::kVmRegions: return "vm-regions";
  }
  return "thread";
}

// FileFormat.ValueUnit
inline const char* UnitName(ValueUnit unit) {
  switch (unit) {
    case ValueUnit::kNone: return "none";
    case ValueUnit::kNanoseconds: return "nanoseconds";
    case ValueUnit::kBytes: return "bytes";
  }
  return "none";
}

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_FILE_FORMAT_H_
