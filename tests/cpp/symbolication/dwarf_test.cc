// The DWARF reader on programs this test builds itself: C and C++ compiled
// with clang for arm64 and x86_64 macOS at several optimization levels and
// DWARF versions, linked by ld64.lld, their dSYMs made by dsymutil. Every
// address of __text is looked up and compared with llvm-symbolizer's answer
// for the same file (linkage names as the file spells them: frame names are
// demangled later, for every input alike). Skips, saying why, where those
// tools are missing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "apple_programs.h"
#include "symbolication/dwarf/debug_info.h"
#include "symbolication/macho/macho.h"
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
                           " --inlining --functions=linkage --no-demangle --verbose < " + list);
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

// --- Hostile DWARF, built here byte by byte ---------------------------------
// Each file is small; what it asks for would multiply without the reader's
// budgets (symbolication/dwarf/FORMAT.md, "Bounds on hostile input"). The
// checks are on outcomes (a kLimitExceeded, or the right answer), never on time.

struct Bytes {
  std::vector<uint8_t> data;

  Bytes& U8(uint64_t value) { return Int(value, 1); }
  Bytes& U16(uint64_t value) { return Int(value, 2); }
  Bytes& U32(uint64_t value) { return Int(value, 4); }
  Bytes& U64(uint64_t value) { return Int(value, 8); }
  Bytes& Int(uint64_t value, int width) {
    for (int i = 0; i < width; ++i) data.push_back(static_cast<uint8_t>(value >> (8 * i)));
    return *this;
  }
  Bytes& Uleb(uint64_t value) {
    do {
      uint8_t byte = value & 0x7F;
      value >>= 7;
      data.push_back(value ? byte | 0x80 : byte);
    } while (value);
    return *this;
  }
  Bytes& Sleb(int64_t value) {
    for (;;) {
      uint8_t byte = value & 0x7F;
      value >>= 7;
      bool done = (value == 0 && !(byte & 0x40)) || (value == -1 && (byte & 0x40));
      data.push_back(done ? byte : byte | 0x80);
      if (done) return *this;
    }
  }
  Bytes& Str(const std::string& text) {  // with its NUL
    data.insert(data.end(), text.begin(), text.end());
    data.push_back(0);
    return *this;
  }
  Bytes& Raw(const std::string& text) {
    data.insert(data.end(), text.begin(), text.end());
    return *this;
  }
  Bytes& Append(const Bytes& other) {
    data.insert(data.end(), other.data.begin(), other.data.end());
    return *this;
  }
  size_t size() const { return data.size(); }
};

constexpr uint64_t kTextBase = 0x100000000;

// A dSYM-like Mach-O: __TEXT at kTextBase, and a __DWARF segment holding
// `sections` (name, bytes).
std::vector<uint8_t> DwarfMachO(const std::vector<std::pair<std::string, Bytes>>& sections) {
  auto name16 = [](Bytes& out, const std::string& name) {
    std::string padded = name;
    padded.resize(16, '\0');
    out.Raw(padded);
  };
  Bytes text;
  text.U32(0x19).U32(72);
  name16(text, "__TEXT");
  text.U64(kTextBase).U64(0x10000).U64(0).U64(0).U32(5).U32(5).U32(0).U32(0);
  uint32_t dwarf_size = 72 + 80 * static_cast<uint32_t>(sections.size());
  size_t data_offset = (32 + text.size() + dwarf_size + 15) & ~size_t{15};
  Bytes headers, data;
  for (const auto& [name, blob] : sections) {
    name16(headers, name);
    name16(headers, "__DWARF");
    headers.U64(0).U64(blob.size()).U32(data_offset + data.size());
    for (int i = 0; i < 7; ++i) headers.U32(0);
    data.Append(blob);
  }
  Bytes dwarf;
  dwarf.U32(0x19).U32(dwarf_size);
  name16(dwarf, "__DWARF");
  dwarf.U64(0).U64(data.size()).U64(data_offset).U64(data.size()).U32(3).U32(3);
  dwarf.U32(sections.size()).U32(0).Append(headers);
  Bytes file;
  file.U32(0xFEEDFACF).U32(0x0100000C).U32(0).U32(0xA).U32(2);
  file.U32(text.size() + dwarf.size()).U32(0).U32(0);
  file.Append(text).Append(dwarf);
  file.data.resize(data_offset, 0);
  file.Append(data);
  return file.data;
}

// A DWARF 4 unit (8-byte addresses) around `dies`.
Bytes Unit4(uint32_t abbrev_offset, const Bytes& dies) {
  Bytes unit;
  unit.U32(2 + 4 + 1 + dies.size()).U16(4).U32(abbrev_offset).U8(8).Append(dies);
  return unit;
}

// One abbreviation declaration: code, tag, children, (attribute, form) pairs.
Bytes Abbreviation(uint64_t code, uint64_t tag, bool children,
                   const std::vector<std::pair<uint64_t, uint64_t>>& attributes) {
  Bytes out;
  out.Uleb(code).Uleb(tag).U8(children ? 1 : 0);
  for (const auto& [attribute, form] : attributes) out.Uleb(attribute).Uleb(form);
  out.U8(0).U8(0);
  return out;
}

// DW_AT_* and DW_FORM_* used below.
constexpr uint64_t kName = 0x03, kStmtList = 0x10, kLowPc = 0x11, kHighPc = 0x12, kDeclLine = 0x3B,
                   kExternal = 0x3F, kRanges = 0x55;
constexpr uint64_t kAddr = 0x01, kData4 = 0x06, kString = 0x08, kStrp = 0x0E, kSecOffset = 0x17,
                   kFlagPresent = 0x19, kImplicitConst = 0x21;
constexpr uint64_t kCompileUnit = 0x11, kSubprogram = 0x2E, kInlined = 0x1D;

// The file's one image: `file` must outlive what is read from it.
macho::Image OnlyImage(const std::vector<uint8_t>& file) {
  auto images = macho::ReadMachO(ByteSpan(file.data(), file.size()));
  INFO(images.status().ToString());
  REQUIRE(images.ok());
  REQUIRE(images->size() == 1);
  return (*images)[0];
}

TEST_CASE("DWARF: units pointing into one another's abbreviation tables hit a budget") {
  // n declarations of 5 bytes; unit k names the table at declaration k, so
  // the tables overlap and add up to 5n²/2 bytes.
  constexpr uint32_t kUnits = 400;
  Bytes abbrev;
  for (uint32_t i = 0; i < kUnits; ++i) abbrev.Append(Abbreviation(1, kCompileUnit, false, {}));
  abbrev.U8(0);
  for (bool shared : {false, true}) {
    DYNAMIC_SECTION((shared ? "one table for all" : "one table each, overlapping")) {
      Bytes info;
      for (uint32_t k = 0; k < kUnits; ++k) {
        info.Append(Unit4(shared ? 0 : 5 * k, Bytes().Uleb(1)));
      }
      std::vector<uint8_t> file = DwarfMachO({{"__debug_info", info}, {"__debug_abbrev", abbrev}});
      auto info_read = DebugInfo::Read(OnlyImage(file));
      if (shared) {
        INFO(info_read.status().ToString());
        REQUIRE(info_read.ok());
        CHECK(info_read->has_units());
      } else {
        REQUIRE_FALSE(info_read.ok());
        CHECK(info_read.status().code() == ErrorCode::kLimitExceeded);
        CHECK_THAT(info_read.status().message(), Catch::StartsWith("__debug_abbrev: "));
        CHECK(info_read.status().offset().has_value());
      }
    }
  }
}

TEST_CASE("DWARF: attributes without bytes cost nothing per DIE; the first of a kind counts") {
  // Each subprogram's abbreviation lists thousands of flag_present
  // attributes (the DIEs hold none of their bytes), then repeats of name
  // and decl_line that must not override the first.
  constexpr int kFlags = 5000;
  constexpr int kFunctions = 2000;
  Bytes abbrev = Abbreviation(1, kCompileUnit, true, {{kLowPc, kAddr}, {kHighPc, kData4}});
  abbrev.Uleb(2).Uleb(kSubprogram).U8(0);
  abbrev.Uleb(kName).Uleb(kString);
  abbrev.Uleb(kDeclLine).Uleb(kImplicitConst).Sleb(42);
  for (int i = 0; i < kFlags; ++i) abbrev.Uleb(kExternal).Uleb(kFlagPresent);
  abbrev.Uleb(kName).Uleb(kFlagPresent);
  abbrev.Uleb(kDeclLine).Uleb(kImplicitConst).Sleb(7);
  abbrev.Uleb(kLowPc).Uleb(kAddr).Uleb(kHighPc).Uleb(kData4).U8(0).U8(0);
  abbrev.U8(0);
  Bytes dies;
  dies.Uleb(1).U64(kTextBase).U32(4 * kFunctions);
  for (int i = 0; i < kFunctions; ++i) {
    dies.Uleb(2).Str("f" + std::to_string(i)).U64(kTextBase + 4 * i).U32(4);
  }
  dies.U8(0);
  std::vector<uint8_t> file =
      DwarfMachO({{"__debug_info", Unit4(0, dies)}, {"__debug_abbrev", abbrev}});
  auto info = DebugInfo::Read(OnlyImage(file));
  INFO(info.status().ToString());
  REQUIRE(info.ok());
  for (int i : {0, 7, kFunctions - 1}) {
    auto frames = info->Lookup(kTextBase + 4 * i + 2);
    INFO(frames.status().ToString());
    REQUIRE(frames.ok());
    REQUIRE(frames->size() == 1);
    CHECK((*frames)[0].function == "f" + std::to_string(i));
    CHECK((*frames)[0].function_line == 42);
  }
}

// One unit over [kTextBase, +0x10000) whose `subprograms` each name (by
// DW_AT_ranges) the list at 0 of `pairs` ranges [2i, 2i + 1) from the base.
std::vector<uint8_t> SharedRangeList(int subprograms, int pairs) {
  Bytes abbrev = Abbreviation(1, kCompileUnit, true, {{kLowPc, kAddr}, {kHighPc, kData4}});
  abbrev.Append(Abbreviation(2, kSubprogram, false, {{kName, kString}, {kRanges, kSecOffset}}));
  abbrev.U8(0);
  Bytes dies;
  dies.Uleb(1).U64(kTextBase).U32(0x10000);
  for (int i = 0; i < subprograms; ++i) dies.Uleb(2).Str("s" + std::to_string(i)).U32(0);
  dies.U8(0);
  Bytes ranges;
  for (int i = 0; i < pairs; ++i) ranges.U64(2 * i).U64(2 * i + 1);
  ranges.U64(0).U64(0);
  return DwarfMachO(
      {{"__debug_info", Unit4(0, dies)}, {"__debug_abbrev", abbrev}, {"__debug_ranges", ranges}});
}

TEST_CASE("DWARF: a range list shared by many DIEs hits a budget") {
  SECTION("a few DIEs share a list: the last holds the address") {
    std::vector<uint8_t> file = SharedRangeList(3, 4);
    auto info = DebugInfo::Read(OnlyImage(file));
    REQUIRE(info.ok());
    auto frames = info->Lookup(kTextBase + 2);
    INFO(frames.status().ToString());
    REQUIRE(frames.ok());
    REQUIRE(frames->size() == 1);
    CHECK((*frames)[0].function == "s2");
  }
  SECTION("600 DIEs share a list of 600") {
    std::vector<uint8_t> file = SharedRangeList(600, 600);
    auto info = DebugInfo::Read(OnlyImage(file));
    REQUIRE(info.ok());
    for (int attempt = 0; attempt < 2; ++attempt) {  // the failure is kept, not read again
      auto frames = info->Lookup(kTextBase + 2);
      REQUIRE_FALSE(frames.ok());
      CHECK(frames.status().code() == ErrorCode::kLimitExceeded);
      CHECK_THAT(frames.status().message(), Catch::StartsWith("__debug_ranges: "));
    }
  }
}

TEST_CASE("DWARF: units sharing one range list hit a budget") {
  constexpr int kUnits = 400, kPairs = 400;
  Bytes abbrev = Abbreviation(1, kCompileUnit, false, {{kLowPc, kAddr}, {kRanges, kSecOffset}});
  abbrev.U8(0);
  Bytes info;
  for (int k = 0; k < kUnits; ++k) info.Append(Unit4(0, Bytes().Uleb(1).U64(kTextBase).U32(0)));
  Bytes ranges;
  for (int i = 0; i < kPairs; ++i) ranges.U64(2 * i).U64(2 * i + 1);
  ranges.U64(0).U64(0);
  std::vector<uint8_t> file =
      DwarfMachO({{"__debug_info", info}, {"__debug_abbrev", abbrev}, {"__debug_ranges", ranges}});
  auto read = DebugInfo::Read(OnlyImage(file));
  REQUIRE_FALSE(read.ok());
  CHECK(read.status().code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(read.status().message(), Catch::StartsWith("__debug_ranges: "));
}

// A DWARF 4 line table: one file "a.c", rows at base + j for line j + 1,
// j < rows, then `filler` bytes of special opcodes (adding rows at the last
// address) and the end of the sequence.
Bytes LineTable4(int rows) {
  Bytes header;                                  // from minimum_instruction_length to the program
  header.U8(1).U8(1).U8(1).U8(0).U8(16).U8(13);  // line_base 0, line_range 16, opcode_base 13
  for (uint8_t length : {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1}) header.U8(length);
  header.U8(0);  // no include directories
  header.Str("a.c").Uleb(0).Uleb(0).Uleb(0).U8(0);
  Bytes program;
  program.U8(0).Uleb(9).U8(2).U64(kTextBase);                  // DW_LNE_set_address
  program.U8(1);                                               // DW_LNS_copy: line 1 at the base
  for (int j = 1; j < rows; ++j) program.U8(1 + 16 * 1 + 13);  // address + 1, line + 1
  program.U8(2).Uleb(1);                                       // DW_LNS_advance_pc 1
  program.U8(0).Uleb(1).U8(1);                                 // DW_LNE_end_sequence
  Bytes table;
  table.U32(2 + 4 + header.size() + program.size()).U16(4).U32(header.size());
  table.Append(header).Append(program);
  return table;
}

TEST_CASE("DWARF: units naming one line table share it") {
  // 100 units each read the one 2000-row table; one copy each would overrun
  // the line table budget (2 × the section + 64 KiB).
  constexpr int kUnits = 100, kRows = 2000;
  Bytes abbrev = Abbreviation(1, kCompileUnit, false,
                              {{kLowPc, kAddr}, {kHighPc, kData4}, {kStmtList, kSecOffset}});
  abbrev.U8(0);
  Bytes info;
  for (int k = 0; k < kUnits; ++k) {
    info.Append(Unit4(0, Bytes().Uleb(1).U64(kTextBase + 16 * k).U32(16).U32(0)));
  }
  std::vector<uint8_t> file = DwarfMachO(
      {{"__debug_info", info}, {"__debug_abbrev", abbrev}, {"__debug_line", LineTable4(kRows)}});
  auto read = DebugInfo::Read(OnlyImage(file));
  REQUIRE(read.ok());
  for (int k = 0; k < kUnits; ++k) {
    uint64_t offset = 16 * k + 3;
    auto frames = read->Lookup(kTextBase + offset);
    INFO(k << ": " << frames.status().ToString());
    REQUIRE(frames.ok());
    REQUIRE(frames->size() == 1);
    CHECK((*frames)[0].file == "a.c");
    CHECK((*frames)[0].line == offset + 1);
  }
}

TEST_CASE("DWARF: line tables nested in one another hit a budget") {
  // Table k starts 64 bytes after table k − 1 and runs to the section's end:
  // read one by one, they add up to 64 × 64²/2 bytes of a 4 KiB section.
  constexpr int kTables = 64, kStride = 64;
  Bytes line;
  for (int k = 0; k < kTables; ++k) {
    size_t start = line.size();
    uint32_t length = static_cast<uint32_t>(kTables * kStride - start - 4);
    // opcode_base 1: every byte from 1 up is a special opcode.
    line.U32(length).U16(4).U32(8).U8(1).U8(1).U8(1).U8(0).U8(1).U8(1).U8(0).U8(0);
    while (line.size() < start + kStride) line.U8(1);
  }
  Bytes abbrev = Abbreviation(1, kCompileUnit, false,
                              {{kLowPc, kAddr}, {kHighPc, kData4}, {kStmtList, kSecOffset}});
  abbrev.U8(0);
  Bytes info;
  for (int k = 0; k < kTables; ++k) {
    info.Append(Unit4(0, Bytes().Uleb(1).U64(kTextBase + 16 * k).U32(16).U32(k * kStride)));
  }
  std::vector<uint8_t> file =
      DwarfMachO({{"__debug_info", info}, {"__debug_abbrev", abbrev}, {"__debug_line", line}});
  auto read = DebugInfo::Read(OnlyImage(file));
  REQUIRE(read.ok());
  int over_budget = 0;
  for (int k = 0; k < kTables; ++k) {
    auto frames = read->Lookup(kTextBase + 16 * k);
    if (frames.ok()) continue;
    INFO(k << ": " << frames.status().ToString());
    if (frames.status().code() == ErrorCode::kLimitExceeded) {
      ++over_budget;
      CHECK_THAT(frames.status().message(), Catch::StartsWith("__debug_line: "));
    } else {
      CHECK((frames.status().code() == ErrorCode::kMachOCorrupt ||
             frames.status().code() == ErrorCode::kTruncated));
    }
  }
  CHECK(over_budget > 0);
}

TEST_CASE("DWARF: names inside one long string, read in any order") {
  // Subprogram i is named by __debug_str offset i: a suffix of one long
  // string; past its NUL, bytes with no NUL after them name nothing.
  constexpr int kLength = 300, kFunctions = kLength + 6;
  Bytes str;
  str.Str(std::string(kLength, 'x')).Raw("tail");
  Bytes abbrev = Abbreviation(1, kCompileUnit, true, {{kLowPc, kAddr}, {kHighPc, kData4}});
  abbrev.Append(
      Abbreviation(2, kSubprogram, false, {{kName, kStrp}, {kLowPc, kAddr}, {kHighPc, kData4}}));
  abbrev.U8(0);
  Bytes dies;
  dies.Uleb(1).U64(kTextBase).U32(4 * kFunctions);
  for (int i = 0; i < kFunctions; ++i) dies.Uleb(2).U32(i).U64(kTextBase + 4 * i).U32(4);
  dies.U8(0);
  std::vector<uint8_t> file = DwarfMachO(
      {{"__debug_info", Unit4(0, dies)}, {"__debug_abbrev", abbrev}, {"__debug_str", str}});
  auto info = DebugInfo::Read(OnlyImage(file));
  REQUIRE(info.ok());
  for (int j = 0; j < kFunctions; ++j) {
    int i = (j * 7 + 3) % kFunctions;  // every one once, out of order
    auto frames = info->Lookup(kTextBase + 4 * i);
    INFO(i << ": " << frames.status().ToString());
    REQUIRE(frames.ok());
    REQUIRE(frames->size() == 1);
    CHECK((*frames)[0].function == (i < kLength ? std::string(kLength - i, 'x') : ""));
  }
}

// A unit whose function "f" holds `depth` inlined calls nested in one
// another, named name(i), all covering the same addresses.
std::vector<uint8_t> NestedInlines(int depth, const std::function<std::string(int)>& name) {
  Bytes abbrev = Abbreviation(1, kCompileUnit, true, {{kLowPc, kAddr}, {kHighPc, kData4}});
  abbrev.Append(
      Abbreviation(2, kSubprogram, true, {{kName, kString}, {kLowPc, kAddr}, {kHighPc, kData4}}));
  abbrev.Append(
      Abbreviation(3, kInlined, true, {{kName, kString}, {kLowPc, kAddr}, {kHighPc, kData4}}));
  abbrev.U8(0);
  Bytes dies;
  dies.Uleb(1).U64(kTextBase).U32(0x10000);
  dies.Uleb(2).Str("f").U64(kTextBase).U32(0x10000);
  for (int i = 0; i < depth; ++i) dies.Uleb(3).Str(name(i)).U64(kTextBase).U32(0x10000);
  for (int i = 0; i < depth + 2; ++i) dies.U8(0);
  return DwarfMachO({{"__debug_info", Unit4(0, dies)}, {"__debug_abbrev", abbrev}});
}

TEST_CASE("DWARF: inlined calls nested to the depth limit give one frame each") {
  for (int depth : {254, 255}) {
    DYNAMIC_SECTION(depth << " inlined calls") {
      std::vector<uint8_t> file =
          NestedInlines(depth, [](int i) { return "i" + std::to_string(i); });
      auto info = DebugInfo::Read(OnlyImage(file));
      REQUIRE(info.ok());
      auto frames = info->Lookup(kTextBase);
      if (depth == 254) {
        INFO(frames.status().ToString());
        REQUIRE(frames.ok());
        REQUIRE(frames->size() == 255);
        CHECK(frames->front().function == "i253");
        CHECK(frames->back().function == "f");
      } else {
        REQUIRE_FALSE(frames.ok());
        CHECK(frames.status().code() == ErrorCode::kMachOCorrupt);
        CHECK_THAT(frames.status().message(), Catch::Contains("deeper than 256"));
      }
    }
  }
}

TEST_CASE("DWARF: the text one lookup returns is bounded") {
  // 200 nested inlined calls with names of 8 KiB (1.6 MB in all) and of 24 KiB (4.8 MB).
  constexpr int kDepth = 200;
  for (size_t name_bytes : {size_t{8} << 10, size_t{24} << 10}) {
    DYNAMIC_SECTION(name_bytes << "-byte names") {
      std::vector<uint8_t> file = NestedInlines(kDepth, [name_bytes](int i) {
        return std::string(name_bytes, static_cast<char>('a' + i % 26));
      });
      auto info = DebugInfo::Read(OnlyImage(file));
      REQUIRE(info.ok());
      auto frames = info->Lookup(kTextBase);
      if (name_bytes == size_t{8} << 10) {
        INFO(frames.status().ToString());
        REQUIRE(frames.ok());
        CHECK(frames->size() == kDepth + 1);
      } else {
        REQUIRE_FALSE(frames.ok());
        CHECK(frames.status().code() == ErrorCode::kLimitExceeded);
        CHECK_THAT(frames.status().message(), Catch::Contains("per address"));
        CHECK(frames.status().offset().has_value());
      }
    }
  }
}

}  // namespace
}  // namespace instrumentscope
