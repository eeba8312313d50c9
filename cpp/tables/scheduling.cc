// A System Trace's scheduling tables as lanes. thread-state: each thread's
// states over time (Running, Runnable, Blocked, Preempted, Interrupted,
// Idle… as the data names them), a lane per thread, each interval named by
// its state (what the summary totals per thread) and labelled with its note
// ("Runnable: made runnable by a timer expiration…"). cpu-state: what each
// core ran, a lane per core, each interval named by the process on the core
// and labelled with its thread, or by the core's state when no thread ran
// ("Handling Interrupt"; "Running" when the row names none).
#include <map>
#include <string>
#include <utility>

#include "base/text.h"
#include "model/view_names.h"
#include "tables/consumer_base.h"

namespace instrumentscope::tables {
namespace {

constexpr std::string_view kDash = " \xE2\x80\x94 ";  // " — "
constexpr std::string_view kRunning = "Running";

class ThreadStates final : public ConsumerBase {
 public:
  ThreadStates(const TableEntry& entry, uint32_t run, RoleSet columns, RowContext& context)
      : ConsumerBase(entry, run, columns, context), run_(run) {}

  Status Add(const TypedRow& row) override {
    // A state of no thread is in no lane: counted, and said at the end.
    if (!row.has(Role::kThread)) {
      ++rows_without_thread_;
      return OkStatus();
    }
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    std::string state(row.text(Role::kLabel));
    if (state.empty()) state = std::string(entry_.unlabelled);
    std::string_view note = row.text(Role::kNote);
    std::string label = note.empty() ? state : state + ": " + std::string(note);
    table_.Add(SourceOf(row, std::string(entry_.source)), span.first, span.second, std::move(state),
               std::move(label), std::string(note));
    return OkStatus();
  }

  Result<IntervalTable> Finish() override {
    if (rows_without_thread_ > 0) {
      table_.Warn(WarningCode::kRowsWithoutThread,
                  Counted(rows_without_thread_, "row") + " of the " + std::string(entry_.schema) +
                      " table of run " + std::to_string(run_) +
                      " named no thread: their states are in no lane");
    }
    return std::move(table_);
  }

 private:
  uint32_t run_;
  uint64_t rows_without_thread_ = 0;
};

class CoreStates final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    // A row of no core: a lane of the table's name alone.
    std::string core = row.has(Role::kCore) ? "CPU " + std::to_string(row[Role::kCore].number) : "";
    auto source = sources_.find(core);
    if (source == sources_.end()) {
      source = sources_.emplace(core, table_.Source(Named(core), -1, "")).first;
    }
    std::string state(row.text(Role::kLabel));
    if (state.empty()) state = std::string(entry_.unlabelled);
    if (!row.has(Role::kThread)) {
      table_.Add(source->second, span.first, span.second, state, state);
      return OkStatus();
    }
    const Occupant& occupant = OccupantOf(row);
    // Running is the thread's time; another state (Handling Interrupt) the core's own.
    if (state == kRunning) {
      table_.Add(source->second, span.first, span.second, occupant.process, occupant.label);
    } else {
      table_.Add(source->second, span.first, span.second, state,
                 state + " (" + occupant.label + ")");
    }
    return OkStatus();
  }

 private:
  // The thread on a core: its process, as the core's totals group it, and its label.
  struct Occupant {
    std::string process;  // "Safari (pid 93499)"
    std::string label;    // "Main Thread 0x20dfe6 — Safari (pid 93499)"
  };

  const Occupant& OccupantOf(const TypedRow& row) {
    const Value& thread = row[Role::kThread];
    int64_t pid = thread.pid >= 0           ? thread.pid
                  : row.has(Role::kProcess) ? row[Role::kProcess].pid
                                            : -1;
    auto known = occupants_.find({thread.key, pid});
    if (known != occupants_.end()) return known->second;
    Occupant occupant;
    if (pid >= 0) occupant.process = ProcessLabel(context_.ProcessName(pid), pid);
    occupant.label = context_.ThreadName(thread);
    if (!occupant.process.empty()) occupant.label.append(kDash).append(occupant.process);
    if (occupant.process.empty()) occupant.process = occupant.label;
    return occupants_.emplace(std::make_pair(thread.key, pid), std::move(occupant)).first->second;
  }

  std::map<std::string, size_t> sources_;  // by core
  std::map<std::pair<uint64_t, int64_t>, Occupant> occupants_;
};

}  // namespace

std::unique_ptr<IntervalConsumer> MakeThreadStates(const TableEntry& entry, uint32_t run,
                                                   RoleSet columns, RowContext& context) {
  return std::make_unique<ThreadStates>(entry, run, columns, context);
}

std::unique_ptr<IntervalConsumer> MakeCoreStates(const TableEntry& entry, uint32_t run,
                                                 RoleSet columns, RowContext& context) {
  return std::make_unique<CoreStates>(entry, run, columns, context);
}

}  // namespace instrumentscope::tables
