// Bundles imported on several threads give what one thread gives: the same
// speedscope JSON, warnings and errors, whether a bundle's one table of
// samples has its members read ahead (read_ahead.h) or its runs' tables are
// read whole on helpers (tables_ahead.h), damaged or past its limits.
#include <catch2/catch.hpp>
#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "container/file_tree.h"
#include "formats/trace_bundle/bundle_files.h"
#include "formats/trace_bundle/frames.h"
#include "formats/trace_bundle/symbol_archive.h"
#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope::trace_bundle {
namespace {

// The import's result, short enough to print when two differ: its error, or
// its warnings and a hash of its speedscope JSON (the whole of it compared).
struct Outcome {
  std::string error;
  std::vector<std::string> warnings;
  size_t json_bytes = 0;
  size_t json_hash = 0;

  bool operator==(const Outcome& other) const {
    return error == other.error && warnings == other.warnings && json_bytes == other.json_bytes &&
           json_hash == other.json_hash;
  }
};

std::ostream& operator<<(std::ostream& out, const Outcome& outcome) {
  out << "error: " << outcome.error << "; " << outcome.json_bytes << " bytes of JSON, hash "
      << outcome.json_hash << "; warnings:";
  for (const std::string& warning : outcome.warnings) out << "\n" << warning;
  return out;
}

Outcome Import(const std::string& bundle, ImportOptions options) {
  auto group = testing::ImportFolder(bundle, options);
  Outcome outcome;
  if (!group.ok()) {
    outcome.error = group.status().ToString();
    return outcome;
  }
  for (const Warning& warning : group->warnings) outcome.warnings.push_back(warning.message);
  std::ostringstream out;
  speedscope::WriteJson(*group, out);
  std::string json = out.str();
  outcome.json_bytes = json.size();
  outcome.json_hash = std::hash<std::string>()(json);
  return outcome;
}

void CheckSameAtEveryThreadCount(const std::string& bundle, const Outcome& one_thread,
                                 const ImportOptions& options) {
  for (uint32_t threads : {2, 4}) {
    INFO("threads " << threads);
    ImportOptions several = options;
    several.threads = threads;
    CHECK(Import(bundle, several) == one_thread);
  }
}

ImportOptions OnOneThread(ImportOptions options = {}) {
  options.threads = 1;
  return options;
}

constexpr const char* kFourRuns = "IvanCaldwell__ios-astronomy-performance/Instruments.trace";

TEST_CASE("A damaged bundle imports alike at 1, 2 and 4 threads") {
  auto corpus = testing::CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  testing::ScratchCopy bundle(*corpus);
  // Run 2's rows cut short, run 3's arrays' index damaged: both runs read
  // on helpers, the first part dropped (samples left out) and read again
  // where the import reaches it, the second's warning taken with it.
  std::string rows = bundle / "corespace/run2/core/stores/indexed-store-17/bulkstore";
  std::vector<uint8_t> bytes = testing::ReadFile(rows);
  bytes.resize(bytes.size() / 2);
  testing::WriteFile(rows, std::string(bytes.begin(), bytes.end()));
  testing::WriteFile(bundle / "corespace/run3/core/uniquing/arrayUniquer/integeruniquer.index",
                     "not an index");
  Outcome one_thread = Import(bundle.path(), OnOneThread());
  REQUIRE(one_thread.error.empty());
  std::string warnings = Catch::StringMaker<std::vector<std::string>>::convert(one_thread.warnings);
  CHECK_THAT(warnings, Catch::Contains("run 2 left out: corespace/run2/core/stores/"
                                       "indexed-store-17/bulkstore is damaged"));
  CHECK_THAT(warnings, Catch::Contains("run 3's uniquer index left out"));
  CheckSameAtEveryThreadCount(bundle.path(), one_thread, ImportOptions());
}

TEST_CASE("A bundle past its limits fails alike at 1, 2 and 4 threads") {
  auto corpus = testing::CorpusFileOrSkip(kFourRuns);
  if (!corpus) return;
  ImportOptions options;
  SECTION("all its members together: the limit is met in run 2") {
    options.limits.max_decompressed_bytes = 20 << 20;
    Outcome one_thread = Import(*corpus, OnOneThread(options));
    CHECK_THAT(one_thread.error,
               Catch::StartsWith("LIMIT_EXCEEDED: the bundle's files expand to more than "
                                 "20971520 bytes (limits.maxDecompressedBytes)"));
    CheckSameAtEveryThreadCount(*corpus, one_thread, options);
  }
  SECTION("one member: run 2's arrays, 9 MiB") {
    options.limits.max_member_bytes = (9 << 20) - 1;
    Outcome one_thread = Import(*corpus, OnOneThread(options));
    CHECK_THAT(one_thread.error,
               Catch::StartsWith("LIMIT_EXCEEDED: inflated data exceeds the limit of 9437183 "
                                 "bytes (limits.maxMemberBytes) (at corespace/run2/core/uniquing/"
                                 "arrayUniquer/integeruniquer.data"));
    CheckSameAtEveryThreadCount(*corpus, one_thread, options);
  }
  SECTION("samples: run 3's would pass limits.maxSamples") {
    options.limits.max_samples = 73157 + 253393 + 1000;
    Outcome one_thread = Import(*corpus, OnOneThread(options));
    CHECK_THAT(one_thread.error, Catch::StartsWith("LIMIT_EXCEEDED: more than 327550 samples"));
    CheckSameAtEveryThreadCount(*corpus, one_thread, options);
  }
  SECTION("stack nodes: run 2's pass limits.maxStackNodes") {
    options.limits.max_stack_nodes = 200000;
    Outcome one_thread = Import(*corpus, OnOneThread(options));
    CHECK_THAT(one_thread.error,
               Catch::Contains("more than 200000 distinct stack prefixes (limits.maxStackNodes)"));
    CheckSameAtEveryThreadCount(*corpus, one_thread, options);
  }
}

TEST_CASE("A run's warnings come in their place at every thread count") {
  // 20 runs, each its one table of samples: two name a counter by number.
  auto corpus =
      testing::CorpusFileOrSkip("nealsid__emacs-module-wrapper-template/Instruments.trace");
  if (!corpus) return;
  Outcome one_thread = Import(*corpus, OnOneThread());
  REQUIRE(one_thread.error.empty());
  std::string warnings = Catch::StringMaker<std::vector<std::string>>::convert(one_thread.warnings);
  CHECK_THAT(warnings, Catch::Contains("the counters-profile table of run 19 names its 1 "
                                       "performance counter by number"));
  CheckSameAtEveryThreadCount(*corpus, one_thread, ImportOptions());
}

TEST_CASE("A bundle of one run past its limits fails alike at 1, 2 and 4 threads") {
  // Its one table of samples: its members read ahead, not the table.
  auto corpus = testing::CorpusFileOrSkip("Ricks__Strux/Instruments.trace");
  if (!corpus) return;
  ImportOptions options;
  options.limits.max_decompressed_bytes = 1 << 20;
  Outcome one_thread = Import(*corpus, OnOneThread(options));
  CHECK_THAT(one_thread.error, Catch::StartsWith("LIMIT_EXCEEDED: the bundle's files expand to "
                                                 "more than 1048576 bytes"));
  CheckSameAtEveryThreadCount(*corpus, one_thread, options);
}

TEST_CASE("A symbol archive a helper read is the import's, read once") {
  auto zip = testing::CorpusFileOrSkip("shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip");
  if (!zip) return;
  Limits limits;
  std::vector<uint8_t> bytes = testing::ReadFile(*zip);
  auto tree = ZipTree::Open(std::make_shared<const std::vector<uint8_t>>(bytes), limits);
  REQUIRE(tree.ok());
  SubTree bundle(**tree, "test-simple.trace/", limits);
  const std::string path = "symbols/stores/F7E5BDDC-FB12-33EF-921F-C93FEF0D41D7.symbolsarchive";
  auto archive_bytes = bundle.Read(path);
  REQUIRE(archive_bytes.ok());
  auto archive = SymbolArchive::Parse(ByteSpan((*archive_bytes)->data(), (*archive_bytes)->size()));
  REQUIRE(archive.ok());
  std::vector<ProcessImage> images{ProcessImage{archive->uuid(), "/bin/tool", 0x1000, 0x100000}};
  ProcessSymbols symbols{nullptr, &images};

  // The import's namer and a helper's, each over files that list what they read.
  BundleFiles files(bundle, limits);
  struct Namer {
    explicit Namer(const BundleFiles& whole)
        : files(whole.ForHelper(&reads)), namer(*files, builder, left_out) {}
    std::vector<BundleFiles::MemberRead> reads;
    std::unique_ptr<BundleFiles> files;
    ProfileBuilder builder;
    LeftOutParts left_out{*files, builder, ""};
    FrameNamer namer;
  };
  Namer import(files), helper(files);
  auto name = [&](Namer& namer) {
    namer.namer.Frame(namer.namer.ProcessOf(1, 7, symbols), 0x1010, false);
  };
  name(helper);
  REQUIRE(helper.reads.size() == 1);
  CHECK(helper.reads[0].path == path);
  SECTION("taken before the import reads it: not read again") {
    CHECK(import.namer.ArchivesReadHereToo(helper.namer).empty());
    import.namer.TakeArchives(helper.namer);
    name(import);
    CHECK(import.reads.empty());
  }
  SECTION("read by the import meanwhile: said, so that it is counted once") {
    name(import);
    CHECK(import.reads.size() == 1);
    CHECK(import.namer.ArchivesReadHereToo(helper.namer) == std::set<std::string>{path});
  }
}

}  // namespace
}  // namespace instrumentscope::trace_bundle
