// Where a bundle thread gets its name, for corespace runs and legacy runs
// alike, decided here and nowhere else (threads.cc lists every source, first
// first: form.template's reader only collects them), and the reading of the
// tables that name threads and processes (tables/catalogue.h: thread-name,
// Instruments 10+; thread-info and process-info, 16), their rows decoded
// (row_decoder.h) for their consumer (tables/names.h). Does not decode thread
// references: RunReferences (tables.h) does.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_

#include <cstdint>
#include <string>

#include "base/status.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/legacy_sampler.h"
#include "model/profile_builder.h"
#include "tables/catalogue.h"
#include "tables/names.h"
#include "tables/sample_table.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct Table;

// A thread of a corespace run's samples.
tables::SampleThread CoreThread(const RunDetails* details, const tables::TableNames& names,
                                uint64_t tid, uint64_t thread_ref, int64_t pid);
// The name of process `pid` of a corespace run (sources 1 to 3 in
// threads.cc), "" when the bundle has none: for tables of processes, not
// threads (signposts, hangs).
std::string CoreProcessName(const RunDetails* details, const tables::TableNames& names,
                            int64_t pid);
// A thread of a legacy run's samples: `archived` is the run archive's
// XRThread of `tid` (null when it has none), `backtrace_pid` the pid of the
// sample's backtrace.
tables::SampleThread LegacyThread(const RunDetails* details, const SamplerRun::Thread* archived,
                                  uint64_t tid, int64_t backtrace_pid);

// Reads `table`, a name table's `entry`, into its run's names; `rows` gets
// its row count (0 when its rows cannot be read). A table that cannot be
// read, or whose run lost its strings file, costs only its names: a
// THREAD_NAMES_UNREADABLE warning. Fails only when the import must end: a
// limit reached.
Status ReadNameTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                     uint64_t* rows);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_
