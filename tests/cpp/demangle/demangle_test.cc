// The demangling component as importers use it: the dispatcher over Swift,
// Rust and Itanium names (with Mach-O's underscore and dyld's stub prefix),
// the pass over a profile's frames, and hostile names. Each demangler's
// vectors are tested in demangle_swift_test.cc and demangle_rust_test.cc.
#include "demangle/demangle.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "container/file_tree.h"
#include "demangle/itanium.h"
#include "demangle/punycode.h"
#include "symbolication/demangle_frames.h"
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

TEST_CASE("Itanium names print as current LLVM prints them") {
  // Nested templates close with ">>" (LLVM 15 on; c++filt before it printed "> >").
  CHECK(DemangleItanium("_ZN1AIS_IiEE1fEv") == "A<A<int>>::f()");
  CHECK(DemangleItanium("__ZN5swift12metadataimpl14ValueWitnessesINS0_9NativeBoxIyLm8ELm8ELm8EEEE18"
                        "initializeWithTakeEPNS_11OpaqueValueES6_PKNS_14TargetMetadataINS_"
                        "9InProcessEEE") ==
        "swift::metadataimpl::ValueWitnesses<swift::metadataimpl::NativeBox<unsigned long long, "
        "8ul, 8ul, 8ul>>::initializeWithTake(swift::OpaqueValue*, swift::OpaqueValue*, "
        "swift::TargetMetadata<swift::InProcess> const*)");
  // _Float16 (DF16_), in RenderBox of Instruments 26's shared cache.
  CHECK(DemangleItanium("_Z1fDF16_") == "f(_Float16)");
  // A discriminator, and LLVM's extension of digits that end the name.
  CHECK(DemangleItanium("_ZZ1fvE1x_0") == "f()::x");
  CHECK(DemangleItanium("_ZZ1fvE1x__12_") == "f()::x");
  CHECK(DemangleItanium("_ZZ1fvE1x12") == "f()::x");
}

// The C++ names (linkage names "__Z…", "____Z…" of functions and inlined
// calls) in the string tables of the corpus's symbol archives.
std::vector<std::string> ArchivedCppNames() {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> archives;
  auto add_folder = [&](const std::string& relative) {
    auto folder = testing::CorpusFileOrSkip(relative);
    if (!folder) return;
    for (const auto& entry : std::filesystem::directory_iterator(*folder + "/symbols/stores")) {
      archives.emplace_back(entry.path().string(), testing::ReadFile(entry.path().string()));
    }
  };
  add_folder("BA-Partners__Documents/Untitled.trace");
  add_folder("modplug__loops/profile.trace");
  for (const char* zipped : {"benjaminRomano__mperf/src/test/resources/example.trace.zip",
                             "shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip"}) {
    auto path = testing::CorpusFileOrSkip(zipped);
    if (!path) continue;
    Limits limits;
    auto tree = ZipTree::Open(
        std::make_shared<const std::vector<uint8_t>>(testing::ReadFile(*path)), limits);
    REQUIRE(tree.ok());
    for (const std::string& member : (*tree)->paths()) {
      if (member.find("/symbols/stores/") == std::string::npos) continue;
      auto bytes = (*tree)->Read(member);
      REQUIRE(bytes.ok());
      archives.emplace_back(member, **bytes);
    }
  }
  std::set<std::string> names;
  for (const auto& [path, bytes] : archives) {
    INFO(path);
    REQUIRE(bytes.size() >= 0x60);
    // The string table ends the archive; its size is the u32 at 0x54.
    uint32_t table_size = bytes[0x54] | bytes[0x55] << 8 | bytes[0x56] << 16 | bytes[0x57] << 24;
    REQUIRE(table_size <= bytes.size());
    std::string table(bytes.end() - table_size, bytes.end());
    std::istringstream strings(table);
    std::string name;
    while (std::getline(strings, name, '\0')) {
      if (name.rfind("__Z", 0) == 0 || name.rfind("____Z", 0) == 0) names.insert(name);
    }
  }
  return std::vector<std::string>(names.begin(), names.end());
}

// What llvm-cxxfilt prints for each name, one per line, each given whole as
// an argument (standard input would be split at spaces, which block names
// hold); nullopt without the tool.
std::optional<std::vector<std::string>> LlvmCxxFilt(const std::vector<std::string>& names) {
  const std::string tool = "/usr/lib/llvm-19/bin/llvm-cxxfilt";
  if (!std::filesystem::exists(tool)) return std::nullopt;
  std::vector<std::string> printed;
  const size_t kBatch = 200;
  for (size_t first = 0; first < names.size(); first += kBatch) {
    std::string command = tool + " --strip-underscore";
    for (size_t i = first; i < names.size() && i < first + kBatch; ++i) {
      command += " '" + names[i] + "'";  // manglings hold no quote
    }
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe);
    std::string output;
    char buffer[4096];
    for (size_t read; (read = fread(buffer, 1, sizeof buffer, pipe)) > 0;)
      output.append(buffer, read);
    REQUIRE(pclose(pipe) == 0);
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) printed.push_back(line);
  }
  return printed;
}

TEST_CASE("C++ names of the corpus's symbol archives read as LLVM 19's llvm-cxxfilt prints them") {
  std::vector<std::string> names = ArchivedCppNames();
  if (names.empty()) return;  // no corpus: skipped above
  auto printed = LlvmCxxFilt(names);
  if (!printed) {
    WARN("skipped: /usr/lib/llvm-19/bin/llvm-cxxfilt is not installed (Debian's llvm-19)");
    return;
  }
  REQUIRE(printed->size() == names.size());
  CHECK(names.size() > 800);
  for (size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(DemangleItanium(names[i]) == (*printed)[i]);
  }
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
  // 3,002 parameters: a list of nodes larger than the parser's blocks, which
  // once got too little memory (found by fuzzing).
  std::optional<std::string> many = DemangleItanium("_Z1f" + std::string(3002, 'i'));
  REQUIRE(many);
  CHECK(many->size() == std::string("f()").size() + 3002 * std::string("int, ").size() - 2);
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
