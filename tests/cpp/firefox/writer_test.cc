#include "firefox/writer.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "container/gzip_writer.h"
#include "model/profile_builder.h"

namespace instrumentscope::firefox {
namespace {

using Source = ProfileBuilder::IntervalSourceDesc;
using nlohmann::json;

std::string Written(const ProfileGroup& group) {
  std::string text;
  REQUIRE(WriteFirefoxJson(group, [&text](std::string_view piece) {
    text += piece;
    return true;
  }));
  return text;
}

// The string a column's index names.
std::string StringAt(const json& file, const json& index) {
  return file["shared"]["stringArray"][index.get<size_t>()];
}

const json& ThreadNamed(const json& file, const std::string& name) {
  for (const json& thread : file["threads"]) {
    if (thread["name"] == name) return thread;
  }
  FAIL("no thread " << name);
  return file;
}

// A process of two threads with an app binary's unnamed frame, the main
// thread's system calls as weighted events, and nested signposts.
ProfileGroup AppGroup() {
  ProfileBuilder builder;
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1a", 26, "App", 42});
  auto worker = builder.InternThread(timeline, {"Worker 0x1b", 27, "App", 42});
  auto calls =
      builder.AddTimeline(1, "syscall", ValueUnit::kNanoseconds, ProfileBuilder::TimeAxis::kShared,
                          {ProfileKind::kWeighted, "time in system calls"});
  auto main_calls = builder.InternThread(calls, {"Main Thread 0x1a", 26, "App", 42});
  CodeImage app{"/Applications/App.app/App", "arm64",
                ImageUuid{0x12, 0x34, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xab, 0xcd}, 0x100000000};
  ImageId app_image = builder.InternImage(app);
  FrameId start = builder.InternFrame({"start", "/usr/lib/dyld", "", std::nullopt});
  FrameId unnamed =
      builder.InternFrame({"0x100001234", app.path, "", std::nullopt, 0x100001234, app_image});
  FrameId draw = builder.InternFrame({"draw()", app.path, "/src/View.swift", 12});
  FrameId read =
      builder.InternFrame({"read", "/usr/lib/system/libsystem_kernel.dylib", "", std::nullopt});
  StackId root = builder.InternStack(kEmptyStack, start);
  StackId app_stack = builder.InternStack(root, unnamed);
  StackId draw_stack = builder.InternStack(app_stack, draw);
  StackId read_stack = builder.InternStack(root, read);
  REQUIRE(builder.AddSample(main, 0, 1000000, draw_stack).ok());
  REQUIRE(builder.AddSample(main, 1000000, 1234567, app_stack).ok());
  REQUIRE(builder.AddSample(main, 5000000, 1000000, draw_stack).ok());  // after a gap
  REQUIRE(builder.AddSample(worker, 500000, 1000000, read_stack).ok());
  REQUIRE(builder.AddSample(main_calls, 2000000, 250000, read_stack).ok());
  auto poi = builder.AddIntervalSource(
      Source{1, "os-signpost", "Points of Interest — com.example.app", "App", 42, {}, {}});
  REQUIRE(builder.AddInterval(poi, 0, 4000000, "Load feed", "Load feed — 3 items", "3 items").ok());
  REQUIRE(builder.AddInterval(poi, 1000000, 2000000, "Parse", "Parse").ok());
  auto group = std::move(builder).Build("App.trace", "instrumentscope@test");
  REQUIRE(group.ok());
  return group.take();
}

TEST_CASE("Firefox: each thread a thread of its process, views left out, main thread marked") {
  ProfileGroup group = AppGroup();
  json file = json::parse(Written(group));
  CHECK(file["meta"]["preprocessedProfileVersion"] == 69);
  // Two CPU threads and the system calls; the process's views are not threads.
  REQUIRE(file["threads"].size() == 3);
  const json& main = ThreadNamed(file, "Main Thread 0x1a");
  CHECK(main["isMainThread"] == true);
  CHECK(main["pid"] == "42");
  CHECK(main["processName"] == "App");
  CHECK(ThreadNamed(file, "Worker 0x1b")["isMainThread"] == false);
  const json& calls = ThreadNamed(file, "Main Thread 0x1a — time in system calls");
  CHECK(calls["samples"]["weightType"] == "tracing-ms");
  CHECK(calls["isMainThread"] == false);
  // Two threads share tid 26: each says which it is.
  CHECK(main["tid"].is_string());
  CHECK(main["tid"] != calls["tid"]);
  CHECK(ThreadNamed(file, "Worker 0x1b")["tid"] == 27);
  size_t selected = file["meta"]["initialSelectedThreads"][0];
  CHECK(file["threads"][selected]["name"] == "Main Thread 0x1a");
}

TEST_CASE("Firefox: samples keep their stacks, times and weights, gaps as null stacks") {
  ProfileGroup group = AppGroup();
  std::string text = Written(group);
  json file = json::parse(text);
  const json& samples = ThreadNamed(file, "Main Thread 0x1a")["samples"];
  // The gap between 2.234567 ms and 5 ms is a sample without a stack.
  REQUIRE(samples["length"] == 4);
  CHECK(samples["stack"][3] != nullptr);
  CHECK(samples["stack"][2] == nullptr);
  CHECK(samples["stack"][0] == samples["stack"][3]);
  CHECK(text.find("\"weight\":[1,1.234567,2.765433,1]") != std::string::npos);
  CHECK(text.find("\"timeDeltas\":[0,1,1.234567,2.765433]") != std::string::npos);

  // The stack of the first sample, leaf last, as frame names.
  const json& shared = file["shared"];
  std::vector<std::string> names;
  for (int64_t stack = samples["stack"][0];;) {
    size_t frame = shared["stackTable"]["frame"][stack];
    size_t func = shared["frameTable"]["func"][frame];
    names.insert(names.begin(), StringAt(file, shared["funcTable"]["name"][func]));
    int64_t offset = shared["stackTable"]["prefixOffset"][stack];
    if (offset == 0) break;
    stack -= offset;
  }
  CHECK(names == std::vector<std::string>{"start", "0x100001234", "draw()"});
}

TEST_CASE("Firefox: frames keep their binaries as libraries, addresses from where they loaded") {
  ProfileGroup group = AppGroup();
  json file = json::parse(Written(group));
  const json& shared = file["shared"];
  std::map<std::string, json> libs;
  for (const json& lib : file["libs"]) libs[lib["name"]] = lib;
  REQUIRE(libs.count("App"));
  CHECK(libs["App"]["breakpadId"] == "1234000000000000000000000000ABCD0");
  CHECK(libs["App"]["arch"] == "arm64");
  CHECK(libs["dyld"]["breakpadId"] == "");
  for (size_t f = 0; f < shared["frameTable"]["length"]; ++f) {
    size_t func = shared["frameTable"]["func"][f];
    std::string name = StringAt(file, shared["funcTable"]["name"][func]);
    int64_t resource = shared["funcTable"]["resource"][func];
    if (resource < 0) {  // the intervals' labels, which no stack reaches
      CHECK((name == "Load feed — 3 items" || name == "Parse"));
      continue;
    }
    size_t lib = shared["resourceTable"]["lib"][resource];
    std::string category =
        file["meta"]["categories"][shared["frameTable"]["category"][f].get<size_t>()]["name"];
    INFO(name);
    if (name == "0x100001234") {
      CHECK(shared["frameTable"]["address"][f] == 0x1234);
      CHECK(file["libs"][lib]["name"] == "App");
      CHECK(category == "User");
    } else if (name == "draw()") {
      CHECK(shared["frameTable"]["address"][f] == -1);
      CHECK(shared["frameTable"]["line"][f] == 12);
      size_t source = shared["funcTable"]["source"][func];
      CHECK(StringAt(file, shared["sources"]["filename"][source]) == "/src/View.swift");
    } else {
      CHECK(category == "System");
      CHECK(shared["funcTable"]["source"][func] == nullptr);
    }
  }
}

TEST_CASE("Firefox: intervals are markers on their process's main thread, named by their name") {
  ProfileGroup group = AppGroup();
  json file = json::parse(Written(group));
  const json& markers = ThreadNamed(file, "Main Thread 0x1a")["markers"];
  REQUIRE(markers["length"] == 2);
  CHECK(StringAt(file, markers["name"][0]) == "Load feed");
  CHECK(StringAt(file, markers["name"][1]) == "Parse");
  CHECK(markers["startTime"] == json::array({0, 1}));
  CHECK(markers["endTime"] == json::array({4, 2}));
  CHECK(markers["phase"] == json::array({1, 1}));
  const json& data = markers["data"][0];
  CHECK(data["type"] == "os-signpost");
  CHECK(StringAt(file, data["label"]) == "Load feed — 3 items");
  CHECK(StringAt(file, data["source"]) == "Points of Interest — com.example.app");
  CHECK(StringAt(file, data["detail"]) == "3 items");
  CHECK_FALSE(markers["data"][1].contains("detail"));  // "Parse" has none
  REQUIRE(file["meta"]["markerSchema"].size() == 1);
  const json& schema = file["meta"]["markerSchema"][0];
  CHECK(schema["name"] == "os-signpost");
  CHECK(schema["fields"].size() == 3);
  CHECK(schema["fields"][2]["key"] == "detail");
  CHECK(ThreadNamed(file, "Worker 0x1b")["markers"]["length"] == 0);
}

TEST_CASE("Firefox: a thread's own intervals are markers on that thread") {
  ProfileBuilder builder;
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  auto worker = builder.InternThread(timeline, {"Worker 0x2", 2, "app", 42});
  REQUIRE(builder.AddSample(main, 0, 1000, kEmptyStack).ok());
  REQUIRE(builder.AddSample(worker, 0, 1000, kEmptyStack).ok());
  Source states{1, "thread-state", "Thread states — Worker 0x2", "app", 42};
  states.tid = 2;
  auto source = builder.AddIntervalSource(states);
  REQUIRE(builder.AddInterval(source, 0, 500, "Blocked", "Blocked").ok());
  auto group = std::move(builder).Build("x", "instrumentscope@test");
  REQUIRE(group.ok());
  json file = json::parse(Written(*group));
  CHECK(ThreadNamed(file, "Worker 0x2")["markers"]["length"] == 1);
  CHECK(ThreadNamed(file, "Main Thread 0x1")["markers"]["length"] == 0);
}

TEST_CASE("Firefox: a process with intervals and no thread gets a thread of markers alone") {
  ProfileBuilder builder;
  auto timeline = builder.AddTimeline(1, "time-profile", ValueUnit::kNanoseconds);
  auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
  REQUIRE(builder.AddSample(main, 0, 1000, kEmptyStack).ok());
  auto hangs =
      builder.AddIntervalSource(Source{1, "potential-hangs", "Hangs", "daemon", 7, {}, {}});
  REQUIRE(builder.AddInterval(hangs, 100, 900, "Hang", "Hang").ok());
  auto group = std::move(builder).Build("x", "instrumentscope@test");
  REQUIRE(group.ok());
  json file = json::parse(Written(*group));
  const json& intervals = ThreadNamed(file, "Intervals");
  CHECK(intervals["pid"] == "7");
  CHECK(intervals["processName"] == "daemon");
  CHECK(intervals["isMainThread"] == true);
  CHECK(intervals["samples"]["length"] == 0);
  CHECK(intervals["markers"]["length"] == 1);
  CHECK(intervals["markers"]["startTime"][0] == 0.0001);
}

TEST_CASE("Firefox: an Allocations recording's profiles are one thread of native allocations") {
  ProfileBuilder builder;
  auto timeline =
      builder.AddTimeline(1, "allocations", ValueUnit::kBytes, ProfileBuilder::TimeAxis::kShared,
                          {ProfileKind::kAllocations, "all allocations (bytes)"});
  auto process = builder.InternThread(timeline, {"All threads", 0, "app", 42});
  FrameId malloc_frame = builder.InternFrame({"malloc", "", "", std::nullopt});
  StackId stack = builder.InternStack(kEmptyStack, malloc_frame);
  REQUIRE(builder.AddSample(process, 10, 64, stack).ok());
  REQUIRE(builder.AddSample(process, 20, 32, stack).ok());
  HeapEvents heap;
  heap.pid = 42;
  heap.events.push_back({20000000, 0x2000, 32, stack, 7});
  heap.events.push_back({10, 0x1000, 64, stack, 7});  // out of time order: put in it
  heap.events.push_back({30000000, 0x1000, -64, stack, 8});
  REQUIRE(builder.AddHeapEvents(std::move(heap)).ok());
  auto group = std::move(builder).Build("x", "instrumentscope@test");
  REQUIRE(group.ok());
  json file = json::parse(Written(*group));
  REQUIRE(file["threads"].size() == 1);
  const json& thread = file["threads"][0];
  CHECK(thread["name"] == "All threads — heap allocations");
  CHECK(thread["samples"]["length"] == 0);
  const json& allocations = thread["nativeAllocations"];
  CHECK(allocations["weightType"] == "bytes");
  CHECK(allocations["weight"] == json::array({64, 32, -64}));
  CHECK(allocations["memoryAddress"] == json::array({0x1000, 0x2000, 0x1000}));
  CHECK(allocations["threadId"] == json::array({7, 7, 8}));
  CHECK(allocations["time"] == json::array({0.00001, 20, 30}));
  CHECK(file["meta"]["profilingEndTime"] == 31);  // a step past the last event
  CHECK(file["meta"]["initialVisibleThreads"] == json::array({0}));
}

TEST_CASE("Heap events count towards limits.maxSamples") {
  ProfileBuilder builder(/*max_samples=*/2);
  HeapEvents heap;
  for (int64_t i = 0; i < 3; ++i) heap.events.push_back({i, 0x1000, 8, kEmptyStack, 1});
  Status added = builder.AddHeapEvents(std::move(heap));
  CHECK(added.code() == ErrorCode::kLimitExceeded);
}

TEST_CASE("Firefox: runs lie one after another on the one timeline") {
  ProfileBuilder builder;
  for (uint32_t run : {1u, 2u}) {
    auto timeline = builder.AddTimeline(run, "time-profile", ValueUnit::kNanoseconds);
    auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
    FrameId frame = builder.InternFrame({"f", "", "", std::nullopt});
    StackId stack = builder.InternStack(kEmptyStack, frame);
    REQUIRE(builder.AddSample(main, 0, 3000000, stack).ok());
  }
  auto group = std::move(builder).Build("x", "instrumentscope@test");
  REQUIRE(group.ok());
  json file = json::parse(Written(*group));
  REQUIRE(file["threads"].size() == 2);
  CHECK(file["threads"][0]["pid"] == "42 (run 1)");
  CHECK(file["threads"][1]["pid"] == "42 (run 2)");
  CHECK(file["threads"][1]["samples"]["timeDeltas"][0] == 3);
  CHECK(file["threads"][1]["processStartupTime"] == 3);
  CHECK(file["meta"]["profilingEndTime"] == 6);
}

TEST_CASE("Firefox: the recording's start and Instruments' lines of its runs are in the metadata") {
  ProfileBuilder builder;
  for (uint32_t run : {2u, 3u}) {
    auto timeline = builder.AddTimeline(run, "time-profile", ValueUnit::kNanoseconds);
    auto main = builder.InternThread(timeline, {"Main Thread 0x1", 1, "app", 42});
    REQUIRE(builder.AddSample(main, 0, 1000, kEmptyStack).ok());
  }
  builder.AddRunInfo({2, 1589587740325000000, {"Target Model: MacBook Pro", "no colon"}});
  builder.AddRunInfo({3, 1589587800000000000, {}});
  builder.AddWarning(WarningCode::kIntervalsWithoutEnd, "3 of Hangs began and never ended");
  auto group = std::move(builder).Build("x", "instrumentscope@test");
  REQUIRE(group.ok());
  json meta = json::parse(Written(*group))["meta"];
  CHECK(meta["startTime"] == 1589587740325.0);  // the first run's: the timeline starts with it
  REQUIRE(meta["extra"].size() == 2);
  CHECK(meta["extra"][1]["label"] == "Run 2");
  CHECK(meta["extra"][1]["entries"][0] ==
        json({{"label", "Target Model"}, {"format", "string"}, {"value", "MacBook Pro"}}));
  CHECK(meta["extra"][1]["entries"][1]["label"] == "no colon");
  // Every warning, by its code: what the file holds less of than the recording.
  bool warned = false;
  for (const json& entry : meta["extra"][0]["entries"]) {
    warned = warned || (entry["label"] == "Warning INTERVALS_WITHOUT_END" &&
                        entry["value"] == "3 of Hangs began and never ended");
  }
  CHECK(warned);
}

TEST_CASE("Firefox: the writer stops when the sink does") {
  ProfileGroup group = AppGroup();
  size_t calls = 0;
  CHECK_FALSE(WriteFirefoxJson(group, [&calls](std::string_view) { return ++calls > 1; }));
}

std::string Gunzipped(const std::string& compressed) {
  z_stream stream{};
  REQUIRE(inflateInit2(&stream, 16 + MAX_WBITS) == Z_OK);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  char buffer[4096];
  int result;
  do {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
  } while (result == Z_OK);
  inflateEnd(&stream);
  CHECK(result == Z_STREAM_END);
  return out;
}

TEST_CASE("A gzipped output inflates to the same bytes") {
  ProfileGroup group = AppGroup();
  std::string compressed;
  GzipWriter gzip([&compressed](std::string_view piece) {
    compressed += piece;
    return true;
  });
  REQUIRE(WriteFirefoxJson(group, gzip.sink()));
  REQUIRE(gzip.Finish());
  CHECK(compressed.substr(0, 2) == "\x1f\x8b");
  CHECK(Gunzipped(compressed) == Written(group));
}

}  // namespace
}  // namespace instrumentscope::firefox
