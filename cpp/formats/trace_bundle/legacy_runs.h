// The legacy Time Profiler's runs (Instruments 4.5 to 9.2): the records of
// Trace<N>.run/<UUID>-sampler.data with the backtraces and threads of the run
// archive instrument_data/<UUID>/run_data/<N>.run.zip (legacy_sampler.h
// decodes both; FORMAT.md, last section, has the layouts). A run without its
// archive, or whose files cannot be read, is left out with a warning; the
// other runs import. Not read: the records' cpu, thread state and running
// time.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_RUNS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_RUNS_H_

#include "base/status.h"

namespace instrumentscope::trace_bundle {

class BundleContext;

// Fails only when the import must end: a limit reached.
Status ImportLegacyRuns(BundleContext& bundle);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_RUNS_H_
