// The Rust demangler: rustc-demangle's and LLVM's test vectors (read from the
// shared corpus at run time), names as Instruments shows them, and hostile
// input.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "demangle/rust/limits.h"
#include "demangle/rust/rust_demangle.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using demangle::DemangleRust;
using demangle::Style;
using testing::CorpusFileOrSkip;
using testing::ReadFile;

std::string Show(const std::optional<std::string>& demangled) {
  return demangled ? "\"" + *demangled + "\"" : "nullopt";
}

// Which printer wrote a vector's expected text.
enum class Reference { kDisplay, kAlternate, kLlvm };

struct VectorRow {
  size_t line;
  std::string mangled;
  std::string expected;
  std::vector<Reference> references;
};

// The corpus' `source` field: sources joined with " | ", each with a style= tag.
std::vector<Reference> ReferencesOf(const std::string& source) {
  std::vector<Reference> references;
  for (size_t at = source.find("style="); at != std::string::npos;
       at = source.find("style=", at + 1)) {
    std::string style = source.substr(at + 6, 12);
    if (style.rfind("Display", 0) == 0) references.push_back(Reference::kDisplay);
    if (style.rfind("alternate", 0) == 0) references.push_back(Reference::kAlternate);
    if (style.rfind("llvm-cxxfilt", 0) == 0) references.push_back(Reference::kLlvm);
  }
  // One check per style, however many sources share it.
  std::sort(references.begin(), references.end());
  references.erase(std::unique(references.begin(), references.end()), references.end());
  return references;
}

std::vector<VectorRow> ReadVectors(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  std::istringstream lines(std::string(bytes.begin(), bytes.end()));
  std::vector<VectorRow> rows;
  std::string line;
  std::getline(lines, line);  // the header
  for (size_t number = 2; std::getline(lines, line); ++number) {
    size_t first_tab = line.find('\t');
    size_t second_tab = line.find('\t', first_tab + 1);
    REQUIRE(second_tab != std::string::npos);
    rows.push_back({number, line.substr(0, first_tab),
                    line.substr(first_tab + 1, second_tab - first_tab - 1),
                    ReferencesOf(line.substr(second_tab + 1))});
  }
  REQUIRE(!rows.empty());
  return rows;
}

// llvm-cxxfilt's spelling turned into rustc-demangle's alternate one, which
// kInstruments prints. LLVM's test checks its output with FileCheck, which
// takes a run of spaces for one: runs are folded on both sides (see
// FoldSpaces). Beyond that the spellings differ in two documented ways:
// - LLVM prints the text after the first '.' as " (<suffix>)"; rustc-demangle
//   drops a ".llvm.<hex>" suffix and appends any other as it is.
// - LLVM names bound lifetimes past 'z as 'z1, 'z2, …; rustc-demangle as
//   '_26, '_27, … (their De Bruijn depth).
std::string FromLlvmSpelling(std::string text, const std::string& mangled) {
  size_t dot = mangled.find('.');
  if (dot != std::string::npos) {
    std::string suffix = mangled.substr(dot);
    std::string llvm_suffix = " (" + suffix + ")";
    REQUIRE(text.size() > llvm_suffix.size());
    REQUIRE(text.compare(text.size() - llvm_suffix.size(), llvm_suffix.size(), llvm_suffix) == 0);
    text.erase(text.size() - llvm_suffix.size());
    if (suffix.rfind(".llvm.", 0) != 0) text += suffix;
  }
  std::string respelled;
  for (size_t i = 0; i < text.size(); ++i) {
    bool numbered_z = text.compare(i, 2, "'z") == 0 && i + 2 < text.size() &&
                      std::isdigit(static_cast<unsigned char>(text[i + 2]));
    if (!numbered_z) {
      respelled += text[i];
      continue;
    }
    size_t end = i + 2;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    respelled += "'_" + std::to_string(25 + std::stoul(text.substr(i + 2, end - i - 2)));
    i = end - 1;
  }
  return respelled;
}

// "dyn for<'b>  + 'a", with two spaces (no traits between the binder and the
// lifetime), as "dyn for<'b> + 'a".
std::string FoldSpaces(const std::string& text) {
  std::string folded;
  for (char c : text) {
    if (c != ' ' || folded.empty() || folded.back() != ' ') folded += c;
  }
  return folded;
}

// llvm-cxxfilt rows that no normalisation brings in line: what we print, and
// why it differs.
struct KnownDifference {
  const char* ours;
  const char* reason;
};
const std::map<std::string, KnownDifference> kLlvmKnownDifferences = {
    {"_RIC4charKc1f40d_E",
     {"char::<'\xF0\x9F\x90\x8D'>",
      "LLVM escapes every non-ASCII char const as \\u{...}; rustc-demangle (and we) print "
      "printable characters as themselves"}},
};

// Checks every row of a vector file under the style its reference matches.
void CheckVectors(const std::string& file) {
  auto path = CorpusFileOrSkip("demangle/" + file);
  if (!path) return;
  size_t checked = 0;
  for (const VectorRow& row : ReadVectors(*path)) {
    REQUIRE(!row.references.empty());
    for (Reference reference : row.references) {
      Style style = reference == Reference::kDisplay ? Style::kFull : Style::kInstruments;
      std::optional<std::string> got = DemangleRust(row.mangled, style);
      std::string expected = row.expected;
      if (reference == Reference::kLlvm) {
        auto known = kLlvmKnownDifferences.find(row.mangled);
        if (known != kLlvmKnownDifferences.end()) {
          INFO(file << ":" << row.line << " " << row.mangled << " (" << known->second.reason
                    << ")");
          CHECK(row.expected != known->second.ours);
          expected = known->second.ours;
        } else {
          expected = FromLlvmSpelling(expected, row.mangled);
        }
        expected = FoldSpaces(expected);
        if (got) got = FoldSpaces(*got);
      }
      INFO(file << ":" << row.line << " " << (style == Style::kFull ? "kFull" : "kInstruments")
                << "\n  mangled:  " << row.mangled << "\n  expected: \"" << expected
                << "\"\n  got:      " << Show(got));
      CHECK(got == expected);
      ++checked;
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("Legacy vectors print as rustc-demangle prints them", "[rust]") {
  CheckVectors("rust-legacy.tsv");
}

TEST_CASE("v0 vectors print as rustc-demangle and llvm-cxxfilt print them", "[rust]") {
  CheckVectors("rust-v0.tsv");
}

// A legacy mangling of `elements`, their lengths counted here.
std::string Legacy(std::initializer_list<std::string> elements) {
  std::string name = "_ZN";
  for (const std::string& element : elements) name += std::to_string(element.size()) + element;
  return name + "E";
}

TEST_CASE("Legacy escapes", "[rust]") {
  const std::pair<std::string, const char*> cases[] = {
      {Legacy({"$SP$$BP$$RF$$LT$$GT$$LP$$RP$$C$"}), "@*&<>(),"},
      {Legacy({"$u20$$u7e$$u2202$"}), " ~\xE2\x88\x82"},
      {Legacy({"a..b.c.d"}), "a::b.c.d"},
      // A leading '_' only guards a leading '$'.
      {Legacy({"_$LT$$"}), "<$"},
      {Legacy({"_abc", "_$u7b$"}), "_abc::{"},
      // An escape it does not know ends the unescaping.
      {Legacy({"a$XY$b$LT$c"}), "a$XY$b$LT$c"},
      {Legacy({"$u7E$$LT$"}), "$u7E$$LT$"},  // uppercase hex
      {Legacy({"$u7f$"}), "$u7f$"},          // a control character
      {Legacy({"$ud800$"}), "$ud800$"},      // a surrogate
      {Legacy({"$u110000$"}), "$u110000$"},  // past U+10FFFF
      {Legacy({"$u$"}), "$u$"},
      {Legacy({"a$"}), "a$"},  // no closing '$'
      {Legacy({"a", ""}), "a::"},
  };
  for (const auto& [mangled, expected] : cases) {
    INFO(mangled);
    CHECK(DemangleRust(mangled, Style::kFull) == std::optional<std::string>(expected));
  }
}

TEST_CASE("Legacy hashes go in kInstruments and stay in kFull", "[rust]") {
  const char* name = "_ZN3std2io5stdin17h0123456789abcdefE";
  CHECK(DemangleRust(name, Style::kInstruments) == "std::io::stdin");
  CHECK(DemangleRust(name, Style::kFull) == "std::io::stdin::h0123456789abcdef");
  CHECK(DemangleRust(std::string("_") + name, Style::kInstruments) == "std::io::stdin");
  // Only a last element is a hash.
  CHECK(DemangleRust("_ZN17h0123456789abcdef3fooE", Style::kInstruments) ==
        "h0123456789abcdef::foo");
}

TEST_CASE("C++ names are left to the Itanium demangler", "[rust]") {
  for (const char* name :
       {"_ZN3foo3barEv", "_ZNK3foo3barEv", "_ZN3foo3barIiEEvv",
        "_ZNSt6vectorIiSaIiEE9push_backERKi", "_ZN3foo3barEv.cold", "_Z3foov", "_ZN3foo3bar",
        "_ZNfooE", "_ZN", "__ZN3fooC1Ev", "_ZN3fooE.llvm moocow", "_ZN3fooEi", "_ZN3f\xC3\xBCoE"}) {
    INFO(name);
    CHECK(DemangleRust(name, Style::kFull) == std::nullopt);
    CHECK(DemangleRust(name, Style::kInstruments) == std::nullopt);
  }
  // A C++ variable in a namespace has Rust's legacy shape; both read it alike.
  CHECK(DemangleRust("_ZN3foo3barE", Style::kFull) == "foo::bar");
}

// Other languages' names, and names cut short or malformed.
constexpr const char* kNotRust[] = {"main",
                                    "start",
                                    "_R",
                                    "R",
                                    "__R",
                                    "_RA",
                                    "Render",
                                    "RTCFoo",
                                    "RNvC1a",
                                    "_RNvC1a1",
                                    "_RC3foo.bar baz",
                                    "_RC3foo\xC3\xBC",
                                    "$s4main3FooV",
                                    "-[NSObject init]",
                                    "DYLD-STUB$$mach_absolute_time",
                                    "example_app (40414)",
                                    "foo::bar",
                                    "foo::h0123456789ABCDEF",
                                    "foo::h0123456789abcde",
                                    "foo::h0123456789abcdef0",
                                    "h0123456789abcdef",
                                    "::h0123456789abcdef",
                                    "a::::h0123456789abcdef",
                                    "foo(int)::h0123456789abcdef",
                                    "std::vector<int>::h0123456789abcdef",
                                    "a:::h0123456789abcdef",
                                    "_RMC0WmORm1_m2_Rm5_m6_",
                                    ""};

TEST_CASE("Names that are no Rust symbols are left alone", "[rust]") {
  for (const char* name : kNotRust) {
    INFO("\"" << name << "\"");
    CHECK(DemangleRust(name, Style::kFull) == std::nullopt);
    CHECK(DemangleRust(name, Style::kInstruments) == std::nullopt);
  }
}

// The half-demangled Rust frames of speedscope's Instruments 13.4 deep copy
// sample, as this project prints them.
const std::map<std::string, std::string> kInstrumentsFrames = {
    {"std::rt::lang_start::hdba6f1ebfd1bdcf8", "std::rt::lang_start"},
    {"std::rt::lang_start_internal::hc453db0ee48af82e", "std::rt::lang_start_internal"},
    {"std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::hd856f2663871206c",
     "std::rt::lang_start::{{closure}}"},
    {"std::sys_common::backtrace::__rust_begin_short_backtrace::h4869fd82068bc1dc",
     "std::sys_common::backtrace::__rust_begin_short_backtrace"},
    {"core::ops::function::FnOnce::call_once::h06e0c27ee740c6a8",
     "core::ops::function::FnOnce::call_once"},
    {"example_app::main::hddab13ae8d8b6a6e", "example_app::main"},
    {"example_app::example_a::h622d6879b734496d", "example_app::example_a"},
    {"example_app::example_b::h71b31fcd89b9ffd2", "example_app::example_b"},
    {"example_app::example_c::h631759c10d7dee93", "example_app::example_c"},
    {"std::time::Instant::elapsed::h2e3793148fc23529", "std::time::Instant::elapsed"},
    {"core::time::Duration::as_millis::hae6ad1b9cf7bb5ec", "core::time::Duration::as_millis"},
    {"alloc::vec::Vec$LT$T$C$A$GT$::push::ha3426502ffc42c8b", "alloc::vec::Vec<T,A>::push"},
    {"alloc::raw_vec::RawVec$LT$T$C$A$GT$::reserve_for_push::he4a29b8274e35dbb",
     "alloc::raw_vec::RawVec<T,A>::reserve_for_push"},
    {"alloc::raw_vec::RawVec$LT$T$C$A$GT$::grow_amortized::h78db9ba423623c58",
     "alloc::raw_vec::RawVec<T,A>::grow_amortized"},
    {"alloc::raw_vec::finish_grow::h876f5af1c66d74c8", "alloc::raw_vec::finish_grow"},
    {"_$LT$alloc..alloc..Global$u20$as$u20$core..alloc..Allocator$GT$::allocate::"
     "hcc733a40a34fbc94",
     "<alloc::alloc::Global as core::alloc::Allocator>::allocate"},
    {"alloc::alloc::Global::alloc_impl::hc55feba7d6266dfa", "alloc::alloc::Global::alloc_impl"},
    {"alloc::alloc::alloc::hfac63f3d6850b759", "alloc::alloc::alloc"},
    {"std::io::stdio::_print::hdecfefdeb43586ed", "std::io::stdio::_print"},
    {"_$LT$$RF$std..io..stdio..Stdout$u20$as$u20$std..io..Write$GT$::write_fmt::"
     "h2cb06dcd2b172844",
     "<&std::io::stdio::Stdout as std::io::Write>::write_fmt"},
    {"core::fmt::write::hed96bcfc6342aee5", "core::fmt::write"},
    {"_$LT$std..io..Write..write_fmt..Adapter$LT$T$GT$$u20$as$u20$core..fmt..Write$GT$::"
     "write_str::hbe33ec23de24ce2f",
     "<std::io::Write::write_fmt::Adapter<T> as core::fmt::Write>::write_str"},
    {"_$LT$std..io..stdio..StdoutLock$u20$as$u20$std..io..Write$GT$::write_all::"
     "h22667d0a03b2151b",
     "<std::io::stdio::StdoutLock as std::io::Write>::write_all"},
};

TEST_CASE("Half-demangled legacy names as Instruments shows them", "[rust]") {
  for (const auto& [shown, expected] : kInstrumentsFrames) {
    INFO(shown);
    CHECK(DemangleRust(shown, Style::kInstruments) == expected);
    std::string hash = shown.substr(shown.rfind("::"));
    CHECK(DemangleRust(shown, Style::kFull) == expected + hash);
  }
}

TEST_CASE("Every frame of the Instruments Rust sample comes out clean", "[rust]") {
  auto path = CorpusFileOrSkip(
      "jlfwong__speedscope/sample/profiles/Instruments/13.4/cycles-example-deep-copy.txt");
  if (!path) return;
  std::vector<uint8_t> bytes = ReadFile(*path);
  std::istringstream lines(std::string(bytes.begin(), bytes.end()));
  std::string line;
  std::getline(lines, line);  // the header
  size_t rust_frames = 0;
  while (std::getline(lines, line)) {
    // Weight, self weight, an empty column, then the indented symbol name.
    size_t name_column = line.find('\t', line.find('\t', line.find('\t') + 1) + 1);
    REQUIRE(name_column != std::string::npos);
    std::string name = line.substr(line.find_first_not_of(' ', name_column + 1));
    INFO(name);
    auto expected = kInstrumentsFrames.find(name);
    if (expected == kInstrumentsFrames.end()) {
      CHECK(name.find("::h") == std::string::npos);
      CHECK(DemangleRust(name, Style::kInstruments) == std::nullopt);
    } else {
      CHECK(DemangleRust(name, Style::kInstruments) == expected->second);
      ++rust_frames;
    }
  }
  CHECK(rust_frames > 0);
}

TEST_CASE("LLVM suffixes", "[rust]") {
  CHECK(DemangleRust("_ZN3foo17h0123456789abcdefE.llvm.0123ABCD", Style::kFull) ==
        "foo::h0123456789abcdef");
  CHECK(DemangleRust("_RNvC1a1b.llvm.12@@AB", Style::kInstruments) == "a::b");
  CHECK(DemangleRust("_RNvC1a1b.cold.1", Style::kInstruments) == "a::b.cold.1");
  // Lowercase hex is no ThinLTO suffix: kept, as symbol-like text.
  CHECK(DemangleRust("_RNvC1a1b.llvm.abc", Style::kInstruments) == "a::b.llvm.abc");
  CHECK(DemangleRust("_RNvC1a1bx", Style::kInstruments) == std::nullopt);
}

TEST_CASE("v0 crate disambiguators and const types show in kFull only", "[rust]") {
  const char* name = "_RINvCs1234_5crate4funcKj7b_Kanb_E";
  CHECK(DemangleRust(name, Style::kInstruments) == "crate::func::<123, -11>");
  CHECK(DemangleRust(name, Style::kFull) == "crate[3c1c0]::func::<123usize, -11i8>");
}

TEST_CASE("Punycode identifiers", "[rust]") {
  CHECK(DemangleRust("_RNvC5crateu10mnchen_3ya", Style::kInstruments) == "crate::m\xC3\xBCnchen");
  CHECK(DemangleRust("_RNvC5crateu3tda", Style::kInstruments) == "crate::\xC3\xBC");
  // Undecodable deltas are shown encoded.
  CHECK(DemangleRust("_RNvC5crateu5abc_9", Style::kInstruments) == "crate::punycode{abc-9}");
  CHECK(DemangleRust("_RNvC5crateu2__9", Style::kInstruments) == "crate::punycode{9}");
  // More than 128 characters are not decoded.
  std::string basic(128, 'a');
  std::string long_name = "_RNvC5crateu" + std::to_string(basic.size() + 4) + basic + "_tda";
  CHECK(DemangleRust(long_name, Style::kInstruments) == "crate::punycode{" + basic + "-tda}");
  // No deltas: no identifier.
  CHECK(DemangleRust("_RNvC5crateu4abc_", Style::kInstruments) == std::nullopt);
}

TEST_CASE("Backrefs point backwards and are followed", "[rust]") {
  CHECK(DemangleRust("_RINvC1a1bNvB2_1cB7_E", Style::kInstruments) == "a::b::<a::c, a::c>");
  for (const char* name : {"_RB_", "_RNvB_1a", "_RMC0RB2_", "_RNvC1aB5_", "_RIC0B3_E",
                           "_RNvB99999999999999999999_1a"}) {
    INFO(name);
    CHECK(DemangleRust(name, Style::kInstruments) == std::nullopt);
  }
}

// A base-62 number as v0 spells it: "_" is 0, "<digits>_" the digits + 1.
std::string Base62(uint64_t value) {
  if (value == 0) return "_";
  std::string digits;
  for (value -= 1; digits.empty() || value != 0; value /= 62) {
    digits.insert(digits.begin(),
                  "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[value % 62]);
  }
  return digits + "_";
}

// "<(…(_, _)…)>": `levels` nested pairs, each one's second element a backref
// to its first, so the text doubles with every level.
std::string BackrefBomb(size_t levels) {
  std::string inner = "MC0" + std::string(levels, 'T') + "p";
  for (size_t level = 0; level < levels; ++level) {
    inner += "B" + Base62(3 + levels - level) + "E";
  }
  return "_R" + inner;
}

TEST_CASE("A 1 MB name is refused at once", "[rust]") {
  std::string legacy = "_ZN";
  while (legacy.size() < 1024 * 1024) legacy += "3foo";
  legacy += "E";
  CHECK(DemangleRust(legacy, Style::kInstruments) == std::nullopt);
  std::string v0 = "_RINvC1a1b" + std::string(1024 * 1024, 'p') + "E";
  CHECK(DemangleRust(v0, Style::kInstruments) == std::nullopt);
  std::string half;
  while (half.size() < 1024 * 1024) half += "foo::";
  CHECK(DemangleRust(half + "h0123456789abcdef", Style::kInstruments) == std::nullopt);
  // Up to the limit, a long name still demangles.
  const size_t limit = demangle::rust::kMaxInputBytes;
  std::string element(limit - 9, 'a');  // "_ZN" + 5 digits + element + "E"
  CHECK(DemangleRust(Legacy({element}), Style::kInstruments) == element);
  CHECK(DemangleRust(Legacy({element + "a"}), Style::kInstruments) == std::nullopt);
  std::string types(40000, 'p');
  auto demangled = DemangleRust("_RINvC1a1b" + types + "E", Style::kInstruments);
  REQUIRE(demangled);
  CHECK(demangled->size() == 3 * types.size() + 6);
}

TEST_CASE("10,000-deep nesting ends at the depth limit", "[rust]") {
  const size_t depth = 10000;
  std::string references = "_RINvC1a1b" + std::string(depth, 'R') + "pE";
  CHECK(DemangleRust(references, Style::kInstruments) == std::nullopt);
  std::string paths = "_R";
  for (size_t i = 0; i < depth; ++i) paths += "Nv";
  paths += "C1a";
  for (size_t i = 0; i < depth; ++i) paths += "1b";
  CHECK(DemangleRust(paths, Style::kInstruments) == std::nullopt);
  std::string consts = "_RINvC1a1bK" + std::string(depth, 'A') + std::string(depth, 'E') + "E";
  CHECK(DemangleRust(consts, Style::kInstruments) == std::nullopt);
  // Nesting hidden in an identifier and reached through a backref.
  std::string hidden = "_RIC" + std::to_string(depth) + std::string(depth, 'R') + "B6_E";
  CHECK(DemangleRust(hidden, Style::kInstruments) == std::nullopt);
  // Depth that stays within the limit, and long flat lists, are fine.
  std::string shallow = "_RINvC1a1b" + std::string(400, 'R') + "pE";
  CHECK(DemangleRust(shallow, Style::kInstruments) == "a::b::<" + std::string(400, '&') + "_>");
}

TEST_CASE("A backref bomb stops at the output cap", "[rust]") {
  CHECK(DemangleRust(BackrefBomb(3), Style::kInstruments) ==
        "<(((_, _), (_, _)), ((_, _), (_, _)))>");
  CHECK(DemangleRust(BackrefBomb(64), Style::kInstruments) == std::nullopt);
  // Binders of ever more lifetimes.
  CHECK(DemangleRust("_RMC0FGZZZ_Eu", Style::kInstruments) == std::nullopt);
  CHECK(DemangleRust("RYFG_FGyyEvRYFF_EvRYFFEvERLB_B_B_ERLRjB_B_B_", Style::kInstruments) ==
        std::nullopt);
}

TEST_CASE("A name that re-reads much but prints little stops at the read budget", "[rust]") {
  // An inherent impl whose own (unprinted) path is 60,000 bytes long, printed
  // 1,000 times through backrefs: "<_>" each time.
  std::string impl = "MIC0" + std::string(60000, 'p') + "Ep";
  std::string name = "_RIC0T" + impl;
  for (int i = 0; i < 1000; ++i) name += "B3_";
  name += "EE";
  REQUIRE(name.size() <= demangle::rust::kMaxInputBytes);
  CHECK(DemangleRust(name, Style::kInstruments) == std::nullopt);
  // The same shape printed a few times is fine.
  std::string few = "_RIC0T" + impl + "B3_B3_EE";
  CHECK(DemangleRust(few, Style::kInstruments) == "::<(<_>, <_>, <_>)>");
}

// Each is refused as a whole, where rustc-demangle may print part of it with
// "{invalid syntax}" or "{recursion limit reached}" in it.
TEST_CASE("Malformed names end cleanly", "[rust]") {
  for (const char* name :
       {"_ZN2222222222222222222222EE",
        "_ZN5*70527e27.ll34csa\xD2\x93"
        "E",
        "_ZN5*70527a54.ll34_$b.1E",
        "_ZN5~sa\xC3\xA4"
        "b4e\n2734cOsbE\n5usage20h)3\n7e2734cOsbE",
        "RIC20tRYIMYNRYFG05_EB5_B_B6_RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRB_E",
        "_RIC0KRe", "_RIC0Kc110000_E", "_RIC0Kcd800_E", "_RIC0KRec0af_E", "_RIC0KRee080_E",
        "_RIC0Kb2_E", "_RIC0KVNvC1a1bXE", "_RIC0Kh", "_RIC7bindersFRL1_pEuE", "_RIC0FKu3tdaEuE",
        "_RIC0FK_EuE", "_RNvC1a1bC"}) {
    INFO(name);
    CHECK(DemangleRust(name, Style::kFull) == std::nullopt);
  }
}

}  // namespace
}  // namespace instrumentscope
