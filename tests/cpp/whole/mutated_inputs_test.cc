// Mutated copies of tests/malformed and of every golden corpus input through
// the whole-import fuzz target, outside libFuzzer, and of bundle folders one
// file at a time: each ends in a value or an error. Under the sanitizer
// build a read out of bounds or undefined behaviour fails the test.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "fuzz/targets.h"
#include "import/import.h"
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

constexpr size_t kMutantsPerInput = 39;

// Mutant `which` of kMutantsPerInput: cut short at one of 15 places (0-14), a
// bit flipped (15-30), four bytes of 0xFF (31-38).
std::vector<uint8_t> Mutant(const std::vector<uint8_t>& bytes, size_t which, std::mt19937& random) {
  if (which < 15) return {bytes.begin(), bytes.begin() + bytes.size() * (which + 1) / 16};
  std::vector<uint8_t> mutant = bytes;
  size_t at = random() % bytes.size();
  if (which < 31) {
    mutant[at] ^= static_cast<uint8_t>(1u << (random() % 8));
  } else {
    for (size_t j = at; j < std::min(at + 4, bytes.size()); ++j) mutant[j] = 0xFF;
  }
  return mutant;
}

// The corpus inputs of the golden tests: files, and .trace folders.
std::vector<std::string> GoldenInputs(bool folders) {
  std::vector<std::string> inputs;
  auto corpus = testing::CorpusDir();
  if (!corpus) return inputs;
  std::vector<uint8_t> bytes = ReadFile(SourcePath("tests/golden/manifest.json"));
  nlohmann::json manifest = nlohmann::json::parse(bytes.begin(), bytes.end());
  for (const nlohmann::json& entry : manifest["cases"]) {
    std::string path = *corpus + "/" + entry["input"].get<std::string>();
    if (fs::is_directory(path) == folders) inputs.push_back(path);
  }
  return inputs;
}

TEST_CASE("Mutated inputs end in a profile or an error") {
  std::vector<std::string> inputs;
  for (const auto& entry : fs::directory_iterator(SourcePath("tests/malformed"))) {
    std::string extension = entry.path().extension().string();
    if (extension != ".json" && extension != ".py") inputs.push_back(entry.path().string());
  }
  std::vector<std::string> corpus_files = GoldenInputs(false);
  if (corpus_files.empty()) WARN("the corpus is missing: mutating tests/malformed only");
  inputs.insert(inputs.end(), corpus_files.begin(), corpus_files.end());
  size_t runs = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    INFO(inputs[i]);
    std::vector<uint8_t> bytes = ReadFile(inputs[i]);
    if (bytes.empty()) continue;
    std::mt19937 random(static_cast<uint32_t>(i));
    for (size_t which = 0; which < kMutantsPerInput; ++which) {
      Run("import", Mutant(bytes, which, random));
      ++runs;
    }
  }
  CHECK(runs >= (corpus_files.empty() ? 1500u : 2000u));
}

TEST_CASE("Bundle folders with one file mutated end in a profile or an error") {
  std::vector<std::string> folders = GoldenInputs(true);
  if (folders.empty()) {
    WARN("the corpus is missing: no bundle folders to mutate");
    return;
  }
  for (size_t i = 0; i < folders.size(); ++i) {
    INFO(folders[i]);
    std::map<std::string, std::vector<uint8_t>> files;
    std::vector<std::string> read;  // the files the importer reads
    std::vector<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(folders[i])) {
      if (entry.is_regular_file()) {
        paths.push_back(fs::relative(entry.path(), folders[i]).generic_string());
      }
    }
    std::vector<bool> wanted = Import::WantedFiles(paths);
    for (size_t j = 0; j < paths.size(); ++j) {
      files[paths[j]] = {};
      if (wanted[j]) {
        files[paths[j]] = ReadFile(folders[i] + "/" + paths[j]);
        if (!files[paths[j]].empty()) read.push_back(paths[j]);
      }
    }
    REQUIRE(!read.empty());
    // Eight mutants per folder, each of one file: the large bundles cost
    // seconds per import under the sanitizers.
    std::mt19937 random(static_cast<uint32_t>(i));
    for (int m = 0; m < 8; ++m) {
      const std::string& victim = read[random() % read.size()];
      std::vector<uint8_t> mutant = Mutant(files[victim], random() % kMutantsPerInput, random);
      INFO(victim << ", mutant " << m);
      Import import(ImportOptions{});
      Status status;
      for (const auto& [path, bytes] : files) {
        status = import.AddFile(path, path == victim ? mutant : bytes);
        if (!status.ok()) break;
      }
      if (status.ok()) {
        auto group = import.Finish();
        if (group.ok()) CHECK(!group->profiles.empty());
      }
    }
  }
}

}  // namespace
}  // namespace instrumentscope
