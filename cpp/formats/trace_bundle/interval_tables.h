// Tables of intervals and events other than signposts, each a source per
// process (when the table names one): device-thermal-state-intervals
// ("Thermal state"), life-cycle-period ("Life cycle"), app-spin ("App
// spins", events), potential-hangs ("Hangs") and hang-risks ("Hang risks",
// events), and runloop-events ("Run loop iterations", a source per thread:
// start and end events paired). See FORMAT.md, "Other interval tables", for
// the layouts and the versions seen.
//
// Not confirmed on rows (the corpus has their schemas only): potential-hangs
// and hang-risks. Not read: narratives of thermal states and periods (the
// label says as much), hang backtraces.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_TABLES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_TABLES_H_

#include "base/status.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct IntervalTableRead;
struct Table;

// Table consumers (interval_reader.h). Fail only when the import must end.
Status ReadThermalStateTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadLifeCycleTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadAppSpinTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadPotentialHangTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadHangRiskTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadRunLoopTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_TABLES_H_
