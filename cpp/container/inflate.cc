#include "container/inflate.h"

#include <zlib.h>

#include <algorithm>
#include <functional>
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

namespace {

// The decoding loop of Inflate and InflateStream. `next_piece(filled, last)`
// takes the number of bytes written into the piece it returned before (0 the
// first time) and returns the next one to fill, kPieceBytes long; at the
// stream's end it is called with `last` and the last piece's bytes.
using PieceSource = std::function<uint8_t*(size_t filled, bool last)>;

Status RunInflate(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                  uint64_t base_offset, const PieceSource& next_piece) {
  z_stream stream{};
  int window_bits = format == InflateFormat::kZlib ? MAX_WBITS : -MAX_WBITS;
  if (inflateInit2(&stream, window_bits) != Z_OK) {
    return Status(ErrorCode::kLimitExceeded, "could not allocate an inflate decoder")
        .WithOffset(base_offset);
  }
  InflateEnder ender{&stream};

  size_t consumed = 0;
  uint64_t produced = 0;
  uint8_t* piece = next_piece(0, false);
  size_t piece_used = 0;
  for (;;) {
    if (piece_used == kPieceBytes) {
      piece = next_piece(piece_used, false);
      piece_used = 0;
    }
    size_t input_chunk = std::min(compressed.size() - consumed, kMaxZlibChunk);
    stream.next_in = const_cast<Bytef*>(compressed.data() + consumed);
    stream.avail_in = static_cast<uInt>(input_chunk);
    stream.next_out = piece + piece_used;
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
  next_piece(piece_used, true);
  return OkStatus();
}

}  // namespace

Result<std::vector<uint8_t>> Inflate(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                                     uint64_t base_offset) {
  // The output goes into pieces, joined once at the end: growing one vector
  // would zero-fill and copy it again at every doubling.
  std::vector<std::unique_ptr<uint8_t[]>> pieces;
  uint64_t produced = 0;
  Status status = RunInflate(
      compressed, format, max_output, base_offset, [&](size_t filled, bool last) -> uint8_t* {
        produced += filled;
        if (last) return nullptr;
        pieces.emplace_back(new uint8_t[kPieceBytes]);  // uninitialized: inflate fills it
        return pieces.back().get();
      });
  if (!status.ok()) return status;
  if (produced > std::vector<uint8_t>().max_size()) {
    return Status(ErrorCode::kLimitExceeded, "the inflated data does not fit in memory (" +
                                                 std::to_string(produced) + " bytes)")
        .WithOffset(base_offset);
  }
  std::vector<uint8_t> output;
  output.reserve(static_cast<size_t>(produced));
  for (auto& piece : pieces) {
    size_t used = std::min<uint64_t>(kPieceBytes, produced - output.size());
    output.insert(output.end(), piece.get(), piece.get() + used);
    piece.reset();
  }
  return output;
}

Status InflateStream(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                     uint64_t base_offset, const std::function<void(ByteSpan)>& sink) {
  std::unique_ptr<uint8_t[]> piece(new uint8_t[kPieceBytes]);
  return RunInflate(compressed, format, max_output, base_offset, [&](size_t filled, bool) {
    if (filled > 0) sink(ByteSpan(piece.get(), filled));
    return piece.get();
  });
}

}  // namespace instrumentscope
