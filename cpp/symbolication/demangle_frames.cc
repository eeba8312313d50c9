#include "symbolication/demangle_frames.h"

#include <string>
#include <unordered_map>

#include "demangle/demangle.h"

namespace instrumentscope {
namespace {

using demangle::Demangle;
using demangle::MayBeMangled;
using demangle::Style;

// Functions a folded body's full name lists; the others are counted.
constexpr size_t kFoldedListed = 3;

// Readable forms, each distinct name computed once: frames are interned by
// name and image, so a name repeats only across images and folded bodies.
class Names {
 public:
  explicit Names(Style style) : style_(style) {}

  void MakeReadable(std::string* name) {
    if (!MayBeMangled(*name)) return;
    auto [entry, inserted] = readable_.try_emplace(*name);
    if (inserted) entry->second = Demangle(*name, style_);
    if (entry->second) *name = *entry->second;
  }

 private:
  Style style_;
  std::unordered_map<std::string, std::optional<std::string>> readable_;
};

// "<deduplicated_symbol> (one of 2: argb32_image_mark_image |
// rgba32_image_mark_image)": in full, a folded body says what it may be.
std::string FoldedBodyName(const Frame& frame) {
  std::string name = frame.name + " (one of " + std::to_string(frame.folded.size()) + ": ";
  for (size_t i = 0; i < frame.folded.size() && i < kFoldedListed; ++i) {
    if (i > 0) name += " | ";
    name += frame.folded[i];
  }
  if (frame.folded.size() > kFoldedListed) name += " | …";
  return name + ")";
}

}  // namespace

void DemangleFrameNames(ProfileGroup* group, Style style) {
  Names names(style);
  for (Frame& frame : group->frames) {
    names.MakeReadable(&frame.name);
    if (frame.folded.empty()) continue;
    for (std::string& function : frame.folded) names.MakeReadable(&function);
    if (style == Style::kFull) frame.name = FoldedBodyName(frame);
  }
}

}  // namespace instrumentscope
