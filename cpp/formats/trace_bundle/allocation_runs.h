// The Allocations instrument's runs (Instruments 6 to 9): the events of
// Trace<N>.run/event_data_<pid>.oa with the backtraces of the run's shared
// data (allocations.h decodes both; FORMAT.md, "Allocations", has the
// layouts), as profiles of each thread's heap allocations: every one of the
// recording ("all allocations") and those never freed in it ("still alive at
// the end", the "Created & Still Living" of Instruments' call tree), each
// weighted by its bytes and counted; the VM regions mapped, apart, by bytes
// (malloc maps most of them for its own blocks: counted with the blocks, the
// same bytes would count twice). A run whose files cannot be read is left out
// with a warning; the other runs import.
//
// Not read: events of other kinds (retains and releases: none in the
// corpus), said in a warning with their count; frees of blocks allocated
// before the recording started (no profile could show them).
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATION_RUNS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATION_RUNS_H_

#include <string_view>

#include "base/status.h"

namespace instrumentscope::trace_bundle {

class BundleContext;

inline constexpr std::string_view kAllocationsTable = "allocations";

// Fails only when the import must end: a limit reached.
Status ImportAllocationRuns(BundleContext& bundle);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATION_RUNS_H_
