#include "symbolication/dwarf/lookup.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "base/identifiers.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/forms.h"

namespace instrumentscope::dwarf {
namespace {

// DW_AT_abstract_origin / DW_AT_specification hops followed for one name.
constexpr size_t kMaxOriginDies = 16;

// Text returned by lookups (names and paths): up to 256 frames may each name
// one DIE whose name is as long as __debug_str, so one lookup could return
// 256 copies of the section. Each lookup returns at most kLookupTextBytes,
// and all lookups together kTextBytesPerByte × the sections' bytes +
// kTextBytesSlack: real names are short, and a trace looks up each address
// once (100 000 addresses of three frames and 300 bytes are 90 MB).
constexpr uint64_t kLookupTextBytes = 4 << 20;
constexpr uint64_t kTextBytesPerByte = 16;
constexpr uint64_t kTextBytesSlack = 256 << 20;

// What describes a function, gathered from the DIEs Describe visits: each
// attribute's first occurrence, as LLVM's findRecursively keeps it.
struct Declaration {
  std::optional<std::string_view> linkage_name, name;
  bool linkage_found = false, name_found = false;
  std::optional<std::pair<size_t, uint64_t>> decl_file;  // (unit, index)
  std::optional<uint64_t> decl_line;
  bool decl_file_found = false, decl_line_found = false;

  void Take(const Sections& sections, const Unit& unit, size_t unit_index, const Die& die) {
    for (const AttributeValue& value : die.attributes) {
      if (!linkage_found &&
          (value.attribute == kAtLinkageName || value.attribute == kAtMipsLinkageName)) {
        linkage_found = true;
        linkage_name = StringValue(sections, unit.str_offsets_base, value);
      }
      if (!name_found && value.attribute == kAtName) {
        name_found = true;
        name = StringValue(sections, unit.str_offsets_base, value);
      }
      if (!decl_file_found && value.attribute == kAtDeclFile) {
        decl_file_found = true;
        if (std::optional<uint64_t> index = UnsignedConstant(value)) {
          decl_file = std::make_pair(unit_index, *index);
        }
      }
      if (!decl_line_found && value.attribute == kAtDeclLine) {
        decl_line_found = true;
        decl_line = UnsignedConstant(value);
      }
    }
  }
};

}  // namespace

AddressLookup::AddressLookup(Sections sections)
    : sections_(std::move(sections)),
      abbreviations_(sections_.debug_abbrev),
      ranges_(sections_),
      units_(sections_),
      line_tables_(sections_),
      functions_(sections_, units_, ranges_),
      text_budget_(kTextBytesPerByte * sections_.TotalBytes() + kTextBytesSlack) {}

Result<std::vector<SourceFrame>> AddressLookup::Lookup(uint64_t address) {
  std::vector<SourceFrame> frames;
  size_t unit_index = 0;
  const Unit* unit = units_.ForAddress(address, &unit_index);
  if (!unit) return frames;
  std::vector<const FunctionEntry*> chain;
  ASSIGN_OR_RETURN(chain, functions_.Chain(unit_index, address));
  const LineTable* table;
  ASSIGN_OR_RETURN(table, line_tables_.ForUnit(*unit));
  // The innermost frame's position: from the line table's row.
  SourceFrame innermost = LinePosition(table, *unit, address);
  if (chain.empty()) {
    // Inside the unit but no function: the line alone, as llvm-symbolizer reports it.
    if (!innermost.file.empty()) frames.push_back(std::move(innermost));
    return frames;
  }
  uint64_t text_bytes = 0;
  for (size_t i = 0; i < chain.size(); ++i) {
    SourceFrame frame;
    if (i == 0) {
      frame = std::move(innermost);
    } else {
      const FunctionEntry& callee = *chain[i - 1];
      if (table) {
        frame.file = line_tables_.FilePath(*table, callee.call_file, unit->comp_dir).value_or("");
      }
      frame.line = callee.call_line;
      frame.column = callee.call_column;
    }
    FunctionDescription description;
    ASSIGN_OR_RETURN(description, Describe(chain[i]->die_offset));
    frame.function = std::move(description.name);
    frame.function_file = std::move(description.file);
    frame.function_line = description.line;
    text_bytes += frame.function.size() + frame.function_file.size() + frame.file.size();
    if (text_bytes > kLookupTextBytes || text_bytes > text_budget_) {
      return TextLimit(address, chain[i]->die_offset);
    }
    frames.push_back(std::move(frame));
  }
  text_budget_ -= text_bytes;
  return frames;
}

// The file, line and column of the row for `address`; empty without one.
SourceFrame AddressLookup::LinePosition(const LineTable* table, const Unit& unit,
                                        uint64_t address) const {
  SourceFrame position;
  if (!table) return position;
  if (const LineRow* row = RowFor(*table, address)) {
    if (std::optional<std::string> path = line_tables_.FilePath(*table, row->file, unit.comp_dir)) {
      position.file = std::move(*path);
      position.line = row->line;
      position.column = row->column;
    }
  }
  return position;
}

Status AddressLookup::TextLimit(uint64_t address, uint64_t die_offset) const {
  return Status(ErrorCode::kLimitExceeded,
                "__debug_info: the names and paths of the frames at " + HexAddress(address) +
                    " add up to more than " +
                    std::to_string(std::min(kLookupTextBytes, text_budget_)) + " bytes (at most " +
                    std::to_string(kLookupTextBytes) + " per address, and " +
                    std::to_string(kTextBytesPerByte) + " times the DWARF sections' bytes plus " +
                    std::to_string(kTextBytesSlack) + " in all)")
      .WithOffset(sections_.debug_info.file_offset + die_offset);
}

// The name, declaration file and line of the function a DIE is, following
// DW_AT_abstract_origin and DW_AT_specification as LLVM's findRecursively
// does (a worklist, last pushed first, each DIE once).
Result<AddressLookup::FunctionDescription> AddressLookup::Describe(uint64_t die_offset) {
  std::vector<uint64_t> worklist = {die_offset};
  std::vector<uint64_t> seen;
  Declaration found;
  while (!worklist.empty() && seen.size() < kMaxOriginDies) {
    uint64_t offset = worklist.back();
    worklist.pop_back();
    if (std::find(seen.begin(), seen.end(), offset) != seen.end()) continue;
    seen.push_back(offset);
    size_t unit_index = 0;
    std::optional<Die> die;
    ASSIGN_OR_RETURN(die, units_.DieAt(offset, &unit_index));
    if (!die) continue;
    const Unit& unit = units_[unit_index];
    found.Take(sections_, unit, unit_index, *die);
    std::optional<uint64_t> origin, specification;
    if (const AttributeValue* value = die->Find(kAtAbstractOrigin)) {
      origin = Reference(unit, *value);
    }
    if (const AttributeValue* value = die->Find(kAtSpecification)) {
      specification = Reference(unit, *value);
    }
    if (origin) worklist.push_back(*origin);
    if (specification) worklist.push_back(*specification);
  }
  FunctionDescription description;
  std::optional<std::string_view> chosen = found.linkage_name ? found.linkage_name : found.name;
  // The linkage name, mangled as it is: frame names are demangled later.
  if (chosen) description.name = std::string(*chosen);
  if (found.decl_file) {
    const Unit& unit = units_[found.decl_file->first];
    const LineTable* table;
    ASSIGN_OR_RETURN(table, line_tables_.ForUnit(unit));
    if (table) {
      description.file =
          line_tables_.FilePath(*table, found.decl_file->second, unit.comp_dir).value_or("");
    }
  }
  description.line = static_cast<uint32_t>(found.decl_line.value_or(0));
  return description;
}

}  // namespace instrumentscope::dwarf
