#include "demangle/rust/legacy.h"

#include <cstdint>

namespace instrumentscope::demangle::rust {
namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsLowerHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f');
}
bool IsHex(char c) {
  return IsLowerHex(c) || (c >= 'A' && c <= 'F');
}

// Reads an element's decimal length at `*pos`: all the digits there, however
// many, so an element never starts with a digit.
bool ReadLength(std::string_view text, size_t* pos, uint64_t* length) {
  *length = 0;
  for (; *pos < text.size() && IsDigit(text[*pos]); ++*pos) {
    uint64_t digit = static_cast<uint64_t>(text[*pos] - '0');
    if (*length > (UINT64_MAX - digit) / 10) return false;
    *length = *length * 10 + digit;
  }
  return true;
}

// The next element of an already parsed element list.
std::string_view NextElement(std::string_view elements, size_t* pos) {
  uint64_t length;
  ReadLength(elements, pos, &length);
  std::string_view element = elements.substr(*pos, static_cast<size_t>(length));
  *pos += element.size();
  return element;
}

// What "$<code>$" stands for, for the fixed codes.
const char* NamedEscape(std::string_view code) {
  static constexpr struct {
    std::string_view code;
    const char* text;
  } kEscapes[] = {{"SP", "@"}, {"BP", "*"}, {"RF", "&"}, {"LT", "<"},
                  {"GT", ">"}, {"LP", "("}, {"RP", ")"}, {"C", ","}};
  for (const auto& escape : kEscapes) {
    if (escape.code == code) return escape.text;
  }
  return nullptr;
}

// "$u<lowercase hex>$": a printable (non-control) Unicode scalar value.
bool CodePointEscape(std::string_view code, uint32_t* code_point) {
  if (code.size() < 2 || code[0] != 'u') return false;
  uint64_t value = 0;
  for (char c : code.substr(1)) {
    if (!IsLowerHex(c)) return false;
    value = value * 16 + static_cast<uint64_t>(IsDigit(c) ? c - '0' : c - 'a' + 10);
    if (value > 0x10FFFF) return false;
  }
  bool control = value < 0x20 || (value >= 0x7F && value < 0xA0);
  if (control || !IsScalarValue(value)) return false;
  *code_point = static_cast<uint32_t>(value);
  return true;
}

}  // namespace

std::optional<LegacySymbol> ParseLegacy(std::string_view symbol) {
  std::string_view inner;
  if (symbol.substr(0, 3) == "_ZN") {
    inner = symbol.substr(3);
  } else if (symbol.substr(0, 2) == "ZN") {
    inner = symbol.substr(2);
  } else if (symbol.substr(0, 4) == "__ZN") {
    inner = symbol.substr(4);
  } else {
    return std::nullopt;
  }
  for (char c : inner) {
    if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
  }
  size_t pos = 0;
  while (pos < inner.size() && inner[pos] != 'E') {
    uint64_t length;
    if (!IsDigit(inner[pos]) || !ReadLength(inner, &pos, &length)) return std::nullopt;
    // The element, then at least one more byte: the next length or the "E".
    if (length >= inner.size() - pos) return std::nullopt;
    pos += static_cast<size_t>(length);
  }
  if (pos == inner.size()) return std::nullopt;
  return LegacySymbol{inner.substr(0, pos), inner.substr(pos + 1)};
}

bool PrintLegacy(const LegacySymbol& symbol, Style style, OutputBuffer* out) {
  size_t pos = 0;
  for (bool first = true; pos < symbol.elements.size(); first = false) {
    std::string_view element = NextElement(symbol.elements, &pos);
    bool last = pos == symbol.elements.size();
    if (last && style == Style::kInstruments && IsLegacyHash(element)) break;
    if (!first && !out->Append("::")) return false;
    if (!AppendLegacyElement(element, out)) return false;
  }
  return true;
}

bool AppendLegacyElement(std::string_view element, OutputBuffer* out) {
  std::string_view rest = element;
  // A leading '_' only keeps an element from starting with '$'.
  if (rest.substr(0, 2) == "_$") rest.remove_prefix(1);
  while (!rest.empty()) {
    if (rest[0] == '.') {
      bool path_separator = rest.size() > 1 && rest[1] == '.';
      if (!out->Append(path_separator ? "::" : ".")) return false;
      rest.remove_prefix(path_separator ? 2 : 1);
    } else if (rest[0] == '$') {
      size_t end = rest.find('$', 1);
      if (end == std::string_view::npos) break;
      std::string_view code = rest.substr(1, end - 1);
      uint32_t code_point;
      if (const char* text = NamedEscape(code)) {
        if (!out->Append(text)) return false;
      } else if (CodePointEscape(code, &code_point)) {
        if (!out->AppendCodePoint(code_point)) return false;
      } else {
        break;
      }
      rest.remove_prefix(end + 1);
    } else {
      size_t special = rest.find_first_of("$.");
      if (special == std::string_view::npos) break;
      if (!out->Append(rest.substr(0, special))) return false;
      rest.remove_prefix(special);
    }
  }
  return out->Append(rest);
}

bool IsLegacyHash(std::string_view element) {
  if (element.empty() || element[0] != 'h') return false;
  for (char c : element.substr(1)) {
    if (!IsHex(c)) return false;
  }
  return true;
}

}  // namespace instrumentscope::demangle::rust
