// Where a bundle thread gets its name, for corespace runs and legacy runs
// alike, decided here and nowhere else (threads.cc lists every source, first
// first: form.template's reader only collects them), and the consumers of
// the tables that name threads and processes: thread-name (Instruments 10+),
// thread-info and process-info (16). Does not decode thread references:
// RunReferences (tables.h) does.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_

#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/legacy_sampler.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct Table;

// A thread as profiles name it.
struct ThreadIdentity {
  std::string name;  // "Main Thread 0x3c1feee", "Thread 0x1b40f8"
  uint64_t tid = 0;
  std::string process_name;  // empty: the builder says "pid N"
  int64_t pid = -1;
  uint32_t threads = 1;

  ThreadDesc Desc() const { return ThreadDesc{name, tid, process_name, pid, threads}; }
};

// The names a corespace run's own tables give.
struct RunThreadNames {
  std::map<uint64_t, std::string> threads;   // thread reference → name
  std::map<int64_t, std::string> processes;  // pid → name
};

// A thread of a corespace run's samples.
ThreadIdentity CoreThread(const RunDetails* details, const RunThreadNames& tables, uint64_t tid,
                          uint64_t thread_ref, int64_t pid);
// The name of process `pid` of a corespace run (sources 1 to 3 in
// threads.cc), "" when the bundle has none: for tables of processes, not
// threads (signposts, hangs).
std::string CoreProcessName(const RunDetails* details, const RunThreadNames& tables, int64_t pid);
// A thread of a legacy run's samples: `archived` is the run archive's
// XRThread of `tid` (null when it has none), `backtrace_pid` the pid of the
// sample's backtrace.
ThreadIdentity LegacyThread(const RunDetails* details, const SamplerRun::Thread* archived,
                            uint64_t tid, int64_t backtrace_pid);

// Table consumers; `rows` gets the table's row count (0 when its rows cannot
// be read). A table that cannot be read, or whose run lost its strings file,
// costs only its names: a THREAD_NAMES_UNREADABLE warning. Fail only when the
// import must end: a limit reached.
Status ReadThreadNameTable(BundleContext& bundle, const Table& table, uint64_t* rows);
Status ReadThreadInfoTable(BundleContext& bundle, const Table& table, uint64_t* rows);
Status ReadProcessInfoTable(BundleContext& bundle, const Table& table, uint64_t* rows);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_THREADS_H_
