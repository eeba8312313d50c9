#include "symbolication/dwarf/line_table.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "base/byte_reader.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/line_program.h"
#include "symbolication/dwarf/units.h"

namespace instrumentscope::dwarf {
namespace {

// Line tables are read once per offset (units naming one share it), and
// real files' tables are disjoint; tables nested inside one another's bytes
// would each read the rest of the section. The bytes read, over all tables
// (each its unit_length + 4), stop at kLineBytesPerByte × the section's size
// + kLineBytesSlack.
constexpr uint64_t kLineBytesPerByte = 2;
constexpr uint64_t kLineBytesSlack = 64 * 1024;

// Entry `index` of a line table header's list: counted from 0 in version 5,
// from 1 before (0 meaning none, or the compilation directory).
template <typename T>
const T* EntryAt(const std::vector<T>& entries, uint64_t index, uint16_t version) {
  if (version >= 5) return index < entries.size() ? &entries[index] : nullptr;
  return index != 0 && index <= entries.size() ? &entries[index - 1] : nullptr;
}

// llvm::sys::path::append, POSIX style: one '/' between components.
void AppendPath(std::string& path, std::string_view component) {
  if (component.empty()) return;
  if (!path.empty() && path.back() == '/') {
    size_t start = component.find_first_not_of('/');
    if (start == std::string_view::npos) return;
    path.append(component.substr(start));
    return;
  }
  if (!path.empty() && component.front() != '/') path += '/';
  path.append(component);
}

}  // namespace

const LineRow* RowFor(const LineTable& table, uint64_t address) {
  auto sequence = std::upper_bound(table.sequences.begin(), table.sequences.end(), address,
                                   [](uint64_t a, const LineSequence& s) { return a < s.high; });
  if (sequence == table.sequences.end() || address < sequence->low) return nullptr;
  auto first = table.rows.begin() + static_cast<ptrdiff_t>(sequence->first_row);
  auto last = table.rows.begin() + static_cast<ptrdiff_t>(sequence->last_row);
  auto row = std::upper_bound(first + 1, last - 1, address,
                              [](uint64_t a, const LineRow& r) { return a < r.address; });
  return &*std::prev(row);
}

LineTables::LineTables(const Sections& sections)
    : sections_(sections),
      budget_(kLineBytesPerByte * sections.debug_line.bytes.size() + kLineBytesSlack) {}

Result<const LineTable*> LineTables::ForUnit(const Unit& unit) {
  if (!unit.stmt_list || !sections_.debug_line.present) return nullptr;
  auto [slot, added] = tables_.try_emplace(*unit.stmt_list);
  if (added) {
    auto table = std::make_unique<LineTable>();
    table->str_offsets_base = unit.str_offsets_base;
    slot->second.status = InSection(sections_.debug_line, Read(unit, *unit.stmt_list, *table));
    if (slot->second.status.ok()) slot->second.table = std::move(table);
  }
  if (!slot->second.status.ok()) return slot->second.status;
  return slot->second.table.get();
}

// The table's length, checked and charged to the budget; then its header
// and program.
Status LineTables::Read(const Unit& unit, uint64_t offset, LineTable& table) {
  const Section& debug_line = sections_.debug_line;
  if (offset >= debug_line.bytes.size() || debug_line.bytes.size() - offset < 4) {
    return Corrupt(debug_line,
                   "a line table at " + std::to_string(offset) + " is beyond the " +
                       std::to_string(debug_line.bytes.size()) + " bytes of the section",
                   0);
  }
  ByteReader length_reader(debug_line.bytes, debug_line.file_offset);
  RETURN_IF_ERROR(length_reader.Seek(static_cast<size_t>(offset)));
  uint32_t length;
  ASSIGN_OR_RETURN(length, length_reader.ReadU32Le());
  if (length == kDwarf64Escape) {
    return Corrupt(debug_line, "64-bit DWARF line tables are not supported", offset);
  }
  if (length >= kReservedLengths || length > length_reader.remaining()) {
    return Corrupt(debug_line,
                   "line table length " + std::to_string(length) + " runs past the section's end",
                   offset);
  }
  if (4 + uint64_t{length} > budget_) {
    return Status(ErrorCode::kLimitExceeded,
                  "__debug_line: the units' line tables add up to more than " +
                      std::to_string(kLineBytesPerByte) + " times the section's " +
                      std::to_string(debug_line.bytes.size()) + " bytes (plus " +
                      std::to_string(kLineBytesSlack) + "): tables lie inside one another")
        .WithOffset(debug_line.file_offset + offset);
  }
  budget_ -= 4 + uint64_t{length};
  ByteSpan bytes = debug_line.bytes.subspan(static_cast<size_t>(offset), 4 + size_t{length});
  return ReadLineProgram(debug_line, unit, bytes, offset, table);
}

std::optional<std::string> LineTables::FilePath(const LineTable& table, uint64_t index,
                                                std::string_view comp_dir) const {
  const FileEntry* entry = EntryAt(table.files, index, table.version);
  if (!entry) return std::nullopt;
  std::optional<std::string_view> read_name =
      StringValue(sections_, table.str_offsets_base, entry->name);
  if (!read_name) return std::nullopt;
  std::string_view name = *read_name;
  if (!name.empty() && name.front() == '/') return std::string(name);
  const AttributeValue* directory_name =
      EntryAt(table.directories, entry->directory, table.version);
  std::string_view directory;
  if (directory_name) {
    directory = StringValue(sections_, table.str_offsets_base, *directory_name).value_or("");
  }
  std::string path;
  if (!comp_dir.empty() && (directory.empty() || directory.front() != '/')) {
    AppendPath(path, comp_dir);
  }
  AppendPath(path, directory);
  AppendPath(path, name);
  return path;
}

}  // namespace instrumentscope::dwarf
