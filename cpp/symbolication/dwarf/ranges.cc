#include "symbolication/dwarf/ranges.h"

#include <optional>
#include <string>

#include "base/checked_math.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/forms.h"
#include "symbolication/dwarf/units.h"

namespace instrumentscope::dwarf {
namespace {

constexpr uint8_t kRleEndOfList = 0;
constexpr uint8_t kRleBaseAddressx = 1;
constexpr uint8_t kRleStartxEndx = 2;
constexpr uint8_t kRleStartxLength = 3;
constexpr uint8_t kRleOffsetPair = 4;
constexpr uint8_t kRleBaseAddress = 5;
constexpr uint8_t kRleStartEnd = 6;
constexpr uint8_t kRleStartLength = 7;

// Range list entries read, over all lookups (each unit's ranges are read
// once): a list is read once per DIE naming it, and real files name each
// list from one DIE, but any number of DIEs could name one long list. The
// entries read (low_pc/high_pc pairs count one) stop at
// kRangeEntriesPerByte × the bytes of __debug_info, __debug_ranges and
// __debug_rnglists + kRangeEntriesSlack.
constexpr uint64_t kRangeEntriesPerByte = 4;
constexpr uint64_t kRangeEntriesSlack = 64 * 1024;

// An address of the unit's size with every bit set: low_pc's tombstone, and
// .debug_ranges' base address selector.
uint64_t AllOnes(const Unit& unit) {
  return unit.address_size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * unit.address_size)) - 1;
}

}  // namespace

RangeReader::RangeReader(const Sections& sections)
    : sections_(sections),
      budget_(kRangeEntriesPerByte *
                  (uint64_t{sections.debug_info.bytes.size()} + sections.debug_ranges.bytes.size() +
                   sections.debug_rnglists.bytes.size()) +
              kRangeEntriesSlack) {}

Status RangeReader::DieRanges(const Unit& unit, const Die& die, std::vector<AddressRange>& out) {
  out.clear();
  const AttributeValue* low = die.Find(kAtLowPc);
  const AttributeValue* high = die.Find(kAtHighPc);
  if (low && high) {
    std::optional<uint64_t> begin = Address(sections_, unit, *low);
    if (begin && *begin != AllOnes(unit)) {
      std::optional<uint64_t> end = Address(sections_, unit, *high);
      if (!end) {
        std::optional<uint64_t> length = UnsignedConstant(*high);
        if (length) end = *begin + *length;
      }
      if (end) {
        RETURN_IF_ERROR(ChargeRangeEntry(sections_.debug_info, die.offset));
        if (*begin < *end) out.push_back({*begin, *end});
        return OkStatus();
      }
    }
  }
  const AttributeValue* ranges_value = die.Find(kAtRanges);
  if (!ranges_value) return OkStatus();
  if (ranges_value->form == kFormRnglistx) {
    if (!unit.rnglists_base || ranges_value->value > kMaxIndex) return OkStatus();
    auto at = CheckedAdd(*unit.rnglists_base, ranges_value->value * kOffsetSize);
    if (!at) return OkStatus();
    std::optional<uint64_t> relative = UIntAt(sections_.debug_rnglists, *at, kOffsetSize);
    if (!relative) return OkStatus();
    return RangeList(unit, *unit.rnglists_base + *relative, out);
  }
  std::optional<uint64_t> offset = SectionOffset(*ranges_value);
  if (!offset) return OkStatus();
  return RangeList(unit, *offset, out);
}

// One more entry read from `section` (at `offset` in it), against the budget.
Status RangeReader::ChargeRangeEntry(const Section& section, uint64_t offset) {
  if (budget_ > 0) {
    --budget_;
    return OkStatus();
  }
  return Status(ErrorCode::kLimitExceeded,
                std::string(section.name) + ": DIEs name range lists whose entries add up to " +
                    "more than " + std::to_string(kRangeEntriesPerByte) +
                    " per byte of __debug_info, __debug_ranges and __debug_rnglists (plus " +
                    std::to_string(kRangeEntriesSlack) + "): many DIEs share long lists")
      .WithOffset(section.file_offset + offset);
}

Status RangeReader::RangeList(const Unit& unit, uint64_t offset, std::vector<AddressRange>& out) {
  const Section& section = unit.version >= 5 ? sections_.debug_rnglists : sections_.debug_ranges;
  if (!section.present) return OkStatus();
  Result<ByteReader> at = ReaderAt(section, offset, "a range list");
  if (!at.ok()) return at.status();
  ByteReader& reader = *at;
  Status status =
      unit.version >= 5 ? ReadRangeList5(reader, unit, out) : ReadRangeList4(reader, unit, out);
  return InSection(section, status);
}

// .debug_ranges: (begin, end) address pairs from a base address, (0, 0)
// ends; a begin of all ones makes `end` the new base.
Status RangeReader::ReadRangeList4(ByteReader& reader, const Unit& unit,
                                   std::vector<AddressRange>& out) {
  uint64_t all_ones = AllOnes(unit);
  uint64_t base = unit.base_address;
  for (;;) {
    RETURN_IF_ERROR(ChargeRangeEntry(sections_.debug_ranges, reader.position()));
    uint64_t begin, end;
    ASSIGN_OR_RETURN(begin, reader.ReadUIntLe(unit.address_size));
    ASSIGN_OR_RETURN(end, reader.ReadUIntLe(unit.address_size));
    if (begin == 0 && end == 0) return OkStatus();
    if (begin == all_ones) {
      base = end;
      continue;
    }
    if (base + begin < base + end) out.push_back({base + begin, base + end});
  }
}

// .debug_rnglists: DW_RLE_* entries until DW_RLE_end_of_list.
Status RangeReader::ReadRangeList5(ByteReader& reader, const Unit& unit,
                                   std::vector<AddressRange>& out) {
  uint64_t base = unit.base_address;
  for (;;) {
    RETURN_IF_ERROR(ChargeRangeEntry(sections_.debug_rnglists, reader.position()));
    uint64_t kind_offset = reader.absolute_offset();
    uint8_t kind;
    ASSIGN_OR_RETURN(kind, reader.ReadU8());
    std::optional<uint64_t> begin, end;
    switch (kind) {
      case kRleEndOfList: return OkStatus();
      case kRleBaseAddressx: {
        uint64_t index;
        ASSIGN_OR_RETURN(index, ReadUleb128(reader));
        if (std::optional<uint64_t> address = IndexedAddress(sections_, unit, index)) {
          base = *address;
        }
        continue;
      }
      case kRleStartxEndx:
      case kRleStartxLength: {
        uint64_t index, second;
        ASSIGN_OR_RETURN(index, ReadUleb128(reader));
        ASSIGN_OR_RETURN(second, ReadUleb128(reader));
        begin = IndexedAddress(sections_, unit, index);
        if (kind == kRleStartxEndx) {
          end = IndexedAddress(sections_, unit, second);
        } else if (begin) {
          end = *begin + second;
        }
        break;
      }
      case kRleOffsetPair: {
        uint64_t first, second;
        ASSIGN_OR_RETURN(first, ReadUleb128(reader));
        ASSIGN_OR_RETURN(second, ReadUleb128(reader));
        begin = base + first;
        end = base + second;
        break;
      }
      case kRleBaseAddress: {
        ASSIGN_OR_RETURN(base, reader.ReadUIntLe(unit.address_size));
        continue;
      }
      case kRleStartEnd: {
        uint64_t first, second;
        ASSIGN_OR_RETURN(first, reader.ReadUIntLe(unit.address_size));
        ASSIGN_OR_RETURN(second, reader.ReadUIntLe(unit.address_size));
        begin = first;
        end = second;
        break;
      }
      case kRleStartLength: {
        uint64_t first, length;
        ASSIGN_OR_RETURN(first, reader.ReadUIntLe(unit.address_size));
        ASSIGN_OR_RETURN(length, ReadUleb128(reader));
        begin = first;
        end = first + length;
        break;
      }
      default:
        return Status(ErrorCode::kMachOCorrupt,
                      "unknown range list entry kind " + std::to_string(kind))
            .WithOffset(kind_offset);
    }
    if (begin && end && *begin < *end) out.push_back({*begin, *end});
  }
}

}  // namespace instrumentscope::dwarf
