// The rows of a bundle's interval tables (tables/catalogue.h), decoded into
// TypedRows for their consumers (tables/consumers.h): each column found by
// its mnemonic wherever its bits sit (RowLayout::Field, topology parts
// included); times and durations as stored (a duration's width kept, so
// that all ones reads as "still going"); strings from the run's strings
// file; messages (narrative and os-log-metadata columns, typed arrays) made
// text; processes and threads from the run's uniquer. A table that cannot
// be read costs only itself: a TABLE_UNREADABLE warning, none of its
// intervals.
//
// A thread's process is looked up only where the table splits by thread or
// names no process itself.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_ROWS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_ROWS_H_

#include <cstdint>

#include "base/status.h"
#include "tables/catalogue.h"
#include "tables/table_committer.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct Table;

// What reading an interval table came to.
struct IntervalTableRead {
  uint64_t rows = 0;      // its rows, for the listing
  bool read = false;      // its intervals were made
  bool left_out = false;  // it could not be read, and was said so
};

// Reads `table`, an `entry` of the catalogue, and hands its intervals to
// `committer`. Fails only when the import must end.
Status ReadIntervalTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                         tables::TableCommitter& committer, IntervalTableRead* result);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_ROWS_H_
