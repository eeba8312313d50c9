// Streaming gzip decompression (RFC 1952) through zlib: one or more members,
// fed in chunks of any size, inflated into the caller's sink. Zero padding
// after the last member is ignored; anything else is an error.
#ifndef INSTRUMENTSCOPE_CONTAINER_GZIP_H_
#define INSTRUMENTSCOPE_CONTAINER_GZIP_H_

#include <zlib.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"

namespace instrumentscope {

// True when `prefix` starts with the gzip magic bytes 1f 8b.
bool LooksLikeGzip(ByteSpan prefix);
// Checks the fixed 10-byte header of the first member, so that a damaged
// header gets a precise message before any inflating starts.
Status CheckGzipHeader(ByteSpan first_bytes);

class GzipDecoder {
 public:
  using Sink = std::function<Status(ByteSpan)>;

  GzipDecoder(const Limits& limits, Sink sink);
  ~GzipDecoder();
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

  Status Feed(ByteSpan compressed);
  Status Finish();

  uint64_t compressed_bytes() const { return compressed_offset_; }
  uint64_t decompressed_bytes() const { return decompressed_total_; }

 private:
  enum class State : uint8_t { kInMember, kBetweenMembers };

  Status Error(ErrorCode code, const std::string& message) const;
  // Bytes after a complete member that have not (yet) begun a new one.
  bool InTrailingBytes() const;
  Status TrailingBytesError() const;

  const Limits& limits_;
  Sink sink_;
  z_stream stream_{};
  bool initialized_ = false;
  State state_ = State::kInMember;
  uint64_t compressed_offset_ = 0;
  uint64_t decompressed_total_ = 0;
  uint64_t members_ = 0;           // members completed
  uint64_t member_start_ = 0;      // offset of the current member
  uint64_t member_output_ = 0;     // bytes the current member produced
  bool member_looks_gzip_ = true;  // the current member starts like one
  std::vector<uint8_t> output_;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_GZIP_H_
