#include "formats/trace_bundle/time_profile.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/run_samples.h"

namespace instrumentscope::trace_bundle {
namespace {

// Reads the table's samples into `samples`; `events` gets the number of
// rows, once known.
Status ReadSamples(BundleContext& bundle, const Table& table, CoreRunState& run,
                   RunSamples* samples, std::optional<uint64_t>* events) {
  auto rows = ReadRows(bundle.files, table);
  if (!rows.ok()) return rows.status();
  const RowLayout& layout = rows->layout();
  BitSlot process = layout.Field("process"), weight = layout.Field("weight"),
          stack = layout.Field("stack");
  if (weight.width == 0 || stack.width == 0) {
    return Status(ErrorCode::kBundleUnsupported, "the time-profile rows have no weight or stack")
        .WithPath(rows->path());
  }
  const RunDetails* details = bundle.Details(table.run());
  uint64_t step = layout.thread_ref_step;
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> threads;  // (thread, process ref) → thread
  for (uint64_t i = 0; i < rows->size(); ++i) {
    if (rows->IsPadding(i)) continue;
    Row row = rows->row(i);
    uint64_t thread_ref = row.category1(), process_ref = row.Get(process);
    auto thread = threads.find({thread_ref, process_ref});
    if (thread == threads.end()) {
      auto found = run.references.ThreadOf(thread_ref, step, process_ref);
      if (!found.ok()) {
        *events = rows->CountEvents();
        return rows->InRow(found.status(), i);
      }
      ThreadIdentity identity = CoreThread(details, run.names, found->tid, thread_ref, found->pid);
      thread = threads
                   .emplace(std::make_pair(thread_ref, process_ref),
                            samples->AddThread(std::move(identity)))
                   .first;
    }
    auto stack_id = run.stacks.Stack(row.Get(stack));
    if (!stack_id.ok()) {
      *events = rows->CountEvents();
      return rows->InRow(stack_id.status(), i);
    }
    // Times and weights are at most 64 bits wide; above 2^63 they are damage.
    auto time = static_cast<int64_t>(row.time());
    auto sample_weight = static_cast<int64_t>(row.Get(weight));
    Status added = samples->Add(thread->second, time, sample_weight, *stack_id, rows->offset(i));
    if (!added.ok()) {
      *events = rows->CountEvents();
      return rows->AtRow(added, i);
    }
  }
  *events = samples->size();
  return samples->Commit(bundle.builder, table.run(), std::string(kTimeProfileTable), rows->path());
}

// What a run loses with its samples: with its uniquer, what places them
// ("its 2 samples' threads and backtraces", "its 1 sample's thread and backtrace").
std::string Lost(const Status& error, const CoreRun& run, std::optional<uint64_t> events) {
  bool references = error.path() == run.UniquerDataPath() || error.path() == run.UniquerIndexPath();
  if (!references) return ItsSamples(events);
  return ItsSamples(events) +
         (events == uint64_t{1} ? "'s thread and backtrace" : "' threads and backtraces");
}

}  // namespace

Status ImportTimeProfile(BundleContext& bundle, const Table& table) {
  RunSamples samples;
  std::optional<uint64_t> events;
  Status status = ReadSamples(bundle, table, bundle.Run(table.store.run), &samples, &events);
  if (!status.ok()) {
    return bundle.left_out.LeaveOut(WarningCode::kBundlePartUnreadable,
                                    "run " + std::to_string(table.run()), status,
                                    Lost(status, table.store.run, events), PartRole::kSamples);
  }
  bundle.builder.AddTable(
      TableSummary{table.run(), std::string(kTimeProfileTable), samples.size(), true});
  bundle.runs_with_samples.insert(table.run());
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
