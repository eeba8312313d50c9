#include "formats/names.h"

#include "base/identifiers.h"
#include "base/text.h"

namespace instrumentscope {

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
