// The samples of one table of one run, held until the whole table is read: a
// run found damaged halfway is left out whole, the builder never having seen
// its timeline, threads or samples (its frames and stacks, interned as they
// were read, stay unused). Commit hands everything over in the order it was
// read, so a run that is whole imports exactly as if added directly.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SAMPLES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SAMPLES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/paged_vector.h"
#include "base/status.h"
#include "formats/trace_bundle/threads.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

class RunSamples {
 public:
  // The thread's index among this table's, in the order threads appear.
  uint32_t AddThread(ThreadIdentity thread);
  // Thread `thread`, to be told more of before the samples are committed.
  ThreadIdentity& thread(uint32_t thread) { return threads_[thread]; }
  // A sample of thread `thread`, whose bytes are at `offset` in the table's
  // file. Fails as ProfileBuilder::AddSample would for its time and weight.
  Status Add(uint32_t thread, int64_t time, int64_t weight, StackId stack, uint64_t offset);
  uint64_t size() const { return samples_.size(); }

  // Adds the run's timeline for `table`, its threads and its samples to the
  // builder. An error (a limit reached) names `path` and the sample's offset.
  Status Commit(ProfileBuilder& builder, uint32_t run, std::string table,
                const std::string& path) const;
  // The same, of samples that are other events than CPU samples: `content`
  // says what, `unit` what their weights are; with `count`, each weighs 1.
  Status CommitAs(ProfileBuilder& builder, uint32_t run, std::string table, const std::string& path,
                  ValueUnit unit, TimelineContent content, bool count) const;

 private:
  struct Sample {
    int64_t time;
    int64_t weight;
    uint64_t offset;
    uint32_t thread;
    StackId stack;
  };

  std::vector<ThreadIdentity> threads_;
  PagedVector<Sample> samples_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SAMPLES_H_
