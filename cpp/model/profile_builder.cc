#include "model/profile_builder.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/checked_math.h"
#include "model/view_names.h"

namespace instrumentscope {
namespace {

// Puts items of a `time` in time order, ties as they came.
template <typename Item>
void SortByTime(PagedVector<Item>* items) {
  std::vector<Item> sorted;
  sorted.reserve(items->size());
  items->ForEach([&sorted](const Item& item) { sorted.push_back(item); });
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Item& a, const Item& b) { return a.time < b.time; });
  items->clear();
  for (const Item& item : sorted) items->push_back(item);
}

// Which profiles may open first, best first: a thread's CPU samples, then
// its allocations, then anything else (a recording of intervals alone).
int OpeningRank(ProfileKind kind) {
  switch (kind) {
    case ProfileKind::kThread: return 0;
    case ProfileKind::kAllocations: return 1;
    default: return 2;
  }
}

// The busiest profile of the best kind there is (of the preferred run, when
// it has any) opens first: most samples, then most weight.
size_t BusiestProfile(const std::vector<Profile>& profiles, std::optional<uint32_t> preferred_run) {
  int best_rank = 2;
  for (const Profile& profile : profiles)
    best_rank = std::min(best_rank, OpeningRank(profile.kind));
  auto candidate_kind = [best_rank](const Profile& profile) {
    return OpeningRank(profile.kind) == best_rank;
  };
  bool preferred_run_has_samples =
      preferred_run && std::any_of(profiles.begin(), profiles.end(), [&](const Profile& profile) {
        return profile.run == *preferred_run && candidate_kind(profile);
      });
  std::optional<size_t> busiest;
  for (size_t i = 0; i < profiles.size(); ++i) {
    const Profile& candidate = profiles[i];
    if (!candidate_kind(candidate)) continue;
    if (preferred_run_has_samples && candidate.run != *preferred_run) continue;
    const Profile* best = busiest ? &profiles[*busiest] : nullptr;
    if (!best || candidate.sample_count > best->sample_count ||
        (candidate.sample_count == best->sample_count &&
         candidate.sample_weight > best->sample_weight)) {
      busiest = i;
    }
  }
  return busiest.value_or(0);
}

}  // namespace

size_t ProfileBuilder::ThreadKeyHash::operator()(const ThreadKey& key) const {
  uint64_t hash = key.tid * 0x9E3779B97F4A7C15ull;
  hash ^= static_cast<uint64_t>(key.pid) + 0x632BE59BD9B4E019ull + (hash << 6) + (hash >> 2);
  hash ^= key.timeline + 0x85EBCA77C2B2AE63ull + (hash << 6) + (hash >> 2);
  return static_cast<size_t>(hash);
}

void ProfileBuilder::FrameKey(const FrameDesc& desc, std::string* key) {
  key->assign(desc.name);
  key->push_back('\0');
  key->append(desc.image);
  if (desc.address) {
    // Unnamed frames are told apart by address and image, not by name alone.
    key->push_back('\0');
    key->append(reinterpret_cast<const char*>(&*desc.address), sizeof(*desc.address));
    key->append(reinterpret_cast<const char*>(&desc.image_id), sizeof(desc.image_id));
  }
  if (desc.folded) {
    for (const std::string& function : *desc.folded) {
      key->push_back('\1');
      key->append(function);
    }
  }
}

FrameId ProfileBuilder::InternFrame(const FrameDesc& desc) {
  FrameKey(desc, &frame_key_);
  auto [id, inserted] = frame_index_.Insert(frame_key_, static_cast<FrameId>(frames_.size()));
  if (inserted) {
    Frame frame;
    frame.name = std::string(desc.name);
    frame.file = std::string(desc.source_file.empty() ? desc.image : desc.source_file);
    frame.library = std::string(desc.image);
    if (!desc.source_file.empty()) frame.line = desc.line;
    frame.address = desc.address;
    frame.image = desc.image_id;
    if (desc.folded) frame.folded = *desc.folded;
    frames_.push_back(std::move(frame));
    frame_has_source_.push_back(!desc.source_file.empty());
    return id;
  }
  // One frame stands for the whole function, so it keeps the lowest line seen
  // in its source file: the closest to where the function starts.
  if (desc.source_file.empty()) return id;
  Frame& frame = frames_[id];
  if (!frame_has_source_[id]) {
    frame.file = std::string(desc.source_file);
    frame.line = desc.line;
    frame_has_source_[id] = true;
  } else if (desc.line && frame.file == desc.source_file &&
             (!frame.line || *desc.line < *frame.line)) {
    frame.line = desc.line;
  }
  return id;
}

std::string ProfileBuilder::ImageKey(const CodeImage& image) {
  std::string key = image.path;
  key.push_back('\0');
  if (image.uuid) key.append(image.uuid->begin(), image.uuid->end());
  key.push_back('\0');
  if (image.load_address) key.append(std::to_string(*image.load_address));
  return key;
}

ImageId ProfileBuilder::InternImage(const CodeImage& image) {
  auto [entry, inserted] =
      image_index_.try_emplace(ImageKey(image), static_cast<ImageId>(images_.size()));
  if (inserted) images_.push_back(image);
  return entry->second;
}

StackId ProfileBuilder::InternStack(StackId parent, FrameId frame) {
  // Stack ids stay below kEmptyStack, which IntegerMap reserves too.
  if (stacks_.size() >= std::min<uint64_t>(max_stack_nodes_, kEmptyStack - 1)) {
    stack_limit_reached_ = true;
    return parent;
  }
  uint64_t key = (static_cast<uint64_t>(parent) << 32) | frame;
  auto [stack, inserted] = stack_index_.Insert(key, static_cast<StackId>(stacks_.size()));
  if (inserted) {
    stacks_.parent.push_back(parent);
    stacks_.frame.push_back(frame);
  }
  return stack;
}

StackId ProfileBuilder::InternFrames(StackId base, const std::vector<FrameId>& leaf_to_root) {
  for (auto frame = leaf_to_root.rbegin(); frame != leaf_to_root.rend(); ++frame) {
    base = InternStack(base, *frame);
  }
  return base;
}

StackId ProfileBuilder::AppendStack(StackId base, StackId top) {
  std::vector<FrameId> leaf_to_root;
  for (StackId stack = top; stack != kEmptyStack; stack = stacks_.parent[stack]) {
    leaf_to_root.push_back(stacks_.frame[stack]);
  }
  return InternFrames(base, leaf_to_root);
}

ProfileBuilder::TimelineId ProfileBuilder::AddTimeline(uint32_t run, std::string table,
                                                       ValueUnit unit, TimeAxis axis,
                                                       TimelineContent content) {
  timelines_.push_back(Timeline{run, std::move(table), unit, axis, std::move(content)});
  return static_cast<TimelineId>(timelines_.size() - 1);
}

void ProfileBuilder::SetTimelineUnit(TimelineId timeline, ValueUnit unit) {
  timelines_[timeline].unit = unit;
}

ProfileBuilder::ThreadId ProfileBuilder::InternThread(TimelineId timeline, const ThreadDesc& desc) {
  ThreadKey key{timeline, desc.pid, desc.tid};
  auto [entry, inserted] = thread_index_.try_emplace(key, static_cast<ThreadId>(threads_.size()));
  if (inserted) {
    Thread thread;
    thread.timeline = timeline;
    thread.thread_name = std::string(desc.thread_name);
    thread.tid = desc.tid;
    thread.process_name = std::string(desc.process_name);
    thread.pid = desc.pid;
    thread.threads = desc.threads;
    threads_.push_back(std::move(thread));
  }
  return entry->second;
}

Status ProfileBuilder::BadSample(int64_t time, int64_t weight) {
  return Status(ErrorCode::kBadSample, "sample at time " + std::to_string(time) + " with weight " +
                                           std::to_string(weight) + " is negative or overflows");
}

Status ProfileBuilder::AddSample(ThreadId thread_id, int64_t time, int64_t weight, StackId stack) {
  RETURN_IF_ERROR(CheckSample(time, weight));
  if (stack_limit_reached_) {
    return Status(ErrorCode::kLimitExceeded, "more than " + std::to_string(max_stack_nodes_) +
                                                 " distinct stack prefixes (limits.maxStackNodes)");
  }
  if (sample_room() == 0) return TooManySamples();
  uint32_t stored_weight = static_cast<uint32_t>(weight);
  if (weight >= kLargeWeight) {
    if (large_weights_.size() >= kLargeWeight) {
      return Status(ErrorCode::kLimitExceeded, "more than 2^31 samples weigh 2^31 or more");
    }
    stored_weight = kLargeWeight | static_cast<uint32_t>(large_weights_.size());
    large_weights_.push_back(weight);
  }
  Thread& thread = threads_[thread_id];
  if (!thread.samples.empty() && time < thread.samples.back().time) thread.sorted = false;
  thread.samples.push_back(StoredSample{time, stack, stored_weight});
  ++total_samples_;
  return OkStatus();
}

Status ProfileBuilder::AddHeapEvents(HeapEvents heap) {
  RETURN_IF_ERROR(CheckRoomFor(heap.events.size()));
  bool sorted = true;
  for (size_t i = 1; i < heap.events.size() && sorted; ++i) {
    sorted = heap.events[i - 1].time <= heap.events[i].time;
  }
  // Recorded in time order, as seen; a recording that is not is put in it.
  if (!sorted) SortByTime(&heap.events);
  total_samples_ += heap.events.size();
  heaps_.push_back(std::move(heap));
  return OkStatus();
}

Status ProfileBuilder::TooManySamples() const {
  return Status(ErrorCode::kLimitExceeded,
                "more than " + std::to_string(max_samples_) + " samples (limits.maxSamples)");
}

std::vector<ProfileBuilder::RawSample> ProfileBuilder::raw_samples(ThreadId thread) const {
  std::vector<RawSample> samples;
  threads_[thread].samples.ForEach([this, &samples](const StoredSample& sample) {
    samples.push_back(RawSample{sample.time, WeightOf(sample), sample.stack});
  });
  return samples;
}

bool ProfileBuilder::has_unnamed_frames() const {
  return std::any_of(frames_.begin(), frames_.end(),
                     [](const Frame& frame) { return frame.address.has_value(); });
}

std::set<int64_t> ProfileBuilder::UnnamedProcesses() const {
  std::set<int64_t> pids;
  for (const Thread& thread : threads_) {
    if (thread.pid >= 0 && thread.process_name.empty()) pids.insert(thread.pid);
  }
  for (const SourceState& source : interval_sources_) {
    if (source.summary.pid >= 0 && source.summary.process_name.empty()) {
      pids.insert(source.summary.pid);
    }
  }
  return pids;
}

void ProfileBuilder::AddWarning(WarningCode code, std::string message) {
  warnings_.push_back(MakeWarning(code, std::move(message)));
}

Status ProfileBuilder::FillProfile(const Thread& thread, int64_t timeline_end,
                                   Profile* profile) const {
  const Timeline& timeline = timelines_[thread.timeline];
  profile->unit = timeline.unit;
  auto overflow = [] { return Status(ErrorCode::kBadSample, "sample weights add up past 2^63"); };

  // Sampled profiles carry no timestamps: a sample's place on the time axis is
  // the sum of the weights before it. Empty samples fill the gaps so that the
  // time-ordered view shows each sample where it happened, on an axis that
  // starts at the run's start and is shared by every thread of the timeline.
  bool fill_gaps = timeline.unit == ValueUnit::kNanoseconds && timeline.axis == TimeAxis::kShared;
  const PagedVector<StoredSample>& samples = thread.samples;
  int64_t cursor = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const StoredSample& sample = samples[i];
    int64_t weight = WeightOf(sample);
    if (fill_gaps && sample.time > cursor) {
      profile->samples.push_back(kEmptyStack);
      profile->weights.push_back(sample.time - cursor);
      cursor = sample.time;
    }
    profile->samples.push_back(sample.stack);
    profile->weights.push_back(weight);
    auto next = CheckedAdd(cursor, weight);
    auto total = CheckedAdd(profile->sample_weight, weight);
    if (!next || !total) return overflow();
    cursor = *next;
    profile->sample_weight = *total;
  }
  if (fill_gaps && timeline_end > cursor) {
    profile->samples.push_back(kEmptyStack);
    profile->weights.push_back(timeline_end - cursor);
    cursor = timeline_end;
  }
  profile->start_value = 0;
  profile->end_value = cursor;
  profile->sample_count = thread.samples.size();
  return OkStatus();
}

// Samples that arrived out of time order are put in order, ties as they came.
void ProfileBuilder::SortSamplesByTime() {
  for (Thread& thread : threads_) {
    if (!thread.sorted) SortByTime(&thread.samples);
  }
}

// Where each timeline ends: the latest end (time + weight) of its samples.
std::vector<int64_t> ProfileBuilder::TimelineEnds() const {
  std::vector<int64_t> timeline_end(timelines_.size(), 0);
  for (const Thread& thread : threads_) {
    int64_t& end = timeline_end[thread.timeline];
    thread.samples.ForEach([this, &end](const StoredSample& sample) {
      // AddSample checked that time + weight does not overflow.
      end = std::max(end, sample.time + WeightOf(sample));
    });
  }
  return timeline_end;
}

// Profiles are grouped by timeline, threads in the order they first appeared.
std::vector<ProfileBuilder::ThreadId> ProfileBuilder::ThreadsByTimeline() const {
  std::vector<ThreadId> order(threads_.size());
  for (ThreadId id = 0; id < order.size(); ++id) order[id] = id;
  std::stable_sort(order.begin(), order.end(), [this](ThreadId a, ThreadId b) {
    return threads_[a].timeline < threads_[b].timeline;
  });
  return order;
}

// A profile of a thread's timeline and process, labelled; the thread's own
// parts are its caller's.
Profile ProfileBuilder::ProcessProfile(const Thread& thread) const {
  const Timeline& timeline = timelines_[thread.timeline];
  Profile profile;
  profile.run = timeline.run;
  profile.table = timeline.table;
  profile.process_name = thread.process_name;
  profile.pid = thread.pid;
  const std::string process = ProcessLabel(thread.process_name, thread.pid);
  profile.process_label = process.empty() ? kUnnamedProcess : process;
  return profile;
}

// A thread's profile, named and labelled, before its samples are filled in.
Profile ProfileBuilder::NamedProfile(const Thread& thread, bool several_runs,
                                     const std::string& input_name) const {
  const Timeline& timeline = timelines_[thread.timeline];
  Profile profile = ProcessProfile(thread);
  profile.kind = timeline.content.kind;
  profile.weighs = timeline.content.weighs;
  profile.thread_name = thread.thread_name;
  profile.tid = thread.tid;
  profile.threads = thread.threads;
  const std::string process = ProcessLabel(thread.process_name, thread.pid);
  profile.thread_label = thread.thread_name.empty() ? kUnnamedThread : thread.thread_name;
  std::vector<std::string> parts;
  for (const std::string* part : {&thread.thread_name, &process}) {
    if (!part->empty()) parts.push_back(*part);
  }
  std::vector<std::string> listed(parts.begin(), parts.begin() + !thread.thread_name.empty());
  if (several_runs) parts.push_back("run " + std::to_string(timeline.run));
  // Of CPU samples: other events are told apart by what they weigh.
  auto timelines_in_run =
      std::count_if(timelines_.begin(), timelines_.end(), [&timeline](const Timeline& other) {
        return other.run == timeline.run && other.content.weighs.empty();
      });
  if (timelines_in_run > 1 && timeline.content.weighs.empty()) parts.push_back(timeline.table);
  if (!timeline.content.weighs.empty()) parts.push_back(timeline.content.weighs);
  for (size_t i = listed.size() + !process.empty() + several_runs; i < parts.size(); ++i) {
    listed.push_back(parts[i]);
  }
  // A profile of an input that names no thread is named after the input.
  profile.name = parts.empty() ? input_name : JoinName(parts);
  profile.listed_name = listed.empty() ? std::vector<std::string>{profile.name} : listed;
  return profile;
}

Result<ProfileGroup> ProfileBuilder::Build(std::string name, std::string exporter) && {
  SortSamplesByTime();
  std::vector<int64_t> timeline_end = TimelineEnds();
  std::map<uint32_t, int64_t> run_end = ExtendToIntervals(&timeline_end);
  EndOpenIntervals(run_end);

  ProfileGroup group;
  group.name = std::move(name);
  group.exporter = std::move(exporter);
  // The views are made while the threads still hold their samples' times.
  std::vector<Profile> process_views;
  std::vector<Profile> during_views;
  if (make_views_) {
    ASSIGN_OR_RETURN(process_views, MakeProcessViews());
    ASSIGN_OR_RETURN(during_views, MakeDuringViews());
  }
  RETURN_IF_ERROR(AddThreadProfiles(timeline_end, &group));
  for (Profile& view : process_views) group.profiles.push_back(std::move(view));
  RETURN_IF_ERROR(AddIntervalProfiles(run_end, &group));
  for (Profile& view : during_views) group.profiles.push_back(std::move(view));
  group.active_profile_index = BusiestProfile(group.profiles, preferred_run_);

  group.frames = std::move(frames_);
  group.images = std::move(images_);
  group.stacks = std::move(stacks_);
  group.interval_names = std::move(interval_names_);
  group.interval_details = std::move(interval_details_);
  group.tables = std::move(tables_);
  group.threads = most_threads_;
  group.heaps = std::move(heaps_);
  group.run_info = std::move(run_info_);
  group.instruments = std::move(instruments_);
  group.warnings = std::move(warnings_);
  return group;
}

bool ProfileBuilder::SeveralRuns() const {
  std::set<uint32_t> runs;
  for (const Timeline& timeline : timelines_) runs.insert(timeline.run);
  for (const SourceState& source : interval_sources_) runs.insert(source.summary.run);
  return runs.size() > 1;
}

// One profile per thread, each thread's samples released once copied.
Status ProfileBuilder::AddThreadProfiles(const std::vector<int64_t>& timeline_end,
                                         ProfileGroup* group) {
  bool several_runs = SeveralRuns();
  for (ThreadId id : ThreadsByTimeline()) {
    Thread& thread = threads_[id];
    if (thread.samples.empty()) continue;
    Profile profile = NamedProfile(thread, several_runs, group->name);
    RETURN_IF_ERROR(FillProfile(thread, timeline_end[thread.timeline], &profile));
    thread.samples.clear();
    group->profiles.push_back(std::move(profile));
  }
  return OkStatus();
}

}  // namespace instrumentscope
