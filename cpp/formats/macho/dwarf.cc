#include "formats/macho/dwarf.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "formats/names.h"

namespace instrumentscope::dwarf {
namespace {

// Tags, attributes, forms and line-program codes, from the DWARF 5 standard.
constexpr uint64_t kTagInlinedSubroutine = 0x1D;
constexpr uint64_t kTagSubprogram = 0x2E;

constexpr uint64_t kAtName = 0x03;
constexpr uint64_t kAtStmtList = 0x10;
constexpr uint64_t kAtLowPc = 0x11;
constexpr uint64_t kAtHighPc = 0x12;
constexpr uint64_t kAtCompDir = 0x1B;
constexpr uint64_t kAtAbstractOrigin = 0x31;
constexpr uint64_t kAtDeclFile = 0x3A;
constexpr uint64_t kAtDeclLine = 0x3B;
constexpr uint64_t kAtSpecification = 0x47;
constexpr uint64_t kAtRanges = 0x55;
constexpr uint64_t kAtCallColumn = 0x57;
constexpr uint64_t kAtCallFile = 0x58;
constexpr uint64_t kAtCallLine = 0x59;
constexpr uint64_t kAtLinkageName = 0x6E;
constexpr uint64_t kAtStrOffsetsBase = 0x72;
constexpr uint64_t kAtAddrBase = 0x73;
constexpr uint64_t kAtRnglistsBase = 0x74;
constexpr uint64_t kAtMipsLinkageName = 0x2007;  // what older compilers wrote

constexpr uint64_t kFormAddr = 0x01;
constexpr uint64_t kFormBlock2 = 0x03;
constexpr uint64_t kFormBlock4 = 0x04;
constexpr uint64_t kFormData2 = 0x05;
constexpr uint64_t kFormData4 = 0x06;
constexpr uint64_t kFormData8 = 0x07;
constexpr uint64_t kFormString = 0x08;
constexpr uint64_t kFormBlock = 0x09;
constexpr uint64_t kFormBlock1 = 0x0A;
constexpr uint64_t kFormData1 = 0x0B;
constexpr uint64_t kFormFlag = 0x0C;
constexpr uint64_t kFormSdata = 0x0D;
constexpr uint64_t kFormStrp = 0x0E;
constexpr uint64_t kFormUdata = 0x0F;
constexpr uint64_t kFormRefAddr = 0x10;
constexpr uint64_t kFormRef1 = 0x11;
constexpr uint64_t kFormRef2 = 0x12;
constexpr uint64_t kFormRef4 = 0x13;
constexpr uint64_t kFormRef8 = 0x14;
constexpr uint64_t kFormRefUdata = 0x15;
constexpr uint64_t kFormIndirect = 0x16;
constexpr uint64_t kFormSecOffset = 0x17;
constexpr uint64_t kFormExprloc = 0x18;
constexpr uint64_t kFormFlagPresent = 0x19;
constexpr uint64_t kFormStrx = 0x1A;
constexpr uint64_t kFormAddrx = 0x1B;
constexpr uint64_t kFormRefSup4 = 0x1C;
constexpr uint64_t kFormStrpSup = 0x1D;
constexpr uint64_t kFormData16 = 0x1E;
constexpr uint64_t kFormLineStrp = 0x1F;
constexpr uint64_t kFormRefSig8 = 0x20;
constexpr uint64_t kFormImplicitConst = 0x21;
constexpr uint64_t kFormLoclistx = 0x22;
constexpr uint64_t kFormRnglistx = 0x23;
constexpr uint64_t kFormRefSup8 = 0x24;
constexpr uint64_t kFormStrx1 = 0x25;
constexpr uint64_t kFormStrx2 = 0x26;
constexpr uint64_t kFormStrx3 = 0x27;
constexpr uint64_t kFormStrx4 = 0x28;
constexpr uint64_t kFormAddrx1 = 0x29;
constexpr uint64_t kFormAddrx2 = 0x2A;
constexpr uint64_t kFormAddrx3 = 0x2B;
constexpr uint64_t kFormAddrx4 = 0x2C;

constexpr uint8_t kUnitCompile = 0x01;
constexpr uint8_t kUnitType = 0x02;
constexpr uint8_t kUnitPartial = 0x03;
constexpr uint8_t kUnitSkeleton = 0x04;
constexpr uint8_t kUnitSplitCompile = 0x05;
constexpr uint8_t kUnitSplitType = 0x06;

constexpr uint8_t kRleEndOfList = 0;
constexpr uint8_t kRleBaseAddressx = 1;
constexpr uint8_t kRleStartxEndx = 2;
constexpr uint8_t kRleStartxLength = 3;
constexpr uint8_t kRleOffsetPair = 4;
constexpr uint8_t kRleBaseAddress = 5;
constexpr uint8_t kRleStartEnd = 6;
constexpr uint8_t kRleStartLength = 7;

constexpr uint64_t kLnctPath = 1;
constexpr uint64_t kLnctDirectoryIndex = 2;

constexpr uint8_t kLnsCopy = 1;
constexpr uint8_t kLnsAdvancePc = 2;
constexpr uint8_t kLnsAdvanceLine = 3;
constexpr uint8_t kLnsSetFile = 4;
constexpr uint8_t kLnsSetColumn = 5;
constexpr uint8_t kLnsNegateStmt = 6;
constexpr uint8_t kLnsSetBasicBlock = 7;
constexpr uint8_t kLnsConstAddPc = 8;
constexpr uint8_t kLnsFixedAdvancePc = 9;
constexpr uint8_t kLnsSetPrologueEnd = 10;
constexpr uint8_t kLnsSetEpilogueBegin = 11;
constexpr uint8_t kLnsSetIsa = 12;
constexpr uint8_t kLneEndSequence = 1;
constexpr uint8_t kLneSetAddress = 2;
constexpr uint8_t kLneDefineFile = 3;

// DWARF 32-bit offsets; 0xFFFFFFFF announces 64-bit DWARF, which is refused.
constexpr uint32_t kOffsetSize = 4;
constexpr uint32_t kDwarf64Escape = 0xFFFFFFFF;
constexpr uint32_t kReservedLengths = 0xFFFFFFF0;

// Clang nests DIEs a dozen deep; a deeper tree is damage, not code.
constexpr uint32_t kMaxDieDepth = 256;
// DW_AT_abstract_origin / DW_AT_specification hops followed for one name.
constexpr size_t kMaxOriginDies = 16;
// An index into .debug_addr, .debug_str_offsets or .debug_rnglists beyond
// this is past any section, and times 8 cannot overflow.
constexpr uint64_t kMaxIndex = uint64_t{1} << 56;
// DW_FORM_indirect naming DW_FORM_indirect again.
constexpr int kMaxIndirections = 4;

// What hostile input could otherwise multiply. Each unit names its
// abbreviation table by offset, and tables are parsed once per offset; units
// of real files have disjoint tables, whose bytes add up to the section's at
// most. Units pointing one declaration further into one long table would
// parse it again and again: the bytes parsed, over all tables, stop at
// kAbbrevBytesPerByte × the section's size + kAbbrevBytesSlack.
constexpr uint64_t kAbbrevBytesPerByte = 2;
constexpr uint64_t kAbbrevBytesSlack = 64 * 1024;
// Range list entries read, over all lookups (each unit's ranges are read
// once): a list is read once per DIE naming it, and real files name each
// list from one DIE, but any number of DIEs could name one long list. The
// entries read (low_pc/high_pc pairs count one) stop at
// kRangeEntriesPerByte × the bytes of __debug_info, __debug_ranges and
// __debug_rnglists + kRangeEntriesSlack.
constexpr uint64_t kRangeEntriesPerByte = 4;
constexpr uint64_t kRangeEntriesSlack = 64 * 1024;
// Line tables are read once per offset (units naming one share it), and
// real files' tables are disjoint; tables nested inside one another's bytes
// would each read the rest of the section. The bytes read, over all tables
// (each its unit_length + 4), stop at kLineBytesPerByte × the section's size
// + kLineBytesSlack.
constexpr uint64_t kLineBytesPerByte = 2;
constexpr uint64_t kLineBytesSlack = 64 * 1024;
// Text returned by lookups (names and paths): up to 256 frames may each name
// one DIE whose name is as long as __debug_str, so one lookup could return
// 256 copies of the section. Each lookup returns at most kLookupTextBytes,
// and all lookups together kTextBytesPerByte × the sections' bytes +
// kTextBytesSlack: real names are short, and a trace looks up each address
// once (100 000 addresses of three frames and 300 bytes are 90 MB).
constexpr uint64_t kLookupTextBytes = 4 << 20;
constexpr uint64_t kTextBytesPerByte = 16;
constexpr uint64_t kTextBytesSlack = 256 << 20;

struct Section {
  std::string_view name;  // "__debug_info", for messages
  ByteSpan bytes;
  uint64_t file_offset = 0;  // within the file (the slice's offset added)
  bool present = false;
};

Status Corrupt(const Section& section, const std::string& what, uint64_t offset) {
  return Status(ErrorCode::kMachOCorrupt, std::string(section.name) + ": " + what)
      .WithOffset(section.file_offset + offset);
}

// Names the section in a failed read's message (ByteReader's do not); one
// that names a section already ("__debug_abbrev: …") is kept.
Status InSection(const Section& section, Status status) {
  if (status.ok() || status.message().rfind("__debug_", 0) == 0) return status;
  Status named(status.code(), std::string(section.name) + ": " + status.message());
  if (status.offset()) named.WithOffset(*status.offset());
  return named;
}

Result<uint64_t> ReadUleb128(ByteReader& reader) {
  return reader.ReadUleb128(ErrorCode::kMachOCorrupt);
}

Result<int64_t> ReadSleb128(ByteReader& reader) {
  return reader.ReadSleb128(ErrorCode::kMachOCorrupt);
}

// A NUL-terminated string at the reader's position, without its NUL.
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

// Where the strings of a string section end, as far as they have been
// looked for: start → the offset of the NUL that ends every string starting
// from `start` to it (the section's size when none does). Many DIEs can name
// strings inside one long string, each a byte further; with this, every byte
// of the section is searched once however many strings are read.
using StringEnds = std::map<uint64_t, uint64_t>;

// The string at `offset` of a string section; nullopt when the section is
// absent or too short (as LLVM does: dsymutil 14 drops .debug_line_str).
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

// An unsigned integer of `width` bytes at `offset` of a section, or nullopt.
std::optional<uint64_t> UIntAt(const Section& section, uint64_t offset, size_t width) {
  auto end = CheckedAdd<uint64_t>(offset, width);
  if (!end || *end > section.bytes.size()) return std::nullopt;
  ByteReader reader(section.bytes.subspan(static_cast<size_t>(offset), width));
  auto value = reader.ReadUIntLe(width);
  if (!value.ok()) return std::nullopt;
  return *value;
}

// --- Abbreviations ---------------------------------------------------------

struct AttributeSpec {
  uint64_t attribute = 0;
  uint64_t form = 0;
  int64_t implicit_const = 0;
};

struct Abbrev {
  uint64_t code = 0;
  uint64_t tag = 0;
  bool has_children = false;
  std::vector<AttributeSpec> attributes;
};

struct AbbrevTable {
  std::vector<Abbrev> abbrevs;  // by code

  const Abbrev* Find(uint64_t code) const {
    // Clang numbers them 1, 2, 3, …: try the direct index first.
    if (code >= 1 && code <= abbrevs.size() && abbrevs[code - 1].code == code) {
      return &abbrevs[code - 1];
    }
    auto it = std::lower_bound(abbrevs.begin(), abbrevs.end(), code,
                               [](const Abbrev& a, uint64_t c) { return a.code < c; });
    return it != abbrevs.end() && it->code == code ? &*it : nullptr;
  }
};

// The attributes this reader looks at; a bit each, for ReadAbbrevTable.
uint32_t WantedAttributeBit(uint64_t attribute) {
  constexpr uint64_t kWanted[] = {
      kAtName,           kAtStmtList,     kAtLowPc,          kAtHighPc,        kAtCompDir,
      kAtAbstractOrigin, kAtDeclFile,     kAtDeclLine,       kAtSpecification, kAtRanges,
      kAtCallColumn,     kAtCallFile,     kAtCallLine,       kAtLinkageName,   kAtStrOffsetsBase,
      kAtAddrBase,       kAtRnglistsBase, kAtMipsLinkageName};
  for (size_t i = 0; i < std::size(kWanted); ++i) {
    if (kWanted[i] == attribute) return uint32_t{1} << i;
  }
  return 0;
}

// A reader of `section` at `offset`, which an attribute or header gave for
// `what` ("a range list"); corrupt when the section has no such offset.
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

// The table at `offset`, its bytes charged to `budget` (see
// kAbbrevBytesPerByte). Attributes whose form takes no bytes in the DIE
// (flag_present, implicit_const) are kept only when this reader looks at
// them, and only the first of an attribute: every read takes an attribute's
// first occurrence, as LLVM's find does. So a DIE costs its own bytes, plus 18
// at most, however many such attributes its abbreviation lists.
Result<AbbrevTable> ReadAbbrevTable(const Section& section, uint64_t offset, uint64_t& budget) {
  Result<ByteReader> at = ReaderAt(section, offset, "abbreviation table");
  if (!at.ok()) return at.status();
  ByteReader& reader = *at;
  AbbrevTable table;
  for (;;) {
    size_t start = reader.position();
    Abbrev abbrev;
    ASSIGN_OR_RETURN(abbrev.code, ReadUleb128(reader));
    if (abbrev.code == 0) break;
    ASSIGN_OR_RETURN(abbrev.tag, ReadUleb128(reader));
    uint8_t children;
    ASSIGN_OR_RETURN(children, reader.ReadU8());
    abbrev.has_children = children != 0;
    uint32_t seen = 0;  // wanted attributes listed so far
    for (;;) {
      AttributeSpec spec;
      ASSIGN_OR_RETURN(spec.attribute, ReadUleb128(reader));
      ASSIGN_OR_RETURN(spec.form, ReadUleb128(reader));
      if (spec.attribute == 0 && spec.form == 0) break;
      if (spec.form == kFormImplicitConst) {
        ASSIGN_OR_RETURN(spec.implicit_const, ReadSleb128(reader));
      }
      uint32_t bit = WantedAttributeBit(spec.attribute);
      bool zero_width = spec.form == kFormFlagPresent || spec.form == kFormImplicitConst;
      bool repeated = (seen & bit) != 0;
      seen |= bit;
      if (zero_width && (bit == 0 || repeated)) continue;
      abbrev.attributes.push_back(spec);
    }
    uint64_t used = reader.position() - start;
    if (used > budget) {
      return Status(ErrorCode::kLimitExceeded,
                    std::string(section.name) +
                        ": the units' abbreviation tables add up to more than " +
                        std::to_string(kAbbrevBytesPerByte) + " times the section's " +
                        std::to_string(section.bytes.size()) + " bytes (plus " +
                        std::to_string(kAbbrevBytesSlack) +
                        "): units point into the middle of one another's tables")
          .WithOffset(section.file_offset + offset);
    }
    budget -= used;
    table.abbrevs.push_back(std::move(abbrev));
  }
  std::stable_sort(table.abbrevs.begin(), table.abbrevs.end(),
                   [](const Abbrev& a, const Abbrev& b) { return a.code < b.code; });
  return table;
}

// --- Units and DIEs --------------------------------------------------------

struct AttributeValue {
  uint64_t attribute = 0;
  uint64_t form = 0;
  uint64_t value = 0;  // constants, offsets, indexes; references relative to their unit
  ByteSpan bytes;      // DW_FORM_string (without its NUL), blocks, data16
};

// Where a form is read: the section (for messages), the bytes the reader runs
// over (DW_FORM_string's text is found in them), and the unit's sizes.
struct FormSource {
  const Section* section;
  ByteSpan data;
  uint8_t address_size;
  uint16_t version;
};

Status CorruptHere(const Section& section, const std::string& what, const ByteReader& reader) {
  return Status(ErrorCode::kMachOCorrupt, std::string(section.name) + ": " + what)
      .WithOffset(reader.absolute_offset());
}

Status ReadForm(ByteReader& reader, const FormSource& source, const AttributeSpec& spec,
                AttributeValue& out) {
  out.attribute = spec.attribute;
  out.form = spec.form;
  out.value = 0;
  out.bytes = ByteSpan();
  for (int indirections = 0;; ++indirections) {
    size_t width = 0;  // of a fixed-size value
    switch (out.form) {
      case kFormAddr: width = source.address_size; break;
      case kFormData1:
      case kFormRef1:
      case kFormFlag:
      case kFormStrx1:
      case kFormAddrx1: width = 1; break;
      case kFormData2:
      case kFormRef2:
      case kFormStrx2:
      case kFormAddrx2: width = 2; break;
      case kFormStrx3:
      case kFormAddrx3: width = 3; break;
      case kFormData4:
      case kFormRef4:
      case kFormStrx4:
      case kFormAddrx4:
      case kFormRefSup4:
      case kFormStrp:
      case kFormLineStrp:
      case kFormSecOffset:
      case kFormStrpSup: width = kOffsetSize; break;
      case kFormData8:
      case kFormRef8:
      case kFormRefSig8:
      case kFormRefSup8: width = 8; break;
      case kFormRefAddr:
        // DWARF 2 made it address-sized; later versions offset-sized.
        width = source.version <= 2 ? source.address_size : kOffsetSize;
        break;
      case kFormData16: {
        ASSIGN_OR_RETURN(out.bytes, reader.ReadBytes(16));
        return OkStatus();
      }
      case kFormSdata: {
        int64_t value;
        ASSIGN_OR_RETURN(value, ReadSleb128(reader));
        out.value = static_cast<uint64_t>(value);
        return OkStatus();
      }
      case kFormUdata:
      case kFormRefUdata:
      case kFormStrx:
      case kFormAddrx:
      case kFormLoclistx:
      case kFormRnglistx: {
        ASSIGN_OR_RETURN(out.value, ReadUleb128(reader));
        return OkStatus();
      }
      case kFormString: {
        ASSIGN_OR_RETURN(std::string_view text, ReadCString(reader, source.data));
        out.bytes = ByteSpan(text);
        return OkStatus();
      }
      case kFormFlagPresent: out.value = 1; return OkStatus();
      case kFormImplicitConst:
        out.value = static_cast<uint64_t>(spec.implicit_const);
        return OkStatus();
      case kFormBlock1:
      case kFormBlock2:
      case kFormBlock4:
      case kFormBlock:
      case kFormExprloc: {
        uint64_t length;
        if (out.form == kFormBlock1) {
          ASSIGN_OR_RETURN(length, reader.ReadUIntLe(1));
        } else if (out.form == kFormBlock2) {
          ASSIGN_OR_RETURN(length, reader.ReadUIntLe(2));
        } else if (out.form == kFormBlock4) {
          ASSIGN_OR_RETURN(length, reader.ReadUIntLe(4));
        } else {
          ASSIGN_OR_RETURN(length, ReadUleb128(reader));
        }
        if (length > reader.remaining()) {
          return CorruptHere(*source.section,
                             "a block of " + std::to_string(length) + " bytes runs past its unit",
                             reader);
        }
        ASSIGN_OR_RETURN(out.bytes, reader.ReadBytes(static_cast<size_t>(length)));
        return OkStatus();
      }
      case kFormIndirect: {
        if (indirections == kMaxIndirections) {
          return CorruptHere(*source.section, "DW_FORM_indirect nests too deep", reader);
        }
        ASSIGN_OR_RETURN(out.form, ReadUleb128(reader));
        if (out.form == kFormImplicitConst) {
          return CorruptHere(*source.section, "DW_FORM_indirect names DW_FORM_implicit_const",
                             reader);
        }
        continue;
      }
      default: {
        char hex[24];
        std::snprintf(hex, sizeof(hex), "0x%llx", static_cast<unsigned long long>(out.form));
        return CorruptHere(*source.section, std::string("unknown attribute form ") + hex, reader);
      }
    }
    ASSIGN_OR_RETURN(out.value, reader.ReadUIntLe(width));
    return OkStatus();
  }
}

struct Die {
  uint64_t offset = 0;  // in .debug_info
  uint64_t tag = 0;
  bool has_children = false;
  std::vector<AttributeValue> attributes;

  const AttributeValue* Find(uint64_t attribute) const {
    for (const AttributeValue& value : attributes) {
      if (value.attribute == attribute) return &value;
    }
    return nullptr;
  }
};

struct AddressRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// A subprogram or inlined subroutine that has addresses, in DIE order.
struct FunctionEntry {
  uint64_t die_offset = 0;
  uint64_t tag = 0;
  int32_t parent = -1;  // the nearest enclosing entry
  uint64_t call_file = 0;
  uint32_t call_line = 0;
  uint32_t call_column = 0;
};

// A directory's or file's name as its form gives it, resolved when a path is
// built: only the names of rows looked up are ever read (a header may name
// one long string from every entry).
struct FileEntry {
  AttributeValue name;  // form 0 when the entry has none
  uint64_t directory = 0;
};

AttributeValue InlineString(std::string_view text) {
  AttributeValue value;
  value.form = kFormString;
  value.bytes = ByteSpan(text);
  return value;
}

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

struct Unit {
  uint64_t offset = 0;     // of its header in .debug_info
  uint64_t end = 0;        // past its last byte
  uint64_t first_die = 0;  // 0 for unit types not read
  uint16_t version = 0;
  uint8_t address_size = 0;
  bool indexed = false;  // a compile or partial unit, looked up by address
  const AbbrevTable* abbrevs = nullptr;

  // From the unit DIE.
  uint64_t base_address = 0;
  std::optional<uint64_t> stmt_list;
  std::string_view comp_dir;
  std::optional<uint64_t> str_offsets_base;
  std::optional<uint64_t> addr_base;
  std::optional<uint64_t> rnglists_base;

  // Read on first lookup.
  bool functions_read = false;
  std::vector<FunctionEntry> functions;
  // LLVM's address → DIE map: the last (innermost) entry wins where ranges
  // overlap. begin → (end, entry index).
  std::map<uint64_t, std::pair<uint64_t, uint32_t>> function_map;
  Status functions_status;  // a failure is kept, not read again by the next lookup
};

// Line tables by offset in __debug_line: units naming the same one share it,
// read by the first (as LLVM's line table cache does).
struct LineTableSlot {
  std::unique_ptr<LineTable> table;
  Status status;
};

struct UnitRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  size_t unit = 0;
};

bool IsAddressForm(uint64_t form) {
  return form == kFormAddr || form == kFormAddrx || (form >= kFormAddrx1 && form <= kFormAddrx4);
}

// DW_AT_decl_file and friends: LLVM's getAsUnsignedConstant.
std::optional<uint64_t> UnsignedConstant(const AttributeValue& value) {
  switch (value.form) {
    case kFormData1:
    case kFormData2:
    case kFormData4:
    case kFormData8:
    case kFormUdata:
    case kFormFlag:
    case kFormFlagPresent: return value.value;
    case kFormImplicitConst: return value.value;
    default: return std::nullopt;
  }
}

std::optional<uint64_t> SectionOffset(const AttributeValue& value) {
  if (value.form == kFormSecOffset || value.form == kFormData4 || value.form == kFormData8) {
    return value.value;
  }
  return std::nullopt;
}

}  // namespace

struct DebugInfo::State {
  Section debug_info, debug_abbrev, debug_line, debug_str, debug_str_offsets, debug_addr,
      debug_line_str, debug_ranges, debug_rnglists;
  std::map<uint64_t, AbbrevTable> abbrev_tables;  // by offset; nodes stay put
  uint64_t abbrev_budget = 0;                     // bytes, see kAbbrevBytesPerByte
  uint64_t range_budget = 0;                      // entries, see kRangeEntriesPerByte
  uint64_t line_budget = 0;                       // bytes, see kLineBytesPerByte
  uint64_t text_budget = 0;                       // bytes, see kTextBytesPerByte
  std::vector<Unit> units;                        // by offset
  std::vector<UnitRange> unit_ranges;             // disjoint, by address
  std::map<uint64_t, LineTableSlot> line_tables;  // by offset
  // Filled as strings are read, by const readers too.
  mutable StringEnds debug_str_ends, debug_line_str_ends;

  Result<const AbbrevTable*> Abbrevs(uint64_t offset) {
    auto found = abbrev_tables.find(offset);
    if (found != abbrev_tables.end()) return &found->second;
    AbbrevTable table;
    ASSIGN_OR_RETURN(table, ReadAbbrevTable(debug_abbrev, offset, abbrev_budget));
    return &abbrev_tables.emplace(offset, std::move(table)).first->second;
  }

  // One unit's bytes, for a reader whose positions are offsets in the unit.
  ByteReader UnitReader(const Unit& unit) const {
    return ByteReader(debug_info.bytes.subspan(static_cast<size_t>(unit.offset),
                                               static_cast<size_t>(unit.end - unit.offset)),
                      debug_info.file_offset + unit.offset);
  }

  FormSource DieSource(const Unit& unit) const {
    return FormSource{&debug_info,
                      debug_info.bytes.subspan(static_cast<size_t>(unit.offset),
                                               static_cast<size_t>(unit.end - unit.offset)),
                      unit.address_size, unit.version};
  }

  // The DIE at the reader's position (its abbreviation code already read as
  // non-zero).
  Status ReadDieBody(ByteReader& reader, const Unit& unit, uint64_t code, uint64_t die_offset,
                     Die& die) const {
    const Abbrev* found = unit.abbrevs->Find(code);
    if (!found) {
      return Corrupt(debug_info,
                     "a DIE names abbreviation " + std::to_string(code) + ", not in its table",
                     die_offset);
    }
    die.offset = die_offset;
    die.tag = found->tag;
    die.has_children = found->has_children;
    die.attributes.resize(found->attributes.size());
    for (size_t i = 0; i < found->attributes.size(); ++i) {
      RETURN_IF_ERROR(ReadForm(reader, DieSource(unit), found->attributes[i], die.attributes[i]));
    }
    return OkStatus();
  }

  // The unit holding `offset` of .debug_info, if it is one whose DIEs we read.
  const Unit* UnitAt(uint64_t offset, size_t* index) const {
    auto it = std::upper_bound(units.begin(), units.end(), offset,
                               [](uint64_t o, const Unit& unit) { return o < unit.offset; });
    if (it == units.begin()) return nullptr;
    --it;
    if (it->first_die == 0 || offset < it->first_die || offset >= it->end) return nullptr;
    if (index) *index = static_cast<size_t>(it - units.begin());
    return &*it;
  }

  // The DIE a reference points to; nullopt for a reference to nowhere, or to a
  // null entry, as LLVM treats both as no DIE.
  Result<std::optional<Die>> DieAt(uint64_t offset, size_t* unit_index) const {
    const Unit* unit = UnitAt(offset, unit_index);
    if (!unit) return std::optional<Die>();
    ByteReader reader = UnitReader(*unit);
    RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(offset - unit->offset)));
    uint64_t code;
    ASSIGN_OR_RETURN(code, ReadUleb128(reader));
    if (code == 0) return std::optional<Die>();
    Die die;
    RETURN_IF_ERROR(ReadDieBody(reader, *unit, code, offset, die));
    return std::optional<Die>(std::move(die));
  }

  std::optional<uint64_t> Reference(const Unit& unit, const AttributeValue& value) const {
    switch (value.form) {
      case kFormRef1:
      case kFormRef2:
      case kFormRef4:
      case kFormRef8:
      case kFormRefUdata: return CheckedAdd(unit.offset, value.value);
      case kFormRefAddr: return value.value;
      default: return std::nullopt;
    }
  }

  std::optional<std::string_view> String(const Unit& unit, const AttributeValue& value) const {
    return String(unit.str_offsets_base, value);
  }

  std::optional<std::string_view> String(std::optional<uint64_t> str_offsets_base,
                                         const AttributeValue& value) const {
    switch (value.form) {
      case kFormString: return value.bytes.as_chars();
      case kFormStrp: return StringAt(debug_str, debug_str_ends, value.value);
      case kFormLineStrp: return StringAt(debug_line_str, debug_line_str_ends, value.value);
      case kFormStrx:
      case kFormStrx1:
      case kFormStrx2:
      case kFormStrx3:
      case kFormStrx4: {
        if (!str_offsets_base || value.value > kMaxIndex) return std::nullopt;
        auto at = CheckedAdd(*str_offsets_base, value.value * kOffsetSize);
        if (!at) return std::nullopt;
        std::optional<uint64_t> offset = UIntAt(debug_str_offsets, *at, kOffsetSize);
        if (!offset) return std::nullopt;
        return StringAt(debug_str, debug_str_ends, *offset);
      }
      default: return std::nullopt;
    }
  }

  std::optional<uint64_t> IndexedAddress(const Unit& unit, uint64_t index) const {
    if (!unit.addr_base || index > kMaxIndex) return std::nullopt;
    auto at = CheckedAdd(*unit.addr_base, index * unit.address_size);
    if (!at) return std::nullopt;
    return UIntAt(debug_addr, *at, unit.address_size);
  }

  std::optional<uint64_t> Address(const Unit& unit, const AttributeValue& value) const {
    if (value.form == kFormAddr) return value.value;
    if (IsAddressForm(value.form)) return IndexedAddress(unit, value.value);
    return std::nullopt;
  }

  // DW_AT_low_pc with DW_AT_high_pc (an address, or a length from low_pc), or
  // DW_AT_ranges; empty ranges dropped.
  Status DieRanges(const Unit& unit, const Die& die, std::vector<AddressRange>& out) {
    out.clear();
    const AttributeValue* low = die.Find(kAtLowPc);
    const AttributeValue* high = die.Find(kAtHighPc);
    if (low && high) {
      std::optional<uint64_t> begin = Address(unit, *low);
      uint64_t tombstone =
          unit.address_size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * unit.address_size)) - 1;
      if (begin && *begin != tombstone) {
        std::optional<uint64_t> end = Address(unit, *high);
        if (!end) {
          std::optional<uint64_t> length = UnsignedConstant(*high);
          if (length) end = *begin + *length;
        }
        if (end) {
          RETURN_IF_ERROR(ChargeRangeEntry(debug_info, die.offset));
          if (*begin < *end) out.push_back({*begin, *end});
          return OkStatus();
        }
      }
    }
    const AttributeValue* ranges_value = die.Find(kAtRanges);
    if (!ranges_value) return OkStatus();
    if (ranges_value->form == kFormRnglistx) {
      if (!unit.rnglists_base || ranges_value->value > kMaxIndex) return OkStatus();
      auto at = CheckedAdd(*unit.rnglists_base, ranges_value->value * kOffsetSize);
      if (!at) return OkStatus();
      std::optional<uint64_t> relative = UIntAt(debug_rnglists, *at, kOffsetSize);
      if (!relative) return OkStatus();
      return RangeList(unit, *unit.rnglists_base + *relative, out);
    }
    std::optional<uint64_t> offset = SectionOffset(*ranges_value);
    if (!offset) return OkStatus();
    return RangeList(unit, *offset, out);
  }

  // One more entry read from `section` (at `offset` in it), against
  // range_budget.
  Status ChargeRangeEntry(const Section& section, uint64_t offset) {
    if (range_budget > 0) {
      --range_budget;
      return OkStatus();
    }
    return Status(ErrorCode::kLimitExceeded,
                  std::string(section.name) + ": DIEs name range lists whose entries add up to " +
                      "more than " + std::to_string(kRangeEntriesPerByte) +
                      " per byte of __debug_info, __debug_ranges and __debug_rnglists (plus " +
                      std::to_string(kRangeEntriesSlack) + "): many DIEs share long lists")
        .WithOffset(section.file_offset + offset);
  }

  Status RangeList(const Unit& unit, uint64_t offset, std::vector<AddressRange>& out) {
    const Section& section = unit.version >= 5 ? debug_rnglists : debug_ranges;
    if (!section.present) return OkStatus();
    Result<ByteReader> at = ReaderAt(section, offset, "a range list");
    if (!at.ok()) return at.status();
    ByteReader& reader = *at;
    Status status =
        unit.version >= 5 ? ReadRangeList5(reader, unit, out) : ReadRangeList4(reader, unit, out);
    return InSection(section, status);
  }

  // .debug_ranges: (begin, end) address pairs from a base address, (0, 0)
  // ends; a begin of all ones makes `end` the new base.
  Status ReadRangeList4(ByteReader& reader, const Unit& unit, std::vector<AddressRange>& out) {
    uint64_t all_ones =
        unit.address_size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * unit.address_size)) - 1;
    uint64_t base = unit.base_address;
    for (;;) {
      RETURN_IF_ERROR(ChargeRangeEntry(debug_ranges, reader.position()));
      uint64_t begin, end;
      ASSIGN_OR_RETURN(begin, reader.ReadUIntLe(unit.address_size));
      ASSIGN_OR_RETURN(end, reader.ReadUIntLe(unit.address_size));
      if (begin == 0 && end == 0) return OkStatus();
      if (begin == all_ones) {
        base = end;
        continue;
      }
      if (base + begin < base + end) out.push_back({base + begin, base + end});
    }
  }

  // .debug_rnglists: DW_RLE_* entries until DW_RLE_end_of_list.
  Status ReadRangeList5(ByteReader& reader, const Unit& unit, std::vector<AddressRange>& out) {
    uint64_t base = unit.base_address;
    for (;;) {
      RETURN_IF_ERROR(ChargeRangeEntry(debug_rnglists, reader.position()));
      uint64_t kind_offset = reader.absolute_offset();
      uint8_t kind;
      ASSIGN_OR_RETURN(kind, reader.ReadU8());
      std::optional<uint64_t> begin, end;
      switch (kind) {
        case kRleEndOfList: return OkStatus();
        case kRleBaseAddressx: {
          uint64_t index;
          ASSIGN_OR_RETURN(index, ReadUleb128(reader));
          if (std::optional<uint64_t> address = IndexedAddress(unit, index)) base = *address;
          continue;
        }
        case kRleStartxEndx:
        case kRleStartxLength: {
          uint64_t index, second;
          ASSIGN_OR_RETURN(index, ReadUleb128(reader));
          ASSIGN_OR_RETURN(second, ReadUleb128(reader));
          begin = IndexedAddress(unit, index);
          if (kind == kRleStartxEndx) {
            end = IndexedAddress(unit, second);
          } else if (begin) {
            end = *begin + second;
          }
          break;
        }
        case kRleOffsetPair: {
          uint64_t first, second;
          ASSIGN_OR_RETURN(first, ReadUleb128(reader));
          ASSIGN_OR_RETURN(second, ReadUleb128(reader));
          begin = base + first;
          end = base + second;
          break;
        }
        case kRleBaseAddress: {
          ASSIGN_OR_RETURN(base, reader.ReadUIntLe(unit.address_size));
          continue;
        }
        case kRleStartEnd: {
          uint64_t first, second;
          ASSIGN_OR_RETURN(first, reader.ReadUIntLe(unit.address_size));
          ASSIGN_OR_RETURN(second, reader.ReadUIntLe(unit.address_size));
          begin = first;
          end = second;
          break;
        }
        case kRleStartLength: {
          uint64_t first, length;
          ASSIGN_OR_RETURN(first, reader.ReadUIntLe(unit.address_size));
          ASSIGN_OR_RETURN(length, ReadUleb128(reader));
          begin = first;
          end = first + length;
          break;
        }
        default:
          return Status(ErrorCode::kMachOCorrupt,
                        "unknown range list entry kind " + std::to_string(kind))
              .WithOffset(kind_offset);
      }
      if (begin && end && *begin < *end) out.push_back({*begin, *end});
    }
  }

  // The unit headers, and from each compile unit's DIE what lookups need.
  Status ReadUnits() {
    ByteReader reader(debug_info.bytes, debug_info.file_offset);
    while (reader.remaining() > 0) {
      Unit unit;
      unit.offset = reader.position();
      uint32_t length;
      ASSIGN_OR_RETURN(length, reader.ReadU32Le());
      if (length == kDwarf64Escape) {
        return Corrupt(debug_info, "64-bit DWARF units are not supported", unit.offset);
      }
      if (length >= kReservedLengths || length > reader.remaining()) {
        return Corrupt(debug_info,
                       "unit length " + std::to_string(length) + " runs past the section's end",
                       unit.offset);
      }
      unit.end = unit.offset + 4 + length;
      ByteReader header = UnitReader(unit);
      RETURN_IF_ERROR(header.Skip(4));
      ASSIGN_OR_RETURN(unit.version, header.ReadU16Le());
      if (unit.version < 2 || unit.version > 5) {
        return Corrupt(debug_info,
                       "unit version " + std::to_string(unit.version) + " is not 2 to 5",
                       unit.offset + 4);
      }
      uint8_t unit_type = kUnitCompile;
      uint64_t abbrev_offset;
      if (unit.version >= 5) {
        ASSIGN_OR_RETURN(unit_type, header.ReadU8());
        ASSIGN_OR_RETURN(unit.address_size, header.ReadU8());
        ASSIGN_OR_RETURN(abbrev_offset, header.ReadU32Le());
        if (unit_type == kUnitSkeleton || unit_type == kUnitSplitCompile) {
          RETURN_IF_ERROR(header.Skip(8));  // dwo_id
        } else if (unit_type == kUnitType || unit_type == kUnitSplitType) {
          RETURN_IF_ERROR(header.Skip(8 + kOffsetSize));  // signature, type offset
        } else if (unit_type != kUnitCompile && unit_type != kUnitPartial) {
          // Unknown kinds: their header's size is unknown, so their DIEs are not read.
          RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(unit.end)));
          units.push_back(std::move(unit));
          continue;
        }
      } else {
        ASSIGN_OR_RETURN(abbrev_offset, header.ReadU32Le());
        ASSIGN_OR_RETURN(unit.address_size, header.ReadU8());
      }
      if (unit.address_size != 2 && unit.address_size != 4 && unit.address_size != 8) {
        return Corrupt(debug_info,
                       "address size " + std::to_string(unit.address_size) + " is not 2, 4 or 8",
                       unit.offset);
      }
      unit.first_die = unit.offset + header.position();
      ASSIGN_OR_RETURN(unit.abbrevs, Abbrevs(abbrev_offset));
      unit.indexed = unit_type == kUnitCompile || unit_type == kUnitPartial;
      if (unit.indexed) RETURN_IF_ERROR(ReadUnitDie(unit, header));
      RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(unit.end)));
      units.push_back(std::move(unit));
    }
    return OkStatus();
  }

  Status ReadUnitDie(Unit& unit, ByteReader& reader) {
    uint64_t code;
    ASSIGN_OR_RETURN(code, ReadUleb128(reader));
    if (code == 0) return OkStatus();
    Die die;
    RETURN_IF_ERROR(ReadDieBody(reader, unit, code, unit.first_die, die));
    // The bases first: strings and addresses before them may need them.
    // Each attribute's first occurrence, as everywhere (see ReadAbbrevTable).
    if (const AttributeValue* value = die.Find(kAtStrOffsetsBase)) {
      unit.str_offsets_base = SectionOffset(*value);
    }
    if (const AttributeValue* value = die.Find(kAtAddrBase)) unit.addr_base = SectionOffset(*value);
    if (const AttributeValue* value = die.Find(kAtRnglistsBase)) {
      unit.rnglists_base = SectionOffset(*value);
    }
    if (const AttributeValue* value = die.Find(kAtStmtList)) unit.stmt_list = SectionOffset(*value);
    if (const AttributeValue* comp_dir = die.Find(kAtCompDir)) {
      unit.comp_dir = String(unit, *comp_dir).value_or("");
    }
    if (const AttributeValue* low = die.Find(kAtLowPc)) {
      unit.base_address = Address(unit, *low).value_or(0);
    }
    std::vector<AddressRange> unit_die_ranges;
    RETURN_IF_ERROR(DieRanges(unit, die, unit_die_ranges));
    for (const AddressRange& range : unit_die_ranges) {
      unit_ranges.push_back({range.begin, range.end, units.size()});
    }
    return OkStatus();
  }

  // Where ranges of units overlap, the first unit wins, as LLVM's aranges do.
  void IndexUnitRanges() {
    struct Edge {
      uint64_t address;
      bool opens;
      size_t unit;
    };
    std::vector<Edge> edges;
    for (const UnitRange& range : unit_ranges) {
      edges.push_back({range.begin, true, range.unit});
      edges.push_back({range.end, false, range.unit});
    }
    std::sort(edges.begin(), edges.end(),
              [](const Edge& a, const Edge& b) { return a.address < b.address; });
    std::multiset<size_t> open;
    std::vector<UnitRange> disjoint;
    std::optional<size_t> owner;  // of the stretch from `owned_since`
    uint64_t owned_since = 0;
    for (size_t i = 0; i < edges.size();) {
      uint64_t address = edges[i].address;
      for (; i < edges.size() && edges[i].address == address; ++i) {
        if (edges[i].opens) {
          open.insert(edges[i].unit);
        } else {
          open.erase(open.find(edges[i].unit));
        }
      }
      std::optional<size_t> next_owner;
      if (!open.empty()) next_owner = *open.begin();
      if (next_owner == owner) continue;
      if (owner) disjoint.push_back({owned_since, address, *owner});
      owner = next_owner;
      owned_since = address;
    }
    unit_ranges = std::move(disjoint);
  }

  const Unit* UnitForAddress(uint64_t address, size_t* index) const {
    auto it = std::upper_bound(unit_ranges.begin(), unit_ranges.end(), address,
                               [](uint64_t a, const UnitRange& range) { return a < range.begin; });
    if (it == unit_ranges.begin()) return nullptr;
    --it;
    if (address >= it->end) return nullptr;
    *index = it->unit;
    return &units[it->unit];
  }

  // Every subprogram and inlined subroutine with addresses, walking the DIE
  // tree without recursion.
  Status ReadFunctions(Unit& unit) {
    if (unit.functions_read) return unit.functions_status;
    Status status = WalkFunctions(unit);
    unit.functions_read = true;
    unit.functions_status = status;
    if (!status.ok()) {
      unit.functions = {};
      unit.function_map = {};
    }
    return status;
  }

  Status WalkFunctions(Unit& unit) {
    unit.functions.clear();
    unit.function_map.clear();
    ByteReader reader = UnitReader(unit);
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
      RETURN_IF_ERROR(ReadDieBody(reader, unit, code, die_offset, die));
      int32_t parent = enclosing.back();
      int32_t self = parent;
      if (die.tag == kTagSubprogram || die.tag == kTagInlinedSubroutine) {
        RETURN_IF_ERROR(DieRanges(unit, die, function_ranges));
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
        self = static_cast<int32_t>(unit.functions.size());
        unit.functions.push_back(entry);
        for (const AddressRange& range : function_ranges) AddToFunctionMap(unit, range, self);
      }
      if (die.has_children) {
        if (enclosing.size() > kMaxDieDepth) {
          return Corrupt(debug_info, "DIEs nest deeper than " + std::to_string(kMaxDieDepth),
                         die_offset);
        }
        enclosing.push_back(self);
      } else if (die_offset == unit.first_die) {
        break;  // a unit DIE without children
      }
    }
    return OkStatus();
  }

  // As LLVM's DWARFUnit::updateAddressDieMap: a child's range splits its parent's.
  static void AddToFunctionMap(Unit& unit, const AddressRange& range, int32_t entry) {
    auto& map = unit.function_map;
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

  int32_t FunctionAt(const Unit& unit, uint64_t address) const {
    auto after = unit.function_map.upper_bound(address);
    if (after == unit.function_map.begin()) return -1;
    auto found = std::prev(after);
    if (address >= found->second.first) return -1;
    return static_cast<int32_t>(found->second.second);
  }

  // --- Line tables ---------------------------------------------------------

  Result<const LineTable*> Lines(const Unit& unit) {
    if (!unit.stmt_list || !debug_line.present) return nullptr;
    auto [slot, added] = line_tables.try_emplace(*unit.stmt_list);
    if (added) {
      auto table = std::make_unique<LineTable>();
      table->str_offsets_base = unit.str_offsets_base;
      slot->second.status = InSection(debug_line, ReadLineTable(unit, *unit.stmt_list, *table));
      if (slot->second.status.ok()) slot->second.table = std::move(table);
    }
    if (!slot->second.status.ok()) return slot->second.status;
    return slot->second.table.get();
  }

  // A directory or file entry's fields, as DW_LNCT_* (content, form) pairs.
  Status ReadEntryFormat(ByteReader& reader, std::vector<AttributeSpec>& format) const {
    uint8_t count;
    ASSIGN_OR_RETURN(count, reader.ReadU8());
    for (uint8_t i = 0; i < count; ++i) {
      AttributeSpec spec;
      ASSIGN_OR_RETURN(spec.attribute, ReadUleb128(reader));
      ASSIGN_OR_RETURN(spec.form, ReadUleb128(reader));
      if (spec.form == kFormImplicitConst) {
        return CorruptHere(debug_line, "a line table entry format uses DW_FORM_implicit_const",
                           reader);
      }
      format.push_back(spec);
    }
    return OkStatus();
  }

  Status ReadEntries(ByteReader& reader, const Unit& unit, ByteSpan table_bytes, bool directories,
                     LineTable& table) const {
    std::vector<AttributeSpec> format;
    RETURN_IF_ERROR(ReadEntryFormat(reader, format));
    uint64_t count;
    ASSIGN_OR_RETURN(count, ReadUleb128(reader));
    // Each entry takes a byte at least, unless it has no fields at all.
    if (count > reader.remaining() || (format.empty() && count > 0)) {
      return CorruptHere(
          debug_line, "a line table header claims " + std::to_string(count) + " entries", reader);
    }
    FormSource source{&debug_line, table_bytes, unit.address_size, unit.version};
    for (uint64_t i = 0; i < count; ++i) {
      FileEntry entry;
      for (const AttributeSpec& spec : format) {
        AttributeValue value;
        RETURN_IF_ERROR(ReadForm(reader, source, spec, value));
        if (spec.attribute == kLnctPath) entry.name = value;
        if (spec.attribute == kLnctDirectoryIndex) {
          entry.directory = UnsignedConstant(value).value_or(0);
        }
      }
      if (directories) {
        table.directories.push_back(entry.name);
      } else {
        table.files.push_back(entry);
      }
    }
    return OkStatus();
  }

  Status ReadLineTable(const Unit& unit, uint64_t offset, LineTable& table) {
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
    if (4 + uint64_t{length} > line_budget) {
      return Status(ErrorCode::kLimitExceeded,
                    "__debug_line: the units' line tables add up to more than " +
                        std::to_string(kLineBytesPerByte) + " times the section's " +
                        std::to_string(debug_line.bytes.size()) + " bytes (plus " +
                        std::to_string(kLineBytesSlack) + "): tables lie inside one another")
          .WithOffset(debug_line.file_offset + offset);
    }
    line_budget -= 4 + uint64_t{length};
    ByteSpan bytes = debug_line.bytes.subspan(static_cast<size_t>(offset), 4 + size_t{length});
    ByteReader reader(bytes, debug_line.file_offset + offset);
    RETURN_IF_ERROR(reader.Skip(4));
    ASSIGN_OR_RETURN(table.version, reader.ReadU16Le());
    if (table.version < 2 || table.version > 5) {
      return Corrupt(debug_line,
                     "line table version " + std::to_string(table.version) + " is not 2 to 5",
                     offset + 4);
    }
    // DW_LNE_set_address's own length gives its address's size.
    if (table.version >= 5) RETURN_IF_ERROR(reader.Skip(2));  // address, segment selector sizes
    uint32_t header_length;
    ASSIGN_OR_RETURN(header_length, reader.ReadU32Le());
    if (header_length > reader.remaining()) {
      return Corrupt(debug_line,
                     "line table header length " + std::to_string(header_length) +
                         " runs past the table's end",
                     reader.absolute_offset() - debug_line.file_offset - 4);
    }
    size_t program_start = reader.position() + header_length;
    ByteSpan header_bytes = bytes.first(program_start);
    ByteReader header(header_bytes, debug_line.file_offset + offset);
    RETURN_IF_ERROR(header.Seek(reader.position()));
    uint8_t min_instruction_length, line_range, opcode_base;
    int8_t line_base;
    ASSIGN_OR_RETURN(min_instruction_length, header.ReadU8());
    if (table.version >= 4) RETURN_IF_ERROR(header.Skip(1));  // maximum_operations_per_instruction
    RETURN_IF_ERROR(header.Skip(1));  // default_is_stmt: all rows count, as for LLVM
    ASSIGN_OR_RETURN(uint8_t line_base_byte, header.ReadU8());
    line_base = static_cast<int8_t>(line_base_byte);
    ASSIGN_OR_RETURN(line_range, header.ReadU8());
    ASSIGN_OR_RETURN(opcode_base, header.ReadU8());
    std::vector<uint8_t> standard_lengths;
    for (int opcode = 1; opcode < opcode_base; ++opcode) {
      ASSIGN_OR_RETURN(uint8_t length_of_opcode, header.ReadU8());
      standard_lengths.push_back(length_of_opcode);
    }
    if (table.version >= 5) {
      RETURN_IF_ERROR(ReadEntries(header, unit, header_bytes, /*directories=*/true, table));
      RETURN_IF_ERROR(ReadEntries(header, unit, header_bytes, /*directories=*/false, table));
    } else {
      for (;;) {
        ASSIGN_OR_RETURN(std::string_view directory, ReadCString(header, header_bytes));
        if (directory.empty()) break;
        table.directories.push_back(InlineString(directory));
      }
      for (;;) {
        ASSIGN_OR_RETURN(std::string_view name, ReadCString(header, header_bytes));
        if (name.empty()) break;
        FileEntry entry;
        entry.name = InlineString(name);
        ASSIGN_OR_RETURN(entry.directory, ReadUleb128(header));
        RETURN_IF_ERROR(ReadUleb128(header).status());  // modification time
        RETURN_IF_ERROR(ReadUleb128(header).status());  // length
        table.files.push_back(entry);
      }
    }
    RETURN_IF_ERROR(reader.Seek(program_start));
    return RunLineProgram(reader, bytes, min_instruction_length, line_base, line_range, opcode_base,
                          standard_lengths, table);
  }

  Status RunLineProgram(ByteReader& reader, ByteSpan bytes, uint8_t min_instruction_length,
                        int8_t line_base, uint8_t line_range, uint8_t opcode_base,
                        const std::vector<uint8_t>& standard_lengths, LineTable& table) const {
    LineRow row;
    auto reset = [&row]() {
      row = LineRow();
      row.line = 1;
      row.file = 1;
    };
    reset();
    bool in_sequence = false;
    size_t sequence_start = 0;  // the row that began the sequence
    auto append = [&](bool end_sequence) {
      if (!in_sequence) {
        in_sequence = true;
        sequence_start = table.rows.size();
      }
      table.rows.push_back(row);
      if (end_sequence) {
        LineSequence sequence;
        sequence.low = table.rows[sequence_start].address;
        sequence.high = row.address;
        sequence.first_row = sequence_start;
        sequence.last_row = table.rows.size();
        if (sequence.low < sequence.high) table.sequences.push_back(sequence);
        in_sequence = false;
      }
    };
    auto special_advance = [&](uint8_t opcode) -> Result<uint64_t> {
      if (line_range == 0) {
        return CorruptHere(debug_line, "a special opcode in a line table whose line_range is 0",
                           reader);
      }
      return uint64_t{static_cast<uint8_t>(opcode - opcode_base)} / line_range *
             min_instruction_length;
    };
    while (reader.remaining() > 0) {
      uint8_t opcode;
      ASSIGN_OR_RETURN(opcode, reader.ReadU8());
      if (opcode != 0 && opcode >= opcode_base) {
        uint64_t advance;
        ASSIGN_OR_RETURN(advance, special_advance(opcode));
        row.address += advance;
        row.line += static_cast<uint32_t>(
            line_base + static_cast<int>(static_cast<uint8_t>(opcode - opcode_base) % line_range));
        append(false);
        continue;
      }
      switch (opcode) {
        case 0: {
          uint64_t length;
          ASSIGN_OR_RETURN(length, ReadUleb128(reader));
          if (length == 0 || length > reader.remaining()) {
            return CorruptHere(
                debug_line, "an extended line opcode claims " + std::to_string(length) + " bytes",
                reader);
          }
          size_t end = reader.position() + static_cast<size_t>(length);
          uint8_t sub_opcode;
          ASSIGN_OR_RETURN(sub_opcode, reader.ReadU8());
          if (sub_opcode == kLneEndSequence) {
            append(true);
            reset();
          } else if (sub_opcode == kLneSetAddress) {
            size_t width = static_cast<size_t>(length - 1);
            if (width == 0 || width > 8) {
              return CorruptHere(
                  debug_line,
                  "DW_LNE_set_address with a " + std::to_string(width) + "-byte address", reader);
            }
            ASSIGN_OR_RETURN(row.address, reader.ReadUIntLe(width));
          } else if (sub_opcode == kLneDefineFile && table.version <= 4) {
            FileEntry entry;
            ASSIGN_OR_RETURN(std::string_view name, ReadCString(reader, bytes));
            entry.name = InlineString(name);
            ASSIGN_OR_RETURN(entry.directory, ReadUleb128(reader));
            table.files.push_back(entry);
          }
          // Others (set_discriminator, vendor ones) change nothing read here.
          RETURN_IF_ERROR(reader.Seek(end));
          break;
        }
        case kLnsCopy: append(false); break;
        case kLnsAdvancePc: {
          uint64_t operand;
          ASSIGN_OR_RETURN(operand, ReadUleb128(reader));
          row.address += operand * min_instruction_length;
          break;
        }
        case kLnsAdvanceLine: {
          int64_t delta;
          ASSIGN_OR_RETURN(delta, ReadSleb128(reader));
          row.line += static_cast<uint32_t>(delta);
          break;
        }
        case kLnsSetFile: {
          uint64_t file;
          ASSIGN_OR_RETURN(file, ReadUleb128(reader));
          row.file = static_cast<uint16_t>(file);
          break;
        }
        case kLnsSetColumn: {
          uint64_t column;
          ASSIGN_OR_RETURN(column, ReadUleb128(reader));
          row.column = static_cast<uint16_t>(column);
          break;
        }
        case kLnsNegateStmt:
        case kLnsSetBasicBlock:
        case kLnsSetPrologueEnd:
        case kLnsSetEpilogueBegin: break;
        case kLnsConstAddPc: {
          uint64_t advance;
          ASSIGN_OR_RETURN(advance, special_advance(255));
          row.address += advance;
          break;
        }
        case kLnsFixedAdvancePc: {
          uint16_t advance;
          ASSIGN_OR_RETURN(advance, reader.ReadU16Le());
          row.address += advance;
          break;
        }
        case kLnsSetIsa: RETURN_IF_ERROR(ReadUleb128(reader).status()); break;
        default:
          // An opcode this reader does not know: the header says how many
          // ULEB128 operands to skip.
          for (uint8_t i = 0; i < standard_lengths[opcode - 1]; ++i) {
            RETURN_IF_ERROR(ReadUleb128(reader).status());
          }
          break;
      }
    }
    std::sort(table.sequences.begin(), table.sequences.end(),
              [](const LineSequence& a, const LineSequence& b) { return a.low < b.low; });
    return OkStatus();
  }

  // As LLVM: the row with the greatest address ≤ `address` in the sequence
  // that holds it.
  static const LineRow* RowFor(const LineTable& table, uint64_t address) {
    auto sequence = std::upper_bound(table.sequences.begin(), table.sequences.end(), address,
                                     [](uint64_t a, const LineSequence& s) { return a < s.high; });
    if (sequence == table.sequences.end() || address < sequence->low) return nullptr;
    auto first = table.rows.begin() + static_cast<ptrdiff_t>(sequence->first_row);
    auto last = table.rows.begin() + static_cast<ptrdiff_t>(sequence->last_row);
    auto row = std::upper_bound(first + 1, last - 1, address,
                                [](uint64_t a, const LineRow& r) { return a < r.address; });
    return &*std::prev(row);
  }

  // A file's full path as LLVM's getFileNameByIndex builds it (absolute
  // kind): comp_dir, then the include directory unless absolute, then the name.
  std::optional<std::string> FilePath(const LineTable& table, uint64_t index,
                                      std::string_view comp_dir) const {
    const FileEntry* entry = nullptr;
    if (table.version >= 5) {
      if (index < table.files.size()) entry = &table.files[index];
    } else if (index != 0 && index <= table.files.size()) {
      entry = &table.files[index - 1];
    }
    if (!entry) return std::nullopt;
    std::optional<std::string_view> read_name = String(table.str_offsets_base, entry->name);
    if (!read_name) return std::nullopt;
    std::string_view name = *read_name;
    if (!name.empty() && name.front() == '/') return std::string(name);
    const AttributeValue* directory_name = nullptr;
    if (table.version >= 5) {
      if (entry->directory < table.directories.size()) {
        directory_name = &table.directories[entry->directory];
      }
    } else if (entry->directory != 0 && entry->directory <= table.directories.size()) {
      directory_name = &table.directories[entry->directory - 1];
    }
    std::string_view directory;
    if (directory_name) directory = String(table.str_offsets_base, *directory_name).value_or("");
    std::string path;
    if (!comp_dir.empty() && (directory.empty() || directory.front() != '/')) {
      AppendPath(path, comp_dir);
    }
    AppendPath(path, directory);
    AppendPath(path, name);
    return path;
  }

  // llvm::sys::path::append, POSIX style: one '/' between components.
  static void AppendPath(std::string& path, std::string_view component) {
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

  // --- Names of functions --------------------------------------------------

  struct FunctionDescription {
    std::string name;
    std::string file;
    uint32_t line = 0;
  };

  // The name, declaration file and line of the function a DIE is, following
  // DW_AT_abstract_origin and DW_AT_specification as LLVM's findRecursively
  // does (a worklist, last pushed first, each DIE once).
  Result<FunctionDescription> Describe(uint64_t die_offset) {
    std::vector<uint64_t> worklist = {die_offset};
    std::vector<uint64_t> seen;
    std::optional<std::string_view> linkage_name, name;
    bool linkage_found = false, name_found = false;
    std::optional<std::pair<size_t, uint64_t>> decl_file;  // (unit, index)
    std::optional<uint64_t> decl_line;
    bool decl_file_found = false, decl_line_found = false;
    while (!worklist.empty() && seen.size() < kMaxOriginDies) {
      uint64_t offset = worklist.back();
      worklist.pop_back();
      if (std::find(seen.begin(), seen.end(), offset) != seen.end()) continue;
      seen.push_back(offset);
      size_t unit_index = 0;
      std::optional<Die> die;
      ASSIGN_OR_RETURN(die, DieAt(offset, &unit_index));
      if (!die) continue;
      const Unit& unit = units[unit_index];
      std::optional<uint64_t> origin, specification;
      for (const AttributeValue& value : die->attributes) {
        if (!linkage_found &&
            (value.attribute == kAtLinkageName || value.attribute == kAtMipsLinkageName)) {
          linkage_found = true;
          linkage_name = String(unit, value);
        }
        if (!name_found && value.attribute == kAtName) {
          name_found = true;
          name = String(unit, value);
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
    std::optional<std::string_view> chosen = linkage_name ? linkage_name : name;
    // The linkage name, mangled as it is: frame names are demangled later.
    if (chosen) description.name = std::string(*chosen);
    if (decl_file) {
      Unit& unit = units[decl_file->first];
      const LineTable* table;
      ASSIGN_OR_RETURN(table, Lines(unit));
      if (table) {
        description.file = FilePath(*table, decl_file->second, unit.comp_dir).value_or("");
      }
    }
    description.line = static_cast<uint32_t>(decl_line.value_or(0));
    return description;
  }

  Result<std::vector<SourceFrame>> Lookup(uint64_t address) {
    std::vector<SourceFrame> frames;
    size_t unit_index = 0;
    if (!UnitForAddress(address, &unit_index)) return frames;
    Unit& unit = units[unit_index];
    RETURN_IF_ERROR(ReadFunctions(unit));
    std::vector<const FunctionEntry*> chain;
    for (int32_t entry = FunctionAt(unit, address); entry >= 0;) {
      const FunctionEntry& function = unit.functions[static_cast<size_t>(entry)];
      chain.push_back(&function);
      if (function.tag == kTagSubprogram) break;
      entry = function.parent;
    }
    const LineTable* table;
    ASSIGN_OR_RETURN(table, Lines(unit));
    // The innermost frame's position: from the line table's row.
    SourceFrame innermost;
    if (table) {
      if (const LineRow* row = RowFor(*table, address)) {
        if (std::optional<std::string> path = FilePath(*table, row->file, unit.comp_dir)) {
          innermost.file = std::move(*path);
          innermost.line = row->line;
          innermost.column = row->column;
        }
      }
    }
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
        if (table) frame.file = FilePath(*table, callee.call_file, unit.comp_dir).value_or("");
        frame.line = callee.call_line;
        frame.column = callee.call_column;
      }
      FunctionDescription description;
      ASSIGN_OR_RETURN(description, Describe(chain[i]->die_offset));
      frame.function = std::move(description.name);
      frame.function_file = std::move(description.file);
      frame.function_line = description.line;
      text_bytes += frame.function.size() + frame.function_file.size() + frame.file.size();
      if (text_bytes > kLookupTextBytes || text_bytes > text_budget) {
        return Status(ErrorCode::kLimitExceeded,
                      "__debug_info: the names and paths of the frames at " + HexAddress(address) +
                          " add up to more than " +
                          std::to_string(std::min(kLookupTextBytes, text_budget)) +
                          " bytes (at most " + std::to_string(kLookupTextBytes) +
                          " per address, and " + std::to_string(kTextBytesPerByte) +
                          " times the DWARF sections' bytes plus " +
                          std::to_string(kTextBytesSlack) + " in all)")
            .WithOffset(debug_info.file_offset + chain[i]->die_offset);
      }
      frames.push_back(std::move(frame));
    }
    text_budget -= text_bytes;
    return frames;
  }
};

DebugInfo::DebugInfo(std::unique_ptr<State> state) : state_(std::move(state)) {}
DebugInfo::DebugInfo(DebugInfo&&) noexcept = default;
DebugInfo& DebugInfo::operator=(DebugInfo&&) noexcept = default;
DebugInfo::~DebugInfo() = default;

Result<DebugInfo> DebugInfo::Read(const macho::Image& image) {
  auto state = std::make_unique<State>();
  struct Wanted {
    Section* section;
    const char* name;  // Mach-O keeps 16 characters of a section's name
  };
  for (Wanted wanted :
       {Wanted{&state->debug_info, "__debug_info"}, Wanted{&state->debug_abbrev, "__debug_abbrev"},
        Wanted{&state->debug_line, "__debug_line"}, Wanted{&state->debug_str, "__debug_str"},
        Wanted{&state->debug_str_offsets, "__debug_str_offs"},
        Wanted{&state->debug_addr, "__debug_addr"},
        Wanted{&state->debug_line_str, "__debug_line_str"},
        Wanted{&state->debug_ranges, "__debug_ranges"},
        Wanted{&state->debug_rnglists, "__debug_rnglists"}}) {
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
  if (state->debug_info.present) {
    if (!state->debug_abbrev.present) {
      return Status(ErrorCode::kMachOCorrupt, "__debug_info without __debug_abbrev")
          .WithOffset(state->debug_info.file_offset);
    }
    state->abbrev_budget =
        kAbbrevBytesPerByte * state->debug_abbrev.bytes.size() + kAbbrevBytesSlack;
    state->range_budget = kRangeEntriesPerByte * (uint64_t{state->debug_info.bytes.size()} +
                                                  state->debug_ranges.bytes.size() +
                                                  state->debug_rnglists.bytes.size()) +
                          kRangeEntriesSlack;
    state->line_budget = kLineBytesPerByte * state->debug_line.bytes.size() + kLineBytesSlack;
    uint64_t section_bytes = 0;
    for (const Section* section :
         {&state->debug_info, &state->debug_abbrev, &state->debug_line, &state->debug_str,
          &state->debug_str_offsets, &state->debug_addr, &state->debug_line_str,
          &state->debug_ranges, &state->debug_rnglists}) {
      section_bytes += section->bytes.size();
    }
    state->text_budget = kTextBytesPerByte * section_bytes + kTextBytesSlack;
    RETURN_IF_ERROR(InSection(state->debug_info, state->ReadUnits()));
    state->IndexUnitRanges();
  }
  return DebugInfo(std::move(state));
}

bool DebugInfo::has_units() const {
  return !state_->units.empty();
}

Result<std::vector<SourceFrame>> DebugInfo::Lookup(uint64_t address) {
  return state_->Lookup(address);
}

}  // namespace instrumentscope::dwarf
