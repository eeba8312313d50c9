#include "formats/trace_bundle/signposts.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "formats/signposts.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/interval_reader.h"
#include "model/event_pairing.h"

namespace instrumentscope::trace_bundle {
namespace {

// An os-signpost row, its strings as indexes.
struct Signpost {
  int64_t time;
  int64_t pid;
  uint64_t thread;  // the key's, for signposts of thread scope; else kNoReference
  uint64_t subsystem;
  uint64_t category;
  uint64_t name;
  uint64_t identifier;
  uint64_t format;
  uint64_t message;
  EventRole kind;
};

struct SignpostColumns {
  BitSlot time, thread, process, event_type, scope, identifier, name, format, subsystem, category,
      message;
};

// What makes Begin and End one interval.
using PairKey = std::tuple<int64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>;

PairKey KeyOf(const Signpost& signpost) {
  return {signpost.pid,  signpost.subsystem,  signpost.category,
          signpost.name, signpost.identifier, signpost.thread};
}

// Reads os-signpost rows, the strings of event types and scopes looked up once each.
class SignpostRows {
 public:
  explicit SignpostRows(IntervalReader& reader) : reader_(reader) {
    c_ = SignpostColumns{
        reader.Field("time"),       reader.Field("thread"),        reader.Field("process"),
        reader.Field("event-type"), reader.Field("scope"),         reader.Field("identifier"),
        reader.Field("name"),       reader.Field("format-string"), reader.Field("subsystem"),
        reader.Field("category"),   reader.Field("message")};
  }

  Result<std::vector<Signpost>> ReadAll() {
    const TableRows& rows = reader_.rows();
    if (!c_.time.width || !c_.event_type.width || !c_.name.width) {
      return Status(ErrorCode::kBundleUnsupported,
                    "the os-signpost rows have no time, event-type or name column")
          .WithPath(rows.path());
    }
    std::vector<Signpost> signposts;
    for (uint64_t i = 0; i < rows.size(); ++i) {
      if (rows.IsPadding(i)) continue;
      Result<Signpost> signpost = Read(rows.row(i));
      if (!signpost.ok()) return rows.InRow(signpost.status(), i);
      signposts.push_back(*signpost);
    }
    return signposts;
  }

 private:
  uint64_t Reference(const Row& row, const BitSlot& slot) const {
    return slot.width ? row.Get(slot) : kNoReference;
  }

  Result<Signpost> Read(const Row& row) {
    Signpost signpost;
    ASSIGN_OR_RETURN(signpost.time, reader_.Time(row, c_.time));
    ASSIGN_OR_RETURN(signpost.pid, reader_.Pid(Reference(row, c_.process)));
    ASSIGN_OR_RETURN(signpost.kind, KindOf(Reference(row, c_.event_type)));
    bool thread_scope;
    ASSIGN_OR_RETURN(thread_scope, IsThreadScope(Reference(row, c_.scope)));
    signpost.thread = thread_scope ? Reference(row, c_.thread) : kNoReference;
    signpost.subsystem = Reference(row, c_.subsystem);
    signpost.category = Reference(row, c_.category);
    signpost.name = Reference(row, c_.name);
    signpost.identifier = c_.identifier.width ? row.Get(c_.identifier) : kExclusiveSignpostId;
    signpost.format = Reference(row, c_.format);
    signpost.message = Reference(row, c_.message);
    return signpost;
  }

  Result<EventRole> KindOf(uint64_t event_type) {
    auto kind = kinds_.find(event_type);
    if (kind != kinds_.end()) return kind->second;
    std::string_view text;
    ASSIGN_OR_RETURN(text, reader_.String(event_type));
    return kinds_.emplace(event_type, SignpostRole(text)).first->second;
  }

  Result<bool> IsThreadScope(uint64_t scope) {
    auto found = thread_scopes_.find(scope);
    if (found != thread_scopes_.end()) return found->second;
    std::string_view text;
    ASSIGN_OR_RETURN(text, reader_.String(scope));
    return thread_scopes_.emplace(scope, text == "Thread").first->second;
  }

  IntervalReader& reader_;
  SignpostColumns c_;
  std::map<uint64_t, EventRole> kinds_;     // by the event type's string
  std::map<uint64_t, bool> thread_scopes_;  // by the scope's string
};

// Makes intervals of an os-signpost table's rows.
class SignpostPairing {
 public:
  explicit SignpostPairing(IntervalReader& reader) : reader_(reader) {}

  Status Pair(const std::vector<Signpost>& signposts) {
    std::map<PairKey, uint64_t> keys;
    std::vector<KeyedEvent> events;
    events.reserve(signposts.size());
    for (const Signpost& signpost : signposts) {
      uint64_t key = keys.try_emplace(KeyOf(signpost), keys.size()).first->second;
      events.push_back(KeyedEvent{signpost.time, key, signpost.kind});
    }
    for (const PairedEvents& pair : PairEvents(events)) {
      const Signpost& first = signposts[pair.first()];
      // The End, whose message stands in for its Begin's; none for a point,
      // which is its own, or for an interval that never ended. Open at either
      // end, an interval is drawn from or to its run's end.
      const Signpost* end =
          pair.unended() || pair.end == pair.first() ? nullptr : &signposts[pair.end];
      RETURN_IF_ERROR(Add(first, end, pair.StartTime(events, ProfileBuilder::kOpenStart),
                          pair.EndTime(events, ProfileBuilder::kOpenEnd)));
    }
    return OkStatus();
  }

 private:
  Result<IntervalReader::SourceIndex> Source(const Signpost& signpost) {
    std::string_view subsystem, category;
    ASSIGN_OR_RETURN(subsystem, reader_.String(signpost.subsystem));
    ASSIGN_OR_RETURN(category, reader_.String(signpost.category));
    return reader_.Source(SignpostSourceName(subsystem, category), signpost.pid,
                          DuringViews::kBusiestNames);
  }

  // `first`'s message, else `second`'s (an End's); the format string when
  // the run's messages cannot be read.
  Result<std::string> MessageOf(const Signpost& first, const Signpost* second) {
    for (const Signpost* signpost : {&first, second}) {
      if (!signpost || signpost->message == kNoReference) continue;
      std::optional<std::string> text;
      ASSIGN_OR_RETURN(text, reader_.Message(signpost->message));
      if (!text) {
        std::string_view format;
        ASSIGN_OR_RETURN(format, reader_.String(signpost->format));
        return std::string(format);
      }
      if (!text->empty()) return std::move(*text);
    }
    return std::string();
  }

  Status Add(const Signpost& first, const Signpost* end, int64_t start, int64_t stop) {
    IntervalReader::SourceIndex source;
    ASSIGN_OR_RETURN(source, Source(first));
    std::string_view name;
    ASSIGN_OR_RETURN(name, reader_.String(first.name));
    std::string message;
    ASSIGN_OR_RETURN(message, MessageOf(first, end));
    std::string interval_name = name.empty() ? std::string("Signpost") : std::string(name);
    std::string label = SignpostLabel(interval_name, SignpostIdText(first.identifier), message);
    reader_.Add(source, start, stop, std::move(interval_name), std::move(label));
    return OkStatus();
  }

  IntervalReader& reader_;
};

// The rows of a table of ready-made intervals (os-signpost-interval,
// region-of-interest): start and duration, name, subsystem, category (none
// for regions), identifier, process, start and end messages.
Status ReadMadeIntervals(IntervalReader& reader, bool regions) {
  const TableRows& rows = reader.rows();
  BitSlot start = reader.Field("start"), duration = reader.Field("duration"),
          name = reader.Field("name"), subsystem = reader.Field("subsystem"),
          category = reader.Field("category"), identifier = reader.Field("identifier"),
          process = reader.Field("process"), start_message = reader.Field("start-message"),
          end_message = reader.Field("end-message");
  if (!start.width || !duration.width || !name.width) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the " + reader.table().name() + " rows have no start, duration or name")
        .WithPath(rows.path());
  }
  auto reference = [](const Row& row, const BitSlot& slot) {
    return slot.width ? row.Get(slot) : kNoReference;
  };
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    Row row = rows.row(i);
    Status status = [&]() -> Status {
      int64_t begin, end, pid;
      ASSIGN_OR_RETURN(begin, reader.Time(row, start));
      ASSIGN_OR_RETURN(end, reader.End(row, duration, begin));
      ASSIGN_OR_RETURN(pid, reader.Pid(reference(row, process)));
      std::string_view name_text, subsystem_text, category_text;
      ASSIGN_OR_RETURN(name_text, reader.String(reference(row, name)));
      ASSIGN_OR_RETURN(subsystem_text, reader.String(reference(row, subsystem)));
      ASSIGN_OR_RETURN(category_text, reader.String(reference(row, category)));
      std::string message;
      for (const BitSlot* slot : {&start_message, &end_message}) {
        uint64_t ref = reference(row, *slot);
        if (ref == kNoReference || !message.empty()) continue;
        std::optional<std::string> text;
        ASSIGN_OR_RETURN(text, reader.Message(ref));
        if (text) message = std::move(*text);
      }
      std::string interval_name = name_text.empty() ? "Signpost" : std::string(name_text);
      std::string label;
      if (regions) {
        // A region's start message begins with its name ("SubmitScan: source=…") [11.4.1].
        label = message.empty() ? interval_name
                : message.compare(0, interval_name.size(), interval_name) == 0
                    ? message
                    : interval_name + ": " + message;
      } else {
        uint64_t id = identifier.width ? row.Get(identifier) : kExclusiveSignpostId;
        label = SignpostLabel(interval_name, SignpostIdText(id), message);
      }
      std::string source_name = regions ? SignpostSourceName(subsystem_text, "PointsOfInterest")
                                        : SignpostSourceName(subsystem_text, category_text);
      reader.Add(reader.Source(std::move(source_name), pid, DuringViews::kBusiestNames), begin, end,
                 std::move(interval_name), std::move(label));
      return OkStatus();
    }();
    if (!status.ok()) return rows.InRow(status, i);
  }
  return OkStatus();
}

}  // namespace

Status ReadSignpostTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  RETURN_IF_ERROR(ReadIntervalTable(bundle, table, result, [&](IntervalReader& reader) -> Status {
    std::vector<Signpost> signposts;
    ASSIGN_OR_RETURN(signposts, SignpostRows(reader).ReadAll());
    return SignpostPairing(reader).Pair(signposts);
  }));
  if (result->read && result->rows > 0) bundle.runs_with_signposts.insert(table.run());
  return OkStatus();
}

Status ReadSignpostIntervalTable(BundleContext& bundle, const Table& table,
                                 IntervalTableRead* result) {
  // The os-signpost table's pairs: read only when that table was not.
  if (bundle.runs_with_signposts.count(table.run())) return OkStatus();
  RETURN_IF_ERROR(ReadIntervalTable(bundle, table, result, [](IntervalReader& reader) {
    return ReadMadeIntervals(reader, false);
  }));
  if (result->read && result->rows > 0) bundle.runs_with_signposts.insert(table.run());
  return OkStatus();
}

Status ReadRegionOfInterestTable(BundleContext& bundle, const Table& table,
                                 IntervalTableRead* result) {
  // The os-signpost table's points and intervals again [11.4.1].
  if (bundle.runs_with_signposts.count(table.run())) return OkStatus();
  return ReadIntervalTable(bundle, table, result,
                           [](IntervalReader& reader) { return ReadMadeIntervals(reader, true); });
}

}  // namespace instrumentscope::trace_bundle
