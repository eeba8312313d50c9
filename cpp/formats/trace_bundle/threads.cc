// Where a bundle thread's name comes from, first source first:
//
// corespace runs (Instruments 8.3 and later):
//   thread   1. form.template: the run's XRThread of the tid, its overrideName
//               ("Main Thread  0x3c1feee") [8.3.3 – 11.4.1]
//            2. the run's thread-name table, by thread reference [10.0 – 11.4.1],
//               or its thread-info table, by thread reference: the name, or
//               "Main Thread" for the main-thread row without one [16.0]
//            3. "Thread 0x<tid>"
//   process  1. form.template: the run's processDatas, the base name of the
//               pid's _execname
//            2. form.template: the execName of the first of the run's
//               XRThreads of the pid to have one
//            3. the run's process-info table, by pid [16.0]
//            4. "pid <pid>" (the builder's)
//   pid      the thread's [tid, process] uniquer record, through the process
//            record [pid, name]; tid from the same thread record
//
// legacy runs (Trace<N>.run, Instruments 4.5 – 9.2):
//   thread   1. the run archive's XRThread of the tid, its overrideName
//            2. "Thread 0x<tid>"
//   process  1. the run archive's XRThread execName
//            2. form.template by pid, as for corespace runs (1, then 2)
//            3. "pid <pid>"
//   pid      the run archive's XRThread pid, else the backtrace's
//
// Every name goes through ThreadLabel (formats/names.h): "Main Thread  0x3c1feee"
// becomes "Main Thread 0x3c1feee".
#include "formats/trace_bundle/threads.h"

#include "formats/names.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/row_decoder.h"

namespace instrumentscope::trace_bundle {
namespace {

template <typename Key>
std::string NameIn(const std::map<Key, std::string>& names, Key key) {
  auto named = names.find(key);
  return named == names.end() ? std::string() : named->second;
}

// form.template's name of process `pid` (sources 1 and 2 above).
std::string TemplateProcessName(const RunDetails* details, int64_t pid) {
  if (!details) return std::string();
  std::string name = NameIn(details->process_names, pid);
  return name.empty() ? NameIn(details->thread_exec_names, pid) : name;
}

}  // namespace

tables::SampleThread CoreThread(const RunDetails* details, const tables::TableNames& names,
                                uint64_t tid, uint64_t thread_ref, int64_t pid) {
  std::string name = details ? NameIn(details->thread_names, tid) : std::string();
  if (name.empty()) name = NameIn(names.threads, thread_ref);
  return tables::SampleThread{ThreadLabel(name, tid), tid, CoreProcessName(details, names, pid),
                              pid};
}

std::string CoreProcessName(const RunDetails* details, const tables::TableNames& names,
                            int64_t pid) {
  std::string process = TemplateProcessName(details, pid);
  return process.empty() ? NameIn(names.processes, pid) : process;
}

tables::SampleThread LegacyThread(const RunDetails* details, const SamplerRun::Thread* archived,
                                  uint64_t tid, int64_t backtrace_pid) {
  std::string name, process;
  int64_t pid = backtrace_pid;
  if (archived) {
    name = archived->name;
    process = archived->process_name;
    if (archived->pid >= 0) pid = archived->pid;
  }
  if (process.empty()) process = TemplateProcessName(details, pid);
  return tables::SampleThread{ThreadLabel(name, tid), tid, process, pid};
}

Status ReadNameTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                     uint64_t* rows) {
  *rows = 0;
  CoreRunState& run = bundle.Run(table.store.run);
  Status status = [&]() -> Status {
    auto table_rows = ReadRows(bundle.files, table);
    if (!table_rows.ok()) return table_rows.status();
    *rows = table_rows->CountEvents();
    RowDecoder decoder(bundle, table, entry, table_rows->layout());
    if (!decoder.missing().empty()) {
      return Status(ErrorCode::kBundleUnsupported, decoder.missing()).WithPath(table_rows->path());
    }
    tables::TypedRow typed;
    for (uint64_t i = 0; i < table_rows->size(); ++i) {
      if (table_rows->IsPadding(i)) continue;
      Status decoded = decoder.Decode(table_rows->row(i), &typed);
      if (!decoded.ok()) return table_rows->InRow(decoded, i);
      tables::AddNames(entry, typed, &run.names);
    }
    return OkStatus();
  }();
  if (status.ok()) return status;
  std::string number = std::to_string(table.run());
  return bundle.left_out.LeaveOut(
      WarningCode::kThreadNamesUnreadable, "the " + table.name() + " table of run " + number,
      status, "run " + number + "'s " + std::string(entry.lost), PartRole::kDetails);
}

}  // namespace instrumentscope::trace_bundle
