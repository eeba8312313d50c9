// The DWARF reader on programs this test builds itself: C and C++ compiled
// with clang for arm64 and x86_64 macOS at several optimization levels and
// DWARF versions, linked by ld64.lld, their dSYMs made by dsymutil. Every
// address of __text is looked up and compared with llvm-symbolizer's answer
// for the same file. Skips, saying why, where those tools are missing.
#include "formats/macho/dwarf.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "apple_programs.h"
#include "formats/macho/macho.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using dwarf::DebugInfo;
using dwarf::SourceFrame;
using testing::ReadFile;
using testing::Run;
using testing::TempDir;
using testing::WriteFile;

// Included by the programs: a second file in the line tables, with a function
// inlined from it and one called.
constexpr const char* kHeader =
    "static inline __attribute__((always_inline)) unsigned mix(unsigned x) {\n"
    "  return (x ^ (x >> 3)) * 2654435761u;\n"
    "}\n"
    "__attribute__((noinline)) static unsigned scale(unsigned x, unsigned n) {\n"
    "  unsigned r = x;\n"
    "  for (unsigned i = 0; i < n; ++i) r = mix(r + i);\n"
    "  return r;\n"
    "}\n";

constexpr const char* kCProgram =
    "#include \"helpers.h\"\n"
    "int printf(const char*, ...);\n"
    "static inline __attribute__((always_inline)) unsigned square(unsigned x) {\n"
    "  return x * x;\n"
    "}\n"
    "static inline __attribute__((always_inline)) unsigned sum_squares(unsigned n) {\n"
    "  unsigned s = 0;\n"
    "  for (unsigned i = 0; i < n; ++i) s += square(i) + mix(i);\n"
    "  return s;\n"
    "}\n"
    "__attribute__((noinline)) unsigned accumulate(const unsigned* values, int n) {\n"
    "  unsigned total = 0;\n"
    "  for (int i = 0; i < n; ++i) total += sum_squares(values[i]) + scale(values[i], 3);\n"
    "  return total;\n"
    "}\n"
    "int main(int argc, char** argv) {\n"
    "  unsigned values[4] = {(unsigned)argc, (unsigned)argc + 1, 7, (unsigned)argv[0][0]};\n"
    "  printf(\"%u\\n\", accumulate(values, 4));\n"
    "  return 0;\n"
    "}\n";

// Compiled as C++ ("-x c++"): linkage names to demangle, methods declared in a
// class and defined outside it (DW_AT_specification), a template.
constexpr const char* kCxxProgram =
    "#include \"helpers.h\"\n"
    "extern \"C\" int printf(const char*, ...);\n"
    "namespace shapes {\n"
    "struct Grid {\n"
    "  unsigned cells[8];\n"
    "  unsigned Sum(unsigned n) const;\n"
    "  __attribute__((always_inline)) unsigned At(unsigned i) const { return cells[i & 7]; }\n"
    "};\n"
    "unsigned Grid::Sum(unsigned n) const {\n"
    "  unsigned s = 0;\n"
    "  for (unsigned i = 0; i < n; ++i) s += At(i) * mix(i);\n"
    "  return s;\n"
    "}\n"
    "template <typename T>\n"
    "__attribute__((noinline)) T Twice(T value) { return scale(value, 2) + value; }\n"
    "}  // namespace shapes\n"
    "int main(int argc, char** argv) {\n"
    "  shapes::Grid grid = {{(unsigned)argc, 2, 3, 4, 5, 6, 7, (unsigned)argv[0][0]}};\n"
    "  printf(\"%u %u\\n\", grid.Sum((unsigned)argc * 5), shapes::Twice<unsigned>(argc));\n"
    "  return 0;\n"
    "}\n";

bool HaveTools() {
  return testing::HaveTools({"clang-14", "ld64.lld-14", "dsymutil-14", "llvm-symbolizer-14"});
}

struct Fixture {
  std::string binary;
  std::string dwarf_file;  // inside the dSYM
  std::string object;      // the .o, DWARF as clang wrote it
};

Fixture Build(const fs::path& dir, const std::string& name, const std::string& source,
              const std::string& arch, const std::string& flags) {
  WriteFile((dir / "helpers.h").string(), kHeader);
  Fixture fixture;
  fixture.binary = testing::BuildProgram(dir, name, source, {arch, flags});
  fixture.dwarf_file = testing::BuildDsym(fixture.binary);
  fixture.object = (dir / (name + ".o")).string();
  return fixture;
}

// What llvm-symbolizer --verbose prints for one frame.
struct ExpectedFrame {
  std::string function;
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string function_file;
  uint32_t function_line = 0;
};

std::string Unknown(const std::string& text) {
  return text == "??" ? "" : text;
}

// One list of frames per address, in order: each address's frames end with a
// blank line; a frame starts with its function's name, unindented.
std::vector<std::vector<ExpectedFrame>> Symbolize(const std::string& file,
                                                  const std::vector<uint64_t>& addresses,
                                                  const fs::path& dir) {
  std::string input;
  for (uint64_t address : addresses) {
    std::ostringstream hex;
    hex << "0x" << std::hex << address << "\n";
    input += hex.str();
  }
  std::string list = (dir / "addresses.txt").string();
  WriteFile(list, input);
  std::string output = Run("llvm-symbolizer-14 --obj=" + file +
                           " --inlining --functions=linkage --demangle --verbose < " + list);
  REQUIRE_FALSE(testing::Failed(output));
  std::vector<std::vector<ExpectedFrame>> result(1);
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) {
      result.emplace_back();
      continue;
    }
    if (line[0] != ' ') {
      result.back().push_back(ExpectedFrame{Unknown(line)});
      continue;
    }
    REQUIRE_FALSE(result.back().empty());
    ExpectedFrame& frame = result.back().back();
    size_t colon = line.find(": ");
    std::string key = line.substr(2, colon == std::string::npos ? std::string::npos : colon - 2);
    std::string value = colon == std::string::npos ? "" : line.substr(colon + 2);
    if (key == "Filename") frame.file = Unknown(value);
    if (key == "Function start filename") frame.function_file = value;
    if (key == "Function start line") frame.function_line = std::stoul(value);
    if (key == "Line") frame.line = std::stoul(value);
    if (key == "Column") frame.column = std::stoul(value);
  }
  while (!result.empty() && result.back().empty()) result.pop_back();
  REQUIRE(result.size() == addresses.size());
  // An address no unit covers: one frame of nothing.
  for (std::vector<ExpectedFrame>& frames : result) {
    if (frames.size() == 1 && frames[0].function.empty() && frames[0].file.empty() &&
        frames[0].line == 0 && frames[0].function_line == 0) {
      frames.clear();
    }
  }
  return result;
}

std::string Describe(const std::vector<ExpectedFrame>& expected,
                     const std::vector<SourceFrame>& actual) {
  std::ostringstream text;
  text << "  llvm-symbolizer:\n";
  for (const ExpectedFrame& f : expected) {
    text << "    " << f.function << " " << f.file << ":" << f.line << ":" << f.column << " ("
         << f.function_file << ":" << f.function_line << ")\n";
  }
  text << "  ours:\n";
  for (const SourceFrame& f : actual) {
    text << "    " << f.function << " " << f.file << ":" << f.line << ":" << f.column << " ("
         << f.function_file << ":" << f.function_line << ")\n";
  }
  return text.str();
}

bool Same(const std::vector<ExpectedFrame>& expected, const std::vector<SourceFrame>& actual) {
  if (expected.size() != actual.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i) {
    const ExpectedFrame& e = expected[i];
    const SourceFrame& a = actual[i];
    if (e.function != a.function || e.file != a.file || e.line != a.line || e.column != a.column ||
        e.function_file != a.function_file || e.function_line != a.function_line) {
      return false;
    }
  }
  return true;
}

struct Comparison {
  size_t addresses = 0;
  size_t mismatches = 0;
  size_t inlined = 0;      // addresses with more than one frame
  size_t header_rows = 0;  // addresses whose innermost line is in helpers.h
  std::string first_mismatches;
};

// A copy of a thin Mach-O whose symbols all read as debugging entries (n_type
// gains N_STAB's bits): llvm-symbolizer then names functions from DWARF alone,
// as DebugInfo does. (It otherwise prefers the symbol table's name for the
// outermost frame, and names bytes no DIE covers, such as padding.)
std::string WithoutSymbols(const std::string& path, const fs::path& dir) {
  std::vector<uint8_t> bytes = ReadFile(path);
  auto u32 = [&bytes](size_t at) {
    REQUIRE(at + 4 <= bytes.size());
    return uint32_t{bytes[at]} | uint32_t{bytes[at + 1]} << 8 | uint32_t{bytes[at + 2]} << 16 |
           uint32_t{bytes[at + 3]} << 24;
  };
  constexpr uint32_t kSymtab = 0x2;
  constexpr uint8_t kStab = 0x20;
  size_t command = 32;
  for (uint32_t i = 0, count = u32(16); i < count; ++i) {
    if (u32(command) == kSymtab) {
      uint32_t symoff = u32(command + 8), nsyms = u32(command + 12);
      for (uint32_t symbol = 0; symbol < nsyms; ++symbol) bytes[symoff + 16 * symbol + 4] |= kStab;
    }
    command += u32(command + 4);
  }
  std::string copy = (dir / (fs::path(path).filename().string() + ".nosyms")).string();
  WriteFile(copy, std::string(bytes.begin(), bytes.end()));
  return copy;
}

// Looks up every address of `text` in `dwarf_path` and in llvm-symbolizer,
// `step` bytes apart.
Comparison Compare(const std::string& dwarf_path, const macho::Section& text, uint64_t step,
                   const fs::path& dir) {
  std::vector<uint8_t> bytes = ReadFile(dwarf_path);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  INFO(images.status().ToString());
  REQUIRE(images.ok());
  REQUIRE(images->size() == 1);
  auto info = DebugInfo::Read((*images)[0]);
  INFO(info.status().ToString());
  REQUIRE(info.ok());
  REQUIRE(info->has_units());

  std::vector<uint64_t> addresses;
  for (uint64_t address = text.address; address < text.address + text.size; address += step) {
    addresses.push_back(address);
  }
  std::vector<std::vector<ExpectedFrame>> expected =
      Symbolize(WithoutSymbols(dwarf_path, dir), addresses, dir);
  Comparison comparison;
  for (size_t i = 0; i < addresses.size(); ++i) {
    auto frames = info->Lookup(addresses[i]);
    INFO(frames.status().ToString());
    REQUIRE(frames.ok());
    ++comparison.addresses;
    if (frames->size() > 1) ++comparison.inlined;
    if (!frames->empty() && (*frames)[0].file.find("helpers.h") != std::string::npos) {
      ++comparison.header_rows;
    }
    if (Same(expected[i], *frames)) continue;
    if (++comparison.mismatches <= 5) {
      std::ostringstream text_address;
      text_address << std::hex << addresses[i];
      comparison.first_mismatches +=
          "0x" + text_address.str() + ":\n" + Describe(expected[i], *frames);
    }
  }
  return comparison;
}

macho::Section TextSection(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(images.ok());
  const macho::Section* text = (*images)[0].FindSection("__TEXT", "__text");
  REQUIRE(text != nullptr);
  return *text;
}

struct Variant {
  std::string language;  // "c" or "c++"
  std::string arch;
  std::string flags;
};

TEST_CASE("DWARF: every address of __text symbolizes as llvm-symbolizer says") {
  if (!HaveTools()) return;
  std::vector<Variant> variants;
  for (std::string arch : {"arm64", "x86_64"}) {
    for (std::string flags : {"-g -O1", "-g -O2 -gdwarf-4", "-g -O2 -gdwarf-5"}) {
      variants.push_back({"c", arch, flags});
    }
    variants.push_back({"c++", arch, "-g -O2 -gdwarf-4"});
  }
  for (const Variant& variant : variants) {
    DYNAMIC_SECTION(variant.language << " " << variant.arch << " " << variant.flags) {
      fs::path dir = TempDir("dwarf");
      bool cxx = variant.language == "c++";
      Fixture fixture = Build(dir, cxx ? "cxxprogram" : "program", cxx ? kCxxProgram : kCProgram,
                              variant.arch, (cxx ? "-x c++ " : "") + variant.flags);
      macho::Section text = TextSection(fixture.binary);
      uint64_t step = variant.arch == "arm64" ? 4 : 1;
      Comparison comparison = Compare(fixture.dwarf_file, text, step, dir);
      INFO(comparison.addresses << " addresses, " << comparison.inlined << " inlined\n"
                                << comparison.first_mismatches);
      CHECK(comparison.mismatches == 0);
      CHECK(comparison.addresses == (text.size + step - 1) / step);
      // dsymutil 14 drops DWARF 5's inlined ranges; the others keep them.
      if (variant.flags.find("dwarf-5") == std::string::npos) {
        CHECK(comparison.inlined > 0);
        CHECK(comparison.header_rows > 0);
      }
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("DWARF: version 5 as clang writes it into object files (strx, addrx, rnglistx)") {
  if (!HaveTools()) return;
  for (std::string arch : {"arm64", "x86_64"}) {
    DYNAMIC_SECTION(arch) {
      fs::path dir = TempDir("dwarf");
      Fixture fixture = Build(dir, "program", kCProgram, arch, "-g -O2 -gdwarf-5");
      macho::Section text = TextSection(fixture.object);
      uint64_t step = arch == "arm64" ? 4 : 1;
      Comparison comparison = Compare(fixture.object, text, step, dir);
      INFO(comparison.first_mismatches);
      CHECK(comparison.mismatches == 0);
      CHECK(comparison.inlined > 0);
      CHECK(comparison.header_rows > 0);
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("DWARF: an image without DWARF has no units") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("dwarf");
  WriteFile((dir / "helpers.h").string(), kHeader);
  std::string binary = testing::BuildProgram(dir, "program", kCProgram, {"arm64", "-O1"});
  std::vector<uint8_t> bytes = ReadFile(binary);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(images.ok());
  auto info = DebugInfo::Read((*images)[0]);
  REQUIRE(info.ok());
  CHECK_FALSE(info->has_units());
  const macho::Section* text = (*images)[0].FindSection("__TEXT", "__text");
  REQUIRE(text != nullptr);
  auto frames = info->Lookup(text->address);
  REQUIRE(frames.ok());
  CHECK(frames->empty());
  fs::remove_all(dir);
}

// Reads `image` and looks up every 4th address of `text`: fails cleanly or works.
void ExpectCleanOutcome(const macho::Image& image, const macho::Section& text,
                        const std::string& what) {
  auto info = DebugInfo::Read(image);
  std::vector<Status> failures;
  if (!info.ok()) {
    failures.push_back(info.status());
  } else {
    for (uint64_t address = text.address; address < text.address + text.size; address += 4) {
      auto frames = info->Lookup(address);
      if (!frames.ok()) failures.push_back(frames.status());
    }
  }
  for (const Status& status : failures) {
    INFO(what << ": " << status.ToString());
    CHECK((status.code() == ErrorCode::kMachOCorrupt || status.code() == ErrorCode::kTruncated));
    CHECK(status.offset().has_value());
  }
}

TEST_CASE("DWARF: damaged sections fail with what and where, never crash") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("dwarf");
  for (std::string flags : {"-g -O2 -gdwarf-4", "-g -O2 -gdwarf-5"}) {
    Fixture fixture = Build(dir, "program", kCProgram, "arm64", flags);
    for (const std::string& path : {fixture.dwarf_file, fixture.object}) {
      std::vector<uint8_t> good = ReadFile(path);
      auto images = macho::ReadMachO(ByteSpan(good.data(), good.size()));
      REQUIRE(images.ok());
      const macho::Image& image = (*images)[0];
      macho::Section text = *image.FindSection("__TEXT", "__text");
      for (std::string name :
           {"__debug_info", "__debug_abbrev", "__debug_line", "__debug_str", "__debug_rnglists",
            "__debug_ranges", "__debug_addr", "__debug_str_offs"}) {
        const macho::Section* section = image.FindSection("__DWARF", name);
        if (!section) continue;
        size_t index = static_cast<size_t>(section - image.sections.data());
        // Cut short at every length.
        for (uint64_t size = 0; size < section->size; ++size) {
          macho::Image cut = image;
          cut.sections[index].size = size;
          ExpectCleanOutcome(cut, text,
                             flags + " " + path + " " + name + " cut to " + std::to_string(size));
        }
        // Each byte replaced by a few others.
        for (uint64_t at = 0; at < section->size; ++at) {
          for (uint8_t replacement : {0x00, 0x7F, 0x80, 0xFF}) {
            std::vector<uint8_t> bad = good;
            bad[section->file_offset + at] = replacement;
            auto bad_images = macho::ReadMachO(ByteSpan(bad.data(), bad.size()));
            REQUIRE(bad_images.ok());
            ExpectCleanOutcome((*bad_images)[0], text,
                               flags + " " + path + " " + name + " byte " + std::to_string(at) +
                                   " = " + std::to_string(replacement));
          }
        }
      }
    }
  }
  fs::remove_all(dir);
}

TEST_CASE("DWARF: a section beyond its image is corrupt") {
  if (!HaveTools()) return;
  fs::path dir = TempDir("dwarf");
  Fixture fixture = Build(dir, "program", kCProgram, "arm64", "-g -O1");
  std::vector<uint8_t> bytes = ReadFile(fixture.dwarf_file);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(images.ok());
  macho::Image image = (*images)[0];
  for (macho::Section& section : image.sections) {
    if (section.name == "__debug_line") section.size = bytes.size();
  }
  auto info = DebugInfo::Read(image);
  REQUIRE_FALSE(info.ok());
  CHECK(info.status().code() == ErrorCode::kMachOCorrupt);
  CHECK_THAT(info.status().message(), Catch::Contains("__debug_line"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace instrumentscope
