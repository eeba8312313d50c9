#include "formats/names.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>

#include "base/text.h"

namespace instrumentscope {

std::string HexAddress(uint64_t address) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%" PRIx64, address);
  return buffer;
}

std::string QuoteBytes(ByteSpan bytes, size_t offset) {
  constexpr size_t kQuoted = 16;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = offset; i < bytes.size() && i < offset + kQuoted; ++i) {
    if (!text.empty()) text += ' ';
    text += kDigits[bytes[i] >> 4];
    text += kDigits[bytes[i] & 0xF];
  }
  if (bytes.size() > offset + kQuoted) text += " …";
  return text;
}

std::optional<uint64_t> ParseHexAddress(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  uint64_t address = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data() + 2, end, address, 16);
  if (error != std::errc() || stop != end) return std::nullopt;
  return address;
}

std::optional<uint64_t> ParseAddress(std::string_view text) {
  if (auto hex = ParseHexAddress(text)) return hex;
  uint64_t address = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, address);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return address;
}

std::string FormatUuid(const ImageUuid& uuid) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text;
  for (size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kDigits[uuid[i] >> 4];
    text += kDigits[uuid[i] & 0xF];
  }
  return text;
}

std::optional<ImageUuid> ParseUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  ImageUuid uuid{};
  size_t byte = 0;
  for (size_t i = 0; i < text.size();) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    auto [stop, error] = std::from_chars(text.data() + i, text.data() + i + 2, uuid[byte], 16);
    if (error != std::errc() || stop != text.data() + i + 2) return std::nullopt;
    ++byte;
    i += 2;
  }
  return uuid;
}

std::string ThreadLabel(std::string_view name_text, uint64_t tid) {
  std::string hex = HexAddress(tid);
  std::string_view name = name_text;
  // Drop the process part "(name, pid: N)": the parenthesis matching the last
  // one, since process names may hold parentheses of their own.
  name = TrimWhitespace(name);
  if (!name.empty() && name.back() == ')' && name.find(", pid: ") != std::string_view::npos) {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name = TrimWhitespace(name.substr(0, i));
        break;
      }
    }
  }
  std::string parenthesized = "(" + hex + ")";
  if (EndsWith(name, parenthesized)) {
    name.remove_suffix(parenthesized.size());
  } else if (EndsWith(name, hex)) {
    name.remove_suffix(hex.size());
  }
  name = TrimWhitespace(name);
  if (name.empty()) return "Thread " + hex;
  return std::string(name) + " " + hex;
}

}  // namespace instrumentscope
