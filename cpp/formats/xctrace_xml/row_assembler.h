// The rows of a CPU sample table, made samples: each cell is taken by its
// column's role in the table's layout (sample time, thread, process, weight,
// user and kernel stacks), and the row, once it ends, is added to the
// ProfileBuilder on its thread's timeline.
//
// Not supported: rows without a sample time (an error); rows without a weight
// in a table that has a weight column are left out and counted, rows without a
// thread go to "Unknown Thread" and are counted.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ROW_ASSEMBLER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ROW_ASSEMBLER_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/table_schema.h"
#include "formats/xctrace_xml/threads.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class RowAssembler {
 public:
  RowAssembler(ProfileBuilder& builder, ThreadCells& threads, FirstError& error)
      : builder_(builder), threads_(threads), error_(error) {}

  // The rows that follow are the table's with this layout, on this timeline.
  void StartTable(const TableLayout& layout, ProfileBuilder::TimelineId timeline);
  void StartRow();
  // A direct child of the <row>, the next column's.
  void AssignCell(const OpenElement& cell, const Value& value);
  void EndRow();

  uint64_t rows_without_weight() const { return rows_without_weight_; }
  uint64_t rows_without_thread() const { return rows_without_thread_; }

 private:
  ProfileBuilder::ThreadId RowThread();

  ProfileBuilder& builder_;
  ThreadCells& threads_;
  FirstError& error_;

  TableLayout layout_;
  ProfileBuilder::TimelineId timeline_ = 0;
  bool unit_decided_ = false;

  size_t cells_ = 0;
  struct {
    std::optional<int64_t> time;
    int64_t thread = -1;
    int64_t process = -1;
    std::optional<int64_t> weight;
    bool weight_is_time = false;
    StackId stack = kEmptyStack;
    StackId kernel_stack = kEmptyStack;
  } row_;

  uint64_t rows_without_weight_ = 0;
  uint64_t rows_without_thread_ = 0;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ROW_ASSEMBLER_H_
