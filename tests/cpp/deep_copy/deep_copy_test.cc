// Deep Copy text: its weights cell by cell, the four corpus copies with the
// weights their text gives (untruncated), unit rewrites, process and thread
// rows, and the errors of damaged copies.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <string>

#include "formats/deep_copy/weight.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using deep_copy::Dimension;
using deep_copy::HeaderUnit;
using deep_copy::ParseWeight;
using testing::CorpusFileOrSkip;
using testing::ImportText;
using testing::ReadFile;
using testing::StackText;

constexpr const char* kInstruments = "jlfwong__speedscope/sample/profiles/Instruments/";

std::optional<std::string> CorpusText(const std::string& relative) {
  auto path = CorpusFileOrSkip(std::string(kInstruments) + relative);
  if (!path) return std::nullopt;
  std::vector<uint8_t> bytes = ReadFile(*path);
  return std::string(bytes.begin(), bytes.end());
}

// Each stack's weight in one profile ("root;…;leaf" → sum of its samples).
std::map<std::string, int64_t> StackWeights(const ProfileGroup& group, size_t profile = 0) {
  std::map<std::string, int64_t> weights;
  const Profile& p = group.profiles.at(profile);
  for (size_t i = 0; i < p.samples.size(); ++i) {
    if (p.samples[i] == kEmptyStack) continue;
    weights[StackText(group, p.samples[i])] += p.weights[i];
  }
  return weights;
}

// The stacks of one profile in sample order.
std::vector<std::string> StackOrder(const ProfileGroup& group, size_t profile = 0) {
  std::vector<std::string> stacks;
  const Profile& p = group.profiles.at(profile);
  for (size_t i = 0; i < p.samples.size(); ++i) stacks.push_back(StackText(group, p.samples[i]));
  return stacks;
}

ProfileGroup ImportOrFail(const std::string& text, size_t chunk = 64 * 1024) {
  ImportOptions options;
  options.name = "copy.txt";
  auto group = ImportText(text, options, chunk);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  return group.take();
}

Status ImportError(const std::string& text, ImportOptions options = {}) {
  auto group = ImportText(text, options);
  REQUIRE_FALSE(group.ok());
  return group.status();
}

TEST_CASE("Deep Copy weights are exact decimals in base units") {
  struct Case {
    const char* cell;
    std::optional<std::string_view> bare_unit;
    int64_t value;
    Dimension dimension;
  };
  const Case cases[] = {
      {"4273.0ms   99.9%", std::nullopt, 4'273'000'000, Dimension::kTime},
      {"2.45 s  \xE2\x80\x87"
       "0.0%",
       std::nullopt, 2'450'000'000, Dimension::kTime},
      {"846.00 ms", std::nullopt, 846'000'000, Dimension::kTime},
      {"12.5 \xC2\xB5s", std::nullopt, 12'500, Dimension::kTime},  // MICRO SIGN
      {"12.5 \xCE\xBCs", std::nullopt, 12'500, Dimension::kTime},  // GREEK SMALL LETTER MU
      {"250 ns", std::nullopt, 250, Dimension::kTime},
      {"1.5 min", std::nullopt, 90'000'000'000, Dimension::kTime},
      {"693", "ms", 693'000'000, Dimension::kTime},
      {" 429.93 MB     100.0%", std::nullopt, 450'814'280, Dimension::kBytes},  // …279.68
      {"1.50 KB", std::nullopt, 1'536, Dimension::kBytes},
      {"512 Bytes", std::nullopt, 512, Dimension::kBytes},
      {"2 GB", std::nullopt, int64_t{2} << 30, Dimension::kBytes},
      {"96.08 Gc  100.0%", std::nullopt, 96'080'000'000, Dimension::kCycles},
      {"404.75 Mc", std::nullopt, 404'750'000, Dimension::kCycles},
      {"1.34 Kc    0.0%", std::nullopt, 1'340, Dimension::kCycles},
      {"532 cycles    0.0%", std::nullopt, 532, Dimension::kCycles},
      {"17", std::nullopt, 17, Dimension::kCount},
  };
  for (const Case& c : cases) {
    INFO(c.cell);
    auto weight = ParseWeight(c.cell, c.bare_unit);
    REQUIRE(weight.ok());
    CHECK(weight->value == c.value);
    CHECK(weight->dimension == c.dimension);
  }
  // Rounding is half the last digit written; "0 s" and "-" are exact zeros.
  CHECK(ParseWeight("4.93 s", std::nullopt)->rounding == Approx(5'000'000));
  CHECK(ParseWeight("532 cycles", std::nullopt)->rounding == Approx(0.5));
  CHECK(ParseWeight("0 s", std::nullopt)->rounding == 0.0);
  auto dash = ParseWeight("-", std::nullopt);
  CHECK(dash->value == 0);
  CHECK_FALSE(dash->dimension.has_value());

  CHECK(HeaderUnit("Self (ms)") == std::optional<std::string_view>("ms"));
  CHECK_FALSE(HeaderUnit("Self Weight").has_value());
  CHECK_FALSE(HeaderUnit("Weight (parsecs)").has_value());
}

TEST_CASE("Deep Copy weights that are not numbers with a known unit are refused") {
  const std::pair<const char*, const char*> cases[] = {
      {"12 parsecs", "has the unit \"parsecs\", which is none of ns, \xC2\xB5s, ms"},
      {"ms", "does not start with a number"},
      {"1,234.5 ms", "has a comma"},
      {"12 ms 40", "has a number after its unit that is no share"},
      {"1234567890123456789 ns", "has more digits than fit in 63 bits"},
      {"9999999999 Gc", "is too large"},
  };
  for (const auto& [cell, message] : cases) {
    INFO(cell);
    auto weight = ParseWeight(cell, std::nullopt);
    REQUIRE_FALSE(weight.ok());
    CHECK(weight.status().code() == ErrorCode::kDeepCopyBadRow);
    CHECK_THAT(weight.status().message(), Catch::Contains(message));
  }
}

TEST_CASE("Deep Copy of a 16.0 Time Profiler: self weights as the copy gives them") {
  auto text = CorpusText("16.0/simple-time-profile-deep-copy.txt");
  if (!text) return;
  ProfileGroup group = ImportOrFail(*text);
  REQUIRE(group.profiles.size() == 1);
  const Profile& profile = group.profiles[0];
  CHECK(profile.name == "copy.txt");
  CHECK(profile.unit == ValueUnit::kNanoseconds);
  // The root's "4.93 s" is what the self weights add up to, to the nanosecond.
  CHECK(profile.sample_weight == 4'930'000'000);
  CHECK(profile.end_value == 4'930'000'000);
  std::map<std::string, int64_t> weights = StackWeights(group);
  // "2.45 s" with 1605 ms below it and "846.00 ms" of its own; speedscope
  // reads 2.45 s as 2 s and gives delta() 395 ms.
  CHECK(weights.at("start;main;delta()") == 846'000'000);
  CHECK(weights.at("start;main;gamma()") == 827'000'000);
  CHECK(weights.at("start;main;delta();alpha();leakMemory();szone_malloc_should_clear;"
                   "small_malloc_should_clear;small_malloc_from_free_list") == 2'000'000);
  // main's "0 s" of its own is kept, though its 4.93 s exceeds what lies
  // below it by rounding.
  CHECK(weights.count("start;main") == 0);
  CHECK(weights.size() == 52);
  // Rows below come first, then the row's own weight: the order of the copy.
  std::vector<std::string> order = StackOrder(group);
  CHECK(order.front() ==
        "start;main;delta();alpha();leakMemory();szone_malloc_should_clear;"
        "small_malloc_should_clear;small_malloc_from_free_list");
  CHECK(order[6] == "start;main;delta();alpha()");
  CHECK(group.warnings.empty());
}

TEST_CASE("Deep Copy of a 7.3.1 Time Profiler: \"Self (ms)\" holds bare numbers") {
  auto text = CorpusText("7.3.1/simple-time-profile-deep-copy.txt");
  if (!text) return;
  ProfileGroup group = ImportOrFail(*text);
  std::map<std::string, int64_t> weights = StackWeights(group);
  CHECK(group.profiles[0].sample_weight == 4'273'000'000);
  CHECK(weights.at("start;main;delta()") == 693'000'000);
  CHECK(weights.at("start;main;delta();alpha()") == 696'000'000);
  CHECK(weights.at("start;main;delta();leakMemory();malloc;<Unknown Address>;szone_malloc") ==
        1'000'000);
  CHECK(weights.size() == 39);
}

TEST_CASE("Deep Copy of 7.3.1 Allocations: bytes, own weight is total less the rows below") {
  auto text = CorpusText("7.3.1/random-allocations-deep-copy.txt");
  if (!text) return;
  ProfileGroup group = ImportOrFail(*text);
  REQUIRE(group.profiles.size() == 1);
  CHECK(group.profiles[0].unit == ValueUnit::kBytes);
  std::map<std::string, int64_t> weights = StackWeights(group);
  // 73.35 MB = 76913049.6 bytes; speedscope reads 73 MB.
  CHECK(weights.at("start;main;delta();alpha();leakMemory();malloc;malloc_zone_malloc") ==
        76'913'050);
  CHECK(weights.at("start;main;beta();leakMemory();malloc;malloc_zone_malloc") == 73'127'690);
  // delta()'s 217.09 MB is exactly what lies below it: nothing of its own.
  CHECK(weights.count("start;main;delta()") == 0);
  CHECK(weights.size() == 6);
}

TEST_CASE("Deep Copy of 13.4 CPU Counters: cycles, a process row, hidden weight") {
  auto text = CorpusText("13.4/cycles-example-deep-copy.txt");
  if (!text) return;
  ProfileGroup group = ImportOrFail(*text);
  REQUIRE(group.profiles.size() == 1);
  const Profile& profile = group.profiles[0];
  CHECK(profile.name == "example_app (pid 40414)");
  CHECK(profile.process_name == "example_app");
  CHECK(profile.pid == 40414);
  CHECK(profile.unit == ValueUnit::kNone);
  std::map<std::string, int64_t> weights = StackWeights(group);
  // Rust's legacy names, which Instruments half demangles, come out as Rust
  // tools print them, without hashes.
  std::string main =
      "start;main;std::rt::lang_start;std::rt::lang_start_internal;std::rt::lang_start::{{closure}}"
      ";"
      "std::sys_common::backtrace::__rust_begin_short_backtrace;core::ops::function::FnOnce::"
      "call_once;example_app::main";
  CHECK(
      weights.at(main + ";example_app::example_a;std::time::Instant::elapsed;mach_absolute_time") ==
      45'920'000'000);
  CHECK(weights.at(main + ";std::time::Instant::elapsed") == 415'120'000);
  // core::fmt::write: "1.34 Kc" in all, "-" of its own, 532 cycles below it.
  std::string write = main +
                      ";std::io::stdio::_print;<&std::io::stdio::Stdout as std::io::Write>::"
                      "write_fmt;core::fmt::write";
  CHECK(weights.at(write) == 808);
  REQUIRE(group.warnings.size() == 1);
  CHECK(group.warnings[0].code == "DEEP_COPY_HIDDEN_WEIGHT");
  CHECK_THAT(group.warnings[0].message, Catch::Contains("line 44, by 808 cycles"));
}

// "846.00" shifted by `places` decimal places: ("846.00", 3) → "846000".
std::string ShiftDecimal(const std::string& number, size_t places) {
  size_t point = number.find('.');
  std::string digits = number;
  size_t decimals = 0;
  if (point != std::string::npos) {
    digits.erase(point, 1);
    decimals = number.size() - point - 1;
  }
  if (places >= decimals) return digits + std::string(places - decimals, '0');
  digits.insert(digits.size() - (decimals - places), ".");
  return digits;
}

// Rewrites each "N ms" and "N s" weight of a copy into `unit`.
std::string RewriteUnits(const std::string& text, const std::string& unit, size_t ms_places,
                         size_t s_places) {
  std::regex weight("([0-9]+(\\.[0-9]+)?) (ms|s)\\b");
  std::string out;
  auto begin = std::sregex_iterator(text.begin(), text.end(), weight);
  size_t last = 0;
  for (auto match = begin; match != std::sregex_iterator(); ++match) {
    out += text.substr(last, match->position() - last);
    size_t places = (*match)[3] == "ms" ? ms_places : s_places;
    out += ShiftDecimal((*match)[1], places) + " " + unit;
    last = match->position() + match->length();
  }
  return out + text.substr(last);
}

TEST_CASE("Deep Copy in µs and ns reads as in ms and s") {
  auto text = CorpusText("16.0/simple-time-profile-deep-copy.txt");
  if (!text) return;
  std::string micro = RewriteUnits(*text, "\xC2\xB5s", 3, 6);
  std::string nano = RewriteUnits(*text, "ns", 6, 9);
  REQUIRE(micro.find("846000 \xC2\xB5s") != std::string::npos);
  REQUIRE(nano.find("2450000000 ns") != std::string::npos);
  REQUIRE(micro.find(" ms") == std::string::npos);
  ProfileGroup original = ImportOrFail(*text);
  for (const std::string* rewritten : {&micro, &nano}) {
    ProfileGroup group = ImportOrFail(*rewritten);
    // Every weight reads the same, but "4930000 µs" claims a precision that
    // "4.93 s" did not: main's total is now 5 ms more than its "0 µs" of its
    // own and the 4925 ms below it, which rounding no longer explains.
    std::map<std::string, int64_t> weights = StackWeights(group);
    CHECK(weights.at("start;main") == 5'000'000);
    weights.erase("start;main");
    CHECK(weights == StackWeights(original));
    REQUIRE(group.warnings.size() == 1);
    CHECK_THAT(group.warnings[0].message, Catch::Contains("line 3, by 5000000 ns"));
  }
}

TEST_CASE("Deep Copy read in any chunks, with CRLF and a byte order mark, is the same") {
  auto text = CorpusText("7.3.1/simple-time-profile-deep-copy.txt");
  if (!text) return;
  ProfileGroup whole = ImportOrFail(*text);
  std::string windows = "\xEF\xBB\xBF" + std::regex_replace(*text, std::regex("\n"), "\r\n");
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}}) {
    INFO(chunk);
    ProfileGroup group = ImportOrFail(*text, chunk);
    CHECK(StackOrder(group) == StackOrder(whole));
    CHECK(StackWeights(ImportOrFail(windows, chunk)) == StackWeights(whole));
  }
}

TEST_CASE("Deep Copy process and thread rows become profiles of their own") {
  std::string text =
      "Weight\tSelf Weight\t\tSymbol Name\n"
      "13.00 ms  100.0%\t-\t \tapp (42)\n"
      "8.00 ms   61.5%\t-\t \t Main Thread  0x1a2b\n"
      "8.00 ms   61.5%\t2.00 ms\t \t  main\n"
      "6.00 ms   46.1%\t6.00 ms\t \t   work\n"
      "2.00 ms   15.3%\t-\t \t Thread 0x1a2c\n"
      "2.00 ms   15.3%\t2.00 ms\t \t  worker_main\n"
      "3.00 ms   23.0%\t3.00 ms\t \t start_wqthread\n"
      "1.00 ms  100.0%\t-\t \tMain Thread  0x77\n"
      "1.00 ms  100.0%\t1.00 ms\t \t main\n";
  ProfileGroup group = ImportOrFail(text);
  REQUIRE(group.profiles.size() == 4);
  std::map<std::string, std::map<std::string, int64_t>> by_name;
  for (size_t i = 0; i < group.profiles.size(); ++i) {
    by_name[group.profiles[i].name] = StackWeights(group, i);
  }
  using Weights = std::map<std::string, int64_t>;
  CHECK(by_name["Main Thread 0x1a2b — app (pid 42)"] ==
        Weights{{"main", 2'000'000}, {"main;work", 6'000'000}});
  CHECK(by_name["Thread 0x1a2c — app (pid 42)"] == Weights{{"worker_main", 2'000'000}});
  // Calls directly under a process row belong to no thread row.
  CHECK(by_name["app (pid 42)"] == Weights{{"start_wqthread", 3'000'000}});
  CHECK(by_name["Main Thread 0x77"] == Weights{{"main", 1'000'000}});
  // Bare addresses at the top are unsymbolicated calls, not threads.
  ProfileGroup addresses = ImportOrFail(
      "Weight\tSelf Weight\tSymbol Names\n"
      "1.00 ms  50.0%\t1.00 ms\t0x1000f3a2\n"
      "1.00 ms  50.0%\t1.00 ms\t(0x1000f3b0)\n");
  REQUIRE(addresses.profiles.size() == 1);
  CHECK(StackWeights(addresses) == Weights{{"0x1000f3a2", 1'000'000}, {"(0x1000f3b0)", 1'000'000}});
  // Deeper down, names like these are calls.
  ProfileGroup calls = ImportOrFail(
      "Weight\tSelf Weight\tSymbol Names\n"
      "2.00 ms  100.0%\t0 s\tmain\n"
      "2.00 ms  100.0%\t1.00 ms\t run (7)\n"
      "1.00 ms  50.0%\t1.00 ms\t  Worker 0x10\n");
  CHECK(StackWeights(calls) ==
        Weights{{"main;run (7)", 1'000'000}, {"main;run (7);Worker 0x10", 1'000'000}});
}

TEST_CASE("Damaged Deep Copy text fails with the line and what is wrong") {
  const std::string header = "Weight\tSelf Weight\t\tSymbol Name\n";
  struct Case {
    std::string text;
    ErrorCode code;
    uint64_t line;
    const char* message;
  };
  const Case cases[] = {
      {header + "2.00 ms\t1.00 ms\t \tmain\n1.00 ms\t1.00 furlongs\t \t work\n",
       ErrorCode::kDeepCopyBadRow, 3, "the unit \"furlongs\""},
      {header + "2.00 ms\t1.00 ms\t \tmain\n1.00 ms\t1.00 ms\t \t   work\n",
       ErrorCode::kDeepCopyBadRow, 3, "indented 3 levels below the row above it"},
      {header + "2.00 ms\t1.00 ms\t \t main\n1.00 ms\t1.00 ms\t \twork\n",
       ErrorCode::kDeepCopyBadRow, 3, "less than the first row's 1"},
      {header + "2.00 ms\t1.00 ms\t \tmain\n1.00 MB\t1.00 MB\t \t work\n",
       ErrorCode::kDeepCopyBadRow, 3, "the row's weight is bytes, the rows above measure time"},
      {header + "2.00 ms\t1.00 ms\t \tmain\n1.00 ms\n", ErrorCode::kDeepCopyBadRow, 3,
       "the row has 1 tab-separated cells; the header has 4"},
      {header + "2.00 ms\t1.00 ms\t \t   \n", ErrorCode::kDeepCopyBadRow, 2, "no symbol name"},
      {header, ErrorCode::kDeepCopyNoSamples, 0, "a header line but no rows"},
      {header + "2.00 ms\t-\t \tapp (42)\n2.00 ms\t-\t \t Main Thread 0x1\n",
       ErrorCode::kDeepCopyNoSamples, 0, "expand the process and thread rows"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    Status status = ImportError(c.text);
    CHECK(status.code() == c.code);
    CHECK_THAT(status.message(), Catch::Contains(c.message));
    if (c.line) {
      CHECK(status.line() == c.line);
      CHECK(status.offset().has_value());
    }
  }
}

TEST_CASE("Deep Copy edge cases: zeros first, huge weights, capital thread ids") {
  // Rows of "-" first: the unit is still the one the later rows give.
  ProfileGroup zeros = ImportOrFail(
      "Weight\tSelf Weight\tSymbol Names\n"
      "-\t-\tidle\n"
      "5.00 ms\t5.00 ms\twork\n");
  CHECK(zeros.profiles[0].unit == ValueUnit::kNanoseconds);
  CHECK(StackWeights(zeros) == std::map<std::string, int64_t>{{"work", 5'000'000}});
  // A self weight far above its total, rows below far above it: no overflow.
  std::string huge = "Weight\tSelf Weight\tSymbol Names\n0\t999999999999999999\tstart\n";
  for (int i = 0; i < 9; ++i) huge += "999999999999999999\t0\t main" + std::to_string(i) + "\n";
  Status overflow = ImportError(huge);
  CHECK(overflow.code() == ErrorCode::kBadSample);
  CHECK(overflow.line().has_value());
  // A thread id in capitals is the same thread id.
  ProfileGroup capitals = ImportOrFail(
      "Weight\tSelf Weight\tSymbol Names\n"
      "1.00 ms\t-\tMain Thread  0x1A2B\n"
      "1.00 ms\t1.00 ms\t main\n");
  CHECK(capitals.profiles[0].name == "Main Thread 0x1a2b");
}

TEST_CASE("Deep Copy lines and depth stop at their limits") {
  std::string text = "Weight\tSelf Weight\t\tSymbol Name\n";
  for (int depth = 0; depth < 6; ++depth) {
    text += "1.00 ms\t-\t \t" + std::string(depth, ' ') + "f" + std::to_string(depth) + "\n";
  }
  ImportOptions options;
  options.limits.max_frames_per_stack = 4;
  Status deep = ImportError(text, options);
  CHECK(deep.code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(deep.message(), Catch::Contains("limits.maxFramesPerStack"));
  CHECK(deep.line() == 7);

  options = {};
  options.limits.max_text_line_bytes = 64;
  Status long_line =
      ImportError(text + "1.00 ms\t1.00 ms\t \t" + std::string(100, 'x') + "\n", options);
  CHECK(long_line.code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(long_line.message(), Catch::Contains("limits.maxTextLineBytes"));
  CHECK(long_line.line() == 8);
}

}  // namespace
}  // namespace instrumentscope
