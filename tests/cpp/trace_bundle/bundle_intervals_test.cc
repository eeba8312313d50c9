// Intervals and events read from .trace bundles (signposts, thermal states,
// life cycle periods, app spins, run loop iterations): counts checked against
// an independent decoder of the same bytes (the research pass's Python
// reader, whose per-name counts are quoted here), the CPU profiles unchanged
// by reading them, a recording of intervals alone imported as its
// intervals, and a damaged interval table costing only itself.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "container/inflate.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::CorpusFileOrSkip;

constexpr const char* kStrux = "Ricks__Strux/Instruments.trace";  // Instruments 11.4.1
constexpr const char* kLoops = "modplug__loops/profile.trace";    // Xcode 26.2
constexpr const char* kMperf =
    "benjaminRomano__mperf/src/test/resources/example.trace.zip";  // 26.0

struct IntervalCounts {
  uint64_t intervals = 0;  // with a duration
  uint64_t points = 0;     // zero long
};

// Per interval name (a label up to " — " or ": ", a run loop's before its
// mode), what the evented profiles
// of `table` hold.
std::map<std::string, IntervalCounts> CountsByName(const ProfileGroup& group,
                                                   const std::string& table) {
  std::map<std::string, IntervalCounts> counts;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kIntervals || profile.table != table) continue;
    std::vector<int64_t> open;
    for (const IntervalEvent& event : profile.events) {
      if (event.open) {
        open.push_back(event.at);
        continue;
      }
      REQUIRE(!open.empty());
      int64_t start = open.back();
      open.pop_back();
      std::string name = group.frames[event.frame].name;
      name = name.substr(0, std::min(name.find(" \xE2\x80\x94 "), name.find(": ")));
      if (table == "runloop-events") name = name.substr(0, name.find(" ("));  // its mode
      (event.at == start ? counts[name].points : counts[name].intervals)++;
    }
  }
  return counts;
}

const IntervalSource* SourceNamed(const ProfileGroup& group, const std::string& name) {
  for (const IntervalSource& source : group.interval_sources) {
    if (source.name == name) return &source;
  }
  return nullptr;
}

// The CPU profiles (threads and their views) by name, with their samples' count and weight.
std::map<std::string, std::pair<uint64_t, int64_t>> CpuProfiles(const ProfileGroup& group) {
  std::map<std::string, std::pair<uint64_t, int64_t>> profiles;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kThread) continue;
    profiles[profile.name] = {profile.sample_count, profile.sample_weight};
  }
  return profiles;
}

ImportOptions WithoutIntervals() {
  ImportOptions options;
  options.intervals = false;
  return options;
}

TEST_CASE("Strux (Instruments 11.4.1): signposts as points, thermal states, life cycle, a spin") {
  auto path = CorpusFileOrSkip(kStrux);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());

  // 186 os-signpost rows, all Events: 93 SubmitRtpScan, each followed by a
  // SubmitScan, of Malwarebytes' daemon (pid 202, named by form.template).
  auto signposts = CountsByName(*group, "os-signpost");
  CHECK(signposts.size() == 2);
  CHECK(signposts["SubmitRtpScan"].points == 93);
  CHECK(signposts["SubmitRtpScan"].intervals == 0);
  CHECK(signposts["SubmitScan"].points == 93);
  CHECK(signposts["SubmitScan"].intervals == 0);
  const IntervalSource* scans =
      SourceNamed(*group, "Points of Interest \xE2\x80\x94 Protection.ScanConveyor");
  REQUIRE(scans);
  CHECK(scans->process_label == "RTProtectionDaemon (pid 202)");
  CHECK(scans->intervals == 93);
  CHECK(SourceNamed(*group, "Points of Interest \xE2\x80\x94 Protection.RuleMonitor"));
  // Messages from the typed arrays, the exclusive id left out.
  bool has_message = false;
  for (const Frame& frame : group->frames) {
    has_message =
        has_message || frame.name == "SubmitScan: source=realTimeProtection, rulesCount=5";
  }
  CHECK(has_message);

  const IntervalSource* thermal = SourceNamed(*group, "Thermal state");
  REQUIRE(thermal);
  CHECK(thermal->intervals == 3);
  const IntervalSource* life_cycle = SourceNamed(*group, "Life cycle");
  REQUIRE(life_cycle);
  CHECK(life_cycle->intervals == 12);
  CHECK(life_cycle->process_label == "StruxMacApp.app (pid 18689)");
  const IntervalSource* spins = SourceNamed(*group, "App spins");
  REQUIRE(spins);
  CHECK(spins->intervals == 1);
  CHECK(CountsByName(*group, "app-spin")["spin-start"].points == 1);
  // region-of-interest repeats the os-signpost rows: not read twice.
  for (const IntervalSource& source : group->interval_sources) {
    CHECK(source.table != "region-of-interest");
  }
  for (const TableSummary& table : group->tables) {
    bool read = table.schema == "os-signpost" && table.rows > 0;
    read = read || table.schema == "device-thermal-state-intervals" ||
           table.schema == "life-cycle-period" || table.schema == "app-spin";
    CHECK(table.has_intervals == read);
  }
}

TEST_CASE("Strux: the CPU profiles are the same with intervals read or not") {
  auto path = CorpusFileOrSkip(kStrux);
  if (!path) return;
  auto with = testing::ImportPath(*path);
  auto without = testing::ImportPath(*path, WithoutIntervals());
  REQUIRE(with.ok());
  REQUIRE(without.ok());
  CHECK(CpuProfiles(*with) == CpuProfiles(*without));
  CHECK(without->interval_sources.empty());
  for (const Profile& profile : without->profiles) CHECK(profile.kind == ProfileKind::kThread);
  for (const TableSummary& table : without->tables) CHECK(!table.has_intervals);
  CHECK(testing::WarningMessages(*without, "INTERVALS_CLIPPED").empty());
}

TEST_CASE("loops (Xcode 26.2): a recording of signposts alone imports as its intervals") {
  auto path = CorpusFileOrSkip(kLoops);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(CpuProfiles(*group).empty());

  // 18,634 rows: 6,398 Begins, 6,329 Ends, 5,907 Events. Pairing gives 6,324
  // intervals (each also a row of Instruments' own os-signpost-interval),
  // 74 Begins never ended (SLSTransaction) and 5 Ends never begun.
  auto counts = CountsByName(*group, "os-signpost");
  uint64_t intervals = 0, points = 0;
  for (const auto& [name, count] : counts) {
    intervals += count.intervals;
    points += count.points;
  }
  CHECK(intervals == 6324 + 74 + 5);
  CHECK(points == 5907);
  CHECK(counts["Commit"].intervals == 1832 + 106);  // Transaction and Transaction.Stalls
  CHECK(counts["UpdateSequence"].intervals == 1284 + 127);
  CHECK(counts["EventDispatch"].intervals == 1253);
  CHECK(counts["IdleWork"].intervals == 1141);
  CHECK(counts["ScrollMainThreadInterval"].intervals == 523);
  CHECK(counts["ScrollGesture"].intervals == 16);
  CHECK(counts["interaction_tracking"].intervals == 16);
  CHECK(counts["generatePeaks"].intervals == 10);
  CHECK(counts["PerfLoggingOperation"].intervals == 6);
  CHECK(counts["SLSTransaction"].intervals == 74);
  CHECK(counts["engineStart"].intervals == 1);
  CHECK(counts["UpdateTiming"].points == 1411);
  CHECK(counts["ImageQueueInsert"].points == 1282);

  auto unended = testing::WarningMessages(*group, "INTERVALS_WITHOUT_END");
  REQUIRE(unended.size() == 1);
  CHECK(unended[0].rfind("74 of Signposts \xE2\x80\x94 com.apple.SkyLight / slstransaction", 0) ==
        0);
  // The ends of launch signposts begun before the recording: kept, from its start.
  // One warning for both sources, the busier first.
  CHECK(testing::WarningMessages(*group, "INTERVALS_WITHOUT_BEGIN") ==
        std::vector<std::string>{
            "5 intervals of 2 sources ended without beginning in the recording (begun before it "
            "started); drawn from the start of run 1: 3 of Signposts \xE2\x80\x94 "
            "com.apple.app_launch_measurement / ApplicationLaunch \xE2\x80\x94 Loops (pid 33993), "
            "2 of Signposts \xE2\x80\x94 com.apple.launchservices / applaunch \xE2\x80\x94 Loops "
            "(pid 33993)"});
  CHECK(counts["ApplicationLaunch"].intervals == 1);

  const IntervalSource* transactions =
      SourceNamed(*group, "Signposts \xE2\x80\x94 com.apple.coreanimation / Transaction");
  REQUIRE(transactions);
  CHECK(transactions->process_label == "Loops (pid 33993)");  // from process-info
  CHECK(transactions->intervals == 1832);

  // os-signpost-interval repeats the pairs: listed, not read.
  for (const TableSummary& table : group->tables) {
    if (table.schema == "os-signpost-interval") {
      CHECK(!table.has_intervals);
      CHECK(table.rows == 6398);
    }
    if (table.schema == "os-signpost") CHECK(table.has_intervals);
  }
}

TEST_CASE("loops without intervals: no samples, as before") {
  auto path = CorpusFileOrSkip(kLoops);
  if (!path) return;
  auto group = testing::ImportPath(*path, WithoutIntervals());
  REQUIRE(!group.ok());
  CHECK(group.status().code() == ErrorCode::kBundleNoSamples);
}

TEST_CASE("mperf (Instruments 26.0): a thermal state and run loop iterations") {
  auto path = CorpusFileOrSkip(kMperf);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const IntervalSource* thermal = SourceNamed(*group, "Thermal state");
  REQUIRE(thermal);
  CHECK(thermal->intervals == 1);
  CHECK(CountsByName(*group, "device-thermal-state-intervals")["Nominal"].intervals == 1);
  // runloop-events: 2,449 starts, 2,445 ends on 3 threads; 4 still open.
  auto runloop = CountsByName(*group, "runloop-events");
  CHECK(runloop["individual_iteration"].intervals + runloop["individual_iteration"].points == 1216);
  CHECK(runloop["waiting_for_events"].intervals + runloop["waiting_for_events"].points == 1190);
  CHECK(runloop["runloop_run"].intervals + runloop["runloop_run"].points == 43);
  auto open = testing::WarningMessages(*group, "INTERVALS_WITHOUT_END");
  REQUIRE(open.size() == 1);
  CHECK_THAT(open[0], Catch::StartsWith("4 intervals of 2 sources began and never ended in the "
                                        "recording; drawn to the end of run 1: 3 of Run loop "
                                        "iterations \xE2\x80\x94 com.apple.uikit.eventfetch-thread "
                                        "0x793f \xE2\x80\x94 perftestexample (pid 5376), 1 of "));
  const IntervalSource* main =
      SourceNamed(*group, "Run loop iterations \xE2\x80\x94 Main Thread 0x76a8");
  REQUIRE(main);
  CHECK(main->lanes == 1);  // runs hold iterations, which hold their waits

  auto without = testing::ImportPath(*path, WithoutIntervals());
  REQUIRE(without.ok());
  CHECK(CpuProfiles(*group) == CpuProfiles(*without));
}

TEST_CASE("8.3.3: the life cycle table's interval topology is laid out from its schema") {
  auto path = CorpusFileOrSkip(
      "jlfwong__speedscope/sample/profiles/Instruments/8.3.3/"
      "simple-time-profile.trace.zip");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  // Its 30-byte rows (an 18-byte topology and three columns) used to be refused.
  CHECK(testing::WarningMessages(*group, "TABLE_UNREADABLE").empty());
  bool listed = false;
  for (const TableSummary& table : group->tables) {
    if (table.schema != "life-cycle-period") continue;
    listed = true;
    CHECK(table.rows == 0);  // the recording has none
  }
  CHECK(listed);
}

TEST_CASE("A System Trace without form.template: one warning per kind, saying only what is lost") {
  auto path = CorpusFileOrSkip("BA-Partners__Documents/Untitled.trace");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  std::set<std::string> codes;
  for (const Warning& warning : group->warnings) {
    INFO(warning.code);
    CHECK(codes.insert(warning.code).second);
  }
  // Run loop iterations of 23 threads still open at the end: one line.
  auto unended = testing::WarningMessages(*group, "INTERVALS_WITHOUT_END");
  REQUIRE(unended.size() == 1);
  CHECK_THAT(
      unended[0],
      Catch::StartsWith("64 intervals of 23 sources began and never ended in the "
                        "recording; drawn to the end of run 1: 3 of Run loop iterations "
                        "\xE2\x80\x94 Main Thread 0x20dfe6 \xE2\x80\x94 Safari (pid 93499), ") &&
          Catch::EndsWith(" and 20 other sources"));
  // Its process-info table names every process; its system calls' and page
  // faults' frames are addresses without the image lists.
  CHECK(testing::WarningMessages(*group, "NO_FORM_TEMPLATE") ==
        std::vector<std::string>{
            "the bundle has no form.template: frames show addresses, not symbols (the bundle's "
            "symbols/ are placed by its image lists); the instruments that recorded it are not "
            "known"});
  for (const IntervalSource& source : group->interval_sources) {
    INFO(source.name);
    CHECK((source.pid < 0 || source.process_name != ""));
  }
}

TEST_CASE("An interval whose duration is all ones never ended: drawn to the end of its run") {
  auto path = CorpusFileOrSkip(kStrux);
  if (!path) return;
  auto whole = testing::ImportPath(*path);
  REQUIRE(whole.ok());
  const IntervalSource* life_cycle = SourceNamed(*whole, "Life cycle");
  REQUIRE(life_cycle);

  // Strux's life-cycle-period rows (indexed-store-22, a zlib stream): 34
  // bytes from 0x1000, the 18-byte topology first, its duration in bits
  // 50-99. The last row (from 15.8 s, for 155.6 s) gets a duration of all
  // ones, as an Instruments 26 recording stores a period still going when
  // it stopped; the bulkstore is written back plain, which is read as well.
  testing::ScratchCopy copy(*path);
  std::string bulkstore = copy / "corespace/run1/core/stores/indexed-store-22/bulkstore";
  std::vector<uint8_t> compressed = testing::ReadFile(bulkstore);
  auto inflated =
      Inflate(ByteSpan(compressed.data(), compressed.size()), InflateFormat::kZlib, 1 << 20);
  REQUIRE(inflated.ok());
  std::vector<uint8_t> rows = std::move(*inflated);
  const size_t row = 0x1000 + 11 * 34;
  REQUIRE(rows.size() > row + 34);
  for (size_t bit = 50; bit < 100; ++bit) rows[row + bit / 8] |= uint8_t(1u << (bit % 8));
  testing::WriteFile(bulkstore, std::string(rows.begin(), rows.end()));

  auto group = testing::ImportPath(copy.path());
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  // The table is kept, every interval of it.
  CHECK(testing::WarningMessages(*group, "TABLE_UNREADABLE").empty());
  const IntervalSource* patched = SourceNamed(*group, "Life cycle");
  REQUIRE(patched);
  CHECK(patched->intervals == life_cycle->intervals);
  CHECK(testing::WarningMessages(*group, "INTERVALS_WITHOUT_END") ==
        std::vector<std::string>{"1 of Life cycle \xE2\x80\x94 StruxMacApp.app (pid 18689) began "
                                 "and never ended in the recording; drawn to the end of run 1"});
  // It runs to the end of the run, the end of every profile of the run: the
  // end the row had (the period after it ends with it), not 2^50 ns later.
  int64_t run_end = group->profiles[group->active_profile_index].end_value;
  CHECK(run_end == whole->profiles[whole->active_profile_index].end_value);
  CHECK(run_end == 15831041594 + 155627519349);
  bool open_to_the_end = false;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kIntervals || profile.table != "life-cycle-period") continue;
    CHECK(profile.end_value == run_end);
    std::vector<int64_t> open;
    for (const IntervalEvent& event : profile.events) {
      if (event.open) {
        open.push_back(event.at);
      } else {
        open_to_the_end = open_to_the_end || (open.back() == 15831041594 && event.at == run_end);
        open.pop_back();
      }
    }
  }
  CHECK(open_to_the_end);
}

void CutShort(const std::string& path, size_t size) {
  std::vector<uint8_t> bytes = testing::ReadFile(path);
  REQUIRE(bytes.size() > size);
  testing::WriteFile(path, std::string(bytes.begin(), bytes.begin() + size));
}

TEST_CASE("A damaged interval table costs only its intervals") {
  auto path = CorpusFileOrSkip(kStrux);
  if (!path) return;
  auto whole = testing::ImportPath(*path);
  REQUIRE(whole.ok());

  SECTION("the os-signpost bulkstore cut short") {
    testing::ScratchCopy copy(*path);
    CutShort(copy / "corespace/run1/core/stores/indexed-store-16/bulkstore", 200);
    auto group = testing::ImportPath(copy.path());
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    CHECK(CpuProfiles(*group) == CpuProfiles(*whole));
    auto left_out = testing::WarningMessages(*group, "TABLE_UNREADABLE");
    REQUIRE(left_out.size() == 1);
    CHECK(left_out[0].find("the os-signpost table of run 1 left out") == 0);
    CHECK(left_out[0].find("indexed-store-16/bulkstore") != std::string::npos);
    // The other tables' intervals stay; region-of-interest, which repeats the
    // lost signposts, stands in for them.
    CHECK(SourceNamed(*group, "Thermal state"));
    CHECK(SourceNamed(*group, "Life cycle"));
    auto regions = CountsByName(*group, "region-of-interest");
    // 1 ns long each; those after the samples' end are cut to points there.
    CHECK(regions["SubmitScan"].intervals + regions["SubmitScan"].points == 93);
    CHECK(CountsByName(*group, "os-signpost").empty());
  }

  SECTION("the messages' typed arrays missing") {
    testing::ScratchCopy copy(*path);
    fs::remove(copy / "corespace/run1/core/uniquing/typedArrayUniquer/integeruniquer.data");
    auto group = testing::ImportPath(copy.path());
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    CHECK(CpuProfiles(*group) == CpuProfiles(*whole));
    CHECK(testing::WarningMessages(*group, "MESSAGES_UNREADABLE").size() == 1);
    // Labelled with their format strings instead.
    bool has_format = false;
    for (const Frame& frame : group->frames) {
      has_format = has_format || frame.name == "SubmitScan: source=%{public}s, rulesCount=%d";
    }
    CHECK(has_format);
    CHECK(CountsByName(*group, "os-signpost")["SubmitScan"].points == 93);
  }
}

}  // namespace
}  // namespace instrumentscope
