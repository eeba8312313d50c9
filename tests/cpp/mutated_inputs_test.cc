// Mutated copies of small real inputs through the whole-import fuzz target,
// outside libFuzzer: each ends in a value or an error. Under the sanitizer
// build a read out of bounds or undefined behaviour fails the test.
#include <catch2/catch.hpp>
#include <filesystem>
#include <random>

#include "fuzz/targets.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::SourcePath;

void Run(const char* target_name, const std::vector<uint8_t>& bytes) {
  const fuzz::Target* target = fuzz::FindTarget(target_name);
  REQUIRE(target);
  target->run(ByteSpan(bytes.data(), bytes.size()));
}

// Cut short at 15 places, a bit flipped at 16, four bytes of 0xFF at 8.
std::vector<std::vector<uint8_t>> Mutants(const std::vector<uint8_t>& bytes, uint32_t seed) {
  std::vector<std::vector<uint8_t>> mutants;
  if (bytes.empty()) return mutants;
  std::mt19937 random(seed);
  for (size_t k = 1; k < 16; ++k) {
    mutants.emplace_back(bytes.begin(), bytes.begin() + bytes.size() * k / 16);
  }
  for (int i = 0; i < 16; ++i) {
    mutants.push_back(bytes);
    mutants.back()[random() % bytes.size()] ^= static_cast<uint8_t>(1u << (random() % 8));
  }
  for (int i = 0; i < 8; ++i) {
    mutants.push_back(bytes);
    size_t at = random() % bytes.size();
    for (size_t j = at; j < std::min(at + 4, bytes.size()); ++j) mutants.back()[j] = 0xFF;
  }
  return mutants;
}

TEST_CASE("Mutated inputs end in a profile or an error") {
  std::vector<std::string> inputs;
  for (const auto& entry : fs::directory_iterator(SourcePath("tests/malformed"))) {
    if (entry.path().extension() != ".json") inputs.push_back(entry.path().string());
  }
  if (auto corpus = testing::CorpusDir()) {
    for (const char* file :
         {"openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/"
          "time-profile.xcode12.5.xml",
          "openjdk__jmh/jmh-core/src/test/resources/org.openjdk.jmh.profile.xctrace/"
          "time-profile.xcode26.4.1.xml",
          "shadi-gamal__uniprof/tests/fixtures/test-simple-export.xml.gz",
          "jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-time-profile.trace.zip",
          "jlfwong__speedscope/sample/profiles/Instruments/10.0/simple-time-profile.trace.zip"}) {
      inputs.push_back(*corpus + "/" + file);
    }
  } else {
    WARN("the corpus is missing: mutating tests/malformed only");
  }
  size_t runs = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    INFO(inputs[i]);
    for (const std::vector<uint8_t>& mutant :
         Mutants(ReadFile(inputs[i]), static_cast<uint32_t>(i))) {
      Run("import", mutant);
      ++runs;
    }
  }
  CHECK(runs >= 1500);
}

}  // namespace
}  // namespace instrumentscope
