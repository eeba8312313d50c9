// A corespace run's tables of CPU samples (tables/catalogue.h: of bundles,
// time-profile, Instruments 8.3 and later), their rows decoded
// (row_decoder.h) for the samples consumer (tables/samples.h): a row per
// sample with its time, thread, process, weight and stack reference
// (FORMAT.md, "time-profile rows"). A run whose table cannot be read is left
// out with a warning; the other runs import. The other tables of samples
// (cpu-profile, counters-profile, time-sample) are not read from bundles:
// diagnostics.h names them.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SAMPLE_ROWS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SAMPLE_ROWS_H_

#include "base/status.h"
#include "tables/catalogue.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct Table;

// Reads `table`, an `entry` of the catalogue, and commits its samples. Fails
// only when the import must end: a limit reached.
Status ReadSampleTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SAMPLE_ROWS_H_
