#include "formats/xctrace_xml/row_assembler.h"

#include <string>
#include <utility>

#include "formats/xctrace_xml/labels.h"

namespace instrumentscope::xctrace_xml {

void RowAssembler::StartTable(const TableLayout& layout, ProfileBuilder::TimelineId timeline) {
  layout_ = layout;
  timeline_ = timeline;
  unit_decided_ = layout.weight_unit != WeightUnit::kFromCell;
}

void RowAssembler::StartRow() {
  cells_ = 0;
  row_ = {};
}

void RowAssembler::AssignCell(const OpenElement& cell, const Value& value) {
  size_t column = cells_++;
  if (column >= layout_.roles.size()) {
    error_.Set(ExtraCellError(layout_.roles.size()));
    return;
  }
  if (cell.element == Element::kSentinel) return;  // an empty cell
  auto require = [&](ValueClass expected, const char* column_name) {
    if (value.value_class == expected) return true;
    error_.Set(Status(ErrorCode::kXmlBadValue,
                      std::string("the ") + column_name + " column holds " +
                          ValueClassName(value.value_class) + ", not " + ValueClassName(expected)));
    return false;
  };
  switch (layout_.roles[column]) {
    case ColumnRole::kTime:
      if (RequireNumber(cell, value, "the sample time", error_)) row_.time = value.number();
      break;
    case ColumnRole::kThread:
      if (require(ValueClass::kThread, "thread")) row_.thread = value.index;
      break;
    case ColumnRole::kProcess:
      if (require(ValueClass::kProcess, "process")) row_.process = value.index;
      break;
    case ColumnRole::kWeight:
      if (RequireNumber(cell, value, "the weight", error_)) {
        row_.weight = value.number();
        row_.weight_is_time = AsView(cell.name) == "weight";
      }
      break;
    case ColumnRole::kStack:
      if (require(ValueClass::kStack, "backtrace")) row_.stack = value.index;
      break;
    case ColumnRole::kKernelStack:
      if (require(ValueClass::kStack, "kernel backtrace")) row_.kernel_stack = value.index;
      break;
    case ColumnRole::kIgnored: break;
  }
}

void RowAssembler::EndRow() {
  if (!row_.time) {
    error_.Set(Status(ErrorCode::kXmlBadValue,
                      layout_.weighted_events ? "a row of " + layout_.schema + " has no start time"
                                              : std::string("a row has no sample time")));
    return;
  }
  int64_t weight = 1;  // time-sample rows count one sample each
  if (layout_.has_weight) {
    if (!row_.weight) {
      ++rows_without_weight_;
      return;
    }
    weight = *row_.weight;
  }
  if (!unit_decided_) {
    builder_.SetTimelineUnit(timeline_,
                             row_.weight_is_time ? ValueUnit::kNanoseconds : ValueUnit::kNone);
    unit_decided_ = true;
  }

  StackId stack = row_.stack;
  if (row_.kernel_stack != kEmptyStack) stack = builder_.AppendStack(stack, row_.kernel_stack);

  ProfileBuilder::ThreadId thread = RowThread();
  Status added = builder_.AddSample(thread, *row_.time, weight, stack);
  if (!added.ok()) error_.Set(std::move(added));
}

ProfileBuilder::ThreadId RowAssembler::RowThread() {
  auto process_desc = [this](int64_t process, ThreadDesc* desc) {
    if (process < 0) return;
    desc->process_name = threads_.process(process).name;
    desc->pid = threads_.process(process).pid;
  };
  if (row_.thread >= 0) {
    ThreadRecord& thread = threads_.thread(row_.thread);
    if (thread.builder_thread < 0) {
      ThreadDesc desc;
      desc.thread_name = thread.label;
      desc.tid = thread.tid;
      process_desc(thread.process >= 0 ? thread.process : row_.process, &desc);
      thread.builder_thread = builder_.InternThread(timeline_, desc);
    }
    return static_cast<ProfileBuilder::ThreadId>(thread.builder_thread);
  }
  ++rows_without_thread_;
  ThreadDesc desc;
  desc.thread_name = "Unknown Thread";
  process_desc(row_.process, &desc);
  return builder_.InternThread(timeline_, desc);
}

}  // namespace instrumentscope::xctrace_xml
