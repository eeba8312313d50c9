#include "tables/interval_table.h"

namespace instrumentscope::tables {

IntervalTable::IntervalTable(const TableEntry& entry, uint32_t run, bool during)
    : entry_(&entry), run_(run), during_(during) {}

size_t IntervalTable::Source(const std::string& name, int64_t pid, const std::string& process_name,
                             std::optional<uint64_t> tid) {
  auto [entry, inserted] = source_index_.try_emplace({name, pid}, sources_.size());
  if (inserted) sources_.push_back(PendingSource{name, process_name, pid, tid});
  return entry->second;
}

void IntervalTable::Add(size_t source, int64_t start, int64_t end, std::string name,
                        std::string label, std::string detail) {
  intervals_.push_back(
      PendingInterval{source, start, end, std::move(name), std::move(label), std::move(detail)});
}

Status IntervalTable::Commit(ProfileBuilder& builder) && {
  std::vector<ProfileBuilder::IntervalSourceId> ids;
  ids.reserve(sources_.size());
  for (PendingSource& source : sources_) {
    ProfileBuilder::IntervalSourceDesc desc;
    desc.run = run_;
    desc.table = std::string(entry_->schema);
    desc.name = std::move(source.name);
    desc.process_name = std::move(source.process_name);
    desc.pid = source.pid;
    desc.tid = source.tid;
    if (during_) {
      desc.during = entry_->during;
      desc.during_name = std::string(entry_->during_name);
    }
    desc.every_name = entry_->consumer == Consumer::kThreadStates;
    ids.push_back(builder.AddIntervalSource(std::move(desc)));
  }
  for (const PendingInterval& interval : intervals_) {
    RETURN_IF_ERROR(builder.AddInterval(ids[interval.source], interval.start, interval.end,
                                        interval.name, interval.label, interval.detail));
  }
  for (auto& [code, message] : warnings_) builder.AddWarning(code, std::move(message));
  return OkStatus();
}

}  // namespace instrumentscope::tables
