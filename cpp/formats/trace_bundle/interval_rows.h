// A bundle's interval tables (tables/catalogue.h), their rows decoded
// (row_decoder.h) for their consumers (tables/consumers.h). A table that
// cannot be read costs only itself: a TABLE_UNREADABLE warning, none of its
// intervals.
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
