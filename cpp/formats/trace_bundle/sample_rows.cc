#include "formats/trace_bundle/sample_rows.h"

#include <optional>
#include <string>
#include <utility>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/row_decoder.h"
#include "tables/samples.h"

namespace instrumentscope::trace_bundle {
namespace {

// Reads the table's rows into `consumer`; `events` gets the number of rows,
// once known.
Status ConsumeRows(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                   std::optional<tables::SampleConsumer>* consumer,
                   std::optional<uint64_t>* events) {
  auto rows = ReadRows(bundle.files, table);
  if (!rows.ok()) return rows.status();
  RowDecoder decoder(bundle, table, entry, *rows);
  if (!decoder.missing().empty()) {
    return Status(ErrorCode::kBundleUnsupported, decoder.missing()).WithPath(rows->path());
  }
  consumer->emplace(entry, table.run(), decoder.roles(), decoder, bundle.builder);
  tables::RowObserver* observer = bundle.row_observer;
  if (observer) observer->StartTable(entry, table.run(), decoder.roles());
  tables::TypedRow typed;
  for (uint64_t i = 0; i < rows->size(); ++i) {
    if (rows->IsPadding(i)) continue;
    Status decoded = decoder.Decode(rows->row(i), &typed);
    if (!decoded.ok()) {
      *events = rows->CountEvents();
      return rows->InRow(decoded, i);
    }
    if (observer) observer->Row(typed, decoder);
    Status added = (*consumer)->Add(typed);
    if (!added.ok()) {
      *events = rows->CountEvents();
      return rows->AtRow(added, i);
    }
  }
  *events = (*consumer)->rows();
  return (*consumer)->Commit(bundle.builder, rows->path());
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
