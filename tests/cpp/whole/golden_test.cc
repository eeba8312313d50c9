// Golden tests: every case in tests/golden/manifest.json, imported natively,
// must give exactly the stored outputs: the speedscope JSON and the folded
// stacks, or for large profiles the summary with the JSON's size and CRC-32
// (and the stacks of the profiles the case names).
// With INSTRUMENTSCOPE_UPDATE_GOLDEN=1 (npm run golden) the files are rewritten.
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/json.h"
#include "firefox/writer.h"
#include "report/summary.h"
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

// The summary golden: what the import found (the busiest profiles of it),
// and a fingerprint of the JSON that pins every byte of it.
// tests/js/golden.test.js builds the same from the wasm build's output.
constexpr size_t kSummaryProfiles = 20;

// The naming counts, and the images with most unnamed samples.
constexpr size_t kSummaryImages = 10;

nlohmann::json NamingGolden(nlohmann::json naming) {
  if (naming["images"].size() > kSummaryImages) {
    naming["images"].erase(naming["images"].begin() + kSummaryImages, naming["images"].end());
  }
  return naming;
}

std::string SummaryGolden(const ProfileGroup& group, const std::string& json) {
  nlohmann::json summary = Summary(group, SummaryFrames::kOmit);
  std::vector<nlohmann::json> profiles = summary["profiles"];
  uint64_t samples = 0;
  for (const nlohmann::json& profile : profiles) samples += profile["sampleCount"].get<uint64_t>();
  std::stable_sort(profiles.begin(), profiles.end(), [](const auto& a, const auto& b) {
    return a["sampleCount"].template get<uint64_t>() > b["sampleCount"].template get<uint64_t>();
  });
  profiles.resize(std::min(profiles.size(), kSummaryProfiles));
  uint32_t crc =
      static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(json.data()), json.size()));
  nlohmann::json golden = {
      {"name", summary["name"]},
      {"activeProfile", summary["profiles"][group.active_profile_index]["name"]},
      {"profileCount", group.profiles.size()},
      {"sampleCount", samples},
      {"busiestProfiles", profiles},
      {"tables", summary["tables"]},
      {"warnings", summary["warnings"]},
      {"naming", NamingGolden(summary["naming"])},
      {"speedscopeJson", {{"bytes", json.size()}, {"crc32", crc}}},
  };
  return DumpJson(golden, 2) + "\n";
}

std::string SomeStacks(const ProfileGroup& group, const std::vector<std::string>& names) {
  ProfileGroup some = group;
  some.profiles.clear();
  for (const Profile& profile : group.profiles) {
    bool named = std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      return profile.name.find(name) != std::string::npos;
    });
    if (named) some.profiles.push_back(profile);
  }
  return speedscope::FoldedStacks(some);
}

// The Firefox Profiler file's golden for large profiles: its size and CRC-32,
// which pin every byte, and what each of its first threads holds, to read.
// tests/js/golden.test.js builds the same from the wasm build's output.
constexpr size_t kFirefoxThreads = 30;

std::string FirefoxSummaryGolden(const std::string& text) {
  nlohmann::json file = nlohmann::json::parse(text);
  const nlohmann::json& strings = file["shared"]["stringArray"];
  nlohmann::json threads = nlohmann::json::array();
  for (const nlohmann::json& thread : file["threads"]) {
    if (threads.size() == kFirefoxThreads) break;
    std::map<std::string, uint64_t> marker_names;
    for (const nlohmann::json& name : thread["markers"]["name"]) {
      ++marker_names[strings[name.get<size_t>()].get<std::string>()];
    }
    threads.push_back({{"name", thread["name"]},
                       {"pid", thread["pid"]},
                       {"tid", thread["tid"]},
                       {"isMainThread", thread["isMainThread"]},
                       {"samples", thread["samples"]["length"]},
                       {"weightType", thread["samples"]["weightType"]},
                       {"markers", marker_names}});
  }
  uint32_t crc =
      static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(text.data()), text.size()));
  nlohmann::json golden = {
      {"threadCount", file["threads"].size()},
      {"threads", threads},
      {"libs", file["libs"].size()},
      {"frames", file["shared"]["frameTable"]["length"]},
      {"stacks", file["shared"]["stackTable"]["length"]},
      {"strings", strings.size()},
      {"markerSchema", file["meta"]["markerSchema"]},
      {"firefoxJson", {{"bytes", text.size()}, {"crc32", crc}}},
  };
  return DumpJson(golden, 2) + "\n";
}

// Imports one case and compares (or, updating, rewrites) its golden files.
void CheckGolden(const nlohmann::json& entry, const std::string& input, const std::string& base,
                 const ImportOptions& options, bool update) {
  auto group = testing::ImportPath(input, options);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  std::ostringstream json;
  speedscope::WriteJson(*group, json);

  std::map<std::string, std::string> files;
  if (entry.value("golden", "full") == "summary") {
    files[base + ".summary.json"] = SummaryGolden(*group, json.str());
    // And the readable stacks of a few of its profiles, those whose names hold one of these.
    if (entry.contains("stacks")) {
      files[base + ".stacks.txt"] = SomeStacks(*group, entry["stacks"]);
    }
  } else {
    // Stacks first: their diff is the readable one.
    files[base + ".stacks.txt"] = speedscope::FoldedStacks(*group);
    files[base + ".speedscope.json"] = json.str();
  }
  // The Firefox Profiler file, whole ("firefox": "file") or summed up ("summary").
  if (entry.contains("firefox")) {
    std::ostringstream firefox_json;
    firefox::WriteFirefoxJson(*group, firefox_json);
    if (entry["firefox"] == "file") {
      files[base + ".firefox.json"] = firefox_json.str();
    } else {
      files[base + ".firefox.summary.json"] = FirefoxSummaryGolden(firefox_json.str());
    }
  }
  for (const auto& [path, contents] : files) {
    if (update) {
      testing::WriteFile(path, contents);
    } else {
      INFO(path);
      CHECK(contents == ReadText(path));
    }
  }
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
      std::string base =
          SourcePath("tests/golden/" + entry["format"].get<std::string>() + "/" + name);
      // Every thread count gives the same bytes.
      for (uint32_t threads : {1, 2, 4}) {
        if (update && threads > 1) break;
        INFO("threads " << threads);
        ImportOptions options;
        options.threads = threads;
        if (entry.contains("options") && entry["options"].contains("run")) {
          options.run = entry["options"]["run"].get<uint32_t>();
        }
        CheckGolden(entry, *input, base, options, update);
      }
    }
  }
}

}  // namespace
}  // namespace instrumentscope
