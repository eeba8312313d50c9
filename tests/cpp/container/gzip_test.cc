#include "container/gzip.h"

#include <catch2/catch.hpp>

#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::Gzip;

std::vector<uint8_t> Text(size_t size) {
  std::vector<uint8_t> text(size);
  for (size_t i = 0; i < size; ++i)
    text[i] = static_cast<uint8_t>("instrumentscope\n"[i % 16] + i / 997 % 3);
  return text;
}

// Inflates `compressed` fed in pieces of `chunk` bytes.
Result<std::vector<uint8_t>> Inflate(const std::vector<uint8_t>& compressed, size_t chunk,
                                     Limits limits = {}) {
  std::vector<uint8_t> out;
  GzipDecoder decoder(limits, [&out](ByteSpan bytes) {
    out.insert(out.end(), bytes.data(), bytes.data() + bytes.size());
    return OkStatus();
  });
  for (size_t offset = 0; offset < compressed.size(); offset += chunk) {
    size_t size = std::min(chunk, compressed.size() - offset);
    RETURN_IF_ERROR(decoder.Feed(ByteSpan(compressed.data() + offset, size)));
  }
  RETURN_IF_ERROR(decoder.Finish());
  return out;
}

TEST_CASE("gzip inflates whatever the chunking") {
  std::vector<uint8_t> text = Text(3 << 20);  // several output buffers' worth
  std::vector<uint8_t> compressed = Gzip(text);
  for (size_t chunk : {size_t{1} << 30, size_t{65536}, size_t{7}}) {
    auto out = Inflate(compressed, chunk);
    REQUIRE(out.ok());
    CHECK(*out == text);
  }
  std::vector<uint8_t> small = Text(1000);
  auto out = Inflate(Gzip(small), 1);
  REQUIRE(out.ok());
  CHECK(*out == small);
}

TEST_CASE("gzip reads every member and ignores zero padding") {
  std::vector<uint8_t> first = Text(5000), second = Text(7000);
  std::vector<uint8_t> compressed = Gzip(first);
  std::vector<uint8_t> tail = Gzip(second);
  compressed.insert(compressed.end(), tail.begin(), tail.end());
  compressed.insert(compressed.end(), 512, 0);
  auto out = Inflate(compressed, 333);
  REQUIRE(out.ok());
  std::vector<uint8_t> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  CHECK(*out == expected);
}

TEST_CASE("gzip refuses truncated, damaged and oversized streams") {
  std::vector<uint8_t> compressed = Gzip(Text(100000));

  std::vector<uint8_t> truncated(compressed.begin(), compressed.begin() + compressed.size() / 2);
  auto cut = Inflate(truncated, 4096);
  CHECK(cut.status().code() == ErrorCode::kGzipTruncated);
  CHECK(*cut.status().offset() == truncated.size());

  std::vector<uint8_t> damaged = compressed;
  damaged[damaged.size() - 6] ^= 0xFF;  // inside the CRC-32 trailer
  auto bad = Inflate(damaged, 4096);
  CHECK(bad.status().code() == ErrorCode::kGzipCorrupt);
  CHECK(bad.status().message().find("incorrect data check") != std::string::npos);

  for (std::string tail : {"x", "not gzip at all"}) {
    std::vector<uint8_t> garbage_tail = compressed;
    garbage_tail.insert(garbage_tail.end(), tail.begin(), tail.end());
    auto trailing = Inflate(garbage_tail, 4096);
    CHECK(trailing.status().code() == ErrorCode::kGzipCorrupt);
    CHECK(*trailing.status().offset() == compressed.size());
  }

  Limits limits;
  limits.max_decompressed_bytes = 50000;
  auto bomb = Inflate(compressed, 4096, limits);
  CHECK(bomb.status().code() == ErrorCode::kLimitExceeded);
  CHECK(bomb.status().message().find("maxDecompressedBytes") != std::string::npos);
}

TEST_CASE("A cut-short later member is truncation, not garbage") {
  std::vector<uint8_t> compressed = Gzip(Text(1000));
  std::vector<uint8_t> second = Gzip(Text(2000));
  compressed.insert(compressed.end(), second.begin(), second.begin() + 5);
  CHECK(Inflate(compressed, 4096).status().code() == ErrorCode::kGzipTruncated);
}

TEST_CASE("gzip header checks name the damaged byte") {
  std::vector<uint8_t> compressed = Gzip(Text(100));
  CHECK(LooksLikeGzip(ByteSpan(compressed.data(), compressed.size())));
  CHECK(CheckGzipHeader(ByteSpan(compressed.data(), compressed.size())).ok());

  std::vector<uint8_t> method = compressed;
  method[2] = 7;
  Status status = CheckGzipHeader(ByteSpan(method.data(), method.size()));
  CHECK(status.code() == ErrorCode::kGzipCorrupt);
  CHECK(*status.offset() == 2);

  std::vector<uint8_t> flags = compressed;
  flags[3] = 0x80;
  CHECK(*CheckGzipHeader(ByteSpan(flags.data(), flags.size())).offset() == 3);
  CHECK(CheckGzipHeader(ByteSpan(compressed.data(), 3)).code() == ErrorCode::kGzipTruncated);
}

}  // namespace
}  // namespace instrumentscope
