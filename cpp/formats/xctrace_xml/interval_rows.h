// The rows of an interval table, made intervals: each cell is taken by its
// column's role in the table's IntervalLayout, and each row, once it ends,
// becomes an interval of its source: one per table, process (when the table
// names one) and group (a display; a signpost's subsystem and category).
// os-signpost rows are held until their table ends, then paired as
// Instruments pairs them (model/event_pairing.h). Sources are named and
// intervals labelled as a person reads them: "Points of Interest —
// com.example.app", "Load feed — id 0x1a: 3 items".
//
// os-signpost, os-signpost-interval and region-of-interest hold the same
// signposts (Instruments derives the last two from the first): a run keeps
// those of the first it has, in that order, and the others are left out.
//
// Not supported: rows without a start (an error), with a negative duration or
// an end before the start (errors). A row with neither duration nor end in a
// table that has such columns, or a duration of all ones, runs to the end of
// the run (still open when the recording stopped).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/interval_tables.h"
#include "formats/xctrace_xml/table_intervals.h"
#include "formats/xctrace_xml/text_cells.h"
#include "formats/xctrace_xml/threads.h"
#include "model/event_pairing.h"
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
  // The table's <node> ends: its intervals go to the builder, or wait for
  // Finish() if they are signposts another table may repeat.
  void EndTable();
  // The document ends: each run's signposts, from the first table of them it has.
  Status Finish();
  // The tables Finish() left out for holding what another table of their run
  // did, as (run, schema).
  const std::set<std::pair<uint32_t, std::string>>& left_out() const { return left_out_; }

 private:
  // An os-signpost row, kept until its table is paired.
  struct SignpostRow {
    size_t source;
    std::string name;
    std::string id;
    std::string message;
  };

  // The text of a cell this row gave, or empty.
  std::string_view Text(IntervalRole role) const;
  // The row's signpost id as Instruments shows it ("0x1a"; nothing for
  // OS_SIGNPOST_ID_EXCLUSIVE).
  std::string SignpostIdOfRow() const;
  Status RowError(const std::string& what) const;
  std::optional<std::pair<int64_t, int64_t>> RowSpan();
  size_t Source();
  void Label(std::string* name, std::string* label) const;
  void HoldSignpost(int64_t time);
  void PairSignposts();

  ProfileBuilder& builder_;
  ThreadCells& threads_;
  const TextCells& texts_;
  FirstError& error_;

  IntervalLayout layout_;
  std::optional<TableIntervals> table_;
  // Tables of signposts, with their SignpostTableRank, until the document ends.
  std::vector<std::pair<int, TableIntervals>> held_;
  std::set<std::pair<uint32_t, std::string>> left_out_;

  // os-signpost rows of the current table, and what pairs them.
  std::vector<SignpostRow> signposts_;
  std::vector<KeyedEvent> signpost_events_;
  std::map<std::string, uint64_t> signpost_keys_;

  size_t cells_ = 0;
  struct {
    uint64_t index = 0;
    std::optional<int64_t> start;
    std::optional<int64_t> duration;
    bool still_going = false;  // a duration of all ones (durations.h)
    std::optional<int64_t> end;
    int64_t thread = -1;
    int64_t process = -1;
    // Per role, the text cell that gave it (an index in TextCells), else -1.
    int64_t texts[kIntervalRoles];
  } row_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_ROWS_H_
