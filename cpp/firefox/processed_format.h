// The Firefox Profiler's processed profile format as written here: version
// 69, the version https://profiler.firefox.com reads today (newer builds
// upgrade it; an older build refuses a newer file). Its definition is the
// profiler's src/types/profile.ts; FORMAT.md beside this file lists what is
// written and why. web/src/index.d.ts mirrors it for JavaScript callers.
#ifndef INSTRUMENTSCOPE_FIREFOX_PROCESSED_FORMAT_H_
#define INSTRUMENTSCOPE_FIREFOX_PROCESSED_FORMAT_H_

#include <cstdint>

namespace instrumentscope::firefox {

inline constexpr int kProcessedProfileVersion = 69;
// meta.version: the Gecko profile version of the profiler's day, required
// though it says nothing of a processed profile.
inline constexpr int kGeckoProfileVersion = 36;

// meta.categories, by index. Frames take theirs from their binary; a stack's
// category is its top frame's. The profiler draws samples of stacks without
// one in the first grey category.
enum class Category : uint8_t {
  kOther,      // grey: frames in no known binary
  kUser,       // blue: the recording's own code
  kSystem,     // yellow: Apple's libraries and frameworks
  kKernel,     // orange: the kernel and its extensions
  kIntervals,  // green: markers of intervals
};
inline constexpr Category kCategories[] = {Category::kOther, Category::kUser, Category::kSystem,
                                           Category::kKernel, Category::kIntervals};
const char* CategoryName(Category category);
const char* CategoryColor(Category category);

// samples.weightType
inline constexpr const char* kWeightSamples = "samples";
inline constexpr const char* kWeightTracingMs = "tracing-ms";
inline constexpr const char* kWeightBytes = "bytes";

// markers.phase
inline constexpr int kPhaseInterval = 1;

// resourceTable.type of a native library.
inline constexpr int kResourceLibrary = 1;

}  // namespace instrumentscope::firefox

#endif  // INSTRUMENTSCOPE_FIREFOX_PROCESSED_FORMAT_H_
