// Intervals as evented profiles (lanes, clipping, ends no row gave) and the
// views the builder makes of threads: whole processes, thread pools, samples
// during intervals. Expected values are computed here from the inputs, not
// by the code under test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/profile_builder.h"
#include "speedscope/folded_stacks.h"
#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using Source = ProfileBuilder::IntervalSourceDesc;

struct Span {
  int64_t start;
  int64_t end;
};

std::vector<const Profile*> OfKind(const ProfileGroup& group, ProfileKind kind) {
  std::vector<const Profile*> found;
  for (const Profile& profile : group.profiles) {
    if (profile.kind == kind) found.push_back(&profile);
  }
  return found;
}

// An evented profile's intervals, read back from its events; checks that
// they open and close like a stack, in time order.
std::vector<std::pair<std::string, Span>> Intervals(const ProfileGroup& group,
                                                    const Profile& profile) {
  std::vector<std::pair<std::string, Span>> intervals;
  std::vector<const IntervalEvent*> open;
  int64_t last = profile.start_value;
  for (const IntervalEvent& event : profile.events) {
    REQUIRE(event.at >= last);
    last = event.at;
    if (event.open) {
      open.push_back(&event);
      continue;
    }
    REQUIRE_FALSE(open.empty());
    REQUIRE(open.back()->frame == event.frame);
    intervals.push_back({group.frames[event.frame].name, {open.back()->at, event.at}});
    open.pop_back();
  }
  CHECK(open.empty());
  CHECK(last <= profile.end_value);
  std::sort(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) {
    return a.second.start != b.second.start ? a.second.start < b.second.start : a.first < b.first;
  });
  return intervals;
}

TEST_CASE("Intervals that overlap without nesting go to lanes; none is dropped") {
  ProfileBuilder builder;
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  REQUIRE(builder.AddSample(main, 0, 1000, kEmptyStack).ok());
  auto poi = builder.AddIntervalSource(
      Source{1, "os-signpost", "Points of Interest — com.example.app", "app", 42, {}, {}});
  // Out of time order, as rows can come.
  REQUIRE(builder.AddInterval(poi, 500, 600, "late", "late").ok());
  REQUIRE(builder.AddInterval(poi, 0, 400, "outer", "outer").ok());
  REQUIRE(builder.AddInterval(poi, 100, 200, "inner", "inner").ok());
  REQUIRE(builder.AddInterval(poi, 200, 200, "point", "point at inner's end").ok());
  REQUIRE(builder.AddInterval(poi, 300, 450, "overlap", "overlap").ok());  // crosses outer's end
  REQUIRE(builder.AddInterval(poi, 350, 450, "overlap", "overlap").ok());  // same name, nested
  REQUIRE(builder.AddInterval(poi, 600, 600, "point", "point at late's end").ok());

  auto group = std::move(builder).Build("trace", "test");
  REQUIRE(group.ok());
  auto lanes = OfKind(*group, ProfileKind::kIntervals);
  REQUIRE(lanes.size() == 2);
  CHECK(lanes[0]->name == "Points of Interest — com.example.app — app (pid 42)");
  CHECK(lanes[1]->name == "Points of Interest — com.example.app — app (pid 42) — lane 2");
  CHECK(lanes[0]->start_value == 0);
  CHECK(lanes[0]->end_value == 1000);  // the run's, as its CPU profiles'

  using Expected = std::vector<std::pair<std::string, Span>>;
  auto same = [](const Expected& a, const Expected& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].first != b[i].first || a[i].second.start != b[i].second.start ||
          a[i].second.end != b[i].second.end) {
        return false;
      }
    }
    return true;
  };
  CHECK(same(Intervals(*group, *lanes[0]), Expected{{"outer", {0, 400}},
                                                    {"inner", {100, 200}},
                                                    {"point at inner's end", {200, 200}},
                                                    {"late", {500, 600}},
                                                    {"point at late's end", {600, 600}}}));
  CHECK(same(Intervals(*group, *lanes[1]),
             Expected{{"overlap", {300, 450}}, {"overlap", {350, 450}}}));

  REQUIRE(group->interval_sources.size() == 1);
  const IntervalSource& source = group->interval_sources[0];
  CHECK(source.intervals == 7);
  CHECK(source.total_duration == 400 + 100 + 0 + 150 + 100 + 100 + 0);
  CHECK(source.lanes == 2);
  CHECK(lanes[0]->sample_count + lanes[1]->sample_count == 7);
  CHECK(group->warnings.empty());
}

TEST_CASE("The run ends with its last interval; those without an end are drawn to it and said") {
  ProfileBuilder builder;
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  REQUIRE(builder.AddSample(main, 0, 100, kEmptyStack).ok());
  auto hangs = builder.AddIntervalSource(Source{1, "potential-hangs", "Hangs", "app", 42, {}, {}});
  REQUIRE(builder.AddInterval(hangs, 50, ProfileBuilder::kOpenEnd, "hang", "hang").ok());
  REQUIRE(builder.AddInterval(hangs, 80, 300, "hang", "hang").ok());  // past the last sample
  REQUIRE(builder.AddInterval(hangs, 200, 250, "hang", "hang").ok());
  auto thermal = builder.AddIntervalSource(Source{1, "thermal", "Thermal state", "", -1, {}, {}});
  REQUIRE(builder.AddInterval(thermal, 0, ProfileBuilder::kOpenEnd, "Fair", "Fair").ok());

  auto group = std::move(builder).Build("trace", "test");
  REQUIRE(group.ok());
  // The CPU profile's axis goes on to the run's end, idle.
  CHECK(group->profiles[0].end_value == 300);
  auto lanes = OfKind(*group, ProfileKind::kIntervals);
  REQUIRE(lanes.size() == 2);  // [50,300] holds [80,300], which holds [200,250]
  CHECK(lanes[0]->end_value == 300);
  CHECK(group->interval_sources[0].intervals == 3);
  CHECK(group->interval_sources[0].total_duration == 250 + 220 + 50);
  CHECK(group->interval_sources[1].total_duration == 300);
  std::vector<std::string> unended = testing::WarningMessages(*group, "INTERVALS_WITHOUT_END");
  REQUIRE(unended.size() == 2);
  CHECK(unended[0] ==
        "1 of Hangs — app (pid 42) began and never ended in the recording; drawn to the end of "
        "run 1");
  CHECK(unended[1] ==
        "1 of Thermal state began and never ended in the recording; drawn to the end of run 1");
}

TEST_CASE("Intervals without a start are drawn from the run's start and said") {
  ProfileBuilder builder;
  auto launch = builder.AddIntervalSource(Source{1, "os-signpost", "Signposts", "app", 42, {}, {}});
  REQUIRE(builder.AddInterval(launch, ProfileBuilder::kOpenStart, 40, "launch", "launch").ok());
  REQUIRE(builder.AddInterval(launch, ProfileBuilder::kOpenStart, 60, "launch", "launch").ok());
  REQUIRE(builder.AddInterval(launch, 70, 90, "load", "load").ok());
  auto group = std::move(builder).Build("trace", "test");
  REQUIRE(group.ok());
  CHECK(group->interval_sources[0].intervals == 3);
  CHECK(group->interval_sources[0].total_duration == 40 + 60 + 20);
  auto lanes = OfKind(*group, ProfileKind::kIntervals);
  REQUIRE(lanes.size() == 1);  // [0,60] holds [0,40]
  CHECK(lanes[0]->events.front().at == 0);
  std::vector<std::string> unbegun = testing::WarningMessages(*group, "INTERVALS_WITHOUT_BEGIN");
  REQUIRE(unbegun.size() == 1);
  CHECK(unbegun[0] ==
        "2 of Signposts — app (pid 42) ended without beginning in the recording (begun before it "
        "started); drawn from the start of run 1");
}

TEST_CASE("An interval that ends before it starts is refused") {
  ProfileBuilder builder;
  auto source = builder.AddIntervalSource(Source{1, "os-signpost", "Signposts", "", -1, {}, {}});
  Status status = builder.AddInterval(source, 20, 10, "x", "x");
  CHECK(status.code() == ErrorCode::kBadSample);
  CHECK(builder.AddInterval(source, -1, 10, "x", "x").code() == ErrorCode::kBadSample);
}

TEST_CASE("A recording of intervals alone opens its busiest lane, on an axis its intervals end") {
  ProfileBuilder builder;
  auto vsyncs = builder.AddIntervalSource(
      Source{2, "display-vsyncs-interval", "Display vsyncs", "", -1, {}, {}});
  auto thermal = builder.AddIntervalSource(
      Source{2, "device-thermal-state-intervals", "Thermal state", "", -1, {}, {}});
  REQUIRE(builder.AddInterval(thermal, 0, 4000, "Nominal", "Nominal").ok());
  for (int64_t t = 0; t < 3000; t += 1000) {
    REQUIRE(builder.AddInterval(vsyncs, t, t + 1, "VSync", "VSync").ok());
  }
  auto group = std::move(builder).Build("trace", "test");
  REQUIRE(group.ok());
  REQUIRE(group->profiles.size() == 2);
  for (const Profile& profile : group->profiles) CHECK(profile.end_value == 4000);
  CHECK(group->profiles[group->active_profile_index].name == "Display vsyncs");
  CHECK(group->profiles[0].process_label == "unnamed process");
}

// Three threads of one process, two of them a pool, samples interleaved.
struct Threads {
  ProfileBuilder builder;
  ProfileBuilder::TimelineId timeline =
      builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  std::map<uint64_t, std::vector<std::pair<int64_t, StackId>>> samples;  // by tid

  StackId Stack(const std::string& leaf) {
    FrameId main = builder.InternFrame({"main", "", "", std::nullopt});
    FrameId frame = builder.InternFrame({leaf, "", "", std::nullopt});
    return builder.InternFrames(kEmptyStack, {frame, main});
  }
  void Add(const char* name, uint64_t tid, int64_t time, StackId stack) {
    auto thread = builder.InternThread(timeline, {name, tid, "app", 42});
    REQUIRE(builder.AddSample(thread, time, 10, stack).ok());
    samples[tid].emplace_back(time, stack);
  }
  Threads() {
    for (int64_t t = 0; t < 1000; t += 10) {
      Add("Main Thread 0x1", 1, t, Stack(t < 500 ? "draw" : "layout"));
      if (t % 30 == 0) Add("Worker 0x2", 2, t + 5, Stack("decode"));
      if (t % 20 == 0) Add("Worker 0x3", 3, t + 1, Stack("fetch"));
    }
  }
};

// A profile's samples as a multiset of stacks.
std::map<StackId, int> StackCounts(const Profile& profile) {
  std::map<StackId, int> counts;
  profile.samples.ForEach([&counts](StackId stack) {
    if (stack != kEmptyStack) ++counts[stack];
  });
  return counts;
}

TEST_CASE("A process's threads together, and a pool of threads that share a name") {
  Threads f;
  auto group = std::move(f.builder).Build("trace", "test");
  REQUIRE(group.ok());
  REQUIRE(testing::ThreadProfiles(*group) == 3);
  auto all = OfKind(*group, ProfileKind::kAllThreads);
  auto pools = OfKind(*group, ProfileKind::kThreadPool);
  REQUIRE(all.size() == 1);
  REQUIRE(pools.size() == 1);
  CHECK(all[0]->name == "All threads — app (pid 42)");
  CHECK(all[0]->threads == 3);
  CHECK(pools[0]->name == "Worker ×2 — app (pid 42)");
  CHECK(pools[0]->threads == 2);

  std::map<StackId, int> expected_all, expected_pool;
  size_t total = 0, pool_total = 0;
  for (const auto& [tid, samples] : f.samples) {
    for (const auto& [time, stack] : samples) {
      ++expected_all[stack];
      ++total;
      if (tid != 1) {
        ++expected_pool[stack];
        ++pool_total;
      }
    }
  }
  CHECK(all[0]->sample_count == total);
  CHECK(StackCounts(*all[0]) == expected_all);
  CHECK(pools[0]->sample_count == pool_total);
  CHECK(StackCounts(*pools[0]) == expected_pool);
  // Views repeat samples: the opened profile is still the busiest thread.
  CHECK(group->profiles[group->active_profile_index].name == "Main Thread 0x1 — app (pid 42)");
  // In time order: the first samples are at 0 (main), 1 (worker 3), 5 (worker 2).
  CHECK(all[0]->samples[0] == f.samples[1][0].second);
  CHECK(all[0]->samples[1] == f.samples[3][0].second);
  CHECK(all[0]->samples[2] == f.samples[2][0].second);
}

TEST_CASE("During views hold exactly the samples inside their intervals") {
  Threads f;
  auto poi = f.builder.AddIntervalSource(Source{1, "os-signpost", "Points of Interest", "app", 42,
                                                ProfileBuilder::DuringViews::kBusiestNames, ""});
  std::map<std::string, std::vector<Span>> spans = {
      {"Load feed", {{100, 300}, {250, 400}, {900, 905}}},  // overlapping: counted once
      {"Scroll", {{600, 700}}},
      {"Tap", {{50, 50}}},  // zero length: holds no sample, gets no view
  };
  for (const auto& [name, list] : spans) {
    for (const Span& span : list) {
      REQUIRE(f.builder.AddInterval(poi, span.start, span.end, name, name + " — id 0x1").ok());
    }
  }
  auto hangs = f.builder.AddIntervalSource(
      Source{1, "potential-hangs", "Hangs", "app", 42, ProfileBuilder::DuringViews::kAll, "hangs"});
  REQUIRE(f.builder.AddInterval(hangs, 480, 520, "Hang", "Hang").ok());
  auto samples = f.samples;
  auto group = std::move(f.builder).Build("trace", "test");
  REQUIRE(group.ok());

  auto inside = [](const std::vector<Span>& list, int64_t time) {
    return std::any_of(list.begin(), list.end(),
                       [time](const Span& span) { return span.start <= time && time < span.end; });
  };
  std::map<std::string, const Profile*> views;
  for (const Profile* view : OfKind(*group, ProfileKind::kDuring)) views[view->name] = view;
  spans["hangs"] = {{480, 520}};
  size_t expected_views = 0;
  for (const auto& [name, list] : spans) {
    for (const auto& [tid, thread_samples] : samples) {
      size_t count = 0;
      for (const auto& sample : thread_samples) count += inside(list, sample.first) ? 1 : 0;
      if (count == 0) continue;
      ++expected_views;
      const char* thread = tid == 1 ? "Main Thread 0x1" : tid == 2 ? "Worker 0x2" : "Worker 0x3";
      std::string label = name == "hangs" ? "hangs" : "\"" + name + "\"";
      int64_t duration = 0;
      for (const Span& span : list) duration += span.end - span.start;
      std::string view_name = std::string(thread) + " — during " + label + " (" +
                              std::to_string(list.size()) + ", " + std::to_string(duration) +
                              " ns) — app (pid 42)";
      INFO(view_name);
      REQUIRE(views.count(view_name));
      CHECK(views[view_name]->sample_count == count);
      CHECK(views[view_name]->interval_name == name);
    }
  }
  CHECK(views.size() == expected_views);
}

TEST_CASE("Instruments3: the worker pool and All threads are exactly their threads' samples") {
  auto path = testing::CorpusFileOrSkip("MulliganKyle__Thesis-EvaluationTool/Instruments3.trace");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  REQUIRE(group.ok());
  // The threads of each name, told apart by the id their names end with.
  std::map<std::string, std::map<StackId, int>> by_name;
  std::map<StackId, int> every_thread;
  std::map<std::string, uint32_t> threads_named;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kThread) continue;
    std::string name = std::regex_replace(profile.thread_name, std::regex(" 0x[0-9a-f]+$"), "");
    ++threads_named[name];
    for (const auto& [stack, count] : StackCounts(profile)) {
      by_name[name][stack] += count;
      every_thread[stack] += count;
    }
  }
  auto all = OfKind(*group, ProfileKind::kAllThreads);
  REQUIRE(all.size() == 1);
  CHECK(all[0]->threads == 1145);
  CHECK(StackCounts(*all[0]) == every_thread);
  auto pools = OfKind(*group, ProfileKind::kThreadPool);
  REQUIRE_FALSE(pools.empty());
  for (const Profile* pool : pools) {
    std::string name = pool->thread_name.substr(0, pool->thread_name.rfind(" ×"));
    INFO(name);
    CHECK(pool->threads == threads_named[name]);
    CHECK(StackCounts(*pool) == by_name[name]);
  }
  // The largest pool: the std::thread workers, 1,121 threads of 5 to 434 samples.
  CHECK(pools[0]->threads == 1121);
  CHECK(pools[0]->sample_count == 3834);
}

TEST_CASE("Strux: each during view holds the samples whose times fall inside its intervals") {
  auto path = testing::CorpusFileOrSkip("Ricks__Strux/Instruments.trace");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  REQUIRE(group.ok());
  // Every sample's time, read back from the thread profiles: the weights
  // (idle gaps included) before it add up to it.
  std::map<uint64_t, std::vector<int64_t>> times;  // by tid
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kThread) continue;
    int64_t time = profile.start_value;
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      if (profile.samples[i] != kEmptyStack) times[profile.tid].push_back(time);
      time += profile.weights[i];
    }
  }
  // Every interval of each source, by the name its frame starts with.
  std::map<uint32_t, std::vector<std::pair<std::string, Span>>> intervals;
  for (const Profile* lane : OfKind(*group, ProfileKind::kIntervals)) {
    for (auto& interval : Intervals(*group, *lane)) {
      intervals[lane->interval_source].push_back(std::move(interval));
    }
  }
  auto during = OfKind(*group, ProfileKind::kDuring);
  REQUIRE(during.size() == 8);
  for (const Profile* view : during) {
    INFO(view->name);
    size_t inside = 0;
    for (int64_t time : times[view->tid]) {
      for (const auto& [label, span] : intervals[view->interval_source]) {
        if (label.rfind(view->interval_name, 0) == 0 && span.start <= time && time < span.end) {
          ++inside;
          break;
        }
      }
    }
    CHECK(view->sample_count == inside);
  }
}

TEST_CASE("Without views, a group is one profile per thread") {
  Threads f;
  f.builder.SetMakeViews(false);
  auto group = std::move(f.builder).Build("trace", "test");
  REQUIRE(group.ok());
  CHECK(group->profiles.size() == 3);
}

TEST_CASE("Evented profiles are written as speedscope's, and folded as nested intervals") {
  ProfileBuilder builder;
  auto source = builder.AddIntervalSource(Source{1, "os-signpost", "Signposts", "", -1, {}, {}});
  REQUIRE(builder.AddInterval(source, 10, 50, "Load", "Load — id 0x1a: 3 items").ok());
  REQUIRE(builder.AddInterval(source, 20, 30, "Parse", "Parse").ok());
  auto group = std::move(builder).Build("trace", "test");
  REQUIRE(group.ok());
  std::ostringstream out;
  speedscope::WriteJson(*group, out);
  nlohmann::json file = nlohmann::json::parse(out.str());
  const nlohmann::json& profile = file["profiles"][0];
  CHECK(profile["type"] == "evented");
  CHECK(profile["endValue"] == 50);
  CHECK(profile["events"] == nlohmann::json::parse(R"([
    {"type":"O","frame":0,"at":10},{"type":"O","frame":1,"at":20},
    {"type":"C","frame":1,"at":30},{"type":"C","frame":0,"at":50}])"));
  CHECK(file["shared"]["frames"][0]["name"] == "Load — id 0x1a: 3 items");
  CHECK(speedscope::FoldedStacks(*group) ==
        "# Signposts  [evented]\n"
        "# 2 intervals, duration 50, span 0..50\n"
        "Load — id 0x1a: 3 items;Parse @20 +10\n"
        "Load — id 0x1a: 3 items @10 +40\n");
}

}  // namespace
}  // namespace instrumentscope
