// Small string helpers the standard library lacks in C++17.
#ifndef INSTRUMENTSCOPE_BASE_TEXT_H_
#define INSTRUMENTSCOPE_BASE_TEXT_H_

#include <cstdint>
#include <string>
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

// "48,067"
inline std::string Thousands(uint64_t count) {
  std::string digits = std::to_string(count);
  for (size_t at = digits.size(); at > 3; at -= 3) digits.insert(at - 3, ",");
  return digits;
}

// "1 sample", "48,067 samples".
inline std::string Counted(uint64_t count, std::string_view noun) {
  return Thousands(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

// The items, each as `text` spells it, with `separator` between them:
// JoinList(runs, ", ", [](uint32_t run) { return std::to_string(run); }) is "1, 2, 4".
template <typename Items, typename Text>
std::string JoinList(const Items& items, std::string_view separator, Text text) {
  std::string joined;
  bool first = true;
  for (const auto& item : items) {
    if (!first) joined += separator;
    first = false;
    joined += std::string_view(text(item));  // a string, never a number taken as a char
  }
  return joined;
}

// Items that are strings already: JoinList({"a", "b"}) is "a, b".
template <typename Items>
std::string JoinList(const Items& items, std::string_view separator = ", ") {
  return JoinList(
      items, separator, [](const auto& item) -> const auto& { return item; });
}

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_TEXT_H_
