// A DIE's address ranges: DW_AT_low_pc with DW_AT_high_pc, or DW_AT_ranges
// into __debug_ranges (DWARF 2–4) or __debug_rnglists (DWARF 5, offsets and
// DW_FORM_rnglistx indexes). Entries read are charged to a budget (see
// kRangeEntriesPerByte in ranges.cc). Location lists are not read.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_RANGES_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_RANGES_H_

#include <cstdint>
#include <vector>

#include "base/byte_reader.h"
#include "base/status.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

struct Die;
struct Unit;

struct AddressRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

class RangeReader {
 public:
  explicit RangeReader(const Sections& sections);

  // DW_AT_low_pc with DW_AT_high_pc (an address, or a length from low_pc), or
  // DW_AT_ranges; empty ranges dropped. `out` is cleared first.
  Status DieRanges(const Unit& unit, const Die& die, std::vector<AddressRange>& out);

 private:
  Status ChargeRangeEntry(const Section& section, uint64_t offset);
  Status RangeList(const Unit& unit, uint64_t offset, std::vector<AddressRange>& out);
  Status ReadRangeList4(ByteReader& reader, const Unit& unit, std::vector<AddressRange>& out);
  Status ReadRangeList5(ByteReader& reader, const Unit& unit, std::vector<AddressRange>& out);

  const Sections& sections_;
  uint64_t budget_;  // entries, see kRangeEntriesPerByte
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_RANGES_H_
