#include "demangle/swift/punycode.h"

#include <cstdint>
#include <vector>

#include "demangle/punycode.h"
#include "demangle/swift/limits.h"

namespace instrumentscope::demangle::swift {
namespace {

// ASCII characters an identifier cannot hold are carried as 0xD800 + c.
constexpr uint32_t kMappedAsciiFirst = 0xD800;
constexpr uint32_t kMappedAsciiEnd = 0xD880;

// Swift's digits: 'a'-'z' for 0-25, 'A'-'J' for 26-35.
int DigitValue(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'J') return c - 'A' + 26;
  return -1;
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

}  // namespace

bool DecodePunycode(std::string_view encoded, std::string& out) {
  if (encoded.size() > kMaxPunycodeLength) return false;
  size_t delimiter = encoded.rfind('_');
  std::string_view basic = delimiter == std::string_view::npos ? "" : encoded.substr(0, delimiter);
  std::string_view deltas =
      delimiter == std::string_view::npos ? encoded : encoded.substr(delimiter + 1);
  for (char c : basic) {
    if (static_cast<unsigned char>(c) > 0x7f) return false;
  }
  // Each delta takes at least one character: at most one code point each.
  std::vector<uint32_t> points(encoded.size());
  size_t count;
  if (!demangle::DecodePunycode(basic, deltas, DigitValue, points.data(), points.size(), &count)) {
    return false;
  }
  for (size_t i = basic.size(); i < count; ++i) {
    if (!IsScalar(points[i])) return false;
  }
  for (size_t i = 0; i < count; ++i) AppendUtf8(points[i], out);
  return true;
}

}  // namespace instrumentscope::demangle::swift
