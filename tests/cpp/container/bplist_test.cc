#include "container/bplist.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "bplist_writer.h"

namespace instrumentscope {
namespace {

using testing::AppendBigEndian;
using testing::BplistWriter;

// Offsets of the trailer's fields, counted from the end of the file.
constexpr size_t kOffsetSizeFromEnd = 26;
constexpr size_t kRefSizeFromEnd = 25;
constexpr size_t kNumObjectsFromEnd = 24;
constexpr size_t kTopObjectFromEnd = 16;
constexpr size_t kTableOffsetFromEnd = 8;

Result<Plist> Parse(const std::vector<uint8_t>& bytes, const Limits& limits = Limits{}) {
  return Plist::Parse(ByteSpan(bytes.data(), bytes.size()), limits);
}

void SetBigEndian(std::vector<uint8_t>& bytes, size_t position, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) {
    bytes[position + i] = static_cast<uint8_t>(value >> (8 * (width - 1 - i)));
  }
}

// Expects kPlistCorrupt at `offset`, with `words` in the message.
void CheckCorrupt(const Result<Plist>& result, uint64_t offset, const std::string& words) {
  INFO(result.status().ToString());
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == ErrorCode::kPlistCorrupt);
  CHECK(result.status().offset() == offset);
  CHECK(result.status().message().find(words) != std::string::npos);
}

// {"a": [1, "two", true], "b": {"c": 2.5}} with one-byte refs and offsets.
constexpr size_t kSmallPlistObjects = 10;
std::vector<uint8_t> SmallPlist() {
  BplistWriter writer;
  uint32_t array = writer.Array({writer.Int(1), writer.Ascii("two"), writer.Bool(true)});
  uint32_t inner = writer.Dict({{writer.Ascii("c"), writer.Real(2.5)}});
  uint32_t root = writer.Dict({{writer.Ascii("a"), array}, {writer.Ascii("b"), inner}});
  return writer.Build(root);
}

TEST_CASE("Every binary plist object type decodes") {
  BplistWriter writer;
  std::vector<uint32_t> elements = {
      writer.Null(),
      writer.Fill(),
      writer.Bool(false),
      writer.Bool(true),
      writer.Int(-7),
      writer.Real(-0.5),
      writer.Real32(1.25f),
      writer.Date(86401.5),
      writer.Data({0, 1, 255}),
      writer.Data({}),
      writer.Ascii("plain"),
      writer.Ascii(""),
      writer.Utf16(u"h\u00e9\u20ac\U0001F600"),  // 2-, 3- and 4-byte UTF-8
      writer.Uid(7, 1),
      writer.Uid(0x1234, 2),
      writer.Uid(0x123456, 3),
      writer.Uid(0x12345678, 4),
      writer.Uid(0x0102030405060708, 8),
  };
  uint32_t set = writer.Set({writer.Int(1), writer.Int(2)});
  uint32_t key = writer.Ascii("key");
  uint32_t dict = writer.Dict({{key, writer.Array({})}});
  elements.push_back(set);
  elements.push_back(dict);
  std::vector<uint8_t> bytes = writer.Build(writer.Array(elements));

  auto plist = Parse(bytes);
  INFO(plist.status().ToString());
  REQUIRE(plist.ok());
  CHECK(plist->size() == writer.size());
  const PlistObject& root = plist->object(plist->root());
  REQUIRE(root.type == PlistType::kArray);
  REQUIRE(root.children.size() == elements.size());
  auto element = [&](size_t i) -> const PlistObject& { return plist->object(root.children[i]); };

  CHECK(element(0).type == PlistType::kNull);
  CHECK(element(1).type == PlistType::kNull);
  CHECK((element(2).type == PlistType::kBool && !element(2).boolean));
  CHECK((element(3).type == PlistType::kBool && element(3).boolean));
  CHECK((element(4).type == PlistType::kInteger && element(4).integer == -7));
  CHECK((element(5).type == PlistType::kReal && element(5).real == -0.5));
  CHECK((element(6).type == PlistType::kReal && element(6).real == 1.25));
  CHECK((element(7).type == PlistType::kDate && element(7).real == 86401.5));
  CHECK(element(8).type == PlistType::kData);
  CHECK(std::vector<uint8_t>(element(8).data.data(), element(8).data.data() + 3) ==
        std::vector<uint8_t>{0, 1, 255});
  CHECK((element(9).type == PlistType::kData && element(9).data.empty()));
  CHECK((element(10).type == PlistType::kString && element(10).string == "plain"));
  CHECK((element(11).type == PlistType::kString && element(11).string.empty()));
  CHECK(element(12).string == "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK((element(13).type == PlistType::kUid && element(13).uid == 7));
  CHECK(element(14).uid == 0x1234);
  CHECK(element(15).uid == 0x123456);
  CHECK(element(16).uid == 0x12345678);
  CHECK(element(17).uid == 0x0102030405060708);
  const PlistObject& set_object = element(18);
  CHECK(set_object.type == PlistType::kSet);
  CHECK(plist->object(set_object.children[1]).integer == 2);
  const PlistObject& dict_object = element(19);
  CHECK(dict_object.type == PlistType::kDictionary);
  CHECK(dict_object.children.size() == 2);
  const PlistObject* value = plist->DictValue(dict_object, "key");
  REQUIRE(value);
  CHECK((value->type == PlistType::kArray && value->children.empty()));
  CHECK(plist->DictValueIndex(dict_object, "key").has_value());
  CHECK(plist->DictValue(dict_object, "other") == nullptr);
  CHECK(plist->DictValue(set_object, "key") == nullptr);
}

TEST_CASE("Binary plist integers of every width") {
  BplistWriter writer;
  std::vector<uint32_t> elements = {
      writer.Int(0xAB, 1),      writer.Int(0xABCD, 2), writer.Int(0xABCDEF01, 4),
      writer.Int(INT64_MIN, 8), writer.Int(0x12, 8),
  };
  // A 16-byte integer: the high half is dropped.
  std::vector<uint8_t> wide = {0x14};
  AppendBigEndian(wide, 0x1111111111111111, 8);
  AppendBigEndian(wide, 0xFFFFFFFFFFFFFFFE, 8);
  elements.push_back(writer.Raw(wide));
  std::vector<uint8_t> bytes = writer.Build(writer.Array(elements));

  auto plist = Parse(bytes);
  REQUIRE(plist.ok());
  std::vector<int64_t> values;
  for (uint32_t child : plist->object(plist->root()).children) {
    values.push_back(plist->object(child).integer);
  }
  CHECK(values == std::vector<int64_t>{0xAB, 0xABCD, 0xABCDEF01, INT64_MIN, 0x12, -2});

  BplistWriter bad;
  bad.Raw({0x15, 1, 2, 3});  // 32 bytes wide
  CheckCorrupt(Parse(bad.Build(0)), 8, "not an integer of 1 to 16 bytes");
}

TEST_CASE("Counts of 15 and more follow the marker as an integer") {
  BplistWriter writer(2);
  std::vector<uint32_t> many;
  for (int i = 0; i < 300; ++i) many.push_back(writer.Int(i));  // 2-byte refs needed
  std::string long_text(300, 'x');
  std::u16string long_utf16(20, u'\u00e9');
  std::vector<uint8_t> big_data(70000, 0x5A);  // a 4-byte count
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  for (int i = 0; i < 16; ++i) {
    entries.emplace_back(writer.Ascii("k" + std::to_string(i)), writer.Int(i * 10));
  }
  // A count of 3 in an 8-byte integer, longer than needed but valid.
  std::vector<uint8_t> padded_count = {0x5F};
  std::vector<uint8_t> count = BplistWriter::IntBytes(3, 8);
  padded_count.insert(padded_count.end(), count.begin(), count.end());
  padded_count.insert(padded_count.end(), {'a', 'b', 'c'});
  uint32_t root =
      writer.Array({writer.Array(many), writer.Ascii(long_text), writer.Utf16(long_utf16),
                    writer.Data(big_data), writer.Dict(entries), writer.Raw(padded_count)});
  std::vector<uint8_t> bytes = writer.Build(root);

  auto plist = Parse(bytes);
  INFO(plist.status().ToString());
  REQUIRE(plist.ok());
  const ObjectRefs& parts = plist->object(plist->root()).children;
  const PlistObject& array = plist->object(parts[0]);
  REQUIRE(array.children.size() == 300);
  CHECK(plist->object(array.children[299]).integer == 299);
  CHECK(plist->object(parts[1]).string == long_text);
  CHECK(plist->object(parts[2]).string.size() == 40);
  CHECK(plist->object(parts[3]).data.size() == 70000);
  const PlistObject& dict = plist->object(parts[4]);
  CHECK(dict.children.size() == 32);
  REQUIRE(plist->DictValue(dict, "k15"));
  CHECK(plist->DictValue(dict, "k15")->integer == 150);
  CHECK(plist->object(parts[5]).string == "abc");
}

TEST_CASE("UTF-16 strings become UTF-8, unpaired surrogates U+FFFD") {
  const std::string kReplacement = "\xEF\xBF\xBD";
  BplistWriter writer;
  std::u16string lone_high = {u'a', 0xD83D, u'b'};
  std::u16string lone_low = {0xDE00, u'c'};
  std::u16string high_at_end = {u'd', 0xD83D};
  std::u16string two_highs = {0xD83D, 0xD83D, 0xDE00};
  std::u16string nul = {u'e', 0, u'f'};
  std::vector<uint32_t> strings_written = {writer.Utf16(lone_high), writer.Utf16(lone_low),
                                           writer.Utf16(high_at_end)};
  // A dictionary of 12 entries, whose marker 0xDC would pass for the low
  // surrogate the string before it lacks, were the decoder to read past it.
  writer.Dict(std::vector<std::pair<uint32_t, uint32_t>>(12, {0, 0}));
  for (const std::u16string& text : {two_highs, nul, std::u16string()}) {
    strings_written.push_back(writer.Utf16(text));
  }
  std::vector<uint8_t> bytes = writer.Build(writer.Array(strings_written));

  auto plist = Parse(bytes);
  REQUIRE(plist.ok());
  const ObjectRefs& strings = plist->object(plist->root()).children;
  CHECK(plist->object(strings[0]).string == "a" + kReplacement + "b");
  CHECK(plist->object(strings[1]).string == kReplacement + "c");
  CHECK(plist->object(strings[2]).string == "d" + kReplacement);
  CHECK(plist->object(strings[3]).string == kReplacement + "\xF0\x9F\x98\x80");
  CHECK(plist->object(strings[4]).string == std::string("e\0f", 3));
  CHECK(plist->object(strings[5]).string.empty());
}

TEST_CASE("Every reference and offset size reads the same plist") {
  for (size_t ref_size : {1, 2, 4, 8}) {
    for (size_t offset_size : {1, 2, 4, 8}) {
      BplistWriter writer(ref_size);
      uint32_t list = writer.Array({writer.Int(5), writer.Utf16(u"\u00fc")});
      uint32_t root = writer.Dict({{writer.Ascii("list"), list}});
      std::vector<uint8_t> bytes = writer.Build(root, offset_size);
      INFO("ref size " << ref_size << ", offset size " << offset_size);
      auto plist = Parse(bytes);
      REQUIRE(plist.ok());
      const PlistObject* value = plist->DictValue(plist->object(plist->root()), "list");
      REQUIRE(value);
      REQUIRE(value->children.size() == 2);
      CHECK(plist->object(value->children[0]).integer == 5);
      CHECK(plist->object(value->children[1]).string == "\xC3\xBC");
    }
  }
}

// Written by Python's plistlib (FMT_BINARY): {"ascii": "hello", "data":
// bytes(range(20)), "date": datetime(2001, 1, 2, 0, 0, 1), "dict": {"x": []},
// "int1": 200, "int2": 40000, "int4": 3000000000, "int8": -2, "int16":
// 2**64 - 1, "list": [True, False, 0], "real": -1.25, "uid": UID(70000),
// "utf16": "hé€😀"}.
constexpr std::string_view kPythonPlist =
    "62706c6973743030dd0102030405060708090a0b0c0d0e0f10111415161718191d1e1f5561736369695464"
    "6174615464617465546469637454696e743155696e74313654696e743254696e743454696e7438546c6973"
    "74547265616c537569645575746631365568656c6c6f4f1014000102030405060708090a0b0c0d0e0f1011"
    "12133340f5181000000000d112135178a010c8140000000000000000ffffffffffffffff119c4012b2d05e"
    "0013fffffffffffffffea31a1b1c0908100023bff4000000000000830001117065006800e920acd83dde00"
    "0823292e33383d43484d52575c60666c838c8f919294a5a8adb6babbbcbec7cc0000000000000101000000"
    "0000000020000000000000000000000000000000d7";

std::vector<uint8_t> FromHex(std::string_view hex) {
  std::vector<uint8_t> bytes;
  std::string digits;
  for (char c : hex) {
    if (c == ' ') continue;
    digits += c;
    if (digits.size() == 2) {
      bytes.push_back(static_cast<uint8_t>(std::stoi(digits, nullptr, 16)));
      digits.clear();
    }
  }
  return bytes;
}

TEST_CASE("A plist written by Python's plistlib") {
  std::vector<uint8_t> bytes = FromHex(kPythonPlist);
  REQUIRE(bytes.size() == 279);
  auto plist = Parse(bytes);
  INFO(plist.status().ToString());
  REQUIRE(plist.ok());
  const PlistObject& root = plist->object(plist->root());
  auto value = [&](std::string_view key) -> const PlistObject& {
    const PlistObject* found = plist->DictValue(root, key);
    INFO(key);
    REQUIRE(found);
    return *found;
  };
  CHECK(value("ascii").string == "hello");
  CHECK(value("data").data.size() == 20);
  CHECK(value("data").data[19] == 19);
  CHECK((value("date").type == PlistType::kDate && value("date").real == 86401));
  CHECK(plist->DictValue(value("dict"), "x")->type == PlistType::kArray);
  CHECK(value("int1").integer == 200);
  CHECK(value("int2").integer == 40000);
  CHECK(value("int4").integer == 3000000000);
  CHECK(value("int8").integer == -2);
  CHECK(value("int16").integer == -1);  // 2**64 - 1 in 16 bytes: the low 8 read as signed
  const PlistObject& list = value("list");
  REQUIRE(list.children.size() == 3);
  CHECK(plist->object(list.children[0]).boolean);
  CHECK(plist->object(list.children[2]).type == PlistType::kInteger);
  CHECK(value("real").real == -1.25);
  CHECK((value("uid").type == PlistType::kUid && value("uid").uid == 70000));
  CHECK(value("utf16").string == "h\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
}

TEST_CASE("An array or dictionary that contains itself is refused") {
  BplistWriter itself;
  uint32_t array = itself.Array({0, 1});  // itself and the next object
  itself.Dict({{itself.Ascii("self"), array}});
  CheckCorrupt(Parse(itself.Build(array)), 8, "object 0 contains itself");

  BplistWriter through;  // [[…]]: two arrays, each inside the other
  through.Array({1});
  through.Array({0});
  CheckCorrupt(Parse(through.Build(0)), 8, "object 0 contains itself (through object 1)");

  BplistWriter dictionary;  // {"key": {…}}, its own value
  uint32_t key = dictionary.Ascii("key");
  dictionary.Dict({{key, key + 1}});
  CheckCorrupt(Parse(dictionary.Build(key + 1)), 12, "object 1 contains itself");
}

TEST_CASE("Containers nest at most limits.maxPlistDepth deep") {
  BplistWriter writer(2);  // [[[…[0]…]]], 600 arrays
  uint32_t nested = writer.Int(0);
  for (int level = 0; level < 600; ++level) nested = writer.Array({nested});
  std::vector<uint8_t> bytes = writer.Build(nested);
  auto deep = Parse(bytes);
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.status().code() == ErrorCode::kLimitExceeded);
  CHECK(deep.status().message() ==
        "object 513 nests containers 513 deep, more than 512 (limits.maxPlistDepth)");
  Limits limits;
  limits.max_plist_depth = 600;
  auto allowed = Parse(bytes, limits);
  REQUIRE(allowed.ok());
  CHECK(allowed->object(allowed->root()).children[0] == 599);

  BplistWriter shared(2);  // each level holds the one below twice: 2^400 paths, 401 objects
  uint32_t below = shared.Ascii("leaf");
  for (int level = 0; level < 400; ++level) below = shared.Array({below, below});
  auto diamond = Parse(shared.Build(below));
  REQUIRE(diamond.ok());
  CHECK(diamond->size() == 401);
}

TEST_CASE("A cut-short binary plist is a clean error at every length") {
  std::vector<uint8_t> bytes = SmallPlist();
  auto whole = Parse(bytes);
  REQUIRE(whole.ok());
  CHECK(whole->size() == kSmallPlistObjects);
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + size);
    auto plist = Parse(cut);
    INFO("cut to " << size << " bytes");
    REQUIRE_FALSE(plist.ok());
    CHECK(plist.status().code() == ErrorCode::kPlistCorrupt);
  }
}

TEST_CASE("Any damaged byte is either read or refused, never a crash") {
  std::vector<uint8_t> bytes = SmallPlist();
  for (size_t position = 0; position < bytes.size(); ++position) {
    for (uint8_t value : {0x00, 0x01, 0x0F, 0x10, 0x5F, 0x7F, 0x80, 0xAF, 0xDF, 0xFF}) {
      std::vector<uint8_t> damaged = bytes;
      damaged[position] = value;
      auto plist = Parse(damaged);
      if (!plist.ok()) {
        INFO(plist.status().ToString());
        CHECK((plist.status().code() == ErrorCode::kPlistCorrupt ||
               plist.status().code() == ErrorCode::kLimitExceeded));
        continue;
      }
      // Whatever parsed must be in range everywhere.
      for (uint32_t i = 0; i < plist->size(); ++i) {
        for (uint32_t child : plist->object(i).children) CHECK(child < plist->size());
      }
    }
  }
}

TEST_CASE("Binary plist headers and trailers are checked first") {
  std::vector<uint8_t> bytes = SmallPlist();
  const size_t end = bytes.size();
  const size_t trailer = end - 32;

  CheckCorrupt(Parse(std::vector<uint8_t>(39, 0)), 39, "too short");
  std::vector<uint8_t> xml(bytes.size(), ' ');
  CheckCorrupt(Parse(xml), 0, "not a binary plist");
  std::vector<uint8_t> version = bytes;
  version[6] = '1';
  version[7] = '5';
  CheckCorrupt(Parse(version), 6, "version \"15\"");

  for (uint8_t size : {0, 3, 16}) {
    std::vector<uint8_t> offset_size = bytes;
    offset_size[end - kOffsetSizeFromEnd] = size;
    CheckCorrupt(Parse(offset_size), trailer + 6, "offset size " + std::to_string(size));
    std::vector<uint8_t> ref_size = bytes;
    ref_size[end - kRefSizeFromEnd] = size;
    CheckCorrupt(Parse(ref_size), trailer + 7, "reference size " + std::to_string(size));
  }

  std::vector<uint8_t> no_objects = bytes;
  SetBigEndian(no_objects, end - kNumObjectsFromEnd, 0, 8);
  CheckCorrupt(Parse(no_objects), trailer + 8, "no objects");

  for (uint64_t count : {uint64_t{1} << 62, uint64_t{UINT64_MAX}, uint64_t{1000}}) {
    std::vector<uint8_t> huge = bytes;
    SetBigEndian(huge, end - kNumObjectsFromEnd, count, 8);
    CheckCorrupt(Parse(huge), trailer + 8, "runs into the trailer");
  }

  std::vector<uint8_t> top = bytes;
  SetBigEndian(top, end - kTopObjectFromEnd, kSmallPlistObjects, 8);
  CheckCorrupt(Parse(top), trailer + 16, "top object 10");

  for (uint64_t table_offset :
       {uint64_t{0}, uint64_t{8}, uint64_t{trailer + 1}, uint64_t{1} << 63, uint64_t{UINT64_MAX}}) {
    std::vector<uint8_t> table = bytes;
    SetBigEndian(table, end - kTableOffsetFromEnd, table_offset, 8);
    CheckCorrupt(Parse(table), trailer + 24, "not between the header and the trailer");
  }
  std::vector<uint8_t> late_table = bytes;  // the last entry overlaps the trailer
  SetBigEndian(late_table, end - kTableOffsetFromEnd, trailer - kSmallPlistObjects + 1, 8);
  CheckCorrupt(Parse(late_table), trailer + 8, "runs into the trailer");
}

TEST_CASE("More objects than the limit allows are refused before any is read") {
  const uint64_t kObjects = 10'000'001;
  std::vector<uint8_t> bytes = {'b', 'p', 'l', 'i', 's', 't', '0', '0', 0x00};
  bytes.resize(bytes.size() + kObjects, 8);             // one-byte offsets, all to the null object
  bytes.insert(bytes.end(), {0, 0, 0, 0, 0, 0, 1, 1});  // unused, sort version, sizes
  AppendBigEndian(bytes, kObjects, 8);
  AppendBigEndian(bytes, 0, 8);
  AppendBigEndian(bytes, 9, 8);
  auto plist = Parse(bytes);
  CHECK(plist.status().code() == ErrorCode::kLimitExceeded);
  CHECK(plist.status().message().find("10000000") != std::string::npos);
}

TEST_CASE("Object offsets must point into the object data") {
  std::vector<uint8_t> bytes = SmallPlist();
  const size_t end = bytes.size();
  const size_t table = end - 32 - kSmallPlistObjects;  // one-byte offsets
  for (uint8_t offset : {uint8_t{0}, uint8_t{7}, static_cast<uint8_t>(table),
                         static_cast<uint8_t>(end - 20), uint8_t{0xFF}}) {
    std::vector<uint8_t> damaged = bytes;
    damaged[table + 3] = offset;
    CheckCorrupt(Parse(damaged), table + 3, "object 3: its offset");
  }
}

TEST_CASE("References must name one of the objects") {
  BplistWriter writer;
  uint32_t root = writer.Array({writer.Int(1), 2});  // objects 0 and 2
  writer.Array({0, 3});                              // object 2; 3 does not exist
  std::vector<uint8_t> bytes = writer.Build(root);
  // Object 2 is at byte 8 + 2 (the int) + 3 (the first array); its refs follow the marker.
  CheckCorrupt(Parse(bytes), 8 + 2 + 3 + 2, "object 2: it refers to object 3 of only 3");
}

TEST_CASE("Counts larger than the file are refused before any allocation") {
  auto with_count = [](uint8_t marker, int64_t count) {
    BplistWriter writer;
    std::vector<uint8_t> object = {marker};
    std::vector<uint8_t> count_bytes = BplistWriter::IntBytes(count, 8);
    object.insert(object.end(), count_bytes.begin(), count_bytes.end());
    object.insert(object.end(), 8, 0);
    writer.Raw(object);
    return writer.Build(0);
  };
  // The marker at 8, the count at 9, the contents from 18.
  for (uint8_t marker : {0x4F, 0x5F, 0x6F, 0xAF, 0xCF, 0xDF}) {
    for (int64_t count : {int64_t{100}, int64_t{1} << 40, int64_t{1} << 62, INT64_MAX}) {
      INFO("marker " << int{marker} << ", count " << count);
      CheckCorrupt(Parse(with_count(marker, count)), 18, "larger than the file");
    }
  }
  CheckCorrupt(Parse(with_count(0xAF, -1)), 9, "count -1 is negative");

  BplistWriter not_int;
  not_int.Raw({0x5F, 0x23, 0, 0, 0, 0, 0, 0, 0, 0});
  CheckCorrupt(Parse(not_int.Build(0)), 9, "marker 0x23 is not an integer");
}

TEST_CASE("Objects sharing an offset cannot multiply the work") {
  BplistWriter writer;
  std::vector<uint32_t> elements(40, 0);
  uint32_t array = writer.Array(elements);
  for (int i = 0; i < 200; ++i) writer.Alias(array);
  std::vector<uint8_t> bytes = writer.Build(array);
  CHECK(bytes.size() < 40 * 201);
  CheckCorrupt(Parse(bytes), 11, "object 7: its contents of 40 × 1 bytes");

  BplistWriter few;  // a few aliases are harmless
  uint32_t element = few.Ascii("x");
  uint32_t shared = few.Array({element, element});
  uint32_t alias = few.Alias(shared);
  auto plist = Parse(few.Build(alias));
  REQUIRE(plist.ok());
  CHECK(plist->object(alias).children.size() == 2);
}

TEST_CASE("Unknown markers and bad bytes are refused") {
  for (uint8_t marker : {0x01, 0x0C, 0x21, 0x24, 0x30, 0x34, 0x70, 0x88, 0x90, 0xB0, 0xE0, 0xF0}) {
    BplistWriter writer;
    writer.Raw({marker, 0, 0, 0, 0, 0, 0, 0, 0});
    INFO("marker " << int{marker});
    CheckCorrupt(Parse(writer.Build(0)), 8, "unknown object marker");
  }
  BplistWriter latin1;
  latin1.Raw({0x53, 'a', 0xE9, 'b'});
  CheckCorrupt(Parse(latin1.Build(0)), 10, "ASCII string holds byte 0xE9");
}

TEST_CASE("Objects end where the offset table begins") {
  BplistWriter writer;
  writer.Raw({0x13, 1, 2});  // an 8-byte integer with 2 bytes before the offset table
  CheckCorrupt(Parse(writer.Build(0)), 9, "runs past the end of the object data");
  BplistWriter array;
  array.Raw({0xA3, 0, 0});  // three refs, room for two
  CheckCorrupt(Parse(array.Build(0)), 9, "runs past the end of the object data");
}

}  // namespace
}  // namespace instrumentscope
