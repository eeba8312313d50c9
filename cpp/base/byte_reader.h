// The one bounds-checked reader for binary input. Reads name their byte order;
// a failed read returns kTruncated with the absolute offset and leaves the
// cursor where it was.
#ifndef INSTRUMENTSCOPE_BASE_BYTE_READER_H_
#define INSTRUMENTSCOPE_BASE_BYTE_READER_H_

#include <cstdint>
#include <cstring>

#include "base/byte_span.h"
#include "base/status.h"

namespace instrumentscope {

class ByteReader {
 public:
  // `base_offset` is the absolute offset of data[0] in the whole input, so
  // errors can point at the right byte of a nested member.
  explicit ByteReader(ByteSpan data, uint64_t base_offset = 0)
      : data_(data), base_offset_(base_offset) {}

  size_t position() const { return position_; }
  size_t remaining() const { return data_.size() - position_; }
  uint64_t absolute_offset() const { return base_offset_ + position_; }

  Status Seek(size_t position);
  Status Skip(size_t count);

  Result<uint8_t> ReadU8();
  Result<uint16_t> ReadU16Le() { return ReadFixed<uint16_t>(/*big_endian=*/false); }
  Result<uint32_t> ReadU32Le() { return ReadFixed<uint32_t>(false); }
  Result<uint64_t> ReadU64Le() { return ReadFixed<uint64_t>(false); }
  Result<uint16_t> ReadU16Be() { return ReadFixed<uint16_t>(true); }
  Result<uint32_t> ReadU32Be() { return ReadFixed<uint32_t>(true); }
  Result<uint64_t> ReadU64Be() { return ReadFixed<uint64_t>(true); }
  // Unsigned integers of 1 to 8 bytes.
  Result<uint64_t> ReadUIntLe(size_t width);
  Result<uint64_t> ReadUIntBe(size_t width);
  Result<ByteSpan> ReadBytes(size_t count);
  // LEB128, as DWARF and Mach-O write them. A number longer than 64 bits is
  // an `overlong` error: the code of the caller's format.
  Result<uint64_t> ReadUleb128(ErrorCode overlong);
  Result<int64_t> ReadSleb128(ErrorCode overlong);

 private:
  // Inline, as reads of a few bytes are most of some imports; the error is made out of line.
  Status CheckAvailable(size_t count) const {
    return count <= remaining() ? OkStatus() : Truncated(count);
  }
  // kTruncated: `count` bytes needed at the cursor, fewer remain.
  Status Truncated(size_t count) const;

  template <typename T>
  Result<T> ReadFixed(bool big_endian) {
    if (sizeof(T) > remaining()) return Truncated(sizeof(T));
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, data_.data() + position_, sizeof(T));
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) {
      size_t index = big_endian ? i : sizeof(T) - 1 - i;
      value = static_cast<T>((value << 8) | bytes[index]);
    }
    position_ += sizeof(T);
    return value;
  }

  ByteSpan data_;
  uint64_t base_offset_;
  size_t position_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_BYTE_READER_H_
