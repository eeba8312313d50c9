#include "demangle/punycode.h"

#include <algorithm>

namespace instrumentscope::demangle {
namespace {

// RFC 3492's parameters.
constexpr uint64_t kBase = 36;
constexpr uint64_t kTMin = 1;
constexpr uint64_t kTMax = 26;
constexpr uint64_t kSkew = 38;
constexpr uint64_t kInitialDamp = 700;
constexpr uint64_t kInitialBias = 72;
constexpr uint64_t kInitialCodePoint = 0x80;
constexpr uint64_t kLastCodePoint = 0x10FFFF;

// One variable-length delta, from `*pos`.
bool ReadDelta(std::string_view deltas, PunycodeDigit digit_value, size_t* pos, uint64_t bias,
               uint64_t* delta) {
  *delta = 0;
  uint64_t weight = 1;
  for (uint64_t k = kBase;; k += kBase) {
    if (*pos >= deltas.size()) return false;
    int digit = digit_value(deltas[(*pos)++]);
    if (digit < 0) return false;
    auto value = static_cast<uint64_t>(digit);
    if (value > (UINT64_MAX - *delta) / weight) return false;
    *delta += value * weight;
    uint64_t threshold = std::clamp(k > bias ? k - bias : 0, kTMin, kTMax);
    if (value < threshold) return true;
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

bool DecodePunycode(std::string_view basic, std::string_view deltas, PunycodeDigit digit,
                    uint32_t* points, size_t capacity, size_t* count) {
  if (basic.size() > capacity) return false;
  size_t length = 0;
  for (char c : basic) points[length++] = static_cast<unsigned char>(c);
  uint64_t code_point = kInitialCodePoint;
  uint64_t bias = kInitialBias;
  uint64_t damp = kInitialDamp;
  uint64_t index = 0;
  for (size_t pos = 0; pos < deltas.size();) {
    uint64_t delta;
    if (!ReadDelta(deltas, digit, &pos, bias, &delta) || length == capacity) return false;
    ++length;
    if (delta > UINT64_MAX - index) return false;
    index += delta;
    if (index / length > kLastCodePoint - code_point) return false;
    code_point += index / length;
    index %= length;
    // Insert at `index`, moving the code points after it up by one.
    std::copy_backward(points + index, points + length - 1, points + length);
    points[index] = static_cast<uint32_t>(code_point);
    ++index;
    bias = Adapt(delta, damp, length);
    damp = 2;
  }
  *count = length;
  return true;
}

}  // namespace instrumentscope::demangle
