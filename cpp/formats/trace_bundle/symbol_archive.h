// Symbols of Instruments 12 and later: the archives in symbols/stores/
// (<UUID>.symbolsarchive, the functions a recording sampled in one image),
// placed at runtime addresses by the image lists (image_list.h). See
// FORMAT.md ("Symbols of Instruments 12 and later") for the layout,
// confirmed on Instruments 16.0 and 26.0.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOL_ARCHIVE_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOL_ARCHIVE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"
#include "model/profile.h"

namespace instrumentscope::trace_bundle {

using ImageUuid = instrumentscope::ImageUuid;

// Instruments' name for code the linker folded: identical functions made one
// body, which any of them may have been running.
inline constexpr std::string_view kFoldedBodyName = "<deduplicated_symbol>";

class SymbolArchive {
 public:
  // Fails with BUNDLE_CORRUPT (and the byte offset) on a damaged archive,
  // BUNDLE_UNSUPPORTED on a version other than 7.
  static Result<SymbolArchive> Parse(ByteSpan bytes);

  const ImageUuid& uuid() const { return uuid_; }
  struct Function {
    // The innermost inlined call at the offset, else the function, as the
    // archive spells it (mangled names stay mangled); empty for a function
    // Instruments could not name (the archive names it by its address).
    std::string_view name;
    uint32_t start = 0;  // the function's offset
    // A body the linker shared among identical functions: `name` is
    // kFoldedBodyName, and these are the functions it is, as spelled.
    const std::vector<std::string>* folded = nullptr;
  };
  // The function covering `offset` (from the image's __TEXT start); nullopt
  // between the functions the archive holds.
  std::optional<Function> Lookup(uint64_t offset) const;

 private:
  struct Range {
    uint32_t start = 0;
    uint32_t size = 0;
    std::string name;
    uint32_t first_child = 0;  // an index into inlines_, or kNone
    bool last_sibling = false;
    std::vector<std::string> folded;  // of a folded body: its functions
  };
  // The archive's string table, and where it starts in the archive.
  struct StringTable {
    ByteSpan bytes;
    uint64_t offset = 0;
    // The NUL-terminated string at byte `index`.
    Result<std::string_view> At(uint32_t index) const;
  };
  // `count` records of `record_size` bytes from `offset`: functions or inlines.
  static Status ReadRanges(ByteSpan bytes, const StringTable& strings, uint64_t offset,
                           uint32_t count, uint64_t record_size, std::vector<Range>* ranges);
  // Folded bodies take the functions that follow them in the archive.
  static void GatherFolded(std::vector<Range>* functions);

  ImageUuid uuid_{};
  std::vector<Range> functions_;  // sorted by start
  std::vector<Range> inlines_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOL_ARCHIVE_H_
