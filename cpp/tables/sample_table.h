// The samples of one table of one run, held until the whole table is read: a
// table found damaged halfway is left out whole, the builder never having
// seen its timeline, threads or samples (its frames and stacks, interned as
// they were read, stay unused). Commit hands everything over in the order it
// was read, so a table that is whole imports exactly as if added directly.
// CPU samples and weighted events (samples.h) fill one, and so do a bundle's
// legacy runs and allocation recordings, which are no tables.
#ifndef INSTRUMENTSCOPE_TABLES_SAMPLE_TABLE_H_
#define INSTRUMENTSCOPE_TABLES_SAMPLE_TABLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/paged_vector.h"
#include "base/status.h"
#include "model/profile_builder.h"

namespace instrumentscope::tables {

// A thread as profiles name it, owning its names.
struct SampleThread {
  std::string name;  // "Main Thread 0x3c1feee", "Thread 0x1b40f8"
  uint64_t tid = 0;
  std::string process_name;  // empty: the builder says "pid N"
  int64_t pid = -1;
  uint32_t threads = 1;

  ThreadDesc Desc() const { return ThreadDesc{name, tid, process_name, pid, threads}; }
};

// What the samples' timeline is: its run and table, what its weights are
// and what its samples are; with `count`, each sample weighs 1.
struct SampleTimeline {
  uint32_t run = 1;
  std::string table;
  ValueUnit unit = ValueUnit::kNanoseconds;
  ProfileBuilder::TimelineContent content;
  bool count = false;
  // kOrderOnly: samples laid end to end in their order, no idle gaps between
  // them (events weighted by durations that need not fill the time).
  ProfileBuilder::TimeAxis axis = ProfileBuilder::TimeAxis::kShared;
};

class SampleTable {
 public:
  // The thread's index among this table's, in the order threads appear.
  uint32_t AddThread(SampleThread thread);
  // Thread `thread`, to be told more of before the samples are committed.
  SampleThread& thread(uint32_t thread) { return threads_[thread]; }
  // A sample of thread `thread`; `offset` says where its bytes are, for an
  // error at Commit. Fails as ProfileBuilder::AddSample would for its time
  // and weight.
  Status Add(uint32_t thread, int64_t time, int64_t weight, StackId stack, uint64_t offset) {
    // Checked now: the table's earlier samples are not in the builder yet.
    RETURN_IF_ERROR(ProfileBuilder::CheckSample(time, weight));
    AddChecked(thread, time, weight, stack, offset);
    return OkStatus();
  }
  // The same, of a time and weight already checked; without an offset (the
  // samples of a table whose reader says where its errors are) for every
  // sample of the table.
  void AddChecked(uint32_t thread, int64_t time, int64_t weight, StackId stack,
                  std::optional<uint64_t> offset) {
    samples_.push_back(Sample{time, weight, thread, stack});
    if (offset) offsets_.push_back(*offset);
  }
  uint64_t size() const { return samples_.size(); }
  // Adds `weight` to sample `sample`, which then stands for one more event:
  // false, the sample unchanged, when the sum would pass 2^63 - 1 or the
  // sample's end would.
  bool Merge(uint64_t sample, int64_t weight);

  // Adds the timeline, its threads and its samples to the builder. An error
  // (a limit reached) names `path` and the sample's offset where it has one;
  // without a path, the caller says where.
  Status Commit(ProfileBuilder& builder, const SampleTimeline& timeline,
                const std::string& path) const;

 private:
  struct Sample {  // 24 bytes: a long table is held whole
    int64_t time;
    int64_t weight;
    uint32_t thread;
    StackId stack;
  };

  std::vector<SampleThread> threads_;
  PagedVector<Sample> samples_;
  PagedVector<uint64_t> offsets_;  // each sample's, or none
};

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_SAMPLE_TABLE_H_
