// The <thread> and <process> cells of rows, and their <tid> and <pid>: one
// record each per definition, which TableRows names threads and processes from.
// Records last for one <node>, as the ids that point at them do.
//
// Not read: any other child of a <thread> or a <process>.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_THREADS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_THREADS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/xctrace_xml/elements.h"

namespace instrumentscope::xctrace_xml {

struct ThreadRecord {
  std::string label;
  uint64_t tid = 0;
  int64_t process = -1;
  bool named = false;  // its names were taken (TableRows)
};

struct ProcessRecord {
  std::string name;
  int64_t pid = -1;
  bool named = false;  // its name was taken (TableRows)
};

class ThreadCells {
 public:
  void StartThread(const Attributes& attributes);
  void SetTid(uint64_t tid) { thread_.tid = tid; }
  void SetThreadProcess(uint32_t process) { thread_.process = process; }
  Value EndThread();

  void StartProcess(const Attributes& attributes);
  void SetPid(int64_t pid) { process_.pid = pid; }
  Value EndProcess();

  ThreadRecord& thread(int64_t index) { return threads_[index]; }
  ProcessRecord& process(int64_t index) { return processes_[index]; }
  // At the end of a <node>.
  void Clear();

 private:
  struct {
    std::string fmt;
    std::optional<uint64_t> tid;
    int64_t process = -1;
  } thread_;
  struct {
    std::string fmt;
    std::optional<int64_t> pid;
  } process_;
  std::vector<ThreadRecord> threads_;
  std::vector<ProcessRecord> processes_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_THREADS_H_
