// Golden tests: every case in tests/golden/manifest.json, imported natively,
// must give exactly the stored speedscope JSON and folded stacks. With
// INSTRUMENTSCOPE_UPDATE_GOLDEN=1 (npm run golden) the files are rewritten.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

#include "speedscope/folded_stacks.h"
#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;
using testing::ReadFile;
using testing::SourcePath;

std::string ReadText(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  return std::string(bytes.begin(), bytes.end());
}

TEST_CASE("Golden outputs") {
  nlohmann::json manifest =
      nlohmann::json::parse(ReadText(SourcePath("tests/golden/manifest.json")));
  bool update = std::getenv("INSTRUMENTSCOPE_UPDATE_GOLDEN") != nullptr;
  for (const nlohmann::json& entry : manifest["cases"]) {
    std::string name = entry["name"];
    DYNAMIC_SECTION(name) {
      auto input = CorpusFileOrSkip(entry["input"]);
      if (!input) continue;
      ImportOptions options;
      options.name = input->substr(input->find_last_of('/') + 1);
      if (entry.contains("options") && entry["options"].contains("run")) {
        options.run = entry["options"]["run"].get<uint32_t>();
      }
      auto group = testing::ImportBytes(ReadFile(*input), options);
      INFO(group.status().ToString());
      REQUIRE(group.ok());
      std::ostringstream json;
      speedscope::WriteJson(*group, json);
      std::string stacks = speedscope::FoldedStacks(*group);

      std::string base =
          SourcePath("tests/golden/" + entry["format"].get<std::string>() + "/" + name);
      if (update) {
        testing::WriteFile(base + ".speedscope.json", json.str());
        testing::WriteFile(base + ".stacks.txt", stacks);
        continue;
      }
      // Stacks first: their diff is the readable one.
      CHECK(stacks == ReadText(base + ".stacks.txt"));
      CHECK(json.str() == ReadText(base + ".speedscope.json"));
    }
  }
}

}  // namespace
}  // namespace instrumentscope
