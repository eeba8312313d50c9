#include "demangle/rust/half_demangled.h"

#include "demangle/rust/legacy.h"

namespace instrumentscope::demangle::rust {
namespace {

constexpr std::string_view kSeparator = "::";
constexpr size_t kHashDigits = 16;

bool IsElementChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '$';
}

bool IsExactHash(std::string_view element) {
  if (element.size() != 1 + kHashDigits || element[0] != 'h') return false;
  for (char c : element.substr(1)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// The element at `*pos` up to the next separator; moves `*pos` past both.
std::string_view NextElement(std::string_view name, size_t* pos) {
  size_t end = name.find(kSeparator, *pos);
  if (end == std::string_view::npos) end = name.size();
  std::string_view element = name.substr(*pos, end - *pos);
  *pos = end == name.size() ? end : end + kSeparator.size();
  return element;
}

}  // namespace

bool IsHalfDemangledLegacy(std::string_view name) {
  size_t last = name.rfind(kSeparator);
  if (last == std::string_view::npos || !IsExactHash(name.substr(last + kSeparator.size()))) {
    return false;
  }
  size_t pos = 0;
  while (pos < name.size()) {
    std::string_view element = NextElement(name, &pos);
    if (element.empty()) return false;
    for (char c : element) {
      if (!IsElementChar(c)) return false;
    }
  }
  return true;
}

bool PrintHalfDemangledLegacy(std::string_view name, Style style, OutputBuffer* out) {
  size_t pos = 0;
  for (bool first = true; pos < name.size(); first = false) {
    std::string_view element = NextElement(name, &pos);
    if (pos == name.size() && style == Style::kInstruments) break;  // the hash
    if (!first && !out->Append(kSeparator)) return false;
    if (!AppendLegacyElement(element, out)) return false;
  }
  return true;
}

}  // namespace instrumentscope::demangle::rust
