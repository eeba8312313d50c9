#include "tables/names.h"

#include <string>

namespace instrumentscope::tables {

void AddNames(const TableEntry& entry, const TypedRow& row, TableNames* names) {
  std::string_view name = row.has(Role::kName) ? row.text(Role::kName) : std::string_view();
  if (entry.consumer == Consumer::kProcessNames) {
    if (!name.empty() && row.has(Role::kProcess)) {
      names->processes[row[Role::kProcess].pid] = std::string(name);
    }
    return;
  }
  if (!row.has(Role::kThread)) return;
  if (name.empty() && row.has(Role::kMainThread) && row[Role::kMainThread].number == 1) {
    name = "Main Thread";
  }
  if (!name.empty()) names->threads[row[Role::kThread].key] = std::string(name);
}

}  // namespace instrumentscope::tables
