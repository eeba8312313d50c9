// The importer against real exports and what other tools say about them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>

#include "formats/xctrace_xml/xml_importer.h"
#include "model/profile_builder.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::CorpusDir;
using testing::CorpusFileOrSkip;
using testing::ReadFile;

constexpr const char* kJmh =
    "openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/";
constexpr const char* kXctraceprof = "fzhinkin__xctraceprof/profiler/src/test/resources/";

// One exported row: sample time, weight, leaf symbol ("" for no backtrace).
using Row = std::tuple<int64_t, int64_t, std::string>;

// xctraceprof's per-row oracle: sampleTime;weight;leafAddress;leafSymbol;binary;[counters]
std::vector<Row> ReadOracle(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  std::istringstream lines(std::string(bytes.begin(), bytes.end()));
  std::vector<Row> rows;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    size_t time_end = line.find(';');
    size_t weight_end = line.find(';', time_end + 1);
    size_t address_end = line.find(';', weight_end + 1);
    // The symbol may hold ';' itself; the binary and counters after it do not.
    size_t counters_start = line.rfind(';');
    size_t binary_start = line.rfind(';', counters_start - 1);
    REQUIRE(address_end != std::string::npos);
    REQUIRE(binary_start >= address_end);
    rows.emplace_back(std::stoll(line.substr(0, time_end)),
                      std::stoll(line.substr(time_end + 1, weight_end - time_end - 1)),
                      line.substr(address_end + 1, binary_start - address_end - 1));
  }
  return rows;
}

// The rows as the importer hands them to the profile builder.
std::vector<Row> ImportRows(const std::string& path) {
  ProfileBuilder builder;
  ImportOptions options;
  auto importer = xctrace_xml::CreateImporter(builder, options);
  std::vector<uint8_t> bytes = ReadFile(path);
  REQUIRE(importer->Feed(ByteSpan(bytes.data(), bytes.size())).ok());
  Status finished = importer->Finish();
  INFO(finished.ToString());
  REQUIRE(finished.ok());
  std::vector<Row> rows;
  for (ProfileBuilder::ThreadId thread = 0; thread < builder.thread_count(); ++thread) {
    if (builder.content(thread).kind != ProfileKind::kThread) continue;  // a counter's view
    for (const auto& sample : builder.raw_samples(thread)) {
      std::string leaf = sample.stack == kEmptyStack
                             ? ""
                             : builder.frame(builder.stacks().frame[sample.stack]).name;
      rows.emplace_back(sample.time, sample.weight, leaf);
    }
  }
  return rows;
}

TEST_CASE("Every exported row's time, weight and leaf symbol agree with xctraceprof's oracle") {
  for (const char* dir : {kJmh, kXctraceprof}) {
    for (const char* name :
         {"time-profile", "time-profile.xcode12.5", "time-profile.xcode26.4.1", "cpu-profile",
          "cpu-profile.xcode26.4.1", "counters-profile", "counters-time-profile"}) {
      std::string base = std::string(dir) + name;
      auto csv = CorpusFileOrSkip(base + ".csv");
      if (!csv) return;
      if (!fs::exists(*csv)) continue;  // xctraceprof has no Xcode 12.5/26 files
      DYNAMIC_SECTION(base) {
        std::vector<Row> expected = ReadOracle(*csv);
        std::vector<Row> actual = ImportRows(*CorpusFileOrSkip(base + ".xml"));
        REQUIRE(expected.size() > 50);
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        CHECK(actual == expected);
      }
    }
  }
}

// Per counter, the sum of its counts over the oracle's rows (their last field).
std::vector<int64_t> OracleCounts(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  std::istringstream lines(std::string(bytes.begin(), bytes.end()));
  std::vector<int64_t> sums;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream counts(line.substr(line.rfind(';') + 1));
    size_t counter = 0;
    for (int64_t count; counts >> count; ++counter) {
      if (sums.size() <= counter) sums.push_back(0);
      sums[counter] += count;
    }
  }
  return sums;
}

TEST_CASE("Each performance counter of an export is a view weighing its counts, as the oracle's") {
  for (const char* name : {"counters-profile", "counters-time-profile"}) {
    std::string base = std::string(kJmh) + name;
    auto csv = CorpusFileOrSkip(base + ".csv");
    if (!csv) return;
    DYNAMIC_SECTION(name) {
      std::vector<int64_t> expected = OracleCounts(*csv);
      REQUIRE(!expected.empty());
      ProfileBuilder builder;
      ImportOptions defaults;  // the importer keeps a reference: it must outlive it
      auto importer = xctrace_xml::CreateImporter(builder, defaults);
      std::vector<uint8_t> bytes = ReadFile(*CorpusFileOrSkip(base + ".xml"));
      REQUIRE(importer->Feed(ByteSpan(bytes.data(), bytes.size())).ok());
      REQUIRE(importer->Finish().ok());
      std::vector<int64_t> actual(expected.size(), 0);
      for (ProfileBuilder::ThreadId thread = 0; thread < builder.thread_count(); ++thread) {
        const TimelineContent& content = builder.content(thread);
        if (content.kind == ProfileKind::kThread) continue;
        INFO(content.weighs);
        REQUIRE(content.weighs.rfind("counter ", 0) == 0);
        size_t counter = std::stoul(content.weighs.substr(8)) - 1;
        REQUIRE(counter < actual.size());
        for (const auto& sample : builder.raw_samples(thread)) actual[counter] += sample.weight;
      }
      CHECK(actual == expected);

      // Without intervals, one profile per thread: no counter's view.
      ProfileBuilder threads_only;
      ImportOptions options;
      options.intervals = false;
      auto plain = xctrace_xml::CreateImporter(threads_only, options);
      REQUIRE(plain->Feed(ByteSpan(bytes.data(), bytes.size())).ok());
      REQUIRE(plain->Finish().ok());
      for (ProfileBuilder::ThreadId thread = 0; thread < threads_only.thread_count(); ++thread) {
        CHECK(threads_only.content(thread).kind == ProfileKind::kThread);
      }
    }
  }
}

TEST_CASE("uniprof's export: the Main Thread spends its time in expensive_loop under main") {
  auto path = CorpusFileOrSkip("shadi-gamal__uniprof/tests/fixtures/test-simple-export.xml.gz");
  if (!path) return;
  auto group = testing::ImportBytes(ReadFile(*path));
  REQUIRE(group.ok());
  REQUIRE(group->profiles.size() == 1);
  const Profile& main_thread = group->profiles[0];
  CHECK(main_thread.name == "Main Thread 0x2b73e56 — test-simple (pid 49230)");
  CHECK(main_thread.sample_count == 518);
  int64_t expensive = 0;
  for (size_t i = 0; i < main_thread.samples.size(); ++i) {
    std::string stack = testing::StackText(*group, main_thread.samples[i]);
    if (stack == "start;main;expensive_loop") expensive += main_thread.weights[i];
  }
  CHECK(expensive == 515'000'000);  // 515 of 518 one-millisecond samples
  auto frame = std::find_if(group->frames.begin(), group->frames.end(),
                            [](const Frame& f) { return f.name == "expensive_loop"; });
  REQUIRE(frame != group->frames.end());
  CHECK(frame->file == "/Users/indragie/src/uniprof/test-simple.c");
  CHECK(frame->line == 6u);
}

TEST_CASE("Every xctrace export in the corpus imports, or says why it cannot") {
  auto dir = CorpusDir();
  if (!dir) {
    WARN("skipped: the shared corpus (../shared/corpus) is absent");
    return;
  }
  // Exports that hold no profile, and what they must say. (Exports of
  // intervals or page faults alone import as them: xml_intervals_test.cc.)
  const std::map<std::string, ErrorCode> expected_errors = {
      {"cpu-prof-toc.xml", ErrorCode::kXmlTableOfContents},
      {"mixed-toc.xml", ErrorCode::kXmlTableOfContents},
      {"pmc-toc.xml", ErrorCode::kXmlTableOfContents},
      {"time-prof-toc.xml", ErrorCode::kXmlTableOfContents},
      {"time-toc.xml", ErrorCode::kXmlTableOfContents},
  };
  int imported = 0, refused = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*dir)) {
    std::string path = entry.path().string();
    std::string name = entry.path().filename().string();
    bool is_export = (name.size() > 4 && name.substr(name.size() - 4) == ".xml") ||
                     (name.size() > 7 && name.substr(name.size() - 7) == ".xml.gz");
    // .trace bundles hold schema.xml files of their own: not exports.
    if (!entry.is_regular_file() || !is_export || path.find(".trace/") != std::string::npos) {
      continue;
    }
    INFO(path);
    auto group = testing::ImportBytes(ReadFile(path));
    auto expected = expected_errors.find(name);
    if (expected == expected_errors.end()) {
      INFO(group.status().ToString());
      CHECK(group.ok());
      if (group.ok()) CHECK(!group->profiles.empty());
      ++imported;
    } else {
      CHECK(group.status().code() == expected->second);
      CHECK(group.status().message().find("xctrace export --input") != std::string::npos);
      ++refused;
    }
  }
  CHECK(imported >= 16);
  CHECK(refused >= 10);
}

}  // namespace
}  // namespace instrumentscope
