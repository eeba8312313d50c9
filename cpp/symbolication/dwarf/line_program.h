// A line table's header (versions 2 to 5: directories and files, the
// opcodes' parameters) and its program, run through the line number state
// machine into rows and sequences. Of version 5's entry formats only
// DW_LNCT_path and DW_LNCT_directory_index are kept; is_stmt, basic blocks,
// prologue and epilogue marks, ISAs and discriminators are not.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_PROGRAM_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_PROGRAM_H_

#include <cstdint>

#include "base/byte_span.h"
#include "base/status.h"
#include "symbolication/dwarf/line_table.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

// Fills `table` from `bytes`, the table at `offset` of __debug_line, its
// unit_length included (checked by the caller). `unit` gives the sizes of
// version 5's entry forms.
Status ReadLineProgram(const Section& debug_line, const Unit& unit, ByteSpan bytes, uint64_t offset,
                       LineTable& table);

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_LINE_PROGRAM_H_
