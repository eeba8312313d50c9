// Every damaged or hostile input in tests/malformed/manifest.json ends in its
// expected error: code, and where the manifest gives them, path, line, offset
// and a message fragment.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::ReadFile;
using testing::SourcePath;

TEST_CASE("Malformed inputs end in their expected errors") {
  std::vector<uint8_t> manifest_bytes = ReadFile(SourcePath("tests/malformed/manifest.json"));
  nlohmann::json manifest = nlohmann::json::parse(manifest_bytes.begin(), manifest_bytes.end());
  REQUIRE(manifest["cases"].size() >= 20);
  for (const nlohmann::json& entry : manifest["cases"]) {
    std::string file = entry["file"];
    INFO(file);
    std::vector<uint8_t> bytes = ReadFile(SourcePath("tests/malformed/" + file));
    ImportOptions options;
    if (entry.contains("options")) {
      const nlohmann::json& limits = entry["options"]["limits"];
      if (limits.contains("maxMemberBytes"))
        options.limits.max_member_bytes = limits["maxMemberBytes"];
    }
    // Whole, and a byte at a time: chunk boundaries must not change the verdict.
    for (size_t chunk : {size_t{1} << 20, size_t{1}}) {
      auto result = testing::ImportBytes(bytes, options, chunk);
      REQUIRE_FALSE(result.ok());
      const Status& status = result.status();
      INFO(status.ToString());
      CHECK(ErrorCodeName(status.code()) == entry["code"].get<std::string>());
      if (entry.contains("path")) CHECK(status.path() == entry["path"].get<std::string>());
      if (entry.contains("line")) CHECK(status.line() == entry["line"].get<uint64_t>());
      if (entry.contains("offset")) CHECK(status.offset() == entry["offset"].get<uint64_t>());
      if (entry.contains("message")) {
        CHECK(status.message().find(entry["message"].get<std::string>()) != std::string::npos);
      }
    }
  }
}

TEST_CASE("The malformed fixtures' control document imports") {
  auto group = testing::ImportBytes(ReadFile(SourcePath("tests/malformed/valid-control.xml")));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(group->profiles.size() == 1);
  CHECK(group->profiles[0].sample_count == 2);
}

}  // namespace
}  // namespace instrumentscope
