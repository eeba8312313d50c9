// The symbols Instruments stored for one process: each function's name,
// binary and source file, its address range, and the source line of every
// address the recording sampled.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOLS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOLS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace instrumentscope::trace_bundle {

struct Symbol {
  std::string name;  // empty when Instruments could not name the code
  std::string binary_path;
  std::string source_file;  // empty when unknown
  uint64_t start = 0;
  uint64_t size = 0;
  std::vector<std::pair<uint64_t, uint32_t>> lines;  // (address, line); line 0: unknown
};

class SymbolTable {
 public:
  void Add(Symbol symbol);

  struct Match {
    const Symbol* symbol;
    std::optional<uint32_t> line;
  };
  // The symbol recorded for exactly this address, else the one whose range
  // holds it (the first added wins either way).
  std::optional<Match> Lookup(uint64_t address) const;
  size_t size() const { return symbols_.size(); }

 private:
  void Index() const;

  std::vector<Symbol> symbols_;
  // Built on first lookup.
  mutable bool indexed_ = false;
  mutable std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> exact_;  // symbol, line
  mutable std::vector<std::pair<uint64_t, uint32_t>> starts_;  // (start, symbol) sorted
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOLS_H_
