// runloop-events: kdebug-style events, 1 starting and 2 ending an interval
// of the row's interval type on its thread, paired in time order (a run
// loop's run starts before the iterations it holds but is written after
// them). One source per thread, each interval labelled with its type and
// run loop mode.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/event_pairing.h"
#include "tables/consumer_base.h"

namespace instrumentscope::tables {
namespace {

constexpr uint64_t kRunLoopStart = 1;
constexpr uint64_t kRunLoopEnd = 2;

class RunLoopEvents final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    uint64_t kind = row[Role::kEventType].number;
    if (kind != kRunLoopStart && kind != kRunLoopEnd) return OkStatus();
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    Held held;
    held.process = Kept(row[Role::kProcess]);
    held.thread = Kept(row[Role::kThread]);
    std::string_view type = row.text(Role::kIntervalType);
    held.name = type.empty() ? std::string(entry_.unlabelled) : std::string(type);
    held.label = held.name;
    if (!row.text(Role::kMode).empty())
      held.label += " (" + std::string(row.text(Role::kMode)) + ")";
    uint64_t thread = row[Role::kThread].key;
    uint64_t key = keys_.try_emplace({thread, held.name}, keys_.size()).first->second;
    events_.push_back(
        KeyedEvent{span.first, key, kind == kRunLoopStart ? EventRole::kBegin : EventRole::kEnd});
    held_.push_back(std::move(held));
    return OkStatus();
  }

  Result<IntervalTable> Finish() override {
    for (const PairedEvents& pair : PairEvents(events_)) {
      const Held& first = held_[pair.first()];
      size_t source = SourceOf(first.process, first.thread, std::string(entry_.source));
      table_.Add(source, pair.StartTime(events_, ProfileBuilder::kOpenStart),
                 pair.EndTime(events_, ProfileBuilder::kOpenEnd), first.name, first.label);
    }
    return std::move(table_);
  }

 private:
  struct Held {
    Value process;
    Value thread;
    std::string name;
    std::string label;
  };

  std::vector<Held> held_;
  std::vector<KeyedEvent> events_;
  std::map<std::pair<uint64_t, std::string>, uint64_t> keys_;  // by thread and interval type
};

}  // namespace

std::unique_ptr<IntervalConsumer> MakeRunLoopEvents(const TableEntry& entry, uint32_t run,
                                                    RoleSet columns, RowContext& context) {
  return std::make_unique<RunLoopEvents>(entry, run, columns, context);
}

}  // namespace instrumentscope::tables
