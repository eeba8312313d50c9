#include "demangle/rust/punycode.h"

#include "demangle/punycode.h"

namespace instrumentscope::demangle::rust {
namespace {

// v0's digits: 'a'-'z' for 0-25, '0'-'9' for 26-35.
int DigitValue(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= '0' && c <= '9') return c - '0' + 26;
  return -1;
}

}  // namespace

bool AppendPunycode(std::string_view basic, std::string_view deltas, PunycodeScratch* scratch,
                    OutputBuffer* out) {
  size_t length;
  if (deltas.empty() ||
      !DecodePunycode(basic, deltas, DigitValue, scratch->data(), scratch->size(), &length)) {
    return false;
  }
  for (size_t i = 0; i < length; ++i) {
    if (!IsScalarValue((*scratch)[i])) return false;
  }
  for (size_t i = 0; i < length; ++i) {
    if (!out->AppendCodePoint((*scratch)[i])) return false;
  }
  return true;
}

}  // namespace instrumentscope::demangle::rust
