#include "formats/trace_bundle/legacy_runs.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/checked_math.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/legacy_sampler.h"
#include "tables/sample_table.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr std::string_view kSamplerTable = "sampler";

// One run's records, threads and stacks, read into `samples`.
class LegacyRunReader {
 public:
  LegacyRunReader(BundleContext& bundle, const LegacyRunFiles& files, const SamplerRun& run,
                  int64_t weight, tables::SampleTable* samples)
      : bundle_(bundle),
        files_(files),
        run_(run),
        details_(bundle.Details(files.run)),
        weight_(weight),
        samples_(*samples) {}

  Status Add(const SamplerRecord& record);

 private:
  uint32_t Thread(uint64_t tid, int64_t backtrace_pid);
  StackId Stack(uint32_t id, const RawBacktrace& backtrace);

  BundleContext& bundle_;
  const LegacyRunFiles& files_;
  const SamplerRun& run_;
  const RunDetails* details_;
  int64_t weight_;
  tables::SampleTable& samples_;
  std::map<uint64_t, uint32_t> threads_;          // tid → thread
  std::unordered_map<uint32_t, StackId> stacks_;  // backtrace id → stack
  std::vector<FrameId> frames_;                   // scratch
};

Status LegacyRunReader::Add(const SamplerRecord& record) {
  auto backtrace = run_.backtraces.find(record.backtrace);
  if (backtrace == run_.backtraces.end()) {
    return Status(ErrorCode::kBundleCorrupt,
                  "sample " + std::to_string(samples_.size()) + " names backtrace " +
                      std::to_string(record.backtrace) + ", which the run archive lacks");
  }
  uint32_t thread = Thread(record.tid, backtrace->second.pid);
  StackId stack = Stack(record.backtrace, backtrace->second);
  if (record.timestamp > static_cast<uint64_t>(INT64_MAX)) {
    return Status(ErrorCode::kBadSample, "sample " + std::to_string(samples_.size()) +
                                             " has the timestamp " +
                                             std::to_string(record.timestamp));
  }
  return samples_.Add(thread, static_cast<int64_t>(record.timestamp), weight_, stack,
                      record.offset);
}

uint32_t LegacyRunReader::Thread(uint64_t tid, int64_t backtrace_pid) {
  auto known = threads_.find(tid);
  if (known != threads_.end()) return known->second;
  auto archived = run_.threads.find(tid);
  tables::SampleThread identity = LegacyThread(
      details_, archived == run_.threads.end() ? nullptr : &archived->second, tid, backtrace_pid);
  return threads_.emplace(tid, samples_.AddThread(std::move(identity))).first->second;
}

StackId LegacyRunReader::Stack(uint32_t id, const RawBacktrace& backtrace) {
  auto known = stacks_.find(id);
  if (known != stacks_.end()) return known->second;
  FrameNamer& namer = bundle_.frames;
  ProcessSymbols symbols = namer.LegacySymbols(files_.run, details_, backtrace.pid);
  FrameNamer::Process& process = namer.ProcessOf(files_.run, backtrace.pid, symbols);
  frames_.clear();
  for (uint64_t address : backtrace.addresses) {
    frames_.push_back(namer.Frame(process, address, /*caller=*/!frames_.empty()));
  }
  return stacks_.emplace(id, bundle_.builder.InternFrames(kEmptyStack, frames_)).first->second;
}

// Reads the run into `samples`; `count` gets its number of records, once known.
Status ReadLegacyRun(BundleContext& bundle, const LegacyRunFiles& files,
                     tables::SampleTable* samples, std::optional<uint64_t>* count) {
  // The run archive is a zip of one typedstream.
  std::string member_path;
  std::vector<uint8_t> typedstream;
  ASSIGN_OR_RETURN(typedstream, bundle.files.ReadZipped(files.archive_path, &member_path));
  auto run =
      ReadSamplerRun(ByteSpan(typedstream.data(), typedstream.size()), bundle.files.limits());
  if (!run.ok()) return run.status().WithPath(member_path);
  *count = run->record_count;
  SharedBytes records;
  ASSIGN_OR_RETURN(records, bundle.files.Read(files.sampler_path));
  // Each sample stands for the sampling interval (1 ms unless the run says).
  uint64_t interval_us = run->sample_interval_us.value_or(1000);
  auto interval_ns = CheckedMul<uint64_t>(interval_us, 1000);
  if (!interval_ns || *interval_ns > static_cast<uint64_t>(INT64_MAX)) {
    return Status(ErrorCode::kBundleCorrupt, "the run archive gives a sampling interval of " +
                                                 std::to_string(interval_us) + " µs")
        .WithPath(member_path);
  }
  LegacyRunReader reader(bundle, files, *run, static_cast<int64_t>(*interval_ns), samples);
  Status status =
      ReadSamplerRecords(ByteSpan(records->data(), records->size()), *run,
                         [&reader](const SamplerRecord& record) { return reader.Add(record); });
  if (!status.ok()) return status.WithPath(files.sampler_path);
  tables::SampleTimeline timeline;
  timeline.run = files.run;
  timeline.table = std::string(kSamplerTable);
  return samples->Commit(bundle.builder, timeline, files.sampler_path);
}

}  // namespace

Status ImportLegacyRuns(BundleContext& bundle) {
  for (const LegacyRunFiles& files : bundle.files.layout().legacy_runs) {
    if (bundle.options.run && files.run != *bundle.options.run) continue;
    std::string run = "run " + std::to_string(files.run);
    if (!bundle.files.Contains(files.archive_path)) {
      // Not the import's error when every run lacks its archive:
      // NoSamplesError says what to copy.
      RETURN_IF_ERROR(bundle.left_out.LeaveOut(
          WarningCode::kLegacyRunUnreadable, run,
          Status(ErrorCode::kBundleCorrupt, "the run archive is missing")
              .WithPath(files.archive_path),
          "its samples: " + files.sampler_path + " cannot be read without the backtraces it holds",
          PartRole::kDetails));
      continue;
    }
    tables::SampleTable samples;
    std::optional<uint64_t> count;
    Status status = ReadLegacyRun(bundle, files, &samples, &count);
    if (!status.ok()) {
      RETURN_IF_ERROR(bundle.left_out.LeaveOut(WarningCode::kBundlePartUnreadable, run, status,
                                               ItsSamples(count), PartRole::kSamples));
      continue;
    }
    bundle.builder.AddTable(
        TableSummary{files.run, std::string(kSamplerTable), samples.size(), true});
    bundle.runs_with_samples.insert(files.run);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
