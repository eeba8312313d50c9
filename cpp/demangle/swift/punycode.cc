#include "demangle/swift/punycode.h"

#include <cstdint>
#include <vector>

#include "demangle/swift/limits.h"

namespace instrumentscope::demangle::swift {
namespace {

constexpr uint32_t kBase = 36;
constexpr uint32_t kTMin = 1;
constexpr uint32_t kTMax = 26;
constexpr uint32_t kSkew = 38;
constexpr uint32_t kDamp = 700;
constexpr uint32_t kInitialBias = 72;
constexpr uint32_t kInitialCodePoint = 128;
// Past this an intermediate value could overflow; no real identifier comes close.
constexpr uint64_t kMaxDelta = 0x7fffffff;
constexpr uint32_t kMappedAsciiFirst = 0xD800;
constexpr uint32_t kMappedAsciiEnd = 0xD880;

int DigitValue(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'J') return c - 'A' + 26;
  return -1;
}

uint32_t Adapt(uint64_t delta, uint64_t points, bool first) {
  delta = first ? delta / kDamp : delta / 2;
  delta += delta / points;
  uint32_t k = 0;
  while (delta > ((kBase - kTMin) * kTMax) / 2) {
    delta /= kBase - kTMin;
    k += kBase;
  }
  return k + static_cast<uint32_t>(((kBase - kTMin + 1) * delta) / (delta + kSkew));
}

bool IsScalar(uint32_t c) {
  return c < kMappedAsciiEnd || (c >= 0xE000 && c <= 0x10FFFF);
}

void AppendUtf8(uint32_t c, std::string& out) {
  if (c >= kMappedAsciiFirst && c < kMappedAsciiEnd) c -= kMappedAsciiFirst;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Reads one variable-length delta starting at `pos`; false when it runs out or overflows.
bool ReadDelta(std::string_view in, size_t& pos, uint32_t bias, uint64_t& delta) {
  uint64_t weight = 1;
  for (uint32_t k = kBase;; k += kBase) {
    if (pos >= in.size()) return false;
    int digit = DigitValue(in[pos++]);
    if (digit < 0) return false;
    delta += static_cast<uint64_t>(digit) * weight;
    if (delta > kMaxDelta) return false;
    uint32_t t = k <= bias ? kTMin : k >= bias + kTMax ? kTMax : k - bias;
    if (static_cast<uint32_t>(digit) < t) return true;
    weight *= kBase - t;
    if (weight > kMaxDelta) return false;
  }
}

}  // namespace

bool DecodePunycode(std::string_view encoded, std::string& out) {
  if (encoded.size() > kMaxPunycodeLength) return false;
  std::vector<uint32_t> points;
  size_t pos = 0;
  size_t delimiter = encoded.rfind('_');
  if (delimiter != std::string_view::npos) {
    for (size_t i = 0; i < delimiter; ++i) {
      if (static_cast<unsigned char>(encoded[i]) > 0x7f) return false;
      points.push_back(static_cast<unsigned char>(encoded[i]));
    }
    pos = delimiter + 1;
  }
  uint64_t code_point = kInitialCodePoint;
  uint64_t i = 0;
  uint32_t bias = kInitialBias;
  while (pos < encoded.size()) {
    uint64_t old_i = i;
    if (!ReadDelta(encoded, pos, bias, i)) return false;
    uint64_t count = points.size() + 1;
    bias = Adapt(i - old_i, count, old_i == 0);
    code_point += i / count;
    i %= count;
    if (code_point < 0x80 || !IsScalar(static_cast<uint32_t>(code_point))) return false;
    points.insert(points.begin() + static_cast<std::ptrdiff_t>(i),
                  static_cast<uint32_t>(code_point));
    ++i;
  }
  for (uint32_t c : points) AppendUtf8(c, out);
  return true;
}

}  // namespace instrumentscope::demangle::swift
