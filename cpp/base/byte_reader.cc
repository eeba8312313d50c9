#include "base/byte_reader.h"

#include <string>

namespace instrumentscope {

Status ByteReader::CheckAvailable(size_t count) const {
  if (count <= remaining()) return OkStatus();
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
  RETURN_IF_ERROR(CheckAvailable(1));
  return data_[position_++];
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
