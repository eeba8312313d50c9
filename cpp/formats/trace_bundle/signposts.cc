#include "formats/trace_bundle/signposts.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "formats/names.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/interval_reader.h"

namespace instrumentscope::trace_bundle {
namespace {

// OS_SIGNPOST_ID_EXCLUSIVE: the signpost's name alone tells its intervals apart.
constexpr uint64_t kExclusiveId = 0xEEEEB0B5B2B2EEEE;
constexpr const char* kDash = " \xE2\x80\x94 ";  // " — "

enum class SignpostKind : uint8_t { kBegin, kEnd, kEvent };

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
  SignpostKind kind;
};

struct SignpostColumns {
  BitSlot time, thread, process, event_type, scope, identifier, name, format, subsystem, category,
      message;
};

// What makes Begin and End one interval: newest open Begin first.
using PairKey = std::tuple<int64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>;

PairKey KeyOf(const Signpost& signpost) {
  return {signpost.pid,  signpost.subsystem,  signpost.category,
          signpost.name, signpost.identifier, signpost.thread};
}

Result<std::vector<Signpost>> ReadSignposts(IntervalReader& reader) {
  const TableRows& rows = reader.rows();
  SignpostColumns c{
      reader.Field("time"),       reader.Field("thread"),        reader.Field("process"),
      reader.Field("event-type"), reader.Field("scope"),         reader.Field("identifier"),
      reader.Field("name"),       reader.Field("format-string"), reader.Field("subsystem"),
      reader.Field("category"),   reader.Field("message")};
  if (!c.time.width || !c.event_type.width || !c.name.width) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the os-signpost rows have no time, event-type or name column")
        .WithPath(rows.path());
  }
  auto reference = [](const Row& row, const BitSlot& slot) {
    return slot.width ? row.Get(slot) : kNoReference;
  };
  std::map<uint64_t, SignpostKind> kinds;  // by the event type's string
  std::map<uint64_t, bool> thread_scopes;  // by the scope's string
  std::vector<Signpost> signposts;
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    Row row = rows.row(i);
    Status status = [&]() -> Status {
      Signpost signpost;
      ASSIGN_OR_RETURN(signpost.time, reader.Time(row, c.time));
      ASSIGN_OR_RETURN(signpost.pid, reader.Pid(reference(row, c.process)));
      uint64_t event_type = reference(row, c.event_type);
      auto kind = kinds.find(event_type);
      if (kind == kinds.end()) {
        std::string_view text;
        ASSIGN_OR_RETURN(text, reader.String(event_type));
        // "Event", and any other kind (none seen), is a point in time.
        SignpostKind parsed = text == "Begin" ? SignpostKind::kBegin
                              : text == "End" ? SignpostKind::kEnd
                                              : SignpostKind::kEvent;
        kind = kinds.emplace(event_type, parsed).first;
      }
      signpost.kind = kind->second;
      uint64_t scope = reference(row, c.scope);
      auto thread_scope = thread_scopes.find(scope);
      if (thread_scope == thread_scopes.end()) {
        std::string_view text;
        ASSIGN_OR_RETURN(text, reader.String(scope));
        thread_scope = thread_scopes.emplace(scope, text == "Thread").first;
      }
      signpost.thread = thread_scope->second ? reference(row, c.thread) : kNoReference;
      signpost.subsystem = reference(row, c.subsystem);
      signpost.category = reference(row, c.category);
      signpost.name = reference(row, c.name);
      signpost.identifier = c.identifier.width ? row.Get(c.identifier) : kExclusiveId;
      signpost.format = reference(row, c.format);
      signpost.message = reference(row, c.message);
      signposts.push_back(signpost);
      return OkStatus();
    }();
    if (!status.ok()) return rows.InRow(status, i);
  }
  // Rows are mostly in time order, not always.
  std::stable_sort(signposts.begin(), signposts.end(),
                   [](const Signpost& a, const Signpost& b) { return a.time < b.time; });
  return signposts;
}

// Makes intervals of an os-signpost table's rows.
class SignpostPairing {
 public:
  explicit SignpostPairing(IntervalReader& reader) : reader_(reader) {}

  Status Pair(const std::vector<Signpost>& signposts) {
    std::map<PairKey, std::vector<size_t>> open;
    for (size_t i = 0; i < signposts.size(); ++i) {
      const Signpost& signpost = signposts[i];
      switch (signpost.kind) {
        case SignpostKind::kBegin: open[KeyOf(signpost)].push_back(i); break;
        case SignpostKind::kEvent:
          RETURN_IF_ERROR(Add(signpost, nullptr, signpost.time, signpost.time));
          break;
        case SignpostKind::kEnd: {
          auto begins = open.find(KeyOf(signpost));
          if (begins == open.end() || begins->second.empty()) {
            // Begun before the recording started: kept, from the run's start.
            IntervalReader::SourceIndex source;
            ASSIGN_OR_RETURN(source, Source(signpost));
            ++unbegun_[source];
            RETURN_IF_ERROR(Add(signpost, nullptr, 0, signpost.time));
            break;
          }
          const Signpost& begin = signposts[begins->second.back()];
          begins->second.pop_back();
          RETURN_IF_ERROR(Add(begin, &signpost, begin.time, signpost.time));
          break;
        }
      }
    }
    // Begun and never ended: the builder draws them to the run's end.
    std::vector<size_t> unended;
    for (const auto& entry : open)
      unended.insert(unended.end(), entry.second.begin(), entry.second.end());
    std::sort(unended.begin(), unended.end());
    for (size_t i : unended) {
      RETURN_IF_ERROR(Add(signposts[i], nullptr, signposts[i].time, ProfileBuilder::kOpenEnd));
    }
    return OkStatus();
  }

  // Says which sources had ends without a begin.
  void Warn(const std::vector<ProfileBuilder::IntervalSourceId>&) const {
    for (const auto& [source, count] : unbegun_) {
      reader_.bundle().builder.AddWarning(
          "INTERVALS_WITHOUT_BEGIN",
          std::to_string(count) + " of " + reader_.SourceName(source) +
              " ended without beginning in the recording (begun before it started); drawn from "
              "the start of run " +
              std::to_string(reader_.table().run()));
    }
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
    std::string label = SignpostLabel(interval_name, first.identifier, message);
    reader_.Add(source, start, stop, std::move(interval_name), std::move(label));
    return OkStatus();
  }

  IntervalReader& reader_;
  std::map<IntervalReader::SourceIndex, uint64_t> unbegun_;
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
      ASSIGN_OR_RETURN(end, EndOf(begin, row.Get(duration)));
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
        uint64_t id = identifier.width ? row.Get(identifier) : kExclusiveId;
        label = SignpostLabel(interval_name, id, message);
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

std::string SignpostSourceName(std::string_view subsystem, std::string_view category) {
  std::string parts(subsystem);
  bool poi = category == "PointsOfInterest";
  if (!poi && !category.empty()) parts += (parts.empty() ? "" : " / ") + std::string(category);
  std::string name = poi ? "Points of Interest" : "Signposts";
  return parts.empty() ? name : name + kDash + parts;
}

std::string SignpostLabel(std::string_view name, uint64_t identifier, std::string_view message) {
  std::string label(name);
  if (identifier != kExclusiveId) label += std::string(kDash) + "id " + HexAddress(identifier);
  if (!message.empty()) label += ": " + std::string(message);
  return label;
}

Status ReadSignpostTable(BundleContext& bundle, const Table& table, IntervalTableRead* result) {
  std::optional<SignpostPairing> pairing;
  RETURN_IF_ERROR(ReadIntervalTable(
      bundle, table, result,
      [&](IntervalReader& reader) -> Status {
        std::vector<Signpost> signposts;
        ASSIGN_OR_RETURN(signposts, ReadSignposts(reader));
        pairing.emplace(reader);
        return pairing->Pair(signposts);
      },
      [&](IntervalReader&, const std::vector<ProfileBuilder::IntervalSourceId>& sources) {
        pairing->Warn(sources);
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
