#include "container/inflate.h"

#include <zlib.h>

#include <algorithm>
#include <memory>
#include <string>

#include "base/byte_reader.h"

namespace instrumentscope {
namespace {

constexpr uint8_t kZlibMethodDeflate32K = 0x78;
constexpr size_t kPieceBytes = 256 * 1024;
// zlib counts bytes in a uInt, 32 bits even where size_t has 64.
constexpr size_t kMaxZlibChunk = size_t{1} << 30;

// Frees the decoder's state on every return path.
struct InflateEnder {
  z_stream* stream;
  ~InflateEnder() { inflateEnd(stream); }
};

std::string StreamName(InflateFormat format) {
  return format == InflateFormat::kZlib ? "zlib stream" : "deflate stream";
}

}  // namespace

bool LooksLikeZlib(ByteSpan prefix) {
  ByteReader reader(prefix);
  auto header = reader.ReadU16Be();
  return header.ok() && (*header >> 8) == kZlibMethodDeflate32K && *header % 31 == 0;
}

Result<std::vector<uint8_t>> Inflate(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                                     uint64_t base_offset) {
  z_stream stream{};
  int window_bits = format == InflateFormat::kZlib ? MAX_WBITS : -MAX_WBITS;
  if (inflateInit2(&stream, window_bits) != Z_OK) {
    return Status(ErrorCode::kLimitExceeded, "could not allocate an inflate decoder")
        .WithOffset(base_offset);
  }
  InflateEnder ender{&stream};

  // The output goes into pieces, joined once at the end: growing one vector
  // would zero-fill and copy it again at every doubling.
  std::vector<std::unique_ptr<uint8_t[]>> pieces;
  size_t consumed = 0;
  uint64_t produced = 0;
  size_t piece_used = kPieceBytes;  // the last piece is full: start a new one
  for (;;) {
    if (piece_used == kPieceBytes) {
      pieces.emplace_back(new uint8_t[kPieceBytes]);  // uninitialized: inflate fills it
      piece_used = 0;
    }
    size_t input_chunk = std::min(compressed.size() - consumed, kMaxZlibChunk);
    stream.next_in = const_cast<Bytef*>(compressed.data() + consumed);
    stream.avail_in = static_cast<uInt>(input_chunk);
    stream.next_out = pieces.back().get() + piece_used;
    stream.avail_out = static_cast<uInt>(kPieceBytes - piece_used);
    int result = inflate(&stream, Z_NO_FLUSH);
    consumed += input_chunk - stream.avail_in;
    size_t written = kPieceBytes - piece_used - stream.avail_out;
    piece_used += written;
    produced += written;
    uint64_t offset = base_offset + consumed;

    if (produced > max_output) {
      return Status(ErrorCode::kLimitExceeded, "inflated data exceeds the limit of " +
                                                   std::to_string(max_output) +
                                                   " bytes (limits.maxMemberBytes)")
          .WithOffset(offset);
    }
    if (result == Z_STREAM_END) break;
    if (result == Z_NEED_DICT) {
      return Status(ErrorCode::kInflateCorrupt, "the zlib stream needs a preset dictionary")
          .WithOffset(offset);
    }
    if (result != Z_OK && result != Z_BUF_ERROR) {
      std::string reason = stream.msg ? stream.msg : "zlib error " + std::to_string(result);
      return Status(ErrorCode::kInflateCorrupt,
                    "the " + StreamName(format) + " is damaged: " + reason)
          .WithOffset(offset);
    }
    // Room left for output and no input left: inflate is waiting for more.
    if (consumed == compressed.size() && stream.avail_out > 0) {
      return Status(ErrorCode::kInflateCorrupt,
                    "the " + StreamName(format) + " ends before its end")
          .WithOffset(offset);
    }
  }
  if (produced > std::vector<uint8_t>().max_size()) {
    return Status(ErrorCode::kLimitExceeded, "the inflated data does not fit in memory (" +
                                                 std::to_string(produced) + " bytes)")
        .WithOffset(base_offset + consumed);
  }
  std::vector<uint8_t> output;
  output.reserve(static_cast<size_t>(produced));
  for (size_t i = 0; i < pieces.size(); ++i) {
    size_t used = i + 1 < pieces.size() ? kPieceBytes : piece_used;
    output.insert(output.end(), pieces[i].get(), pieces[i].get() + used);
    pieces[i].reset();
  }
  return output;
}

}  // namespace instrumentscope
