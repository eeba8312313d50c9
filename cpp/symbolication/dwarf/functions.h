// Which function an address is in, per unit: every DW_TAG_subprogram and
// DW_TAG_inlined_subroutine with addresses, their call sites, and LLVM's
// address → DIE map (the innermost DIE wins where ranges nest). Read on a
// unit's first lookup, walking the DIE tree without recursion (at most
// kMaxDieDepth deep). Names are not read here: lookup.cc describes entries.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FUNCTIONS_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FUNCTIONS_H_

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "base/status.h"
#include "symbolication/dwarf/ranges.h"
#include "symbolication/dwarf/sections.h"
#include "symbolication/dwarf/units.h"

namespace instrumentscope::dwarf {

// A subprogram or inlined subroutine that has addresses, in DIE order.
struct FunctionEntry {
  uint64_t die_offset = 0;
  uint64_t tag = 0;
  int32_t parent = -1;  // the nearest enclosing entry
  uint64_t call_file = 0;
  uint32_t call_line = 0;
  uint32_t call_column = 0;
};

class FunctionIndex {
 public:
  FunctionIndex(const Sections& sections, const Units& units, RangeReader& ranges)
      : sections_(sections), units_(units), ranges_(ranges) {}

  // The entry of unit `unit_index` whose ranges hold `address`, then the
  // entries enclosing it up to the first subprogram: innermost first; empty
  // when no function holds it. A failure to read the unit's functions is
  // kept: later calls return it without reading again.
  Result<std::vector<const FunctionEntry*>> Chain(size_t unit_index, uint64_t address);

 private:
  struct UnitFunctions {
    std::vector<FunctionEntry> entries;
    // begin → (end, entry index), disjoint.
    std::map<uint64_t, std::pair<uint64_t, uint32_t>> map;
    Status status;
  };

  Result<const UnitFunctions*> Read(size_t unit_index);
  Status Walk(const Unit& unit, UnitFunctions& functions);
  static void AddToMap(UnitFunctions& functions, const AddressRange& range, int32_t entry);
  static int32_t EntryAt(const UnitFunctions& functions, uint64_t address);

  const Sections& sections_;
  const Units& units_;
  RangeReader& ranges_;
  std::map<size_t, UnitFunctions> by_unit_;  // units looked up so far
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FUNCTIONS_H_
