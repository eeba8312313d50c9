#include "container/keyed_archive.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "bplist_writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

namespace fs = std::filesystem;
using testing::BplistWriter;
using testing::KeyedArchiveWriter;

Result<KeyedArchive> Parse(const std::vector<uint8_t>& bytes) {
  return KeyedArchive::Parse(ByteSpan(bytes.data(), bytes.size()), Limits{});
}

template <typename T>
void CheckError(const Result<T>& result, const std::string& message) {
  INFO(result.status().ToString());
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == ErrorCode::kKeyedArchiveCorrupt);
  CHECK(result.status().message() == message);
}

// An archived XRRun with fields of every kind, inline and referred to.
struct Sample {
  std::vector<uint8_t> bytes;
  uint32_t run, name, plain, count, items, dict, blob, raw;
};

Sample MakeSample() {
  KeyedArchiveWriter writer;
  BplistWriter& plist = writer.plist();
  Sample sample;
  uint32_t string_class = writer.Class("NSMutableString");
  uint32_t array_class = writer.Class("NSMutableArray");
  uint32_t dict_class = writer.Class("NSDictionary");
  uint32_t data_class = writer.Class("NSMutableData");
  sample.name = writer.Instance(string_class, {{"NS.string", plist.Utf16(u"Run \u00e9")}});
  sample.plain = writer.Add(plist.Ascii("plain"));
  sample.count = writer.Add(plist.Int(42));
  sample.items = writer.Instance(
      array_class,
      {{"NS.objects", plist.Array({writer.Ref(sample.plain), writer.Ref(sample.count)})}});
  sample.dict =
      writer.Instance(dict_class, {{"NS.keys", plist.Array({writer.Ref(sample.plain)})},
                                   {"NS.objects", plist.Array({writer.Ref(sample.count)})}});
  sample.blob = writer.Instance(data_class, {{"NS.data", plist.Data({1, 2, 3})}});
  sample.raw = writer.Add(plist.Data({9}));
  sample.run = writer.Instance(writer.Class("XRRun"), {{"number", plist.Int(7)},
                                                       {"count", writer.Ref(sample.count)},
                                                       {"name", writer.Ref(sample.name)},
                                                       {"title", plist.Ascii("inline")},
                                                       {"items", writer.Ref(sample.items)},
                                                       {"dict", writer.Ref(sample.dict)},
                                                       {"blob", writer.Ref(sample.blob)},
                                                       {"raw", writer.Ref(sample.raw)},
                                                       {"nothing", writer.Ref(0)},
                                                       {"ratio", plist.Real(0.5)}});
  writer.SetTop("root", writer.Ref(sample.run));
  writer.SetTop("version", plist.Real(2.1));
  sample.bytes = writer.Build();
  return sample;
}

TEST_CASE("A keyed archive's objects, classes and fields") {
  Sample sample = MakeSample();
  auto archive = Parse(sample.bytes);
  INFO(archive.status().ToString());
  REQUIRE(archive.ok());
  CHECK(archive->version() == 100000);
  CHECK(archive->size() == sample.run + 1);
  CHECK(archive->TopKeys() == std::vector<std::string_view>{"root", "version"});
  REQUIRE(archive->Top("root").ok());
  const uint32_t run = *archive->Top("root");
  CHECK(run == sample.run);
  CHECK(*archive->ClassName(run) == "XRRun");

  CHECK(*archive->IntegerField(run, "number") == 7);
  CHECK(*archive->IntegerField(run, "count") == 42);
  CHECK(*archive->StringField(run, "name") == "Run \xC3\xA9");
  CHECK(*archive->StringField(run, "title") == "inline");
  CHECK((*archive->RawField(run, "ratio"))->real == 0.5);
  CHECK(archive->Value(sample.count).integer == 42);
  CHECK(*archive->Integer(sample.count) == 42);
  CHECK(*archive->String(sample.plain) == "plain");
  CHECK(*archive->String(sample.name) == "Run \xC3\xA9");
  CHECK(*archive->ClassName(sample.name) == "NSMutableString");

  REQUIRE(archive->Field(run, "items").ok());
  CHECK(*archive->Field(run, "items") == sample.items);
  CHECK(*archive->ArrayElements(sample.items) == std::vector<uint32_t>{sample.plain, sample.count});
  CHECK(*archive->DictionaryEntries(sample.dict) ==
        std::vector<std::pair<uint32_t, uint32_t>>{{sample.plain, sample.count}});
  ByteSpan blob = *archive->DataBytes(sample.blob);
  CHECK(std::vector<uint8_t>(blob.data(), blob.data() + blob.size()) ==
        std::vector<uint8_t>{1, 2, 3});
  CHECK(archive->DataBytes(sample.raw)->size() == 1);

  CHECK(*archive->Field(run, "nothing") == 0);
  CHECK(archive->IsNull(0));
  CHECK_FALSE(archive->IsNull(sample.plain));
  CHECK(*archive->OptionalField(run, "nothing") == std::nullopt);
  CHECK(*archive->OptionalField(run, "missing") == std::nullopt);
  CHECK(*archive->OptionalField(run, "items") == sample.items);
}

TEST_CASE("Keyed archive errors name the object and the field") {
  Sample sample = MakeSample();
  auto archive = Parse(sample.bytes);
  REQUIRE(archive.ok());
  const std::string run = "object " + std::to_string(sample.run) + " (XRRun)";
  const std::string plain = "object " + std::to_string(sample.plain) + " (string)";

  CheckError(archive->Field(sample.run, "missing"), run + " has no field \"missing\"");
  CheckError(archive->RawField(sample.run, "missing"), run + " has no field \"missing\"");
  CheckError(archive->Field(sample.run, "number"),
             "field \"number\" of " + run + " holds an integer where a reference belongs");
  CheckError(archive->OptionalField(sample.run, "title"),
             "field \"title\" of " + run + " holds a string where a reference belongs");
  CheckError(archive->IntegerField(sample.run, "title"),
             "field \"title\" of " + run + " is a string, not an integer");
  CheckError(archive->IntegerField(sample.run, "name"),
             "object " + std::to_string(sample.name) + " (NSMutableString) is not an integer");
  CheckError(archive->StringField(sample.run, "ratio"),
             "field \"ratio\" of " + run + " is a real, not a string");
  CheckError(archive->String(sample.count),
             "object " + std::to_string(sample.count) + " (integer) is not a string");
  CheckError(archive->Integer(sample.run), run + " is not an integer");
  CheckError(archive->DataBytes(sample.plain), plain + " is not data");
  CheckError(archive->ArrayElements(sample.run), run + " has no field \"NS.objects\"");
  CheckError(archive->ArrayElements(sample.plain), plain + " has no fields");
  CheckError(
      archive->DictionaryEntries(sample.items),
      "object " + std::to_string(sample.items) + " (NSMutableArray) has no field \"NS.keys\"");
  CheckError(archive->ClassName(sample.plain),
             "object " + std::to_string(sample.plain) + " has no $class");
  CheckError(archive->Top("missing"), "$top has no key \"missing\"");
  CheckError(archive->Top("version"), "$top[\"version\"] is a real, not a reference");
}

TEST_CASE("Malformed collections and classes in a keyed archive") {
  KeyedArchiveWriter writer;
  BplistWriter& plist = writer.plist();
  uint32_t array_class = writer.Class("NSArray");
  uint32_t dict_class = writer.Class("NSDictionary");
  uint32_t inline_element =
      writer.Instance(array_class, {{"NS.objects", plist.Array({plist.Int(1)})}});
  uint32_t not_array = writer.Instance(array_class, {{"NS.objects", plist.Int(1)}});
  uint32_t uneven =
      writer.Instance(dict_class, {{"NS.keys", plist.Array({writer.Ref(0), writer.Ref(0)})},
                                   {"NS.objects", plist.Array({writer.Ref(0)})}});
  uint32_t bad_class = writer.Add(plist.StringDict({{"$class", writer.Ref(0)}}));
  std::vector<uint8_t> bytes = writer.Build();
  auto archive = Parse(bytes);
  REQUIRE(archive.ok());

  CheckError(archive->ArrayElements(inline_element),
             "field \"NS.objects\" of object " + std::to_string(inline_element) +
                 " (NSArray) holds an integer where a reference belongs");
  CheckError(archive->ArrayElements(not_array), "field \"NS.objects\" of object " +
                                                    std::to_string(not_array) +
                                                    " (NSArray) is an integer, not an array");
  CheckError(archive->DictionaryEntries(uneven),
             "object " + std::to_string(uneven) + " (NSDictionary) has 2 keys but 1 values");
  CheckError(archive->ClassName(bad_class),
             "object " + std::to_string(bad_class) + "'s class, object 0, has no $classname");
}

TEST_CASE("A keyed archive's root is checked") {
  auto build = [](const std::string& key, std::optional<uint32_t> (*value)(BplistWriter&)) {
    KeyedArchiveWriter writer;
    writer.SetTop("root", writer.Ref(0));
    std::vector<std::pair<std::string, uint32_t>> root;
    for (const auto& entry : writer.Root()) {
      if (entry.first != key) root.push_back(entry);
    }
    if (auto replacement = value(writer.plist())) root.emplace_back(key, *replacement);
    return writer.BuildWithRoot(root);
  };
  auto missing = [](BplistWriter&) -> std::optional<uint32_t> { return std::nullopt; };
  auto integer = [](BplistWriter& plist) -> std::optional<uint32_t> { return plist.Int(99); };
  auto text = [](BplistWriter& plist) -> std::optional<uint32_t> {
    return plist.Ascii("NSArchiver");
  };
  auto dict = [](BplistWriter& plist) -> std::optional<uint32_t> { return plist.Dict({}); };
  auto array = [](BplistWriter& plist) -> std::optional<uint32_t> { return plist.Array({}); };

  CheckError(Parse(build("$archiver", text)),
             "$archiver is \"NSArchiver\", not \"NSKeyedArchiver\"");
  CheckError(Parse(build("$archiver", integer)),
             "$archiver is an integer, not \"NSKeyedArchiver\"");
  CheckError(Parse(build("$archiver", missing)), "$archiver is missing, not \"NSKeyedArchiver\"");
  CheckError(Parse(build("$version", missing)), "$version is missing or not an integer");
  CheckError(Parse(build("$version", text)), "$version is missing or not an integer");
  CheckError(Parse(build("$objects", missing)), "$objects is missing or not an array");
  CheckError(Parse(build("$objects", dict)), "$objects is missing or not an array");
  CheckError(Parse(build("$top", missing)), "$top is missing or not a dictionary");
  CheckError(Parse(build("$top", array)), "$top is missing or not a dictionary");

  std::vector<uint8_t> other_version = build("$version", integer);
  auto tolerated = Parse(other_version);
  REQUIRE(tolerated.ok());
  CHECK(tolerated->version() == 99);

  BplistWriter not_dict;
  CheckError(Parse(not_dict.Build(not_dict.Array({}))),
             "the archive's root is an array, not a dictionary");

  std::vector<uint8_t> cut = build("$top", dict);
  cut.pop_back();
  CHECK(Parse(cut).status().code() == ErrorCode::kPlistCorrupt);
}

TEST_CASE("UIDs beyond $objects are refused when parsing") {
  KeyedArchiveWriter writer;
  writer.SetTop("root", writer.Ref(0));
  writer.Add(writer.plist().Array({writer.Ref(1000)}));
  CheckError(Parse(writer.Build()), "a UID refers to object 1000, but $objects has 2");
}

TEST_CASE("Describe shows classes and fields and stops at cycles and at its depth") {
  KeyedArchiveWriter writer;
  BplistWriter& plist = writer.plist();
  uint32_t node = writer.Class("Node");
  const uint32_t a = writer.size();
  const uint32_t b = a + 1;
  writer.Instance(node, {{"self", writer.Ref(a)}, {"next", writer.Ref(b)}});
  writer.Instance(node, {{"back", writer.Ref(a)},
                         {"label", plist.Ascii("b")},
                         {"list", plist.Array({writer.Ref(0), plist.Int(3)})}});
  uint32_t nested = plist.Int(0);  // inline arrays, ten deep
  for (int level = 0; level < 10; ++level) nested = plist.Array({nested});
  const uint32_t looping = writer.Instance(node, {{"loop", nested}});
  std::vector<uint32_t> many;
  for (int i = 0; i < 20; ++i) many.push_back(plist.Int(i));
  const uint32_t wide = writer.Instance(node, {{"many", plist.Array(many)}});
  std::vector<uint8_t> bytes = writer.Build();
  auto archive = Parse(bytes);
  REQUIRE(archive.ok());

  CHECK(archive->Describe(a, 10) ==
        "#2 Node\n"
        "  self: #2 …cycle…\n"
        "  next: #3 Node\n"
        "    back: #2 …cycle…\n"
        "    label: \"b\"\n"
        "    list: array of 2\n"
        "      [0] #0 \"$null\"\n"
        "      [1] 3");
  CHECK(archive->Describe(a, 0) == "#2 Node …");
  CHECK(archive->Describe(a, 1) == "#2 Node\n  self: #2 …cycle…\n  next: #3 Node …");

  std::string looped = archive->Describe(looping, 5);
  CHECK(looped.find("loop: array of 1\n    [0] array of 1") != std::string::npos);
  CHECK(looped.find("array of 1 …") != std::string::npos);

  std::string wide_text = archive->Describe(wide, 3);
  CHECK(wide_text.find("[15] 15") != std::string::npos);
  CHECK(wide_text.find("[16]") == std::string::npos);
  CHECK(wide_text.find("… 4 more") != std::string::npos);
}

bool IsBplist(const std::vector<uint8_t>& bytes) {
  return bytes.size() >= 8 && std::string(bytes.begin(), bytes.begin() + 8) == "bplist00";
}

// A bplist00 or zlib header (CMF 0x78) at the start of the file at `path`.
bool MayBeBplist(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  char start[8] = {};
  file.read(start, sizeof(start));
  return start[0] == 0x78 || std::string_view(start, sizeof(start)) == "bplist00";
}

// Instruments writes some bundle files as bare zlib streams; most of those in
// the corpus hold other things, so inflating stops as soon as that shows.
std::optional<std::vector<uint8_t>> InflateZlibBplist(const std::vector<uint8_t>& compressed) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return std::nullopt;
  stream.next_in = const_cast<Bytef*>(compressed.data());
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::vector<uint8_t> out;
  uint8_t buffer[65536];
  int result;
  do {
    stream.next_out = buffer;
    stream.avail_out = sizeof(buffer);
    result = inflate(&stream, Z_NO_FLUSH);
    out.insert(out.end(), buffer, buffer + (sizeof(buffer) - stream.avail_out));
  } while (result == Z_OK && IsBplist(out));
  inflateEnd(&stream);
  if (result != Z_STREAM_END || !IsBplist(out)) return std::nullopt;
  return out;
}

TEST_CASE("A real form.template: Instruments' document archive") {
  auto path = testing::CorpusFileOrSkip("Ricks__Strux/Instruments.trace/form.template");
  if (!path) return;
  std::vector<uint8_t> bytes = testing::ReadFile(*path);
  auto archive = Parse(bytes);
  INFO(archive.status().ToString());
  REQUIRE(archive.ok());
  // As Python's plistlib.load(...)["$top"].keys() lists them.
  CHECK(archive->TopKeys() == std::vector<std::string_view>{
                                  "$6",
                                  "$2",
                                  "cliTargetDevice",
                                  "$3",
                                  "com.apple.xray.owner.template",
                                  "stubInfoByUUID",
                                  "$4",
                                  "com.apple.xray.owner.template.iconURL",
                                  "com.apple.xray.modeStore",
                                  "com.apple.xray.owner.template.description",
                                  "$0",
                                  "com.apple.xray.owner.template.version",
                                  "$5",
                                  "templateRunCommand",
                                  "$1",
                                  "com.apple.xray.run.data",
                              });
  CHECK(archive->size() == 12770);
  auto class_of_top = [&](std::string_view key) -> std::string {
    auto object = archive->Top(key);
    REQUIRE(object.ok());
    auto name = archive->ClassName(*object);
    REQUIRE(name.ok());
    return std::string(*name);
  };
  CHECK(class_of_top("com.apple.xray.run.data") == "XRRunListData");
  CHECK(class_of_top("templateRunCommand") == "PFTInstrumentCommand");
  CHECK(class_of_top("com.apple.xray.modeStore") == "XRModeStore");
  CHECK(class_of_top("com.apple.xray.owner.template") == "NSMutableDictionary");
  CHECK(archive->IsNull(*archive->Top("cliTargetDevice")));
  CHECK(*archive->String(*archive->Top("$1")) == "com.apple.xray.instrument-type.coresampler2");
  CHECK(*archive->Integer(*archive->Top("$0")) == 3);  // instruments in the template
  CHECK(*archive->String(*archive->Top("com.apple.xray.owner.template.iconURL")) ==
        "rsrc://Template - samplertemplate");
  CHECK(archive->Top("com.apple.xray.owner.template.version").status().code() ==
        ErrorCode::kKeyedArchiveCorrupt);  // an inline 2.1, not a reference

  const uint32_t run_data = *archive->Top("com.apple.xray.run.data");
  CHECK(*archive->ClassName(*archive->Field(run_data, "$1")) == "NSMutableDictionary");
  auto runs = archive->DictionaryEntries(*archive->Field(run_data, "$1"));
  REQUIRE(runs.ok());
  CHECK(runs->size() == 3);  // 0, "XRRunListAllRunsDataKey" and 1

  for (std::string_view key : archive->TopKeys()) {
    auto object = archive->Top(key);
    if (!object.ok()) continue;
    CHECK_FALSE(archive->Describe(*object, 6).empty());
  }
}

TEST_CASE("Every binary plist in the corpus is a keyed archive that describes") {
  auto dir = testing::CorpusDir();
  if (!dir) {
    WARN("skipped: the shared corpus (../shared/corpus) is absent");
    return;
  }
  size_t archives = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*dir)) {
    if (!entry.is_regular_file() || !MayBeBplist(entry.path())) continue;
    std::vector<uint8_t> bytes = testing::ReadFile(entry.path().string());
    if (!IsBplist(bytes)) {
      auto inflated = InflateZlibBplist(bytes);
      if (!inflated) continue;
      bytes = std::move(*inflated);
    }
    ++archives;
    auto archive = Parse(bytes);
    INFO(entry.path().string() << ": " << archive.status().ToString());
    REQUIRE(archive.ok());
    for (std::string_view key : archive->TopKeys()) {
      auto object = archive->Top(key);
      if (object.ok()) CHECK_FALSE(archive->Describe(*object, 4).empty());
    }
  }
  CHECK(archives >= 703);  // the corpus held 703 when this test was written
}

}  // namespace
}  // namespace instrumentscope
