#include "base/byte_reader.h"

#include <string>

namespace instrumentscope {

Status ByteReader::Truncated(size_t count) const {
  return Status(ErrorCode::kTruncated, "needed " + std::to_string(count) + " bytes, only " +
                                           std::to_string(remaining()) + " remain")
      .WithOffset(absolute_offset());
}

Status ByteReader::Seek(size_t position) {
  if (position > data_.size()) {
    return Status(ErrorCode::kTruncated, "seek to " + std::to_string(position) + " past the end (" +
                                             std::to_string(data_.size()) + " bytes)")
        .WithOffset(base_offset_ + data_.size());
  }
  position_ = position;
  return OkStatus();
}

Status ByteReader::Skip(size_t count) {
  RETURN_IF_ERROR(CheckAvailable(count));
  position_ += count;
  return OkStatus();
}

Result<uint8_t> ByteReader::ReadU8() {
  if (remaining() == 0) return Truncated(1);
  return data_[position_++];
}

Result<uint64_t> ByteReader::ReadUleb128(ErrorCode overlong) {
  size_t start = position_;
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (position_ == data_.size()) {
      Status cut = CheckAvailable(1);
      position_ = start;
      return cut;
    }
    uint8_t byte = data_[position_++];
    if (shift >= 64 || (shift == 63 && (byte & 0x7E))) {
      Status status = Status(overlong, "a ULEB128 number is longer than 64 bits")
                          .WithOffset(absolute_offset() - 1);
      position_ = start;
      return status;
    }
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return value;
  }
}

Result<int64_t> ByteReader::ReadSleb128(ErrorCode overlong) {
  size_t start = position_;
  uint64_t value = 0;
  unsigned shift = 0;
  uint8_t byte;
  do {
    if (position_ == data_.size()) {
      Status cut = CheckAvailable(1);
      position_ = start;
      return cut;
    }
    byte = data_[position_++];
    if (shift >= 64) {
      Status status = Status(overlong, "an SLEB128 number is longer than 64 bits")
                          .WithOffset(absolute_offset() - 1);
      position_ = start;
      return status;
    }
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    shift += 7;
  } while (byte & 0x80);
  if (shift < 64 && (byte & 0x40)) value |= ~uint64_t{0} << shift;
  return static_cast<int64_t>(value);
}

Result<uint64_t> ByteReader::ReadUIntLe(size_t width) {
  if (width == 0 || width > 8) {
    return Status(ErrorCode::kInvalidArgument, "integer width " + std::to_string(width));
  }
  RETURN_IF_ERROR(CheckAvailable(width));
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) {
    value |= static_cast<uint64_t>(data_[position_ + i]) << (8 * i);
  }
  position_ += width;
  return value;
}

Result<uint64_t> ByteReader::ReadUIntBe(size_t width) {
  if (width == 0 || width > 8) {
    return Status(ErrorCode::kInvalidArgument, "integer width " + std::to_string(width));
  }
  RETURN_IF_ERROR(CheckAvailable(width));
  uint64_t value = 0;
  for (size_t i = 0; i < width; ++i) value = (value << 8) | data_[position_ + i];
  position_ += width;
  return value;
}

Result<ByteSpan> ByteReader::ReadBytes(size_t count) {
  RETURN_IF_ERROR(CheckAvailable(count));
  ByteSpan bytes = data_.subspan(position_, count);
  position_ += count;
  return bytes;
}

}  // namespace instrumentscope
