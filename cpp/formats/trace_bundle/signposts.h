// The signposts of corespace runs, as intervals: the os-signpost table
// (Instruments 10+: a row per os_signpost begin, end or event), its Begin
// and End rows paired as Instruments pairs them, its events zero long; and,
// for a run without os-signpost rows only, the tables Instruments derives
// from it: os-signpost-interval (26: the pairs, ready made) and
// region-of-interest (Points of Interest). One source per process,
// subsystem and category: "Points of Interest — com.example.app",
// "Signposts — com.example.app / Networking". See FORMAT.md, "Signposts".
//
// Not read: os-signpost-arg and roi-metadata (the arguments the messages
// already hold), backtraces (never recorded in the corpus), emit locations.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SIGNPOSTS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SIGNPOSTS_H_

#include "base/status.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct IntervalTableRead;
struct Table;

// Table consumers (interval_reader.h). Fail only when the import must end.
Status ReadSignpostTable(BundleContext& bundle, const Table& table, IntervalTableRead* result);
Status ReadSignpostIntervalTable(BundleContext& bundle, const Table& table,
                                 IntervalTableRead* result);
Status ReadRegionOfInterestTable(BundleContext& bundle, const Table& table,
                                 IntervalTableRead* result);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SIGNPOSTS_H_
