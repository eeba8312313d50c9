// The backtraces of corespace runs: a row's stack reference (XRBacktraceTypeID)
// names an array of the run's uniquer whose elements are parts, each
// `process reference << 32 | frames array`; the frames arrays, concatenated,
// are return addresses leaf first (FORMAT.md, "Array uniquer"). Each stack is
// interned once per run. Legacy runs' backtraces are the run archive's
// (legacy_runs.cc).
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STACKS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STACKS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "base/integer_map.h"
#include "base/status.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/frames.h"
#include "formats/trace_bundle/tables.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

// The stack reference of a row without a backtrace.
inline constexpr uint64_t kNoStack = 0xFFFFFFFF;

class CoreStacks {
 public:
  // `details`: form.template's for the run (null without one), which says
  // where a process's symbols are.
  CoreStacks(uint32_t run, RunReferences& references, const RunDetails* details, FrameNamer& frames,
             ProfileBuilder& builder, uint64_t max_frames)
      : run_(run),
        references_(references),
        details_(details),
        frames_(frames),
        builder_(builder),
        max_frames_(max_frames) {}

  Result<StackId> Stack(uint64_t stack_ref);
  // The stack of a reference Stack() has made before, else nullopt.
  std::optional<StackId> Known(uint64_t stack_ref) const {
    if (stack_ref == kNoStack) return kEmptyStack;
    uint32_t known = stack_index_.Find(stack_ref);
    return known == IntegerMap::kNoValue ? std::nullopt : std::optional<StackId>(stacks_[known]);
  }

 private:
  // The stack of a stack's root-side part, below a leaf frame.
  struct RootPart {
    StackId stack;
    uint64_t addresses;  // in the part, for the depth limit
  };

  // The frames cache of the process of a stack's parts.
  Result<FrameNamer::Process*> ProcessOf(uint64_t process_ref);
  // Appends the frames of addresses_[first…] (leaf first) to `frames`.
  void AppendFrames(FrameNamer::Process& process, size_t first, std::vector<FrameId>* frames);
  // The stack below leaf_frames_ of the root-side part `part`; when there
  // are no leaf frames, the part's frames become them.
  Result<StackId> RootStack(FrameNamer::Process& process, const Uniquer& arrays, uint64_t part);
  // A depth limit reached while reading arrays, said as the frame limit.
  Status TooDeep(const Status& status) const;
  // Keeps `stack` as the stack of `stack_ref`, and returns it.
  StackId Remember(uint64_t stack_ref, StackId stack) {
    stack_index_.Insert(stack_ref, static_cast<uint32_t>(stacks_.size()));
    stacks_.push_back(stack);
    return stack;
  }

  uint32_t run_;
  RunReferences& references_;
  const RunDetails* details_;
  FrameNamer& frames_;
  ProfileBuilder& builder_;
  uint64_t max_frames_;
  // Flat maps, not std::unordered_map: every row asks for its stack.
  IntegerMap stack_index_;       // stack ref → its index in stacks_
  std::vector<StackId> stacks_;  // kEmptyStack too, which IntegerMap cannot hold
  IntegerMap root_part_index_;   // a stack's last part → its index in root_parts_
  std::vector<RootPart> root_parts_;
  // Scratch, kept to avoid allocations per stack.
  std::vector<uint64_t> parts_;
  std::vector<uint64_t> addresses_;
  std::vector<FrameId> leaf_frames_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STACKS_H_
