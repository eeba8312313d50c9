// The images a process had loaded (Instruments 12 and later): from
// form.template, one "signature" blob per process (magic 0xFF01FF02) and,
// for the system libraries of the dyld shared cache, one blob per cache image
// placed at the cache's base in the process. They place the archives of
// symbols/stores/ at runtime addresses. See FORMAT.md ("Symbols of
// Instruments 12 and later") for the layouts and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_IMAGE_LIST_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_IMAGE_LIST_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"
#include "model/profile.h"

namespace instrumentscope::trace_bundle {

// One image of a process.
struct ProcessImage {
  ImageUuid uuid{};
  std::string path;
  uint64_t text_start = 0;  // the runtime __TEXT address: the image's load address
  uint64_t text_size = 0;
  bool unloaded = false;  // unloaded before the recording ended
};

// The dyld shared cache a process mapped, as its image list's trailer
// (0x00C0FFEE) names it.
struct SharedCacheMapping {
  ImageUuid uuid{};
  uint64_t base = 0;  // where the cache starts in the process
};

struct ImageList {
  std::vector<ProcessImage> images;
  // Absent when the list has no trailer or names no cache (the kernel's
  // holds a placeholder UUID).
  std::optional<SharedCacheMapping> shared_cache;
  // Why a trailer that is there was not read (a version not seen, with its
  // bytes); empty when it was read or there is none.
  std::string unread_trailer;
};

// Fails with BUNDLE_CORRUPT (and the byte offset) on a damaged list,
// BUNDLE_UNSUPPORTED on a list version not seen (naming it and its bytes).
Result<ImageList> ParseImageList(ByteSpan blob);

// The images of one shared cache, by their key in form.template (the
// offset of the image in the cache); each image's text_start is its __TEXT
// offset from the cache's start.
using SharedCacheImages = std::map<uint64_t, ProcessImage>;

// The shared cache's images at their runtime addresses in a process mapped
// at `base`: those of `loaded` (the keys the process lists), or all of them
// when it lists none. Images whose address would overflow are left out.
std::vector<ProcessImage> PlaceSharedCache(const SharedCacheImages& cache, uint64_t base,
                                           const std::vector<uint64_t>& loaded);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_IMAGE_LIST_H_
