// Symbolication on programs this test builds (clang, ld64.lld, dsymutil):
// which file names which image (UUID, name, neither), callers looked up
// inside their call, names the trace had left alone, zips and dSYM folders,
// and damaged symbol files. Whole stacks against llvm-symbolizer are checked
// through the package in tests/js/symbolication.test.js.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>

#include "apple_programs.h"
#include "base/identifiers.h"
#include "import/import.h"
#include "symbolication/macho/macho.h"
#include "symbolication/symbol_files.h"
#include "test_support.h"
#include "zip_writer.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;

constexpr const char* kProgram =
    "__attribute__((noinline)) int alpha(int x) { return x * 3 + 1; }\n"
    "__attribute__((noinline)) int beta(int x) { return alpha(x) + 2; }\n"
    "int main(int argc, char** argv) { return beta(argc); }\n";

constexpr uint64_t kLinkedText = 0x100000000;
constexpr uint64_t kLoadAddress = 0x104a8c000;

struct Built {
  std::string binary;
  std::string dwarf_file;  // inside the dSYM
  std::string uuid;
  std::map<std::string, uint64_t> symbols;  // "_alpha" → linked address
};

Built Build(const fs::path& dir, const std::string& arch) {
  Built built;
  built.binary = testing::BuildProgram(dir, arch, kProgram, {arch, "-g -O1"});
  built.dwarf_file = testing::BuildDsym(built.binary);
  std::vector<uint8_t> bytes = ReadFile(built.binary);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(images.ok());
  built.uuid = FormatUuid(*(*images)[0].uuid);
  for (const macho::Symbol& symbol : (*images)[0].symbols)
    built.symbols[symbol.name] = symbol.address;
  return built;
}

// An export of one thread whose samples are the given stacks (leaf first) of
// unsymbolicated frames in `binary` (with `uuid`, loaded at kLoadAddress), or
// named frames where a name is given.
struct ExportFrame {
  uint64_t address;  // runtime
  std::string name;  // "" for unsymbolicated ("0x…")
};
std::string Export(const std::vector<std::vector<ExportFrame>>& stacks, const std::string& uuid,
                   const std::string& binary_name = "program") {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node xpath='//trace-toc[1]/run[1]/"
         "data[1]/table[1]'><schema name=\"time-profile\">"
         "<col><mnemonic>time</mnemonic><engineering-type>sample-time</engineering-type></col>"
         "<col><mnemonic>thread</mnemonic><engineering-type>thread</engineering-type></col>"
         "<col><mnemonic>weight</mnemonic><engineering-type>weight</engineering-type></col>"
         "<col><mnemonic>stack</mnemonic><engineering-type>backtrace</engineering-type></col>"
         "</schema>\n";
  int id = 100;
  for (size_t i = 0; i < stacks.size(); ++i) {
    xml << "<row><sample-time>" << i * 1000000 << "</sample-time>";
    xml << (i == 0 ? "<thread id=\"1\" fmt=\"Main Thread 0x10 (program, pid: 7)\"><tid id=\"2\">16"
                     "</tid></thread><weight id=\"3\">1000000</weight>"
                   : "<thread ref=\"1\"/><weight ref=\"3\"/>");
    xml << "<backtrace id=\"" << id++ << "\">";
    for (const ExportFrame& frame : stacks[i]) {
      std::string address = HexAddress(frame.address);
      xml << "<frame id=\"" << id++ << "\" name=\"" << (frame.name.empty() ? address : frame.name)
          << "\" addr=\"" << address << "\"><binary id=\"" << id++ << "\" name=\"" << binary_name
          << "\" UUID=\"" << uuid << "\" load-addr=\"" << HexAddress(kLoadAddress)
          << "\" path=\"/Users/someone/" << binary_name << "\"/></frame>";
    }
    xml << "</backtrace></row>\n";
  }
  xml << "</node>\n</trace-query-result>\n";
  return xml.str();
}

struct SymbolFileArg {
  std::string path;
  std::vector<uint8_t> bytes;
};

Result<ProfileGroup> ImportWithSymbols(const std::string& xml, std::vector<SymbolFileArg> files) {
  Import import(ImportOptions{});
  for (SymbolFileArg& file : files) {
    Status added = import.AddSymbolFile(file.path, std::move(file.bytes));
    if (!added.ok()) return added;
  }
  RETURN_IF_ERROR(import.Feed(ByteSpan(reinterpret_cast<const uint8_t*>(xml.data()), xml.size())));
  return import.Finish();
}

uint64_t Runtime(uint64_t linked) {
  return linked - kLinkedText + kLoadAddress;
}

std::vector<std::string> WarningCodes(const ProfileGroup& group) {
  std::vector<std::string> codes;
  for (const Warning& warning : group.warnings) codes.push_back(warning.code);
  return codes;
}

bool HaveTools() {
  return testing::HaveTools({"clang-14", "ld64.lld-14", "dsymutil-14"});
}

TEST_CASE("Symbolication: frames named by UUID; a caller inside its call; the trace's names kept") {
  if (!HaveTools()) return;
  fs::path dir = testing::TempDir("symbolication");
  Built built = Build(dir, "arm64");
  uint64_t alpha = built.symbols.at("_alpha");
  uint64_t beta = built.symbols.at("_beta");
  uint64_t main_start = built.symbols.at("_main");
  // beta's first byte as a leaf is beta; as a return address, the call before
  // it lies in the function laid out before: alpha.
  std::string xml =
      Export({{{Runtime(beta), ""}, {Runtime(beta), ""}, {Runtime(main_start + 8), ""}},
              {{Runtime(alpha + 4), "my_own_name"}, {Runtime(main_start + 8), ""}}},
             built.uuid);
  auto group = ImportWithSymbols(
      xml, {{"program.dSYM/Contents/Resources/DWARF/program", ReadFile(built.dwarf_file)}});
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const Profile& profile = group->profiles[0];
  CHECK(testing::StackText(*group, profile.samples[0]) == "main;alpha;beta");
  CHECK(testing::StackText(*group, profile.samples[1]) == "main;my_own_name");
  auto beta_frame = std::find_if(group->frames.begin(), group->frames.end(),
                                 [](const Frame& frame) { return frame.name == "beta"; });
  REQUIRE(beta_frame != group->frames.end());
  CHECK(beta_frame->file == (dir / "arm64.c").string());
  CHECK(beta_frame->line == std::optional<uint32_t>(2));
  REQUIRE(group->symbolication.has_value());
  // beta's start (a leaf and a caller, one frame of the trace) and main + 8.
  CHECK(group->symbolication->unnamed_frames == 2);
  CHECK(group->symbolication->named_frames == 2);
  CHECK(group->symbolication->files_used ==
        std::vector<std::string>{"program.dSYM/Contents/Resources/DWARF/program (arm64)"});
  CHECK(group->warnings.empty());
  fs::remove_all(dir);
}

TEST_CASE("Symbolication: inlined calls count against maxStackNodes") {
  if (!HaveTools()) return;
  fs::path dir = testing::TempDir("symbolication-inlined");
  std::string binary = testing::BuildProgram(
      dir, "program",
      "static inline __attribute__((always_inline)) int twice(int x) { return 2 * x + 1; }\n"
      "int main(int argc, char** argv) {\n"
      "  int sum = 0;\n"
      "  for (int i = 0; i < argc; i++) sum += twice(i * sum);\n"
      "  return sum;\n"
      "}\n",
      {"arm64", "-g -O2"});
  std::vector<uint8_t> dwarf = ReadFile(testing::BuildDsym(binary));
  std::vector<uint8_t> bytes = ReadFile(binary);
  auto images = macho::ReadMachO(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(images.ok());
  const macho::Image& image = (*images)[0];
  // An address inside the inlined call: looked up, it is two frames.
  SymbolFiles files;
  REQUIRE(files.Add("program", dwarf).ok());
  const macho::Section* text = image.FindSection("__TEXT", "__text");
  std::optional<uint64_t> inlined;
  for (uint64_t address = text->address; address < text->address + text->size && !inlined;
       address += 4) {
    auto frames = files.images()[0].Lookup(address);
    REQUIRE(frames.ok());
    if (frames->size() == 2 && (*frames)[0].function == "twice") inlined = address;
  }
  REQUIRE(inlined.has_value());
  std::string xml = Export({{{Runtime(*inlined), ""}}}, FormatUuid(*image.uuid));

  ImportOptions one_node;
  one_node.limits.max_stack_nodes = 1;  // the recording's one frame fits; main;twice does not
  Import limited(one_node);
  REQUIRE(limited.AddSymbolFile("program", dwarf).ok());
  REQUIRE(limited.Feed(ByteSpan(reinterpret_cast<const uint8_t*>(xml.data()), xml.size())).ok());
  auto refused = limited.Finish();
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == ErrorCode::kLimitExceeded);
  CHECK_THAT(refused.status().message(), Catch::Contains("limits.maxStackNodes"));

  auto group = ImportWithSymbols(xml, {{"program", dwarf}});
  REQUIRE(group.ok());
  CHECK(testing::StackText(*group, group->profiles[0].samples[0]) == "main;twice");
  fs::remove_all(dir);
}

TEST_CASE("Symbolication: zipped dSYMs, universal binaries, name matches, and what stays unnamed") {
  if (!HaveTools()) return;
  fs::path dir = testing::TempDir("symbolication-files");
  Built arm = Build(dir / "arm", "arm64");
  Built intel = Build(dir / "intel", "x86_64");
  std::vector<uint8_t> dwarf = ReadFile(arm.dwarf_file);
  std::string xml = Export({{{Runtime(arm.symbols.at("_alpha") + 4), ""}}}, arm.uuid);

  SECTION("a zip of a dSYM folder: its DWARF file is found, Info.plist passed over") {
    std::vector<uint8_t> zip = testing::WriteZip(
        {{"program.dSYM/Contents/Info.plist", "<plist/>"},
         {"program.dSYM/Contents/Resources/DWARF/program", std::string(dwarf.begin(), dwarf.end()),
          /*deflate=*/true}});
    auto group = ImportWithSymbols(xml, {{"program.dSYM.zip", zip}});
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    CHECK(testing::StackText(*group, group->profiles[0].samples[0]) == "alpha");
    CHECK(group->symbolication->files_used ==
          std::vector<std::string>{
              "program.dSYM.zip!program.dSYM/Contents/Resources/DWARF/program (arm64)"});
  }
  SECTION("a universal binary: the slice with the UUID names; the other is not reported unused") {
    std::vector<uint8_t> fat = testing::Universal(
        {{0x0100000C, ReadFile(arm.binary)}, {0x01000007, ReadFile(intel.binary)}});
    auto group = ImportWithSymbols(xml, {{"program", fat}});
    REQUIRE(group.ok());
    CHECK(testing::StackText(*group, group->profiles[0].samples[0]) == "alpha");
    CHECK(group->symbolication->files_used == std::vector<std::string>{"program (arm64)"});
    CHECK(WarningCodes(*group).empty());
  }
  SECTION("another build of the same name: used, with a warning") {
    std::string other_uuid = "00000000-1111-2222-3333-444444444444";
    auto group =
        ImportWithSymbols(Export({{{Runtime(arm.symbols.at("_alpha") + 4), ""}}}, other_uuid),
                          {{"program", ReadFile(arm.binary)}});
    REQUIRE(group.ok());
    CHECK(testing::StackText(*group, group->profiles[0].samples[0]) == "alpha");
    CHECK(WarningCodes(*group) == std::vector<std::string>{"SYMBOLS_MATCHED_BY_NAME"});
    CHECK_THAT(group->warnings[0].message, Catch::Contains(other_uuid));
  }
  SECTION("a file of another program: nothing named, both reported") {
    auto group = ImportWithSymbols(Export({{{Runtime(arm.symbols.at("_alpha") + 4), ""}}},
                                          "00000000-1111-2222-3333-444444444444", "Other"),
                                   {{"program", ReadFile(intel.dwarf_file)}});
    REQUIRE(group.ok());
    CHECK(testing::StackText(*group, group->profiles[0].samples[0]) ==
          HexAddress(Runtime(arm.symbols.at("_alpha") + 4)));
    CHECK(WarningCodes(*group) == std::vector<std::string>{"SYMBOLS_UNUSED", "SYMBOLS_MISSING"});
    CHECK_THAT(group->warnings[0].message,
               Catch::Contains("program (x86_64 UUID " + intel.uuid + ") names no frame"));
    CHECK_THAT(group->warnings[1].message,
               Catch::Contains("Other (UUID 00000000-1111-2222-3333-444444444444): 1 frame in 1 "
                               "sample, no binary or dSYM given matches it"));
    CHECK(group->symbolication->named_frames == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("Symbolication: a bundle's frames outside its symbol archives keep their images") {
  auto path =
      testing::CorpusFileOrSkip("shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip");
  if (!path || !HaveTools()) return;
  // The bundle without its symbol archives: its frames become "image+0x…".
  std::vector<uint8_t> stripped = testing::ZipWithout(*path, "/symbols/stores/");

  fs::path dir = testing::TempDir("symbolication-bundle");
  Built unrelated = Build(dir, "arm64");
  Import import(ImportOptions{});
  REQUIRE(import.AddSymbolFile("program", ReadFile(unrelated.binary)).ok());
  REQUIRE(import.Feed(ByteSpan(stripped.data(), stripped.size())).ok());
  auto group = import.Finish();
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  // Each unnamed frame kept its image, its UUID and where it was loaded.
  REQUIRE_FALSE(group->images.empty());
  bool test_simple = false;
  for (const CodeImage& image : group->images) {
    CHECK(image.uuid.has_value());
    CHECK(image.load_address.has_value());
    test_simple = test_simple || image.path.find("test-simple") != std::string::npos;
  }
  CHECK(test_simple);
  REQUIRE(WarningCodes(*group) == std::vector<std::string>{"SYMBOLS_UNUSED", "SYMBOLS_MISSING"});
  CHECK_THAT(
      group->warnings[1].message,
      Catch::Matches(".*: [^ ]+ \\(UUID [0-9A-F-]{36}\\): [0-9]+ frames? in [0-9]+ samples?, "
                     "no binary or dSYM given matches it.*"));
  CHECK(group->symbolication->unnamed_frames > 0);
  CHECK(group->symbolication->named_frames == 0);
  fs::remove_all(dir);
}

TEST_CASE("Symbolication: damaged and foreign symbol files fail with their names") {
  if (!HaveTools()) return;
  fs::path dir = testing::TempDir("symbolication-damaged");
  Built built = Build(dir, "arm64");
  std::vector<uint8_t> dwarf = ReadFile(built.dwarf_file);
  Import import(ImportOptions{});
  // Every cut of the dSYM's DWARF file fails cleanly (or, cut past what is read, reads).
  for (size_t size = 0; size < dwarf.size(); size += 1 + size / 6) {
    Status added =
        import.AddSymbolFile("program", std::vector<uint8_t>(dwarf.begin(), dwarf.begin() + size));
    if (added.ok()) continue;
    INFO(size << ": " << added.ToString());
    CHECK(added.path() == "program");
    CHECK((added.code() == ErrorCode::kMachOCorrupt || added.code() == ErrorCode::kTruncated ||
           added.code() == ErrorCode::kUnknownFormat));
  }
  // Damaged DWARF in a universal file's second slice: the offset is the file's.
  std::vector<uint8_t> fat = testing::Universal({{0x0100000C, dwarf}, {0x0100000C, dwarf}});
  auto slices = macho::ReadMachO(ByteSpan(fat.data(), fat.size()));
  REQUIRE(slices.ok());
  const macho::Image& second = (*slices)[1];
  const macho::Section* abbrev = second.FindSection("__DWARF", "__debug_abbrev");
  REQUIRE(abbrev != nullptr);
  uint64_t abbrev_start = second.offset_in_file + abbrev->file_offset;
  std::fill(fat.begin() + static_cast<ptrdiff_t>(abbrev_start),
            fat.begin() + static_cast<ptrdiff_t>(abbrev_start + abbrev->size), 0xFF);
  Status damaged = import.AddSymbolFile("Universal.dSYM", fat);
  INFO(damaged.ToString());
  CHECK(damaged.code() == ErrorCode::kMachOCorrupt);
  CHECK(damaged.path() == "Universal.dSYM");
  REQUIRE(damaged.offset().has_value());
  CHECK(*damaged.offset() >= second.offset_in_file);

  std::string text = "just some notes";
  Status notes = import.AddSymbolFile("notes.txt", std::vector<uint8_t>(text.begin(), text.end()));
  CHECK(notes.code() == ErrorCode::kUnknownFormat);
  CHECK(notes.path() == "notes.txt");
  std::vector<uint8_t> empty_zip = testing::WriteZip({{"readme.txt", "nothing here"}});
  Status zip = import.AddSymbolFile("symbols.zip", empty_zip);
  CHECK(zip.code() == ErrorCode::kUnknownFormat);
  CHECK_THAT(zip.message(), Catch::Contains("holds no Mach-O file"));
  fs::remove_all(dir);
}

TEST_CASE("What a file is, by its first bytes: a recording, a symbol file, or neither") {
  auto role = [](std::vector<uint8_t> bytes) {
    return Import::RoleOf(ByteSpan(bytes.data(), bytes.size()));
  };
  using Role = Import::FileRole;
  // Mach-O: 64- and 32-bit thin, universal.
  CHECK(role({0xCF, 0xFA, 0xED, 0xFE, 12, 0, 0, 1}) == Role::kSymbols);
  CHECK(role({0xCE, 0xFA, 0xED, 0xFE, 12, 0, 0, 0}) == Role::kSymbols);
  CHECK(role({0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2}) == Role::kSymbols);
  // Recordings: a zip, an export (gzip-compressed too), a Deep Copy.
  CHECK(role({'P', 'K', 3, 4, 20, 0, 0, 0}) == Role::kRecording);
  std::string xml = "<?xml version=\"1.0\"?>\n<trace-query-result>";
  CHECK(role(std::vector<uint8_t>(xml.begin(), xml.end())) == Role::kRecording);
  CHECK(role(testing::Gzip(std::vector<uint8_t>(xml.begin(), xml.end()))) == Role::kRecording);
  CHECK(role({'b', 'p', 'l', 'i', 's', 't', '0', '0'}) == Role::kUnknown);
  CHECK(role({}) == Role::kUnknown);

  // Given as a recording, a 32-bit Mach-O is named for what it is.
  std::vector<uint8_t> binary = {0xCE, 0xFA, 0xED, 0xFE, 7, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0};
  binary.resize(4096);
  auto group = testing::ImportBytes(binary);
  REQUIRE(!group.ok());
  CHECK(group.status().code() == ErrorCode::kUnknownFormat);
  CHECK(group.status().message().find("That is a Mach-O binary, a symbol file") !=
        std::string::npos);
}

}  // namespace
}  // namespace instrumentscope
