#include "tables/sample_table.h"

#include <utility>

#include "base/checked_math.h"

namespace instrumentscope::tables {

uint32_t SampleTable::AddThread(SampleThread thread) {
  threads_.push_back(std::move(thread));
  return static_cast<uint32_t>(threads_.size() - 1);
}

bool SampleTable::Merge(uint64_t sample, int64_t weight) {
  Sample& merged = samples_[sample];
  auto sum = CheckedAdd(merged.weight, weight);
  if (!sum || !ProfileBuilder::CheckSample(merged.time, *sum).ok()) return false;
  merged.weight = *sum;
  return true;
}

Status SampleTable::Commit(ProfileBuilder& builder, const SampleTimeline& timeline,
                           const std::string& path) const {
  ProfileBuilder::TimelineId id = builder.AddTimeline(timeline.run, timeline.table, timeline.unit,
                                                      timeline.axis, timeline.content);
  std::vector<ProfileBuilder::ThreadId> threads;
  threads.reserve(threads_.size());
  for (const SampleThread& thread : threads_) {
    threads.push_back(builder.InternThread(id, thread.Desc()));
  }
  for (size_t i = 0; i < samples_.size(); ++i) {
    const Sample& sample = samples_[i];
    Status added = builder.AddSample(threads[sample.thread], sample.time,
                                     timeline.count ? 1 : sample.weight, sample.stack);
    if (!added.ok()) {
      if (i < offsets_.size()) added.WithOffset(offsets_[i]);
      return path.empty() ? added : added.WithPath(path);
    }
  }
  return OkStatus();
}

}  // namespace instrumentscope::tables
