// A non-owning view of bytes (C++17 has no std::span).
#ifndef INSTRUMENTSCOPE_BASE_BYTE_SPAN_H_
#define INSTRUMENTSCOPE_BASE_BYTE_SPAN_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace instrumentscope {

class ByteSpan {
 public:
  constexpr ByteSpan() = default;
  constexpr ByteSpan(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit ByteSpan(std::string_view text)
      : data_(reinterpret_cast<const uint8_t*>(text.data())), size_(text.size()) {}

  constexpr const uint8_t* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr uint8_t operator[](size_t index) const { return data_[index]; }
  // Callers check bounds first (ByteReader does); these do not.
  constexpr ByteSpan first(size_t count) const { return ByteSpan(data_, count); }
  constexpr ByteSpan subspan(size_t offset) const {
    return ByteSpan(data_ + offset, size_ - offset);
  }
  constexpr ByteSpan subspan(size_t offset, size_t count) const {
    return ByteSpan(data_ + offset, count);
  }
  std::string_view as_chars() const {
    return std::string_view(reinterpret_cast<const char*>(data_), size_);
  }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_BYTE_SPAN_H_
