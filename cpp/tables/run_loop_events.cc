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
    held.type = strings_.Intern(type.empty() ? entry_.unlabelled : type, 0);
    held.mode = strings_.Intern(row.text(Role::kMode), 1);
    uint64_t key = keys_.try_emplace({held.thread.key, held.type}, keys_.size()).first->second;
    events_.push_back(
        KeyedEvent{span.first, key, kind == kRunLoopStart ? EventRole::kBegin : EventRole::kEnd});
    held_.push_back(held);
    return OkStatus();
  }

  Result<IntervalTable> Finish() override {
    for (const PairedEvents& pair : PairEvents(events_)) {
      const Held& first = held_[pair.first()];
      auto source = sources_.find(first.thread.key);
      if (source == sources_.end()) {
        size_t made = SourceOf(first.process, first.thread, std::string(entry_.source));
        source = sources_.emplace(first.thread.key, made).first;
      }
      const std::string& name = strings_[first.type];
      const std::string& mode = strings_[first.mode];
      table_.Add(source->second, pair.StartTime(events_, ProfileBuilder::kOpenStart),
                 pair.EndTime(events_, ProfileBuilder::kOpenEnd), name,
                 mode.empty() ? name : name + " (" + mode + ")");
    }
    return std::move(table_);
  }

 private:
  // A row until its pair is made; its strings interned.
  struct Held {
    Value process;
    Value thread;
    uint32_t type;
    uint32_t mode;
  };

  Interner strings_;
  std::vector<Held> held_;
  std::vector<KeyedEvent> events_;
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> keys_;  // by thread and interval type
  std::map<uint64_t, size_t> sources_;                      // by thread
};

}  // namespace

std::unique_ptr<IntervalConsumer> MakeRunLoopEvents(const TableEntry& entry, uint32_t run,
                                                    RoleSet columns, RowContext& context) {
  return std::make_unique<RunLoopEvents>(entry, run, columns, context);
}

}  // namespace instrumentscope::tables
