#include "apple_programs.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "test_support.h"

namespace instrumentscope::testing {

namespace fs = std::filesystem;

std::string Run(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return "FAILED: cannot run " + command;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  int status = pclose(pipe);
  if (status != 0) output = "FAILED: " + output;
  return output;
}

bool Failed(const std::string& output) {
  return output.rfind("FAILED", 0) == 0;
}

bool HaveTools(const std::vector<std::string>& tools) {
  for (const std::string& tool : tools) {
    if (Failed(Run("command -v " + tool))) {
      WARN("skipped: " << tool << " is not installed");
      return false;
    }
  }
  return true;
}

fs::path TempDir(const std::string& purpose) {
  fs::path dir =
      fs::temp_directory_path() / ("instrumentscope-" + purpose + "-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string BuildProgram(const fs::path& dir, const std::string& name, const std::string& source,
                         const ProgramBuild& build) {
  fs::create_directories(dir);
  std::string source_path = (dir / (name + ".c")).string();
  std::string object = (dir / (name + ".o")).string();
  std::string binary = (dir / name).string();
  WriteFile(source_path, source);
  std::string compiled = Run("clang-14 -target " + build.arch + "-apple-macos11 " + build.flags +
                             " -c " + source_path + " -o " + object);
  INFO(compiled);
  REQUIRE_FALSE(Failed(compiled));
  std::string linked = Run("ld64.lld-14 -arch " + build.arch +
                           " -platform_version macos 11.0 11.0 -undefined dynamic_lookup -o " +
                           binary + " " + object);
  INFO(linked);
  REQUIRE_FALSE(Failed(linked));
  return binary;
}

std::string BuildDsym(const std::string& binary) {
  std::string bundle = binary + ".dSYM";
  std::string made = Run("dsymutil-14 " + binary + " -o " + bundle);
  INFO(made);
  REQUIRE_FALSE(Failed(made));
  return bundle + "/Contents/Resources/DWARF/" + fs::path(binary).filename().string();
}

std::vector<uint8_t> Universal(
    const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& slices) {
  std::vector<uint8_t> file;
  auto be32 = [&file](uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
      file.push_back(static_cast<uint8_t>(value >> shift));
  };
  be32(0xCAFEBABE);
  be32(static_cast<uint32_t>(slices.size()));
  uint32_t offset = 1 << 14;
  for (const auto& [cpu_type, bytes] : slices) {
    be32(cpu_type);
    be32(0);
    be32(offset);
    be32(static_cast<uint32_t>(bytes.size()));
    be32(14);
    offset += (static_cast<uint32_t>(bytes.size()) + (1 << 14) - 1) & ~((1u << 14) - 1);
  }
  for (const auto& [cpu_type, bytes] : slices) {
    file.resize((file.size() + (1 << 14) - 1) & ~((size_t{1} << 14) - 1), 0);
    file.insert(file.end(), bytes.begin(), bytes.end());
  }
  return file;
}

}  // namespace instrumentscope::testing
