// A ProfileGroup as folded stacks ("root;caller;leaf weight"), one block per
// profile, lines sorted: the readable half of every golden test.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_FOLDED_STACKS_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_FOLDED_STACKS_H_

#include <string>

#include "model/profile.h"

namespace instrumentscope::speedscope {

std::string FoldedStacks(const ProfileGroup& group);

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_FOLDED_STACKS_H_
