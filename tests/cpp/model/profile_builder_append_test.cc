// ProfileBuilder::Append: a part built apart (a bundle's table read on a
// helper thread) adds to a builder exactly what its calls would have.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "model/profile_builder.h"
#include "speedscope/writer.h"

namespace instrumentscope {
namespace {

// One table's worth of calls: named frames with source lines, an unnamed
// frame in an image, stacks sharing prefixes, two threads, a large weight.
void ReadTable(ProfileBuilder& builder, uint32_t run, uint32_t line) {
  ImageId image = builder.InternImage(CodeImage{"/bin/app", {}, std::nullopt, 0x1000});
  FrameId main = builder.InternFrame({"main", "/bin/app", "/src/main.c", line});
  FrameId work = builder.InternFrame({"work", "/bin/app", "/src/work.c", line + 10});
  FrameDesc unnamed{"app+0x40", "/bin/app"};
  unnamed.address = 0x1040 + run;
  unnamed.image_id = image;
  FrameId leaf = builder.InternFrame(unnamed);
  StackId deep = builder.InternFrames(kEmptyStack, {leaf, work, main});
  StackId shallow = builder.InternFrames(kEmptyStack, {work, main});
  auto timeline = builder.AddTimeline(run, "time-profile", ValueUnit::kNanoseconds);
  auto first = builder.InternThread(timeline, ThreadDesc{"Main Thread", 1, "app", 42});
  auto second = builder.InternThread(timeline, ThreadDesc{"Thread 0x2", 2, "app", 42});
  REQUIRE(builder.AddSample(first, 10, 5, deep).ok());
  REQUIRE(builder.AddSample(second, 12, int64_t{1} << 40, shallow).ok());
  REQUIRE(builder.AddSample(first, 11, 5, kEmptyStack).ok());  // out of order
  builder.AddTable(TableSummary{run, "time-profile", 3, true});
  builder.AddWarning(WarningCode::kCountersUnnamed, "run " + std::to_string(run));
}

std::string Written(ProfileBuilder&& builder) {
  auto group = std::move(builder).Build("bundle", "test");
  REQUIRE(group.ok());
  std::ostringstream out;
  speedscope::WriteJson(*group, out);
  for (const Warning& warning : group->warnings) out << "\n" << warning.message;
  return out.str();
}

TEST_CASE("A part appended adds what its calls, made on the builder, would have") {
  ProfileBuilder direct;
  ReadTable(direct, 1, 30);
  ReadTable(direct, 2, 20);
  ProfileBuilder appended;
  ReadTable(appended, 1, 30);
  ProfileBuilder part;
  ReadTable(part, 2, 20);
  REQUIRE(appended.CanAppend(part));
  REQUIRE(appended.Append(part).ok());
  CHECK(appended.stacks().size() == direct.stacks().size());
  CHECK(appended.total_samples() == 6);
  std::string expected = Written(std::move(direct));
  CHECK(Written(std::move(appended)) == expected);
  CHECK_THAT(expected, Catch::Contains("\"line\":20"));  // the lowest line, from the part
}

TEST_CASE("A part is refused where appending it might differ from its calls") {
  ProfileBuilder part;
  ReadTable(part, 2, 20);  // 3 samples, 3 stack nodes
  SECTION("samples past limits.maxSamples") {
    ProfileBuilder builder(/*max_samples=*/5);
    ReadTable(builder, 1, 30);
    CHECK_FALSE(builder.CanAppend(part));
    ProfileBuilder roomy(/*max_samples=*/6);
    ReadTable(roomy, 1, 30);
    CHECK(roomy.CanAppend(part));
  }
  SECTION("stack nodes that could reach limits.maxStackNodes, the part's all counted as new") {
    ProfileBuilder builder(UINT64_MAX, /*max_stack_nodes=*/6);
    ReadTable(builder, 1, 30);
    CHECK_FALSE(builder.CanAppend(part));
    ProfileBuilder roomy(UINT64_MAX, /*max_stack_nodes=*/7);
    ReadTable(roomy, 1, 30);
    CHECK(roomy.CanAppend(part));
  }
  SECTION("a part that fills limits.maxStackNodes and then looks a stack up, which fails there") {
    auto read_other = [](ProfileBuilder& builder) {
      FrameId x = builder.InternFrame({"x", "", "", std::nullopt});
      FrameId y = builder.InternFrame({"y", "", "", std::nullopt});
      FrameId z = builder.InternFrame({"z", "", "", std::nullopt});
      builder.InternFrames(kEmptyStack, {z, y, x});               // 3 new nodes
      StackId known = builder.InternFrames(kEmptyStack, {y, x});  // found, not added
      auto timeline = builder.AddTimeline(2, "time-profile", ValueUnit::kNanoseconds);
      auto thread = builder.InternThread(timeline, ThreadDesc{"Main Thread", 1, "app", 42});
      return builder.AddSample(thread, 10, 1, known);
    };
    ProfileBuilder direct(UINT64_MAX, /*max_stack_nodes=*/6);
    ReadTable(direct, 1, 30);  // 3 nodes
    CHECK(read_other(direct).code() == ErrorCode::kLimitExceeded);
    ProfileBuilder other(UINT64_MAX, /*max_stack_nodes=*/6);
    REQUIRE(read_other(other).ok());
    ProfileBuilder builder(UINT64_MAX, /*max_stack_nodes=*/6);
    ReadTable(builder, 1, 30);
    CHECK_FALSE(builder.CanAppend(other));
  }
  SECTION("a builder already past limits.maxStackNodes, which refuses the part's samples") {
    ProfileBuilder builder(UINT64_MAX, /*max_stack_nodes=*/1);
    FrameId a = builder.InternFrame({"a", "", "", std::nullopt});
    FrameId b = builder.InternFrame({"b", "", "", std::nullopt});
    builder.InternFrames(kEmptyStack, {a, b});
    CHECK_FALSE(builder.CanAppend(ProfileBuilder()));
  }
  SECTION("a frame whose source file the builder names otherwise") {
    ProfileBuilder builder;
    builder.InternFrame({"work", "/bin/app", "/src/other.c", 1});
    CHECK_FALSE(builder.CanAppend(part));
  }
  SECTION("what Append does not carry: intervals") {
    ProfileBuilder builder;
    ProfileBuilder with_intervals;
    with_intervals.AddIntervalSource(ProfileBuilder::IntervalSourceDesc{});
    CHECK_FALSE(builder.CanAppend(with_intervals));
  }
}

TEST_CASE("A part cuts its events where the whole's intervals of its run would") {
  ProfileBuilder whole;
  ProfileBuilder::IntervalSourceDesc hangs;
  hangs.run = 2;
  hangs.pid = 42;
  hangs.during = ProfileBuilder::DuringViews::kAll;
  hangs.during_name = "hangs";
  auto source = whole.AddIntervalSource(hangs);
  REQUIRE(whole.AddInterval(source, 100, 200, "Hang", "Hang").ok());
  REQUIRE(whole.AddInterval(source, 150, ProfileBuilder::kOpenEnd, "Hang", "Hang").ok());
  ProfileBuilder::IntervalSourceDesc signposts = hangs;
  signposts.during = ProfileBuilder::DuringViews::kBusiestNames;
  REQUIRE(whole.AddInterval(whole.AddIntervalSource(signposts), 10, 20, "a", "a").ok());
  ProfileBuilder part;
  part.CopyDuringSpans(whole, 2);
  using Spans = std::vector<std::pair<int64_t, int64_t>>;
  CHECK(part.AllDuringSpans(2, 42) == Spans{{100, INT64_MAX}});
  CHECK(part.AllDuringSpans(2, 42) == whole.AllDuringSpans(2, 42));
  CHECK(part.AllDuringSpans(2, 7).empty());   // another process's
  CHECK(part.AllDuringSpans(1, 42).empty());  // another run's
  CHECK(whole.CanAppend(part));               // the copy is no interval of the part's
}

}  // namespace
}  // namespace instrumentscope
