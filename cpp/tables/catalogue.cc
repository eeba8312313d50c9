#include "tables/catalogue.h"

#include <algorithm>
#include <string>
#include <utility>

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

// A table that is no intervals: read whole, its rows not split into sources.
TableEntry Whole(std::string_view schema, std::string_view seen, Consumer consumer,
                 std::vector<ColumnSpec> columns, std::string_view lost) {
  TableEntry entry{schema, seen, consumer, std::move(columns), "", "", SourceSplit::kRun};
  entry.lost = lost;
  return entry;
}

// A table read from exports alone: a bundle with only such CPU samples is
// refused, the columns it cannot follow named (trace_bundle/diagnostics.h).
TableEntry FromExportsOnly(TableEntry entry) {
  entry.from_bundles = false;
  return entry;
}

// The columns of every table of CPU samples but time-sample's.
std::vector<ColumnSpec> SampleColumns() {
  return {{"time", Role::kStart, ValueType::kTime, true},
          {"thread", Role::kThread, ValueType::kThread, true},
          kProcess,
          {"weight", Role::kWeight, ValueType::kWeight, true},
          {"stack", Role::kBacktrace, ValueType::kBacktrace, true}};
}

void AddSampleTables(std::vector<TableEntry>* entries) {
  entries->push_back(Whole("time-profile",
                           "bundles 10.0 to 26.0; exports of Xcode 12.5 to 26.4 (weight: ns)",
                           Consumer::kCpuSamples, SampleColumns(), "its samples"));
  entries->push_back(FromExportsOnly(Whole("cpu-profile", "exports (CPU Profiler; weight: cycles)",
                                           Consumer::kCpuSamples, SampleColumns(), "its samples")));
  std::vector<ColumnSpec> counted = SampleColumns();
  counted.push_back({"counters-array", Role::kCounters, ValueType::kCounters});
  entries->push_back(
      Whole("counters-profile",
            "exports of 14.3.1 (weight: ns in <weight> cells, else a count); bundles "
            "13+ (weight: a typed value, 1 ms)",
            Consumer::kCpuSamples, std::move(counted), "its samples"));
  entries->push_back(FromExportsOnly(
      Whole("time-sample", "exports of Xcode 27.0; bundles 26.0 (beside time-profile, not read)",
            Consumer::kCpuSamples,
            {{"time", Role::kStart, ValueType::kTime, true},
             {"thread", Role::kThread, ValueType::kThread, true},
             {"cp-user-callstack", Role::kBacktrace, ValueType::kBacktrace, true},
             {"cp-kernel-callstack", Role::kKernelBacktrace, ValueType::kBacktrace}},
            "its samples")));
  TableEntry page_faults =
      Whole("virtual-memory", "exports of Instruments 14/15 (1,914 rows); bundle 26.x (43 rows)",
            Consumer::kWeightedEvents,
            {kStart,
             {"duration", Role::kWeight, ValueType::kDuration, true},
             {"thread", Role::kThread, ValueType::kThread, true},
             kProcess,
             {"backtrace", Role::kBacktrace, ValueType::kBacktrace}},
            "its page faults");
  page_faults.weighs = "time in page faults";
  entries->push_back(std::move(page_faults));
  TableEntry system_calls =
      Whole("syscall", "bundle 26.x (System Trace, 838,333 rows)", Consumer::kWeightedEvents,
            {kStart,
             {"duration", Role::kWeight, ValueType::kDuration, true},
             {"waittime", Role::kSecondWeight, ValueType::kDuration},
             {"thread", Role::kThread, ValueType::kThread, true},
             kProcess,
             {"call", Role::kLeafFrame, ValueType::kText, true},
             {"backtrace", Role::kBacktrace, ValueType::kBacktrace}},
            "its system calls");
  system_calls.weighs = "time in system calls";
  system_calls.second_weighs = "wait in system calls";
  entries->push_back(std::move(system_calls));
  // Its spans off the CPU (narratives.h): what kept each thread from running.
  TableEntry off_cpu = Whole("thread-narrative", "bundle 26.x (System Trace, 849,177 rows)",
                             Consumer::kWeightedEvents,
                             {kStart,
                              {"duration", Role::kWeight, ValueType::kDuration, true},
                              {"thread", Role::kThread, ValueType::kThread, true},
                              kProcess,
                              {"narrative", Role::kNarrative, ValueType::kNarrative, true},
                              {"backtrace", Role::kBacktrace, ValueType::kBacktrace}},
                             "its narratives");
  off_cpu.weighs = "time off CPU";
  entries->push_back(std::move(off_cpu));
}

// Bundles only: an export names its threads and processes in their cells.
void AddNameTables(std::vector<TableEntry>* entries) {
  std::vector<TableEntry> names = {
      Whole("thread-name", "bundles 10.0 to 11.4.1", Consumer::kThreadNames,
            {{"thread", Role::kThread, ValueType::kThread, true},
             {"name", Role::kName, ValueType::kText, true}},
            "thread names"),
      Whole("thread-info", "bundles 16.0 to 26.0", Consumer::kThreadNames,
            {{"thread", Role::kThread, ValueType::kThread, true},
             {"name", Role::kName, ValueType::kText},
             {"main-thread", Role::kMainThread, ValueType::kNumber}},
            "thread names"),
      Whole("process-info", "bundles 16.0 to 26.0", Consumer::kProcessNames,
            {{"pid", Role::kProcess, ValueType::kPid, true},
             {"process-name", Role::kName, ValueType::kText, true}},
            "process names"),
  };
  for (TableEntry& entry : names) {
    entry.from_exports = false;
    entries->push_back(std::move(entry));
  }
}

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
  entries.push_back(TableEntry{"thread-state",
                               "bundle 26.x (System Trace, 11,254 rows)",
                               Consumer::kThreadStates,
                               {kStart,
                                kDuration,
                                {"thread", Role::kThread, ValueType::kThread},
                                kProcess,
                                {"state", Role::kLabel, ValueType::kText},
                                {"note", Role::kNote, ValueType::kText}},
                               "Thread states",
                               "Unknown",
                               SourceSplit::kThread,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               "its thread states"});
  entries.push_back(TableEntry{"cpu-state",
                               "bundle 26.x (System Trace, 5,735 rows)",
                               Consumer::kCoreStates,
                               {kStart,
                                kDuration,
                                {"cpu", Role::kCore, ValueType::kNumber},
                                {"state", Role::kLabel, ValueType::kText},
                                kProcess,
                                kThread},
                               "Cores",
                               "Running",  // a row without a state: its thread's
                               SourceSplit::kRun,
                               DuringViews::kNone,
                               "",
                               std::nullopt,
                               "what its cores ran"});
  AddSampleTables(&entries);
  AddNameTables(&entries);
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

bool ReadsTexts(const TableEntry& entry) {
  return std::any_of(entry.columns.begin(), entry.columns.end(), [](const ColumnSpec& column) {
    return column.type == ValueType::kText || column.type == ValueType::kNumber ||
           column.type == ValueType::kCounters || column.type == ValueType::kNarrative;
  });
}

std::vector<std::string_view> CpuSampleSchemas(bool from_bundles) {
  std::vector<std::string_view> schemas;
  for (const TableEntry& entry : Catalogue()) {
    if (entry.consumer != Consumer::kCpuSamples) continue;
    if (from_bundles ? entry.from_bundles : entry.from_exports) schemas.push_back(entry.schema);
  }
  return schemas;
}

WeightUnit WeightUnitOf(std::string_view engineering_type) {
  if (engineering_type == "XRTimeSampleWeightTypeID" || engineering_type == "weight") {
    return WeightUnit::kNanoseconds;
  }
  if (engineering_type == "XRAnyTypeID" || engineering_type == "any") return WeightUnit::kFromCell;
  return WeightUnit::kCount;
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
