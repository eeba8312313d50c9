// Line tables (__debug_line): each read once per DW_AT_stmt_list offset and
// shared by the units naming it, against a budget of bytes (see
// kLineBytesPerByte in line_table.cc); the row for an address, and a file's
// full path as llvm-symbolizer prints it. line_program.cc reads the tables'
// headers and programs. 64-bit DWARF is refused.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_TABLE_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_TABLE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "symbolication/dwarf/forms.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

struct Unit;

// A directory's or file's name as its form gives it, resolved when a path is
// built: only the names of rows looked up are ever read (a header may name
// one long string from every entry).
struct FileEntry {
  AttributeValue name;  // form 0 when the entry has none
  uint64_t directory = 0;
};

struct LineRow {
  uint64_t address = 0;
  uint32_t line = 0;
  uint16_t column = 0;  // LLVM keeps 16 bits of each
  uint16_t file = 0;
};

struct LineSequence {
  uint64_t low = 0;
  uint64_t high = 0;     // the end_sequence row's address
  size_t first_row = 0;  // rows [first_row, last_row) with the end row last
  size_t last_row = 0;
};

struct LineTable {
  uint16_t version = 0;
  std::optional<uint64_t> str_offsets_base;  // of the unit that read it, for strx names
  std::vector<AttributeValue> directories;   // "" when unreadable
  std::vector<FileEntry> files;
  std::vector<LineRow> rows;
  std::vector<LineSequence> sequences;  // by low address
};

// As LLVM: the row with the greatest address ≤ `address` in the sequence
// that holds it; nullptr when no sequence does.
const LineRow* RowFor(const LineTable& table, uint64_t address);

// The line tables of one __debug_line, by offset.
class LineTables {
 public:
  explicit LineTables(const Sections& sections);

  // The unit's table, read by the first unit naming it (as LLVM's line table
  // cache does); nullptr when the unit has none. A failure is kept: later
  // calls return it without reading again.
  Result<const LineTable*> ForUnit(const Unit& unit);

  // A file's full path as LLVM's getFileNameByIndex builds it (absolute
  // kind): comp_dir, then the include directory unless absolute, then the
  // name. nullopt for an index or name that cannot be read.
  std::optional<std::string> FilePath(const LineTable& table, uint64_t index,
                                      std::string_view comp_dir) const;

 private:
  struct Slot {
    std::unique_ptr<LineTable> table;
    Status status;
  };

  Status Read(const Unit& unit, uint64_t offset, LineTable& table);

  const Sections& sections_;
  uint64_t budget_;                  // bytes, see kLineBytesPerByte
  std::map<uint64_t, Slot> tables_;  // by offset
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_TABLE_H_
