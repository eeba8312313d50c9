// Mach-O files, thin and universal (fat): the user's own app binaries and the
// DWARF companions inside .dSYM bundles, read for symbolication. What is read:
// the 64-bit header, LC_SEGMENT_64 and its sections, LC_SYMTAB (nlist_64),
// LC_UUID and LC_FUNCTION_STARTS. FORMAT.md in this folder has the layouts.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_MACHO_MACHO_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_MACHO_MACHO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"
#include "model/profile.h"

namespace instrumentscope::macho {

using Uuid = ImageUuid;

struct Segment {
  std::string name;  // "__TEXT"
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t file_offset = 0;
  uint64_t file_size = 0;
};

struct Section {
  std::string segment;  // "__DWARF"
  std::string name;     // "__debug_line"
  uint64_t address = 0;
  uint64_t size = 0;
  uint32_t file_offset = 0;  // within the slice
};

struct Symbol {
  std::string name;  // as stored: "_main", with its leading underscore
  uint64_t address = 0;
};

// One architecture of a file.
struct Image {
  uint32_t cpu_type = 0;
  uint32_t cpu_subtype = 0;
  uint32_t file_type = 0;  // 2 executable, 6 dylib, 10 dSYM companion, …
  std::optional<Uuid> uuid;
  std::vector<Segment> segments;
  std::vector<Section> sections;
  std::vector<Symbol> symbols;            // defined, not debugging entries; by address
  std::vector<uint64_t> function_starts;  // addresses, ascending
  ByteSpan bytes;                         // the slice, for its sections' contents
  uint64_t offset_in_file = 0;            // where the slice starts, for error offsets

  // "__TEXT"'s address: where the image expects to be loaded.
  std::optional<uint64_t> text_address() const;
  const Section* FindSection(std::string_view segment, std::string_view name) const;
};

// "arm64", "x86_64", or "cpu 0x…".
std::string ArchitectureName(uint32_t cpu_type, uint32_t cpu_subtype);

// Whether `prefix` starts like a Mach-O (32- or 64-bit) or a universal file.
bool LooksLikeMachO(ByteSpan prefix);

// Every architecture of a thin or universal file; 32-bit slices are skipped.
// The images refer into `file`, which must outlive them. Everything read is
// bounded by the file's size: a symbol takes 16 of its bytes.
Result<std::vector<Image>> ReadMachO(ByteSpan file);

}  // namespace instrumentscope::macho

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_MACHO_MACHO_H_
