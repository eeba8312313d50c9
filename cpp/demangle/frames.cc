#include "demangle/frames.h"

#include <string>
#include <unordered_map>

#include "demangle/demangle.h"

namespace instrumentscope::demangle {

void DemangleFrameNames(ProfileGroup* group, Style style) {
  // Frames are interned by name and image, so a name repeats only across
  // images: readable forms are kept per name, computed once.
  std::unordered_map<std::string, std::optional<std::string>> readable;
  for (Frame& frame : group->frames) {
    if (!MayBeMangled(frame.name)) continue;
    auto [entry, inserted] = readable.try_emplace(frame.name);
    if (inserted) entry->second = Demangle(frame.name, style);
    if (entry->second) frame.name = *entry->second;
  }
}

}  // namespace instrumentscope::demangle
