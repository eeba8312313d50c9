// The consumer of the tables that name threads and processes (catalogue.h:
// kThreadNames, kProcessNames), read before a run's samples, which take
// their threads' names from them. A row without a name names nothing, but
// thread-info's row of a main thread names it "Main Thread"; where a thread
// or process is named twice, the last row wins (a thread renamed, a process
// that execs).
#ifndef INSTRUMENTSCOPE_TABLES_NAMES_H_
#define INSTRUMENTSCOPE_TABLES_NAMES_H_

#include <cstdint>
#include <map>
#include <string>

#include "tables/catalogue.h"
#include "tables/typed_row.h"

namespace instrumentscope::tables {

// The names a run's tables give.
struct TableNames {
  std::map<uint64_t, std::string> threads;   // by the thread's key (typed_row.h)
  std::map<int64_t, std::string> processes;  // by pid
};

// Takes the name of `row`, a row of `entry`'s table, into `names`.
void AddNames(const TableEntry& entry, const TypedRow& row, TableNames* names);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_NAMES_H_
