// Small string helpers the standard library lacks in C++17.
#ifndef INSTRUMENTSCOPE_BASE_TEXT_H_
#define INSTRUMENTSCOPE_BASE_TEXT_H_

#include <string_view>

namespace instrumentscope {

inline bool IsWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

inline std::string_view TrimWhitespace(std::string_view text) {
  while (!text.empty() && IsWhitespace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsWhitespace(text.back())) text.remove_suffix(1);
  return text;
}

inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// "libfoo.dylib" of "/usr/lib/libfoo.dylib".
inline std::string_view BaseName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_TEXT_H_
