// The Instruments tables read as intervals and events, each described once,
// whether a bundle's bulkstore or an `xctrace export` carries its rows: the
// schema name and the versions it was seen in, the columns it needs (by
// mnemonic, with the role each plays and the kind of value it holds), what
// it becomes, its label and how its sources split, whether "during" views
// apply, which table wins when several hold the same data, and what is lost
// when it cannot be read. Both readers find their columns here and decode
// rows into TypedRows for the table's consumer (consumers.h).
//
// The tables of CPU samples, of names and of weighted events are listed here
// too (OtherTables()): what each becomes and which readers read it. Their
// rows are still decoded and consumed by their format's own readers
// (trace_bundle/time_profile, threads; xctrace_xml/row_assembler).
#ifndef INSTRUMENTSCOPE_TABLES_CATALOGUE_H_
#define INSTRUMENTSCOPE_TABLES_CATALOGUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile_builder.h"
#include "tables/typed_row.h"

namespace instrumentscope::tables {

struct ColumnSpec {
  std::string_view mnemonic;  // as the schema names it, in bundles and exports alike
  Role role;
  ValueType type;
  bool required = false;  // without it, the table cannot be read
};

// What a table's rows become, and which consumer makes it.
enum class Consumer : uint8_t {
  kLabelledIntervals,  // an interval (or an event) per row, labelled by one column
  kSignpostEvents,     // begins, ends and events, paired as Instruments pairs them
  kSignpostIntervals,  // ready-made signpost intervals
  kRegions,            // Points of Interest: ready-made, their messages naming them
  kRunLoopEvents,      // kdebug-style starts and ends, paired per thread
};

// How a table's intervals split into sources (one evented profile each).
enum class SourceSplit : uint8_t {
  kRun,      // one source per run
  kProcess,  // per process: the row's process, else its thread's
  kThread,   // per thread
};

struct TableEntry {
  std::string_view schema;
  std::string_view seen;  // where its rows were seen: versions, bundle or export
  Consumer consumer;
  std::vector<ColumnSpec> columns;  // a role given twice: the first column the schema has
  std::string_view source;          // "Thermal state"; split parts follow " — "
  std::string_view unlabelled;      // the label of a row without one
  SourceSplit split;
  // Samples during the intervals (none for single events: a table without a duration or end).
  ProfileBuilder::DuringViews during = ProfileBuilder::DuringViews::kNone;
  std::string_view during_name;  // kAll's: "hangs"
  // Tables that hold the same intervals, the one Instruments derives the
  // others from first: a run keeps those of the first it has intervals of.
  std::optional<int> repeats_rank;
  std::string_view lost;  // what the profile lacks when the table cannot be read
};

// Every entry, in the order bundles read them: tables that repeat one
// another first, so that the one kept is known before the rest.
const std::vector<TableEntry>& Catalogue();

// The entry of `schema`, or null: a table only listed.
const TableEntry* FindTable(std::string_view schema);

// A table read whole by a format's own reader, not (yet) through typed rows.
struct OtherTable {
  enum class Becomes : uint8_t {
    kCpuSamples,      // a sample per row, on its thread, with its backtrace
    kNames,           // the names of threads and processes
    kWeightedEvents,  // events with backtraces, weighted by their durations
  };
  std::string_view schema;
  std::string_view seen;
  Becomes becomes;
  bool from_bundles;
  bool from_exports;
  std::string_view weighs;  // kWeightedEvents: what the weight is ("time in page faults")
};

// Most useful first: among tables of CPU samples, the one to export.
const std::vector<OtherTable>& OtherTables();
const OtherTable* FindOtherTable(std::string_view schema);
// The schemas of CPU samples an export or a bundle (`from_bundles`) is read for.
std::vector<std::string_view> CpuSampleSchemas(bool from_bundles);

// "the X table has no a or b column": why a table lacking required columns is not read.
std::string MissingColumnsMessage(const TableEntry& entry,
                                  const std::vector<std::string_view>& missing);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_CATALOGUE_H_
