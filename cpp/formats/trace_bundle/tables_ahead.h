// A bundle's tables of CPU samples read on helper threads while the import
// reads the tables before them. The helpers take them from the last on, and
// the import reads those no helper has begun itself, in place, from the first
// on: only what a helper read costs adding. A helper reads its table in a
// context of its own: its own files, builder and frames, and a copy of what
// the table's run's names and references held when the import planned it.
// When the import reaches the table, that part is added to the import's
// builder (ProfileBuilder::Append) as if read there, its warnings with it,
// and its members counted against the limits then. A part that left out
// samples, failed, or would pass a limit of the whole is dropped, and its
// table read again in place as on one thread, so that the profile, the
// warnings and the errors are those of one thread.
//
// Only a run's one table read as samples is planned: the tables before it
// (names, intervals) are read by then, and nothing after it reads its run's
// references, which its part's copy leaves behind.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_AHEAD_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_AHEAD_H_

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "base/threads.h"
#include "formats/trace_bundle/bundle_context.h"
#include "tables/catalogue.h"

namespace instrumentscope::trace_bundle {

class SampleTablesAhead {
 public:
  struct Planned {
    const Table* table;
    const tables::TableEntry* entry;
  };

  // `tables`, in the order the import reads them, are read on `helpers`
  // (which must hold one at least) from now on.
  SampleTablesAhead(BundleContext& bundle, const std::vector<Planned>& tables,
                    std::unique_ptr<HelperThreads> helpers);
  // Stops the helpers within a few thousand rows, and waits for them.
  ~SampleTablesAhead();
  SampleTablesAhead(const SampleTablesAhead&) = delete;
  SampleTablesAhead& operator=(const SampleTablesAhead&) = delete;

  bool Plans(const Table& table) const;
  // Reads `table`, one planned, into the import: as ReadSampleTable would.
  Status Read(const Table& table);

 private:
  enum class State { kPlanned, kReading, kRead, kTaken };
  // A table read apart from the import.
  struct Part {
    Part(BundleContext& whole, const Table& table, const std::atomic<bool>* stop);

    std::vector<BundleFiles::MemberRead> reads;  // in the order read
    std::unique_ptr<BundleFiles> files;
    ProfileBuilder builder;
    BundleContext context;
    Status status;  // ReadSampleTable's
  };
  struct Job {
    Planned planned;
    State state = State::kPlanned;
    std::unique_ptr<Part> part;
  };

  void Help();
  // The last job no thread has begun; null when none is left. Under mutex_.
  Job* LastPlanned();
  // Reads `job`'s table into its part, then says so. Under mutex_, unlocked meanwhile.
  void ReadPart(Job& job, std::unique_lock<std::mutex>& lock);
  // Whether `part` adds to the import exactly as its table read here would;
  // `read_here`: the symbol archives it read that the import has read since.
  bool Adds(const Part& part, const std::set<std::string>& read_here) const;
  // Adds the part of `job`, read, to the import, or reads its table here.
  Status Take(Job& job);

  BundleContext& bundle_;
  std::vector<Job> jobs_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable changed_;
  std::unique_ptr<HelperThreads> helpers_;
  std::vector<std::thread> threads_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_AHEAD_H_
