#include "container/inflate.h"

#include <zlib.h>

#include <catch2/catch.hpp>

#include "test_support.h"

namespace instrumentscope {
namespace {

constexpr int kZlibWindow = MAX_WBITS;
constexpr int kRawWindow = -MAX_WBITS;

std::vector<uint8_t> Text(size_t size) {
  std::vector<uint8_t> text(size);
  for (size_t i = 0; i < size; ++i)
    text[i] = static_cast<uint8_t>("corespace run\n"[i % 14] + i / 1009 % 5);
  return text;
}

std::vector<uint8_t> Deflate(const std::vector<uint8_t>& bytes, int window_bits, int level = 6,
                             const std::string& dictionary = "") {
  return testing::Deflate(bytes, window_bits, level, dictionary);
}

ByteSpan Span(const std::vector<uint8_t>& bytes) {
  return ByteSpan(bytes.data(), bytes.size());
}

TEST_CASE("LooksLikeZlib accepts the headers zlib writes at every level") {
  std::vector<uint8_t> text = Text(5000);
  // Levels 1, 2 to 5, 6 and 7 to 9 write FLG 01, 5E, 9C and DA.
  for (auto [level, flag] : {std::pair{1, 0x01}, {3, 0x5e}, {6, 0x9c}, {9, 0xda}}) {
    std::vector<uint8_t> compressed = Deflate(text, kZlibWindow, level);
    CHECK(compressed[0] == 0x78);
    CHECK(compressed[1] == flag);
    CHECK(LooksLikeZlib(Span(compressed)));
    auto out = Inflate(Span(compressed), InflateFormat::kZlib, text.size());
    REQUIRE(out.ok());
    CHECK(*out == text);
  }
  for (std::vector<uint8_t> not_zlib : std::vector<std::vector<uint8_t>>{
           {}, {0x78}, {0x78, 0x00}, {0x78, 0x9d}, {0x1f, 0x8b}, {'P', 'K'}, {0x08, 0x1d}}) {
    CHECK_FALSE(LooksLikeZlib(Span(not_zlib)));
  }
}

TEST_CASE("Inflate grows its output through many buffers and stops at the stream's end") {
  std::vector<uint8_t> text = Text(3 << 20);
  std::vector<uint8_t> compressed = Deflate(text, kRawWindow);
  auto out = Inflate(Span(compressed), InflateFormat::kRawDeflate, uint64_t{1} << 40);
  REQUIRE(out.ok());
  CHECK(*out == text);

  auto exact = Inflate(Span(compressed), InflateFormat::kRawDeflate, text.size());
  REQUIRE(exact.ok());
  CHECK(exact->size() == text.size());

  compressed.insert(compressed.end(), {'t', 'a', 'i', 'l'});
  auto trailing = Inflate(Span(compressed), InflateFormat::kRawDeflate, text.size());
  REQUIRE(trailing.ok());
  CHECK(*trailing == text);

  std::vector<uint8_t> empty = Deflate({}, kRawWindow);
  auto nothing = Inflate(Span(empty), InflateFormat::kRawDeflate, 0);
  REQUIRE(nothing.ok());
  CHECK(nothing->empty());
}

TEST_CASE("InflateStream hands the output over in order, in pieces of at most 256 KiB") {
  std::vector<uint8_t> text = Text(3 << 20);
  std::vector<uint8_t> compressed = Deflate(text, kZlibWindow);
  std::vector<uint8_t> joined;
  size_t largest = 0;
  size_t pieces = 0;
  Status status =
      InflateStream(Span(compressed), InflateFormat::kZlib, text.size(), 0, [&](ByteSpan piece) {
        joined.insert(joined.end(), piece.data(), piece.data() + piece.size());
        largest = std::max(largest, piece.size());
        ++pieces;
      });
  REQUIRE(status.ok());
  CHECK(joined == text);
  CHECK(largest == 256 * 1024);
  CHECK(pieces == 12);

  // The same errors as Inflate, after the pieces before them.
  size_t streamed = 0;
  Status limited = InflateStream(Span(compressed), InflateFormat::kZlib, 1 << 20, 300,
                                 [&](ByteSpan piece) { streamed += piece.size(); });
  CHECK(limited.code() == ErrorCode::kLimitExceeded);
  CHECK(limited.ToString() ==
        Inflate(Span(compressed), InflateFormat::kZlib, 1 << 20, 300).status().ToString());
  CHECK(streamed == 1 << 20);
  Status cut = InflateStream(ByteSpan(compressed.data(), compressed.size() / 2),
                             InflateFormat::kZlib, text.size(), 0, [](ByteSpan) {});
  CHECK(cut.code() == ErrorCode::kInflateCorrupt);
}

TEST_CASE("Inflate stops at max_output and names the limit") {
  std::vector<uint8_t> text = Text(200000);
  std::vector<uint8_t> compressed = Deflate(text, kZlibWindow);
  for (uint64_t max_output : {uint64_t{0}, uint64_t{1000}, uint64_t{text.size() - 1}}) {
    auto out = Inflate(Span(compressed), InflateFormat::kZlib, max_output, 500);
    CHECK(out.status().code() == ErrorCode::kLimitExceeded);
    CHECK(out.status().message().find("limits.maxMemberBytes") != std::string::npos);
    CHECK(*out.status().offset() >= 500);
    CHECK(*out.status().offset() <= 500 + compressed.size());
  }
}

TEST_CASE("A cut-short stream is an error at every length, with the absolute offset") {
  std::vector<uint8_t> text = Text(20000);
  for (auto [format, window] : {std::pair{InflateFormat::kZlib, kZlibWindow},
                                std::pair{InflateFormat::kRawDeflate, kRawWindow}}) {
    std::vector<uint8_t> compressed = Deflate(text, window);
    for (size_t cut = 0; cut < compressed.size(); ++cut) {
      auto out = Inflate(ByteSpan(compressed.data(), cut), format, text.size(), 1000);
      INFO("cut at " << cut);
      REQUIRE(out.status().code() == ErrorCode::kInflateCorrupt);
      if (out.status().message().find("ends before its end") != std::string::npos) {
        CHECK(*out.status().offset() == 1000 + cut);
      }
    }
    auto half = Inflate(ByteSpan(compressed.data(), compressed.size() / 2), format, text.size());
    CHECK(half.status().message().find("ends before its end") != std::string::npos);
  }
}

TEST_CASE("Damaged streams carry zlib's reason and where it stopped") {
  std::vector<uint8_t> text = Text(20000);
  std::vector<uint8_t> compressed = Deflate(text, kZlibWindow);

  std::vector<uint8_t> header = compressed;
  header[1] ^= 1;
  auto bad_header = Inflate(Span(header), InflateFormat::kZlib, text.size(), 100);
  CHECK(bad_header.status().code() == ErrorCode::kInflateCorrupt);
  CHECK(bad_header.status().message().find("incorrect header check") != std::string::npos);
  CHECK(*bad_header.status().offset() == 102);

  std::vector<uint8_t> adler = compressed;
  adler.back() ^= 0xff;
  auto bad_check = Inflate(Span(adler), InflateFormat::kZlib, text.size());
  CHECK(bad_check.status().code() == ErrorCode::kInflateCorrupt);
  CHECK(bad_check.status().message().find("incorrect data check") != std::string::npos);
  CHECK(*bad_check.status().offset() == adler.size());

  const std::vector<uint8_t> reserved_block_type = {0x07, 0x00};
  auto bad_block = Inflate(Span(reserved_block_type), InflateFormat::kRawDeflate, 100, 7);
  CHECK(bad_block.status().code() == ErrorCode::kInflateCorrupt);
  CHECK(bad_block.status().message().find("invalid block type") != std::string::npos);
  CHECK(*bad_block.status().offset() == 8);

  // A zlib stream read as raw deflate: its header is no valid block.
  CHECK(Inflate(Span(compressed), InflateFormat::kRawDeflate, text.size()).status().code() ==
        ErrorCode::kInflateCorrupt);

  std::vector<uint8_t> with_dictionary = Deflate(text, kZlibWindow, 6, "corespace");
  auto dictionary = Inflate(Span(with_dictionary), InflateFormat::kZlib, text.size());
  CHECK(dictionary.status().code() == ErrorCode::kInflateCorrupt);
  CHECK(dictionary.status().message().find("preset dictionary") != std::string::npos);
}

}  // namespace
}  // namespace instrumentscope
