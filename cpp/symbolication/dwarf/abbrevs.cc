#include "symbolication/dwarf/abbrevs.h"

#include <iterator>
#include <string>
#include <utility>

#include "base/byte_reader.h"
#include "symbolication/dwarf/codes.h"

namespace instrumentscope::dwarf {
namespace {

// What hostile input could otherwise multiply. Each unit names its
// abbreviation table by offset, and tables are parsed once per offset; units
// of real files have disjoint tables, whose bytes add up to the section's at
// most. Units pointing one declaration further into one long table would
// parse it again and again: the bytes parsed, over all tables, stop at
// kAbbrevBytesPerByte × the section's size + kAbbrevBytesSlack.
constexpr uint64_t kAbbrevBytesPerByte = 2;
constexpr uint64_t kAbbrevBytesSlack = 64 * 1024;

// The attributes this reader looks at; a bit each, for ReadAbbrevTable.
uint32_t WantedAttributeBit(uint64_t attribute) {
  constexpr uint64_t kWanted[] = {
      kAtName,           kAtStmtList,     kAtLowPc,          kAtHighPc,        kAtCompDir,
      kAtAbstractOrigin, kAtDeclFile,     kAtDeclLine,       kAtSpecification, kAtRanges,
      kAtCallColumn,     kAtCallFile,     kAtCallLine,       kAtLinkageName,   kAtStrOffsetsBase,
      kAtAddrBase,       kAtRnglistsBase, kAtMipsLinkageName};
  for (size_t i = 0; i < std::size(kWanted); ++i) {
    if (kWanted[i] == attribute) return uint32_t{1} << i;
  }
  return 0;
}

// The table at `offset`, its bytes charged to `budget` (see
// kAbbrevBytesPerByte). Attributes whose form takes no bytes in the DIE
// (flag_present, implicit_const) are kept only when this reader looks at
// them, and only the first of an attribute: every read takes an attribute's
// first occurrence, as LLVM's find does. So a DIE costs its own bytes, plus 18
// at most, however many such attributes its abbreviation lists.
Result<AbbrevTable> ReadAbbrevTable(const Section& section, uint64_t offset, uint64_t& budget) {
  Result<ByteReader> at = ReaderAt(section, offset, "abbreviation table");
  if (!at.ok()) return at.status();
  ByteReader& reader = *at;
  AbbrevTable table;
  for (;;) {
    size_t start = reader.position();
    Abbrev abbrev;
    ASSIGN_OR_RETURN(abbrev.code, ReadUleb128(reader));
    if (abbrev.code == 0) break;
    ASSIGN_OR_RETURN(abbrev.tag, ReadUleb128(reader));
    uint8_t children;
    ASSIGN_OR_RETURN(children, reader.ReadU8());
    abbrev.has_children = children != 0;
    uint32_t seen = 0;  // wanted attributes listed so far
    for (;;) {
      AttributeSpec spec;
      ASSIGN_OR_RETURN(spec.attribute, ReadUleb128(reader));
      ASSIGN_OR_RETURN(spec.form, ReadUleb128(reader));
      if (spec.attribute == 0 && spec.form == 0) break;
      if (spec.form == kFormImplicitConst) {
        ASSIGN_OR_RETURN(spec.implicit_const, ReadSleb128(reader));
      }
      uint32_t bit = WantedAttributeBit(spec.attribute);
      bool zero_width = spec.form == kFormFlagPresent || spec.form == kFormImplicitConst;
      bool repeated = (seen & bit) != 0;
      seen |= bit;
      if (zero_width && (bit == 0 || repeated)) continue;
      abbrev.attributes.push_back(spec);
    }
    uint64_t used = reader.position() - start;
    if (used > budget) {
      return Status(ErrorCode::kLimitExceeded,
                    std::string(section.name) +
                        ": the units' abbreviation tables add up to more than " +
                        std::to_string(kAbbrevBytesPerByte) + " times the section's " +
                        std::to_string(section.bytes.size()) + " bytes (plus " +
                        std::to_string(kAbbrevBytesSlack) +
                        "): units point into the middle of one another's tables")
          .WithOffset(section.file_offset + offset);
    }
    budget -= used;
    table.abbrevs.push_back(std::move(abbrev));
  }
  std::stable_sort(table.abbrevs.begin(), table.abbrevs.end(),
                   [](const Abbrev& a, const Abbrev& b) { return a.code < b.code; });
  return table;
}

}  // namespace

Abbreviations::Abbreviations(const Section& debug_abbrev)
    : section_(debug_abbrev),
      budget_(kAbbrevBytesPerByte * debug_abbrev.bytes.size() + kAbbrevBytesSlack) {}

Result<const AbbrevTable*> Abbreviations::At(uint64_t offset) {
  auto found = tables_.find(offset);
  if (found != tables_.end()) return &found->second;
  AbbrevTable table;
  ASSIGN_OR_RETURN(table, ReadAbbrevTable(section_, offset, budget_));
  return &tables_.emplace(offset, std::move(table)).first->second;
}

}  // namespace instrumentscope::dwarf
