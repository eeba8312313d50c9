#include "symbolication/dwarf/sections.h"

#include <cstring>
#include <iterator>

#include "base/checked_math.h"

namespace instrumentscope::dwarf {

uint64_t Sections::TotalBytes() const {
  uint64_t total = 0;
  for (const Section* section :
       {&debug_info, &debug_abbrev, &debug_line, &debug_str, &debug_str_offsets, &debug_addr,
        &debug_line_str, &debug_ranges, &debug_rnglists}) {
    total += section->bytes.size();
  }
  return total;
}

Result<Sections> FindSections(const macho::Image& image) {
  Sections sections;
  struct Wanted {
    Section* section;
    const char* name;  // Mach-O keeps 16 characters of a section's name
  };
  for (Wanted wanted :
       {Wanted{&sections.debug_info, "__debug_info"},
        Wanted{&sections.debug_abbrev, "__debug_abbrev"},
        Wanted{&sections.debug_line, "__debug_line"}, Wanted{&sections.debug_str, "__debug_str"},
        Wanted{&sections.debug_str_offsets, "__debug_str_offs"},
        Wanted{&sections.debug_addr, "__debug_addr"},
        Wanted{&sections.debug_line_str, "__debug_line_str"},
        Wanted{&sections.debug_ranges, "__debug_ranges"},
        Wanted{&sections.debug_rnglists, "__debug_rnglists"}}) {
    wanted.section->name = wanted.name;
    const macho::Section* found = image.FindSection("__DWARF", wanted.name);
    if (!found) continue;
    auto end = CheckedAdd<uint64_t>(found->file_offset, found->size);
    if (!end || *end > image.bytes.size()) {
      return Status(ErrorCode::kMachOCorrupt,
                    std::string(wanted.name) + ": " + std::to_string(found->size) + " bytes at " +
                        std::to_string(found->file_offset) + " lie beyond the " +
                        std::to_string(image.bytes.size()) + " bytes of the image")
          .WithOffset(image.offset_in_file + found->file_offset);
    }
    wanted.section->bytes =
        image.bytes.subspan(found->file_offset, static_cast<size_t>(found->size));
    wanted.section->file_offset = image.offset_in_file + found->file_offset;
    wanted.section->present = true;
  }
  return sections;
}

Status Corrupt(const Section& section, const std::string& what, uint64_t offset) {
  return Status(ErrorCode::kMachOCorrupt, std::string(section.name) + ": " + what)
      .WithOffset(section.file_offset + offset);
}

Status CorruptHere(const Section& section, const std::string& what, const ByteReader& reader) {
  return Status(ErrorCode::kMachOCorrupt, std::string(section.name) + ": " + what)
      .WithOffset(reader.absolute_offset());
}

Status InSection(const Section& section, Status status) {
  if (status.ok() || status.message().rfind("__debug_", 0) == 0) return status;
  Status named(status.code(), std::string(section.name) + ": " + status.message());
  if (status.offset()) named.WithOffset(*status.offset());
  return named;
}

Result<ByteReader> ReaderAt(const Section& section, uint64_t offset, const char* what) {
  if (offset >= section.bytes.size()) {
    return Corrupt(section,
                   std::string(what) + " at " + std::to_string(offset) + " is beyond the " +
                       std::to_string(section.bytes.size()) + " bytes of the section",
                   0);
  }
  ByteReader reader(section.bytes, section.file_offset);
  RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(offset)));
  return reader;
}

Result<std::string_view> ReadCString(ByteReader& reader, ByteSpan data) {
  std::string_view rest = data.subspan(reader.position()).as_chars();
  size_t length = rest.find('\0');
  if (length == std::string_view::npos) {
    return Status(ErrorCode::kTruncated, "a string runs past the end of its section")
        .WithOffset(reader.absolute_offset());
  }
  RETURN_IF_ERROR(reader.Skip(length + 1));
  return rest.substr(0, length);
}

std::optional<std::string_view> StringAt(const Section& section, StringEnds& ends,
                                         uint64_t offset) {
  uint64_t size = section.bytes.size();
  if (offset >= size) return std::nullopt;
  const char* data = section.bytes.as_chars().data();
  auto next = ends.upper_bound(offset);
  uint64_t end;
  if (next != ends.begin() && offset <= std::prev(next)->second) {
    end = std::prev(next)->second;
  } else {
    // Search up to the next known stretch, which ends at the same NUL when
    // none comes first.
    uint64_t limit = next == ends.end() ? size : next->first;
    const void* nul = std::memchr(data + offset, 0, static_cast<size_t>(limit - offset));
    if (nul) {
      end = static_cast<uint64_t>(static_cast<const char*>(nul) - data);
    } else if (next != ends.end()) {
      end = next->second;
      ends.erase(next);
    } else {
      end = size;
    }
    ends.emplace(offset, end);
  }
  if (end >= size) return std::nullopt;
  return std::string_view(data + offset, static_cast<size_t>(end - offset));
}

std::optional<uint64_t> UIntAt(const Section& section, uint64_t offset, size_t width) {
  auto end = CheckedAdd<uint64_t>(offset, width);
  if (!end || *end > section.bytes.size()) return std::nullopt;
  ByteReader reader(section.bytes.subspan(static_cast<size_t>(offset), width));
  auto value = reader.ReadUIntLe(width);
  if (!value.ok()) return std::nullopt;
  return *value;
}

}  // namespace instrumentscope::dwarf
