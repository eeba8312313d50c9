// What speedscope's viewer is handed: samples condensed into windows of their
// time (viewer_samples.h), the plan for a selection (viewer_plan.h), and the
// file written from it (WriteViewerJson).
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/profile_builder.h"
#include "speedscope/viewer_plan.h"
#include "speedscope/viewer_samples.h"
#include "speedscope/writer.h"

namespace instrumentscope::speedscope {
namespace {

using Path = std::vector<std::string>;  // frame names, root first

// Threads of `samples` samples each, 1 ms apart, taking `paths` in a
// scrambled turn, with an idle gap after every seventh.
ProfileGroup Threads(int threads, int samples, const std::vector<Path>& paths) {
  ProfileBuilder builder;
  builder.SetMakeViews(false);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  std::vector<StackId> stacks;
  for (const Path& path : paths) {
    std::vector<FrameId> leaf_to_root;
    for (auto name = path.rbegin(); name != path.rend(); ++name) {
      leaf_to_root.push_back(builder.InternFrame({*name, "", "", std::nullopt}));
    }
    stacks.push_back(builder.InternFrames(kEmptyStack, leaf_to_root));
  }
  for (int t = 0; t < threads; ++t) {
    auto thread = builder.InternThread(
        timeline, {"Thread " + std::to_string(t), static_cast<uint64_t>(t + 1), "app", 42});
    int64_t time = 0;
    for (int i = 0; i < samples; ++i) {
      REQUIRE(
          builder.AddSample(thread, time, 1'000'000, stacks[(i * 7 + i / 5 + t) % stacks.size()])
              .ok());
      time += i % 7 == 6 ? 3'000'000 : 1'000'000;
    }
  }
  auto group = std::move(builder).Build("threads", "instrumentscope@test");
  REQUIRE(group.ok());
  return group.take();
}

std::vector<Path> SomePaths() {
  return {{"main", "run", "a"},           {"main", "run", "a", "x"}, {"main", "run", "b"},
          {"main", "run", "b", "y", "z"}, {"main", "idle"},          {"main"},
          {"start", "work", "c"},         {"start", "work"}};
}

// A stack as its frames' names, root first; [] for a gap.
Path NamesOf(const ProfileGroup& group, StackId stack) {
  Path names;
  for (; stack != kEmptyStack; stack = group.stacks.parent[stack]) {
    names.insert(names.begin(), group.frames[group.stacks.frame[stack]].name);
  }
  return names;
}

// Each stack's summed weight: what Left Heavy and Sandwich show.
std::map<Path, int64_t> Totals(const ProfileGroup& group, const std::vector<StackId>& stacks,
                               const std::vector<int64_t>& weights) {
  std::map<Path, int64_t> totals;
  for (size_t i = 0; i < stacks.size(); ++i) totals[NamesOf(group, stacks[i])] += weights[i];
  return totals;
}

std::map<Path, int64_t> Totals(const ProfileGroup& group, const Profile& profile) {
  std::vector<StackId> stacks;
  std::vector<int64_t> weights;
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    stacks.push_back(profile.samples[i]);
    weights.push_back(profile.weights[i]);
  }
  return Totals(group, stacks, weights);
}

// Runs of consecutive samples of one stack, summed.
std::pair<std::vector<StackId>, std::vector<int64_t>> Runs(const Profile& profile) {
  std::vector<StackId> stacks;
  std::vector<int64_t> weights;
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    if (!stacks.empty() && stacks.back() == profile.samples[i]) {
      weights.back() += profile.weights[i];
    } else {
      stacks.push_back(profile.samples[i]);
      weights.push_back(profile.weights[i]);
    }
  }
  return {stacks, weights};
}

std::string Joined(const ProfileGroup& group, const ViewerPlan& plan, size_t active) {
  std::string text;
  REQUIRE(WriteViewerJson(group, plan, [&text](std::string_view piece) {
    text += piece;
    return true;
  }));
  return text + ",\"activeProfileIndex\":" + std::to_string(active) + "}";
}

TEST_CASE("Stacks are ordered as a walk of their call tree, a prefix before what extends it") {
  ProfileGroup group = Threads(1, 10, SomePaths());
  StackOrder order(group.stacks);
  std::vector<StackId> all(group.stacks.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<StackId>(i);
  std::sort(all.begin(), all.end(),
            [&](StackId a, StackId b) { return order.Rank(a) < order.Rank(b); });
  std::vector<std::string> walked;
  for (StackId stack : all) {
    Path names = NamesOf(group, stack);
    std::string joined;
    for (const std::string& name : names) joined += "/" + name;
    walked.push_back(joined);
  }
  CHECK(walked == std::vector<std::string>{"/main", "/main/run", "/main/run/a", "/main/run/a/x",
                                           "/main/run/b", "/main/run/b/y", "/main/run/b/y/z",
                                           "/main/idle", "/start", "/start/work", "/start/work/c"});
  CHECK(order.Rank(kEmptyStack) < order.Rank(all.front()));
  CHECK(order.Depth(all[6]) == 5);
  CHECK(order.CommonDepth(all[3], all[6]) == 2);  // main/run
  CHECK(order.CommonDepth(all[3], all[9]) == 0);
  CHECK(order.CommonDepth(all[2], all[3]) == 3);
  CHECK(order.CommonDepth(kEmptyStack, all[3]) == 0);
}

TEST_CASE("Windows keep each stack's weight and each window's, in call tree order within") {
  ProfileGroup group = Threads(1, 5000, SomePaths());
  const Profile& profile = group.profiles[0];
  StackOrder order(group.stacks);
  // Runs alone are counted, not kept: a writer takes them from the profile.
  ViewerSamples runs = CondenseSamples(profile, order, 0);
  CHECK(runs.windows == 0);
  CHECK(runs.stacks.empty());
  size_t run_count = Runs(profile).first.size();

  for (uint32_t windows : {1u, 7u, 64u, 1024u}) {
    INFO(windows << " windows");
    ViewerSamples condensed = CondenseSamples(profile, order, windows);
    CHECK(condensed.windows == windows);
    CHECK(Totals(group, condensed.stacks, condensed.weights) == Totals(group, profile));
    // Fewer samples but where windows are so narrow that they split runs.
    if (windows < 1024) CHECK(condensed.stacks.size() < run_count);
    // As made by hand: each sample to the window its start falls in, summed
    // by stack in call tree order, then runs of one stack across windows joined.
    int64_t total = profile.end_value - profile.start_value;
    CHECK(condensed.window_weight == (total + windows - 1) / windows);
    std::vector<std::map<uint32_t, std::pair<StackId, int64_t>>> by_window(windows);
    int64_t before = 0;
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      size_t window = std::min<size_t>(before * uint64_t{windows} / total, windows - 1);
      auto& entry = by_window[window][order.Rank(profile.samples[i])];
      entry.first = profile.samples[i];
      entry.second += profile.weights[i];
      before += profile.weights[i];
    }
    std::vector<StackId> stacks;
    std::vector<int64_t> weights;
    for (const auto& window : by_window) {
      for (const auto& [rank, entry] : window) {
        if (!stacks.empty() && stacks.back() == entry.first) {
          weights.back() += entry.second;
        } else {
          stacks.push_back(entry.first);
          weights.push_back(entry.second);
        }
      }
    }
    CHECK(condensed.stacks == stacks);
    CHECK(condensed.weights == weights);
    // No two consecutive samples share a stack; within a window, ranks rise.
    size_t rises = 0;
    for (size_t i = 1; i < condensed.stacks.size(); ++i) {
      CHECK(condensed.stacks[i] != condensed.stacks[i - 1]);
      rises += order.Rank(condensed.stacks[i]) > order.Rank(condensed.stacks[i - 1]);
    }
    // Ranks fall only where a window begins.
    CHECK(condensed.stacks.size() - 1 - rises < windows);
    if (windows < 1024) CHECK(condensed.cost < runs.cost);
  }
  // One window: each stack once.
  CHECK(CondenseSamples(profile, order, 1).stacks.size() == Totals(group, profile).size());
}

TEST_CASE("The viewer's cost counts samples, frames, new nodes and the children a gap visits") {
  ProfileGroup group = Threads(1, 1, {{"a", "b"}});
  StackOrder order(group.stacks);
  StackId ab = group.profiles[0].samples[0];
  // [a,b] then a gap, 1,000 times: each [a,b] makes two nodes, and each gap
  // visits every top node made before it (1 + 2 + … + 999).
  Profile alternating;
  for (int i = 0; i < 1000; ++i) {
    alternating.samples.push_back(ab);
    alternating.weights.push_back(1);
    if (i + 1 < 1000) {
      alternating.samples.push_back(kEmptyStack);
      alternating.weights.push_back(1);
    }
  }
  ViewerSamples runs = CondenseSamples(alternating, order, 0);
  CHECK(CondenseSamples(alternating, order, 1, false).stacks.empty());
  uint64_t per_stack = kViewerCostPerSample + 2 * kViewerCostPerFrame + 2 * kViewerCostPerNode;
  CHECK(runs.cost ==
        1000 * per_stack + 999 * kViewerCostPerSample + 999 * 1000 / 2 / kViewerChildrenPerCost);
  // In one window the gaps are one sample, before the stack.
  ViewerSamples one = CondenseSamples(alternating, order, 1);
  CHECK(one.stacks == std::vector<StackId>{kEmptyStack, ab});
  CHECK(one.weights == std::vector<int64_t>{999, 1000});
}

TEST_CASE("Condensed within a budget: the finest windows that fit") {
  ProfileGroup group = Threads(1, 20000, SomePaths());
  const Profile& profile = group.profiles[0];
  StackOrder order(group.stacks);
  ViewerSamples runs = CondenseSamples(profile, order, 0);
  CHECK(CondenseWithin(profile, order, runs.cost).windows == 0);  // it fits whole

  uint64_t budget = runs.cost / 4;
  ViewerSamples within = CondenseWithin(profile, order, budget);
  REQUIRE(within.windows > 0);
  CHECK(within.cost <= budget);
  CHECK(CondenseSamples(profile, order, within.windows * 2).cost > budget);
  // Nothing fits: one window, the least there is.
  CHECK(CondenseWithin(profile, order, 1).windows == 1);
}

TEST_CASE("A selection within the budget goes whole, with the frames it reaches alone") {
  ProfileGroup group = Threads(3, 3000, SomePaths());
  ViewerPlan plan = PlanViewer(group, {2, 0}, 0, UINT64_MAX);
  CHECK(plan.profiles == std::vector<size_t>{2, 0});
  CHECK_FALSE(plan.alone);
  CHECK(plan.note.empty());
  nlohmann::json file = nlohmann::json::parse(Joined(group, plan, 1));
  CHECK(file["activeProfileIndex"] == 1);
  CHECK(file["profiles"].size() == 2);
  CHECK(file["shared"]["frames"].size() == plan.frames.size());
  // Read back by name, each profile's samples are its runs.
  for (size_t p = 0; p < 2; ++p) {
    const nlohmann::json& written = file["profiles"][p];
    auto [stacks, weights] = Runs(group.profiles[plan.profiles[p]]);
    REQUIRE(written["samples"].size() == stacks.size());
    for (size_t i = 0; i < stacks.size(); ++i) {
      Path names;
      for (const auto& frame : written["samples"][i]) {
        names.push_back(file["shared"]["frames"][frame.get<size_t>()]["name"]);
      }
      CHECK(names == NamesOf(group, stacks[i]));
      CHECK(written["weights"][i] == weights[i]);
    }
    CHECK(written["name"] == group.profiles[plan.profiles[p]].name);
  }
}

TEST_CASE("Frames no chosen profile reaches are left out of the viewer's file") {
  ProfileBuilder builder;
  builder.SetMakeViews(false);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto first = builder.InternThread(timeline, {"first", 1, "app", 42});
  auto second = builder.InternThread(timeline, {"second", 2, "app", 42});
  FrameId unused = builder.InternFrame({"only the first", "", "", std::nullopt});
  FrameId shared = builder.InternFrame({"shared", "", "", std::nullopt});
  REQUIRE(builder.AddSample(first, 0, 1, builder.InternFrames(kEmptyStack, {unused, shared})).ok());
  REQUIRE(builder.AddSample(second, 0, 1, builder.InternFrames(kEmptyStack, {shared})).ok());
  auto group = std::move(builder).Build("two", "instrumentscope@test");
  REQUIRE(group.ok());
  ViewerPlan plan = PlanViewer(*group, {1}, 1, UINT64_MAX);
  nlohmann::json file = nlohmann::json::parse(Joined(*group, plan, 0));
  CHECK(file["shared"]["frames"] == nlohmann::json::parse(R"([{"name":"shared"}])"));
  CHECK(file["profiles"][0]["samples"] == nlohmann::json::parse("[[0]]"));
}

TEST_CASE("Past the budget each thread is condensed to its share, or the pick goes alone") {
  ProfileGroup group = Threads(4, 40000, SomePaths());
  std::vector<size_t> all = {0, 1, 2, 3};
  ViewerPlan whole = PlanViewer(group, all, 1, UINT64_MAX);

  // Half the budget: every thread condensed, all of them still there.
  ViewerPlan together = PlanViewer(group, all, 1, whole.cost / 2);
  CHECK(together.profiles == all);
  CHECK_FALSE(together.alone);
  CHECK(together.cost <= whole.cost / 2);
  for (size_t i = 0; i < 4; ++i) {
    INFO("thread " << i);
    CHECK(together.samples[i].windows >= kFewestWindowsTogether);
    CHECK(Totals(group, together.samples[i].stacks, together.samples[i].weights) ==
          Totals(group, group.profiles[i]));
  }
  CHECK(together.note.find("Thread 0 — app (pid 42): ") != std::string::npos);
  CHECK(together.note.find("Left Heavy and Sandwich are exact, Time Order only to a window") !=
        std::string::npos);
  CHECK(together.note.find("This process's threads") == std::string::npos);
  // The same plan whichever thread opens first.
  CHECK(PlanViewer(group, all, 3, whole.cost / 2).note == together.note);

  // Too little for every thread in a thousand windows: the pick alone, condensed.
  ViewerPlan alone = PlanViewer(group, all, 2, whole.cost / 40);
  CHECK(alone.profiles == std::vector<size_t>{2});
  CHECK(alone.alone);
  CHECK(alone.cost <= whole.cost / 40);
  CHECK(alone.note.rfind("This process's threads and the profile picked are more than", 0) == 0);
  CHECK(alone.note.find("Thread 2 — app (pid 42): ") != std::string::npos);
  nlohmann::json file = nlohmann::json::parse(Joined(group, alone, 0));
  CHECK(file["profiles"].size() == 1);

  // A thread alone is never "left alone": it is only condensed.
  ViewerPlan single = PlanViewer(group, {2}, 2, whole.cost / 200);
  CHECK_FALSE(single.alone);
  CHECK(single.samples[0].windows > 0);
  CHECK(single.note.find("This process's threads") == std::string::npos);
}

}  // namespace
}  // namespace instrumentscope::speedscope
