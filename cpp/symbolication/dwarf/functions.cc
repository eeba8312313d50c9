#include "symbolication/dwarf/functions.h"

#include <iterator>
#include <string>

#include "base/byte_reader.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/forms.h"

namespace instrumentscope::dwarf {
namespace {

// Clang nests DIEs a dozen deep; a deeper tree is damage, not code.
constexpr uint32_t kMaxDieDepth = 256;

}  // namespace

Result<std::vector<const FunctionEntry*>> FunctionIndex::Chain(size_t unit_index,
                                                               uint64_t address) {
  const UnitFunctions* functions;
  ASSIGN_OR_RETURN(functions, Read(unit_index));
  std::vector<const FunctionEntry*> chain;
  for (int32_t entry = EntryAt(*functions, address); entry >= 0;) {
    const FunctionEntry& function = functions->entries[static_cast<size_t>(entry)];
    chain.push_back(&function);
    if (function.tag == kTagSubprogram) break;
    entry = function.parent;
  }
  return chain;
}

Result<const FunctionIndex::UnitFunctions*> FunctionIndex::Read(size_t unit_index) {
  auto [slot, added] = by_unit_.try_emplace(unit_index);
  UnitFunctions& functions = slot->second;
  if (added) {
    functions.status = Walk(units_[unit_index], functions);
    if (!functions.status.ok()) {
      functions.entries = {};
      functions.map = {};
    }
  }
  if (!functions.status.ok()) return functions.status;
  return &functions;
}

Status FunctionIndex::Walk(const Unit& unit, UnitFunctions& functions) {
  ByteReader reader = units_.Reader(unit);
  RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(unit.first_die - unit.offset)));
  std::vector<int32_t> enclosing = {-1};  // per depth: the nearest function entry
  std::vector<AddressRange> function_ranges;
  Die die;
  while (reader.remaining() > 0) {
    uint64_t die_offset = unit.offset + reader.position();
    uint64_t code;
    ASSIGN_OR_RETURN(code, ReadUleb128(reader));
    if (code == 0) {
      enclosing.pop_back();
      if (enclosing.size() <= 1) break;  // the unit DIE's children have ended
      continue;
    }
    RETURN_IF_ERROR(units_.ReadDieBody(reader, unit, code, die_offset, die));
    int32_t parent = enclosing.back();
    int32_t self = parent;
    if (die.tag == kTagSubprogram || die.tag == kTagInlinedSubroutine) {
      RETURN_IF_ERROR(ranges_.DieRanges(unit, die, function_ranges));
      FunctionEntry entry;
      entry.die_offset = die_offset;
      entry.tag = die.tag;
      entry.parent = parent;
      if (const AttributeValue* value = die.Find(kAtCallFile)) {
        entry.call_file = UnsignedConstant(*value).value_or(0);
      }
      if (const AttributeValue* value = die.Find(kAtCallLine)) {
        entry.call_line = static_cast<uint32_t>(UnsignedConstant(*value).value_or(0));
      }
      if (const AttributeValue* value = die.Find(kAtCallColumn)) {
        entry.call_column = static_cast<uint32_t>(UnsignedConstant(*value).value_or(0));
      }
      self = static_cast<int32_t>(functions.entries.size());
      functions.entries.push_back(entry);
      for (const AddressRange& range : function_ranges) AddToMap(functions, range, self);
    }
    if (die.has_children) {
      if (enclosing.size() > kMaxDieDepth) {
        return Corrupt(sections_.debug_info,
                       "DIEs nest deeper than " + std::to_string(kMaxDieDepth), die_offset);
      }
      enclosing.push_back(self);
    } else if (die_offset == unit.first_die) {
      break;  // a unit DIE without children
    }
  }
  return OkStatus();
}

// As LLVM's DWARFUnit::updateAddressDieMap: a child's range splits its parent's.
void FunctionIndex::AddToMap(UnitFunctions& functions, const AddressRange& range, int32_t entry) {
  auto& map = functions.map;
  auto after = map.upper_bound(range.begin);
  if (after != map.begin()) {
    auto before = std::prev(after);
    if (range.begin < before->second.first) {
      if (range.end < before->second.first) map[range.end] = before->second;
      if (range.begin > before->first) before->second.first = range.begin;
    }
  }
  map[range.begin] = {range.end, static_cast<uint32_t>(entry)};
}

int32_t FunctionIndex::EntryAt(const UnitFunctions& functions, uint64_t address) {
  auto after = functions.map.upper_bound(address);
  if (after == functions.map.begin()) return -1;
  auto found = std::prev(after);
  if (address >= found->second.first) return -1;
  return static_cast<int32_t>(found->second.second);
}

}  // namespace instrumentscope::dwarf
