#include "model/profile_builder.h"

#include <catch2/catch.hpp>
#include <map>

#include "model/view_names.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::StackText;

TEST_CASE("Frames are one per function and binary, with the lowest line seen") {
  ProfileBuilder builder;
  FrameId a = builder.InternFrame({"work", "/bin/app", "", std::nullopt});
  FrameId b = builder.InternFrame({"work", "/bin/app", "/src/app.c", 12});
  FrameId c = builder.InternFrame({"work", "/bin/app", "/src/app.c", 9});
  FrameId d = builder.InternFrame({"work", "/bin/app", "/src/app.c", 30});
  FrameId other_binary = builder.InternFrame({"work", "/bin/tool", "", std::nullopt});
  CHECK(a == b);
  CHECK(b == c);
  CHECK(c == d);
  CHECK(other_binary != a);
  CHECK(builder.frame(a).file == "/src/app.c");  // source replaces the binary path
  CHECK(builder.frame(a).line == 9u);
  CHECK(builder.frame(other_binary).file == "/bin/tool");
  CHECK_FALSE(builder.frame(other_binary).line);
}

TEST_CASE("Stacks share their prefixes") {
  ProfileBuilder builder;
  FrameId main = builder.InternFrame({"main", "", "", std::nullopt});
  FrameId a = builder.InternFrame({"a", "", "", std::nullopt});
  FrameId b = builder.InternFrame({"b", "", "", std::nullopt});
  StackId ma = builder.InternFrames(kEmptyStack, {a, main});
  StackId mb = builder.InternFrames(kEmptyStack, {b, main});
  StackId ma_again = builder.InternStack(builder.InternStack(kEmptyStack, main), a);
  CHECK(ma == ma_again);
  CHECK(builder.stacks().parent[ma] == builder.stacks().parent[mb]);
  CHECK(builder.stacks().size() == 3);
  StackId kernel = builder.InternFrames(kEmptyStack, {b, a});  // "a;b"
  StackId joined = builder.AppendStack(ma, kernel);
  CHECK(builder.stacks().frame[joined] == b);
  CHECK(builder.stacks().frame[builder.stacks().parent[joined]] == a);
}

// Threads one at a time: the views of them are intervals_test.cc's.
struct Fixture {
  Fixture() { builder.SetMakeViews(false); }
  ProfileBuilder builder;
  StackId Stack(const std::vector<std::string>& leaf_to_root) {
    std::vector<FrameId> frames;
    for (const std::string& name : leaf_to_root) {
      frames.push_back(builder.InternFrame({name, "", "", std::nullopt}));
    }
    return builder.InternFrames(kEmptyStack, frames);
  }
};

TEST_CASE("Samples are put in time order, with gaps as empty samples on a shared axis") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = f.builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  auto worker = f.builder.InternThread(timeline, {"Worker 0x2", 2, "app", 42});
  StackId work = f.Stack({"work", "main"});
  StackId idle = f.Stack({"wait", "main"});
  REQUIRE(f.builder.AddSample(main, 30, 10, idle).ok());
  REQUIRE(f.builder.AddSample(main, 10, 10, work).ok());  // out of order
  REQUIRE(f.builder.AddSample(main, 20, 10, work).ok());
  REQUIRE(f.builder.AddSample(worker, 100, 10, work).ok());

  auto group = std::move(f.builder).Build("trace.xml", "instrumentscope@test");
  REQUIRE(group.ok());
  REQUIRE(group->profiles.size() == 2);
  const Profile& first = group->profiles[0];
  CHECK(first.name == "Main Thread 0x1 — app (pid 42)");
  // Leading gap 0..10, three samples, trailing gap to the timeline's end (110).
  CHECK(first.weights.ToVector() == std::vector<int64_t>{10, 10, 10, 10, 70});
  CHECK(first.samples[0] == kEmptyStack);
  CHECK(StackText(*group, first.samples[1]) == "main;work");
  CHECK(StackText(*group, first.samples[3]) == "main;wait");
  CHECK(first.samples[4] == kEmptyStack);
  CHECK(first.start_value == 0);
  CHECK(first.end_value == 110);
  CHECK(first.sample_count == 3);
  CHECK(first.sample_weight == 30);
  const Profile& second = group->profiles[1];
  CHECK(second.weights.ToVector() == std::vector<int64_t>{100, 10});
  CHECK(second.end_value == 110);
  CHECK(group->active_profile_index == 0);  // most samples
}

TEST_CASE("Overlapping samples keep their weights and push the cursor") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = f.builder.InternThread(timeline, {"T 0x1", 1, "", -1});
  StackId stack = f.Stack({"x"});
  REQUIRE(f.builder.AddSample(thread, 0, 10, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 5, 10, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 30, 10, stack).ok());
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  const Profile& profile = group->profiles[0];
  CHECK(profile.weights.ToVector() == std::vector<int64_t>{10, 10, 10, 10});  // gap 20..30
  CHECK(profile.end_value == 40);
  CHECK(profile.name == "T 0x1");
}

TEST_CASE("Count-weighted timelines have no gaps") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "cpu-profile", ValueUnit::kNone);
  auto thread = f.builder.InternThread(timeline, {"T 0x1", 1, "p", 7});
  StackId stack = f.Stack({"x"});
  REQUIRE(f.builder.AddSample(thread, 1000, 300, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 5000, 200, stack).ok());
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  CHECK(group->profiles[0].weights.ToVector() == std::vector<int64_t>{300, 200});
  CHECK(group->profiles[0].end_value == 500);
  CHECK(group->profiles[0].unit == ValueUnit::kNone);
}

TEST_CASE("Weights of 2^31 and more survive storage, in and out of order") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "cpu-profile", ValueUnit::kNone);
  auto thread = f.builder.InternThread(timeline, {"T 0x1", 1, "p", 7});
  StackId stack = f.Stack({"x"});
  constexpr int64_t kHuge = int64_t{1} << 40;
  REQUIRE(f.builder.AddSample(thread, 20, kHuge, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 10, 0x7FFFFFFF, stack).ok());  // the largest kept inline
  REQUIRE(f.builder.AddSample(thread, 30, 0x80000000, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 40, 1, stack).ok());
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  CHECK(group->profiles[0].weights.ToVector() ==
        std::vector<int64_t>{0x7FFFFFFF, kHuge, 0x80000000, 1});
  CHECK(group->profiles[0].sample_weight == 0x7FFFFFFF + kHuge + 0x80000000 + 1);
}

TEST_CASE("A thread of many samples keeps them all, in order") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = f.builder.InternThread(timeline, {"T 0x1", 1, "p", 7});
  StackId stack = f.Stack({"x"});
  constexpr int64_t kSamples = 100000;  // several storage pages
  auto weight = [](int64_t i) { return 1 + i % 5; };
  for (int64_t i = kSamples - 1; i >= 0; --i) {  // all out of order
    REQUIRE(f.builder.AddSample(thread, i * 10, weight(i), stack).ok());
  }
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  const Profile& profile = group->profiles[0];
  REQUIRE(profile.weights.size() == 2 * kSamples - 1);  // a gap before every sample but the first
  for (int64_t i = 0; i < kSamples; ++i) {
    REQUIRE(profile.weights[2 * i] == weight(i));
    if (i > 0) REQUIRE(profile.weights[2 * i - 1] == 10 - weight(i - 1));
  }
  CHECK(profile.sample_count == kSamples);
  CHECK(profile.end_value == (kSamples - 1) * 10 + weight(kSamples - 1));
}

TEST_CASE("Names carry the run and table only when they are needed to tell profiles apart") {
  Fixture f;
  auto run1 = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto run2 = f.builder.AddTimeline(2, "time-profile", ValueUnit::kNanoseconds);
  auto run2_sample = f.builder.AddTimeline(2, "time-sample", ValueUnit::kNone);
  StackId stack = f.Stack({"x"});
  for (auto timeline : {run1, run2, run2_sample}) {
    auto thread = f.builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 5});
    REQUIRE(f.builder.AddSample(thread, 0, 1, stack).ok());
  }
  auto thread = f.builder.InternThread(run2, {"Main Thread 0x1", 1, "other", 6});
  REQUIRE(f.builder.AddSample(thread, 0, 1, stack).ok());
  REQUIRE(f.builder.AddSample(thread, 1, 1, stack).ok());
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  std::vector<std::string> names;
  for (const Profile& profile : group->profiles) names.push_back(profile.name);
  CHECK(names == std::vector<std::string>{
                     "Main Thread 0x1 — app (pid 5) — run 1",
                     "Main Thread 0x1 — app (pid 5) — run 2 — time-profile",
                     "Main Thread 0x1 — other (pid 6) — run 2 — time-profile",
                     "Main Thread 0x1 — app (pid 5) — run 2 — time-sample",
                 });
  CHECK(group->active_profile_index == 2);
  // Listed under their process and run, the same profiles need neither.
  std::vector<std::vector<std::string>> listed;
  for (const Profile& profile : group->profiles) listed.push_back(profile.listed_name);
  CHECK(listed == std::vector<std::vector<std::string>>{{"Main Thread 0x1"},
                                                        {"Main Thread 0x1", "time-profile"},
                                                        {"Main Thread 0x1", "time-profile"},
                                                        {"Main Thread 0x1", "time-sample"}});
}

TEST_CASE("Views and lanes are listed by their own parts, without process or run") {
  Fixture f;
  f.builder.SetMakeViews(true);
  auto timeline = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  StackId stack = f.Stack({"x"});
  for (uint64_t tid : {1, 2, 3}) {
    std::string name = (tid < 3 ? "worker 0x" : "Main Thread 0x") + std::to_string(tid);
    auto thread = f.builder.InternThread(timeline, {name, tid, "app", 5});
    REQUIRE(f.builder.AddSample(thread, 0, 1, stack).ok());
  }
  ProfileBuilder::IntervalSourceDesc desc;
  desc.table = "os-signpost";
  desc.name = "Signposts \xE2\x80\x94 com.example.app";
  desc.process_name = "app";
  desc.pid = 5;
  auto source = f.builder.AddIntervalSource(desc);
  REQUIRE(f.builder.AddInterval(source, 0, 10, "a", "a").ok());
  REQUIRE(f.builder.AddInterval(source, 5, 20, "b", "b").ok());  // overlaps: a second lane
  auto group = std::move(f.builder).Build("", "");
  REQUIRE(group.ok());
  std::map<std::string, std::vector<std::string>> listed;
  for (const Profile& profile : group->profiles) listed[profile.name] = profile.listed_name;
  CHECK(listed["All threads \xE2\x80\x94 app (pid 5)"] == std::vector<std::string>{"All threads"});
  CHECK(listed["worker \xC3\x97"
               "2 \xE2\x80\x94 app (pid 5)"] == std::vector<std::string>{"worker \xC3\x97"
                                                                         "2"});
  CHECK(
      listed
          ["Signposts \xE2\x80\x94 com.example.app \xE2\x80\x94 app (pid 5) \xE2\x80\x94 lane 2"] ==
      std::vector<std::string>{"Signposts \xE2\x80\x94 com.example.app", "lane 2"});
}

TEST_CASE("Durations read as a person writes them") {
  CHECK(DurationText(12'345'678'901) == "12.3 s");
  CHECK(DurationText(450'000'000) == "450 ms");
  CHECK(DurationText(5'200'000) == "5.2 ms");
  CHECK(DurationText(2'000'000'000) == "2 s");
  CHECK(DurationText(7'200'000'000'000) == "7200 s");
  CHECK(DurationText(4'700) == "4.7 \xC2\xB5s");
  CHECK(DurationText(800) == "800 ns");
  CHECK(DurationText(0) == "0 ns");
}

TEST_CASE("The sample limit holds") {
  ProfileBuilder builder(/*max_samples=*/2);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = builder.InternThread(timeline, {"T 0x1", 1, "", -1});
  CHECK(builder.AddSample(thread, 0, 1, kEmptyStack).ok());
  CHECK(builder.AddSample(thread, 1, 1, kEmptyStack).ok());
  Status third = builder.AddSample(thread, 2, 1, kEmptyStack);
  CHECK(third.code() == ErrorCode::kLimitExceeded);
  CHECK(third.message().find("maxSamples") != std::string::npos);
}

TEST_CASE("The stack node limit holds") {
  ProfileBuilder builder(/*max_samples=*/UINT64_MAX, /*max_stack_nodes=*/2);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = builder.InternThread(timeline, {"T 0x1", 1, "", -1});
  FrameId a = builder.InternFrame({"a", "", "", std::nullopt});
  FrameId b = builder.InternFrame({"b", "", "", std::nullopt});
  StackId two = builder.InternFrames(kEmptyStack, {b, a});
  CHECK(builder.AddSample(thread, 0, 1, two).ok());
  StackId third = builder.InternStack(two, a);
  Status refused = builder.AddSample(thread, 1, 1, third);
  CHECK(refused.code() == ErrorCode::kLimitExceeded);
  CHECK(refused.message().find("maxStackNodes") != std::string::npos);
  CHECK(builder.stacks().size() == 2);
}

TEST_CASE("Negative and overflowing samples are refused") {
  Fixture f;
  auto timeline = f.builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = f.builder.InternThread(timeline, {"T 0x1", 1, "", -1});
  CHECK(f.builder.AddSample(thread, -1, 1, kEmptyStack).code() == ErrorCode::kBadSample);
  CHECK(f.builder.AddSample(thread, 1, -1, kEmptyStack).code() == ErrorCode::kBadSample);
  CHECK(f.builder.AddSample(thread, INT64_MAX, 1, kEmptyStack).code() == ErrorCode::kBadSample);
  CHECK(f.builder.total_samples() == 0);
}

}  // namespace
}  // namespace instrumentscope
