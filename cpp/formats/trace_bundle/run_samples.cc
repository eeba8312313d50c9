#include "formats/trace_bundle/run_samples.h"

#include <utility>

namespace instrumentscope::trace_bundle {

uint32_t RunSamples::AddThread(ThreadIdentity thread) {
  threads_.push_back(std::move(thread));
  return static_cast<uint32_t>(threads_.size() - 1);
}

Status RunSamples::Add(uint32_t thread, int64_t time, int64_t weight, StackId stack,
                       uint64_t offset) {
  // Checked now: the run's earlier samples are not in the builder yet.
  RETURN_IF_ERROR(ProfileBuilder::CheckSample(time, weight));
  samples_.push_back(Sample{time, weight, offset, thread, stack});
  return OkStatus();
}

Status RunSamples::Commit(ProfileBuilder& builder, uint32_t run, std::string table,
                          const std::string& path) const {
  return CommitAs(builder, run, std::move(table), path, ValueUnit::kNanoseconds, {}, false);
}

Status RunSamples::CommitAs(ProfileBuilder& builder, uint32_t run, std::string table,
                            const std::string& path, ValueUnit unit, TimelineContent content,
                            bool count) const {
  ProfileBuilder::TimelineId timeline = builder.AddTimeline(
      run, std::move(table), unit, ProfileBuilder::TimeAxis::kShared, std::move(content));
  std::vector<ProfileBuilder::ThreadId> threads;
  threads.reserve(threads_.size());
  for (const ThreadIdentity& thread : threads_) {
    threads.push_back(builder.InternThread(timeline, thread.Desc()));
  }
  for (size_t i = 0; i < samples_.size(); ++i) {
    const Sample& sample = samples_[i];
    Status added = builder.AddSample(threads[sample.thread], sample.time, count ? 1 : sample.weight,
                                     sample.stack);
    if (!added.ok()) return added.WithPath(path).WithOffset(sample.offset);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
