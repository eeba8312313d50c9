// The intervals importers hand the ProfileBuilder: kept per source, those
// without an end ended with their run, and drawn as evented profiles, one per lane. Intervals that
// overlap without nesting cannot share an evented profile (speedscope's
// events open and close like a stack), so they go to the first lane where
// they nest, and a new lane when none fits: nothing is re-nested or dropped.
#include <algorithm>
#include <numeric>
#include <set>

#include "model/profile_builder.h"
#include "model/view_names.h"

namespace instrumentscope {
namespace {

// Sources a warning of intervals open at one end names; the others are counted.
constexpr size_t kOpenSourcesListed = 3;

// The intervals of one source, outer ones before those they hold, as lanes:
// in each, every two intervals are disjoint or one holds the other.
std::vector<std::vector<size_t>> LayOutLanes(const std::vector<size_t>& by_start,
                                             const std::vector<int64_t>& ends,
                                             const std::vector<int64_t>& starts) {
  std::vector<std::vector<size_t>> lanes;
  std::vector<std::vector<int64_t>> open_ends;  // per lane, innermost last
  for (size_t interval : by_start) {
    size_t lane = 0;
    for (; lane < lanes.size(); ++lane) {
      // Those that ended by its start are closed; it fits inside the one
      // still open, or alone.
      std::vector<int64_t>& open = open_ends[lane];
      while (!open.empty() && open.back() <= starts[interval]) open.pop_back();
      if (open.empty() || open.back() >= ends[interval]) break;
    }
    if (lane == lanes.size()) {
      lanes.emplace_back();
      open_ends.emplace_back();
    }
    lanes[lane].push_back(interval);
    open_ends[lane].push_back(ends[interval]);
  }
  return lanes;
}

}  // namespace

// The names of a source's intervals, most frequent first, then longest.
std::vector<IntervalSource::Name> ProfileBuilder::BusiestNames(const std::vector<size_t>& intervals,
                                                               size_t listed,
                                                               uint64_t* distinct) const {
  std::map<uint32_t, IntervalSource::Name> by_name;
  for (size_t i : intervals) {
    IntervalSource::Name& name = by_name[intervals_[i].name];
    ++name.intervals;
    name.total_duration += intervals_[i].end - intervals_[i].start;
  }
  std::vector<IntervalSource::Name> names;
  for (auto& [id, name] : by_name) {
    name.name = interval_names_[id];
    names.push_back(std::move(name));
  }
  std::stable_sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
    return a.intervals != b.intervals ? a.intervals > b.intervals
                                      : a.total_duration > b.total_duration;
  });
  *distinct = names.size();
  if (names.size() > listed) names.resize(listed);
  return names;
}

ProfileBuilder::IntervalSourceId ProfileBuilder::AddIntervalSource(IntervalSourceDesc desc) {
  SourceState source;
  source.summary.run = desc.run;
  source.summary.table = std::move(desc.table);
  source.summary.name = std::move(desc.name);
  source.summary.process_label = ProcessLabel(desc.process_name, desc.pid);
  source.summary.process_name = std::move(desc.process_name);
  source.summary.pid = desc.pid;
  source.summary.tid = desc.tid;
  source.during = desc.during;
  source.during_name = std::move(desc.during_name);
  source.every_name = desc.every_name;
  // Events weighted by durations already held merged their runs without
  // knowing these intervals' edges: their views during them are approximate.
  if (source.during == DuringViews::kAll && !source.during_name.empty()) {
    bool events_before = std::any_of(timelines_.begin(), timelines_.end(), [&](const Timeline& t) {
      return t.run == desc.run && t.content.kind == ProfileKind::kWeighted;
    });
    if (events_before) {
      AddWarning(WarningCode::kDuringViewsApproximate,
                 "run " + std::to_string(desc.run) + "'s " + source.during_name +
                     " were read after its events weighted by durations (" + source.summary.table +
                     " after them in the export): a run of one stack's events that crosses a " +
                     "hang's edge counts whole in its views during " + source.during_name +
                     ", by its first event");
    }
  }
  interval_sources_.push_back(std::move(source));
  return static_cast<IntervalSourceId>(interval_sources_.size() - 1);
}

Status ProfileBuilder::AddInterval(IntervalSourceId source, int64_t start, int64_t end,
                                   std::string_view name, std::string_view label,
                                   std::string_view detail) {
  if (start == kOpenStart) {
    start = 0;
    ++interval_sources_[source].unbegun;
  }
  if (start < 0 || end < start) {
    return Status(ErrorCode::kBadSample, "interval from " + std::to_string(start) + " to " +
                                             std::to_string(end) +
                                             " ns starts before the run or ends before it starts");
  }
  if (total_samples_ + intervals_.size() >= max_samples_) {
    return Status(ErrorCode::kLimitExceeded, "more than " + std::to_string(max_samples_) +
                                                 " samples and intervals (limits.maxSamples)");
  }
  FrameDesc frame;
  frame.name = label;
  auto [entry, inserted] = interval_name_index_.try_emplace(
      std::string(name), static_cast<uint32_t>(interval_names_.size()));
  if (inserted) interval_names_.emplace_back(name);
  auto [known_detail, new_detail] = interval_detail_index_.try_emplace(
      std::string(detail), static_cast<uint32_t>(interval_details_.size()));
  if (new_detail) interval_details_.emplace_back(detail);
  intervals_.push_back(
      Interval{start, end, source, entry->second, InternFrame(frame), known_detail->second});
  return OkStatus();
}

// The recording goes on after the last CPU sample when intervals do (a
// thermal state, an app in the background): the run, its CPU profiles' axis
// included, ends with the later of the two.
std::map<uint32_t, int64_t> ProfileBuilder::ExtendToIntervals(
    std::vector<int64_t>* timeline_end) const {
  std::map<uint32_t, int64_t> run_end;
  for (const Interval& interval : intervals_) {
    int64_t& end = run_end[interval_sources_[interval.source].summary.run];
    end = std::max(end, interval.end == kOpenEnd ? interval.start : interval.end);
  }
  for (const SourceState& source : interval_sources_) run_end.try_emplace(source.summary.run, 0);
  // Only timelines on the run's time axis: events laid end to end (weighted
  // by durations that overlap, or by counts) say nothing of when it ended.
  for (size_t t = 0; t < timelines_.size(); ++t) {
    if (timelines_[t].axis != TimeAxis::kShared) continue;
    auto intervals_end = run_end.find(timelines_[t].run);
    if (intervals_end == run_end.end()) continue;
    (*timeline_end)[t] = std::max((*timeline_end)[t], intervals_end->second);
  }
  for (size_t t = 0; t < timelines_.size(); ++t) {
    if (timelines_[t].axis != TimeAxis::kShared) continue;
    auto end = run_end.find(timelines_[t].run);
    if (end != run_end.end()) end->second = std::max(end->second, (*timeline_end)[t]);
  }
  return run_end;
}

// Intervals that began and never ended run to the end of the recording;
// those that ended without beginning were drawn from its start. Each kind is
// said once, over every source it touched.
void ProfileBuilder::EndOpenIntervals(const std::map<uint32_t, int64_t>& run_end) {
  std::vector<uint64_t> unbegun(interval_sources_.size());
  for (size_t s = 0; s < interval_sources_.size(); ++s) unbegun[s] = interval_sources_[s].unbegun;
  std::vector<uint64_t> unended(interval_sources_.size());
  for (Interval& interval : intervals_) {
    if (interval.end != kOpenEnd) continue;
    interval.end = run_end.at(interval_sources_[interval.source].summary.run);
    ++unended[interval.source];
  }
  if (std::string message = OpenIntervalsMessage(unbegun,
                                                 "ended without beginning in the "
                                                 "recording (begun before it started)",
                                                 "from the start");
      !message.empty()) {
    AddWarning(WarningCode::kIntervalsWithoutBegin, std::move(message));
  }
  if (std::string message =
          OpenIntervalsMessage(unended, "began and never ended in the recording", "to the end");
      !message.empty()) {
    AddWarning(WarningCode::kIntervalsWithoutEnd, std::move(message));
  }
}

// "3 of Hangs — app (pid 4) began and never ended in the recording; drawn to
// the end of run 1", or, over several sources, "62 intervals of 23 sources
// began…; drawn to the end of run 1: 3 of Run loop iterations — …, 3 of …
// and 20 other sources". Empty when no source has any.
std::string ProfileBuilder::OpenIntervalsMessage(const std::vector<uint64_t>& per_source,
                                                 const std::string& what,
                                                 const std::string& drawn) const {
  std::vector<size_t> sources;
  uint64_t intervals = 0;
  std::set<uint32_t> runs;
  for (size_t s = 0; s < per_source.size(); ++s) {
    if (!per_source[s]) continue;
    sources.push_back(s);
    intervals += per_source[s];
    runs.insert(interval_sources_[s].summary.run);
  }
  if (sources.empty()) return std::string();
  std::stable_sort(sources.begin(), sources.end(),
                   [&](size_t a, size_t b) { return per_source[a] > per_source[b]; });
  auto counted = [&](size_t s) {
    const IntervalSource& source = interval_sources_[s].summary;
    return std::to_string(per_source[s]) + " of " + JoinName({source.name, source.process_label});
  };
  std::string where = runs.size() == 1 ? "run " + std::to_string(*runs.begin()) : "their runs";
  if (sources.size() == 1) {
    return counted(sources[0]) + " " + what + "; drawn " + drawn + " of " + where;
  }
  std::string message = std::to_string(intervals) + " intervals of " +
                        std::to_string(sources.size()) + " sources " + what + "; drawn " + drawn +
                        " of " + where + ": ";
  for (size_t i = 0; i < sources.size() && i < kOpenSourcesListed; ++i) {
    message += (i == 0 ? "" : ", ") + counted(sources[i]);
  }
  if (sources.size() > kOpenSourcesListed) {
    message += " and " + std::to_string(sources.size() - kOpenSourcesListed) + " other sources";
  }
  return message;
}

Status ProfileBuilder::AddIntervalProfiles(const std::map<uint32_t, int64_t>& run_end,
                                           ProfileGroup* group) {
  std::vector<std::vector<size_t>> by_source(interval_sources_.size());
  std::vector<int64_t> starts(intervals_.size());
  std::vector<int64_t> ends(intervals_.size());
  for (size_t i = 0; i < intervals_.size(); ++i) {
    by_source[intervals_[i].source].push_back(i);
    starts[i] = intervals_[i].start;
    ends[i] = intervals_[i].end;
  }
  bool several_runs = SeveralRuns();
  for (size_t s = 0; s < interval_sources_.size(); ++s) {
    std::vector<size_t>& order = by_source[s];
    // Outer intervals before those they hold; ties as they came.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return starts[a] != starts[b] ? starts[a] < starts[b] : ends[a] > ends[b];
    });
    IntervalSource source = interval_sources_[s].summary;
    std::vector<std::vector<size_t>> lanes = LayOutLanes(order, ends, starts);
    source.lanes = static_cast<uint32_t>(lanes.size());
    for (size_t lane = 0; lane < lanes.size(); ++lane) {
      Profile profile;
      profile.kind = ProfileKind::kIntervals;
      profile.interval_source = static_cast<uint32_t>(s);
      profile.lane = static_cast<uint32_t>(lane + 1);
      profile.run = source.run;
      profile.table = source.table;
      profile.pid = source.pid;
      profile.process_name = source.process_name;
      profile.process_label = source.process_label.empty() ? kUnnamedProcess : source.process_label;
      profile.thread_label = source.name;
      std::vector<std::string> parts = {source.name};
      if (!source.process_label.empty()) parts.push_back(source.process_label);
      if (several_runs) parts.push_back("run " + std::to_string(source.run));
      if (lane > 0) parts.push_back("lane " + std::to_string(lane + 1));
      profile.name = JoinName(parts);
      profile.listed_name = {source.name};
      if (lane > 0) profile.listed_name.push_back(parts.back());
      profile.end_value = run_end.at(source.run);
      std::vector<size_t> open;  // innermost last
      auto close_until = [&](int64_t time) {
        while (!open.empty() && ends[open.back()] <= time) {
          const Interval& closed = intervals_[open.back()];
          profile.events.push_back(
              {ends[open.back()], closed.frame, closed.name, closed.detail, false});
          open.pop_back();
        }
      };
      for (size_t interval : lanes[lane]) {
        close_until(starts[interval]);
        const Interval& opened = intervals_[interval];
        profile.events.push_back(
            {starts[interval], opened.frame, opened.name, opened.detail, true});
        open.push_back(interval);
        ++profile.sample_count;
        profile.sample_weight += ends[interval] - starts[interval];
      }
      close_until(INT64_MAX);
      source.intervals += profile.sample_count;
      source.total_duration += profile.sample_weight;
      group->profiles.push_back(std::move(profile));
    }
    source.states = interval_sources_[s].every_name;
    size_t listed = source.states ? SIZE_MAX : kListedIntervalNames;
    source.names = BusiestNames(order, listed, &source.distinct_names);
    group->interval_sources.push_back(std::move(source));
  }
  return OkStatus();
}

}  // namespace instrumentscope
