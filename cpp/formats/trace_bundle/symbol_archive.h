// Symbols of Instruments 12 and later: the archives in symbols/stores/
// (<UUID>.symbolsarchive, the functions a recording sampled in one image)
// and, from form.template, the images each process had loaded, which place
// the archives at runtime addresses. See FORMAT.md ("Symbols of Instruments
// 12 and later") for the layouts, confirmed on Instruments 16.0.
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
#include "formats/names.h"
#include "model/profile.h"

namespace instrumentscope::trace_bundle {

using ImageUuid = instrumentscope::ImageUuid;

class SymbolArchive {
 public:
  // Fails with BUNDLE_CORRUPT (and the byte offset) on a damaged archive,
  // BUNDLE_UNSUPPORTED on a version other than 7.
  static Result<SymbolArchive> Parse(ByteSpan bytes);

  const ImageUuid& uuid() const { return uuid_; }
  // The name of the function covering `offset` (from the image's __TEXT
  // start): the innermost inlined call there, else the function; nullopt
  // between the functions the archive holds.
  std::optional<std::string_view> Lookup(uint64_t offset) const;

 private:
  struct Range {
    uint32_t start = 0;
    uint32_t size = 0;
    std::string name;
    uint32_t first_child = 0;  // an index into inlines_, or kNone
    bool last_sibling = false;
  };

  ImageUuid uuid_{};
  std::vector<Range> functions_;  // sorted by start
  std::vector<Range> inlines_;
};

// One image of a process, from the image list of form.template.
struct ProcessImage {
  ImageUuid uuid{};
  std::string path;
  uint64_t text_start = 0;  // the runtime __TEXT address: the image's load address
  uint64_t text_size = 0;
  bool unloaded = false;  // unloaded before the recording ended
};

// A process's image list (the "signature" blob, magic 0xFF01FF02).
Result<std::vector<ProcessImage>> ParseImageList(ByteSpan blob);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_SYMBOL_ARCHIVE_H_
