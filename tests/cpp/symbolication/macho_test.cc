// The Mach-O reader on programs this test builds itself: C compiled with
// clang for arm64 and x86_64 macOS, linked by ld64.lld, joined into a
// universal file by this test; symbols and UUIDs checked against llvm-nm and
// llvm-dwarfdump. Skips, saying why, where those tools are missing.
#include "symbolication/macho/macho.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "apple_programs.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::Run;
using testing::TempDir;
using testing::Universal;

constexpr const char* kProgram =
    "int alpha(int x) { return x * 3 + 1; }\n"
    "int beta(int x) { return alpha(x) + 2; }\n"
    "static int gamma_(int x) { return beta(x) * beta(x + 1); }\n"
    "int main(int argc, char** argv) { return gamma_(argc); }\n";

bool HaveTools() {
  return testing::HaveTools({"clang-14", "ld64.lld-14", "llvm-nm-14", "llvm-dwarfdump-14"});
}

std::string Build(const fs::path& dir, const std::string& arch) {
  return testing::BuildProgram(dir, arch, kProgram, {arch, "-g -O1"});
}

// llvm-nm's defined symbols: name → address.
std::map<std::string, uint64_t> NmSymbols(const std::string& binary) {
  std::map<std::string, uint64_t> symbols;
  std::istringstream lines(Run("llvm-nm-14 --defined-only " + binary));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string address, type, name;
    if (fields >> address >> type >> name) symbols[name] = std::stoull(address, nullptr, 16);
  }
  return symbols;
}

std::string UuidText(const macho::Uuid& uuid) {
  std::string text;
  char hex[3];
  for (size_t i = 0; i < uuid.size(); ++i) {
    std::snprintf(hex, sizeof(hex), "%02X", uuid[i]);
    text += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
  }
  return text;
}

// The first load command's cmdsize: after the 32-byte header and its cmd.
constexpr size_t kHeaderCommandSizeOffset = 32 + 4;

TEST_CASE("Mach-O: a thin arm64 program's symbols, UUID, segments and function starts") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("macho");
  std::string binary = Build(dir, "arm64");
  std::vector<uint8_t> bytes = ReadFile(binary);
  REQUIRE(macho::LooksLikeMachO(ByteSpan(bytes.data(), bytes.size())));
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  INFO(images.status().ToString());
  REQUIRE(images.ok());
  REQUIRE(images->size() == 1);
  const macho::Image& image = (*images)[0];
  CHECK(macho::ArchitectureName(image.cpu_type, image.cpu_subtype) == "arm64");
  CHECK(image.file_type == 2);
  CHECK(image.text_address() == std::optional<uint64_t>(0x100000000));
  REQUIRE(image.FindSection("__TEXT", "__text") != nullptr);

  std::map<std::string, uint64_t> read;
  for (const macho::Symbol& symbol : image.symbols) read[symbol.name] = symbol.address;
  CHECK(read == NmSymbols(binary));
  CHECK(read.count("_alpha") == 1);

  REQUIRE(image.uuid.has_value());
  std::string dwarfdump = Run("llvm-dwarfdump-14 --uuid " + binary);
  CHECK_THAT(dwarfdump, Catch::Contains("UUID: " + UuidText(*image.uuid) + " (arm64)"));

  // Every function the symbol table places in __text starts a function.
  const macho::Section* text = image.FindSection("__TEXT", "__text");
  for (const auto& [name, address] : read) {
    if (address < text->address || address >= text->address + text->size) continue;
    INFO(name);
    CHECK(std::binary_search(image.function_starts.begin(), image.function_starts.end(), address));
  }
  fs::remove_all(dir);
}

TEST_CASE("Mach-O: a universal file's architectures, each as its thin file") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("macho");
  std::vector<uint8_t> arm = ReadFile(Build(dir, "arm64"));
  std::vector<uint8_t> intel = ReadFile(Build(dir, "x86_64"));
  std::vector<uint8_t> fat = Universal({{0x0100000C, arm}, {0x01000007, intel}});
  auto images = macho::ReadMachO(ByteSpan(fat.data(), fat.size()));
  INFO(images.status().ToString());
  REQUIRE(images.ok());
  REQUIRE(images->size() == 2);
  CHECK(macho::ArchitectureName((*images)[0].cpu_type, 0) == "arm64");
  CHECK(macho::ArchitectureName((*images)[1].cpu_type, 0) == "x86_64");
  auto thin = macho::ReadMachO(ByteSpan(intel.data(), intel.size()));
  REQUIRE(thin.ok());
  CHECK((*images)[1].uuid == (*thin)[0].uuid);
  CHECK((*images)[1].symbols.size() == (*thin)[0].symbols.size());
  CHECK((*images)[0].uuid != (*images)[1].uuid);
  fs::remove_all(dir);
}

TEST_CASE("Mach-O: damaged files fail with what and where") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("macho");
  std::vector<uint8_t> good = ReadFile(Build(dir, "arm64"));
  fs::remove_all(dir);
  // Cut short anywhere, the file fails cleanly or (past the parts read) reads.
  for (size_t size = 0; size < good.size(); size += 1 + size / 8) {
    auto cut = macho::ReadMachO(ByteSpan(good.data(), size));
    if (cut.ok()) continue;
    INFO(size << ": " << cut.status().ToString());
    CHECK((cut.status().code() == ErrorCode::kTruncated ||
           cut.status().code() == ErrorCode::kMachOCorrupt));
    CHECK(cut.status().offset().has_value());
  }
  // A load command that claims more than the commands hold.
  std::vector<uint8_t> bad = good;
  bad[kHeaderCommandSizeOffset] = 0xFF;
  bad[kHeaderCommandSizeOffset + 1] = 0xFF;
  auto oversized = macho::ReadMachO(ByteSpan(bad.data(), bad.size()));
  REQUIRE_FALSE(oversized.ok());
  CHECK(oversized.status().code() == ErrorCode::kMachOCorrupt);
  CHECK_THAT(oversized.status().message(), Catch::Contains("load command 0 claims 65535"));
  CHECK(oversized.status().offset() == std::optional<uint64_t>(32));

  std::vector<uint8_t> word = {0xCE, 0xFA, 0xED, 0xFE, 0, 0, 0, 0};
  CHECK(macho::ReadMachO(ByteSpan(word.data(), word.size())).status().code() ==
        ErrorCode::kMachOUnsupported);
  std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o'};
  CHECK_FALSE(macho::LooksLikeMachO(ByteSpan(text.data(), text.size())));
}

}  // namespace
}  // namespace instrumentscope
