// os-signpost rows paired as Instruments pairs them; os-signpost-interval
// and region-of-interest rows, ready-made intervals. One source per
// process, subsystem and category.
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/event_pairing.h"
#include "tables/consumer_base.h"
#include "tables/signposts.h"

namespace instrumentscope::tables {
namespace {

// A signpost's id as Instruments shows it: "0x1a"; nothing when exclusive
// (or when the row has none); else as the row's text has it.
std::string IdOf(const TypedRow& row) {
  const Value& id = row[Role::kIdentifier];
  if (!id.present) return std::string();
  if (id.text.empty()) return SignpostIdText(id.number);
  return std::string(id.text);
}

// The name an interval is grouped by: "Signpost" for a row without one.
std::string_view NameOf(const TypedRow& row, const TableEntry& entry) {
  std::string_view name = row.text(Role::kName);
  return name.empty() ? entry.unlabelled : name;
}

class SignpostEvents final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    Held held;
    held.process = Kept(row[Role::kProcess]);
    held.thread = Kept(row[Role::kThread]);
    held.subsystem = strings_.Intern(row.text(Role::kSubsystem), 0);
    held.category = strings_.Intern(row.text(Role::kCategory), 1);
    held.name = strings_.Intern(NameOf(row, entry_), 2);
    const Value& id = row[Role::kIdentifier];
    held.id_number = id.present && id.text.empty() ? id.number : kExclusiveSignpostId;
    held.id_text = strings_.Intern(id.text, 3);
    // A message that cannot be read is shown as its format string.
    held.message = std::string(row[Role::kMessage].unreadable ? row.text(Role::kFormat)
                                                              : row.text(Role::kMessage));
    events_.push_back(KeyedEvent{
        span.first, KeyOf(row, held),
        row.has(Role::kEventType) ? SignpostRole(row.text(Role::kEventType)) : EventRole::kPoint});
    held_.push_back(std::move(held));
    return OkStatus();
  }

  Result<IntervalTable> Finish() override {
    // Sources by process, subsystem and category.
    std::map<std::tuple<int64_t, uint32_t, uint32_t>, size_t> sources;
    for (const PairedEvents& pair : PairEvents(events_)) {
      const Held& first = held_[pair.first()];
      int64_t pid = first.process.present ? first.process.pid : first.thread.pid;
      auto [known, made] = sources.try_emplace({pid, first.subsystem, first.category}, 0);
      if (made) {
        known->second =
            SourceOf(first.process, first.thread,
                     SignpostSourceName(strings_[first.subsystem], strings_[first.category]));
      }
      size_t source = known->second;
      // The Begin's message, else the End's.
      const std::string* message = &first.message;
      if (message->empty() && !pair.unbegun() && !pair.unended())
        message = &held_[pair.end].message;
      std::string id = strings_[first.id_text].empty() ? SignpostIdText(first.id_number)
                                                       : strings_[first.id_text];
      // Open at either end, an interval is drawn from or to its run's end.
      const std::string& name = strings_[first.name];
      table_.Add(source, pair.StartTime(events_, ProfileBuilder::kOpenStart),
                 pair.EndTime(events_, ProfileBuilder::kOpenEnd), name,
                 SignpostLabel(name, id, *message), *message);
    }
    return std::move(table_);
  }

 private:
  // A row until its pair is made; its strings interned.
  struct Held {
    Value process;
    Value thread;
    uint32_t subsystem;
    uint32_t category;
    uint32_t name;
    uint64_t id_number;  // kExclusiveSignpostId without one
    uint32_t id_text;    // an id that is no number, as the row shows it
    std::string message;
  };

  // What makes a Begin and an End one interval: the process, subsystem,
  // category, name and id; the thread too, for a signpost of thread scope.
  using PairKey = std::tuple<int64_t, uint32_t, uint32_t, uint32_t, uint64_t, uint32_t, uint64_t>;

  uint64_t KeyOf(const TypedRow& row, const Held& held) {
    int64_t pid = row.has(Role::kProcess) ? row[Role::kProcess].pid : -1;
    bool by_thread = row.text(Role::kScope) == "Thread" && row.has(Role::kThread);
    PairKey key{pid,
                held.subsystem,
                held.category,
                held.name,
                held.id_number,
                held.id_text,
                by_thread ? row[Role::kThread].key : UINT64_MAX};
    return keys_.try_emplace(key, keys_.size()).first->second;
  }

  Interner strings_;
  std::vector<Held> held_;
  std::vector<KeyedEvent> events_;
  std::map<PairKey, uint64_t> keys_;
};

// os-signpost-interval and region-of-interest: a ready-made interval per row.
class SignpostIntervals final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    std::string name(NameOf(row, entry_));
    std::string_view message = row.text(Role::kStartMessage);
    if (message.empty()) message = row.text(Role::kEndMessage);
    bool regions = entry_.consumer == Consumer::kRegions;
    std::string label;
    if (regions) {
      // A region's start message begins with its name ("SubmitScan: source=…") [11.4.1].
      label = message.empty()                              ? name
              : message.compare(0, name.size(), name) == 0 ? std::string(message)
                                                           : name + ": " + std::string(message);
    } else {
      label = SignpostLabel(name, IdOf(row), message);
    }
    std::string source = SignpostSourceName(
        row.text(Role::kSubsystem),
        regions ? std::string_view("PointsOfInterest") : row.text(Role::kCategory));
    table_.Add(SourceOf(row, source), span.first, span.second, std::move(name), std::move(label),
               std::string(message));
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<IntervalConsumer> MakeSignpostEvents(const TableEntry& entry, uint32_t run,
                                                     RoleSet columns, RowContext& context) {
  return std::make_unique<SignpostEvents>(entry, run, columns, context);
}

std::unique_ptr<IntervalConsumer> MakeSignpostIntervals(const TableEntry& entry, uint32_t run,
                                                        RoleSet columns, RowContext& context) {
  return std::make_unique<SignpostIntervals>(entry, run, columns, context);
}

}  // namespace instrumentscope::tables
