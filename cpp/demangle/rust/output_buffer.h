// The demangled text, capped at kMaxOutputBytes. An append that would pass the
// cap fails and leaves the buffer full for good, so printers stop at the first
// failed append and a runaway expansion ends early.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_OUTPUT_BUFFER_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_OUTPUT_BUFFER_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace instrumentscope::demangle::rust {

class OutputBuffer {
 public:
  // `expected_size` only sizes the first allocation.
  explicit OutputBuffer(size_t expected_size);

  bool Append(std::string_view text);
  bool Append(char c) { return Append(std::string_view(&c, 1)); }
  // The UTF-8 of a Unicode scalar value (the caller has checked it is one).
  bool AppendCodePoint(uint32_t code_point);
  bool AppendDecimal(uint64_t value);
  // Lowercase, without a prefix.
  bool AppendHex(uint64_t value);

  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
  bool full_ = false;
};

// Whether `code_point` is a Unicode scalar value: not a surrogate, not past
// U+10FFFF.
inline bool IsScalarValue(uint64_t code_point) {
  return code_point <= 0x10FFFF && (code_point < 0xD800 || code_point > 0xDFFF);
}

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_OUTPUT_BUFFER_H_
