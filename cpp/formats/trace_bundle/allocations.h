// The Allocations instrument of Instruments 6 to 9 ("oa"): one record per
// event of the target process in Trace<N>.run/event_data_<pid>.oa (an
// allocation, a free, a VM region mapped or unmapped), described by the run's
// shared data, shared_data/<N>.run/<UUID>.zip: a typedstream whose
// XRObjectAllocRunSharedData holds the events' XREventDescriptor (their count,
// the backtraces and category names their ids stand for) and the events
// file's name. See FORMAT.md, "Allocations".
//
// Not read: the shared data's time buckets, summaries and lists of event ids
// (what the events say again), retain and release events (none in the corpus),
// the run archive (dates, summaries).
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATIONS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATIONS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "container/typedstream.h"
#include "formats/trace_bundle/legacy_archive.h"

namespace instrumentscope::trace_bundle {

struct AllocationRun {
  int64_t version = 0;  // the descriptor's: 2 [6.4 – 8.3.3], 3 [9.3.1]
  uint32_t record_size = 0;
  uint64_t event_count = 0;
  std::string events_file;  // "event_data_32976.oa"
  BacktraceTable backtraces;
  std::unordered_map<uint32_t, std::string> categories;  // "Malloc 2.00 KiB", "CFString"…
};

// The run's shared data, from the typedstream of one of its shared_data
// zips; nullopt when that typedstream is another instrument's.
Result<std::optional<AllocationRun>> ReadAllocationRun(const TypedStream& stream,
                                                       const Limits& limits);

// What an event record is.
enum class AllocationEventType : uint32_t {
  kMalloc = 16,
  kFree = 19,
  kVmAllocate = 24,
  kVmDeallocate = 30,
};

struct AllocationEvent {
  uint64_t id = 0;   // the record's index
  int64_t time = 0;  // ns since the run started
  uint64_t address = 0;
  uint32_t size = 0;  // an allocation's bytes; 0 for a free (its bytes are its allocation's)
  uint32_t type = 0;  // an AllocationEventType, or another (unread) kind
  uint32_t thread = 0;
  uint32_t category = 0;
  uint32_t backtrace = 0;
  // An allocation's free, or a free's allocation, by id; nullopt: none (an
  // allocation never freed).
  std::optional<uint64_t> paired;
  uint64_t offset = 0;  // of the record in its file
};

// Calls `visit` for each of the run's event records, in order.
Status ReadAllocationEvents(ByteSpan data, const AllocationRun& run,
                            const std::function<Status(const AllocationEvent&)>& visit);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ALLOCATIONS_H_
