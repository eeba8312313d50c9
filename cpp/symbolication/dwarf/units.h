// Units and DIEs (__debug_info): unit headers of DWARF 2 to 5, each
// compile or partial unit's own DIE (its bases, line table, compilation
// directory and address ranges), reading any DIE by offset, and which unit
// covers an address. Type, skeleton and split units are stepped over by their
// length; 64-bit DWARF is refused.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_UNITS_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_UNITS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/byte_reader.h"
#include "base/status.h"
#include "symbolication/dwarf/forms.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

class Abbreviations;
class RangeReader;
struct AbbrevTable;

struct Die {
  uint64_t offset = 0;  // in .debug_info
  uint64_t tag = 0;
  bool has_children = false;
  std::vector<AttributeValue> attributes;

  const AttributeValue* Find(uint64_t attribute) const {
    for (const AttributeValue& value : attributes) {
      if (value.attribute == attribute) return &value;
    }
    return nullptr;
  }
};

struct Unit {
  uint64_t offset = 0;     // of its header in .debug_info
  uint64_t end = 0;        // past its last byte
  uint64_t first_die = 0;  // 0 for unit types not read
  uint16_t version = 0;
  uint8_t address_size = 0;
  bool indexed = false;  // a compile or partial unit, looked up by address
  const AbbrevTable* abbrevs = nullptr;

  // From the unit DIE.
  uint64_t base_address = 0;
  std::optional<uint64_t> stmt_list;
  std::string_view comp_dir;
  std::optional<uint64_t> str_offsets_base;
  std::optional<uint64_t> addr_base;
  std::optional<uint64_t> rnglists_base;
};

// The units of one __debug_info, by offset.
class Units {
 public:
  explicit Units(const Sections& sections) : sections_(sections) {}

  // The unit headers, and from each compile unit's DIE what lookups need.
  // Once, before anything else: abbreviation tables and the unit DIEs'
  // ranges are read through `abbreviations` and `ranges`.
  Status Read(Abbreviations& abbreviations, RangeReader& ranges);

  bool empty() const { return units_.empty(); }
  const Unit& operator[](size_t index) const { return units_[index]; }

  // The unit whose ranges hold `address` (where ranges of units overlap,
  // the first unit's), and its index; nullptr when none does.
  const Unit* ForAddress(uint64_t address, size_t* index) const;

  // The DIE a reference points to, and its unit's index; nullopt for a
  // reference to nowhere, or to a null entry, as LLVM treats both as no DIE.
  Result<std::optional<Die>> DieAt(uint64_t offset, size_t* unit_index) const;

  // One unit's bytes, for a reader whose positions are offsets in the unit.
  ByteReader Reader(const Unit& unit) const;

  // The DIE at the reader's position (its abbreviation code already read as
  // non-zero).
  Status ReadDieBody(ByteReader& reader, const Unit& unit, uint64_t code, uint64_t die_offset,
                     Die& die) const;

 private:
  struct UnitRange {
    uint64_t begin = 0;
    uint64_t end = 0;
    size_t unit = 0;
  };

  Status ReadUnits(Abbreviations& abbreviations, RangeReader& ranges);
  Status ReadHeader(Unit& unit, Abbreviations& abbreviations, RangeReader& ranges);
  Status ReadUnitDie(Unit& unit, ByteReader& reader, RangeReader& ranges);
  void IndexUnitRanges();
  const Unit* UnitAt(uint64_t offset, size_t* index) const;
  ByteSpan UnitBytes(const Unit& unit) const;

  const Sections& sections_;
  std::vector<Unit> units_;             // by offset
  std::vector<UnitRange> unit_ranges_;  // disjoint, by address
};

// The address at `index` of the unit's __debug_addr entries, or nullopt.
std::optional<uint64_t> IndexedAddress(const Sections& sections, const Unit& unit, uint64_t index);

// An address-form value's address (DW_FORM_addr, or an index), or nullopt.
std::optional<uint64_t> Address(const Sections& sections, const Unit& unit,
                                const AttributeValue& value);

// A reference's offset in __debug_info, or nullopt for other forms.
std::optional<uint64_t> Reference(const Unit& unit, const AttributeValue& value);

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_UNITS_H_
