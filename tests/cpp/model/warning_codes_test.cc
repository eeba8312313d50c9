// The warnings an import can give are declared once (model/warning_codes.h):
// the README's table says what each means and what to do, index.d.ts types
// the same codes, and no source names a code by its text.
#include "model/warning_codes.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace instrumentscope {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST_CASE("Warning kinds are listed in the order of their codes, each named once") {
  const std::vector<WarningKind>& kinds = WarningKinds();
  REQUIRE(!kinds.empty());
  std::set<std::string> names;
  for (size_t i = 0; i < kinds.size(); ++i) {
    CHECK(static_cast<size_t>(kinds[i].code) == i);
    CHECK(names.insert(kinds[i].name).second);
    CHECK(std::string(kinds[i].meaning).size() > 20);
    CHECK(!std::string(kinds[i].remedy).empty());
  }
  CHECK(std::string(WarningCodeName(WarningCode::kTableUnreadable)) == "TABLE_UNREADABLE");
}

TEST_CASE("The README's Warnings table is the declared list") {
  std::string readme = ReadText(testing::SourcePath("README.md"));
  size_t section = readme.find("\n## Warnings\n");
  REQUIRE(section != std::string::npos);
  std::string expected;
  for (const WarningKind& kind : WarningKinds()) {
    expected +=
        "| `" + std::string(kind.name) + "` | " + kind.meaning + " | " + kind.remedy + " |\n";
  }
  std::string header = "| code | meaning | what you can do |\n|---|---|---|\n";
  size_t table = readme.find(header, section);
  REQUIRE(table != std::string::npos);
  CHECK(readme.substr(table + header.size(), expected.size()) == expected);
  CHECK(readme[table + header.size() + expected.size()] == '\n');  // and nothing more
}

TEST_CASE("index.d.ts types the declared codes") {
  std::string types = ReadText(testing::SourcePath("web/src/index.d.ts"));
  size_t start = types.find("export type WarningCode =");
  REQUIRE(start != std::string::npos);
  std::string declared = types.substr(start, types.find(';', start) - start);
  std::vector<std::string> listed;
  std::regex code("'([A-Z_]+)'");
  for (auto it = std::sregex_iterator(declared.begin(), declared.end(), code);
       it != std::sregex_iterator(); ++it) {
    listed.push_back((*it)[1]);
  }
  std::vector<std::string> names;
  for (const WarningKind& kind : WarningKinds()) names.push_back(kind.name);
  CHECK(listed == names);
}

TEST_CASE("No source names a warning code by its text") {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(testing::SourcePath("cpp"))) {
    std::string path = entry.path().generic_string();
    if (!entry.is_regular_file() || path.find("warning_codes.cc") != std::string::npos) continue;
    if (entry.path().extension() != ".cc" && entry.path().extension() != ".h") continue;
    std::string text = ReadText(path);
    for (const WarningKind& kind : WarningKinds()) {
      if (text.find("\"" + std::string(kind.name) + "\"") != std::string::npos) {
        found.push_back(path + ": " + kind.name);
      }
    }
  }
  CHECK(found == std::vector<std::string>{});
}

}  // namespace
}  // namespace instrumentscope
