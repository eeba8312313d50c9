#include "tables/consumers.h"

#include <string>

#include "tables/consumer_base.h"
#include "tables/durations.h"

namespace instrumentscope::tables {
namespace {

constexpr std::string_view kDash = " \xE2\x80\x94 ";  // " — "

// Whether rows last (they hold samples "during" them) or are single events.
bool RowsLast(const TableEntry& entry, RoleSet columns) {
  return columns.has(Role::kDuration) || columns.has(Role::kEnd) ||
         entry.consumer == Consumer::kSignpostEvents || entry.consumer == Consumer::kRunLoopEvents;
}

// An interval (or an event) per row, labelled by its kLabel column, split by
// its kGroup column (a display), else by the entry's split.
class LabelledIntervals final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    std::string label(row.text(Role::kLabel));
    if (label.empty()) label = std::string(entry_.unlabelled);
    size_t source = SourceOf(row, Named(row.text(Role::kGroup)));
    table_.Add(source, span.first, span.second, label, label);
    return OkStatus();
  }
};

}  // namespace

ConsumerBase::ConsumerBase(const TableEntry& entry, uint32_t run, RoleSet columns,
                           RowContext& context)
    : entry_(entry),
      columns_(columns),
      context_(context),
      table_(entry, run, RowsLast(entry, columns)) {}

std::string ConsumerBase::Named(std::string_view part) const {
  std::string name(entry_.source);
  if (!part.empty()) name.append(kDash).append(part);
  return name;
}

size_t ConsumerBase::SourceOf(const Value& process, const Value& thread, const std::string& name) {
  int64_t pid = -1;
  if (entry_.split != SourceSplit::kRun) {
    if (process.present) {
      pid = process.pid;
    } else if (thread.present) {
      pid = thread.pid;
    }
  }
  auto named_process = process_names_.find(pid);
  if (named_process == process_names_.end()) {
    named_process =
        process_names_.emplace(pid, pid >= 0 ? context_.ProcessName(pid) : std::string()).first;
  }
  const std::string& process_name = named_process->second;
  if (entry_.split != SourceSplit::kThread || !thread.present) {
    return table_.Source(name, pid, process_name);
  }
  auto named = thread_names_.find(thread.key);
  if (named == thread_names_.end()) {
    named = thread_names_.emplace(thread.key, context_.ThreadName(thread)).first;
  }
  return table_.Source(name + std::string(kDash) + named->second, pid, process_name, thread.number);
}

std::unique_ptr<IntervalConsumer> MakeConsumer(const TableEntry& entry, uint32_t run,
                                               RoleSet columns, RowContext& context) {
  switch (entry.consumer) {
    case Consumer::kLabelledIntervals:
      return std::make_unique<LabelledIntervals>(entry, run, columns, context);
    case Consumer::kSignpostEvents: return MakeSignpostEvents(entry, run, columns, context);
    case Consumer::kSignpostIntervals:
    case Consumer::kRegions: return MakeSignpostIntervals(entry, run, columns, context);
    case Consumer::kRunLoopEvents: return MakeRunLoopEvents(entry, run, columns, context);
    case Consumer::kThreadStates: return MakeThreadStates(entry, run, columns, context);
    case Consumer::kCoreStates: return MakeCoreStates(entry, run, columns, context);
    // No intervals: samples.h and names.h consume these.
    case Consumer::kCpuSamples:
    case Consumer::kWeightedEvents:
    case Consumer::kThreadNames:
    case Consumer::kProcessNames: break;
  }
  return nullptr;
}

Result<std::pair<int64_t, int64_t>> RowSpan(const TypedRow& row, RoleSet columns) {
  if (!row.has(Role::kStart)) return Status(ErrorCode::kInvalidArgument, "has no start time");
  uint64_t start_ns = row[Role::kStart].number;
  if (start_ns >= static_cast<uint64_t>(ProfileBuilder::kOpenEnd)) {
    return Status(ErrorCode::kInvalidArgument,
                  "starts at " + std::to_string(start_ns) + " ns, past the largest time");
  }
  int64_t start = static_cast<int64_t>(start_ns);
  if (row.has(Role::kDuration)) {
    const Value& duration = row[Role::kDuration];
    std::optional<int64_t> end = IntervalEnd(start, duration.number, duration.bits);
    if (!end) {
      return Status(ErrorCode::kInvalidArgument, "ends past the largest time (start " +
                                                     std::to_string(start) + " ns, duration " +
                                                     std::to_string(duration.number) + " ns)");
    }
    return std::make_pair(start, *end);
  }
  if (row.has(Role::kEnd)) {
    uint64_t end = row[Role::kEnd].number;
    if (end < start_ns) {
      return Status(ErrorCode::kInvalidArgument, "ends (at " + std::to_string(end) +
                                                     " ns) before it starts (at " +
                                                     std::to_string(start) + " ns)");
    }
    if (end >= static_cast<uint64_t>(ProfileBuilder::kOpenEnd)) {
      return Status(ErrorCode::kInvalidArgument,
                    "ends at " + std::to_string(end) + " ns, past the largest time");
    }
    return std::make_pair(start, static_cast<int64_t>(end));
  }
  // Still open when the recording stopped.
  if (columns.has(Role::kDuration) || columns.has(Role::kEnd)) {
    return std::make_pair(start, ProfileBuilder::kOpenEnd);
  }
  return std::make_pair(start, start);
}

}  // namespace instrumentscope::tables
