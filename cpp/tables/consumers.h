// The consumers of interval tables: one per kind (catalogue.h, Consumer),
// fed TypedRows by either reader, making an IntervalTable of them. Sources
// are named and intervals labelled as a person reads them, once for both
// readers: "Points of Interest — com.example.app", "Load feed — id 0x1a: 3
// items", "Run loop iterations — Main Thread 0x3c1feee".
//
// Rows that make no interval are refused with a message that says why
// ("has no start time"); the reader adds where the row is.
#ifndef INSTRUMENTSCOPE_TABLES_CONSUMERS_H_
#define INSTRUMENTSCOPE_TABLES_CONSUMERS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "base/status.h"
#include "tables/catalogue.h"
#include "tables/interval_table.h"
#include "tables/typed_row.h"

namespace instrumentscope::tables {

// What a consumer asks of the reader that decoded its rows.
class RowContext {
 public:
  virtual ~RowContext() = default;
  // A thread's name as profiles name it ("Main Thread 0x3c1feee").
  virtual std::string ThreadName(const Value& thread) = 0;
  // The name of process `pid`, "" when the recording has none (the builder says "pid N").
  virtual std::string ProcessName(int64_t pid) = 0;
};

class IntervalConsumer {
 public:
  virtual ~IntervalConsumer() = default;
  // A row; an error refuses it, saying why.
  virtual Status Add(const TypedRow& row) = 0;
  // After the last row: the table's intervals (pairs made of held rows).
  virtual Result<IntervalTable> Finish() = 0;
};

// Sees every row a reader decodes, as its consumer does: for tests and
// tools that hold one reader's rows against another's.
class RowObserver {
 public:
  virtual ~RowObserver() = default;
  // The rows that follow are those of `entry`'s table in `run`; `columns`: the roles it fills.
  virtual void StartTable(const TableEntry& entry, uint32_t run, RoleSet columns) = 0;
  virtual void Row(const TypedRow& row, RowContext& context) = 0;
};

// The consumer of `entry`'s rows in `run`, a table of intervals
// (MakesIntervals); `columns`: the roles its schema fills.
std::unique_ptr<IntervalConsumer> MakeConsumer(const TableEntry& entry, uint32_t run,
                                               RoleSet columns, RowContext& context);

// A row's start and end, in ns since its run started: an end from its
// duration (all ones: ProfileBuilder::kOpenEnd), else its end column; a row
// with neither in a table that has such columns never ended (kOpenEnd); in
// a table without, it is an event (zero long). An error says what is wrong.
Result<std::pair<int64_t, int64_t>> RowSpan(const TypedRow& row, RoleSet columns);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_CONSUMERS_H_
