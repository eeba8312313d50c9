// One-shot decompression through zlib of a deflate stream already in memory:
// zip members (raw deflate) and the zlib blocks inside a .trace bundle's files.
#ifndef INSTRUMENTSCOPE_CONTAINER_INFLATE_H_
#define INSTRUMENTSCOPE_CONTAINER_INFLATE_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"

namespace instrumentscope {

enum class InflateFormat : uint8_t {
  kRawDeflate,  // no header or trailer: zip compression method 8
  kZlib,        // RFC 1950: a 2-byte header (78 01, 78 5E, 78 9C, 78 DA) and an Adler-32 trailer
};

// True when `prefix` starts with a zlib header for a 32 KiB window: CMF 0x78
// and a FLG byte that makes (CMF * 256 + FLG) a multiple of 31.
bool LooksLikeZlib(ByteSpan prefix);

// Inflates the one stream at the start of `compressed`; bytes after its end
// are ignored. Fails with kLimitExceeded once the output would exceed
// `max_output` bytes, with kInflateCorrupt when the stream is damaged or ends
// early. `base_offset` is the absolute offset of compressed[0] in the input,
// so errors point at the right byte.
Result<std::vector<uint8_t>> Inflate(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                                     uint64_t base_offset = 0);

// Inflates as Inflate does, handing the output to `sink` in order, in pieces
// of at most 256 KiB that are valid only during the call: for data that is
// read once and need not be held whole.
Status InflateStream(ByteSpan compressed, InflateFormat format, uint64_t max_output,
                     uint64_t base_offset, const std::function<void(ByteSpan)>& sink);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_INFLATE_H_
