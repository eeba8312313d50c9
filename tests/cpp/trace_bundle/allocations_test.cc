// Allocations recordings (Instruments 7 to 9): the bytes still alive at the
// end of 7.3.1's recording against its Deep Copy, row by row; every
// recording's profiles against counts the test takes from the event records
// itself; damaged and hostile events; a recording of both Time Profiler and
// Allocations runs.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"
#include "zip_writer.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::CorpusFileOrSkip;

const std::string kSamples = "jlfwong__speedscope/sample/profiles/Instruments/";
const std::string kRandom731 = kSamples + "7.3.1/random-allocations.trace.zip";
const std::string kSimple833 = kSamples + "8.3.3/simple-allocations.trace.zip";
const std::string kRandom931 = kSamples + "9.3.1/random-allocations.trace.zip";
const std::string kSampleCpp = "jlfwong__speedscope/sample/cpp/allocations.trace";

const Profile* ProfileEndingWith(const ProfileGroup& group, const std::string& suffix) {
  for (const Profile& profile : group.profiles) {
    if (profile.name.size() >= suffix.size() &&
        profile.name.compare(profile.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return &profile;
    }
  }
  return nullptr;
}

struct TreeRow {
  double bytes = 0;  // MiB in the Deep Copy
  uint64_t count = 0;
};

// "start;main;delta()" → its total and count, for every row of a call tree.
using CallTree = std::map<std::string, TreeRow>;

// The Deep Copy's rows: " 429.93 MB     100.0%\t84671\t \tstart", one space
// of indent per level before the name.
CallTree ReadDeepCopy(const std::string& text) {
  CallTree tree;
  std::vector<std::string> path;
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::vector<std::string> columns;
    std::istringstream fields(line);
    for (std::string field; std::getline(fields, field, '\t');) columns.push_back(field);
    REQUIRE(columns.size() == 4);
    double megabytes = std::stod(columns[0]);
    REQUIRE(columns[0].find("MB") != std::string::npos);
    size_t depth = columns[3].find_first_not_of(' ');
    path.resize(depth);
    path.push_back(columns[3].substr(depth));
    std::string key;
    for (const std::string& name : path) key += (key.empty() ? "" : ";") + name;
    tree[key] = TreeRow{megabytes, std::stoull(columns[1])};
  }
  return tree;
}

// A profile's call tree: each stack's weight and sample count, added to every prefix.
CallTree TreeOf(const ProfileGroup& group, const Profile& profile) {
  CallTree tree;
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    std::vector<std::string> names;
    for (StackId stack = profile.samples[i]; stack != kEmptyStack;
         stack = group.stacks.parent[stack]) {
      names.insert(names.begin(), group.frames[group.stacks.frame[stack]].name);
    }
    std::string key;
    for (const std::string& name : names) {
      key += (key.empty() ? "" : ";") + name;
      tree[key].bytes += static_cast<double>(profile.weights[i]) / (1 << 20);
      ++tree[key].count;
    }
  }
  return tree;
}

TEST_CASE("7.3.1: the bytes still alive at the end are the Deep Copy's call tree, row by row") {
  auto trace = CorpusFileOrSkip(kRandom731);
  auto copy = CorpusFileOrSkip(kSamples + "7.3.1/random-allocations-deep-copy.txt");
  if (!trace || !copy) return;
  std::vector<uint8_t> text = testing::ReadFile(*copy);
  CallTree expected = ReadDeepCopy(std::string(text.begin(), text.end()));
  REQUIRE(expected.size() == 26);
  CHECK(expected["start"].count == 84671);

  auto group = testing::ImportPath(*trace);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const Profile* alive = ProfileEndingWith(*group, "still alive at the end (bytes)");
  REQUIRE(alive);
  CHECK(alive->unit == ValueUnit::kBytes);
  CHECK(alive->kind == ProfileKind::kAllocations);
  CallTree actual = TreeOf(*group, *alive);
  // The same rows: every stack, and nothing else.
  std::vector<std::string> expected_rows, actual_rows;
  for (const auto& entry : expected) expected_rows.push_back(entry.first);
  for (const auto& entry : actual) actual_rows.push_back(entry.first);
  CHECK(actual_rows == expected_rows);
  for (const auto& [row, want] : expected) {
    INFO(row);
    const TreeRow& got = actual[row];
    CHECK(got.count == want.count);
    // The Deep Copy rounds to two decimals of a MB (2^20 bytes).
    CHECK(std::abs(got.bytes - want.bytes) <= 0.005 + 1e-9);
  }
  // Counted, the same stacks.
  const Profile* counted = ProfileEndingWith(*group, "still alive at the end (count)");
  REQUIRE(counted);
  CHECK(counted->unit == ValueUnit::kNone);
  CHECK(counted->sample_weight == 84671);
}

// What a recording's event records say, read here at the offsets FORMAT.md
// gives: heap allocations (type 16) and VM regions (24), all and never freed.
struct EventTotals {
  uint64_t heap = 0, heap_bytes = 0, alive = 0, alive_bytes = 0;
  uint64_t vm = 0, vm_bytes = 0, vm_alive = 0, vm_alive_bytes = 0;
};

EventTotals Totals(const std::string& oa) {
  EventTotals totals;
  uint32_t start = static_cast<uint32_t>(testing::Get({oa.begin(), oa.begin() + 32}, 12, 4));
  for (size_t at = start; at + 56 <= oa.size(); at += 56) {
    std::vector<uint8_t> record(oa.begin() + at, oa.begin() + at + 56);
    uint64_t type = testing::Get(record, 32, 4), size = testing::Get(record, 24, 4);
    bool freed = testing::Get(record, 52, 4) != 0xFFFFFFFF;
    if (type == 16) {
      ++totals.heap;
      totals.heap_bytes += size;
      if (!freed) ++totals.alive, totals.alive_bytes += size;
    } else if (type == 24) {
      ++totals.vm;
      totals.vm_bytes += size;
      if (!freed) ++totals.vm_alive, totals.vm_alive_bytes += size;
    }
  }
  return totals;
}

// The events file of a zipped recording.
std::string EventsOf(const std::string& zip) {
  std::string events;
  testing::ZipRewritten(zip, [&events](const std::string& name, std::string& data) {
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".oa") == 0) events = data;
    return true;
  });
  return events;
}

void CheckTotals(const ProfileGroup& group, const EventTotals& want) {
  auto check = [&group](const std::string& suffix, uint64_t count, uint64_t weight) {
    INFO(suffix);
    const Profile* profile = ProfileEndingWith(group, suffix);
    REQUIRE(profile);
    CHECK(profile->sample_count == count);
    CHECK(static_cast<uint64_t>(profile->sample_weight) == weight);
  };
  check("all allocations (bytes)", want.heap, want.heap_bytes);
  check("still alive at the end (bytes)", want.alive, want.alive_bytes);
  check("all allocations (count)", want.heap, want.heap);
  check("still alive at the end (count)", want.alive, want.alive);
  check("VM regions mapped (bytes)", want.vm, want.vm_bytes);
  check("VM regions still mapped at the end (bytes)", want.vm_alive, want.vm_alive_bytes);
  // The same events one by one: each free frees, by its address, a block
  // allocated before it and not yet freed, and what no free frees is alive.
  for (const HeapEvents& heap : group.heaps) {
    bool vm = heap.kind == HeapKind::kVmRegions;
    INFO((vm ? "VM regions" : "heap"));
    std::map<uint64_t, int64_t> live;  // address → bytes
    uint64_t allocations = 0, bytes = 0, frees = 0;
    int64_t last_time = INT64_MIN;
    heap.events.ForEach([&](const HeapEvent& event) {
      CHECK(event.time >= last_time);
      last_time = event.time;
      if (event.bytes > 0) {
        ++allocations;
        bytes += static_cast<uint64_t>(event.bytes);
        live[event.address] = event.bytes;
        return;
      }
      ++frees;
      auto freed = live.find(event.address);
      REQUIRE(freed != live.end());
      CHECK(freed->second == -event.bytes);
      live.erase(freed);
    });
    CHECK(allocations == (vm ? want.vm : want.heap));
    CHECK(bytes == (vm ? want.vm_bytes : want.heap_bytes));
    CHECK(live.size() == (vm ? want.vm_alive : want.alive));
    CHECK(frees == allocations - live.size());
  }
  CHECK(group.heaps.size() == (want.vm ? 2 : 1));
}

TEST_CASE("Every Allocations recording's profiles hold its events") {
  for (const std::string& input : {kRandom731, kSimple833, kRandom931}) {
    auto path = CorpusFileOrSkip(input);
    if (!path) return;
    INFO(input);
    auto group = testing::ImportPath(*path);
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    // VM Tracker ran beside Allocations in each, and is not read.
    CHECK(testing::WarningMessages(*group, "INSTRUMENT_NOT_READ") ==
          std::vector<std::string>{"the VM Tracker instrument's recording is not read: its "
                                   "snapshots of the process's VM regions are in no profile"});
    CHECK(group->warnings.size() == 1);
    EventTotals want = Totals(EventsOf(*path));
    CHECK(want.heap > 0);
    CheckTotals(*group, want);
    const Profile& active = group->profiles[group->active_profile_index];
    CHECK(active.name.find("all allocations (bytes)") != std::string::npos);
  }
  auto folder = CorpusFileOrSkip(kSampleCpp);
  if (!folder) return;
  auto group = testing::ImportPath(*folder);
  REQUIRE(group.ok());
  std::vector<uint8_t> events = testing::ReadFile(*folder + "/Trace3.run/event_data_73856.oa");
  EventTotals want = Totals(std::string(events.begin(), events.end()));
  // 7,500 blocks of 1 MiB, each in a MALLOC_LARGE region of its own.
  CHECK(want.alive == 7500);
  CHECK(want.vm_alive == 7501);
  CheckTotals(*group, want);
}

// The 8.3.3 recording with its events file edited.
Result<ProfileGroup> WithEvents833(const std::string& zip,
                                   const std::function<void(std::string&)>& edit) {
  return testing::ImportBytes(
      testing::ZipRewritten(zip, [&edit](const std::string& name, std::string& data) {
        if (name.size() > 3 && name.compare(name.size() - 3, 3, ".oa") == 0) edit(data);
        return true;
      }));
}

void PutU32(std::string& data, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) data[at + i] = static_cast<char>(value >> (8 * i));
}

TEST_CASE("Damaged and unknown Allocations events") {
  auto zip = CorpusFileOrSkip(kSimple833);
  if (!zip) return;
  // Imported once for every section (Catch2 runs this part again for each).
  static const Result<ProfileGroup> whole = testing::ImportPath(*zip);
  REQUIRE(whole.ok());
  const uint64_t all = ProfileEndingWith(*whole, "all allocations (count)")->sample_count;
  const uint64_t alive = ProfileEndingWith(*whole, "still alive at the end (count)")->sample_count;
  static const std::string events = EventsOf(*zip);
  // The one free and its allocation, found by their links, and a block never freed.
  size_t free_at = 0, allocation_at = 0, alive_at = 0;
  for (size_t at = 4096; at + 56 <= events.size(); at += 56) {
    std::vector<uint8_t> record(events.begin() + at, events.begin() + at + 56);
    uint64_t type = testing::Get(record, 32, 4);
    if (type == 19) free_at = at;
    if (type == 16 && testing::Get(record, 52, 4) == 0xFFFFFFFF && !alive_at) alive_at = at;
  }
  REQUIRE(free_at);
  REQUIRE(alive_at);
  uint32_t allocation =
      static_cast<uint32_t>(testing::Get({events.begin() + free_at, events.end()}, 48, 4));
  allocation_at = 4096 + 56 * static_cast<size_t>(allocation);

  SECTION("an event of a kind not read is said, and left out") {
    auto group = WithEvents833(*zip, [&](std::string& data) { PutU32(data, alive_at + 32, 17); });
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    auto unread = testing::WarningMessages(*group, "ALLOCATION_EVENTS_NOT_READ");
    REQUIRE(unread.size() == 1);
    CHECK(unread[0] ==
          "1 Allocations events of run 1 are of kinds this version does not read (type 17 ×1): "
          "they are in no profile");
    CHECK(ProfileEndingWith(*group, "all allocations (count)")->sample_count == all - 1);
  }
  SECTION("a process's threads are taken together, and counted") {
    auto group =
        WithEvents833(*zip, [&](std::string& data) { PutU32(data, alive_at + 36, 0x1234); });
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    const Profile* together = ProfileEndingWith(*group, "all allocations (count)");
    CHECK(together->sample_count == all);
    CHECK(together->threads == 2);
    CHECK(together->thread_name == "All threads");
    CHECK(ProfileEndingWith(*whole, "all allocations (count)")->threads == 1);
  }
  SECTION("a free of a block allocated before the recording is in no profile") {
    auto group = WithEvents833(*zip, [&](std::string& data) {
      PutU32(data, allocation_at + 52, 0xFFFFFFFF);  // the block is never freed…
      PutU32(data, free_at + 48, 0xFFFFFFFF);        // …and the free frees an earlier one
    });
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    CHECK(group->warnings.size() == whole->warnings.size());
    CHECK(ProfileEndingWith(*group, "still alive at the end (count)")->sample_count == alive + 1);
  }
  SECTION("a free of a block that names no free fails, naming the event and the file") {
    auto group = WithEvents833(
        *zip, [&](std::string& data) { PutU32(data, allocation_at + 52, 0xFFFFFFFF); });
    REQUIRE(!group.ok());
    CHECK(group.status().code() == ErrorCode::kBundleCorrupt);
    CHECK(group.status().path() == "simple-allocations.trace/Trace1.run/event_data_26616.oa");
    CHECK(*group.status().offset() == free_at);
    CHECK_THAT(group.status().message(), Catch::Contains("which does not name it as its free"));
  }
  SECTION("a free of a block allocated after it fails") {
    auto group = WithEvents833(*zip, [&](std::string& data) {
      PutU32(data, free_at + 48, static_cast<uint32_t>((alive_at - 4096) / 56));
    });
    REQUIRE(!group.ok());
    CHECK_THAT(group.status().message(), Catch::Contains("is paired with event"));
    CHECK(*group.status().offset() == free_at);
  }
  SECTION("an allocation whose free is no free of it fails") {
    auto group = WithEvents833(*zip, [&](std::string& data) { PutU32(data, free_at + 32, 16); });
    REQUIRE(!group.ok());
    CHECK(group.status().code() == ErrorCode::kBundleCorrupt);
    CHECK_THAT(group.status().message(), Catch::Contains("which is no free of it"));
  }
  SECTION("a pair that points outside the recording fails") {
    auto group =
        WithEvents833(*zip, [&](std::string& data) { PutU32(data, allocation_at + 52, 1u << 30); });
    REQUIRE(!group.ok());
    CHECK_THAT(group.status().message(), Catch::Contains("is paired with event 1073741824"));
    CHECK(*group.status().offset() == allocation_at);
  }
  SECTION("events cut short fail, saying how many the shared data counts") {
    auto group = WithEvents833(*zip, [](std::string& data) { data.resize(4096 + 56 * 10); });
    REQUIRE(!group.ok());
    CHECK(group.status().code() == ErrorCode::kBundleCorrupt);
    CHECK_THAT(group.status().message(),
               Catch::StartsWith("the shared data counts") &&
                   Catch::Contains("more than the file's 4656 bytes hold"));
  }
  SECTION("events of another size fail") {
    auto group = WithEvents833(*zip, [](std::string& data) { PutU32(data, 0x10, 48); });
    REQUIRE(!group.ok());
    CHECK(group.status().message() == "the records are 48 bytes, the shared data says 56");
  }
}

TEST_CASE("Allocations without their shared data say where it should be") {
  auto zip = CorpusFileOrSkip(kSimple833);
  if (!zip) return;
  auto group = testing::ImportBytes(testing::ZipWithout(*zip, "shared_data/"));
  REQUIRE(!group.ok());
  CHECK(group.status().code() == ErrorCode::kBundleCorrupt);
  CHECK(group.status().path() == "simple-allocations.trace/shared_data/1.run/");
  CHECK_THAT(group.status().message(), Catch::Contains("XRObjectAllocRunSharedData"));
}

TEST_CASE("A recording of both Time Profiler and Allocations runs gives both") {
  // One program's two recordings (Instruments 7, one machine), made one:
  // the Time Profiler's run 1, the Allocations' run 3.
  auto time_profile = CorpusFileOrSkip("jlfwong__speedscope/sample/cpp/timeprofile.trace");
  auto allocations = CorpusFileOrSkip(kSampleCpp);
  if (!time_profile || !allocations) return;
  testing::ScratchCopy bundle(*time_profile);
  fs::copy(*allocations + "/Trace3.run", bundle / "Trace3.run", fs::copy_options::recursive);
  fs::copy(*allocations + "/shared_data/3.run", bundle / "shared_data/3.run",
           fs::copy_options::recursive);
  auto group = testing::ImportFolder(bundle.path());
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(group->warnings.empty());
  CHECK(testing::ThreadProfiles(*group) == 1);
  // CPU samples open first.
  CHECK(group->profiles[group->active_profile_index].kind == ProfileKind::kThread);
  const Profile* alive = ProfileEndingWith(*group, "run 3 — still alive at the end (bytes)");
  REQUIRE(alive);
  CHECK(alive->sample_count == 7500);
  // Named from the Allocations run's own symbols: the Time Profiler's
  // form.template knows only its own process.
  CHECK(testing::StackText(*group, alive->samples[0]) ==
        "start;main;foo();bar();leakMemory();malloc;malloc_zone_malloc");
}

}  // namespace
}  // namespace instrumentscope
