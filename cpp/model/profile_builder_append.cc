// ProfileBuilder::Append: a part built on another thread, added as if its
// calls had been made on this builder (profile_builder.h).
#include <algorithm>

#include "model/profile_builder.h"

namespace instrumentscope {

FrameDesc ProfileBuilder::DescOf(FrameId id, const std::vector<ImageId>& images) const {
  const Frame& frame = frames_[id];
  FrameDesc desc;
  desc.name = frame.name;
  desc.image = frame.library;
  if (frame_has_source_[id]) {
    desc.source_file = frame.file;
    desc.line = frame.line;
  }
  desc.address = frame.address;
  desc.image_id = frame.image == kNoImage ? kNoImage : images[frame.image];
  if (!frame.folded.empty()) desc.folded = &frame.folded;
  return desc;
}

bool ProfileBuilder::CanAppend(const ProfileBuilder& part) const {
  bool carried = part.interval_sources_.empty() && part.intervals_.empty() && part.heaps_.empty() &&
                 part.run_info_.empty() && part.instruments_.empty() && !part.preferred_run_ &&
                 !part.stack_limit_reached_;
  // A builder past its stack limit refuses the part's first sample, saying where.
  if (!carried || stack_limit_reached_) return false;
  // InternStack refuses any call, a lookup too, once the builder holds the
  // limit: a part that could fill it might have looked a stack up after.
  uint64_t stack_limit = std::min<uint64_t>(max_stack_nodes_, kEmptyStack - 1);
  if (stacks_.size() >= stack_limit || part.stacks_.size() >= stack_limit - stacks_.size()) {
    return false;
  }
  if (part.total_samples_ > sample_room()) return false;
  if (part.large_weights_.size() > kLargeWeight - large_weights_.size()) return false;
  // A frame keeps the first source file it is given: one this builder names
  // otherwise would have kept other calls' lines. Its key names its image by
  // the id Append would give it.
  std::vector<ImageId> images;
  ImageId next_image = static_cast<ImageId>(images_.size());
  for (const CodeImage& image : part.images_) {
    auto here = image_index_.find(ImageKey(image));
    images.push_back(here != image_index_.end() ? here->second : next_image++);
  }
  std::string key;
  for (FrameId id = 0; id < part.frames_.size(); ++id) {
    if (!part.frame_has_source_[id]) continue;
    FrameKey(part.DescOf(id, images), &key);
    std::optional<uint32_t> here = frame_index_.Find(key);
    if (here && frame_has_source_[*here] && frames_[*here].file != part.frames_[id].file) {
      return false;
    }
  }
  return true;
}

Status ProfileBuilder::Append(const ProfileBuilder& part) {
  std::vector<ImageId> images;
  images.reserve(part.images_.size());
  for (const CodeImage& image : part.images_) images.push_back(InternImage(image));
  std::vector<FrameId> frames;
  frames.reserve(part.frames_.size());
  for (FrameId id = 0; id < part.frames_.size(); ++id) {
    frames.push_back(InternFrame(part.DescOf(id, images)));
  }
  // A node's parent comes before it.
  std::vector<StackId> stacks(part.stacks_.size());
  for (size_t node = 0; node < stacks.size(); ++node) {
    StackId parent = part.stacks_.parent[node];
    stacks[node] = InternStack(parent == kEmptyStack ? kEmptyStack : stacks[parent],
                               frames[part.stacks_.frame[node]]);
  }
  std::vector<TimelineId> timelines;
  timelines.reserve(part.timelines_.size());
  for (const Timeline& timeline : part.timelines_) {
    timelines.push_back(
        AddTimeline(timeline.run, timeline.table, timeline.unit, timeline.axis, timeline.content));
  }
  // Each thread's samples in their order; the order between threads changes
  // nothing, each thread holding its own.
  for (const Thread& thread : part.threads_) {
    ThreadId id = InternThread(timelines[thread.timeline],
                               ThreadDesc{thread.thread_name, thread.tid, thread.process_name,
                                          thread.pid, thread.threads});
    for (size_t i = 0; i < thread.samples.size(); ++i) {
      const StoredSample& sample = thread.samples[i];
      StackId stack = sample.stack == kEmptyStack ? kEmptyStack : stacks[sample.stack];
      RETURN_IF_ERROR(AddSample(id, sample.time, part.WeightOf(sample), stack));
    }
  }
  tables_.insert(tables_.end(), part.tables_.begin(), part.tables_.end());
  warnings_.insert(warnings_.end(), part.warnings_.begin(), part.warnings_.end());
  NoteThreads(part.most_threads_);
  return OkStatus();
}

}  // namespace instrumentscope
