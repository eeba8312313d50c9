// What the consumers of interval tables share (signposts.h,
// interval_tables.h): a table's rows, each column read wherever its bits sit
// (RowLayout::Field), the values rows refer to (strings, processes and their
// names, messages), and the intervals, held until the whole table is read,
// then handed to the builder in their sources. A table that cannot be read
// costs only itself: a TABLE_UNREADABLE warning, none of its intervals.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_READER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_READER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/messages.h"
#include "formats/trace_bundle/tables.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

using DuringViews = ProfileBuilder::DuringViews;

// What an interval consumer did with its table.
struct IntervalTableRead {
  uint64_t rows = 0;      // its rows, for the listing
  bool read = false;      // false: only listed (another table holds the same data)
  bool left_out = false;  // it could not be read, and was said so
};

class IntervalReader {
 public:
  IntervalReader(BundleContext& bundle, const Table& table, CoreRunState& run, TableRows rows)
      : bundle_(bundle), table_(table), run_(run), rows_(std::move(rows)) {}

  const Table& table() const { return table_; }
  const TableRows& rows() const { return rows_; }
  BundleContext& bundle() { return bundle_; }
  // A column wherever it sits, topology parts included; absent: width 0.
  BitSlot Field(std::string_view mnemonic) const { return rows_.layout().Field(mnemonic); }
  // The time a column gives, in ns since the run started.
  Result<int64_t> Time(const Row& row, const BitSlot& slot) const;
  // When an interval from `start` ends, by its duration column: kOpenEnd
  // for all ones, still going when the recording stopped (durations.h); an
  // error when the end overflows.
  Result<int64_t> End(const Row& row, const BitSlot& duration, int64_t start) const;

  // The string a column refers to ("" for none, kNoReference).
  Result<std::string_view> String(uint64_t index);
  // The pid of a process reference (-1 for none).
  Result<int64_t> Pid(uint64_t process_ref);
  // The process's name as threads name it (threads.h), "" when the bundle has none.
  std::string ProcessName(int64_t pid) const;
  // The text of a message (typed array) reference; nullopt when the run's
  // messages cannot be read, which is said once per run (MESSAGES_UNREADABLE).
  Result<std::optional<std::string>> Message(uint64_t ref);

  // Where intervals go: a source of this table, by name and pid.
  using SourceIndex = size_t;
  SourceIndex Source(std::string name, int64_t pid, DuringViews during,
                     std::string during_name = std::string());
  void Add(SourceIndex source, int64_t start, int64_t end, std::string name, std::string label);
  // Hands the sources and intervals to the builder.
  Status Commit();
  size_t interval_count() const { return intervals_.size(); }

 private:
  struct PendingSource {
    std::string name;
    int64_t pid;
    DuringViews during;
    std::string during_name;
  };
  struct PendingInterval {
    SourceIndex source;
    int64_t start;
    int64_t end;
    std::string name;
    std::string label;
  };

  BundleContext& bundle_;
  const Table& table_;
  CoreRunState& run_;
  TableRows rows_;
  std::vector<PendingSource> sources_;
  std::map<std::pair<std::string, int64_t>, SourceIndex> source_index_;
  std::vector<PendingInterval> intervals_;
  std::optional<MessageReader> messages_;
};

// Reads `table` for its intervals: `read(IntervalReader&)` reads its rows
// (returning the error of the first row it cannot read, located with
// TableRows::InRow), then the intervals are committed. A table that cannot be
// read is left out with a TABLE_UNREADABLE warning; fails only when the
// import must end.
Status ReadIntervalTable(BundleContext& bundle, const Table& table, IntervalTableRead* result,
                         const std::function<Status(IntervalReader&)>& read);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_INTERVAL_READER_H_
