// The rows of an interval table, made intervals: each cell is taken by its
// column's role in the table's IntervalLayout, and the row, once it ends, is
// added to the ProfileBuilder in its source: one per table, process (when the
// table names one) and group (a display; a signpost's subsystem and category).
// Sources are named and intervals labelled as a person reads them: "Points of
// Interest — com.example.app", "Load feed — id 0x1a: 3 items".
//
// Not supported: rows without a start (an error), with a negative duration or
// an end before the start (errors). A row with neither duration nor end in a
// table that has such columns runs to the end of the run (still open when the
// recording stopped).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/interval_tables.h"
#include "formats/xctrace_xml/text_cells.h"
#include "formats/xctrace_xml/threads.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class IntervalRows {
 public:
  IntervalRows(ProfileBuilder& builder, ThreadCells& threads, const TextCells& texts,
               FirstError& error)
      : builder_(builder), threads_(threads), texts_(texts), error_(error) {}

  // The rows that follow are the table's with this layout, of this run.
  void StartTable(IntervalLayout layout, uint32_t run);
  // `row` is the row's position in its <node>, for errors.
  void StartRow(uint64_t row);
  // A direct child of the <row>, the next column's.
  void AssignCell(const OpenElement& cell, const Value& value);
  void EndRow();

 private:
  // The text of a cell this row gave, or empty.
  std::string_view Text(IntervalRole role) const;
  Status RowError(const std::string& what) const;
  ProfileBuilder::IntervalSourceId Source();
  void Label(std::string* name, std::string* label) const;

  ProfileBuilder& builder_;
  ThreadCells& threads_;
  const TextCells& texts_;
  FirstError& error_;

  IntervalLayout layout_;
  uint32_t run_ = 1;
  // This table's sources, by name and pid.
  std::map<std::pair<std::string, int64_t>, ProfileBuilder::IntervalSourceId> sources_;

  size_t cells_ = 0;
  struct {
    uint64_t index = 0;
    std::optional<int64_t> start;
    std::optional<int64_t> duration;
    std::optional<int64_t> end;
    int64_t thread = -1;
    int64_t process = -1;
    // Per role, the text cell that gave it (an index in TextCells), else -1.
    int64_t texts[static_cast<size_t>(IntervalRole::kGroup) + 1];
  } row_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_
