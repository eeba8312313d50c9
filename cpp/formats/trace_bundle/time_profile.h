// The CPU samples of corespace runs: the time-profile table (Instruments 8.3
// and later), a row per sample with its time, thread, process, weight and
// stack reference (FORMAT.md, "time-profile rows"). A run whose table cannot
// be read is left out with a warning; the other runs import. Not read: the
// core and thread-state columns, and the other sample tables (cpu-profile,
// counters-profile), which diagnostics.h names.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TIME_PROFILE_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TIME_PROFILE_H_

#include <string_view>

#include "base/status.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct Table;

inline constexpr std::string_view kTimeProfileTable = "time-profile";

// Table consumer. Fails only when the import must end: a limit reached.
Status ImportTimeProfile(BundleContext& bundle, const Table& table);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TIME_PROFILE_H_
