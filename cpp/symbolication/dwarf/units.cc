#include "symbolication/dwarf/units.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "base/checked_math.h"
#include "symbolication/dwarf/abbrevs.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/ranges.h"

namespace instrumentscope::dwarf {
namespace {

constexpr uint8_t kUnitCompile = 0x01;
constexpr uint8_t kUnitType = 0x02;
constexpr uint8_t kUnitPartial = 0x03;
constexpr uint8_t kUnitSkeleton = 0x04;
constexpr uint8_t kUnitSplitCompile = 0x05;
constexpr uint8_t kUnitSplitType = 0x06;

bool IsAddressForm(uint64_t form) {
  return form == kFormAddr || form == kFormAddrx || (form >= kFormAddrx1 && form <= kFormAddrx4);
}

}  // namespace

Status Units::Read(Abbreviations& abbreviations, RangeReader& ranges) {
  RETURN_IF_ERROR(InSection(sections_.debug_info, ReadUnits(abbreviations, ranges)));
  IndexUnitRanges();
  return OkStatus();
}

Status Units::ReadUnits(Abbreviations& abbreviations, RangeReader& ranges) {
  const Section& debug_info = sections_.debug_info;
  ByteReader reader(debug_info.bytes, debug_info.file_offset);
  while (reader.remaining() > 0) {
    Unit unit;
    unit.offset = reader.position();
    uint32_t length;
    ASSIGN_OR_RETURN(length, reader.ReadU32Le());
    if (length == kDwarf64Escape) {
      return Corrupt(debug_info, "64-bit DWARF units are not supported", unit.offset);
    }
    if (length >= kReservedLengths || length > reader.remaining()) {
      return Corrupt(debug_info,
                     "unit length " + std::to_string(length) + " runs past the section's end",
                     unit.offset);
    }
    unit.end = unit.offset + 4 + length;
    RETURN_IF_ERROR(ReadHeader(unit, abbreviations, ranges));
    RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(unit.end)));
    units_.push_back(std::move(unit));
  }
  return OkStatus();
}

// The header after unit_length; then, for a compile or partial unit, its DIE.
Status Units::ReadHeader(Unit& unit, Abbreviations& abbreviations, RangeReader& ranges) {
  const Section& debug_info = sections_.debug_info;
  ByteReader header = Reader(unit);
  RETURN_IF_ERROR(header.Skip(4));
  ASSIGN_OR_RETURN(unit.version, header.ReadU16Le());
  if (unit.version < 2 || unit.version > 5) {
    return Corrupt(debug_info, "unit version " + std::to_string(unit.version) + " is not 2 to 5",
                   unit.offset + 4);
  }
  uint8_t unit_type = kUnitCompile;
  uint64_t abbrev_offset;
  if (unit.version >= 5) {
    ASSIGN_OR_RETURN(unit_type, header.ReadU8());
    ASSIGN_OR_RETURN(unit.address_size, header.ReadU8());
    ASSIGN_OR_RETURN(abbrev_offset, header.ReadU32Le());
    if (unit_type == kUnitSkeleton || unit_type == kUnitSplitCompile) {
      RETURN_IF_ERROR(header.Skip(8));  // dwo_id
    } else if (unit_type == kUnitType || unit_type == kUnitSplitType) {
      RETURN_IF_ERROR(header.Skip(8 + kOffsetSize));  // signature, type offset
    } else if (unit_type != kUnitCompile && unit_type != kUnitPartial) {
      // Unknown kinds: their header's size is unknown, so their DIEs are not read.
      return OkStatus();
    }
  } else {
    ASSIGN_OR_RETURN(abbrev_offset, header.ReadU32Le());
    ASSIGN_OR_RETURN(unit.address_size, header.ReadU8());
  }
  if (unit.address_size != 2 && unit.address_size != 4 && unit.address_size != 8) {
    return Corrupt(debug_info,
                   "address size " + std::to_string(unit.address_size) + " is not 2, 4 or 8",
                   unit.offset);
  }
  unit.first_die = unit.offset + header.position();
  ASSIGN_OR_RETURN(unit.abbrevs, abbreviations.At(abbrev_offset));
  unit.indexed = unit_type == kUnitCompile || unit_type == kUnitPartial;
  if (unit.indexed) RETURN_IF_ERROR(ReadUnitDie(unit, header, ranges));
  return OkStatus();
}

Status Units::ReadUnitDie(Unit& unit, ByteReader& reader, RangeReader& ranges) {
  uint64_t code;
  ASSIGN_OR_RETURN(code, ReadUleb128(reader));
  if (code == 0) return OkStatus();
  Die die;
  RETURN_IF_ERROR(ReadDieBody(reader, unit, code, unit.first_die, die));
  // The bases first: strings and addresses before them may need them.
  // Each attribute's first occurrence, as everywhere (see ReadAbbrevTable).
  if (const AttributeValue* value = die.Find(kAtStrOffsetsBase)) {
    unit.str_offsets_base = SectionOffset(*value);
  }
  if (const AttributeValue* value = die.Find(kAtAddrBase)) unit.addr_base = SectionOffset(*value);
  if (const AttributeValue* value = die.Find(kAtRnglistsBase)) {
    unit.rnglists_base = SectionOffset(*value);
  }
  if (const AttributeValue* value = die.Find(kAtStmtList)) unit.stmt_list = SectionOffset(*value);
  if (const AttributeValue* comp_dir = die.Find(kAtCompDir)) {
    unit.comp_dir = StringValue(sections_, unit.str_offsets_base, *comp_dir).value_or("");
  }
  if (const AttributeValue* low = die.Find(kAtLowPc)) {
    unit.base_address = Address(sections_, unit, *low).value_or(0);
  }
  std::vector<AddressRange> unit_die_ranges;
  RETURN_IF_ERROR(ranges.DieRanges(unit, die, unit_die_ranges));
  for (const AddressRange& range : unit_die_ranges) {
    unit_ranges_.push_back({range.begin, range.end, units_.size()});
  }
  return OkStatus();
}

// Where ranges of units overlap, the first unit wins, as LLVM's aranges do.
void Units::IndexUnitRanges() {
  struct Edge {
    uint64_t address;
    bool opens;
    size_t unit;
  };
  std::vector<Edge> edges;
  for (const UnitRange& range : unit_ranges_) {
    edges.push_back({range.begin, true, range.unit});
    edges.push_back({range.end, false, range.unit});
  }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& a, const Edge& b) { return a.address < b.address; });
  std::multiset<size_t> open;
  std::vector<UnitRange> disjoint;
  std::optional<size_t> owner;  // of the stretch from `owned_since`
  uint64_t owned_since = 0;
  for (size_t i = 0; i < edges.size();) {
    uint64_t address = edges[i].address;
    for (; i < edges.size() && edges[i].address == address; ++i) {
      if (edges[i].opens) {
        open.insert(edges[i].unit);
      } else {
        open.erase(open.find(edges[i].unit));
      }
    }
    std::optional<size_t> next_owner;
    if (!open.empty()) next_owner = *open.begin();
    if (next_owner == owner) continue;
    if (owner) disjoint.push_back({owned_since, address, *owner});
    owner = next_owner;
    owned_since = address;
  }
  unit_ranges_ = std::move(disjoint);
}

const Unit* Units::ForAddress(uint64_t address, size_t* index) const {
  auto it = std::upper_bound(unit_ranges_.begin(), unit_ranges_.end(), address,
                             [](uint64_t a, const UnitRange& range) { return a < range.begin; });
  if (it == unit_ranges_.begin()) return nullptr;
  --it;
  if (address >= it->end) return nullptr;
  *index = it->unit;
  return &units_[it->unit];
}

// The unit holding `offset` of .debug_info, if it is one whose DIEs we read.
const Unit* Units::UnitAt(uint64_t offset, size_t* index) const {
  auto it = std::upper_bound(units_.begin(), units_.end(), offset,
                             [](uint64_t o, const Unit& unit) { return o < unit.offset; });
  if (it == units_.begin()) return nullptr;
  --it;
  if (it->first_die == 0 || offset < it->first_die || offset >= it->end) return nullptr;
  if (index) *index = static_cast<size_t>(it - units_.begin());
  return &*it;
}

Result<std::optional<Die>> Units::DieAt(uint64_t offset, size_t* unit_index) const {
  const Unit* unit = UnitAt(offset, unit_index);
  if (!unit) return std::optional<Die>();
  ByteReader reader = Reader(*unit);
  RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(offset - unit->offset)));
  uint64_t code;
  ASSIGN_OR_RETURN(code, ReadUleb128(reader));
  if (code == 0) return std::optional<Die>();
  Die die;
  RETURN_IF_ERROR(ReadDieBody(reader, *unit, code, offset, die));
  return std::optional<Die>(std::move(die));
}

ByteSpan Units::UnitBytes(const Unit& unit) const {
  return sections_.debug_info.bytes.subspan(static_cast<size_t>(unit.offset),
                                            static_cast<size_t>(unit.end - unit.offset));
}

ByteReader Units::Reader(const Unit& unit) const {
  return ByteReader(UnitBytes(unit), sections_.debug_info.file_offset + unit.offset);
}

Status Units::ReadDieBody(ByteReader& reader, const Unit& unit, uint64_t code, uint64_t die_offset,
                          Die& die) const {
  const Abbrev* found = unit.abbrevs->Find(code);
  if (!found) {
    return Corrupt(sections_.debug_info,
                   "a DIE names abbreviation " + std::to_string(code) + ", not in its table",
                   die_offset);
  }
  die.offset = die_offset;
  die.tag = found->tag;
  die.has_children = found->has_children;
  die.attributes.resize(found->attributes.size());
  FormSource source{&sections_.debug_info, UnitBytes(unit), unit.address_size, unit.version};
  for (size_t i = 0; i < found->attributes.size(); ++i) {
    RETURN_IF_ERROR(ReadForm(reader, source, found->attributes[i], die.attributes[i]));
  }
  return OkStatus();
}

std::optional<uint64_t> IndexedAddress(const Sections& sections, const Unit& unit, uint64_t index) {
  if (!unit.addr_base || index > kMaxIndex) return std::nullopt;
  auto at = CheckedAdd(*unit.addr_base, index * unit.address_size);
  if (!at) return std::nullopt;
  return UIntAt(sections.debug_addr, *at, unit.address_size);
}

std::optional<uint64_t> Address(const Sections& sections, const Unit& unit,
                                const AttributeValue& value) {
  if (value.form == kFormAddr) return value.value;
  if (IsAddressForm(value.form)) return IndexedAddress(sections, unit, value.value);
  return std::nullopt;
}

std::optional<uint64_t> Reference(const Unit& unit, const AttributeValue& value) {
  switch (value.form) {
    case kFormRef1:
    case kFormRef2:
    case kFormRef4:
    case kFormRef8:
    case kFormRefUdata: return CheckedAdd(unit.offset, value.value);
    case kFormRefAddr: return value.value;
    default: return std::nullopt;
  }
}

}  // namespace instrumentscope::dwarf
