// .trace bundles of Instruments 8.3.3 to 10.x (and 11.4.1, whose layout is
// the same) against speedscope's own import of them and against the corpus.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "base/text.h"
#include "container/file_tree.h"
#include "import/import.h"
#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;
using testing::ReadFile;
using testing::StackText;

constexpr const char* kSpeedscopeSamples = "jlfwong__speedscope/sample/profiles/Instruments/";

// The stacks of speedscope's snapshot "importFromInstrumentsTrace Instruments
// <version> 1": root first, in time order, consecutive repeats merged.
std::vector<std::string> SnapshotStacks(const std::string& snapshot, const std::string& version) {
  std::string key = "exports[`importFromInstrumentsTrace Instruments " + version + " 1`]";
  size_t start = snapshot.find("\"stacks\": [", snapshot.find(key));
  size_t end = snapshot.find("\n  ],", start);
  REQUIRE(start != std::string::npos);
  std::istringstream lines(snapshot.substr(start + 11, end - start - 11));
  std::vector<std::string> stacks;
  for (std::string line; std::getline(lines, line);) {
    size_t quote = line.find('"');
    if (quote == std::string::npos) continue;
    size_t close = line.rfind('"');
    // A JSON string: "<stack> <duration>".
    std::string entry =
        nlohmann::json::parse(line.substr(quote, close - quote + 1)).get<std::string>();
    std::string stack = entry.substr(0, entry.rfind(' '));
    if (!stack.empty()) stacks.push_back(stack);
  }
  return stacks;
}

std::vector<std::string> Split(const std::string& stack) {
  std::vector<std::string> frames;
  std::istringstream parts(stack);
  for (std::string frame; std::getline(parts, frame, ';');) frames.push_back(frame);
  return frames;
}

TEST_CASE("speedscope's import of the 8.3.3, 9.3.1 and 10.0 bundles is reproduced") {
  auto snapshot_path =
      CorpusFileOrSkip("jlfwong__speedscope/src/import/__snapshots__/instruments.test.ts.snap");
  if (!snapshot_path) return;
  std::vector<uint8_t> snapshot_bytes = ReadFile(*snapshot_path);
  std::string snapshot(snapshot_bytes.begin(), snapshot_bytes.end());
  // speedscope skips the last symbol of each process (a defect), so it prints
  // these functions as addresses; everything else must match exactly.
  const std::map<std::string, std::pair<size_t, std::string>> cases = {
      {"8.3.3", {5, "mach_vm_deallocate"}},
      {"9.3.1", {1, "ImageLoaderMachO::doModInitFunctions(ImageLoader::LinkContext const&)"}},
      {"10.0",
       {1,
        "TSFNTFont::GetName(unsigned short, unsigned short, unsigned short, unsigned short) "
        "const"}},
  };
  const std::regex padded_address("0x[0-9a-f]{16}");
  for (const auto& [version, named] : cases) {
    DYNAMIC_SECTION(version) {
      std::vector<std::string> expected = SnapshotStacks(snapshot, version);
      auto group = testing::ImportBytes(ReadFile(*CorpusFileOrSkip(
          std::string(kSpeedscopeSamples) + version + "/simple-time-profile.trace.zip")));
      INFO(group.status().ToString());
      REQUIRE(group.ok());
      const Profile& busiest = group->profiles[group->active_profile_index];
      CHECK(StartsWith(busiest.name, "Main Thread 0x"));

      // speedscope weighs a sample by the gap before it, so the first sample
      // weighs nothing and is missing from its dump.
      std::vector<std::string> actual;
      bool first = true;
      for (StackId stack : busiest.samples.ToVector()) {
        if (stack == kEmptyStack) continue;
        if (first) {
          first = false;
          continue;
        }
        std::string text = StackText(*group, stack);
        if (actual.empty() || actual.back() != text) actual.push_back(text);
      }
      REQUIRE(actual.size() == expected.size());
      REQUIRE(actual.size() > 90);

      size_t named_here = 0;
      for (size_t i = 0; i < actual.size(); ++i) {
        std::vector<std::string> want = Split(expected[i]);
        // speedscope prints the "no address" slot 0xffff…fe as 0x1000…0 (a
        // rounding defect); it is no frame.
        want.erase(std::remove(want.begin(), want.end(), "0x10000000000000000"), want.end());
        std::vector<std::string> got = Split(actual[i]);
        INFO("stack " << i << "\n  speedscope: " << expected[i] << "\n  ours:       " << actual[i]);
        REQUIRE(got.size() == want.size());
        for (size_t f = 0; f < got.size(); ++f) {
          if (got[f] == want[f]) continue;
          REQUIRE(std::regex_match(want[f], padded_address));
          if (StartsWith(got[f], "0x")) {
            CHECK(std::stoull(got[f], nullptr, 16) == std::stoull(want[f], nullptr, 16));
          } else {
            CHECK(got[f] == named.second);
            ++named_here;
          }
        }
      }
      CHECK(named_here == named.first);
    }
  }
}

struct Expectation {
  std::string input;
  ErrorCode code = ErrorCode::kOk;  // kOk: imports
  size_t profiles = 0;
  std::string active;   // name of the active profile
  std::string warning;  // a warning code expected
};

TEST_CASE("A CPU Counters bundle: its runs' samples, weighed as recorded, and a view per counter") {
  auto path = CorpusFileOrSkip("nealsid__emacs-module-wrapper-template/Instruments.trace");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  // counters-profile rows that are no padding, counted by the Python reader:
  // 1 in each of runs 1 to 14, none in 15 to 18, 206 in run 19, 68 in run 20.
  std::map<uint32_t, uint64_t> samples, counted;
  std::map<uint32_t, ValueUnit> units;
  for (const Profile& profile : group->profiles) {
    if (profile.kind == ProfileKind::kThread) {
      samples[profile.run] += profile.sample_count;
      units[profile.run] = profile.unit;
    } else if (profile.kind == ProfileKind::kWeighted) {
      CHECK(profile.name.find("counter 1") != std::string::npos);
      CHECK(profile.unit == ValueUnit::kNone);
      counted[profile.run] += profile.sample_weight;
    }
  }
  std::map<uint32_t, uint64_t> expected;
  for (uint32_t run = 1; run <= 14; ++run) expected[run] = 1;
  expected[19] = 206;
  expected[20] = 68;
  CHECK(samples == expected);
  // Runs 1 to 14 sample on a counter's overflow (weights of XRPMCEventTypeID:
  // every 1,000,000 events in runs 1 to 11, 50 in 12 to 14); runs 19 and 20
  // every 1 ms (XRTimeSampleWeightTypeID), their counts a counter's view.
  CHECK(units[1] == ValueUnit::kNone);
  CHECK(units[19] == ValueUnit::kNanoseconds);
  CHECK(counted.size() == 2);
  CHECK(counted[19] == 9840207);
  CHECK(counted[20] == 335766);
  size_t tables = 0;
  for (const TableSummary& table : group->tables) {
    if (table.schema != "counters-profile") continue;
    ++tables;
    CHECK(table.has_cpu_samples);  // read, empty or not
  }
  CHECK(tables == 20);
  CHECK(testing::WarningMessages(*group, "COUNTERS_UNNAMED") ==
        std::vector<std::string>{
            "the counters-profile table of run 19 names its 1 performance counter by number "
            "(\"counter 1\"): which events each counts is not read; the counters-profile table of "
            "run 20 names its 1 performance counter by number (\"counter 1\"): which events each "
            "counts is not read"});

  // Without intervals, one profile per thread: no counter's view.
  ImportOptions options;
  options.intervals = false;
  auto threads_only = testing::ImportPath(*path, options);
  REQUIRE(threads_only.ok());
  for (const Profile& profile : threads_only->profiles) CHECK(profile.kind == ProfileKind::kThread);
  CHECK(threads_only->profiles.size() == 21);
}

TEST_CASE("Every bundle in the corpus imports, or says why it cannot") {
  const std::vector<Expectation> expectations = {
      {"jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-time-profile.trace.zip",
       ErrorCode::kOk, 1, "Main Thread 0x3c1feee — simple (pid 26200)", ""},
      {"jlfwong__speedscope/sample/profiles/Instruments/9.3.1/simple-time-profile.trace.zip",
       ErrorCode::kOk, 1, "Main Thread 0x5a2eb — simple (pid 44723)", ""},
      {"jlfwong__speedscope/sample/profiles/Instruments/10.0/simple-time-profile.trace.zip",
       ErrorCode::kOk, 6, "Main Thread 0x1cdacb — demo.app (pid 6532)", ""},
      {"axe-org__TraceUtility/TestBlock/Instruments.trace", ErrorCode::kOk, 5,
       "Main Thread 0x298692 — TestBlock.app (pid 7946)", ""},
      {"IvanCaldwell__ios-astronomy-performance/Instruments.trace", ErrorCode::kOk, 109,
       "Main Thread 0x1b40f8 — pid 55564 — run 1", "NO_FORM_TEMPLATE"},
      {"MulliganKyle__Thesis-EvaluationTool/Instruments4.trace", ErrorCode::kOk, 7963,
       "Thread 0x28791d — pid 2235", "NO_FORM_TEMPLATE"},  // a thread per task
      {"Ricks__Strux/Instruments.trace", ErrorCode::kOk, 10,
       "_dispatch_worker_thread2 0x461f64 — StruxMacApp.app (pid 18689)", ""},
      {"shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip", ErrorCode::kOk, 1,
       "Main Thread 0x2b73e56 — test-simple (pid 49230)", ""},
      // Allocations (Instruments 7 to 9): profiles of bytes and counts, all
      // allocations opening first.
      {"jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-allocations.trace.zip",
       ErrorCode::kOk, 0, "All threads — simple (pid 26616) — all allocations (bytes)", ""},
      {"jlfwong__speedscope/sample/profiles/Instruments/9.3.1/random-allocations.trace.zip",
       ErrorCode::kOk, 0, "All threads — random (pid 55126) — all allocations (bytes)", ""},
      {"jlfwong__speedscope/sample/profiles/Instruments/7.3.1/random-allocations.trace.zip",
       ErrorCode::kOk, 0, "All threads — random (pid 32976) — all allocations (bytes)", ""},
      {"jlfwong__speedscope/sample/cpp/allocations.trace", ErrorCode::kOk, 0,
       "All threads — sample (pid 73856) — all allocations (bytes)", ""},
      {"EricSlick__hello_world_utility/Instruments.trace", ErrorCode::kBundleNoSamples},
      {"nishadchenicheri__MemoryIssues/Instruments1.trace", ErrorCode::kBundleNoSamples},
      {"OSzhou__XCTraceParser/trace/yuan_whole_class.trace", ErrorCode::kBundleNoSamples},
      // The legacy Time Profiler (Instruments 4.5 to 9.2): a profile per thread.
      {"jlfwong__speedscope/sample/profiles/Instruments/7.3.1/simple-time-profile.trace.zip",
       ErrorCode::kOk, 1, "Main Thread 0xadcf50 — simple (pid 32747)", ""},
      {"jlfwong__speedscope/sample/cpp/timeprofile.trace", ErrorCode::kOk, 1,
       "Main Thread 0x8f25e3 — sample (pid 73923)", ""},
      {"MulliganKyle__Thesis-EvaluationTool/Instruments2.trace", ErrorCode::kOk, 3990,
       "Main Thread 0x2ea807 — Thesis-Evaluation-Tool (pid 2260)", ""},
      {"MulliganKyle__Thesis-EvaluationTool/Instruments3.trace", ErrorCode::kOk, 1145,
       "Main Thread 0x34ef96 — Thesis-Evaluation-Tool (pid 2325)", ""},
      // Run 6 lacks its run archive: runs 2 to 5 import, with a warning.
      {"zapko__Tiles/Instruments3.trace", ErrorCode::kOk, 47,
       "Main Thread 0x7d755 — TilesForYandex (pid 7532) — run 2", "LEGACY_RUN_UNREADABLE"},
      // CPU Counters (13+): its 20 runs, without form.template.
      {"nealsid__emacs-module-wrapper-template/Instruments.trace", ErrorCode::kOk, 21,
       "Thread 0x23d5c7 \xE2\x80\x94 pid 24554 \xE2\x80\x94 run 1", "NO_FORM_TEMPLATE"},
  };
  for (const Expectation& expected : expectations) {
    auto path = CorpusFileOrSkip(expected.input);
    if (!path) return;
    INFO(expected.input);
    auto group = testing::ImportPath(*path);
    INFO(group.status().ToString());
    if (expected.code != ErrorCode::kOk) {
      CHECK(group.status().code() == expected.code);
      continue;
    }
    REQUIRE(group.ok());
    if (expected.profiles) CHECK(testing::ThreadProfiles(*group) == expected.profiles);
    if (!expected.active.empty()) {
      CHECK(group->profiles[group->active_profile_index].name == expected.active);
    }
    bool warned = expected.warning.empty();
    for (const Warning& warning : group->warnings)
      warned = warned || warning.code == expected.warning;
    CHECK(warned);
  }
}

TEST_CASE("Bundles without samples name their instruments") {
  auto path = CorpusFileOrSkip("EricSlick__hello_world_utility/Instruments.trace");
  if (!path) return;
  Status status = testing::ImportPath(*path).status();
  CHECK(status.code() == ErrorCode::kBundleNoSamples);
  CHECK_THAT(status.message(), Catch::Contains("its instruments: Automation") &&
                                   Catch::Contains("Allocations for memory"));
}

TEST_CASE("An Allocations recording that lost its events says where they were") {
  // The published copy of this recording lacks Trace1.run/event_data_444.oa.
  auto path = CorpusFileOrSkip("nishadchenicheri__MemoryIssues/Instruments1.trace");
  if (!path) return;
  Status status = testing::ImportPath(*path).status();
  CHECK(status.code() == ErrorCode::kBundleNoSamples);
  CHECK(status.message() ==
        "this recording's Allocations events (Trace<N>.run/event_data_<pid>.oa) are not in this "
        "copy of it (its instruments: Allocations, Leaks); copy the whole .trace folder, or "
        "export a Deep Copy of its call tree");
}

TEST_CASE("A form.template whose objects share one dictionary is read in bounded time") {
  // 3 000 objects all referring to one 3 000-key dictionary: reading each
  // would cost 9 million steps; the reader's budget stops it and says so.
  auto group = testing::ImportBytes(
      ReadFile(testing::SourcePath("tests/malformed/bundle-form-shared-dictionary.zip")));
  REQUIRE(group.ok());
  bool warned = false;
  for (const Warning& warning : group->warnings) {
    warned = warned || (warning.code == "FORM_TEMPLATE_DAMAGED" &&
                        warning.message.find("refer to one another") != std::string::npos);
  }
  CHECK(warned);
}

TEST_CASE("A run with data only in run 2, and runs picked by number") {
  auto path = CorpusFileOrSkip("axe-org__TraceUtility/TestBlock/Instruments.trace");
  if (!path) return;
  auto group = testing::ImportFolder(*path);
  REQUIRE(group.ok());
  for (const Profile& profile : group->profiles) CHECK(profile.run == 2);
  // Symbols from form.template, file and line included.
  bool has_source = std::any_of(group->frames.begin(), group->frames.end(),
                                [](const Frame& frame) { return frame.line.has_value(); });
  CHECK(has_source);

  ImportOptions run1;
  run1.run = 1;
  Status missing = testing::ImportFolder(*path, run1).status();
  CHECK(missing.code() == ErrorCode::kRunNotFound);
  CHECK(missing.message() == "this recording has no run 1; it has runs 2");
}

TEST_CASE("Four runs without a form.template: every run, addresses as names") {
  auto path = CorpusFileOrSkip("IvanCaldwell__ios-astronomy-performance/Instruments.trace");
  if (!path) return;
  auto group = testing::ImportFolder(*path);
  REQUIRE(group.ok());
  std::set<uint32_t> runs;
  for (const Profile& profile : group->profiles) runs.insert(profile.run);
  CHECK(runs == std::set<uint32_t>{1, 2, 3, 4});
  CHECK(group->profiles[group->active_profile_index].run == 1);
  for (const Frame& frame : group->frames) CHECK(StartsWith(frame.name, "0x"));

  // Every stack here is two uniquer parts, the root-side one shared: run 4's
  // stacks, root first, as the importer gave them before it reused those
  // parts (FNV-1a of each profile's name and its samples' stacks, a line each).
  uint64_t hash = 0xcbf29ce484222325;
  auto feed = [&hash](const std::string& text) {
    for (unsigned char byte : text) hash = (hash ^ byte) * 0x100000001b3;
  };
  size_t samples = 0;
  for (const Profile& profile : group->profiles) {
    if (profile.run != 4 || profile.kind != ProfileKind::kThread) continue;
    feed(profile.name + "\n");
    profile.samples.ForEach([&](StackId stack) {
      feed(testing::StackText(*group, stack) + "\n");
      ++samples;
    });
  }
  CHECK(samples == 2348);
  CHECK(hash == 0x68fceb1b3d9ff41a);

  ImportOptions run3;
  run3.run = 3;
  auto third = testing::ImportFolder(*path, run3);
  REQUIRE(third.ok());
  for (const Profile& profile : third->profiles) CHECK(profile.run == 3);
  CHECK(third->profiles[third->active_profile_index].name.find(" — run") == std::string::npos);
}

TEST_CASE("A bundle zipped and the same bundle as a folder give one profile") {
  auto path =
      CorpusFileOrSkip(std::string(kSpeedscopeSamples) + "9.3.1/simple-time-profile.trace.zip");
  if (!path) return;
  std::vector<uint8_t> zip_bytes = ReadFile(*path);
  ImportOptions options;
  options.name = "simple-time-profile.trace.zip";
  auto from_zip = testing::ImportBytes(zip_bytes, options);
  REQUIRE(from_zip.ok());

  // The zip's members handed over as a folder's files, with the junk.
  auto archive = std::make_shared<const std::vector<uint8_t>>(zip_bytes);
  auto tree = ZipTree::Open(archive, Limits{});
  REQUIRE(tree.ok());
  Import import(options);
  const std::vector<std::string>& members = (*tree)->paths();
  std::vector<bool> wanted = Import::WantedFiles(members);
  for (size_t i = 0; i < members.size(); ++i) {
    auto bytes = (*tree)->Read(members[i]);
    REQUIRE(bytes.ok());
    REQUIRE(import.AddFile(members[i], wanted[i] ? **bytes : std::vector<uint8_t>{}).ok());
  }
  auto from_folder = import.Finish();
  REQUIRE(from_folder.ok());
  std::ostringstream a, b;
  speedscope::WriteJson(*from_zip, a);
  speedscope::WriteJson(*from_folder, b);
  CHECK(a.str() == b.str());
}

// A run's start is the run dictionary's startTime (ns since 1970); 8.3.3 to
// 11.4.1 also keep Instruments' summary of it, the lines its inspector shows,
// and 16.0 and 26.0 the same facts as an XRRunInfo's fields.
TEST_CASE("A run's start time and Instruments' summary of it are read") {
  struct Case {
    std::string input;
    int64_t start_time;
    std::vector<std::string> some_facts;
  };
  std::vector<Case> cases = {
      {"Ricks__Strux/Instruments.trace",
       1589587740325273088,
       {"Target Model: MacBook Pro", "Target macOS: 10.15.3 (19D76)",
        "Instruments: 11.4.1 (11E503a)"}},
      {std::string(kSpeedscopeSamples) + "8.3.3/simple-time-profile.trace.zip",
       1525842657580993280,
       {"Start Time: May 8, 2018, 10:10:57 PM", "Instruments: 8.3.3 (8E3004b)"}},
      {std::string(kSpeedscopeSamples) + "7.3.1/simple-time-profile.trace.zip",
       1526542026897586944,
       {}},
      // 16.0 and 26.0: an XRRunInfo's fields, in the same lines.
      {"shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip",
       1753325305026389248,
       {"Target macOS: 15.5 (24F74)", "End reason: Target app exited", "Instruments: 16.0 (16F6)"}},
      {"benjaminRomano__mperf/src/test/resources/example.trace.zip",
       1759532933844298752,
       {"Target Model: Simulated iPhone 17 Pro", "Target iOS Simulator: 26.0 (23A343)",
        "Host macOS: 15.6 (24G84)", "Instruments: 26.0 (17A400)"}},
  };
  for (const Case& test : cases) {
    auto path = CorpusFileOrSkip(test.input);
    if (!path) return;
    INFO(test.input);
    auto group = testing::ImportPath(*path);
    REQUIRE(group.ok());
    REQUIRE(group->run_info.size() == 1);
    const RunInfo& info = group->run_info[0];
    CHECK(info.run == 1);
    CHECK(info.start_time == test.start_time);
    for (const std::string& fact : test.some_facts) {
      CHECK(std::find(info.facts.begin(), info.facts.end(), fact) != info.facts.end());
    }
    CHECK(info.facts.empty() == test.some_facts.empty());
  }
}

}  // namespace
}  // namespace instrumentscope
