#include "container/gzip.h"

#include <string>

#include "base/byte_reader.h"

namespace instrumentscope {
namespace {

constexpr size_t kOutputChunk = 256 * 1024;
constexpr uint8_t kGzipMagic0 = 0x1f;
constexpr uint8_t kGzipMagic1 = 0x8b;
constexpr uint8_t kMethodDeflate = 8;
constexpr uint8_t kReservedFlags = 0xe0;

}  // namespace

bool LooksLikeGzip(ByteSpan prefix) {
  return prefix.size() >= 2 && prefix[0] == kGzipMagic0 && prefix[1] == kGzipMagic1;
}

Status CheckGzipHeader(ByteSpan first_bytes) {
  ByteReader reader(first_bytes);
  auto magic = reader.ReadU16Be();
  auto method = reader.ReadU8();
  auto flags = reader.ReadU8();
  if (!magic.ok() || !method.ok() || !flags.ok()) {
    return Status(ErrorCode::kGzipTruncated, "the gzip header is cut short")
        .WithOffset(first_bytes.size());
  }
  if (*magic != ((kGzipMagic0 << 8) | kGzipMagic1)) {
    return Status(ErrorCode::kGzipCorrupt, "not a gzip header").WithOffset(0);
  }
  if (*method != kMethodDeflate) {
    return Status(ErrorCode::kGzipCorrupt, "gzip compression method " + std::to_string(*method) +
                                               " is unknown (only 8, deflate, exists)")
        .WithOffset(2);
  }
  if (*flags & kReservedFlags) {
    return Status(ErrorCode::kGzipCorrupt, "gzip header sets reserved flag bits").WithOffset(3);
  }
  return OkStatus();
}

GzipDecoder::GzipDecoder(const Limits& limits, Sink sink)
    : limits_(limits), sink_(std::move(sink)), output_(kOutputChunk) {}

GzipDecoder::~GzipDecoder() {
  if (initialized_) inflateEnd(&stream_);
}

Status GzipDecoder::Error(ErrorCode code, const std::string& message) const {
  return Status(code, message).WithOffset(compressed_offset_);
}

Status GzipDecoder::Feed(ByteSpan compressed) {
  if (!initialized_) {
    // 16 + MAX_WBITS: gzip framing only, with zlib checking CRC and length.
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) {
      return Error(ErrorCode::kLimitExceeded, "could not allocate a gzip decoder");
    }
    initialized_ = true;
  }
  size_t position = 0;
  bool output_full = false;  // inflate may hold more output than fitted
  for (;;) {
    if (state_ == State::kBetweenMembers) {
      // Zero padding after a member is common (tape-era tools, some writers).
      while (position < compressed.size() && compressed[position] == 0) {
        ++position;
        ++compressed_offset_;
      }
      if (position == compressed.size()) break;
      inflateReset(&stream_);
      state_ = State::kInMember;
      member_start_ = compressed_offset_;
      member_looks_gzip_ = compressed[position] == kGzipMagic0;
      member_output_ = 0;
    }
    if (position == compressed.size() && !output_full) break;

    size_t available = std::min<size_t>(compressed.size() - position, 1u << 30);
    stream_.next_in = const_cast<Bytef*>(compressed.data() + position);
    stream_.avail_in = static_cast<uInt>(available);
    stream_.next_out = output_.data();
    stream_.avail_out = static_cast<uInt>(output_.size());
    int result = inflate(&stream_, Z_NO_FLUSH);
    size_t consumed = available - stream_.avail_in;
    size_t produced = output_.size() - stream_.avail_out;

    if (result != Z_OK && result != Z_STREAM_END && result != Z_BUF_ERROR) {
      if (InTrailingBytes()) return TrailingBytesError();
      std::string reason = stream_.msg ? stream_.msg : "inflate failed";
      return Error(ErrorCode::kGzipCorrupt, "the gzip data is damaged: " + reason);
    }
    position += consumed;
    compressed_offset_ += consumed;
    if (produced > 0) {
      decompressed_total_ += produced;
      member_output_ += produced;
      if (decompressed_total_ > limits_.max_decompressed_bytes) {
        return Error(ErrorCode::kLimitExceeded,
                     "gzip output exceeds the limit of " +
                         std::to_string(limits_.max_decompressed_bytes) +
                         " decompressed bytes (limits.maxDecompressedBytes)");
      }
      RETURN_IF_ERROR(sink_(ByteSpan(output_.data(), produced)));
    }
    output_full = stream_.avail_out == 0;
    if (result == Z_STREAM_END) {
      state_ = State::kBetweenMembers;
      ++members_;
      output_full = false;
    }
    if (result == Z_BUF_ERROR) break;  // no progress possible without more input
  }
  return OkStatus();
}

bool GzipDecoder::InTrailingBytes() const {
  return state_ == State::kInMember && members_ > 0 && member_output_ == 0;
}

Status GzipDecoder::TrailingBytesError() const {
  return Status(ErrorCode::kGzipCorrupt,
                "bytes after the end of the gzip stream are neither padding nor another member")
      .WithOffset(member_start_);
}

Status GzipDecoder::Finish() {
  if (InTrailingBytes() && !member_looks_gzip_) return TrailingBytesError();
  if (!initialized_ || state_ == State::kInMember) {
    return Error(ErrorCode::kGzipTruncated,
                 "the gzip stream ends before its last member is complete");
  }
  return OkStatus();
}

}  // namespace instrumentscope
