#include "formats/xctrace_xml/labels.h"

#include <cinttypes>
#include <cstdio>

namespace instrumentscope::xctrace_xml {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

std::string HexAddress(uint64_t address) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%" PRIx64, address);
  return buffer;
}

std::string ThreadLabel(std::string_view fmt, uint64_t tid) {
  std::string hex = HexAddress(tid);
  std::string_view name = fmt;
  // Drop the process part "(name, pid: N)": the parenthesis matching the last
  // one, since process names may hold parentheses of their own.
  name = Trim(name);
  if (!name.empty() && name.back() == ')' && name.find(", pid: ") != std::string_view::npos) {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name = Trim(name.substr(0, i));
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
  name = Trim(name);
  if (name.empty()) return "Thread " + hex;
  return std::string(name) + " " + hex;
}

std::string ProcessName(std::string_view fmt, int64_t pid) {
  std::string suffix = " (" + std::to_string(pid) + ")";
  std::string_view name = Trim(fmt);
  if (EndsWith(name, suffix)) name.remove_suffix(suffix.size());
  return std::string(Trim(name));
}

std::string_view BacktraceLeafName(std::string_view fmt) {
  static constexpr std::string_view kArrow = " \xE2\x86\x90 ";  // " ← "
  size_t arrow = fmt.find(kArrow);
  return Trim(arrow == std::string_view::npos ? fmt : fmt.substr(0, arrow));
}

}  // namespace instrumentscope::xctrace_xml
