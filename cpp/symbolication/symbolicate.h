// Names the frames a trace left unnamed (an address, maybe an image) from the
// user's own binaries and dSYMs. Images are matched by UUID, else by name
// with a warning; addresses are slid by the image's load address; callers are
// looked up at their return address − 1, inside the call. Inlined calls become
// frames of their own. Names the trace had are never replaced.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_SYMBOLICATE_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_SYMBOLICATE_H_

#include "base/status.h"
#include "model/profile.h"
#include "symbolication/symbol_files.h"

namespace instrumentscope {

// Rewrites the group's frames and stacks, remaps its samples, and fills
// group->symbolication. Warns which images stayed unnamed and which files
// matched nothing. With `lines`, a frame is a function at one source line
// (ImportOptions::symbol_lines). Fails on damaged DWARF met while looking
// up, and past `max_stack_nodes` (inlined calls add stack nodes).
Status Symbolicate(SymbolFiles& files, ProfileGroup* group, bool lines, uint64_t max_stack_nodes);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_SYMBOLICATE_H_
