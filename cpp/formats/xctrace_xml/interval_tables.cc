#include "formats/xctrace_xml/interval_tables.h"

#include <algorithm>

#include "formats/names.h"
#include "formats/signposts.h"
#include "formats/xctrace_xml/elements.h"

namespace instrumentscope::xctrace_xml {
namespace {

using DuringViews = ProfileBuilder::DuringViews;

struct IntervalTable {
  std::string_view schema;
  IntervalKind kind;
  std::string_view label_column;  // mnemonic of the kLabel column, if any
  std::string_view group_column;  // mnemonic of the kGroup column, if any
  DuringViews during;             // when the rows are intervals, not single events
  std::string_view during_name;
};

const std::vector<IntervalTable>& IntervalTables() {
  static const std::vector<IntervalTable> tables = {
      {"display-vsyncs-interval", IntervalKind::kVsyncs, "", "display-name", DuringViews::kNone,
       ""},
      {"device-thermal-state-intervals", IntervalKind::kThermalState, "thermal-state", "",
       DuringViews::kNone, ""},
      {"region-of-interest", IntervalKind::kPointsOfInterest, "", "", DuringViews::kBusiestNames,
       ""},
      {"os-signpost-interval", IntervalKind::kSignposts, "", "", DuringViews::kBusiestNames, ""},
      {"os-signpost", IntervalKind::kSignpostEvents, "", "", DuringViews::kBusiestNames, ""},
      {"potential-hangs", IntervalKind::kHangs, "hang-type", "", DuringViews::kAll, "hangs"},
      {"hang-risks", IntervalKind::kHangRisks, "message", "", DuringViews::kNone, ""},
      {"app-spin", IntervalKind::kAppSpins, "event", "", DuringViews::kAll, "spins"},
      {"life-cycle-period", IntervalKind::kLifeCycle, "period", "", DuringViews::kNone, ""},
  };
  return tables;
}

bool IsStartColumn(const Column& column) {
  const std::string& type = column.engineering_type;
  const std::string& mnemonic = column.mnemonic;
  return type == "start-time" || type == "event-time" || mnemonic == "start" ||
         mnemonic == "time" || mnemonic == "timestamp";
}

bool IsThreadColumn(const Column& column) {
  return column.mnemonic == "thread" || column.mnemonic == "start-thread";
}

}  // namespace

const std::vector<std::string_view>& IntervalSchemas() {
  static const std::vector<std::string_view> schemas = [] {
    std::vector<std::string_view> names;
    for (const IntervalTable& table : IntervalTables()) names.push_back(table.schema);
    return names;
  }();
  return schemas;
}

std::optional<IntervalLayout> ReadIntervalLayout(const std::string& schema,
                                                 const std::vector<Column>& columns) {
  const auto& tables = IntervalTables();
  auto table = std::find_if(tables.begin(), tables.end(),
                            [&](const IntervalTable& known) { return known.schema == schema; });
  if (table == tables.end()) return std::nullopt;

  IntervalLayout layout;
  layout.schema = schema;
  layout.kind = table->kind;
  bool has_start = false, has_thread = false, has_process = false;
  bool signpost_events = table->kind == IntervalKind::kSignpostEvents;
  for (const Column& column : columns) {
    const std::string& mnemonic = column.mnemonic;
    IntervalRole role = IntervalRole::kIgnored;
    if (mnemonic == "end") {
      if (!layout.has_end) role = IntervalRole::kEnd;
      layout.has_end = true;
    } else if (!has_start && IsStartColumn(column)) {
      role = IntervalRole::kStart;
      has_start = true;
    } else if (!layout.has_duration &&
               (column.engineering_type == "duration" || mnemonic == "duration")) {
      role = IntervalRole::kDuration;
      layout.has_duration = true;
    } else if (!has_thread && IsThreadColumn(column)) {
      role = IntervalRole::kThread;
      has_thread = true;
    } else if (!has_process && mnemonic == "process") {
      role = IntervalRole::kProcess;
      has_process = true;
    } else if (mnemonic == "name") {
      role = IntervalRole::kName;
    } else if (mnemonic == "subsystem") {
      role = IntervalRole::kSubsystem;
    } else if (mnemonic == "category") {
      role = IntervalRole::kCategory;
    } else if (mnemonic == "identifier") {
      role = IntervalRole::kIdentifier;
    } else if (mnemonic == "start-message") {
      role = IntervalRole::kStartMessage;
    } else if (mnemonic == "end-message") {
      role = IntervalRole::kEndMessage;
    } else if (signpost_events && mnemonic == "event-type") {
      role = IntervalRole::kEventType;
    } else if (signpost_events && mnemonic == "scope") {
      role = IntervalRole::kScope;
    } else if (signpost_events && mnemonic == "message") {
      role = IntervalRole::kMessage;
    } else if (!table->label_column.empty() && mnemonic == table->label_column) {
      role = IntervalRole::kLabel;
    } else if (!table->group_column.empty() && mnemonic == table->group_column) {
      role = IntervalRole::kGroup;
    }
    layout.roles.push_back(role);
  }
  if (!has_start) return std::nullopt;
  // Single events hold no samples: no views of what happened during them.
  // Signpost rows begin and end intervals.
  if (layout.has_duration || layout.has_end || layout.kind == IntervalKind::kSignpostEvents) {
    layout.during = table->during;
    layout.during_name = std::string(table->during_name);
  }
  return layout;
}

std::optional<WeightedLayout> ReadWeightedLayout(const std::string& schema,
                                                 const std::vector<Column>& columns) {
  if (schema != "virtual-memory") return std::nullopt;
  WeightedLayout weighted;
  TableLayout& layout = weighted.table;
  layout.schema = schema;
  bool has_time = false, has_thread = false, has_process = false;
  for (const Column& column : columns) {
    const std::string& type = column.engineering_type;
    ColumnRole role = ColumnRole::kIgnored;
    if (!has_time && (type == "start-time" || column.mnemonic == "start")) {
      role = ColumnRole::kTime;
      has_time = true;
    } else if (!layout.has_weight && (type == "duration" || column.mnemonic == "duration")) {
      role = ColumnRole::kWeight;
      layout.has_weight = true;
      layout.weight_unit = WeightUnit::kNanoseconds;
    } else if (!has_thread && (type == "thread" || column.mnemonic == "thread")) {
      role = ColumnRole::kThread;
      has_thread = true;
    } else if (!has_process && (type == "process" || column.mnemonic == "process")) {
      role = ColumnRole::kProcess;
      has_process = true;
    } else if (type == "backtrace") {
      role = ColumnRole::kStack;
    }
    layout.roles.push_back(role);
  }
  if (!has_time || !layout.has_weight || !has_thread) return std::nullopt;
  layout.weighted_events = true;
  weighted.weighs = "time in page faults";
  return weighted;
}

std::string IntervalSourceName(IntervalKind kind, std::string_view group,
                               std::string_view subsystem, std::string_view category) {
  auto with = [](std::string name, std::string_view first, std::string_view second = {}) {
    std::string parts(first);
    if (!second.empty()) parts += (parts.empty() ? "" : " / ") + std::string(second);
    if (!parts.empty()) name += " \xE2\x80\x94 " + parts;  // " — "
    return name;
  };
  switch (kind) {
    case IntervalKind::kVsyncs: return with("Display vsyncs", group);
    case IntervalKind::kThermalState: return "Thermal state";
    case IntervalKind::kPointsOfInterest: return with("Points of Interest", subsystem, category);
    case IntervalKind::kSignposts:
    case IntervalKind::kSignpostEvents: return SignpostSourceName(subsystem, category);
    case IntervalKind::kHangs: return "Hangs";
    case IntervalKind::kHangRisks: return "Hang risks";
    case IntervalKind::kAppSpins: return "App spins";
    case IntervalKind::kLifeCycle: return "Life cycle";
  }
  return "Intervals";
}

std::optional<int> SignpostTableRank(IntervalKind kind) {
  switch (kind) {
    case IntervalKind::kSignpostEvents: return 0;
    case IntervalKind::kSignposts: return 1;
    case IntervalKind::kPointsOfInterest: return 2;
    default: return std::nullopt;
  }
}

std::string SignpostId(std::string_view text) {
  if (auto number = ParseDecimal<uint64_t>(text)) return SignpostIdText(*number);
  return std::string(text);
}

}  // namespace instrumentscope::xctrace_xml
