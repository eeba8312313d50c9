// Every Instruments table the project reads, each described once, whether a
// bundle's bulkstore or an `xctrace export` carries its rows: the schema name
// and the versions it was seen in, which readers read it, the columns it
// needs (by mnemonic, with the role each plays and the kind of value it
// holds), what it becomes (CPU samples, intervals, events weighted by their
// durations, names of threads and processes), its label and how its sources
// split, whether "during" views apply, which table wins when several hold the
// same data, and what is lost when it cannot be read. Both readers find their
// columns here and decode rows into TypedRows for the table's consumer
// (consumers.h, samples.h, names.h). A table not here is only listed.
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
  kThreadStates,       // a thread's scheduling states, a lane per thread (scheduling.cc)
  kCoreStates,         // what each CPU core ran, a lane per core (scheduling.cc)
  kCpuSamples,         // a sample per row, on its thread, with its backtrace (samples.h)
  kWeightedEvents,     // a sample per row, weighing its duration (samples.h)
  kThreadNames,        // the names of threads (names.h)
  kProcessNames,       // the names of processes (names.h)
};

// Whether a table of `consumer` becomes intervals (consumers.h).
inline bool MakesIntervals(Consumer consumer) {
  return consumer < Consumer::kCpuSamples;
}

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
  std::string_view during_name = {};  // kAll's: "hangs"
  // Tables that hold the same intervals, the one Instruments derives the
  // others from first: a run keeps those of the first it has intervals of.
  std::optional<int> repeats_rank = std::nullopt;
  std::string_view lost = {};    // what the profile lacks when the table cannot be read
  bool from_bundles = true;      // read from a bundle's bulkstore
  bool from_exports = true;      // read from an xctrace export
  std::string_view weighs = {};  // kWeightedEvents: what the weight is ("time in page faults")
  std::string_view second_weighs = {};  // and the kSecondWeight column's ("wait in system calls")
};

// Every entry: among tables of intervals, in the order bundles read them
// (tables that repeat one another first, so that the one kept is known
// before the rest); among tables of CPU samples, most useful first (the one
// to export).
const std::vector<TableEntry>& Catalogue();

// The entry of `schema`, or null: a table only listed.
const TableEntry* FindTable(std::string_view schema);

// Whether a table has columns read as text (names, labels, counts): an
// export's reader keeps its cells' texts only for such tables.
bool ReadsTexts(const TableEntry& entry);

// The schemas of CPU samples an export or a bundle (`from_bundles`) is read for,
// most useful first.
std::vector<std::string_view> CpuSampleSchemas(bool from_bundles);

// What a weight column's values are, by its engineering type as a bundle's
// schema.xml or an export's <schema> spells it.
enum class WeightUnit : uint8_t {
  kNanoseconds,  // XRTimeSampleWeightTypeID, "weight" (time-profile)
  kCount,        // "cycle-weight" (cpu-profile), and any other type
  kFromCell,     // XRAnyTypeID, "any" (counters-profile): a time in <weight> cells, else a count
};
WeightUnit WeightUnitOf(std::string_view engineering_type);

// "the X table has no a or b column": why a table lacking required columns is not read.
std::string MissingColumnsMessage(const TableEntry& entry,
                                  const std::vector<std::string_view>& missing);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_CATALOGUE_H_
