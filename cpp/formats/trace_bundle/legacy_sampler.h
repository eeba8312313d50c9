// The Time Profiler of Instruments 4.5 to 9.2 ("coresampler", and 9.2's
// "sampler"): fixed-size sample records in Trace<N>.run/<UUID>-sampler.data,
// described by the run's archive instrument_data/<UUID>/run_data/<N>.run.zip,
// a typedstream whose XRSamplerRun holds the record layout and count, the
// backtraces (leaf first) and the threads. See FORMAT.md, "Legacy sampler".
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_SAMPLER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_SAMPLER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "container/typedstream.h"
#include "formats/trace_bundle/legacy_archive.h"
#include "formats/trace_bundle/symbols.h"

namespace instrumentscope::trace_bundle {

struct SamplerRun {
  struct Field {
    std::string name;  // "timestamp", "tid", "backtrace", "cpu", …
    uint32_t index = 0;
    uint32_t type = 0;  // 1 u32, 2 u64, 3 u32 backtrace id
  };
  struct Thread {
    std::string name;  // "Main Thread  0xadcf50", or the thread's start function
    int64_t pid = -1;
    std::string process_name;
  };

  std::vector<Field> fields;  // in record order
  uint32_t record_size = 0;
  uint64_t record_count = 0;
  std::optional<uint64_t> sample_interval_us;
  BacktraceTable backtraces;
  std::map<uint64_t, Thread> threads;  // by tid
};

// Reads the typedstream inside run_data/<N>.run.zip.
Result<SamplerRun> ReadSamplerRun(ByteSpan typedstream, const Limits& limits);
// The same, of a typedstream already parsed.
Result<SamplerRun> ReadSamplerRun(const TypedStream& stream, const Limits& limits);

struct SamplerRecord {
  uint64_t timestamp = 0;  // nanoseconds since the run started
  uint64_t tid = 0;
  uint32_t backtrace = 0;
  uint64_t offset = 0;  // of the record in sampler.data
};

// Calls `visit` for each of the run's records in sampler.data, in order.
Status ReadSamplerRecords(ByteSpan data, const SamplerRun& run,
                          const std::function<Status(const SamplerRecord&)>& visit);

// The symbols of Instruments 4.5 bundles, which form.template lacks: a
// typedstream PFTPersistentSymbols in shared_data/<N>.run/<UUID>.zip. By the
// pid of each symbol's binary; -1 for symbols of no binary.
Result<std::map<int64_t, SymbolTable>> ReadArchivedSymbols(ByteSpan typedstream,
                                                           const Limits& limits);
Result<std::map<int64_t, SymbolTable>> ReadArchivedSymbols(const TypedStream& stream);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_SAMPLER_H_
