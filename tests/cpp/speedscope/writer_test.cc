#include "speedscope/writer.h"

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/json.h"
#include "model/profile_builder.h"

namespace instrumentscope::speedscope {
namespace {

constexpr int64_t kSamples = 40000;

// Two threads of many samples, with deep stacks and one frame whose name is
// longer than a piece: output in many pieces.
ProfileGroup LargeGroup() {
  ProfileBuilder builder;
  builder.SetMakeViews(false);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  auto worker = builder.InternThread(timeline, {"Worker 0x2", 2, "app", 42});
  std::string huge_name(kJsonPieceBytes + kJsonPieceBytes / 2, 'x');
  FrameId huge = builder.InternFrame({huge_name, "", "", std::nullopt});
  std::vector<FrameId> frames;
  for (int i = 0; i < 200; ++i) {
    frames.push_back(builder.InternFrame({"f" + std::to_string(i), "", "", std::nullopt}));
  }
  for (int64_t i = 0; i < kSamples; ++i) {
    // 200 distinct stacks of 65 frames, in turn.
    std::vector<FrameId> leaf_to_root{huge};
    for (int depth = 0; depth < 64; ++depth) leaf_to_root.push_back(frames[(i / 4 + depth) % 200]);
    StackId stack = builder.InternFrames(kEmptyStack, leaf_to_root);
    REQUIRE(builder.AddSample(i % 3 ? main : worker, i * 10, 7, stack).ok());
  }
  auto group = std::move(builder).Build("large", "instrumentscope@test");
  REQUIRE(group.ok());
  return group.take();
}

std::string Joined(const std::function<bool(const JsonSink&)>& write) {
  std::string text;
  REQUIRE(write([&text](std::string_view piece) {
    text += piece;
    return true;
  }));
  return text;
}

TEST_CASE("The JSON comes in pieces of at most a megabyte that join into the file") {
  ProfileGroup group = LargeGroup();
  std::vector<std::string> pieces;
  REQUIRE(WriteJson(group, [&pieces](std::string_view piece) {
    pieces.emplace_back(piece);
    return true;
  }));
  REQUIRE(pieces.size() > 10);
  size_t oversized = 0;
  std::string text;
  for (const std::string& piece : pieces) {
    oversized += piece.size() > kJsonPieceBytes ? 1 : 0;
    text += piece;
  }
  CHECK(oversized == 1);  // the frame whose name alone is longer than a piece

  nlohmann::json file = nlohmann::json::parse(text);
  CHECK(file["shared"]["frames"][0]["name"].get<std::string>().size() ==
        kJsonPieceBytes + kJsonPieceBytes / 2);
  REQUIRE(file["profiles"].size() == 2);
  size_t samples = 0;
  for (size_t p = 0; p < 2; ++p) {
    const Profile& profile = group.profiles[p];
    const nlohmann::json& written = file["profiles"][p];
    REQUIRE(written["samples"].size() == profile.samples.size());
    REQUIRE(written["weights"].size() == profile.weights.size());
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      std::vector<FrameId> root_to_leaf;
      for (StackId stack = profile.samples[i]; stack != kEmptyStack;
           stack = group.stacks.parent[stack]) {
        root_to_leaf.insert(root_to_leaf.begin(), group.stacks.frame[stack]);
      }
      REQUIRE(written["samples"][i].get<std::vector<FrameId>>() == root_to_leaf);
      REQUIRE(written["weights"][i].get<int64_t>() == profile.weights[i]);
    }
    samples += profile.sample_count;
  }
  CHECK(samples == kSamples);
}

TEST_CASE("Stacks past the kept texts are written as those kept") {
  // 2,000 distinct stacks of 301 frames (about 1.4 KB of text each, 2.8 MB
  // in all), written keeping at most 1 MB of them: the others are put
  // together frame by frame each time they are written. Each is sampled
  // once, then the last 200 once more.
  constexpr int kStacks = 2000;
  constexpr int kAgain = 200;
  ProfileBuilder builder;
  builder.SetMakeViews(false);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto thread = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  StackId trunk = kEmptyStack;
  for (int depth = 0; depth < 300; ++depth) {
    trunk = builder.InternStack(
        trunk, builder.InternFrame({"trunk" + std::to_string(depth), "", "", std::nullopt}));
  }
  std::vector<int> order;
  for (int i = 0; i < kStacks; ++i) order.push_back(i);
  for (int i = kStacks - kAgain; i < kStacks; ++i) order.push_back(i);
  std::vector<StackId> leaves;
  for (int i = 0; i < kStacks; ++i) {
    FrameId leaf = builder.InternFrame({"leaf" + std::to_string(i), "", "", std::nullopt});
    leaves.push_back(builder.InternStack(trunk, leaf));
  }
  bool added = true;
  for (size_t i = 0; i < order.size(); ++i) {
    added = added && builder.AddSample(thread, static_cast<int64_t>(i), 1, leaves[order[i]]).ok();
  }
  REQUIRE(added);
  auto built = std::move(builder).Build("deep", "instrumentscope@test");
  REQUIRE(built.ok());

  WriteOptions small_cache;
  small_cache.kept_stack_text_bytes = size_t{1} << 20;
  std::string text =
      Joined([&](const JsonSink& sink) { return WriteJson(*built, sink, small_cache); });
  std::string trunk_text = "[";
  for (int depth = 0; depth < 300; ++depth) trunk_text += std::to_string(depth) + ",";
  std::string expected = "\"samples\":[";
  expected.reserve(order.size() * (trunk_text.size() + 8));
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) expected += ',';
    expected += trunk_text;
    expected += std::to_string(300 + order[i]);
    expected += ']';
  }
  expected += ']';
  CHECK(text.find(expected) != std::string::npos);
}

TEST_CASE("A frame is written as DumpJson(FrameJson()) gives it, whatever its text") {
  const std::string texts[] = {
      "main",
      "",
      "0x1b40f8",
      "say \"hi\" \\ there",
      "tab\tnew\nline\rback\bfeed\f",
      std::string("nul\0and\x01\x1f\x7f", 10),
      "Swift.Array<Élan> — 日本 😀",
      "bad \xff\xfe utf-8 \xc3",
      "cut \xe6\x97",
  };
  for (const std::string& name : texts) {
    for (const std::string& file : {std::string(), std::string("/usr/lib/dyld"), name}) {
      for (std::optional<uint32_t> line : {std::optional<uint32_t>(), std::optional<uint32_t>(0),
                                           std::optional<uint32_t>(UINT32_MAX)}) {
        Frame frame;
        frame.name = name;
        frame.file = file;
        frame.line = line;
        std::string written = Joined([&frame](const JsonSink& sink) {
          PieceWriter out(sink);
          WriteFrameJson(frame, out);
          return out.Flush();
        });
        REQUIRE(written == DumpJson(FrameJson(frame)));
      }
    }
  }
}

TEST_CASE("A sink that says stop gets nothing more") {
  ProfileGroup group = LargeGroup();
  int calls = 0;
  CHECK_FALSE(WriteJson(group, [&calls](std::string_view) { return ++calls < 3; }));
  CHECK(calls == 3);
}

TEST_CASE("Asked, consecutive samples of one stack are written as one") {
  ProfileBuilder builder;
  builder.SetMakeViews(false);
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  StackId a = builder.InternFrames(kEmptyStack, {builder.InternFrame({"a", "", "", std::nullopt})});
  StackId b = builder.InternFrames(kEmptyStack, {builder.InternFrame({"b", "", "", std::nullopt})});
  // Three of a back to back, b, 12 ns idle, two of a.
  for (auto [time, stack] : std::vector<std::pair<int64_t, StackId>>{
           {0, a}, {7, a}, {14, a}, {21, b}, {40, a}, {47, a}}) {
    REQUIRE(builder.AddSample(main, time, 7, stack).ok());
  }
  auto group = std::move(builder).Build("runs", "instrumentscope@test");
  REQUIRE(group.ok());
  nlohmann::json whole =
      nlohmann::json::parse(Joined([&](const JsonSink& sink) { return WriteJson(*group, sink); }));
  WriteOptions merging;
  merging.merge_consecutive = true;
  nlohmann::json whole_merged = nlohmann::json::parse(
      Joined([&](const JsonSink& sink) { return WriteJson(*group, sink, merging); }));
  const nlohmann::json& all = whole["profiles"][0];
  const nlohmann::json& merged = whole_merged["profiles"][0];
  CHECK(all["samples"].size() == 7);
  CHECK(merged["samples"] == nlohmann::json::parse("[[0],[1],[],[0]]"));
  CHECK(merged["weights"] == nlohmann::json::parse("[21,7,12,14]"));
  // The rest of the profile is the whole file's.
  for (const char* member : {"type", "name", "unit", "startValue", "endValue"}) {
    CHECK(merged[member] == all[member]);
  }
  // Expanded again, runs give back the whole file's samples in their order.
  std::vector<std::pair<nlohmann::json, int64_t>> runs;
  for (size_t i = 0; i < all["samples"].size(); ++i) {
    if (!runs.empty() && runs.back().first == all["samples"][i]) {
      runs.back().second += all["weights"][i].get<int64_t>();
    } else {
      runs.emplace_back(all["samples"][i], all["weights"][i].get<int64_t>());
    }
  }
  REQUIRE(runs.size() == merged["samples"].size());
  for (size_t i = 0; i < runs.size(); ++i) {
    CHECK(runs[i].first == merged["samples"][i]);
    CHECK(runs[i].second == merged["weights"][i].get<int64_t>());
  }
  CHECK(whole_merged["activeProfileIndex"] == whole["activeProfileIndex"]);
}

}  // namespace
}  // namespace instrumentscope::speedscope
