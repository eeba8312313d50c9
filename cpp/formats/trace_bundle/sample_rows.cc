#include "formats/trace_bundle/sample_rows.h"

#include <optional>
#include <string>
#include <utility>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/row_decoder.h"
#include "tables/samples.h"

namespace instrumentscope::trace_bundle {
namespace {

// Hands each row, decoded, to the table's consumer, made once the rows'
// layout is known.
class SampleRows final : public RowVisitor {
 public:
  SampleRows(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
             std::optional<tables::SampleConsumer>* consumer)
      : bundle_(bundle), table_(table), entry_(entry), consumer_(*consumer) {}

  Status Start(const RowLayout& layout) override {
    decoder_.emplace(bundle_, table_, entry_, layout);
    if (!decoder_->missing().empty()) {
      return Status(ErrorCode::kBundleUnsupported, decoder_->missing())
          .WithPath(table_.store.BulkStorePath());
    }
    tables::RoleSet roles = decoder_->roles();
    // Counters' views are other profiles than the threads': none without intervals.
    if (!bundle_.options.intervals) roles.Remove(tables::Role::kCounters);
    consumer_.emplace(entry_, table_.run(), roles, *decoder_, bundle_.builder);
    if (bundle_.row_observer)
      bundle_.row_observer->StartTable(entry_, table_.run(), decoder_->roles());
    return OkStatus();
  }

  Status Visit(const Row& row) override {
    // A helper reading ahead (tables_ahead.h) stops within a few thousand rows
    // once the import ends.
    if (++visited_ % kRowsBetweenStopChecks == 0 && bundle_.Stopped()) {
      return Status(ErrorCode::kInvalidArgument, "the import ended before the table was read");
    }
    RETURN_IF_ERROR(decoder_->Decode(row, &typed_));
    if (bundle_.row_observer) bundle_.row_observer->Row(typed_, *decoder_);
    return consumer_->Add(typed_);
  }

 private:
  BundleContext& bundle_;
  const Table& table_;
  const tables::TableEntry& entry_;
  std::optional<tables::SampleConsumer>& consumer_;
  static constexpr uint64_t kRowsBetweenStopChecks = 4096;

  std::optional<RowDecoder> decoder_;
  tables::TypedRow typed_;
  uint64_t visited_ = 0;
};

// Reads the table's rows into `consumer` as its bulkstore inflates; `events`
// gets the number of rows, once known.
Status ConsumeRows(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                   std::optional<tables::SampleConsumer>* consumer,
                   std::optional<uint64_t>* events) {
  SampleRows rows(bundle, table, entry, consumer);
  constexpr uint64_t kNotCounted = UINT64_MAX;  // the bulkstore could not be read to its end
  uint64_t counted = kNotCounted;
  Status status = StreamRows(bundle.files, table, rows, &counted);
  if (counted != kNotCounted) *events = counted;
  RETURN_IF_ERROR(status);
  *events = (*consumer)->rows();
  return (*consumer)->Commit(bundle.builder, table.store.BulkStorePath());
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

Status ReadSampleTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry) {
  std::optional<tables::SampleConsumer> consumer;
  std::optional<uint64_t> events;
  Status status = ConsumeRows(bundle, table, entry, &consumer, &events);
  bool cpu_samples = entry.consumer == tables::Consumer::kCpuSamples;
  if (!status.ok() && !cpu_samples) {
    // Events beside the intervals: the table costs only itself, as theirs do.
    return bundle.left_out.LeaveOut(
        WarningCode::kTableUnreadable,
        "the " + table.name() + " table of run " + std::to_string(table.run()), status,
        std::string(entry.lost), PartRole::kDetails);
  }
  if (!status.ok()) {
    return bundle.left_out.LeaveOut(WarningCode::kBundlePartUnreadable,
                                    "run " + std::to_string(table.run()), status,
                                    Lost(status, table.store.run, events), PartRole::kSamples);
  }
  TableSummary summary{table.run(), std::string(entry.schema), consumer->rows(), cpu_samples};
  // Events weighted by their durations are read with the intervals, as
  // `ImportOptions::intervals` says: the recording's other tables.
  summary.has_intervals = !cpu_samples;
  bundle.builder.AddTable(std::move(summary));
  (cpu_samples ? bundle.runs_with_samples : bundle.runs_with_intervals).insert(table.run());
  bundle.sample_rows_without_weight += consumer->rows_without_weight();
  bundle.sample_rows_without_thread += consumer->rows_without_thread();
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
