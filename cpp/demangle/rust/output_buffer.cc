#include "demangle/rust/output_buffer.h"

#include <algorithm>

#include "demangle/rust/limits.h"

namespace instrumentscope::demangle::rust {

OutputBuffer::OutputBuffer(size_t expected_size) {
  text_.reserve(std::min(expected_size, kMaxOutputBytes));
}

bool OutputBuffer::Append(std::string_view text) {
  if (full_ || text.size() > kMaxOutputBytes - text_.size()) {
    full_ = true;
    return false;
  }
  text_.append(text);
  return true;
}

bool OutputBuffer::AppendCodePoint(uint32_t code_point) {
  char bytes[4];
  size_t size;
  if (code_point < 0x80) {
    bytes[0] = static_cast<char>(code_point);
    size = 1;
  } else if (code_point < 0x800) {
    bytes[0] = static_cast<char>(0xC0 | (code_point >> 6));
    size = 2;
  } else if (code_point < 0x10000) {
    bytes[0] = static_cast<char>(0xE0 | (code_point >> 12));
    size = 3;
  } else {
    bytes[0] = static_cast<char>(0xF0 | (code_point >> 18));
    size = 4;
  }
  // Continuation bytes carry six bits each, the lowest last.
  for (size_t i = size - 1; i > 0; --i, code_point >>= 6) {
    bytes[i] = static_cast<char>(0x80 | (code_point & 0x3F));
  }
  return Append(std::string_view(bytes, size));
}

bool OutputBuffer::AppendDecimal(uint64_t value) {
  char digits[20];
  size_t start = sizeof(digits);
  do {
    digits[--start] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  return Append(std::string_view(digits + start, sizeof(digits) - start));
}

bool OutputBuffer::AppendHex(uint64_t value) {
  char digits[16];
  size_t start = sizeof(digits);
  do {
    digits[--start] = "0123456789abcdef"[value & 0xF];
    value >>= 4;
  } while (value != 0);
  return Append(std::string_view(digits + start, sizeof(digits) - start));
}

}  // namespace instrumentscope::demangle::rust
