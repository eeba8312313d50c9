#include "demangle/rust/v0_literals.h"

namespace instrumentscope::demangle::rust {
namespace {

uint32_t NibbleValue(char c) {
  return c <= '9' ? static_cast<uint32_t>(c - '0') : static_cast<uint32_t>(c - 'a') + 10;
}

uint32_t ByteAt(std::string_view nibbles, size_t pos) {
  return NibbleValue(nibbles[pos]) << 4 | NibbleValue(nibbles[pos + 1]);
}

// One UTF-8 sequence at `*pos`; false when it is malformed or cut short.
bool DecodeHexUtf8(std::string_view nibbles, size_t* pos, uint32_t* code_point) {
  if (nibbles.size() - *pos < 2) return false;
  uint32_t lead = ByteAt(nibbles, *pos);
  *pos += 2;
  size_t continuation;
  uint32_t minimum;
  if (lead < 0x80) {
    *code_point = lead;
    return true;
  } else if (lead >= 0xC0 && lead < 0xE0) {
    continuation = 1, minimum = 0x80, *code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead < 0xF0) {
    continuation = 2, minimum = 0x800, *code_point = lead & 0x0F;
  } else if (lead >= 0xF0 && lead < 0xF8) {
    continuation = 3, minimum = 0x10000, *code_point = lead & 0x07;
  } else {
    return false;
  }
  for (size_t i = 0; i < continuation; ++i, *pos += 2) {
    if (nibbles.size() - *pos < 2) return false;
    uint32_t byte = ByteAt(nibbles, *pos);
    if ((byte & 0xC0) != 0x80) return false;
    *code_point = *code_point << 6 | (byte & 0x3F);
  }
  return *code_point >= minimum && IsScalarValue(*code_point);
}

struct CodePointRange {
  uint32_t first;
  uint32_t last;
};

// Ascending; see AppendLiteralChar.
constexpr CodePointRange kUnprintable[] = {
    {0x0000, 0x001F},    {0x007F, 0x00A0}, {0x00AD, 0x00AD}, {0x0300, 0x036F}, {0x0483, 0x0489},
    {0x0600, 0x0605},    {0x061C, 0x061C}, {0x06DD, 0x06DD}, {0x070F, 0x070F}, {0x1680, 0x1680},
    {0x180E, 0x180E},    {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x2000, 0x200F}, {0x2028, 0x202F},
    {0x205F, 0x206F},    {0x20D0, 0x20FF}, {0x3000, 0x3000}, {0xD800, 0xF8FF}, {0xFDD0, 0xFDEF},
    {0xFE00, 0xFE0F},    {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xFFF0, 0xFFFB}, {0x323B0, 0xDFFFF},
    {0xE0000, 0x10FFFF},
};

bool Prints(uint32_t code_point) {
  if ((code_point & 0xFFFE) == 0xFFFE) return false;  // the noncharacters ending each plane
  for (const CodePointRange& range : kUnprintable) {
    if (code_point < range.first) return true;
    if (code_point <= range.last) return false;
  }
  return true;
}

}  // namespace

bool ParseHexU64(std::string_view nibbles, uint64_t* value) {
  size_t first = nibbles.find_first_not_of('0');
  if (first == std::string_view::npos) first = nibbles.size();
  if (nibbles.size() - first > 16) return false;
  *value = 0;
  for (char c : nibbles.substr(first)) *value = *value << 4 | NibbleValue(c);
  return true;
}

bool IsHexUtf8(std::string_view nibbles) {
  if (nibbles.size() % 2 != 0) return false;
  uint32_t code_point;
  for (size_t pos = 0; pos < nibbles.size();) {
    if (!DecodeHexUtf8(nibbles, &pos, &code_point)) return false;
  }
  return true;
}

uint32_t NextHexUtf8(std::string_view nibbles, size_t* pos) {
  uint32_t code_point = 0;
  DecodeHexUtf8(nibbles, pos, &code_point);
  return code_point;
}

bool AppendLiteralChar(uint32_t code_point, char quote, OutputBuffer* out) {
  switch (code_point) {
    case '\0': return out->Append("\\0");
    case '\t': return out->Append("\\t");
    case '\r': return out->Append("\\r");
    case '\n': return out->Append("\\n");
    case '\\': return out->Append("\\\\");
    case '\'': return out->Append(quote == '\'' ? "\\'" : "'");
    case '"': return out->Append(quote == '"' ? "\\\"" : "\"");
  }
  if (Prints(code_point)) return out->AppendCodePoint(code_point);
  return out->Append("\\u{") && out->AppendHex(code_point) && out->Append("}");
}

}  // namespace instrumentscope::demangle::rust
