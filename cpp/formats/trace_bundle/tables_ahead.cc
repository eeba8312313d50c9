#include "formats/trace_bundle/tables_ahead.h"

#include <set>
#include <string>
#include <utility>

#include "formats/trace_bundle/sample_rows.h"

namespace instrumentscope::trace_bundle {

SampleTablesAhead::Part::Part(BundleContext& whole, const Table& table,
                              const std::atomic<bool>* stop)
    : files(whole.files.ForHelper(&reads)),
      builder(whole.options.limits.max_samples, whole.options.limits.max_stack_nodes),
      context(whole, *files, builder, stop) {
  context.CopyRun(table.store.run, whole);
  // The run's intervals are all read by now: its events are cut where they are.
  builder.CopyDuringSpans(whole.builder, table.run());
}

SampleTablesAhead::SampleTablesAhead(BundleContext& bundle, const std::vector<Planned>& tables,
                                     std::unique_ptr<HelperThreads> helpers)
    : bundle_(bundle), helpers_(std::move(helpers)) {
  // Each part copies its run as the import holds it now, on this thread.
  for (const Planned& planned : tables) {
    Job job{planned, State::kPlanned, nullptr};
    job.part = std::make_unique<Part>(bundle, *planned.table, &stopping_);
    jobs_.push_back(std::move(job));
  }
  for (uint32_t i = 0; i < helpers_->count(); ++i) threads_.emplace_back([this] { Help(); });
}

SampleTablesAhead::~SampleTablesAhead() {
  stopping_ = true;
  for (std::thread& thread : threads_) thread.join();
}

bool SampleTablesAhead::Plans(const Table& table) const {
  for (const Job& job : jobs_) {
    if (job.planned.table == &table) return true;
  }
  return false;
}

SampleTablesAhead::Job* SampleTablesAhead::LastPlanned() {
  for (auto job = jobs_.rbegin(); job != jobs_.rend(); ++job) {
    if (job->state == State::kPlanned) return &*job;
  }
  return nullptr;
}

void SampleTablesAhead::ReadPart(Job& job, std::unique_lock<std::mutex>& lock) {
  job.state = State::kReading;
  lock.unlock();
  Part& part = *job.part;
  part.status = ReadSampleTable(part.context, *job.planned.table, *job.planned.entry);
  lock.lock();
  job.state = State::kRead;
  changed_.notify_all();
}

void SampleTablesAhead::Help() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    Job* job = LastPlanned();
    if (!job) return;
    ReadPart(*job, lock);
  }
}

Status SampleTablesAhead::Read(const Table& table) {
  std::unique_lock<std::mutex> lock(mutex_);
  Job* job = nullptr;
  for (Job& candidate : jobs_) {
    if (candidate.planned.table == &table) job = &candidate;
  }
  // Helpers take tables from the last on: all those after one being read are taken.
  while (job->state == State::kReading) changed_.wait(lock);
  bool begun = job->state == State::kRead;
  job->state = State::kTaken;
  lock.unlock();
  if (begun) return Take(*job);
  job->part.reset();
  return ReadSampleTable(bundle_, table, *job->planned.entry);
}

bool SampleTablesAhead::Adds(const Part& part, const std::set<std::string>& read_here) const {
  const LeftOutParts& left_out = part.context.left_out;
  if (!part.status.ok() || left_out.first() || left_out.ended()) return false;
  if (!bundle_.builder.CanAppend(part.builder)) return false;
  // Its warnings are the import's, in their place, unless one may be of an
  // archive that the import has read since, and warned of there.
  if (!read_here.empty() && part.builder.has_warnings()) return false;
  uint64_t bytes = 0;
  for (const BundleFiles::MemberRead& read : part.reads) {
    if (read_here.count(read.path)) continue;
    if (read.size > UINT64_MAX - bytes) return false;
    bytes += read.size;
  }
  return bundle_.files.HasRoomFor(bytes);
}

Status SampleTablesAhead::Take(Job& job) {
  std::unique_ptr<Part> part = std::move(job.part);
  // A symbol archive the import has read since is not read again.
  std::set<std::string> read_here = bundle_.frames.ArchivesReadHereToo(part->context.frames);
  if (!Adds(*part, read_here)) {
    part.reset();
    return ReadSampleTable(bundle_, *job.planned.table, *job.planned.entry);
  }
  for (const BundleFiles::MemberRead& read : part->reads) {
    if (!read_here.count(read.path)) RETURN_IF_ERROR(bundle_.files.CountRead(read));
  }
  bundle_.frames.TakeArchives(part->context.frames);
  RETURN_IF_ERROR(bundle_.builder.Append(part->builder));
  const BundleContext& read = part->context;
  bundle_.runs_with_samples.insert(read.runs_with_samples.begin(), read.runs_with_samples.end());
  bundle_.runs_with_intervals.insert(read.runs_with_intervals.begin(),
                                     read.runs_with_intervals.end());
  bundle_.sample_rows_without_weight += read.sample_rows_without_weight;
  bundle_.sample_rows_without_thread += read.sample_rows_without_thread;
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
