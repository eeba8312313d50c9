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

namespace instrumentscope::trace_bundle {
namespace {

// A name field's string index when the thread has no name.
constexpr uint64_t kNoString = 0xFFFFFFFF;

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

// Reads a name table's rows with the run's strings into the run's names;
// `rows` gets their count. `reader(layout)` finds the table's columns once and
// gives the function that reads a row. A failure costs `names` ("thread
// names"): a warning.
template <typename Reader>
Status ReadNames(BundleContext& bundle, const Table& table, std::string_view names, uint64_t* rows,
                 Reader reader) {
  *rows = 0;
  CoreRunState& run = bundle.Run(table.store.run);
  Status status = [&]() -> Status {
    auto table_rows = ReadRows(bundle.files, table);
    if (!table_rows.ok()) return table_rows.status();
    *rows = table_rows->CountEvents();
    if (*rows == 0) return OkStatus();  // no strings needed
    const std::vector<std::string>* strings;
    ASSIGN_OR_RETURN(strings, run.references.Strings());
    auto visit = reader(table_rows->layout());
    table_rows->ForEachEvent([&](const Row& row) { visit(row, *strings, &run.names); });
    return OkStatus();
  }();
  if (status.ok()) return status;
  std::string number = std::to_string(table.run());
  return bundle.left_out.LeaveOut(WarningCode::kThreadNamesUnreadable,
                                  "the " + table.name() + " table of run " + number, status,
                                  "run " + number + "'s " + std::string(names), PartRole::kDetails);
}

}  // namespace

ThreadIdentity CoreThread(const RunDetails* details, const RunThreadNames& tables, uint64_t tid,
                          uint64_t thread_ref, int64_t pid) {
  std::string name = details ? NameIn(details->thread_names, tid) : std::string();
  if (name.empty()) name = NameIn(tables.threads, thread_ref);
  return ThreadIdentity{ThreadLabel(name, tid), tid, CoreProcessName(details, tables, pid), pid};
}

std::string CoreProcessName(const RunDetails* details, const RunThreadNames& tables, int64_t pid) {
  std::string process = TemplateProcessName(details, pid);
  return process.empty() ? NameIn(tables.processes, pid) : process;
}

ThreadIdentity LegacyThread(const RunDetails* details, const SamplerRun::Thread* archived,
                            uint64_t tid, int64_t backtrace_pid) {
  std::string name, process;
  int64_t pid = backtrace_pid;
  if (archived) {
    name = archived->name;
    process = archived->process_name;
    if (archived->pid >= 0) pid = archived->pid;
  }
  if (process.empty()) process = TemplateProcessName(details, pid);
  return ThreadIdentity{ThreadLabel(name, tid), tid, process, pid};
}

Status ReadThreadNameTable(BundleContext& bundle, const Table& table, uint64_t* rows) {
  // Rows: the topology (time, thread ref), then name = string index << 32 |
  // thread ref / 4.
  return ReadNames(bundle, table, "thread names", rows, [](const RowLayout& layout) {
    BitSlot name = layout.Field("name");
    return [name](const Row& row, const std::vector<std::string>& strings, RunThreadNames* names) {
      uint64_t string_index = row.Get(name) >> 32;
      if (string_index < strings.size() && !strings[string_index].empty()) {
        names->threads[row.category1()] = strings[string_index];
      }
    };
  });
}

Status ReadThreadInfoTable(BundleContext& bundle, const Table& table, uint64_t* rows) {
  // Rows (Instruments 16): the topology (time, pid), tid, process ref, thread
  // ref, name = string index << 32 | thread ref (string index 0xFFFFFFFF: no
  // name), main-thread flag. A thread can have several rows: the last name
  // given wins.
  return ReadNames(bundle, table, "thread names", rows, [](const RowLayout& layout) {
    BitSlot name = layout.Field("name"), main = layout.Field("main-thread"),
            thread = layout.Field("thread");
    return [=](const Row& row, const std::vector<std::string>& strings, RunThreadNames* names) {
      uint64_t string_index = name.width ? row.Get(name) >> 32 : kNoString;
      std::string label;
      if (string_index != kNoString && string_index < strings.size()) {
        label = strings[string_index];
      }
      if (label.empty() && main.width && row.Get(main) == 1) label = "Main Thread";
      if (!label.empty() && thread.width) names->threads[row.Get(thread)] = label;
    };
  });
}

Status ReadProcessInfoTable(BundleContext& bundle, const Table& table, uint64_t* rows) {
  // Rows (Instruments 16): the topology (time, pid), unique id, process ref,
  // process-name string index. A process that execs gets a new row: the last
  // wins.
  return ReadNames(bundle, table, "process names", rows, [](const RowLayout& layout) {
    BitSlot name = layout.Field("process-name");
    return [name](const Row& row, const std::vector<std::string>& strings, RunThreadNames* names) {
      uint64_t string_index = name.width ? row.Get(name) : kNoString;
      auto pid = static_cast<int64_t>(row.category1());
      if (string_index < strings.size() && !strings[string_index].empty()) {
        names->processes[pid] = strings[string_index];
      }
    };
  });
}

}  // namespace instrumentscope::trace_bundle
