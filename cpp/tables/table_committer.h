// Hands the interval tables of one import to the builder as they end, but
// for the tables that hold the same signposts (os-signpost,
// os-signpost-interval, region-of-interest: the entry's repeats_rank): those
// wait until CommitHeld(), and each run keeps the first of them, by rank,
// that has intervals; the others are left out and listed as not read.
#ifndef INSTRUMENTSCOPE_TABLES_TABLE_COMMITTER_H_
#define INSTRUMENTSCOPE_TABLES_TABLE_COMMITTER_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "model/profile_builder.h"
#include "tables/interval_table.h"

namespace instrumentscope::tables {

class TableCommitter {
 public:
  explicit TableCommitter(ProfileBuilder& builder) : builder_(builder) {}

  // A table read whole: committed now, or held if another may repeat it.
  Status Commit(IntervalTable table);
  // Commits, of the tables held, those each run keeps.
  Status CommitHeld();
  // Whether a table of `entry` in `run` would be left out, a table of lower
  // rank of the run holding intervals already: a reader that reads tables in
  // rank order (a bundle's) need not read it.
  bool Repeats(const TableEntry& entry, uint32_t run) const;

  // Whether `schema` of `run` was left out for repeating another table.
  bool LeftOut(uint32_t run, std::string_view schema) const {
    return left_out_.count({run, std::string(schema)}) > 0;
  }
  // The runs that have intervals committed.
  const std::set<uint32_t>& runs_with_intervals() const { return runs_; }

 private:
  ProfileBuilder& builder_;
  std::vector<IntervalTable> held_;
  std::set<std::pair<uint32_t, std::string>> left_out_;
  std::set<uint32_t> runs_;
};

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_TABLE_COMMITTER_H_
