#include "formats/trace_bundle/bundle_context.h"

namespace instrumentscope::trace_bundle {

CoreRunState::CoreRunState(BundleContext& bundle, const CoreRun& run)
    : references(bundle.files, bundle.left_out, run),
      stacks(run.number, references, bundle.Details(run.number), bundle.frames, bundle.builder,
             bundle.options.limits.max_frames_per_stack) {}

const RunDetails* BundleContext::Details(uint32_t run) const {
  const std::optional<FormTemplate>& read = *form_of_;
  if (!read) return nullptr;
  auto entry = read->runs.find(run);
  return entry == read->runs.end() ? nullptr : &entry->second;
}

CoreRunState& BundleContext::Run(const CoreRun& run) {
  auto entry = runs_.find(run.number);
  if (entry == runs_.end()) {
    entry = runs_
                .emplace(std::piecewise_construct, std::forward_as_tuple(run.number),
                         std::forward_as_tuple(*this, run))
                .first;
  }
  return entry->second;
}

void BundleContext::CopyRun(const CoreRun& run, const BundleContext& whole) {
  auto from = whole.runs_.find(run.number);
  if (from == whole.runs_.end()) return;
  CoreRunState& to = Run(run);
  to.names = from->second.names;
  to.references.CopyReadFrom(from->second.references);
  to.messages_unreadable = from->second.messages_unreadable;
}

}  // namespace instrumentscope::trace_bundle
