#include "demangle/rust/punycode.h"

#include <algorithm>

namespace instrumentscope::demangle::rust {
namespace {

// RFC 3492's parameters.
constexpr uint64_t kBase = 36;
constexpr uint64_t kTMin = 1;
constexpr uint64_t kTMax = 26;
constexpr uint64_t kSkew = 38;
constexpr uint64_t kInitialDamp = 700;
constexpr uint64_t kInitialBias = 72;
constexpr uint64_t kInitialCodePoint = 0x80;

bool DigitValue(char c, uint64_t* value) {
  if (c >= 'a' && c <= 'z') {
    *value = static_cast<uint64_t>(c - 'a');
  } else if (c >= '0' && c <= '9') {
    *value = static_cast<uint64_t>(c - '0') + 26;
  } else {
    return false;
  }
  return true;
}

// One variable-length delta, starting at `*pos`.
bool ReadDelta(std::string_view deltas, size_t* pos, uint64_t bias, uint64_t* delta) {
  *delta = 0;
  uint64_t weight = 1;
  for (uint64_t k = kBase;; k += kBase) {
    uint64_t digit;
    if (*pos >= deltas.size() || !DigitValue(deltas[(*pos)++], &digit)) return false;
    if (digit > (UINT64_MAX - *delta) / weight) return false;
    *delta += digit * weight;
    uint64_t threshold = std::clamp(k > bias ? k - bias : 0, kTMin, kTMax);
    if (digit < threshold) return true;
    if (weight > UINT64_MAX / (kBase - threshold)) return false;
    weight *= kBase - threshold;
  }
}

uint64_t Adapt(uint64_t delta, uint64_t damp, uint64_t length) {
  delta /= damp;
  delta += delta / length;
  uint64_t k = 0;
  while (delta > ((kBase - kTMin) * kTMax) / 2) {
    delta /= kBase - kTMin;
    k += kBase;
  }
  return k + ((kBase - kTMin + 1) * delta) / (delta + kSkew);
}

}  // namespace

bool AppendPunycode(std::string_view basic, std::string_view deltas, PunycodeScratch* scratch,
                    OutputBuffer* out) {
  if (deltas.empty() || basic.size() > scratch->size()) return false;
  uint32_t* chars = scratch->data();
  size_t length = 0;
  for (char c : basic) chars[length++] = static_cast<unsigned char>(c);

  uint64_t code_point = kInitialCodePoint;
  uint64_t bias = kInitialBias;
  uint64_t damp = kInitialDamp;
  uint64_t index = 0;
  for (size_t pos = 0; pos < deltas.size();) {
    uint64_t delta;
    if (!ReadDelta(deltas, &pos, bias, &delta) || length == scratch->size()) return false;
    ++length;
    if (delta > UINT64_MAX - index) return false;
    index += delta;
    if (index / length > UINT64_MAX - code_point) return false;
    code_point += index / length;
    index %= length;
    if (!IsScalarValue(code_point)) return false;
    // Insert at `index`, shifting the characters after it.
    std::copy_backward(chars + index, chars + length - 1, chars + length);
    chars[index] = static_cast<uint32_t>(code_point);
    ++index;
    bias = Adapt(delta, damp, length);
    damp = 2;
  }
  for (size_t i = 0; i < length; ++i) {
    if (!out->AppendCodePoint(chars[i])) return false;
  }
  return true;
}

}  // namespace instrumentscope::demangle::rust
