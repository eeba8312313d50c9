// The DWARF sections of a Mach-O image (its __DWARF segment), and the reads
// every part of the DWARF reader shares: errors that name their section,
// LEB128 and NUL-terminated strings, strings and integers found by offset.
// Sections are views into the image's bytes, never copies. 64-bit DWARF and
// sections outside __DWARF are not read.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_SECTIONS_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_SECTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/byte_reader.h"
#include "base/byte_span.h"
#include "base/status.h"
#include "symbolication/macho/macho.h"

namespace instrumentscope::dwarf {

struct Section {
  std::string_view name;  // "__debug_info", for messages
  ByteSpan bytes;
  uint64_t file_offset = 0;  // within the file (the slice's offset added)
  bool present = false;
};

// Where the strings of a string section end, as far as they have been
// looked for: start → the offset of the NUL that ends every string starting
// from `start` to it (the section's size when none does). Many DIEs can name
// strings inside one long string, each a byte further; with this, every byte
// of the section is searched once however many strings are read.
using StringEnds = std::map<uint64_t, uint64_t>;

struct Sections {
  Section debug_info, debug_abbrev, debug_line, debug_str, debug_str_offsets, debug_addr,
      debug_line_str, debug_ranges, debug_rnglists;
  // Filled as strings are read, by const readers too.
  mutable StringEnds debug_str_ends, debug_line_str_ends;

  // The nine sections' bytes together, for the budgets that scale with them.
  uint64_t TotalBytes() const;
};

// The sections of `image`'s __DWARF segment; absent ones are named but not
// present. Fails with kMachOCorrupt when one lies beyond the image.
Result<Sections> FindSections(const macho::Image& image);

// kMachOCorrupt, "<section>: <what>", at `offset` in the section.
Status Corrupt(const Section& section, const std::string& what, uint64_t offset);
// The same at the reader's position.
Status CorruptHere(const Section& section, const std::string& what, const ByteReader& reader);

// Names the section in a failed read's message (ByteReader's do not); one
// that names a section already ("__debug_abbrev: …") is kept.
Status InSection(const Section& section, Status status);

// A reader of `section` at `offset`, which an attribute or header gave for
// `what` ("a range list"); corrupt when the section has no such offset.
Result<ByteReader> ReaderAt(const Section& section, uint64_t offset, const char* what);

inline Result<uint64_t> ReadUleb128(ByteReader& reader) {
  return reader.ReadUleb128(ErrorCode::kMachOCorrupt);
}

inline Result<int64_t> ReadSleb128(ByteReader& reader) {
  return reader.ReadSleb128(ErrorCode::kMachOCorrupt);
}

// A NUL-terminated string at the reader's position, without its NUL.
Result<std::string_view> ReadCString(ByteReader& reader, ByteSpan data);

// The string at `offset` of a string section; nullopt when the section is
// absent or too short (as LLVM does: dsymutil 14 drops .debug_line_str).
std::optional<std::string_view> StringAt(const Section& section, StringEnds& ends, uint64_t offset);

// An unsigned integer of `width` bytes at `offset` of a section, or nullopt.
std::optional<uint64_t> UIntAt(const Section& section, uint64_t offset, size_t width);

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_SECTIONS_H_
