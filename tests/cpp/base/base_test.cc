#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "base/identifiers.h"
#include "base/integer_map.h"
#include "base/paged_vector.h"
#include "base/status.h"
#include "base/text_index.h"

namespace instrumentscope {
namespace {

TEST_CASE("Status says what and where") {
  Status status(ErrorCode::kXmlDanglingRef, "ref=\"9\" names nothing");
  status.WithPath("trace-query-result/node[1]/row[3]").WithLine(12).WithOffset(345);
  CHECK(status.ToString() ==
        "XML_DANGLING_REF: ref=\"9\" names nothing "
        "(at trace-query-result/node[1]/row[3], line 12, byte 345)");
  // The innermost location wins: later setters do not overwrite.
  status.WithPath("other").WithLine(1).WithOffset(2);
  CHECK(status.path() == "trace-query-result/node[1]/row[3]");
  CHECK(*status.line() == 12);
  CHECK(*status.offset() == 345);
  CHECK(OkStatus().ToString() == "OK");
}

TEST_CASE("Status nests container paths with '!'") {
  Status status(ErrorCode::kTruncated, "short");
  status.WithPath("inner.xml").WithOuterPath("outer.zip");
  CHECK(status.path() == "outer.zip!inner.xml");
}

Result<int> Half(int value) {
  if (value % 2) return Status(ErrorCode::kInvalidArgument, "odd");
  return value / 2;
}

Result<int> Quarter(int value) {
  int half;
  ASSIGN_OR_RETURN(half, Half(value));
  return Half(half);
}

TEST_CASE("Result and the propagation macros") {
  CHECK(*Quarter(8) == 2);
  CHECK(Quarter(6).status().code() == ErrorCode::kInvalidArgument);
  CHECK(std::string(ErrorCodeName(ErrorCode::kXmlSyntax)) == "XML_SYNTAX");
}

TEST_CASE("ByteReader reads both byte orders and any width") {
  const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};
  ByteReader reader(ByteSpan(bytes, sizeof(bytes)));
  CHECK(*reader.ReadU16Le() == 0x0201);
  CHECK(*reader.ReadU16Be() == 0x0304);
  CHECK(*reader.ReadUIntLe(3) == 0x070605);
  REQUIRE(reader.Seek(0).ok());
  CHECK(*reader.ReadU32Be() == 0x01020304);
  CHECK(*reader.ReadU32Le() == 0x08070605);
  REQUIRE(reader.Seek(1).ok());
  CHECK(*reader.ReadU64Le() == 0x0908070605040302ull);
  REQUIRE(reader.Seek(0).ok());
  CHECK(*reader.ReadU64Be() == 0x0102030405060708ull);
  CHECK(*reader.ReadUIntBe(1) == 0x09);
  CHECK(reader.remaining() == 0);
}

TEST_CASE("ByteReader reads LEB128; too long or cut short, it fails where and does not move") {
  // DWARF's examples: 2, 127, 128, 12857; -2, -127, -128; then 2^64 - 1 and INT64_MIN.
  const uint8_t bytes[] = {0x02, 0x7F, 0x80, 0x01, 0xB9, 0x64, 0x7E, 0x81, 0x7F, 0x80, 0x7F,
                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x80,
                           0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F};
  ByteReader reader(ByteSpan(bytes, sizeof(bytes)));
  for (uint64_t expected : {2, 127, 128, 12857}) {
    CHECK(*reader.ReadUleb128(ErrorCode::kMachOCorrupt) == expected);
  }
  for (int64_t expected : {-2, -127, -128}) {
    CHECK(*reader.ReadSleb128(ErrorCode::kMachOCorrupt) == expected);
  }
  CHECK(*reader.ReadUleb128(ErrorCode::kMachOCorrupt) == UINT64_MAX);
  CHECK(*reader.ReadSleb128(ErrorCode::kMachOCorrupt) == INT64_MIN);
  CHECK(reader.remaining() == 0);

  const uint8_t overlong[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
  ByteReader too_long(ByteSpan(overlong, sizeof(overlong)), /*base_offset=*/100);
  auto value = too_long.ReadUleb128(ErrorCode::kMachOCorrupt);
  REQUIRE_FALSE(value.ok());
  CHECK(value.status().code() == ErrorCode::kMachOCorrupt);
  CHECK(*value.status().offset() == 109);
  CHECK(too_long.position() == 0);

  const uint8_t cut[] = {0x80, 0x80};
  ByteReader short_reader(ByteSpan(cut, sizeof(cut)));
  CHECK(short_reader.ReadSleb128(ErrorCode::kMachOCorrupt).status().code() ==
        ErrorCode::kTruncated);
  CHECK(short_reader.position() == 0);
}

TEST_CASE("A failed read reports the absolute offset and does not move") {
  const uint8_t bytes[] = {0xAA, 0xBB, 0xCC};
  ByteReader reader(ByteSpan(bytes, sizeof(bytes)), /*base_offset=*/1000);
  REQUIRE(reader.Skip(2).ok());
  auto value = reader.ReadU32Le();
  REQUIRE_FALSE(value.ok());
  CHECK(value.status().code() == ErrorCode::kTruncated);
  CHECK(*value.status().offset() == 1002);
  CHECK(reader.position() == 2);
  CHECK(*reader.ReadU8() == 0xCC);
  CHECK_FALSE(reader.ReadBytes(1).ok());
  CHECK_FALSE(reader.Seek(4).ok());
  CHECK(reader.ReadUIntLe(9).status().code() == ErrorCode::kInvalidArgument);
  CHECK(reader.ReadUIntBe(0).status().code() == ErrorCode::kInvalidArgument);
}

TEST_CASE("Checked arithmetic catches overflow") {
  CHECK(*CheckedAdd<int64_t>(1, 2) == 3);
  CHECK_FALSE(CheckedAdd<int64_t>(INT64_MAX, 1));
  CHECK_FALSE(CheckedAdd<uint32_t>(UINT32_MAX, 1));
  CHECK(*CheckedMul<uint64_t>(1ull << 31, 2) == 1ull << 32);
  CHECK_FALSE(CheckedMul<uint64_t>(1ull << 32, 1ull << 32));
}

TEST_CASE("PagedVector keeps elements across pages and releases them on clear") {
  PagedVector<uint32_t, 4> values;
  for (uint32_t i = 0; i < 10; ++i) values.push_back(i * i);
  REQUIRE(values.size() == 10);
  CHECK(values[0] == 0);
  CHECK(values[4] == 16);
  CHECK(values.back() == 81);
  values.GrowTo(13);
  CHECK(values.size() == 13);
  CHECK(values[12] == 0);
  values[12] = 7;
  std::vector<uint32_t> seen;
  values.ForEach([&seen](uint32_t value) { seen.push_back(value); });
  CHECK(seen == std::vector<uint32_t>{0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 0, 0, 7});
  values.GrowTo(2);  // never shrinks
  CHECK(values.size() == 13);
  values.clear();
  CHECK(values.empty());
  values.push_back(5);
  CHECK(values[0] == 5);
}

TEST_CASE("IntegerMap finds what it holds, through growth and colliding keys") {
  IntegerMap map;
  CHECK(map.Find(0) == IntegerMap::kNoValue);
  CHECK(map.Insert(0, 7) == std::make_pair(uint32_t{7}, true));
  CHECK(map.Insert(0, 8) == std::make_pair(uint32_t{7}, false));  // kept, not replaced
  // Keys that differ only in their high bits, and keys spread over 64 bits.
  for (uint32_t i = 1; i < 50000; ++i) {
    REQUIRE(map.Insert(uint64_t{i} << 40, i).second);
    REQUIRE(map.Insert(uint64_t{i} * 0x9E3779B97F4A7C15ull, i + 100000).second);
  }
  CHECK(map.size() == 1 + 2 * 49999);
  for (uint32_t i = 1; i < 50000; ++i) {
    REQUIRE(map.Find(uint64_t{i} << 40) == i);
    REQUIRE(map.Find(uint64_t{i} * 0x9E3779B97F4A7C15ull) == i + 100000);
  }
  CHECK(map.Find(0) == 7);
  CHECK(map.Find(1) == IntegerMap::kNoValue);
  CHECK(map.Find(UINT64_MAX) == IntegerMap::kNoValue);
}

TEST_CASE("TextIndex keeps the first value of each key, through growth, byte for byte") {
  TextIndex index;
  CHECK(index.Insert("", 5) == std::make_pair(uint32_t{5}, true));
  CHECK(index.Insert("", 6) == std::make_pair(uint32_t{5}, false));
  // Keys that differ only past eight bytes, by a trailing zero byte, or by length.
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < 40000; ++i) keys.push_back("frame name\0image " + std::to_string(i));
  keys.push_back(std::string("12345678", 8));
  keys.push_back(std::string("12345678\0", 9));
  keys.push_back(std::string("1234567", 7));
  keys.push_back(std::string(1 << 16, 'x'));
  for (uint32_t i = 0; i < keys.size(); ++i) REQUIRE(index.Insert(keys[i], i).second);
  CHECK(index.size() == 1 + keys.size());
  for (uint32_t i = 0; i < keys.size(); ++i) {
    REQUIRE(index.Insert(keys[i], 999999) == std::make_pair(i, false));
  }
  CHECK(index.Insert("", 7).first == 5);
  CHECK(index.Insert("frame name", 8).second);
}

TEST_CASE("HexAddress writes lowercase hex after 0x, which ParseHexAddress reads back") {
  CHECK(HexAddress(0) == "0x0");
  CHECK(HexAddress(0x1b40f8) == "0x1b40f8");
  CHECK(HexAddress(0x7FF8174DF51Full) == "0x7ff8174df51f");
  CHECK(HexAddress(UINT64_MAX) == "0xffffffffffffffff");
  for (uint64_t address : {uint64_t{1}, uint64_t{0xABCDEF}, uint64_t{1} << 63}) {
    CHECK(ParseHexAddress(HexAddress(address)) == address);
  }
}

}  // namespace
}  // namespace instrumentscope
