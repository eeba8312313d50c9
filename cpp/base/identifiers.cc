#include "base/identifiers.h"

#include <charconv>

namespace instrumentscope {

std::string HexAddress(uint64_t address) {
  // std::to_chars, not snprintf: frames named by address are named by the
  // hundred thousand, and WebAssembly's printf is slow.
  char buffer[18] = {'0', 'x'};
  char* end = std::to_chars(buffer + 2, buffer + sizeof(buffer), address, 16).ptr;
  return std::string(buffer, end);
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

std::string FormatUuid(const Uuid& uuid) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string text;
  for (size_t i = 0; i < uuid.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kDigits[uuid[i] >> 4];
    text += kDigits[uuid[i] & 0xF];
  }
  return text;
}

std::optional<Uuid> ParseUuid(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  Uuid uuid{};
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

}  // namespace instrumentscope
