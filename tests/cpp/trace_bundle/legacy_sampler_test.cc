// The legacy Time Profiler (Instruments 4.5 to 9.2): the typedstream reader on
// hand-made streams and on a real run archive cut short, the 7.3.1 recording
// against the Deep Copy of the same program, and damaged bundles.
#include "formats/trace_bundle/legacy_sampler.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "container/typedstream.h"
#include "container/zip.h"
#include "import/import.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;
using testing::ReadFile;
using testing::StackText;

constexpr const char* kCppTimeProfile = "jlfwong__speedscope/sample/cpp/timeprofile.trace";
constexpr const char* kRecordsPath = "Trace1.run/4C48231D-3012-454B-8C3F-014FEF176501-sampler.data";
constexpr const char* kRunArchivePath =
    "instrument_data/4C48231D-3012-454B-8C3F-014FEF176501/run_data/1.run.zip";

// A typedstream header (version 4, "streamtyped", system 1000) and `body`.
std::vector<uint8_t> Stream(const std::vector<uint8_t>& body) {
  std::vector<uint8_t> bytes = {0x04, 0x0B};
  for (char c : std::string("streamtyped")) bytes.push_back(static_cast<uint8_t>(c));
  bytes.insert(bytes.end(), {0x81, 0xE8, 0x03});
  bytes.insert(bytes.end(), body.begin(), body.end());
  return bytes;
}

// A new shared string: 0x84, its length, its bytes.
std::vector<uint8_t> NewString(const std::string& text) {
  std::vector<uint8_t> bytes = {0x84, static_cast<uint8_t>(text.size())};
  for (char c : text) bytes.push_back(static_cast<uint8_t>(c));
  return bytes;
}

std::vector<uint8_t> Concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> bytes;
  for (const auto& part : parts) bytes.insert(bytes.end(), part.begin(), part.end());
  return bytes;
}

Result<TypedStream> Parse(const std::vector<uint8_t>& bytes, Limits limits = {}) {
  return TypedStream::Parse(ByteSpan(bytes.data(), bytes.size()), limits);
}

TEST_CASE("typedstream: integers of every width, bytes, and arrays") {
  // "i" -5, "i" 1000 (0x81 + i16), "q" 2^40 (0x87 + i64), "[3c]" raw bytes,
  // "[2Q]" two integers, "+" a counted byte string.
  auto stream = Parse(Stream(Concat({
      NewString("i"),
      {0xFB},
      {0x92},
      {0x81, 0xE8, 0x03},  // the same type string, by reference
      NewString("q"),
      {0x87, 0, 0, 0, 0, 0, 1, 0, 0},
      NewString("[3c]"),
      {'a', 'b', 'c'},
      NewString("[2Q]"),
      {0x07, 0x82, 0x00, 0x00, 0x00, 0x40},
      NewString("+"),
      {0x02, 'h', 'i'},
  })));
  INFO(stream.status().ToString());
  REQUIRE(stream.ok());
  const std::vector<TypedGroup>& groups = stream->groups();
  REQUIRE(groups.size() == 6);
  CHECK(groups[0].values[0].integer == -5);
  CHECK(groups[1].types == "i");
  CHECK(groups[1].values[0].integer == 1000);
  CHECK(groups[2].values[0].integer == int64_t{1} << 40);
  CHECK(groups[3].values[0].bytes == "abc");
  REQUIRE(groups[4].values[0].list.size() == 2);
  CHECK(groups[4].values[0].list[0].integer == 7);
  CHECK(groups[4].values[0].list[1].integer == 0x40000000);
  CHECK(groups[5].values[0].bytes == "hi");
}

TEST_CASE("typedstream: objects, their classes, and references back to them") {
  // An NSArray of two elements: a new NSString, then the same one by reference.
  auto bytes = Stream(Concat({
      NewString("@"), {0x84},  // a new object (slot 0)
      {0x84},         NewString("NSArray"),
      {0x00},         {0x85},  // its class (slot 1), v0, no superclass
      NewString("i"), {0x02},  // two elements
      {0x92},                  // "@", by reference
      {0x84},                  // a new object (slot 2)
      {0x84},         NewString("NSString"),
      {0x01},         {0x85},            // its class (slot 3), v1
      NewString("+"), {0x02, 'o', 'k'},  // its bytes
      {0x86},                            // end of the string
      {0x92},         {0x94},            // "@": the object of slot 2
      {0x86},                            // end of the array
  }));
  auto stream = Parse(bytes);
  INFO(stream.status().ToString());
  REQUIRE(stream.ok());
  REQUIRE(stream->groups().size() == 1);
  const TypedValue& array = stream->groups()[0].values[0];
  auto elements = stream->Array(array);
  REQUIRE(elements.has_value());
  REQUIRE(elements->size() == 2);
  CHECK(stream->String(*(*elements)[0]) == std::optional<std::string>("ok"));
  CHECK(stream->String(*(*elements)[1]) == std::optional<std::string>("ok"));
  CHECK((*elements)[0]->index == (*elements)[1]->index);
  CHECK(stream->classes()[1].name == "NSString");
  CHECK(stream->classes()[1].version == 1);

  // An NSNumber holding a real is a number only when it is a whole one that fits.
  auto number = [](std::vector<uint8_t> real) {
    return Stream(Concat({NewString("@"),
                          {0x84},
                          {0x84},
                          NewString("NSNumber"),
                          {0x00},
                          {0x85},
                          NewString("*"),
                          {0x84},
                          NewString("d"),
                          NewString("d"),
                          real,
                          {0x86}}));
  };
  auto whole = Parse(number({0x83, 0, 0, 0, 0, 0, 0, 0x45, 0x40}));  // 42.0
  REQUIRE(whole.ok());
  CHECK(whole->Number(whole->groups()[0].values[0]) == std::optional<int64_t>(42));
  auto huge = Parse(number({0x83, 0x3C, 0xE4, 0x78, 0x7B, 0xAB, 0x3A, 0x2E, 0x7E}));  // 1e300
  REQUIRE(huge.ok());
  CHECK_FALSE(huge->Number(huge->groups()[0].values[0]).has_value());
}

TEST_CASE("typedstream: damage and hostile nesting fail with what and where") {
  struct Case {
    std::vector<uint8_t> bytes;
    ErrorCode code;
    const char* message;
  };
  const Case cases[] = {
      {{0x04, 0x0B, 'n', 'o', 't', 'a', 's', 't', 'r', 'e', 'a', 'm', 'x'},
       ErrorCode::kTypedStreamCorrupt,
       "typedstream signature"},
      {Stream(Concat({NewString("i")})), ErrorCode::kTruncated, ""},
      {Stream(Concat({{0x99}, {0x01}})), ErrorCode::kTypedStreamCorrupt, "refers to string 7 of 0"},
      {Stream(Concat({NewString("@"), {0x95}})), ErrorCode::kTypedStreamCorrupt,
       "refers to object 3 of 0"},
      {Stream(Concat({NewString("[2i"), {0x01}})), ErrorCode::kTypedStreamCorrupt, "unbalanced"},
      {Stream(Concat({NewString("v"), {0x01}})), ErrorCode::kTypedStreamCorrupt, "the type \"v\""},
      {Stream(Concat({NewString("[200i]"), {0x01}})), ErrorCode::kTypedStreamCorrupt,
       "an array longer than its data"},
      // Elements that take no bytes: a short stream cannot claim millions of values.
      {Stream(Concat({NewString("[9[9{}]]"), std::vector<uint8_t>(20, 0x01)})),
       ErrorCode::kTypedStreamCorrupt, "elements that hold nothing"},
      // A reference near 2^63: no overflow, a clean error.
      {Stream(Concat({{0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}})),
       ErrorCode::kTypedStreamCorrupt, "refers to string"},
  };
  for (const Case& c : cases) {
    auto stream = Parse(c.bytes);
    REQUIRE_FALSE(stream.ok());
    INFO(stream.status().ToString());
    CHECK(stream.status().code() == c.code);
    CHECK_THAT(stream.status().message(), Catch::Contains(c.message));
    CHECK(stream.status().offset().has_value());
  }
  // Objects nested in objects, 100 deep: refused past maxPlistDepth.
  std::vector<uint8_t> deep = NewString("@");
  for (int i = 0; i < 100; ++i) {
    // A new object of class X (new the first time, then by reference to slot
    // 1), whose first group is "@" (by reference) holding the next object.
    deep.push_back(0x84);
    std::vector<uint8_t> class_x =
        i == 0 ? Concat({{0x84}, NewString("X"), {0x00}, {0x85}}) : std::vector<uint8_t>{0x93};
    deep.insert(deep.end(), class_x.begin(), class_x.end());
    deep.push_back(0x92);
  }
  Limits limits;
  limits.max_plist_depth = 50;
  auto nested = Parse(Stream(deep), limits);
  REQUIRE_FALSE(nested.ok());
  CHECK(nested.status().code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(nested.status().message(), Catch::Contains("limits.maxPlistDepth"));

  // A hundred one-byte integers: each value counts against maxPlistObjects.
  std::vector<uint8_t> many = NewString("[100i]");
  many.insert(many.end(), 100, 0x01);
  limits = Limits{};
  limits.max_plist_objects = 50;
  auto values = Parse(Stream(many), limits);
  REQUIRE_FALSE(values.ok());
  CHECK(values.status().code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(values.status().message(), Catch::Contains("limits.maxPlistObjects"));
  CHECK(Parse(Stream(many)).ok());

  // One long type encoding referred to thousands of times, a byte each: the
  // strings reused are bounded by the stream's size, so this ends at once.
  std::string long_type = "{" + std::string(200000, 'a') + "=}";
  std::vector<uint8_t> reused = Concat({{0x84, 0x82}});
  for (int shift = 0; shift < 32; shift += 8) {
    reused.push_back(static_cast<uint8_t>(long_type.size() >> shift));
  }
  reused.insert(reused.end(), long_type.begin(), long_type.end());
  reused.insert(reused.end(), 3000, 0x92);
  auto rescanned = Parse(Stream(reused));
  REQUIRE_FALSE(rescanned.ok());
  CHECK(rescanned.status().code() == ErrorCode::kTypedStreamCorrupt);
  CHECK_THAT(rescanned.status().message(), Catch::Contains("reuses its strings"));
}

// The typedstream inside a bundle's run archive.
std::vector<uint8_t> RunArchiveStream(const std::string& zip_path) {
  std::vector<uint8_t> zip_bytes = ReadFile(zip_path);
  auto zip = ZipArchive::Open(ByteSpan(zip_bytes.data(), zip_bytes.size()), Limits{});
  REQUIRE(zip.ok());
  for (const ZipEntry& entry : zip->entries()) {
    if (entry.is_directory || entry.name.find("__MACOSX") != std::string::npos) continue;
    auto bytes = zip->Extract(entry);
    REQUIRE(bytes.ok());
    return bytes.take();
  }
  FAIL("no file in " << zip_path);
  return {};
}

TEST_CASE("A real run archive: its layout, count, backtraces and threads; cut short, it fails") {
  auto folder = CorpusFileOrSkip(kCppTimeProfile);
  if (!folder) return;
  std::vector<uint8_t> stream = RunArchiveStream(*folder + "/" + kRunArchivePath);
  auto run = trace_bundle::ReadSamplerRun(ByteSpan(stream.data(), stream.size()), Limits{});
  INFO(run.status().ToString());
  REQUIRE(run.ok());
  std::vector<std::string> fields;
  for (const auto& field : run->fields) fields.push_back(field.name);
  CHECK(fields == std::vector<std::string>{"timestamp", "tid", "cpu", "threadState", "backtrace"});
  CHECK(run->record_size == 28);
  CHECK(run->record_count == 513);
  CHECK(run->sample_interval_us == 10000u);
  CHECK(run->backtraces.size() == 5);
  REQUIRE(run->threads.count(0x8f25e3) == 1);
  CHECK(run->threads.at(0x8f25e3).pid == 73923);
  for (const auto& [id, backtrace] : run->backtraces) {
    CHECK(backtrace.pid == 73923);
    CHECK_FALSE(backtrace.addresses.empty());
  }
  // Cut short anywhere, it fails cleanly: a read past the end, at the end.
  size_t cuts = 0;
  for (size_t size = 0; size < stream.size(); size += 1 + size / 16, ++cuts) {
    auto cut = trace_bundle::ReadSamplerRun(ByteSpan(stream.data(), size), Limits{});
    INFO(size << ": " << cut.status().ToString());
    REQUIRE_FALSE(cut.ok());
    if (cut.status().code() == ErrorCode::kBundleCorrupt) {  // whole objects, but not all
      CHECK_THAT(cut.status().message(), Catch::Contains("the run archive"));
      continue;
    }
    CHECK((cut.status().code() == ErrorCode::kTruncated ||
           cut.status().code() == ErrorCode::kTypedStreamCorrupt));
    CHECK(cut.status().offset() <= std::optional<uint64_t>(size));
  }
  CHECK(cuts > 100);
}

// Every stack prefix's total weight, in milliseconds, below the root `root`.
std::map<std::string, int64_t> CallTreeTotals(const ProfileGroup& group, const std::string& root) {
  std::map<std::string, int64_t> totals;
  for (const Profile& profile : group.profiles) {
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      if (profile.samples[i] == kEmptyStack) continue;
      std::string stack = StackText(group, profile.samples[i]);
      if (stack.rfind(root, 0) != 0) continue;
      for (size_t end = 0; end != std::string::npos;) {
        end = stack.find(';', end + 1);
        totals[stack.substr(0, end)] += profile.weights[i] / 1'000'000;
      }
    }
  }
  return totals;
}

TEST_CASE("The 7.3.1 recording has the call tree of the Deep Copy of the same program") {
  auto bundle = CorpusFileOrSkip(
      "jlfwong__speedscope/sample/profiles/Instruments/7.3.1/simple-time-profile.trace.zip");
  auto copy = CorpusFileOrSkip(
      "jlfwong__speedscope/sample/profiles/Instruments/7.3.1/simple-time-profile-deep-copy.txt");
  if (!bundle || !copy) return;
  auto recorded = testing::ImportPath(*bundle);
  auto copied = testing::ImportPath(*copy);
  INFO(recorded.status().ToString());
  REQUIRE(recorded.ok());
  REQUIRE(copied.ok());
  REQUIRE(recorded->profiles.size() == 1);
  CHECK(recorded->profiles[0].name == "Main Thread 0xadcf50 — simple (pid 32747)");
  CHECK(recorded->profiles[0].sample_count == 4275);
  // The copy starts at "start": the two samples in dyld's start-up are not in it.
  std::map<std::string, int64_t> totals = CallTreeTotals(*recorded, "start");
  CHECK(totals == CallTreeTotals(*copied, "start"));
  CHECK(totals.at("start;main") == 4273);
  CHECK(totals.at("start;main;alpha()") == 725);
  CHECK(totals.at("start;main;beta()") == 716);
  CHECK(totals.at("start;main;gamma()") == 706);
  CHECK(totals.at("start;main;delta()") == 2126);
}

// A legacy bundle's files, changed by `change`, imported as a dropped folder is.
Result<ProfileGroup> ImportChanged(
    const std::string& folder,
    const std::function<void(std::map<std::string, std::vector<uint8_t>>&)>& change) {
  namespace fs = std::filesystem;
  std::map<std::string, std::vector<uint8_t>> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    files[fs::relative(entry.path(), folder).generic_string()] = ReadFile(entry.path().string());
  }
  change(files);
  Import import(ImportOptions{});
  for (auto& [path, bytes] : files) REQUIRE(import.AddFile(path, std::move(bytes)).ok());
  return import.Finish();
}

TEST_CASE("Damaged legacy bundles fail with the file and what is wrong") {
  auto folder = CorpusFileOrSkip(kCppTimeProfile);
  if (!folder) return;
  using Files = std::map<std::string, std::vector<uint8_t>>;
  struct Case {
    const char* what;
    std::function<void(Files&)> change;
    ErrorCode code;
    std::string path;
    const char* message;
  };
  const Case cases[] = {
      {"records cut short", [](Files& files) { files[kRecordsPath].resize(8192); },
       ErrorCode::kBundleCorrupt, kRecordsPath, "more than the file's 8192 bytes hold"},
      {"another record size", [](Files& files) { files[kRecordsPath][0x10] = 32; },
       ErrorCode::kBundleCorrupt, kRecordsPath, "the records are 32 bytes"},
      {"a backtrace id the archive lacks",
       [](Files& files) {
         // The first record's backtrace id, its last 4 bytes.
         for (size_t i = 4096 + 24; i < 4096 + 28; ++i) files[kRecordsPath][i] = 0xFF;
       },
       ErrorCode::kBundleCorrupt, kRecordsPath, "names backtrace 4294967295"},
      {"no run archive", [](Files& files) { files.erase(kRunArchivePath); },
       ErrorCode::kBundleNoSamples, "", "run archives"},
      {"a run archive that is no zip",
       [](Files& files) { files[kRunArchivePath] = {'n', 'o', 't', ' ', 'a', ' ', 'z', 'i', 'p'}; },
       ErrorCode::kZipCorrupt, kRunArchivePath, ""},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    auto group = ImportChanged(*folder, c.change);
    REQUIRE_FALSE(group.ok());
    INFO(group.status().ToString());
    CHECK(group.status().code() == c.code);
    if (!c.path.empty()) CHECK(group.status().path() == c.path);
    CHECK_THAT(group.status().message(), Catch::Contains(c.message));
  }
}

}  // namespace
}  // namespace instrumentscope
