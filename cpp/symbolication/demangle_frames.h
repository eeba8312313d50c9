// The one place frame names are demangled, whatever the input: after import
// and symbolication, each distinct name once.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DEMANGLE_FRAMES_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DEMANGLE_FRAMES_H_

#include "demangle/style.h"
#include "model/profile.h"

namespace instrumentscope {

// Replaces every mangled frame name of the group with its readable form;
// names that are no mangling stay as they are. A folded body's functions
// (Frame::folded) are made readable too and, in the full style, added to
// its name: "<deduplicated_symbol> (one of 2: A | B)".
void DemangleFrameNames(ProfileGroup* group, demangle::Style style);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DEMANGLE_FRAMES_H_
