#include "formats/xctrace_xml/threads.h"

#include <utility>

#include "formats/names.h"
#include "formats/xctrace_xml/labels.h"

namespace instrumentscope::xctrace_xml {

void ThreadCells::StartThread(const Attributes& attributes) {
  thread_.fmt = attributes.Decoded("fmt");
  thread_.tid.reset();
  thread_.process = -1;
}

Value ThreadCells::EndThread() {
  ThreadRecord record;
  record.tid = thread_.tid.value_or(0);
  record.label = ThreadLabel(thread_.fmt, record.tid);
  record.process = thread_.process;
  threads_.push_back(std::move(record));
  return MakeValue(ValueClass::kThread, static_cast<uint32_t>(threads_.size() - 1));
}

void ThreadCells::StartProcess(const Attributes& attributes) {
  process_.fmt = attributes.Decoded("fmt");
  process_.pid.reset();
}

Value ThreadCells::EndProcess() {
  ProcessRecord record;
  record.pid = process_.pid.value_or(-1);
  record.name = ProcessName(process_.fmt, record.pid);
  processes_.push_back(std::move(record));
  return MakeValue(ValueClass::kProcess, static_cast<uint32_t>(processes_.size() - 1));
}

void ThreadCells::Clear() {
  threads_.clear();
  processes_.clear();
}

}  // namespace instrumentscope::xctrace_xml
