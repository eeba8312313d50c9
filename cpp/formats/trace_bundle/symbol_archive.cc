#include "formats/trace_bundle/symbol_archive.h"

#include <algorithm>
#include <cstring>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "base/identifiers.h"
#include "base/text.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr uint32_t kArchiveVersion = 7;
constexpr size_t kArchiveHeaderSize = 0x60;
constexpr size_t kUuidOffset = 0x34;
constexpr size_t kStringTableSizeOffset = 0x54;
constexpr uint64_t kSegmentSize = 32;
constexpr uint64_t kSectionSize = 24;
constexpr uint64_t kFunctionSize = 24;
constexpr uint64_t kInlineSize = 36;
constexpr uint64_t kLineSize = 20;
constexpr uint32_t kNone = 0xFFFFFFFF;
constexpr uint32_t kLastSiblingFlag = 0x40000000;
constexpr std::string_view kStubPrefix = "DYLD-STUB$$";

Status Corrupt(const std::string& message, size_t offset) {
  return Status(ErrorCode::kBundleCorrupt, message).WithOffset(offset);
}

}  // namespace

Result<std::string_view> SymbolArchive::StringTable::At(uint32_t index) const {
  if (index >= bytes.size()) return Corrupt("a symbol name lies beyond the string table", offset);
  const auto* start = reinterpret_cast<const char*>(bytes.data()) + index;
  const void* end = std::memchr(start, 0, bytes.size() - index);
  if (!end) return Corrupt("a symbol name runs past the string table", offset + index);
  return std::string_view(start, static_cast<const char*>(end) - start);
}

Status SymbolArchive::ReadRanges(ByteSpan bytes, const StringTable& strings, uint64_t offset,
                                 uint32_t count, uint64_t record_size, std::vector<Range>* ranges) {
  ByteReader reader(bytes);
  ranges->reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    RETURN_IF_ERROR(reader.Seek(offset + i * record_size));
    uint32_t flags, display, linkage;
    Range range;
    ASSIGN_OR_RETURN(range.start, reader.ReadU32Le());
    ASSIGN_OR_RETURN(range.size, reader.ReadU32Le());
    ASSIGN_OR_RETURN(flags, reader.ReadU32Le());
    ASSIGN_OR_RETURN(display, reader.ReadU32Le());
    ASSIGN_OR_RETURN(linkage, reader.ReadU32Le());
    ASSIGN_OR_RETURN(range.first_child, reader.ReadU32Le());
    range.last_sibling = (flags & kLastSiblingFlag) != 0;
    // The display name where the archive has one, else the linkage name as
    // the binary spells it (Swift, C++ and block names; demangled later).
    // Functions Instruments could not name are named by their address:
    // those stay unnamed here (index 0 is "MACH_HEADER": none).
    std::string_view name;
    ASSIGN_OR_RETURN(name, strings.At(display ? display : linkage));
    if (!ParseHexAddress(name)) range.name = std::string(name);
    // A stub's target is a linkage name too: without Mach-O's underscore,
    // "DYLD-STUB$$_memcpy" is Instruments' "DYLD-STUB$$memcpy".
    if (!display && StartsWith(range.name, kStubPrefix) &&
        range.name.compare(kStubPrefix.size(), 1, "_") == 0) {
      range.name.erase(kStubPrefix.size(), 1);
    }
    ranges->push_back(std::move(range));
  }
  return OkStatus();
}

Result<SymbolArchive> SymbolArchive::Parse(ByteSpan bytes) {
  ByteReader reader(bytes);
  uint32_t version;
  ASSIGN_OR_RETURN(version, reader.ReadU32Le());
  if (version != kArchiveVersion) {
    return Status(
               ErrorCode::kBundleUnsupported,
               "a symbol archive of version " + std::to_string(version) +
                   ", which this version does not read (it reads version 7): " + QuoteBytes(bytes))
        .WithOffset(0);
  }
  if (bytes.size() < kArchiveHeaderSize) return Corrupt("the symbol archive is cut short", 0);
  uint32_t size, segments, sections, functions, inlines, lines;
  ASSIGN_OR_RETURN(size, reader.ReadU32Le());
  ASSIGN_OR_RETURN(segments, reader.ReadU32Le());
  ASSIGN_OR_RETURN(sections, reader.ReadU32Le());
  ASSIGN_OR_RETURN(functions, reader.ReadU32Le());
  ASSIGN_OR_RETURN(inlines, reader.ReadU32Le());
  ASSIGN_OR_RETURN(lines, reader.ReadU32Le());
  if (size != bytes.size()) {
    return Corrupt("the symbol archive says it has " + std::to_string(size) + " bytes, not " +
                       std::to_string(bytes.size()),
                   4);
  }
  SymbolArchive archive;
  std::memcpy(archive.uuid_.data(), bytes.data() + kUuidOffset, archive.uuid_.size());
  RETURN_IF_ERROR(reader.Seek(kStringTableSizeOffset));
  uint32_t string_table_size;
  ASSIGN_OR_RETURN(string_table_size, reader.ReadU32Le());
  if (string_table_size > bytes.size() - kArchiveHeaderSize) {
    return Corrupt("the string table is larger than the archive", kStringTableSizeOffset);
  }
  // The tables follow the header; the string table ends the file.
  const uint64_t string_table_offset = bytes.size() - string_table_size;
  ByteSpan string_table(bytes.data() + string_table_offset, string_table_size);
  uint64_t functions_offset =
      kArchiveHeaderSize + segments * kSegmentSize + sections * kSectionSize;
  uint64_t inlines_offset = functions_offset + functions * kFunctionSize;
  uint64_t tables_end = inlines_offset + inlines * kInlineSize + lines * kLineSize;
  if (tables_end > string_table_offset) {
    return Corrupt("the symbol archive's tables overlap its string table", kArchiveHeaderSize);
  }

  StringTable strings{string_table, string_table_offset};
  RETURN_IF_ERROR(
      ReadRanges(bytes, strings, functions_offset, functions, kFunctionSize, &archive.functions_));
  RETURN_IF_ERROR(
      ReadRanges(bytes, strings, inlines_offset, inlines, kInlineSize, &archive.inlines_));
  GatherFolded(&archive.functions_);
  std::stable_sort(archive.functions_.begin(), archive.functions_.end(),
                   [](const Range& a, const Range& b) { return a.start < b.start; });
  return archive;
}

void SymbolArchive::GatherFolded(std::vector<Range>* functions) {
  // A folded body is listed first, then each function folded into it, at the
  // same start and size [26.0; both flagged 0x800, which is not needed to
  // tell them]: the body stays, its functions are its detail.
  std::vector<Range> kept;
  kept.reserve(functions->size());
  for (Range& function : *functions) {
    if (!kept.empty() && kept.back().name == kFoldedBodyName &&
        kept.back().start == function.start && kept.back().size == function.size) {
      // One Instruments could not name adds nothing to tell the body by.
      if (!function.name.empty()) kept.back().folded.push_back(std::move(function.name));
      continue;
    }
    kept.push_back(std::move(function));
  }
  *functions = std::move(kept);
}

std::optional<SymbolArchive::Function> SymbolArchive::Lookup(uint64_t offset) const {
  auto after =
      std::upper_bound(functions_.begin(), functions_.end(), offset,
                       [](uint64_t value, const Range& range) { return value < range.start; });
  if (after == functions_.begin()) return std::nullopt;
  const Range& function = *(after - 1);
  if (offset - function.start >= function.size) return std::nullopt;
  // Down the inlined calls: a range's children are the records from its
  // first child to the one flagged last. Each record is looked at once at
  // most, so a damaged (cyclic) tree still ends.
  std::string_view name = function.name;
  uint32_t child = function.first_child;
  size_t budget = inlines_.size();
  while (child != kNone && child < inlines_.size()) {
    const Range* hit = nullptr;
    for (uint32_t i = child; i < inlines_.size() && budget > 0; ++i) {
      --budget;
      const Range& range = inlines_[i];
      if (offset >= range.start && offset - range.start < range.size) {
        hit = &range;
        break;
      }
      if (range.last_sibling) break;
    }
    if (!hit) break;
    name = hit->name;
    child = hit->first_child;
  }
  const std::vector<std::string>* folded = function.folded.empty() ? nullptr : &function.folded;
  return Function{name, function.start, folded};
}

}  // namespace instrumentscope::trace_bundle
