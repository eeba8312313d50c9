// What the consumers of a bundle's tables share while it is imported: its
// files, what form.template says, each corespace run's references, names and
// stacks, the frames of every process, the parts left out, and the builder.
// Reads nothing itself.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_CONTEXT_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_CONTEXT_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "formats/importer.h"
#include "formats/trace_bundle/bundle_files.h"
#include "formats/trace_bundle/diagnostics.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/frames.h"
#include "formats/trace_bundle/stacks.h"
#include "formats/trace_bundle/tables.h"
#include "formats/trace_bundle/threads.h"
#include "model/profile_builder.h"

namespace instrumentscope::tables {
class RowObserver;
}

namespace instrumentscope::trace_bundle {

class BundleContext;

// One corespace run, as its tables are read. `stacks` refers to
// `references`: a state stays where it was made (BundleContext keeps them in
// a std::map, whose nodes never move).
struct CoreRunState {
  CoreRunState(BundleContext& bundle, const CoreRun& run);
  CoreRunState(const CoreRunState&) = delete;
  CoreRunState& operator=(const CoreRunState&) = delete;

  RunReferences references;
  tables::TableNames names;  // read before the samples, which take them
  CoreStacks stacks;
  bool messages_unreadable = false;  // and said so, once
};

class BundleContext {
 public:
  // `root`: the bundle's folder in the input, for warnings (diagnostics.h).
  BundleContext(BundleFiles& bundle_files, ProfileBuilder& profile_builder,
                const ImportOptions& import_options, std::string root)
      : files(bundle_files),
        builder(profile_builder),
        options(import_options),
        left_out(bundle_files, profile_builder, std::move(root)),
        frames(bundle_files, profile_builder, left_out) {}
  // The context of a part of the import a helper thread reads (tables_ahead.h):
  // `whole`'s options and form.template, its own files, builder, parts left
  // out and frames. Once `stop` is set, its reading of rows ends, failing.
  BundleContext(const BundleContext& whole, BundleFiles& bundle_files,
                ProfileBuilder& profile_builder, const std::atomic<bool>* stop)
      : files(bundle_files),
        builder(profile_builder),
        options(whole.options),
        left_out(bundle_files, profile_builder, whole.left_out.root()),
        frames(bundle_files, profile_builder, left_out),
        form_of_(&whole.form),
        stop_(stop) {}
  BundleContext(const BundleContext&) = delete;
  BundleContext& operator=(const BundleContext&) = delete;

  // form.template's details of a run; null without them.
  const RunDetails* Details(uint32_t run) const;
  // Once `form` is read: a run's stacks keep its details.
  CoreRunState& Run(const CoreRun& run);
  // Run `run` as `whole` holds it so far: its names, the references it has
  // read, whether its messages could not be.
  void CopyRun(const CoreRun& run, const BundleContext& whole);
  // Whether the import no longer needs this part (its `stop`).
  bool Stopped() const { return stop_ && stop_->load(std::memory_order_relaxed); }

  BundleFiles& files;
  ProfileBuilder& builder;
  const ImportOptions& options;
  std::optional<FormTemplate> form;
  LeftOutParts left_out;  // before `frames`, which warns through it
  FrameNamer frames;
  std::set<uint32_t> runs_with_samples;
  std::set<uint32_t> runs_with_intervals;
  // Rows of the tables of samples read that had no weight, or no thread.
  uint64_t sample_rows_without_weight = 0;
  uint64_t sample_rows_without_thread = 0;
  // Shown the rows of the tables read as intervals and as samples.
  tables::RowObserver* row_observer = nullptr;

 private:
  std::map<uint32_t, CoreRunState> runs_;
  const std::optional<FormTemplate>* form_of_ = &form;  // a part's is the whole's
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_CONTEXT_H_
