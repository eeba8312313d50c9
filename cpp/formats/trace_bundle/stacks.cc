#include "formats/trace_bundle/stacks.h"

namespace instrumentscope::trace_bundle {

Result<StackId> CoreStacks::Stack(uint64_t stack_ref) {
  if (std::optional<StackId> known = Known(stack_ref)) return *known;

  const Uniquer* arrays;
  ASSIGN_OR_RETURN(arrays, references_.Arrays());
  parts_.clear();
  Status read = arrays->AppendArray(stack_ref, &parts_, max_frames_);
  if (!read.ok()) return TooDeep(read);
  if (parts_.empty()) return Remember(stack_ref, kEmptyStack);
  FrameNamer::Process* process;
  ASSIGN_OR_RETURN(process, ProcessOf(parts_.back() >> 32));
  // The parts list addresses leaf first. The root-side part is shared by
  // many stacks (IvanCaldwell: 29k of them under 184k stacks): below a leaf
  // frame, its stack is interned once and reused.
  addresses_.clear();
  for (size_t i = 0; i + 1 < parts_.size(); ++i) {
    read =
        arrays->AppendArray(parts_[i] & 0xFFFFFFFF, &addresses_, max_frames_ - addresses_.size());
    if (!read.ok()) return TooDeep(read);
  }
  leaf_frames_.clear();
  AppendFrames(*process, 0, &leaf_frames_);
  StackId root;
  ASSIGN_OR_RETURN(root, RootStack(*process, *arrays, parts_.back()));
  return Remember(stack_ref, builder_.InternFrames(root, leaf_frames_));
}

Result<FrameNamer::Process*> CoreStacks::ProcessOf(uint64_t process_ref) {
  // Symbols: in form.template up to Instruments 11, in symbols/ placed by
  // the process's image list from Instruments 12 on.
  int64_t pid = -1;
  ProcessSymbols symbols;
  if (details_) {
    ASSIGN_OR_RETURN(pid, references_.ProcessId(process_ref));
    symbols = FrameNamer::CoreSymbols(details_, pid);
  }
  return &frames_.ProcessOf(run_, pid, symbols);
}

void CoreStacks::AppendFrames(FrameNamer::Process& process, size_t first,
                              std::vector<FrameId>* frames) {
  for (size_t i = first; i < addresses_.size(); ++i) {
    uint64_t address = addresses_[i];
    if (address == kNoAddress || address == kUnknownAddress) continue;
    bool caller = !leaf_frames_.empty() || !frames->empty();
    frames->push_back(frames_.Frame(process, address, caller));
  }
}

Result<StackId> CoreStacks::RootStack(FrameNamer::Process& process, const Uniquer& arrays,
                                      uint64_t part) {
  if (!leaf_frames_.empty()) {
    uint32_t found = root_part_index_.Find(part);
    if (found != IntegerMap::kNoValue &&
        root_parts_[found].addresses <= max_frames_ - addresses_.size()) {
      return root_parts_[found].stack;
    }
  }
  size_t leaf_side = addresses_.size();
  Status read = arrays.AppendArray(part & 0xFFFFFFFF, &addresses_, max_frames_ - leaf_side);
  if (!read.ok()) return TooDeep(read);
  if (leaf_frames_.empty()) {
    // No leaf above this part: its first frame is the leaf, and it is named as one.
    AppendFrames(process, leaf_side, &leaf_frames_);
    return kEmptyStack;
  }
  std::vector<FrameId> root_frames;
  AppendFrames(process, leaf_side, &root_frames);
  StackId root = builder_.InternFrames(kEmptyStack, root_frames);
  if (root_part_index_.Insert(part, static_cast<uint32_t>(root_parts_.size())).second) {
    root_parts_.push_back(RootPart{root, addresses_.size() - leaf_side});
  }
  return root;
}

Status CoreStacks::TooDeep(const Status& status) const {
  if (status.code() != ErrorCode::kLimitExceeded) return status;
  return Status(ErrorCode::kLimitExceeded, "a backtrace has more than " +
                                               std::to_string(max_frames_) +
                                               " frames (limits.maxFramesPerStack)")
      .WithPath(status.path())
      .WithOffset(status.offset().value_or(0));
}

}  // namespace instrumentscope::trace_bundle
