// os-signpost rows paired as Instruments pairs them; os-signpost-interval
// and region-of-interest rows, ready-made intervals. One source per
// process, subsystem and category.
#include <map>
#include <string>
#include <vector>

#include "formats/signposts.h"
#include "model/event_pairing.h"
#include "tables/consumer_base.h"

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
std::string NameOf(const TypedRow& row, const TableEntry& entry) {
  std::string_view name = row.text(Role::kName);
  return name.empty() ? std::string(entry.unlabelled) : std::string(name);
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
    held.source_name = SignpostSourceName(row.text(Role::kSubsystem), row.text(Role::kCategory));
    held.name = NameOf(row, entry_);
    held.id = IdOf(row);
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
    for (const PairedEvents& pair : PairEvents(events_)) {
      const Held& first = held_[pair.first()];
      size_t source = SourceOf(first.process, first.thread, first.source_name);
      // The Begin's message, else the End's.
      const std::string* message = &first.message;
      if (message->empty() && !pair.unbegun() && !pair.unended())
        message = &held_[pair.end].message;
      // Open at either end, an interval is drawn from or to its run's end.
      table_.Add(source, pair.StartTime(events_, ProfileBuilder::kOpenStart),
                 pair.EndTime(events_, ProfileBuilder::kOpenEnd), first.name,
                 SignpostLabel(first.name, first.id, *message));
    }
    return std::move(table_);
  }

 private:
  struct Held {
    Value process;
    Value thread;
    std::string source_name;
    std::string name;
    std::string id;
    std::string message;
  };

  // What makes a Begin and an End one interval: the process, subsystem,
  // category, name and id; the thread too, for a signpost of thread scope.
  uint64_t KeyOf(const TypedRow& row, const Held& held) {
    int64_t pid = row.has(Role::kProcess) ? row[Role::kProcess].pid : -1;
    std::string key = std::to_string(pid);
    for (std::string_view part : {row.text(Role::kSubsystem), row.text(Role::kCategory),
                                  std::string_view(held.name), std::string_view(held.id)}) {
      key.append(1, '\0').append(part);
    }
    if (row.text(Role::kScope) == "Thread" && row.has(Role::kThread)) {
      key.append(1, '\0').append(std::to_string(row[Role::kThread].key));
    }
    return keys_.try_emplace(std::move(key), keys_.size()).first->second;
  }

  std::vector<Held> held_;
  std::vector<KeyedEvent> events_;
  std::map<std::string, uint64_t> keys_;
};

// os-signpost-interval and region-of-interest: a ready-made interval per row.
class SignpostIntervals final : public ConsumerBase {
 public:
  using ConsumerBase::ConsumerBase;

  Status Add(const TypedRow& row) override {
    std::pair<int64_t, int64_t> span;
    ASSIGN_OR_RETURN(span, RowSpan(row, columns_));
    std::string name = NameOf(row, entry_);
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
    table_.Add(SourceOf(row, source), span.first, span.second, std::move(name), std::move(label));
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
