// Abbreviation tables (__debug_abbrev): per code, a DIE's tag, whether it
// has children, and its attributes with their forms. Each table is parsed
// once per offset, against a budget of bytes (see kAbbrevBytesPerByte in
// abbrevs.cc). Attributes the reader never looks at are kept only when they
// take bytes in the DIE.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_ABBREVS_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_ABBREVS_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "base/status.h"
#include "symbolication/dwarf/forms.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

struct Abbrev {
  uint64_t code = 0;
  uint64_t tag = 0;
  bool has_children = false;
  std::vector<AttributeSpec> attributes;
};

struct AbbrevTable {
  std::vector<Abbrev> abbrevs;  // by code

  const Abbrev* Find(uint64_t code) const {
    // Clang numbers them 1, 2, 3, …: try the direct index first.
    if (code >= 1 && code <= abbrevs.size() && abbrevs[code - 1].code == code) {
      return &abbrevs[code - 1];
    }
    auto it = std::lower_bound(abbrevs.begin(), abbrevs.end(), code,
                               [](const Abbrev& a, uint64_t c) { return a.code < c; });
    return it != abbrevs.end() && it->code == code ? &*it : nullptr;
  }
};

// The tables of one __debug_abbrev, by offset, parsed on first use.
class Abbreviations {
 public:
  explicit Abbreviations(const Section& debug_abbrev);

  // Fails with kMachOCorrupt on a damaged table, kLimitExceeded past the
  // budget.
  Result<const AbbrevTable*> At(uint64_t offset);

 private:
  const Section& section_;
  uint64_t budget_;                         // bytes, see kAbbrevBytesPerByte
  std::map<uint64_t, AbbrevTable> tables_;  // by offset; nodes stay put
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_ABBREVS_H_
