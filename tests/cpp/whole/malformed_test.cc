// Every damaged or hostile input in tests/malformed/manifest.json ends in its
// expected outcome: an error's code, and where the manifest gives them, path,
// line, offset and a message fragment; or a profile for inputs that must still
// import. Then the hostile inputs too large to keep: built here.
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/limits.h"
#include "container/zip.h"
#include "import/options.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::ReadFile;
using testing::SourcePath;

// An input that must import despite its damage: profile count, a warning,
// the first profile's weights, as the manifest's "imports" gives them.
void CheckImported(const ProfileGroup& group, const nlohmann::json& expected) {
  CHECK(group.profiles.size() == expected["profiles"].get<size_t>());
  if (expected.contains("warning")) {
    auto warning = std::find_if(group.warnings.begin(), group.warnings.end(),
                                [&](const Warning& w) { return w.code == expected["warning"]; });
    REQUIRE(warning != group.warnings.end());
    CHECK(warning->message.find(expected["message"].get<std::string>()) != std::string::npos);
  }
  if (expected.contains("weights")) {
    const Profile& profile = group.profiles.at(0);
    std::vector<int64_t> weights;
    for (size_t i = 0; i < profile.weights.size(); ++i) weights.push_back(profile.weights[i]);
    CHECK(weights == expected["weights"].get<std::vector<int64_t>>());
  }
}

TEST_CASE("Malformed inputs end in their expected outcomes") {
  std::vector<uint8_t> manifest_bytes = ReadFile(SourcePath("tests/malformed/manifest.json"));
  nlohmann::json manifest = nlohmann::json::parse(manifest_bytes.begin(), manifest_bytes.end());
  REQUIRE(manifest["cases"].size() >= 50);
  for (const nlohmann::json& entry : manifest["cases"]) {
    std::string file = entry["file"];
    INFO(file);
    std::vector<uint8_t> bytes = ReadFile(SourcePath("tests/malformed/" + file));
    ImportOptions options;
    if (entry.contains("options")) {
      REQUIRE(ReadImportOptions(entry["options"].dump(), &options).ok());
    }
    // Whole, and a byte at a time: chunk boundaries must not change the verdict; nor
    // threads, which must give the same error, located alike.
    for (size_t chunk : {size_t{1} << 20, size_t{1}}) {
      std::optional<std::string> one_thread_error;
      for (uint32_t threads : {1, 2, 4}) {
        INFO("chunk " << chunk << ", threads " << threads);
        options.threads = threads;
        auto result = testing::ImportBytes(bytes, options, chunk);
        INFO(result.status().ToString());
        if (entry.contains("imports")) {
          REQUIRE(result.ok());
          CheckImported(*result, entry["imports"]);
          continue;
        }
        REQUIRE_FALSE(result.ok());
        const Status& status = result.status();
        if (one_thread_error) CHECK(status.ToString() == *one_thread_error);
        one_thread_error = status.ToString();
        CHECK(ErrorCodeName(status.code()) == entry["code"].get<std::string>());
        if (entry.contains("path")) CHECK(status.path() == entry["path"].get<std::string>());
        if (entry.contains("line")) CHECK(status.line() == entry["line"].get<uint64_t>());
        if (entry.contains("offset")) CHECK(status.offset() == entry["offset"].get<uint64_t>());
        if (entry.contains("message")) {
          CHECK(status.message().find(entry["message"].get<std::string>()) != std::string::npos);
        }
      }
    }
  }
}

// A stored (method 0) or deflated (8) zip member, its bytes as written.
struct ZipMember {
  std::string name;
  std::vector<uint8_t> data;
  uint16_t method;
  uint32_t crc;
  uint64_t size;  // declared uncompressed size
};

void PutLe(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// A plain zip (sizes below 4 GiB, no zip64) of `members`.
std::vector<uint8_t> WriteZip(const std::vector<ZipMember>& members) {
  std::vector<uint8_t> out, directory;
  for (const ZipMember& member : members) {
    uint64_t offset = out.size();
    for (bool central : {false, true}) {
      std::vector<uint8_t>& to = central ? directory : out;
      PutLe(to, central ? 0x02014b50 : 0x04034b50, 4);
      if (central) PutLe(to, 20, 2);  // made by
      PutLe(to, 20, 2);               // version needed
      PutLe(to, 0, 2);                // flags
      PutLe(to, member.method, 2);
      PutLe(to, 0, 4);  // time and date
      PutLe(to, member.crc, 4);
      PutLe(to, member.data.size(), 4);
      PutLe(to, member.size, 4);
      PutLe(to, member.name.size(), 2);
      PutLe(to, 0, 2);  // extra field
      if (central) {
        PutLe(to, 0, 2);  // comment
        PutLe(to, 0, 2);  // disk
        PutLe(to, 0, 2);  // internal attributes
        PutLe(to, 0, 4);  // external attributes
        PutLe(to, offset, 4);
      }
      to.insert(to.end(), member.name.begin(), member.name.end());
    }
    out.insert(out.end(), member.data.begin(), member.data.end());
  }
  uint64_t directory_offset = out.size();
  out.insert(out.end(), directory.begin(), directory.end());
  PutLe(out, 0x06054b50, 4);
  PutLe(out, 0, 4);  // disks
  PutLe(out, members.size(), 2);
  PutLe(out, members.size(), 2);
  PutLe(out, directory.size(), 4);
  PutLe(out, directory_offset, 4);
  PutLe(out, 0, 2);  // comment
  return out;
}

constexpr uint64_t kMillion = 1'000'000;

// `millions` million zero bytes as raw deflate, about 1 KB per million: one
// block of a million zeros flushed with Z_FULL_FLUSH (byte-aligned, its window
// forgotten, so each copy decodes alone), repeated, then an empty final block.
std::vector<uint8_t> ZerosDeflated(uint64_t millions, uint32_t* crc) {
  std::vector<uint8_t> zeros(kMillion);
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY) == Z_OK);
  std::vector<uint8_t> block(deflateBound(&stream, kMillion) + 64);
  stream.next_in = zeros.data();
  stream.avail_in = kMillion;
  stream.next_out = block.data();
  stream.avail_out = static_cast<uInt>(block.size());
  REQUIRE(deflate(&stream, Z_FULL_FLUSH) == Z_OK);
  REQUIRE(stream.avail_in == 0);
  block.resize(block.size() - stream.avail_out);
  deflateEnd(&stream);
  std::vector<uint8_t> out;
  out.reserve(block.size() * millions + 2);
  uLong block_crc = crc32(0, zeros.data(), kMillion);
  uLong total_crc = 0;
  for (uint64_t i = 0; i < millions; ++i) {
    out.insert(out.end(), block.begin(), block.end());
    total_crc = crc32_combine(total_crc, block_crc, kMillion);
  }
  out.push_back(0x03);  // a final fixed-Huffman block holding only its end code
  out.push_back(0x00);
  *crc = static_cast<uint32_t>(total_crc);
  return out;
}

// The control bundle with its bulkstore replaced by 4 GB of zeros, declared
// as `declared_size` bytes.
std::vector<uint8_t> BundleWithZerosBulkstore(uint64_t declared_size) {
  std::vector<uint8_t> control = ReadFile(SourcePath("tests/malformed/bundle-valid-control.zip"));
  auto zip = ZipArchive::Open(ByteSpan(control.data(), control.size()), Limits{});
  REQUIRE(zip.ok());
  std::vector<ZipMember> members;
  for (const ZipEntry& entry : zip->entries()) {
    auto data = zip->Extract(entry);
    REQUIRE(data.ok());
    members.push_back({entry.name, data.take(), 0, entry.crc32, entry.uncompressed_size});
    if (entry.name.size() >= 9 && entry.name.substr(entry.name.size() - 9) == "bulkstore") {
      uint32_t crc;
      members.back().data = ZerosDeflated(4000, &crc);
      members.back().method = 8;
      members.back().crc = crc;
      members.back().size = declared_size;
    }
  }
  return WriteZip(members);
}

constexpr char kBulkstorePath[] = "x.trace/corespace/run1/core/stores/indexed-store-0/bulkstore";

TEST_CASE("A 4 GB zero-filled member is refused by its size, never inflated") {
  auto honest = testing::ImportBytes(BundleWithZerosBulkstore(4000 * kMillion));
  REQUIRE_FALSE(honest.ok());
  INFO(honest.status().ToString());
  CHECK(honest.status().code() == ErrorCode::kLimitExceeded);
  CHECK(honest.status().path() == kBulkstorePath);
  CHECK(honest.status().message() ==
        "the entry inflates to 4000000000 bytes, more than the limit of 1073741824 "
        "(limits.maxMemberBytes)");

  // Declared small: inflating stops one byte past the declared size.
  auto lying = testing::ImportBytes(BundleWithZerosBulkstore(4129));
  REQUIRE_FALSE(lying.ok());
  INFO(lying.status().ToString());
  CHECK(lying.status().code() == ErrorCode::kZipCorrupt);
  CHECK(lying.status().path() == kBulkstorePath);
  CHECK(lying.status().message().find("inflates to more than the 4129 bytes") != std::string::npos);
}

TEST_CASE("A gzip of 4 GB of zeros stops at its first bytes") {
  uint32_t crc;
  std::vector<uint8_t> deflated = ZerosDeflated(4000, &crc);
  const uint8_t header[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};  // deflate, no name, Unix
  std::vector<uint8_t> gzip(std::begin(header), std::end(header));
  gzip.resize(sizeof(header) + deflated.size());
  std::copy(deflated.begin(), deflated.end(), gzip.begin() + sizeof(header));
  PutLe(gzip, crc, 4);
  PutLe(gzip, 4000 * kMillion, 4);  // ISIZE: the size modulo 2^32
  auto result = testing::ImportBytes(gzip);
  REQUIRE_FALSE(result.ok());
  INFO(result.status().ToString());
  CHECK(result.status().code() == ErrorCode::kUnknownFormat);
  CHECK(result.status().offset() == 0);
}

TEST_CASE("200 000 levels of XML nesting end at limits.maxXmlDepth, or parse when allowed") {
  constexpr int kLevels = 200'000;
  std::string xml = "<?xml version=\"1.0\"?>\n<trace-query-result>";
  for (int i = 0; i < kLevels; ++i) xml += "<a>";
  for (int i = 0; i < kLevels; ++i) xml += "</a>";
  xml += "</trace-query-result>\n";
  auto deep = testing::ImportText(xml);
  REQUIRE_FALSE(deep.ok());
  INFO(deep.status().ToString());
  CHECK(deep.status().code() == ErrorCode::kLimitExceeded);
  CHECK(deep.status().line() == 2);
  CHECK(deep.status().message().find("(limits.maxXmlDepth)") != std::string::npos);

  ImportOptions options;
  options.limits.max_xml_depth = kLevels + 2;
  auto allowed = testing::ImportText(xml, options);
  REQUIRE_FALSE(allowed.ok());
  INFO(allowed.status().ToString());
  CHECK(allowed.status().code() == ErrorCode::kXmlNoSampleTable);
}

TEST_CASE("The malformed fixtures' control document imports") {
  auto group = testing::ImportBytes(ReadFile(SourcePath("tests/malformed/valid-control.xml")));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(group->profiles.size() == 1);
  CHECK(group->profiles[0].sample_count == 2);
}

}  // namespace
}  // namespace instrumentscope
