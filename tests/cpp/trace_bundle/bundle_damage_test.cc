// Bundles that reach users half-copied: corpus bundles with one file of one
// run deleted or cut short import the other runs exactly as the whole bundle
// does, with a BUNDLE_PART_UNREADABLE warning naming the file and the run; a
// bundle whose only run is damaged fails as it always did.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "container/inflate.h"
#include "import/import.h"
#include "test_support.h"
#include "zip_writer.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::CorpusFileOrSkip;
using testing::ReadFile;

constexpr const char* kFourRuns = "IvanCaldwell__ios-astronomy-performance/Instruments.trace";
// Its time-profile table, the same store in every run.
constexpr const char* kTimeProfileStore = "core/stores/indexed-store-17/";

// Keeps the first `size` bytes of the file.
void CutShort(const std::string& path, size_t size) {
  std::vector<uint8_t> bytes = ReadFile(path);
  REQUIRE(bytes.size() > size);
  testing::WriteFile(path, std::string(bytes.begin(), bytes.begin() + size));
}

// A run's profiles, each as its thread, process and a hash of its samples'
// stacks (frame names, root first) and weights, in order: equal when the
// run's samples are, whatever ids the import gave frames and stacks.
std::map<std::string, std::pair<uint64_t, size_t>> RunProfiles(const ProfileGroup& group,
                                                               uint32_t run) {
  constexpr uint64_t kPrime = 0x100000001b3;
  auto mix = [](uint64_t hash, uint64_t value) { return (hash ^ value) * kPrime; };
  std::vector<uint64_t> stack_hashes(group.stacks.size());
  for (size_t s = 0; s < group.stacks.size(); ++s) {
    StackId parent = group.stacks.parent[s];
    uint64_t hash = parent == kEmptyStack ? 0xcbf29ce484222325 : stack_hashes[parent];
    for (unsigned char byte : group.frames[group.stacks.frame[s]].name) hash = mix(hash, byte);
    stack_hashes[s] = mix(hash, ';');
  }
  std::map<std::string, std::pair<uint64_t, size_t>> profiles;
  for (const Profile& profile : group.profiles) {
    if (profile.run != run || profile.kind != ProfileKind::kThread) continue;
    uint64_t hash = 0xcbf29ce484222325;
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      StackId stack = profile.samples[i];
      hash = mix(hash, stack == kEmptyStack ? 0 : stack_hashes[stack]);
      hash = mix(hash, static_cast<uint64_t>(profile.weights[i]));
    }
    std::string thread = profile.thread_name + " — " + profile.process_name + " (pid " +
                         std::to_string(profile.pid) + ")";
    REQUIRE(profiles.emplace(thread, std::make_pair(hash, profile.samples.size())).second);
  }
  return profiles;
}

std::vector<std::string> PartWarnings(const ProfileGroup& group) {
  return testing::WarningMessages(group, "BUNDLE_PART_UNREADABLE");
}

// The samples of a run (gaps between them included), whatever its threads are named.
size_t RunSamples(const ProfileGroup& group, uint32_t run) {
  size_t samples = 0;
  for (const auto& [thread, profile] : RunProfiles(group, run)) samples += profile.second;
  return samples;
}

// The rows the table summary lists for `schema` in `run`; nullopt when it is not listed.
std::optional<uint64_t> ListedRows(const ProfileGroup& group, uint32_t run,
                                   const std::string& schema) {
  for (const TableSummary& table : group.tables) {
    if (table.run == run && table.schema == schema) return table.rows;
  }
  return std::nullopt;
}

// A file of the bundle as its reader sees it: inflated when it is a zlib stream.
std::vector<uint8_t> Inflated(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  if (!LooksLikeZlib(ByteSpan(bytes.data(), bytes.size()))) return bytes;
  auto inflated = Inflate(ByteSpan(bytes.data(), bytes.size()), InflateFormat::kZlib, 1u << 30);
  REQUIRE(inflated.ok());
  return inflated.take();
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  testing::WriteFile(path, std::string(bytes.begin(), bytes.end()));
}

// The folder's files as a zip, each under `prefix`.
std::vector<uint8_t> ZipFolder(const std::string& folder, const std::string& prefix) {
  std::vector<testing::Member> members;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::vector<uint8_t> bytes = ReadFile(entry.path().string());
    members.push_back({prefix + fs::relative(entry.path(), folder).generic_string(),
                       std::string(bytes.begin(), bytes.end())});
  }
  return testing::WriteZip(members);
}

TEST_CASE("A run of four without its uniquer is left out; the other three import as whole") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());
  CHECK(PartWarnings(*whole).empty());

  testing::ScratchCopy bundle(*corpus);
  fs::remove(bundle / "corespace/run2/core/uniquing/arrayUniquer/integeruniquer.data");
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged) ==
        std::vector<std::string>{
            "run 2 left out: corespace/run2/core/uniquing/arrayUniquer/integeruniquer.data is "
            "missing (its 253,393 samples' threads and backtraces)"});
  CHECK(RunProfiles(*damaged, 2).empty());
  for (uint32_t run : {1, 3, 4}) {
    INFO("run " << run);
    CHECK(!RunProfiles(*whole, run).empty());
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
  // The run imported first is still the one that opens.
  CHECK(damaged->profiles[damaged->active_profile_index].name ==
        whole->profiles[whole->active_profile_index].name);
}

TEST_CASE("A bulkstore cut short and a schema.xml cut short cost their runs only") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  std::string bulkstore = std::string("corespace/run3/") + kTimeProfileStore + "bulkstore";
  std::string schema = std::string("corespace/run4/") + kTimeProfileStore + "schema.xml";
  CutShort(bundle / bulkstore, fs::file_size(bundle / bulkstore) / 2);
  CutShort(bundle / schema, fs::file_size(bundle / schema) / 2);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  // One warning for both parts, in the order they were found: the schemas
  // are read first, every table's, then the tables.
  std::vector<std::string> warnings = PartWarnings(*damaged);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::StartsWith("a table of run 4 left out: " + schema +
                                            " is damaged (which table indexed-store-17 is, and "
                                            "its rows: run 4's samples, if they are there): "));
  CHECK_THAT(warnings[0],
             Catch::Contains("; run 3 left out: " + bulkstore + " is damaged (its samples): "));
  CHECK(RunProfiles(*damaged, 3).empty());
  CHECK(RunProfiles(*damaged, 4).empty());
  for (uint32_t run : {1, 2}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
}

TEST_CASE("A legacy run whose samples are cut short is left out; the other imports as whole") {
  auto corpus = CorpusFileOrSkip("jlfwong__speedscope/sample/cpp/timeprofile.trace");
  if (!corpus) return;
  // A second run: the first's sample file and run archive, numbered 2.
  testing::ScratchCopy bundle(*corpus);
  const std::string uuid = "4C48231D-3012-454B-8C3F-014FEF176501";
  std::string samples = "Trace2.run/" + uuid + "-sampler.data";
  fs::create_directory(bundle / "Trace2.run");
  fs::copy_file(bundle / ("Trace1.run/" + uuid + "-sampler.data"), bundle / samples);
  fs::copy_file(bundle / ("instrument_data/" + uuid + "/run_data/1.run.zip"),
                bundle / ("instrument_data/" + uuid + "/run_data/2.run.zip"));
  auto whole = testing::ImportFolder(bundle.path());
  REQUIRE(whole.ok());
  REQUIRE(!RunProfiles(*whole, 2).empty());

  CutShort(bundle / samples, 5000);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged) ==
        std::vector<std::string>{
            "run 2 left out: " + samples +
            " is damaged (its 513 samples): BUNDLE_CORRUPT: the run archive counts 513 records "
            "of 28 bytes after a 4096-byte header, more than the file's 5000 bytes hold (at "
            "byte 4096)"});
  CHECK(RunProfiles(*damaged, 2).empty());
  CHECK(RunProfiles(*damaged, 1) == RunProfiles(*whole, 1));
}

constexpr const char* kRun2Uniquer = "corespace/run2/core/uniquing/arrayUniquer/";

TEST_CASE("A store without its schema.xml is left out with a warning naming the file") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  std::string schema = std::string("corespace/run2/") + kTimeProfileStore + "schema.xml";
  fs::remove(bundle / schema);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged) ==
        std::vector<std::string>{"a table of run 2 left out: " + schema +
                                 " is missing (which table indexed-store-17 is, and its rows: "
                                 "run 2's samples, if they are there)"});
  CHECK(RunProfiles(*damaged, 2).empty());
  CHECK(!RunProfiles(*whole, 2).empty());
  for (uint32_t run : {1, 3, 4}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
}

TEST_CASE("A run without its strings file loses its thread names, with a warning") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  fs::remove(bundle / "corespace/run2/core/uniquing/strings");
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged).empty());
  CHECK(testing::WarningMessages(*damaged, "THREAD_NAMES_UNREADABLE") ==
        std::vector<std::string>{"the thread-name table of run 2 left out: "
                                 "corespace/run2/core/uniquing/strings is missing (run 2's "
                                 "thread names)"});
  // The samples stay, under threads named by their tids; the names the
  // whole bundle gives them are gone.
  CHECK(RunSamples(*damaged, 2) == RunSamples(*whole, 2));
  CHECK(RunProfiles(*damaged, 2) != RunProfiles(*whole, 2));
  for (uint32_t run : {1, 3, 4}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
  // The table is still listed with its rows.
  CHECK(ListedRows(*damaged, 2, "thread-name") == ListedRows(*whole, 2, "thread-name"));
}

TEST_CASE("A uniquer index that cannot be read is done without: the arrays are found by scanning") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  std::string index = std::string(kRun2Uniquer) + "integeruniquer.index";
  std::vector<uint8_t> bytes = Inflated(bundle / index);
  REQUIRE(bytes.size() > 40);
  std::fill(bytes.begin(), bytes.begin() + 4, 0);  // no magic
  WriteBytes(bundle / index, bytes);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged) ==
        std::vector<std::string>{"run 2's uniquer index left out: " + index +
                                 " is damaged (where run 2's arrays are: they are found by "
                                 "scanning integeruniquer.data instead): BUNDLE_CORRUPT: "
                                 "integeruniquer.index has no 0x01234567 magic (at byte 0)"});
  for (uint32_t run : {1, 2, 3, 4}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
}

TEST_CASE("A uniquer cut short: its error names the uniquer, not a row of the bulkstore") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  // Without an index the data is scanned; cut short, it lacks arrays rows name.
  std::string data = std::string(kRun2Uniquer) + "integeruniquer.data";
  fs::remove(bundle / (std::string(kRun2Uniquer) + "integeruniquer.index"));
  std::vector<uint8_t> bytes = Inflated(bundle / data);
  bytes.resize(bytes.size() / 8);
  WriteBytes(bundle / data, bytes);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  std::vector<std::string> warnings = PartWarnings(*damaged);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::StartsWith("run 2 left out: " + data +
                                            " is damaged (its 253,393 samples' threads and "
                                            "backtraces): BUNDLE_CORRUPT: array "));
  CHECK_THAT(warnings[0], !Catch::Contains("(row ") && !Catch::Contains("bulkstore"));
  CHECK(RunProfiles(*damaged, 2).empty());
  for (uint32_t run : {1, 3, 4}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
}

TEST_CASE("Tables that only name or are only listed cost one warning each, with their code") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  // Run 3's thread-name table and run 1's time-sample table, cut short; run
  // 1's without its descriptor, which would count its rows unread.
  std::string names = "corespace/run3/core/stores/indexed-store-12/bulkstore";
  std::string listed = "corespace/run1/core/stores/indexed-store-10/bulkstore";
  CutShort(bundle / names, fs::file_size(bundle / names) / 2);
  CutShort(bundle / listed, fs::file_size(bundle / listed) / 2);
  fs::remove(bundle / "corespace/run1/core/stores/indexed-store-10/bulkstore_descriptor");
  // Run 2's time-sample table, cut short: it is only listed, with the rows
  // its descriptor counts, and not inflated at all.
  std::string counted = "corespace/run2/core/stores/indexed-store-10/bulkstore";
  CutShort(bundle / counted, fs::file_size(bundle / counted) / 2);
  auto damaged = testing::ImportFolder(bundle.path());
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  CHECK(PartWarnings(*damaged).empty());
  std::vector<std::string> name_warnings =
      testing::WarningMessages(*damaged, "THREAD_NAMES_UNREADABLE");
  REQUIRE(name_warnings.size() == 1);  // not one more for its row count
  CHECK_THAT(name_warnings[0], Catch::StartsWith("the thread-name table of run 3 left out: " +
                                                 names + " is damaged (run 3's thread names): "));
  std::vector<std::string> table_warnings = testing::WarningMessages(*damaged, "TABLE_UNREADABLE");
  REQUIRE(table_warnings.size() == 1);
  CHECK_THAT(table_warnings[0],
             Catch::StartsWith("the time-sample table of run 1 left out: " + listed +
                               " is damaged (its row count: it is listed with 0 rows): "));
  CHECK(ListedRows(*damaged, 3, "thread-name") == uint64_t{0});
  CHECK(ListedRows(*damaged, 1, "time-sample") == uint64_t{0});
  CHECK(ListedRows(*damaged, 2, "time-sample") == ListedRows(*whole, 2, "time-sample"));
  CHECK(ListedRows(*whole, 2, "time-sample") == uint64_t{253509});
  CHECK(RunSamples(*damaged, 3) == RunSamples(*whole, 3));
  for (uint32_t run : {1, 2, 4}) {
    INFO("run " << run);
    CHECK(RunProfiles(*damaged, run) == RunProfiles(*whole, run));
  }
}

TEST_CASE("Warnings name the file with the bundle's folder, as errors do") {
  auto corpus = CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());

  testing::ScratchCopy bundle(*corpus);
  std::string uniquer = std::string(kRun2Uniquer) + "integeruniquer.data";
  fs::remove(bundle / uniquer);
  const std::string expected = "run 2 left out: Instruments.trace/" + uniquer +
                               " is missing (its 253,393 samples' threads and backtraces)";
  SECTION("a folder with the bundle one folder down") {
    auto damaged = testing::ImportFolder(bundle.top());
    INFO(damaged.status().ToString());
    REQUIRE(damaged.ok());
    CHECK(PartWarnings(*damaged) == std::vector<std::string>{expected});
    CHECK(RunProfiles(*damaged, 3) == RunProfiles(*whole, 3));
  }
  SECTION("a zip with the bundle one folder down") {
    auto damaged = testing::ImportBytes(ZipFolder(bundle.path(), "Instruments.trace/"));
    INFO(damaged.status().ToString());
    REQUIRE(damaged.ok());
    CHECK(PartWarnings(*damaged) == std::vector<std::string>{expected});
    CHECK(RunProfiles(*damaged, 3) == RunProfiles(*whole, 3));
  }
}

TEST_CASE("Damaged symbol archives leave frames as addresses, with a warning saying so") {
  auto zip = CorpusFileOrSkip("shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip");
  if (!zip) return;
  auto whole = testing::ImportPath(*zip);
  REQUIRE(whole.ok());
  auto damaged = testing::ImportBytes(
      testing::ZipRewritten(*zip, [](const std::string& name, std::string& bytes) {
        if (name.find(".symbolsarchive") != std::string::npos) bytes.resize(16);
        return true;
      }));
  INFO(damaged.status().ToString());
  REQUIRE(damaged.ok());
  std::vector<std::string> warnings = testing::WarningMessages(*damaged, "SYMBOLS_UNREADABLE");
  REQUIRE(!warnings.empty());
  for (const std::string& warning : warnings) {
    CHECK_THAT(warning, Catch::StartsWith("a symbol archive left out: test-simple.trace/"
                                          "symbols/stores/") &&
                            Catch::Contains(".symbolsarchive is damaged (the names of its "
                                            "image's functions: their frames stay addresses): "));
  }
  CHECK(RunSamples(*damaged, 1) == RunSamples(*whole, 1));
  CHECK(RunProfiles(*damaged, 1) != RunProfiles(*whole, 1));
}

TEST_CASE("Legacy bundles: a run picked by number, and a run they lack") {
  auto corpus = CorpusFileOrSkip("zapko__Tiles/Instruments3.trace");
  if (!corpus) return;
  auto whole = testing::ImportFolder(*corpus);
  REQUIRE(whole.ok());
  ImportOptions options;
  options.run = 3;
  auto picked = testing::ImportFolder(*corpus, options);
  INFO(picked.status().ToString());
  REQUIRE(picked.ok());
  CHECK(!RunProfiles(*picked, 3).empty());
  CHECK(RunProfiles(*picked, 3) == RunProfiles(*whole, 3));
  for (const Profile& profile : picked->profiles) CHECK(profile.run == 3u);
  // Run 6, which lacks its run archive, was not asked for.
  CHECK(testing::WarningMessages(*picked, "LEGACY_RUN_UNREADABLE").empty());

  options.run = 9;
  auto missing = testing::ImportFolder(*corpus, options);
  CHECK(missing.status().code() == ErrorCode::kRunNotFound);
  CHECK(missing.status().message() == "this recording has no run 9; it has runs 2, 3, 4, 5, 6");
}

TEST_CASE("A bundle whose only run is damaged fails as it always did") {
  auto zip = CorpusFileOrSkip("shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip");
  if (!zip) return;
  const std::string uniquer = "corespace/run1/core/uniquing/arrayUniquer/integeruniquer.data";
  auto group = testing::ImportBytes(testing::ZipWithout(*zip, uniquer));
  CHECK(group.status().code() == ErrorCode::kBundleCorrupt);
  CHECK(group.status().path() == "test-simple.trace/" + uniquer);
  CHECK_THAT(group.status().message(),
             Catch::StartsWith("the zip archive has no member test-simple.trace/" + uniquer));
}

}  // namespace
}  // namespace instrumentscope
