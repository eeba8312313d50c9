// The demangling component as importers use it: the dispatcher over Swift,
// Rust and Itanium names (with Mach-O's underscore and dyld's stub prefix),
// the pass over a profile's frames, and hostile names. Each demangler's
// vectors are tested in demangle_swift_test.cc and demangle_rust_test.cc.
#include "demangle/demangle.h"

#include <catch2/catch.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "demangle/frames.h"
#include "demangle/itanium.h"
#include "demangle/punycode.h"
#include "test_support.h"

namespace instrumentscope::demangle {
namespace {

TEST_CASE("Itanium names demangle as Apple's tools print them") {
  // Names from the symbol archives of an Instruments 16 bundle, with the
  // spelling its xctrace export gives them.
  CHECK(DemangleItanium("__ZN5dyld4L7prepareERNS_4APIsEPKN6mach_o6HeaderE") ==
        "dyld4::prepare(dyld4::APIs&, mach_o::Header const*)");
  CHECK(DemangleItanium("_ZN5dyld4L7prepareERNS_4APIsEPKN6mach_o6HeaderE") ==
        "dyld4::prepare(dyld4::APIs&, mach_o::Header const*)");
  CHECK(DemangleItanium("____ZNK5dyld46Loader25findAndRunAllInitializersERNS_12RuntimeStateE_block_"
                        "invoke.204") ==
        "invocation function for block in "
        "dyld4::Loader::findAndRunAllInitializers(dyld4::RuntimeState&) const");
  CHECK(DemangleItanium("__ZN10AAREncoder6encodeER10ByteStream") ==
        "AAREncoder::encode(ByteStream&)");
  // Substitutions print what they stand for.
  CHECK(DemangleItanium("_Z1fPiPS_PS0_") == "f(int*, int**, int***)");
  // Not mangled: C names, nonsense.
  CHECK_FALSE(DemangleItanium("_main"));
  CHECK_FALSE(DemangleItanium("start"));
  CHECK_FALSE(DemangleItanium("__Z"));
  CHECK_FALSE(DemangleItanium(""));
}

// f(std::pair<int, int>, std::pair<that, that>, …): `levels` pairs, each of
// the one before, named by substitution.
std::string PairTower(int levels) {
  auto seq_id = [](int index) {
    if (index == 0) return std::string("S_");
    std::string digits;
    for (int n = index - 1; digits.empty() || n > 0; n /= 36) {
      digits.insert(digits.begin(), "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 36]);
    }
    return "S" + digits + "_";
  };
  std::string name = "_Z1fSt4pairIiiE";  // S_ = std::pair, S0_ = std::pair<int, int>
  for (int level = 1; level <= levels; ++level) {
    std::string previous = seq_id(level);
    name += "S_I" + previous + previous + "E";
  }
  return name;
}

TEST_CASE("Hostile Itanium names end, unchanged, without exhausting the stack or memory") {
  // Nested 10,000 deep in the parser: template arguments inside template arguments.
  std::string nested = "_Z1f";
  for (int i = 0; i < 10000; ++i) nested += "I1a";
  for (int i = 0; i < 10000; ++i) nested += "E";
  nested += "v";
  CHECK_FALSE(DemangleItanium(nested));
  // Shallow to parse, deep to print: each substitution points at the last.
  std::string chained = "_Z1fPi";
  for (int i = 0; i < 5000; ++i) {
    chained += i == 0 ? "PS_" : "PS" + std::to_string(i - 1) + "_";
  }
  CHECK_FALSE(DemangleItanium(chained));
  // Each parameter is a pair of the one before: printing doubles per level.
  std::optional<std::string> small = DemangleItanium(PairTower(4));
  REQUIRE(small);
  CHECK(small->find("std::pair<std::pair<std::pair<std::pair<std::pair<int, int>") !=
        std::string::npos);
  CHECK_FALSE(DemangleItanium(PairTower(40)));  // 2^40 pairs if printed
  // An empty template argument list before any other node (found by fuzzing).
  CHECK_FALSE(DemangleItanium("___ZNRIE2"));
  // A megabyte.
  CHECK_FALSE(DemangleItanium("_Z" + std::string(1 << 20, 'P') + "i"));
}

TEST_CASE("Demangle picks the scheme, keeps dyld's stub prefix, and leaves other names") {
  CHECK(Demangle("__ZN10AAREncoder6encodeER10ByteStream", Style::kInstruments) ==
        "AAREncoder::encode(ByteStream&)");
  CHECK(Demangle("DYLD-STUB$$__ZN10AAREncoder6encodeER10ByteStream", Style::kInstruments) ==
        "DYLD-STUB$$AAREncoder::encode(ByteStream&)");
  // Rust's legacy names are Itanium-shaped: Rust's rules win (no hash, no escapes).
  CHECK(Demangle("__ZN3std2rt19lang_start_internal17hc453db0ee48af82eE", Style::kInstruments) ==
        "std::rt::lang_start_internal");
  CHECK(Demangle("__ZN3std2rt19lang_start_internal17hc453db0ee48af82eE", Style::kFull) ==
        "std::rt::lang_start_internal::hc453db0ee48af82e");
  // A Rust path of only its hash reads as nothing without it: left as it is.
  CHECK_FALSE(Demangle("_ZN20h05af221e174051e9abcE", Style::kInstruments));
  CHECK(Demangle("_ZN20h05af221e174051e9abcE", Style::kFull) == "h05af221e174051e9abc");
  for (const char* readable :
       {"main", "-[UIApplication _run]", "DYLD-STUB$$_pthread_getspecific", "0x1851eb834",
        "dyld4::prepare(dyld4::APIs&, mach_o::Header const*)", "<deduplicated_symbol>", ""}) {
    CHECK_FALSE(Demangle(readable, Style::kInstruments));
  }
}

// Every mangled name of the demangler vectors (../shared/corpus/demangle).
std::vector<std::string> VectorNames() {
  std::vector<std::string> names;
  for (const char* file : {"swift-full.tsv", "swift-simplified.tsv", "swift-other-styles.tsv",
                           "rust-legacy.tsv", "rust-v0.tsv"}) {
    auto path = testing::CorpusFileOrSkip(std::string("demangle/") + file);
    if (!path) return {};
    std::vector<uint8_t> bytes = testing::ReadFile(*path);
    std::istringstream lines(std::string(bytes.begin(), bytes.end()));
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) names.push_back(line.substr(0, line.find('\t')));
  }
  return names;
}

TEST_CASE("Every mangled name of the vectors passes the quick test") {
  for (const std::string& name : VectorNames()) {
    INFO(name);
    CHECK(MayBeMangled(name));
  }
  for (const char* readable : {"main", "-[UIApplication _run]", "+[NSObject new]", "0x1851eb834",
                               "UIApplicationMain", "<deduplicated_symbol>", "", "start"}) {
    CHECK_FALSE(MayBeMangled(readable));
  }
}

TEST_CASE("Mutated vector names end in a name or none, in every style") {
  std::mt19937 random(18);
  size_t named = 0;
  for (const std::string& name : VectorNames()) {
    for (int which = 0; which < 8; ++which) {
      std::string mutant = name;
      if (which < 4) {
        mutant.resize(name.size() * (which + 1) / 5);
      } else if (!mutant.empty()) {
        mutant[random() % mutant.size()] ^= static_cast<char>(1 << (random() % 7));
      }
      for (Style style : {Style::kInstruments, Style::kFull}) {
        std::optional<std::string> readable = Demangle(mutant, style);
        if (readable) {
          CHECK_FALSE(readable->empty());
          ++named;
        }
      }
    }
  }
  // Cut or flipped names are often still names of something.
  if (!VectorNames().empty()) CHECK(named > 0);
}

TEST_CASE("Punycode decodes RFC 3492's deltas with either scheme's digits") {
  auto standard = [](char c) {
    return c >= 'a' && c <= 'z' ? c - 'a' : c >= '0' && c <= '9' ? c - '0' + 26 : -1;
  };
  uint32_t points[16];
  size_t count = 0;
  // "bücher", as RFC 3492 spells it: "bcher-kva".
  REQUIRE(DecodePunycode("bcher", "kva", standard, points, 16, &count));
  CHECK(std::vector<uint32_t>(points, points + count) ==
        std::vector<uint32_t>{'b', 0xFC, 'c', 'h', 'e', 'r'});
  CHECK(DecodePunycode("bcher", "kva", standard, points, 6, &count));         // just enough room
  CHECK_FALSE(DecodePunycode("bcher", "kva", standard, points, 5, &count));   // no room
  CHECK_FALSE(DecodePunycode("bcher", "kv", standard, points, 16, &count));   // ends early
  CHECK_FALSE(DecodePunycode("bcher", "k-a", standard, points, 16, &count));  // no digit
  CHECK_FALSE(DecodePunycode("", "99999999999999", standard, points, 16, &count));  // too large
}

TEST_CASE("Frame names are demangled in place, once per name") {
  ProfileGroup group;
  group.frames.push_back(
      Frame{"__ZN10AAREncoder6encodeER10ByteStream", "/usr/lib/a", {}, {}, kNoImage});
  group.frames.push_back(
      Frame{"__ZN10AAREncoder6encodeER10ByteStream", "/usr/lib/b", {}, {}, kNoImage});
  group.frames.push_back(Frame{"main", "/usr/bin/app", {}, {}, kNoImage});
  DemangleFrameNames(&group, Style::kInstruments);
  CHECK(group.frames[0].name == "AAREncoder::encode(ByteStream&)");
  CHECK(group.frames[1].name == "AAREncoder::encode(ByteStream&)");
  CHECK(group.frames[1].file == "/usr/lib/b");
  CHECK(group.frames[2].name == "main");
}

}  // namespace
}  // namespace instrumentscope::demangle
