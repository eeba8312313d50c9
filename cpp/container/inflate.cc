#include "container/inflate.h"

#include <zlib.h>

#include <algorithm>
#include <string>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope {
namespace {

constexpr uint8_t kZlibMethodDeflate32K = 0x78;
constexpr size_t kInitialOutput = 64 * 1024;
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

  // Room for one byte past max_output tells "exactly max_output" from "more".
  uint64_t capacity_limit = CheckedAdd<uint64_t>(max_output, 1).value_or(max_output);
  std::vector<uint8_t> output;
  size_t consumed = 0;
  size_t produced = 0;
  for (;;) {
    if (produced == output.size()) {
      // Grow by doubling: the declared size of untrusted input is no promise.
      uint64_t grown = std::min<uint64_t>(
          capacity_limit, std::max<uint64_t>(kInitialOutput, uint64_t{output.size()} * 2));
      if (grown > output.max_size()) {
        return Status(ErrorCode::kLimitExceeded, "the inflated data does not fit in memory (" +
                                                     std::to_string(grown) + " bytes)")
            .WithOffset(base_offset + consumed);
      }
      output.reserve(static_cast<size_t>(grown));  // exactly: resize may take twice as much
      output.resize(static_cast<size_t>(grown));
    }
    size_t input_chunk = std::min(compressed.size() - consumed, kMaxZlibChunk);
    size_t output_chunk = std::min(output.size() - produced, kMaxZlibChunk);
    stream.next_in = const_cast<Bytef*>(compressed.data() + consumed);
    stream.avail_in = static_cast<uInt>(input_chunk);
    stream.next_out = output.data() + produced;
    stream.avail_out = static_cast<uInt>(output_chunk);
    int result = inflate(&stream, Z_NO_FLUSH);
    consumed += input_chunk - stream.avail_in;
    produced += output_chunk - stream.avail_out;
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
  output.resize(produced);
  return output;
}

}  // namespace instrumentscope
