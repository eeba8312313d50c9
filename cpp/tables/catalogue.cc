#include "tables/catalogue.h"

#include <algorithm>
#include <string>

namespace instrumentscope::tables {
namespace {

using DuringViews = ProfileBuilder::DuringViews;

// Columns most tables share.
constexpr ColumnSpec kStart = {"start", Role::kStart, ValueType::kTime, true};
constexpr ColumnSpec kDuration = {"duration", Role::kDuration, ValueType::kDuration, true};
constexpr ColumnSpec kOptionalDuration = {"duration", Role::kDuration, ValueType::kDuration};
constexpr ColumnSpec kProcess = {"process", Role::kProcess, ValueType::kProcess};
constexpr ColumnSpec kThread = {"thread", Role::kThread, ValueType::kThread};
constexpr ColumnSpec kStartThread = {"start-thread", Role::kThread, ValueType::kThread};
constexpr ColumnSpec kName = {"name", Role::kName, ValueType::kText};
constexpr ColumnSpec kSubsystem = {"subsystem", Role::kSubsystem, ValueType::kText};
constexpr ColumnSpec kCategory = {"category", Role::kCategory, ValueType::kText};
constexpr ColumnSpec kIdentifier = {"identifier", Role::kIdentifier, ValueType::kNumber};
constexpr ColumnSpec kStartMessage = {"start-message", Role::kStartMessage, ValueType::kText};
constexpr ColumnSpec kEndMessage = {"end-message", Role::kEndMessage, ValueType::kText};

constexpr std::string_view kIntervalsLost = "its intervals";

std::vector<TableEntry> MakeCatalogue() {
  std::vector<TableEntry> entries;
  // Signposts: os-signpost-interval and region-of-interest are Instruments'
  // own derivations of os-signpost (a bundle's show the same pairs and points).
  entries.push_back(
      TableEntry{"os-signpost",
                 "bundles 11.4.1, 26.2 (18,634 rows); exports said to follow xctrace 16's",
                 Consumer::kSignpostEvents,
                 {{"time", Role::kStart, ValueType::kTime, true},
                  kThread,
                  kProcess,
                  {"event-type", Role::kEventType, ValueType::kText},
                  {"scope", Role::kScope, ValueType::kText},
                  kIdentifier,
                  kName,
                  {"format-string", Role::kFormat, ValueType::kText},
                  kSubsystem,
                  kCategory,
                  {"message", Role::kMessage, ValueType::kText}},
                 "Signposts",
                 "Signpost",
                 SourceSplit::kProcess,
                 DuringViews::kBusiestNames,
                 "",
                 0,
                 "its signposts"});
  entries.push_back(TableEntry{"os-signpost-interval",
                               "bundle 26.2",
                               Consumer::kSignpostIntervals,
                               {kStart, kDuration, kName, kSubsystem, kCategory, kIdentifier,
                                kProcess, kStartThread, kStartMessage, kEndMessage},
                               "Signposts",
                               "Signpost",
                               SourceSplit::kProcess,
                               DuringViews::kBusiestNames,
                               "",
                               1,
                               "its signposts"});
  entries.push_back(TableEntry{"region-of-interest",
                               "bundles 11.4.1 (186 rows), 26.0 (empty)",
                               Consumer::kRegions,
                               {kStart, kDuration, kName, kSubsystem, kProcess, kThread,
                                kStartThread, kStartMessage, kEndMessage},
                               "Points of Interest",
                               "Signpost",
                               SourceSplit::kProcess,
                               DuringViews::kBusiestNames,
                               "",
                               2,
                               "its Points of Interest"});
  entries.push_back(TableEntry{"display-vsyncs-interval",
                               "exports of Instruments 14/15 (1,599 rows)",
                               Consumer::kLabelledIntervals,
                               {{"timestamp", Role::kStart, ValueType::kTime, true},
                                kDuration,
                                {"display-name", Role::kGroup, ValueType::kText}},
                               "Display vsyncs",
                               "VSync",
                               SourceSplit::kProcess,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               kIntervalsLost});
  entries.push_back(TableEntry{"device-thermal-state-intervals",
                               "bundles 11.4.1 (3 rows), 26.0 (1); an export of 14/15 (1)",
                               Consumer::kLabelledIntervals,
                               {kStart,
                                kOptionalDuration,
                                {"end", Role::kEnd, ValueType::kTime},
                                {"thermal-state", Role::kLabel, ValueType::kText}},
                               "Thermal state",
                               "Thermal state",
                               SourceSplit::kRun,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               kIntervalsLost});
  entries.push_back(
      TableEntry{"life-cycle-period",
                 "bundles 8.3.3 to 26.0 (12 rows in 11.4.1)",
                 Consumer::kLabelledIntervals,
                 {kStart, kDuration, kProcess, {"period", Role::kLabel, ValueType::kText}},
                 "Life cycle",
                 "Life cycle period",
                 SourceSplit::kProcess,
                 DuringViews::kBusiestNames,
                 "",
                 std::nullopt,
                 kIntervalsLost});
  entries.push_back(TableEntry{"app-spin",
                               "bundle 11.4.1 (1 row)",
                               Consumer::kLabelledIntervals,
                               {{"timestamp", Role::kStart, ValueType::kTime, true},
                                kOptionalDuration,
                                kProcess,
                                {"event", Role::kLabel, ValueType::kText}},
                               "App spins",
                               "Spin",
                               SourceSplit::kProcess,
                               DuringViews::kAll,
                               "spins",
                               std::nullopt,
                               "its app spins"});
  entries.push_back(TableEntry{
      "potential-hangs",
      "bundle 26.0 (schema only)",
      Consumer::kLabelledIntervals,
      {kStart, kDuration, {"hang-type", Role::kLabel, ValueType::kText}, kThread, kProcess},
      "Hangs",
      "Hang",
      SourceSplit::kProcess,
      DuringViews::kAll,
      "hangs",
      std::nullopt,
      "its hangs"});
  entries.push_back(TableEntry{"hang-risks",
                               "bundle 26.0 (schema only)",
                               Consumer::kLabelledIntervals,
                               {{"time", Role::kStart, ValueType::kTime, true},
                                kProcess,
                                {"message", Role::kLabel, ValueType::kText},
                                kThread},
                               "Hang risks",
                               "Hang risk",
                               SourceSplit::kProcess,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               "its hang risks"});
  entries.push_back(TableEntry{"runloop-events",
                               "bundle 26.0 (4,894 rows)",
                               Consumer::kRunLoopEvents,
                               {{"timestamp", Role::kStart, ValueType::kTime, true},
                                {"thread", Role::kThread, ValueType::kThread, true},
                                {"interval-type", Role::kIntervalType, ValueType::kText, true},
                                {"event-type", Role::kEventType, ValueType::kNumber, true},
                                {"mode", Role::kMode, ValueType::kText}},
                               "Run loop iterations",
                               "iteration",
                               SourceSplit::kThread,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               "its run loop iterations"});
  return entries;
}

}  // namespace

const std::vector<TableEntry>& Catalogue() {
  static const std::vector<TableEntry> entries = MakeCatalogue();
  return entries;
}

const TableEntry* FindTable(std::string_view schema) {
  const std::vector<TableEntry>& entries = Catalogue();
  auto found = std::find_if(entries.begin(), entries.end(),
                            [&](const TableEntry& entry) { return entry.schema == schema; });
  return found == entries.end() ? nullptr : &*found;
}

const std::vector<OtherTable>& OtherTables() {
  using Becomes = OtherTable::Becomes;
  static const std::vector<OtherTable> tables = {
      {"time-profile", "bundles 10.0 to 26.0; exports of Xcode 12.5 to 26.4", Becomes::kCpuSamples,
       true, true, ""},
      {"cpu-profile", "exports (CPU Profiler); bundles refused, their columns named",
       Becomes::kCpuSamples, false, true, ""},
      {"counters-profile", "exports (CPU Counters); bundles refused, their columns named",
       Becomes::kCpuSamples, false, true, ""},
      {"time-sample", "exports; bundles 26.0 (beside time-profile)", Becomes::kCpuSamples, false,
       true, ""},
      {"thread-name", "bundles 10.0 to 11.4.1", Becomes::kNames, true, false, ""},
      {"thread-info", "bundles 16.0 to 26.0", Becomes::kNames, true, false, ""},
      {"process-info", "bundles 16.0 to 26.0", Becomes::kNames, true, false, ""},
      {"virtual-memory", "exports of Instruments 14/15 (1,914 rows)", Becomes::kWeightedEvents,
       false, true, "time in page faults"},
  };
  return tables;
}

const OtherTable* FindOtherTable(std::string_view schema) {
  const std::vector<OtherTable>& tables = OtherTables();
  auto found = std::find_if(tables.begin(), tables.end(),
                            [&](const OtherTable& table) { return table.schema == schema; });
  return found == tables.end() ? nullptr : &*found;
}

std::vector<std::string_view> CpuSampleSchemas(bool from_bundles) {
  std::vector<std::string_view> schemas;
  for (const OtherTable& table : OtherTables()) {
    if (table.becomes != OtherTable::Becomes::kCpuSamples) continue;
    if (from_bundles ? table.from_bundles : table.from_exports) schemas.push_back(table.schema);
  }
  return schemas;
}

std::string MissingColumnsMessage(const TableEntry& entry,
                                  const std::vector<std::string_view>& missing) {
  std::string columns;
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i > 0) columns += i + 1 == missing.size() ? " or " : ", ";
    columns += missing[i];
  }
  return "the " + std::string(entry.schema) + " rows have no " + columns +
         (missing.size() == 1 ? " column" : " columns");
}

}  // namespace instrumentscope::tables
