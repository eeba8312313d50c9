// An address → its source frames: the unit that covers it, the function
// and inlined calls that hold it, the line table's row, and each function's
// name and declaration (following DW_AT_abstract_origin and
// DW_AT_specification). Owns the parts of the reader and ties them together;
// the text it returns is charged to a budget (see kLookupTextBytes in
// lookup.cc). .debug_aranges and the accelerator tables are not read.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LOOKUP_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LOOKUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "symbolication/dwarf/abbrevs.h"
#include "symbolication/dwarf/debug_info.h"
#include "symbolication/dwarf/functions.h"
#include "symbolication/dwarf/line_table.h"
#include "symbolication/dwarf/ranges.h"
#include "symbolication/dwarf/sections.h"
#include "symbolication/dwarf/units.h"

namespace instrumentscope::dwarf {

class AddressLookup {
 public:
  explicit AddressLookup(Sections sections);
  // The parts refer to sections_: never copied or moved.
  AddressLookup(const AddressLookup&) = delete;
  AddressLookup& operator=(const AddressLookup&) = delete;

  // The unit headers and unit DIEs, once, before any lookup.
  Status ReadUnits() { return units_.Read(abbreviations_, ranges_); }
  bool has_units() const { return !units_.empty(); }

  // As DebugInfo::Lookup.
  Result<std::vector<SourceFrame>> Lookup(uint64_t address);

 private:
  struct FunctionDescription {
    std::string name;
    std::string file;
    uint32_t line = 0;
  };

  Result<FunctionDescription> Describe(uint64_t die_offset);
  SourceFrame LinePosition(const LineTable* table, const Unit& unit, uint64_t address) const;
  Status TextLimit(uint64_t address, uint64_t die_offset) const;

  Sections sections_;
  Abbreviations abbreviations_;
  RangeReader ranges_;
  Units units_;
  LineTables line_tables_;
  FunctionIndex functions_;
  uint64_t text_budget_;  // bytes, see kTextBytesPerByte
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LOOKUP_H_
