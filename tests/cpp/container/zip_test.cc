#include "container/zip.h"

#include <zlib.h>

#include <catch2/catch.hpp>

#include "test_support.h"
#include "zip_writer.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;
using testing::Crc32;
using testing::Get;
using testing::kCentralCrcField;
using testing::kCentralLocalOffsetField;
using testing::kCentralUncompressedSizeField;
using testing::kEndRecordSize;
using testing::kLocalExtraSizeField;
using testing::kLocalHeaderSize;
using testing::Member;
using testing::Patch;
using testing::ReadFile;
using testing::WriteZip;

ByteSpan Span(const std::vector<uint8_t>& bytes) {
  return ByteSpan(bytes.data(), bytes.size());
}

std::string Text(const std::vector<uint8_t>& bytes) {
  return std::string(bytes.begin(), bytes.end());
}

std::string Lines(size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) text += "frame " + std::to_string(i % 97) + " in run\n";
  return text;
}

// The entry's bytes as text; a failed extraction fails the test.
std::string ExtractText(const ZipArchive& archive, const ZipEntry& entry) {
  auto data = archive.Extract(entry);
  INFO(data.status().ToString());
  REQUIRE(data.ok());
  return Text(*data);
}

// The offset of the central directory of a WriteZip archive without comment.
size_t DirectoryOffset(const std::vector<uint8_t>& zip) {
  return Get(zip, zip.size() - 6, 4);
}

// Extracts every entry; the first error, or OK.
Status ExtractAll(const ZipArchive& archive) {
  for (const ZipEntry& entry : archive.entries()) RETURN_IF_ERROR(archive.Extract(entry).status());
  return OkStatus();
}

TEST_CASE("zip reads stored and deflated entries") {
  std::string frames = Lines(5000);
  std::vector<uint8_t> zip = WriteZip({{"stored.txt", "plain bytes"},
                                       {"deflated.txt", frames, /*deflate=*/true},
                                       {"empty", ""},
                                       {"empty-deflated", "", true}});
  CHECK(LooksLikeZip(Span(zip)));
  auto archive = ZipArchive::Open(Span(zip), Limits{});
  REQUIRE(archive.ok());
  const std::vector<ZipEntry>& entries = archive->entries();
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].name == "stored.txt");
  CHECK(entries[0].method == 0);
  CHECK(entries[0].local_header_offset == 0);
  CHECK(entries[1].name == "deflated.txt");
  CHECK(entries[1].method == 8);
  CHECK(entries[1].uncompressed_size == frames.size());
  CHECK(entries[1].compressed_size < frames.size() / 10);
  CHECK(entries[1].crc32 == Crc32(frames));
  CHECK(entries[1].local_header_offset == kLocalHeaderSize + 10 + 11);
  CHECK_FALSE(entries[1].is_directory);

  CHECK(ExtractText(*archive, entries[0]) == "plain bytes");
  CHECK(ExtractText(*archive, entries[1]) == frames);
  CHECK(ExtractText(*archive, entries[2]).empty());
  CHECK(ExtractText(*archive, entries[3]).empty());
}

TEST_CASE("zip takes sizes from the central directory when a data descriptor follows") {
  std::string frames = Lines(3000);
  Member deflated{"described.txt", frames, true, /*data_descriptor=*/true};
  Member stored{"described-stored.txt", "stored with a descriptor", false, true};
  Member zip64{"described-zip64.txt", frames, true, true, /*zip64=*/true};
  std::vector<uint8_t> zip = WriteZip({deflated, stored, zip64});
  // The local header says nothing of the sizes.
  CHECK(Get(zip, 18, 4) == 0);
  CHECK(Get(zip, 22, 4) == 0);
  auto archive = ZipArchive::Open(Span(zip), Limits{});
  REQUIRE(archive.ok());
  REQUIRE(archive->entries().size() == 3);
  CHECK(archive->entries()[0].flags == 0x08);
  CHECK(archive->entries()[0].uncompressed_size == frames.size());
  CHECK(ExtractText(*archive, archive->entries()[0]) == frames);
  CHECK(ExtractText(*archive, archive->entries()[1]) == "stored with a descriptor");
  CHECK(ExtractText(*archive, archive->entries()[2]) == frames);
}

TEST_CASE("zip64 sizes and offsets come from the extra field and the zip64 end record") {
  std::string frames = Lines(2000);
  std::vector<uint8_t> zip = WriteZip({{"first.txt", "before", false, false, /*zip64=*/true},
                                       {"second.txt", frames, true, false, true},
                                       {"third.txt", "after"}},
                                      /*zip64_end=*/true);
  auto archive = ZipArchive::Open(Span(zip), Limits{});
  REQUIRE(archive.ok());
  const std::vector<ZipEntry>& entries = archive->entries();
  REQUIRE(entries.size() == 3);
  CHECK(entries[1].uncompressed_size == frames.size());
  CHECK(entries[1].local_header_offset == kLocalHeaderSize + 9 + 20 + 6);
  CHECK(entries[2].local_header_offset > entries[1].local_header_offset);
  CHECK(ExtractText(*archive, entries[0]) == "before");
  CHECK(ExtractText(*archive, entries[1]) == frames);
  CHECK(ExtractText(*archive, entries[2]) == "after");

  SECTION("a saturated field without its zip64 extra field is damage") {
    std::vector<uint8_t> plain = WriteZip({{"a", "abc"}});
    Patch(plain, DirectoryOffset(plain) + kCentralUncompressedSizeField, 0xffffffff, 4);
    auto damaged = ZipArchive::Open(Span(plain), Limits{});
    CHECK(damaged.status().code() == ErrorCode::kZipCorrupt);
    CHECK(damaged.status().path() == "a");
  }
  SECTION("a locator pointing at no zip64 end record is damage") {
    size_t locator = zip.size() - kEndRecordSize - 20;
    Patch(zip, locator + 8, Get(zip, locator + 8, 8) - 1, 8);
    auto damaged = ZipArchive::Open(Span(zip), Limits{});
    CHECK(damaged.status().code() == ErrorCode::kZipCorrupt);
    CHECK(*damaged.status().offset() == Get(zip, locator + 8, 8));
  }
}

TEST_CASE("zip finds the end record behind a comment of any length") {
  for (size_t size : {size_t{1}, size_t{300}, size_t{65535}}) {
    std::vector<uint8_t> zip = WriteZip({{"a.txt", "alpha"}}, false, std::string(size, 'c'));
    auto archive = ZipArchive::Open(Span(zip), Limits{});
    REQUIRE(archive.ok());
    REQUIRE(archive->entries().size() == 1);
    CHECK(ExtractText(*archive, archive->entries()[0]) == "alpha");
  }
}

TEST_CASE("zip reads directories, the empty archive and a bundle's tree as named") {
  std::vector<uint8_t> empty = WriteZip({});
  CHECK(empty.size() == kEndRecordSize);
  CHECK(LooksLikeZip(Span(empty)));
  auto nothing = ZipArchive::Open(Span(empty), Limits{});
  REQUIRE(nothing.ok());
  CHECK(nothing->entries().empty());

  const std::string cp437_name = "x.trace/caf\x82.txt";  // CP437 e-acute, not UTF-8
  std::vector<uint8_t> zip =
      WriteZip({{"x.trace/", ""},
                {"x.trace/corespace/", ""},
                {"x.trace/corespace/run1/", ""},
                {"x.trace/corespace/run1/core/stores/bulkstore", Lines(50), true},
                {"x.trace/form.template", "template"},
                {cp437_name, "menu"},
                {"__MACOSX/", ""},
                {"__MACOSX/._x.trace", "\x00\x05\x16\x07", true}});
  auto archive = ZipArchive::Open(Span(zip), Limits{});
  REQUIRE(archive.ok());
  std::vector<std::string> names, directories;
  for (const ZipEntry& entry : archive->entries()) {
    names.push_back(entry.name);
    if (entry.is_directory) directories.push_back(entry.name);
    CHECK(archive->Extract(entry).ok());
  }
  CHECK(names.size() == 8);
  CHECK(names[5] == cp437_name);
  CHECK(directories == std::vector<std::string>{"x.trace/", "x.trace/corespace/",
                                                "x.trace/corespace/run1/", "__MACOSX/"});
  CHECK(ExtractText(*archive, archive->entries()[0]).empty());
  CHECK(ExtractText(*archive, archive->entries()[3]) == Lines(50));
}

TEST_CASE("a zip inside a zip opens from the extracted bytes") {
  std::vector<uint8_t> inner = WriteZip({{"x.trace/run/data", Lines(400), true}});
  std::vector<uint8_t> outer = WriteZip({{"readme", "nested"}, {"inner.zip", Text(inner), true}});
  auto archive = ZipArchive::Open(Span(outer), Limits{});
  REQUIRE(archive.ok());
  auto inner_bytes = archive->Extract(archive->entries()[1]);
  REQUIRE(inner_bytes.ok());
  CHECK(*inner_bytes == inner);
  CHECK(LooksLikeZip(Span(*inner_bytes)));
  auto nested = ZipArchive::Open(Span(*inner_bytes), Limits{});
  REQUIRE(nested.ok());
  REQUIRE(nested->entries().size() == 1);
  CHECK(ExtractText(*nested, nested->entries()[0]) == Lines(400));
}

std::vector<uint8_t> SmallArchive() {
  return WriteZip({{"x.trace/", ""},
                   {"x.trace/a.txt", Lines(40), true, true},
                   {"x.trace/b.bin", "stored bytes"},
                   {"x.trace/c.txt", Lines(20), true, false, true}},
                  true, "comment");
}

TEST_CASE("zip refuses every truncation") {
  std::vector<uint8_t> zip = SmallArchive();
  for (size_t cut = 0; cut < zip.size(); ++cut) {
    INFO("cut at " << cut);
    std::vector<uint8_t> truncated(zip.begin(), zip.begin() + cut);
    auto archive = ZipArchive::Open(Span(truncated), Limits{});
    CHECK_FALSE((archive.ok() && ExtractAll(*archive).ok()));
  }
}

TEST_CASE("zip survives damage to any byte") {
  std::vector<uint8_t> zip = SmallArchive();
  size_t failures = 0;
  for (size_t offset = 0; offset < zip.size(); ++offset) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      std::vector<uint8_t> damaged = zip;
      damaged[offset] ^= mask;
      auto archive = ZipArchive::Open(Span(damaged), Limits{});
      Status status = archive.ok() ? ExtractAll(*archive) : archive.status();
      if (!status.ok()) {
        ++failures;
        CHECK(status.offset().has_value());
      }
    }
  }
  CHECK(failures > zip.size());
}

TEST_CASE("zip errors say what, where and in which entry") {
  std::string frames = Lines(100);
  std::vector<uint8_t> zip = WriteZip({{"first.txt", "first bytes"}, {"second.txt", frames, true}});
  size_t directory = DirectoryOffset(zip);
  size_t second_central = directory + 46 + 9;
  Limits limits;

  SECTION("bad CRC") {
    zip[kLocalHeaderSize + 9] ^= 1;  // the first data byte
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[0]);
    CHECK(out.status().code() == ErrorCode::kZipCorrupt);
    CHECK(out.status().message().find("CRC-32") != std::string::npos);
    CHECK(out.status().path() == "first.txt");
    CHECK(*out.status().offset() == kLocalHeaderSize + 9);
  }
  SECTION("bad local signature") {
    uint64_t local = Get(zip, second_central + kCentralLocalOffsetField, 4);
    zip[local] = 'X';
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    CHECK(archive->Extract(archive->entries()[0]).ok());
    auto out = archive->Extract(archive->entries()[1]);
    CHECK(out.status().code() == ErrorCode::kZipCorrupt);
    CHECK(out.status().path() == "second.txt");
    CHECK(*out.status().offset() == local);
  }
  SECTION("a local offset outside the archive") {
    Patch(zip, second_central + kCentralLocalOffsetField, zip.size() - 10, 4);
    auto archive = ZipArchive::Open(Span(zip), limits);
    CHECK(archive.status().code() == ErrorCode::kZipCorrupt);
    CHECK(archive.status().path() == "second.txt");
    CHECK(*archive.status().offset() == second_central);
  }
  SECTION("a local extra field running past the end") {
    Patch(zip, kLocalExtraSizeField, 0xffff, 2);
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[0]);
    CHECK(out.status().code() == ErrorCode::kZipCorrupt);
    CHECK(out.status().path() == "first.txt");
  }
  SECTION("an entry made up by the caller is checked as well") {
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    ZipEntry forged = archive->entries()[1];
    forged.local_header_offset = uint64_t{1} << 40;
    CHECK(archive->Extract(forged).status().code() == ErrorCode::kZipCorrupt);
    forged = archive->entries()[1];
    forged.compressed_size = ~uint64_t{0};
    CHECK(archive->Extract(forged).status().code() == ErrorCode::kZipCorrupt);
  }
  SECTION("a central directory outside the archive") {
    Patch(zip, zip.size() - 6, zip.size(), 4);
    auto archive = ZipArchive::Open(Span(zip), limits);
    CHECK(archive.status().code() == ErrorCode::kZipCorrupt);
    CHECK(*archive.status().offset() == zip.size() - kEndRecordSize);
  }
  SECTION("encrypted") {
    zip = WriteZip({{"secret", "hidden", false, false, false, /*flags=*/0x01}});
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[0]);
    CHECK(out.status().code() == ErrorCode::kZipUnsupported);
    CHECK(out.status().message().find("encrypted") != std::string::npos);
    CHECK(out.status().path() == "secret");
    CHECK(*out.status().offset() == 0);
  }
  SECTION("an unknown method") {
    zip = WriteZip({{"lzma", "packed", false, false, false, 0, /*method=*/14}});
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[0]);
    CHECK(out.status().code() == ErrorCode::kZipUnsupported);
    CHECK(out.status().message().find("method 14") != std::string::npos);
    CHECK(out.status().path() == "lzma");
  }
  SECTION("a stored entry whose sizes differ") {
    Patch(zip, directory + kCentralUncompressedSizeField, 12, 4);
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    CHECK(archive->Extract(archive->entries()[0]).status().code() == ErrorCode::kZipCorrupt);
  }
  SECTION("deflated data shorter than declared") {
    Patch(zip, second_central + kCentralUncompressedSizeField, frames.size() + 1, 4);
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[1]);
    CHECK(out.status().code() == ErrorCode::kZipCorrupt);
    CHECK(out.status().message().find("declares") != std::string::npos);
  }
  SECTION("a CRC that does not match the inflated data") {
    Patch(zip, second_central + kCentralCrcField, Crc32(frames) ^ 1, 4);
    auto archive = ZipArchive::Open(Span(zip), limits);
    REQUIRE(archive.ok());
    auto out = archive->Extract(archive->entries()[1]);
    CHECK(out.status().code() == ErrorCode::kZipCorrupt);
    CHECK(out.status().path() == "second.txt");
  }
}

TEST_CASE("zip stops a deflate bomb, whether its size is honest or not") {
  std::string zeros(1 << 20, '\0');
  std::vector<uint8_t> zip = WriteZip({{"bomb", zeros, true}});
  REQUIRE(zip.size() < 5000);
  Limits limits;
  limits.max_member_bytes = 100000;
  auto archive = ZipArchive::Open(Span(zip), limits);
  REQUIRE(archive.ok());
  auto honest = archive->Extract(archive->entries()[0]);
  CHECK(honest.status().code() == ErrorCode::kLimitExceeded);
  CHECK(honest.status().message().find("limits.maxMemberBytes") != std::string::npos);
  CHECK(honest.status().path() == "bomb");

  // Claiming 1000 bytes: inflating stops right after them.
  Patch(zip, DirectoryOffset(zip) + kCentralUncompressedSizeField, 1000, 4);
  auto lying_archive = ZipArchive::Open(Span(zip), limits);
  REQUIRE(lying_archive.ok());
  auto lying = lying_archive->Extract(lying_archive->entries()[0]);
  CHECK(lying.status().code() == ErrorCode::kZipCorrupt);
  CHECK(lying.status().message().find("more than the 1000 bytes") != std::string::npos);
  CHECK(lying.status().path() == "bomb");
}

TEST_CASE("zip checks the entry count against the central directory") {
  // Names long enough that a fourth entry's header would fit in the directory.
  std::vector<uint8_t> zip = WriteZip({{"entries/first-one.txt", "1"},
                                       {"entries/second-one.txt", "2"},
                                       {"entries/third.txt", "3"}});
  size_t end = zip.size() - kEndRecordSize;
  auto with_count = [&zip, end](uint64_t count) {
    std::vector<uint8_t> patched = zip;
    Patch(patched, end + 8, count, 2);
    Patch(patched, end + 10, count, 2);
    return ZipArchive::Open(Span(patched), Limits{}).status();
  };
  CHECK(with_count(3).ok());
  Status fewer = with_count(2);
  CHECK(fewer.code() == ErrorCode::kZipCorrupt);
  CHECK(fewer.message().find("more than the 2 entries") != std::string::npos);
  Status more = with_count(4);
  CHECK(more.code() == ErrorCode::kZipCorrupt);
  CHECK(more.message().find("entry 4 of 4") != std::string::npos);
  Status impossible = with_count(0xffff);
  CHECK(impossible.code() == ErrorCode::kZipCorrupt);
  CHECK(impossible.message().find("cannot fit") != std::string::npos);

  std::vector<uint8_t> counts_differ = zip;
  Patch(counts_differ, end + 8, 2, 2);  // entries on this disk
  CHECK(ZipArchive::Open(Span(counts_differ), Limits{}).status().code() == ErrorCode::kZipCorrupt);
  std::vector<uint8_t> split = zip;
  Patch(split, end + 4, 1, 2);  // this disk's number
  CHECK(ZipArchive::Open(Span(split), Limits{}).status().code() == ErrorCode::kZipUnsupported);

  std::vector<uint8_t> zip64 = WriteZip({{"a", "1"}}, /*zip64_end=*/true);
  size_t zip64_end = zip64.size() - kEndRecordSize - 20 - 56;
  Patch(zip64, zip64_end + 24, 2'000'000, 8);
  Patch(zip64, zip64_end + 32, 2'000'000, 8);
  Status too_many = ZipArchive::Open(Span(zip64), Limits{}).status();
  CHECK(too_many.code() == ErrorCode::kLimitExceeded);
  CHECK(*too_many.offset() == zip64_end);
}

TEST_CASE("LooksLikeZip knows the two ways a zip starts") {
  CHECK(LooksLikeZip(ByteSpan(std::string_view("PK\x03\x04rest"))));
  CHECK(LooksLikeZip(ByteSpan(std::string_view("PK\x05\x06", 4))));
  CHECK_FALSE(LooksLikeZip(ByteSpan(std::string_view("PK\x01\x02"))));
  CHECK_FALSE(LooksLikeZip(ByteSpan(std::string_view("PK\x03"))));
  CHECK_FALSE(LooksLikeZip(ByteSpan(std::string_view("\x1f\x8b\x08\x00"))));
  CHECK(ZipArchive::Open(ByteSpan(std::string_view("PK\x03\x04")), Limits{}).status().code() ==
        ErrorCode::kZipCorrupt);
}

// Facts checked with Python's zipfile.
struct CorpusZip {
  const char* path;
  size_t entries;
  size_t directories;
  uint64_t total_size;
  const char* member;
  uint64_t member_size;
  uint32_t member_crc;
};

TEST_CASE("zip reads the corpus's zipped .trace bundles as Python's zipfile does") {
  const CorpusZip corpus[] = {
      {"jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-time-profile.trace.zip", 155,
       60, 25188635,
       "simple-time-profile.trace/corespace/currentRun/core/uniquing/arrayUniquer/"
       "integeruniquer.data",
       10485760, 0x45de1a21},
      {"shadi-gamal__uniprof/tests/fixtures/test-simple.trace.zip", 270, 69, 5322036,
       "test-simple.trace/form.template", 4625325, 0x66a4c4f5},
  };
  for (const CorpusZip& expected : corpus) {
    auto path = CorpusFileOrSkip(expected.path);
    if (!path) return;
    INFO(expected.path);
    std::vector<uint8_t> bytes = ReadFile(*path);
    CHECK(LooksLikeZip(Span(bytes)));
    auto archive = ZipArchive::Open(Span(bytes), Limits{});
    REQUIRE(archive.ok());
    CHECK(archive->entries().size() == expected.entries);
    size_t directories = 0;
    uint64_t total_size = 0;
    bool found_member = false;
    for (const ZipEntry& entry : archive->entries()) {
      INFO(entry.name);
      auto data = archive->Extract(entry);
      REQUIRE(data.ok());
      CHECK(data->size() == entry.uncompressed_size);
      directories += entry.is_directory;
      total_size += data->size();
      if (entry.name == expected.member) {
        found_member = true;
        CHECK(entry.uncompressed_size == expected.member_size);
        CHECK(entry.crc32 == expected.member_crc);
      }
    }
    CHECK(directories == expected.directories);
    CHECK(total_size == expected.total_size);
    CHECK(found_member);
  }
}

}  // namespace
}  // namespace instrumentscope
