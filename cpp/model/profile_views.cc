// The views the ProfileBuilder makes of the CPU threads' samples, as
// Instruments shows them besides one thread at a time: a process's threads
// together ("Separate by Thread" off), the threads of a pool together, and a
// thread's samples during intervals (an inspection range). Their samples come
// one after another in time order, without idle gaps: their axis is the CPU
// time they add up to, which is not the run's.
#include <algorithm>
#include <functional>
#include <map>

#include "base/checked_math.h"
#include "model/profile_builder.h"
#include "model/view_names.h"

namespace instrumentscope {
namespace {

// The busiest names of a source get "during" views; more would bury the
// threads in the picker.
constexpr size_t kDuringNamesPerSource = 3;

using TimeRange = std::pair<int64_t, int64_t>;  // [start, end)

// Sorted, overlaps merged: a sample inside two intervals counts once.
std::vector<TimeRange> Union(std::vector<TimeRange> ranges) {
  std::sort(ranges.begin(), ranges.end());
  std::vector<TimeRange> merged;
  for (const auto& [start, end] : ranges) {
    if (end == start) continue;  // holds no sample
    if (!merged.empty() && start <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, end);
    } else {
      merged.emplace_back(start, end);
    }
  }
  return merged;
}

}  // namespace

template <typename Visit>
void ProfileBuilder::VisitDuringSpans(uint32_t run, Visit visit) const {
  for (const Interval& interval : intervals_) {
    const SourceState& source = interval_sources_[interval.source];
    if (source.during != DuringViews::kAll || source.summary.run != run) continue;
    visit(DuringSpan{run, source.summary.pid, interval.start,
                     interval.end == kOpenEnd ? INT64_MAX : interval.end});
  }
  for (const DuringSpan& span : copied_during_spans_) {
    if (span.run == run) visit(span);
  }
}

std::vector<TimeRange> ProfileBuilder::AllDuringSpans(uint32_t run, int64_t pid) const {
  std::vector<TimeRange> spans;
  VisitDuringSpans(run, [&](const DuringSpan& span) {
    if (span.pid < 0 || span.pid == pid) spans.emplace_back(span.start, span.end);
  });
  return Union(std::move(spans));
}

void ProfileBuilder::CopyDuringSpans(const ProfileBuilder& whole, uint32_t run) {
  whole.VisitDuringSpans(run,
                         [&](const DuringSpan& span) { copied_during_spans_.push_back(span); });
}

namespace {

// A thread's place in a merge of threads' samples: the time of its next one.
struct MergeCursor {
  int64_t time;
  uint32_t member;  // ties go to the thread listed first
  size_t next;
  bool Before(const MergeCursor& other) const {
    return time != other.time ? time < other.time : member < other.member;
  }
};

// Restores the order of a min-heap of cursors below `i`.
void SiftDown(std::vector<MergeCursor>& heap, size_t i) {
  for (;;) {
    size_t first = i, left = 2 * i + 1, right = left + 1;
    if (left < heap.size() && heap[left].Before(heap[first])) first = left;
    if (right < heap.size() && heap[right].Before(heap[first])) first = right;
    if (first == i) return;
    std::swap(heap[i], heap[first]);
    i = first;
  }
}

}  // namespace

// Appends samples to a view one at a time, adding up its weight.
class ProfileBuilder::ViewFiller {
 public:
  ViewFiller(const ProfileBuilder& builder, Profile* profile)
      : builder_(builder), profile_(profile) {}

  Status Add(const StoredSample& sample) {
    int64_t weight = builder_.WeightOf(sample);
    auto total = CheckedAdd(profile_->sample_weight, weight);
    if (!total) return Status(ErrorCode::kBadSample, "sample weights add up past 2^63");
    profile_->sample_weight = *total;
    profile_->samples.push_back(sample.stack);
    profile_->weights.push_back(weight);
    ++profile_->sample_count;
    profile_->end_value = profile_->sample_weight;
    return OkStatus();
  }

 private:
  const ProfileBuilder& builder_;
  Profile* profile_;
};

bool ProfileBuilder::HasViews(const Thread& thread) const {
  const Timeline& timeline = timelines_[thread.timeline];
  return timeline.content.kind == ProfileKind::kThread && timeline.axis == TimeAxis::kShared &&
         timeline.unit == ValueUnit::kNanoseconds && !thread.samples.empty();
}

bool ProfileBuilder::HasProcessViews(const Thread& thread) const {
  const Timeline& timeline = timelines_[thread.timeline];
  return HasViews(thread) ||
         (timeline.content.kind == ProfileKind::kWeighted && !thread.samples.empty());
}

Profile ProfileBuilder::ViewProfile(const Thread& like, ProfileKind kind, std::string thread_part,
                                    std::string view_part, bool several_runs) const {
  const Timeline& timeline = timelines_[like.timeline];
  Profile profile = ProcessProfile(like);
  profile.kind = kind;
  profile.unit = timeline.unit;
  const std::string process = ProcessLabel(like.process_name, like.pid);
  profile.thread_name = thread_part;
  profile.thread_label = thread_part;
  std::vector<std::string> parts = {std::move(thread_part)};
  if (!view_part.empty()) parts.push_back(std::move(view_part));
  for (const std::string& part : parts) {
    if (!part.empty()) profile.listed_name.push_back(part);
  }
  if (!process.empty()) parts.push_back(process);
  if (several_runs) parts.push_back("run " + std::to_string(timeline.run));
  profile.name = JoinName(parts);
  return profile;
}

Status ProfileBuilder::AddMergedView(const std::vector<ThreadId>& members, ProfileKind kind,
                                     std::string thread_part, const std::string& weighs,
                                     bool several_runs, std::vector<Profile>* views) const {
  Profile profile =
      ViewProfile(threads_[members.front()], kind, std::move(thread_part), "", several_runs);
  // Named as its threads' profiles are: what the events weigh last.
  if (!weighs.empty()) {
    profile.name = JoinName({profile.name, weighs});
    profile.listed_name.push_back(weighs);
    profile.weighs = weighs;
  }
  profile.threads = static_cast<uint32_t>(members.size());
  // The threads' samples are each in time order: merged by always taking the
  // earliest next one, ties in the threads' order, from a heap of cursors
  // whose top advances in place: while its thread's samples come first, as
  // they mostly do, each costs two comparisons.
  std::vector<MergeCursor> heap;
  for (uint32_t m = 0; m < members.size(); ++m) {
    const PagedVector<StoredSample>& samples = threads_[members[m]].samples;
    if (!samples.empty()) heap.push_back(MergeCursor{samples[0].time, m, 0});
  }
  for (size_t i = heap.size() / 2; i-- > 0;) SiftDown(heap, i);
  ViewFiller fill(*this, &profile);
  while (!heap.empty()) {
    MergeCursor& top = heap.front();
    const PagedVector<StoredSample>& samples = threads_[members[top.member]].samples;
    RETURN_IF_ERROR(fill.Add(samples[top.next]));
    if (++top.next < samples.size()) {
      top.time = samples[top.next].time;
    } else {
      top = heap.back();
      heap.pop_back();
    }
    SiftDown(heap, 0);
  }
  views->push_back(std::move(profile));
  return OkStatus();
}

// Per process of each CPU timeline (and of weighted events: "All threads —
// time in system calls"), in the order they appeared: all its threads, when
// it has several, then each pool of threads sharing a name.
Result<std::vector<Profile>> ProfileBuilder::MakeProcessViews() const {
  std::map<std::pair<TimelineId, int64_t>, std::vector<ThreadId>> processes;
  std::vector<std::pair<TimelineId, int64_t>> process_order;
  for (ThreadId id : ThreadsByTimeline()) {
    const Thread& thread = threads_[id];
    if (!HasProcessViews(thread)) continue;
    auto [entry, inserted] = processes.try_emplace({thread.timeline, thread.pid});
    if (inserted) process_order.push_back(entry->first);
    entry->second.push_back(id);
  }
  bool several_runs = SeveralRuns();
  std::vector<Profile> views;
  for (const auto& key : process_order) {
    const std::vector<ThreadId>& threads = processes[key];
    if (threads.size() < 2) continue;
    const std::string& weighs = timelines_[key.first].content.weighs;
    RETURN_IF_ERROR(AddMergedView(threads, ProfileKind::kAllThreads, "All threads", weighs,
                                  several_runs, &views));
    std::map<std::string_view, std::vector<ThreadId>> pools;
    std::vector<std::string_view> pool_order;
    for (ThreadId id : threads) {
      std::string_view name = PoolName(threads_[id].thread_name);
      if (name.empty()) continue;
      auto [entry, inserted] = pools.try_emplace(name);
      if (inserted) pool_order.push_back(name);
      entry->second.push_back(id);
    }
    for (std::string_view name : pool_order) {
      const std::vector<ThreadId>& pool = pools[name];
      // A pool of every thread is the process's view already.
      if (pool.size() < 2 || pool.size() == threads.size()) continue;
      std::string label = std::string(name) + " ×" + std::to_string(pool.size());
      RETURN_IF_ERROR(
          AddMergedView(pool, ProfileKind::kThreadPool, label, weighs, several_runs, &views));
    }
  }
  return views;
}

// A source's intervals that get "during" views, by name: its busiest names,
// or all of them under one name.
std::vector<ProfileBuilder::DuringGroup> ProfileBuilder::DuringGroups(
    IntervalSourceId source) const {
  const SourceState& state = interval_sources_[source];
  std::map<uint32_t, DuringGroup> by_name;
  for (const Interval& interval : intervals_) {
    if (interval.source != source) continue;
    uint32_t key = state.during == DuringViews::kAll ? 0 : interval.name;
    DuringGroup& group = by_name[key];
    group.label = state.during == DuringViews::kAll ? state.during_name
                                                    : "\"" + interval_names_[interval.name] + "\"";
    group.name =
        state.during == DuringViews::kAll ? state.during_name : interval_names_[interval.name];
    ++group.intervals;
    group.duration += interval.end - interval.start;
    group.ranges.emplace_back(interval.start, interval.end);
  }
  std::vector<DuringGroup> groups;
  for (auto& [key, group] : by_name) {
    if (group.duration > 0) groups.push_back(std::move(group));
  }
  std::stable_sort(groups.begin(), groups.end(), [](const DuringGroup& a, const DuringGroup& b) {
    return a.duration > b.duration;
  });
  if (groups.size() > kDuringNamesPerSource) groups.resize(kDuringNamesPerSource);
  return groups;
}

// For each group of intervals, each CPU thread of the source's run (and
// process, when it names one) that has samples inside them; for a source
// whose views take all its intervals (hangs), each thread's events weighted
// by their durations too ("… — during hangs (4, 2.3 s) — proc — time in
// system calls"): those that start inside them, never merged across one.
Result<std::vector<Profile>> ProfileBuilder::MakeDuringViews() const {
  bool several_runs = SeveralRuns();
  std::vector<Profile> views;
  for (IntervalSourceId s = 0; s < interval_sources_.size(); ++s) {
    const SourceState& source = interval_sources_[s];
    if (source.during == DuringViews::kNone) continue;
    for (const DuringGroup& group : DuringGroups(s)) {
      std::vector<TimeRange> ranges = Union(group.ranges);
      for (ThreadId id : ThreadsByTimeline()) {
        const Thread& thread = threads_[id];
        const Timeline& timeline = timelines_[thread.timeline];
        bool events = source.during == DuringViews::kAll &&
                      timeline.content.kind == ProfileKind::kWeighted && !thread.samples.empty();
        if (!(HasViews(thread) || events) || timeline.run != source.summary.run) continue;
        if (source.summary.pid >= 0 && thread.pid != source.summary.pid) continue;
        std::vector<size_t> inside;
        size_t range = 0;
        for (size_t i = 0; i < thread.samples.size(); ++i) {
          int64_t time = thread.samples[i].time;
          while (range < ranges.size() && ranges[range].second <= time) ++range;
          if (range < ranges.size() && ranges[range].first <= time) inside.push_back(i);
        }
        if (inside.empty()) continue;
        std::string view = "during " + group.label + " (" + std::to_string(group.intervals) + ", " +
                           DurationText(group.duration) + ")";
        Profile profile =
            ViewProfile(thread, ProfileKind::kDuring,
                        thread.thread_name.empty() ? kUnnamedThread : thread.thread_name,
                        std::move(view), several_runs);
        profile.tid = thread.tid;
        profile.interval_source = s;
        profile.interval_name = group.name;
        if (events) {
          profile.name = JoinName({profile.name, timeline.content.weighs});
          profile.listed_name.push_back(timeline.content.weighs);
          profile.weighs = timeline.content.weighs;
        }
        ViewFiller fill(*this, &profile);
        for (size_t i : inside) RETURN_IF_ERROR(fill.Add(thread.samples[i]));
        views.push_back(std::move(profile));
      }
    }
  }
  return views;
}

}  // namespace instrumentscope
