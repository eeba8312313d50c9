#include "formats/trace_bundle/interval_tables.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/interval_reader.h"
#include "model/event_pairing.h"

namespace instrumentscope::trace_bundle {
namespace {

// A table whose rows are intervals (a start and a duration) or events (a
// time), each labelled by one column.
struct SimpleTable {
  std::string_view source;    // "Thermal state"
  std::string_view time;      // the start's or the event's column
  std::string_view duration;  // empty for events
  std::string_view label;     // the label's column
  std::string_view no_label;  // the label of a row without one
  bool by_process;            // a source per process ("process" column)
  DuringViews during;
  std::string_view during_name;
};

constexpr SimpleTable kThermalState = {
    "Thermal state", "start", "duration",         "thermal-state",
    "Thermal state", false,   DuringViews::kNone, ""};
constexpr SimpleTable kLifeCycle = {"Life cycle",
                                    "start",
                                    "duration",
                                    "period",
                                    "Life cycle period",
                                    true,
                                    DuringViews::kBusiestNames,
                                    ""};
constexpr SimpleTable kAppSpin = {"App spins", "timestamp",        "", "event", "Spin",
                                  true,        DuringViews::kNone, ""};
constexpr SimpleTable kPotentialHang = {"Hangs", "start", "duration",        "hang-type",
                                        "Hang",  true,    DuringViews::kAll, "hangs"};
constexpr SimpleTable kHangRisk = {"Hang risks",       "time", "", "message", "Hang risk", true,
                                   DuringViews::kNone, ""};

// Whether a column's values are messages (typed arrays), not strings.
bool IsMessageColumn(const Table& table, std::string_view mnemonic) {
  for (const StoreColumn& column : table.schema.columns) {
    if (column.mnemonic != mnemonic) continue;
    return column.engineering_type == "XRNarrativeEntryTypeID" ||
           column.engineering_type == "XROSLogMetadataTypeID";
  }
  return false;
}

Status ReadSimpleRows(IntervalReader& reader, const SimpleTable& kind) {
  const TableRows& rows = reader.rows();
  BitSlot time = reader.Field(kind.time), label = reader.Field(kind.label),
          process = reader.Field("process");
  BitSlot duration = kind.duration.empty() ? BitSlot{} : reader.Field(kind.duration);
  if (!time.width || (!kind.duration.empty() && !duration.width)) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the " + reader.table().name() + " rows have no " + std::string(kind.time) +
                      (kind.duration.empty() ? "" : " or " + std::string(kind.duration)) +
                      " column")
        .WithPath(rows.path());
  }
  bool message_label = IsMessageColumn(reader.table(), kind.label);
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    Row row = rows.row(i);
    Status status = [&]() -> Status {
      int64_t start, end, pid = -1;
      ASSIGN_OR_RETURN(start, reader.Time(row, time));
      end = start;
      if (duration.width) {
        ASSIGN_OR_RETURN(end, reader.End(row, duration, start));
      }
      if (kind.by_process && process.width) {
        ASSIGN_OR_RETURN(pid, reader.Pid(row.Get(process)));
      }
      std::string text;
      uint64_t ref = label.width ? row.Get(label) : kNoReference;
      if (message_label) {
        std::optional<std::string> message;
        ASSIGN_OR_RETURN(message, reader.Message(ref));
        if (message) text = std::move(*message);
      } else {
        std::string_view string;
        ASSIGN_OR_RETURN(string, reader.String(ref));
        text = std::string(string);
      }
      if (text.empty()) text = std::string(kind.no_label);
      reader.Add(
          reader.Source(std::string(kind.source), pid, kind.during, std::string(kind.during_name)),
          start, end, text, text);
      return OkStatus();
    }();
    if (!status.ok()) return rows.InRow(status, i);
  }
  return OkStatus();
}

Status ReadSimpleTable(BundleContext& bundle, const Table& table, IntervalTableRead* result,
                       const SimpleTable& kind) {
  return ReadIntervalTable(bundle, table, result, [&kind](IntervalReader& reader) {
    return ReadSimpleRows(reader, kind);
  });
}

// runloop-events [26.0]: kdebug-style events, 1 starting and 2 ending an
// interval of the row's interval-type on its thread.
constexpr uint64_t kRunLoopStart = 1;
constexpr uint64_t kRunLoopEnd = 2;

struct RunLoopEvent {
  uint64_t thread;
  uint64_t type;  // the interval type's string
  uint64_t mode;
};

// The rows that start or end an interval, with what pairs them: the thread and the interval type.
Status ReadRunLoopEvents(IntervalReader& reader, std::vector<RunLoopEvent>* events,
                         std::vector<KeyedEvent>* keyed) {
  const TableRows& rows = reader.rows();
  BitSlot time = reader.Field("timestamp"), thread = reader.Field("thread"),
          type = reader.Field("interval-type"), event = reader.Field("event-type"),
          mode = reader.Field("mode");
  if (!time.width || !thread.width || !type.width || !event.width) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the runloop-events rows have no timestamp, thread, interval-type or event-type")
        .WithPath(rows.path());
  }
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> keys;
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    Row row = rows.row(i);
    uint64_t kind = row.Get(event);
    if (kind != kRunLoopStart && kind != kRunLoopEnd) continue;
    auto at = reader.Time(row, time);
    if (!at.ok()) return rows.InRow(at.status(), i);
    RunLoopEvent e{row.Get(thread), row.Get(type), mode.width ? row.Get(mode) : kNoReference};
    uint64_t key = keys.try_emplace({e.thread, e.type}, keys.size()).first->second;
    events->push_back(e);
    keyed->push_back(
        KeyedEvent{*at, key, kind == kRunLoopStart ? EventRole::kBegin : EventRole::kEnd});
  }
  return OkStatus();
}

// Makes intervals of run loop events: one source per thread, each labelled
// with its interval type and run loop mode.
class RunLoopIntervals {
 public:
  RunLoopIntervals(IntervalReader& reader, CoreRunState& run)
      : reader_(reader), run_(run), details_(reader.bundle().Details(reader.table().run())) {}

  Status Read() {
    std::vector<RunLoopEvent> events;
    std::vector<KeyedEvent> keyed;
    RETURN_IF_ERROR(ReadRunLoopEvents(reader_, &events, &keyed));
    // Paired in time order: a run loop's run starts before the iterations it
    // holds but is written after them.
    for (const PairedEvents& pair : PairEvents(keyed)) {
      RETURN_IF_ERROR(Add(events[pair.first()], pair.StartTime(keyed, ProfileBuilder::kOpenStart),
                          pair.EndTime(keyed, ProfileBuilder::kOpenEnd)));
    }
    return OkStatus();
  }

 private:
  Result<IntervalReader::SourceIndex> SourceOf(uint64_t thread_ref) {
    auto found = sources_.find(thread_ref);
    if (found != sources_.end()) return found->second;
    RunReferences::Thread identity;
    ASSIGN_OR_RETURN(identity, run_.references.ThreadOf(thread_ref, 1, kNoReference));
    ThreadIdentity named = CoreThread(details_, run_.names, identity.tid, thread_ref, identity.pid);
    IntervalReader::SourceIndex source = reader_.Source(
        "Run loop iterations \xE2\x80\x94 " + named.name, identity.pid, DuringViews::kNone);
    sources_.emplace(thread_ref, source);
    return source;
  }

  Status Add(const RunLoopEvent& first, int64_t start, int64_t end) {
    IntervalReader::SourceIndex source;
    ASSIGN_OR_RETURN(source, SourceOf(first.thread));
    std::string_view name, mode_name;
    ASSIGN_OR_RETURN(name, reader_.String(first.type));
    ASSIGN_OR_RETURN(mode_name, reader_.String(first.mode));
    std::string label(name.empty() ? "iteration" : name);
    std::string interval_name = label;
    if (!mode_name.empty()) label += " (" + std::string(mode_name) + ")";
    reader_.Add(source, start, end, std::move(interval_name), std::move(label));
    return OkStatus();
  }

  IntervalReader& reader_;
  CoreRunState& run_;
  const RunDetails* details_;
  std::map<uint64_t, IntervalReader::SourceIndex> sources_;  // by thread reference
};

}  // namespace

Status ReadThermalStateTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  return ReadSimpleTable(bundle, table, result, kThermalState);
}

Status ReadLifeCycleTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  return ReadSimpleTable(bundle, table, result, kLifeCycle);
}

Status ReadAppSpinTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  return ReadSimpleTable(bundle, table, result, kAppSpin);
}

Status ReadPotentialHangTable(BundleContext& bundle, const Table& table,
                              IntervalTableRead* result) {
  return ReadSimpleTable(bundle, table, result, kPotentialHang);
}

Status ReadHangRiskTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  return ReadSimpleTable(bundle, table, result, kHangRisk);
}

Status ReadRunLoopTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  CoreRunState& run = bundle.Run(table.store.run);
  return ReadIntervalTable(bundle, table, result, [&](IntervalReader& reader) {
    return RunLoopIntervals(reader, run).Read();
  });
}

}  // namespace instrumentscope::trace_bundle
