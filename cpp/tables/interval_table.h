// The intervals of one table, held until they can be handed to the
// ProfileBuilder: when the table ends, or, for the tables that repeat one
// another's signposts, once the kept one is known (table_committer.h).
// Sources are made here, by name and process, so that a table left out
// leaves no empty source behind.
#ifndef INSTRUMENTSCOPE_TABLES_INTERVAL_TABLE_H_
#define INSTRUMENTSCOPE_TABLES_INTERVAL_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "model/profile_builder.h"
#include "tables/catalogue.h"

namespace instrumentscope::tables {

class IntervalTable {
 public:
  // `during`: whether the table's rows last (an interval, not an event), so
  // that the entry's "during" views apply.
  IntervalTable(const TableEntry& entry, uint32_t run, bool during);

  const TableEntry& entry() const { return *entry_; }
  uint32_t run() const { return run_; }
  bool empty() const { return intervals_.empty(); }
  size_t size() const { return intervals_.size(); }

  // The source of `name` and process `pid` (-1: none), made the first time;
  // `tid` for a source of one thread's intervals.
  size_t Source(const std::string& name, int64_t pid, const std::string& process_name,
                std::optional<uint64_t> tid = std::nullopt);
  // `detail`: what `label` adds of the interval's own (ProfileBuilder::AddInterval).
  void Add(size_t source, int64_t start, int64_t end, std::string name, std::string label,
           std::string detail = {});
  // A warning the builder gets with the intervals: what of the table they lack.
  void Warn(WarningCode code, std::string message) {
    warnings_.emplace_back(code, std::move(message));
  }

  // Hands the sources and intervals to the builder.
  Status Commit(ProfileBuilder& builder) &&;

 private:
  struct PendingSource {
    std::string name;
    std::string process_name;
    int64_t pid;
    std::optional<uint64_t> tid;
  };
  struct PendingInterval {
    size_t source;
    int64_t start;
    int64_t end;
    std::string name;
    std::string label;
    std::string detail;
  };

  const TableEntry* entry_;
  uint32_t run_;
  bool during_;
  std::vector<PendingSource> sources_;
  std::map<std::pair<std::string, int64_t>, size_t> source_index_;
  std::vector<PendingInterval> intervals_;
  std::vector<std::pair<WarningCode, std::string>> warnings_;
};

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_INTERVAL_TABLE_H_
