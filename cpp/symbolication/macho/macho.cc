#include "symbolication/macho/macho.h"

#include <algorithm>
#include <cstdio>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope::macho {
namespace {

constexpr uint32_t kMagic64 = 0xFEEDFACF;  // little-endian in the file
constexpr uint32_t kMagic32 = 0xFEEDFACE;
constexpr uint32_t kFatMagic = 0xCAFEBABE;  // big-endian in the file
constexpr uint32_t kFatMagic64 = 0xCAFEBABF;
constexpr size_t kHeaderSize = 32;
constexpr uint32_t kCpuArch64 = 0x01000000;

constexpr uint32_t kSymtab = 0x2;
constexpr uint32_t kSegment64 = 0x19;
constexpr uint32_t kUuid = 0x1B;
constexpr uint32_t kFunctionStarts = 0x26;

constexpr size_t kSegmentCommandSize = 72;
constexpr size_t kSection64Size = 80;
constexpr size_t kNlist64Size = 16;

// nlist_64.n_type: debugging entries, and the kind of a defined symbol.
constexpr uint8_t kStabMask = 0xE0;
constexpr uint8_t kTypeMask = 0x0E;
constexpr uint8_t kTypeSection = 0x0E;

Status Corrupt(const std::string& what, uint64_t offset) {
  return Status(ErrorCode::kMachOCorrupt, what).WithOffset(offset);
}

// A fixed-size name field, up to its first NUL.
std::string FixedName(ByteSpan field) {
  std::string_view text = field.as_chars();
  return std::string(text.substr(0, text.find('\0')));
}

// The slice [offset, offset + size) of `bytes`, checked.
Result<ByteSpan> Slice(ByteSpan bytes, uint64_t offset, uint64_t size, const std::string& what,
                       uint64_t base) {
  auto end = CheckedAdd(offset, size);
  if (!end || *end > bytes.size()) {
    return Corrupt(what + " (" + std::to_string(size) + " bytes at " + std::to_string(offset) +
                       ") lies beyond the " + std::to_string(bytes.size()) + " bytes it is in",
                   base + offset);
  }
  return bytes.subspan(static_cast<size_t>(offset), static_cast<size_t>(size));
}

class ImageReader {
 public:
  // `base`: the slice's offset in the whole file, for error offsets.
  ImageReader(ByteSpan slice, uint64_t base) : slice_(slice), base_(base) {}

  Result<Image> Read() {
    ByteReader header(slice_, base_);
    uint32_t magic, ncmds, sizeofcmds;
    ASSIGN_OR_RETURN(magic, header.ReadU32Le());
    if (magic != kMagic64) return Corrupt("the image is no 64-bit Mach-O", base_);
    image_.bytes = slice_;
    image_.offset_in_file = base_;
    ASSIGN_OR_RETURN(image_.cpu_type, header.ReadU32Le());
    ASSIGN_OR_RETURN(image_.cpu_subtype, header.ReadU32Le());
    ASSIGN_OR_RETURN(image_.file_type, header.ReadU32Le());
    ASSIGN_OR_RETURN(ncmds, header.ReadU32Le());
    ASSIGN_OR_RETURN(sizeofcmds, header.ReadU32Le());
    ByteSpan commands;
    ASSIGN_OR_RETURN(commands, Slice(slice_, kHeaderSize, sizeofcmds, "the load commands", base_));
    ByteReader reader(commands, base_ + kHeaderSize);
    for (uint32_t i = 0; i < ncmds; ++i) {
      uint64_t at = reader.position();
      uint32_t cmd, cmdsize;
      ASSIGN_OR_RETURN(cmd, reader.ReadU32Le());
      ASSIGN_OR_RETURN(cmdsize, reader.ReadU32Le());
      if (cmdsize < 8 || cmdsize > commands.size() - at) {
        return Corrupt(
            "load command " + std::to_string(i) + " claims " + std::to_string(cmdsize) + " bytes",
            base_ + kHeaderSize + at);
      }
      ByteSpan command = commands.subspan(static_cast<size_t>(at), cmdsize);
      uint64_t command_base = base_ + kHeaderSize + at;
      Status status = OkStatus();
      if (cmd == kSegment64) status = ReadSegment(command, command_base);
      if (cmd == kSymtab) status = ReadSymtab(command, command_base);
      if (cmd == kUuid) status = ReadUuid(command, command_base);
      if (cmd == kFunctionStarts) status = ReadFunctionStarts(command, command_base);
      RETURN_IF_ERROR(status);
      RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(at + cmdsize)));
    }
    std::sort(image_.symbols.begin(), image_.symbols.end(),
              [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
    return std::move(image_);
  }

 private:
  Status ReadSegment(ByteSpan command, uint64_t base) {
    ByteReader reader(command, base);
    RETURN_IF_ERROR(reader.Skip(8));
    ByteSpan name;
    ASSIGN_OR_RETURN(name, reader.ReadBytes(16));
    Segment segment;
    segment.name = FixedName(name);
    ASSIGN_OR_RETURN(segment.address, reader.ReadU64Le());
    ASSIGN_OR_RETURN(segment.size, reader.ReadU64Le());
    ASSIGN_OR_RETURN(segment.file_offset, reader.ReadU64Le());
    ASSIGN_OR_RETURN(segment.file_size, reader.ReadU64Le());
    RETURN_IF_ERROR(reader.Skip(8));  // protections
    uint32_t nsects;
    ASSIGN_OR_RETURN(nsects, reader.ReadU32Le());
    RETURN_IF_ERROR(reader.Seek(kSegmentCommandSize));
    if (nsects > (command.size() - kSegmentCommandSize) / kSection64Size) {
      return Corrupt("segment " + segment.name + " claims " + std::to_string(nsects) +
                         " sections, more than its command holds",
                     base);
    }
    for (uint32_t i = 0; i < nsects; ++i) {
      Section section;
      ByteSpan section_name, segment_name;
      ASSIGN_OR_RETURN(section_name, reader.ReadBytes(16));
      ASSIGN_OR_RETURN(segment_name, reader.ReadBytes(16));
      section.name = FixedName(section_name);
      section.segment = FixedName(segment_name);
      ASSIGN_OR_RETURN(section.address, reader.ReadU64Le());
      ASSIGN_OR_RETURN(section.size, reader.ReadU64Le());
      ASSIGN_OR_RETURN(section.file_offset, reader.ReadU32Le());
      RETURN_IF_ERROR(reader.Skip(kSection64Size - 52));
      image_.sections.push_back(std::move(section));
    }
    image_.segments.push_back(std::move(segment));
    return OkStatus();
  }

  Status ReadSymtab(ByteSpan command, uint64_t base) {
    ByteReader reader(command, base);
    RETURN_IF_ERROR(reader.Skip(8));
    uint32_t symoff, nsyms, stroff, strsize;
    ASSIGN_OR_RETURN(symoff, reader.ReadU32Le());
    ASSIGN_OR_RETURN(nsyms, reader.ReadU32Le());
    ASSIGN_OR_RETURN(stroff, reader.ReadU32Le());
    ASSIGN_OR_RETURN(strsize, reader.ReadU32Le());
    ByteSpan table, strings;
    ASSIGN_OR_RETURN(
        table, Slice(slice_, symoff, uint64_t{nsyms} * kNlist64Size, "the symbol table", base_));
    ASSIGN_OR_RETURN(strings, Slice(slice_, stroff, strsize, "the string table", base_));
    ByteReader entries(table, base_ + symoff);
    for (uint32_t i = 0; i < nsyms; ++i) {
      uint32_t strx;
      uint8_t type;
      uint64_t value;
      ASSIGN_OR_RETURN(strx, entries.ReadU32Le());
      ASSIGN_OR_RETURN(type, entries.ReadU8());
      RETURN_IF_ERROR(entries.Skip(3));  // n_sect, n_desc
      ASSIGN_OR_RETURN(value, entries.ReadU64Le());
      if ((type & kStabMask) || (type & kTypeMask) != kTypeSection) continue;
      if (strx >= strings.size()) {
        return Corrupt("symbol " + std::to_string(i) + " names string " + std::to_string(strx) +
                           " beyond the string table",
                       base_ + symoff + uint64_t{i} * kNlist64Size);
      }
      std::string_view name = strings.subspan(strx).as_chars();
      image_.symbols.push_back(Symbol{std::string(name.substr(0, name.find('\0'))), value});
    }
    return OkStatus();
  }

  Status ReadUuid(ByteSpan command, uint64_t base) {
    ByteReader reader(command, base);
    RETURN_IF_ERROR(reader.Skip(8));
    ByteSpan bytes;
    ASSIGN_OR_RETURN(bytes, reader.ReadBytes(16));
    Uuid uuid;
    std::copy(bytes.data(), bytes.data() + 16, uuid.begin());
    image_.uuid = uuid;
    return OkStatus();
  }

  // ULEB128 deltas, the first from __TEXT's address; a zero ends them.
  Status ReadFunctionStarts(ByteSpan command, uint64_t base) {
    ByteReader reader(command, base);
    RETURN_IF_ERROR(reader.Skip(8));
    uint32_t dataoff, datasize;
    ASSIGN_OR_RETURN(dataoff, reader.ReadU32Le());
    ASSIGN_OR_RETURN(datasize, reader.ReadU32Le());
    ByteSpan data;
    ASSIGN_OR_RETURN(data, Slice(slice_, dataoff, datasize, "the function starts", base_));
    std::optional<uint64_t> text = image_.text_address();
    if (!text) return Corrupt("the function starts come before the __TEXT segment", base);
    ByteReader deltas(data, base_ + dataoff);
    uint64_t address = *text;
    while (deltas.remaining() > 0) {
      uint64_t delta;
      ASSIGN_OR_RETURN(delta, deltas.ReadUleb128(ErrorCode::kMachOCorrupt));
      if (delta == 0) break;
      auto next = CheckedAdd(address, delta);
      if (!next) return Corrupt("a function start overflows 64 bits", deltas.absolute_offset());
      address = *next;
      image_.function_starts.push_back(address);
    }
    return OkStatus();
  }

  ByteSpan slice_;
  uint64_t base_;
  Image image_;
};

}  // namespace

std::optional<uint64_t> Image::text_address() const {
  for (const Segment& segment : segments) {
    if (segment.name == "__TEXT") return segment.address;
  }
  return std::nullopt;
}

const Section* Image::FindSection(std::string_view segment, std::string_view name) const {
  for (const Section& section : sections) {
    if (section.segment == segment && section.name == name) return &section;
  }
  return nullptr;
}

std::string ArchitectureName(uint32_t cpu_type, uint32_t cpu_subtype) {
  if (cpu_type == (kCpuArch64 | 12)) return (cpu_subtype & 0xFF) == 2 ? "arm64e" : "arm64";
  if (cpu_type == (kCpuArch64 | 7)) return "x86_64";
  char name[24];
  std::snprintf(name, sizeof(name), "cpu 0x%x", cpu_type);
  return name;
}

bool LooksLikeMachO(ByteSpan prefix) {
  ByteReader reader(prefix);
  auto little = reader.ReadU32Le();
  if (!little.ok()) return false;
  if (*little == kMagic64 || *little == kMagic32) return true;
  ByteReader big(prefix);
  auto magic = big.ReadU32Be();
  return magic.ok() && (*magic == kFatMagic || *magic == kFatMagic64);
}

Result<std::vector<Image>> ReadMachO(ByteSpan file) {
  ByteReader reader(file);
  uint32_t magic;
  ASSIGN_OR_RETURN(magic, reader.ReadU32Be());
  std::vector<Image> images;
  if (magic != kFatMagic && magic != kFatMagic64) {
    RETURN_IF_ERROR(reader.Seek(0));
    uint32_t thin;
    ASSIGN_OR_RETURN(thin, reader.ReadU32Le());
    if (thin == kMagic32) {
      return Status(ErrorCode::kMachOUnsupported, "a 32-bit Mach-O: only 64-bit images are read")
          .WithOffset(0);
    }
    if (thin != kMagic64) return Corrupt("the file is no Mach-O (no magic number)", 0);
    Image image;
    ASSIGN_OR_RETURN(image, ImageReader(file, 0).Read());
    images.push_back(std::move(image));
    return images;
  }
  // Universal: a big-endian table of (cpu type, subtype, offset, size, align).
  bool wide = magic == kFatMagic64;
  uint32_t count;
  ASSIGN_OR_RETURN(count, reader.ReadU32Be());
  size_t entry_size = wide ? 32 : 20;
  if (count == 0 || count > (file.size() - 8) / entry_size) {
    return Corrupt("a universal file claims " + std::to_string(count) + " architectures", 4);
  }
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t cpu_type, cpu_subtype;
    uint64_t offset, size;
    ASSIGN_OR_RETURN(cpu_type, reader.ReadU32Be());
    ASSIGN_OR_RETURN(cpu_subtype, reader.ReadU32Be());
    if (wide) {
      ASSIGN_OR_RETURN(offset, reader.ReadU64Be());
      ASSIGN_OR_RETURN(size, reader.ReadU64Be());
      RETURN_IF_ERROR(reader.Skip(8));  // align, reserved
    } else {
      uint32_t offset32, size32;
      ASSIGN_OR_RETURN(offset32, reader.ReadU32Be());
      ASSIGN_OR_RETURN(size32, reader.ReadU32Be());
      RETURN_IF_ERROR(reader.Skip(4));  // align
      offset = offset32;
      size = size32;
    }
    if (!(cpu_type & kCpuArch64)) continue;  // 32-bit slices
    ByteSpan slice;
    ASSIGN_OR_RETURN(slice, Slice(file, offset, size,
                                  "architecture " + ArchitectureName(cpu_type, cpu_subtype), 0));
    Image image;
    ASSIGN_OR_RETURN(image, ImageReader(slice, offset).Read());
    images.push_back(std::move(image));
  }
  if (images.empty()) {
    return Status(ErrorCode::kMachOUnsupported, "the universal file holds no 64-bit architecture")
        .WithOffset(0);
  }
  return images;
}

}  // namespace instrumentscope::macho
