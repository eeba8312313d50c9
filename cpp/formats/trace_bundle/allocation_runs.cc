#include "formats/trace_bundle/allocation_runs.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/text.h"
#include "formats/trace_bundle/allocations.h"
#include "formats/trace_bundle/bundle_context.h"
#include "tables/sample_table.h"

namespace instrumentscope::trace_bundle {
namespace {

// The profiles of one run, held until it has been read whole: heap blocks
// and VM regions, every one and those alive at the end.
struct AllocationSamples {
  tables::SampleTable all;
  tables::SampleTable alive;
  tables::SampleTable vm_all;
  tables::SampleTable vm_alive;
  // The same events one by one, frees too, with their blocks' addresses.
  HeapEvents heap;
  HeapEvents vm{1, -1, HeapKind::kVmRegions, {}};

  std::vector<tables::SampleTable*> each() { return {&all, &alive, &vm_all, &vm_alive}; }
};

// Each timeline of a run: which samples, how weighed, and what it is called.
struct AllocationTimeline {
  tables::SampleTable AllocationSamples::*samples;
  ProfileKind kind;
  ValueUnit unit;
  bool count;
  const char* weighs;
};
constexpr AllocationTimeline kTimelines[] = {
    {&AllocationSamples::all, ProfileKind::kAllocations, ValueUnit::kBytes, false,
     "all allocations (bytes)"},
    {&AllocationSamples::alive, ProfileKind::kAllocations, ValueUnit::kBytes, false,
     "still alive at the end (bytes)"},
    {&AllocationSamples::all, ProfileKind::kAllocations, ValueUnit::kNone, true,
     "all allocations (count)"},
    {&AllocationSamples::alive, ProfileKind::kAllocations, ValueUnit::kNone, true,
     "still alive at the end (count)"},
    {&AllocationSamples::vm_all, ProfileKind::kVmRegions, ValueUnit::kBytes, false,
     "VM regions mapped (bytes)"},
    {&AllocationSamples::vm_alive, ProfileKind::kVmRegions, ValueUnit::kBytes, false,
     "VM regions still mapped at the end (bytes)"},
};

Status Corrupt(const std::string& what) {
  return Status(ErrorCode::kBundleCorrupt, what);
}

// One run's events, into `samples`.
class AllocationRunReader {
 public:
  AllocationRunReader(BundleContext& bundle, const AllocationRunFiles& files,
                      const AllocationRun& run, AllocationSamples* samples)
      : bundle_(bundle),
        files_(files),
        run_(run),
        details_(bundle.Details(files.run)),
        samples_(*samples) {}

  Status Add(const AllocationEvent& event);
  // After the last event: counts the threads; every allocation's free was seen.
  Status Finish();
  // Events of kinds this version does not read, by kind.
  const std::map<uint32_t, uint64_t>& unread() const { return unread_; }

 private:
  Status AddBlock(const AllocationEvent& event, tables::SampleTable& all,
                  tables::SampleTable& alive, HeapEvents& heap);
  Status AddFree(const AllocationEvent& event, HeapEvents& heap);
  uint32_t Process();
  Result<StackId> Stack(uint32_t id);

  BundleContext& bundle_;
  const AllocationRunFiles& files_;
  const AllocationRun& run_;
  const RunDetails* details_;
  AllocationSamples& samples_;
  std::optional<uint32_t> process_;               // the process's thread in every SampleTable
  std::set<uint32_t> tids_;                       // the threads that allocated
  std::unordered_map<uint32_t, StackId> stacks_;  // backtrace id → stack
  // A block freed in the recording, until its free is seen.
  struct FreedBlock {
    uint64_t allocation;  // the allocation's event id
    uint32_t size;
    StackId stack;
  };
  std::unordered_map<uint64_t, FreedBlock> frees_;  // by the free's event id
  // Frees whose stacks are where they were freed: interned after the
  // allocations' stacks, so that the frames those have keep their order.
  struct FreeSite {
    HeapEvents* heap;
    size_t event;
    uint32_t backtrace;
  };
  std::vector<FreeSite> free_sites_;
  std::map<uint32_t, uint64_t> unread_;
  std::vector<FrameId> frames_;  // scratch
};

Status AllocationRunReader::Add(const AllocationEvent& event) {
  switch (static_cast<AllocationEventType>(event.type)) {
    case AllocationEventType::kMalloc:
      return AddBlock(event, samples_.all, samples_.alive, samples_.heap);
    case AllocationEventType::kVmAllocate:
      return AddBlock(event, samples_.vm_all, samples_.vm_alive, samples_.vm);
    case AllocationEventType::kFree: return AddFree(event, samples_.heap);
    case AllocationEventType::kVmDeallocate: return AddFree(event, samples_.vm);
  }
  ++unread_[event.type];
  return OkStatus();
}

Status AllocationRunReader::AddBlock(const AllocationEvent& event, tables::SampleTable& all,
                                     tables::SampleTable& alive, HeapEvents& heap) {
  uint32_t thread = Process();
  tids_.insert(event.thread);
  StackId stack;
  ASSIGN_OR_RETURN(stack, Stack(event.backtrace));
  RETURN_IF_ERROR(all.Add(thread, event.time, event.size, stack, event.offset));
  heap.events.push_back({event.time, event.address, event.size, stack, event.thread});
  if (event.paired) {
    frees_.emplace(*event.paired, FreedBlock{event.id, event.size, stack});
    return OkStatus();
  }
  return alive.Add(thread, event.time, event.size, stack, event.offset);
}

Status AllocationRunReader::AddFree(const AllocationEvent& event, HeapEvents& heap) {
  // A block allocated before the recording started: in no profile.
  if (!event.paired) return OkStatus();
  auto expected = frees_.find(event.id);
  if (expected == frees_.end() || expected->second.allocation != *event.paired) {
    return Corrupt("event " + std::to_string(event.id) + " frees event " +
                   std::to_string(*event.paired) + ", which does not name it as its free");
  }
  // Where it was freed, when its backtrace was kept, else where its block
  // was allocated; found once the run's blocks have their stacks (Finish).
  if (run_.backtraces.count(event.backtrace)) {
    free_sites_.push_back({&heap, heap.events.size(), event.backtrace});
  }
  heap.events.push_back({event.time, event.address, -int64_t{expected->second.size},
                         expected->second.stack, event.thread});
  frees_.erase(expected);
  return OkStatus();
}

Status AllocationRunReader::Finish() {
  for (const FreeSite& site : free_sites_) {
    ASSIGN_OR_RETURN(site.heap->events[site.event].stack, Stack(site.backtrace));
  }
  if (process_) {
    for (tables::SampleTable* samples : samples_.each()) {
      samples->thread(*process_).threads = static_cast<uint32_t>(tids_.size());
    }
  }
  if (frees_.empty()) return OkStatus();
  auto [free, block] = *frees_.begin();
  return Corrupt("event " + std::to_string(block.allocation) + " is freed by event " +
                 std::to_string(free) + ", which is no free of it (and " +
                 std::to_string(frees_.size() - 1) + " more such events)");
}

// The events file is one process's, and its threads are taken together, as
// Instruments' Allocations call tree takes them: one profile of each kind for
// the process.
uint32_t AllocationRunReader::Process() {
  if (process_) return *process_;
  tables::SampleThread identity = LegacyThread(details_, nullptr, 0, files_.pid);
  identity.name = "All threads";
  for (tables::SampleTable* samples : samples_.each()) process_ = samples->AddThread(identity);
  return *process_;
}

Result<StackId> AllocationRunReader::Stack(uint32_t id) {
  auto known = stacks_.find(id);
  if (known != stacks_.end()) return known->second;
  auto backtrace = run_.backtraces.find(id);
  if (backtrace == run_.backtraces.end()) {
    return Corrupt("an event names backtrace " + std::to_string(id) +
                   ", which the shared data lacks");
  }
  FrameNamer& namer = bundle_.frames;
  int64_t pid = backtrace->second.pid >= 0 ? backtrace->second.pid : files_.pid;
  ProcessSymbols symbols = namer.LegacySymbols(files_.run, details_, pid);
  FrameNamer::Process& process = namer.ProcessOf(files_.run, pid, symbols);
  frames_.clear();
  for (uint64_t address : backtrace->second.addresses) {
    frames_.push_back(namer.Frame(process, address, /*caller=*/!frames_.empty()));
  }
  return stacks_.emplace(id, bundle_.builder.InternFrames(kEmptyStack, frames_)).first->second;
}

// The run's shared data: the one of its shared_data zips that is Allocations'.
Result<AllocationRun> ReadSharedData(BundleContext& bundle, const AllocationRunFiles& files) {
  const auto& zips = bundle.files.layout().shared_data_zips;
  auto run_zips = zips.find(files.run);
  if (run_zips != zips.end()) {
    for (const std::string& path : run_zips->second) {
      std::string member_path;
      std::vector<uint8_t> bytes;
      ASSIGN_OR_RETURN(bytes, bundle.files.ReadZipped(path, &member_path));
      auto stream = TypedStream::Parse(ByteSpan(bytes.data(), bytes.size()), bundle.files.limits());
      if (!stream.ok()) return stream.status().WithPath(member_path);
      auto run = ReadAllocationRun(*stream, bundle.files.limits());
      if (!run.ok()) return run.status().WithPath(member_path);
      if (*run) return std::move(**run);
    }
  }
  std::string folder = "shared_data/" + std::to_string(files.run) + ".run/";
  std::string wanted =
      "the Allocations data that describes its events (an XRObjectAllocRunSharedData)";
  if (run_zips == zips.end() || run_zips->second.empty()) {
    return Corrupt(folder + " is missing: it holds " + wanted).WithPath(folder);
  }
  return Corrupt("none of the zips in " + folder + " holds " + wanted).WithPath(folder);
}

// Reads the run into `samples`; `count` gets its number of events, once known.
Status ReadAllocationRunFiles(BundleContext& bundle, const AllocationRunFiles& files,
                              AllocationSamples* samples, std::optional<uint64_t>* count,
                              std::map<uint32_t, uint64_t>* unread) {
  AllocationRun run;
  ASSIGN_OR_RETURN(run, ReadSharedData(bundle, files));
  *count = run.event_count;
  if (BaseName(files.events_path) != run.events_file) {
    return Corrupt("the run's shared data describes " + run.events_file + ", not this file")
        .WithPath(files.events_path);
  }
  SharedBytes events;
  ASSIGN_OR_RETURN(events, bundle.files.Read(files.events_path));
  AllocationRunReader reader(bundle, files, run, samples);
  Status status =
      ReadAllocationEvents(ByteSpan(events->data(), events->size()), run,
                           [&reader](const AllocationEvent& event) { return reader.Add(event); });
  if (status.ok()) status = reader.Finish();
  if (!status.ok()) return status.WithPath(files.events_path);
  *unread = reader.unread();
  return OkStatus();
}

Status CommitRun(BundleContext& bundle, const AllocationRunFiles& files,
                 AllocationSamples& samples) {
  for (const AllocationTimeline& timeline : kTimelines) {
    const tables::SampleTable& chosen = samples.*timeline.samples;
    // VM regions only when the run mapped any.
    if (timeline.kind == ProfileKind::kVmRegions && chosen.size() == 0) continue;
    tables::SampleTimeline shown{files.run, std::string(kAllocationsTable), timeline.unit,
                                 TimelineContent{timeline.kind, timeline.weighs}, timeline.count};
    RETURN_IF_ERROR(chosen.Commit(bundle.builder, shown, files.events_path));
  }
  for (HeapEvents* heap : {&samples.heap, &samples.vm}) {
    if (heap->events.empty()) continue;
    heap->run = files.run;
    heap->pid = files.pid;
    RETURN_IF_ERROR(bundle.builder.AddHeapEvents(std::move(*heap)).WithPath(files.events_path));
  }
  return OkStatus();
}

void WarnUnread(BundleContext& bundle, uint32_t run, const std::map<uint32_t, uint64_t>& unread) {
  if (unread.empty()) return;
  uint64_t total = 0;
  std::vector<std::string> kinds;
  for (const auto& [type, count] : unread) {
    total += count;
    kinds.push_back("type " + std::to_string(type) + " ×" + Thousands(count));
  }
  bundle.builder.AddWarning(WarningCode::kAllocationEventsNotRead,
                            Thousands(total) + " Allocations events of run " + std::to_string(run) +
                                " are of kinds this version does not read (" + JoinList(kinds) +
                                "): they are in no profile");
}

}  // namespace

Status ImportAllocationRuns(BundleContext& bundle) {
  for (const AllocationRunFiles& files : bundle.files.layout().allocation_runs) {
    if (bundle.options.run && files.run != *bundle.options.run) continue;
    AllocationSamples samples;
    std::optional<uint64_t> count;
    std::map<uint32_t, uint64_t> unread;
    Status status = ReadAllocationRunFiles(bundle, files, &samples, &count, &unread);
    if (status.ok()) status = CommitRun(bundle, files, samples);
    if (!status.ok()) {
      std::string lost = count ? "its " + Thousands(*count) + " Allocations events" : "its events";
      RETURN_IF_ERROR(bundle.left_out.LeaveOut(WarningCode::kBundlePartUnreadable,
                                               "run " + std::to_string(files.run), status, lost,
                                               PartRole::kSamples));
      continue;
    }
    WarnUnread(bundle, files.run, unread);
    TableSummary table{files.run, std::string(kAllocationsTable), count.value_or(0)};
    table.has_allocations = true;
    bundle.builder.AddTable(std::move(table));
    bundle.runs_with_samples.insert(files.run);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
