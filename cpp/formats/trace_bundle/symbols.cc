#include "formats/trace_bundle/symbols.h"

#include <algorithm>
#include <iterator>

namespace instrumentscope::trace_bundle {

void SymbolTable::Add(Symbol symbol) {
  symbols_.push_back(std::move(symbol));
  indexed_ = false;
}

void SymbolTable::Index() const {
  exact_.clear();
  starts_.clear();
  for (uint32_t i = 0; i < symbols_.size(); ++i) {
    const Symbol& symbol = symbols_[i];
    for (const auto& [address, line] : symbol.lines) exact_.try_emplace(address, i, line);
    if (symbol.size > 0) starts_.emplace_back(symbol.start, i);
  }
  // Stable: among symbols starting at one address, the first added wins.
  std::stable_sort(starts_.begin(), starts_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  indexed_ = true;
}

std::optional<SymbolTable::Match> SymbolTable::Lookup(uint64_t address) const {
  if (!indexed_) Index();
  auto exact = exact_.find(address);
  if (exact != exact_.end()) {
    const auto& [symbol, line] = exact->second;
    return Match{&symbols_[symbol], line > 0 ? std::optional<uint32_t>(line) : std::nullopt};
  }
  // The symbols with the last start at or before the address: the first
  // added among them whose range holds it.
  auto by_start = [](const auto& a, const auto& b) { return a.first < b.first; };
  auto after =
      std::upper_bound(starts_.begin(), starts_.end(), std::make_pair(address, 0u), by_start);
  if (after == starts_.begin()) return std::nullopt;
  uint64_t start = std::prev(after)->first;
  for (auto it = std::lower_bound(starts_.begin(), after, std::make_pair(start, 0u), by_start);
       it != after; ++it) {
    const Symbol& symbol = symbols_[it->second];
    if (address - symbol.start < symbol.size) return Match{&symbol, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace instrumentscope::trace_bundle
