// DWARF 4 and 5 debug information in a Mach-O image's __DWARF segment (the
// file inside a .dSYM bundle, or a binary or object built with -g), read for
// symbolication: an address → its function, file and line, inlined calls
// first, spelled as llvm-symbolizer --inlining prints them. What is read:
// unit headers and DIEs (.debug_info, .debug_abbrev), strings (.debug_str,
// .debug_str_offsets, .debug_line_str), addresses (.debug_addr), ranges
// (.debug_ranges, .debug_rnglists) and line programs (.debug_line). Not read:
// 64-bit DWARF, split DWARF (.dwo), type units, .debug_aranges and the
// accelerator tables. FORMAT.md in this folder has the layouts, and which of
// the folder's files reads each.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_DEBUG_INFO_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_DEBUG_INFO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "symbolication/macho/macho.h"

namespace instrumentscope::dwarf {

// One frame of what an address was executing, innermost (inlined) first.
struct SourceFrame {
  std::string function;  // the linkage name (mangled) if any, else DW_AT_name; "" when unknown
  std::string file;      // full path (comp_dir, include directory, name); "" when unknown
  uint32_t line = 0;     // 0 when unknown
  uint32_t column = 0;
  std::string function_file;   // where the function is declared (DW_AT_decl_file), full path
  uint32_t function_line = 0;  // DW_AT_decl_line: llvm-symbolizer's "Function start line"
};

class AddressLookup;  // lookup.h: the reader's parts, tied together

class DebugInfo {
 public:
  // Reads the index of compilation units of `image` (a Mach-O slice whose
  // __DWARF segment holds the sections; a dSYM companion, or a binary built
  // with DWARF in it). Fails with kMachOCorrupt on damaged sections; an image
  // with no __debug_info gives an empty DebugInfo (has_units() false). The
  // sections are not copied: `image.bytes` must outlive the DebugInfo.
  static Result<DebugInfo> Read(const macho::Image& image);

  DebugInfo(DebugInfo&&) noexcept;
  DebugInfo& operator=(DebugInfo&&) noexcept;
  ~DebugInfo();

  bool has_units() const;

  // The frames for `address` (in the image's own, unslid address space),
  // innermost first: the inlined calls, then the function that contains
  // them. An inlined frame's caller reports the call site (DW_AT_call_file,
  // DW_AT_call_line, DW_AT_call_column). Empty when no unit covers the
  // address. Units are parsed on their first lookup, hence not const.
  Result<std::vector<SourceFrame>> Lookup(uint64_t address);

 private:
  explicit DebugInfo(std::unique_ptr<AddressLookup> lookup);

  std::unique_ptr<AddressLookup> lookup_;
};

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_DEBUG_INFO_H_
