#include "tables/table_committer.h"

#include <algorithm>
#include <map>

namespace instrumentscope::tables {

Status TableCommitter::Commit(IntervalTable table) {
  if (table.entry().repeats_rank) {
    held_.push_back(std::move(table));
    return OkStatus();
  }
  if (!table.empty()) runs_.insert(table.run());
  return std::move(table).Commit(builder_);
}

bool TableCommitter::Repeats(const TableEntry& entry, uint32_t run) const {
  if (!entry.repeats_rank) return false;
  return std::any_of(held_.begin(), held_.end(), [&](const IntervalTable& table) {
    return table.run() == run && !table.empty() &&
           *table.entry().repeats_rank < *entry.repeats_rank;
  });
}

Status TableCommitter::CommitHeld() {
  std::map<uint32_t, int> kept_rank;  // per run, the first rank it has intervals of
  for (const IntervalTable& table : held_) {
    if (table.empty()) continue;
    int rank = *table.entry().repeats_rank;
    auto [entry, inserted] = kept_rank.try_emplace(table.run(), rank);
    if (!inserted) entry->second = std::min(entry->second, rank);
  }
  std::vector<IntervalTable> held = std::move(held_);
  held_.clear();
  for (IntervalTable& table : held) {
    auto kept = kept_rank.find(table.run());
    if (kept != kept_rank.end() && *table.entry().repeats_rank > kept->second) {
      left_out_.emplace(table.run(), std::string(table.entry().schema));
      continue;
    }
    if (!table.empty()) runs_.insert(table.run());
    RETURN_IF_ERROR(std::move(table).Commit(builder_));
  }
  return OkStatus();
}

}  // namespace instrumentscope::tables
