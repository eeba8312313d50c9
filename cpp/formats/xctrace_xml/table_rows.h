// The rows of an export's tables (tables/catalogue.h), decoded into
// TypedRows for their consumers (tables/consumers.h, tables/samples.h): each
// column found by its mnemonic in the table's <schema>; times, durations,
// weights and numbers from the cells (a duration of all ones, past int64, is
// "still going"; a weight is a time in a column of type "weight", and in one
// of type "any" where its cell is a <weight>); texts as xctrace shows them
// (TextCells); threads and processes from their records (ThreadCells);
// backtraces as the stacks StackCells made of them. Intervals go to a
// TableCommitter, which keeps one of the tables that repeat one another's
// signposts per run; samples to the builder when their table ends.
//
// A table with a row that cannot be read (no start, a negative duration, an
// end before its start, a cell of the wrong kind) is left out, as a bundle's
// is: a TABLE_UNREADABLE warning names the row ("row N of <schema> …") and
// its line, and the rest of the export imports; when nothing else does, that
// is the import's error. A table without the columns its entry needs is left
// out too.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_ROWS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_ROWS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/table_schema.h"
#include "formats/xctrace_xml/text_cells.h"
#include "formats/xctrace_xml/threads.h"
#include "model/profile_builder.h"
#include "tables/consumers.h"
#include "tables/samples.h"
#include "tables/table_committer.h"

namespace instrumentscope::xctrace_xml {

class TableRows final : public tables::RowContext {
 public:
  // `views`: whether CPU samples get views of other profiles than their
  // threads' (a performance counter's), as ImportOptions::intervals says.
  TableRows(ProfileBuilder& builder, ThreadCells& threads, const TextCells& texts,
            FirstError& error, bool views)
      : builder_(builder),
        threads_(threads),
        texts_(texts),
        error_(error),
        committer_(builder),
        views_(views) {}

  // The rows that follow are those of `entry`'s table, with these columns, of
  // this run. False when the table lacks a column it needs (said in a warning).
  bool StartTable(const tables::TableEntry& entry, const std::vector<Column>& columns,
                  uint32_t run);
  // `row` is the row's position in its <node>, for errors.
  void StartRow(uint64_t row);
  // A direct child of the <row>, the next column's.
  void AssignCell(const OpenElement& cell, const Value& value);
  void EndRow();
  // The table's <node> ends: its intervals go to the committer, its samples to the builder.
  void EndTable();
  // The document ends: each run's signposts, from the first table of them it has.
  Status Finish() { return committer_.CommitHeld(); }
  // Whether Finish() left `schema` of `run` out for holding what another table holds.
  bool LeftOut(uint32_t run, std::string_view schema) const {
    return committer_.LeftOut(run, schema);
  }
  // The current table's row error, located by the tracker: the table is left out.
  void LeaveOutTable(Status located);
  // Whether the table that ended last was left out for a row it could not read.
  bool table_left_out() const { return table_left_out_; }
  const std::optional<Status>& first_left_out() const { return first_left_out_; }

  // Across the tables of samples read: rows left out without a weight, and
  // rows without a thread ("Unknown Thread").
  uint64_t rows_without_weight() const { return rows_without_weight_; }
  uint64_t rows_without_thread() const { return rows_without_thread_; }

  std::string ThreadName(const tables::Value& thread) override;
  std::string ProcessName(int64_t pid) override;

 private:
  struct BoundColumn {
    tables::Role role;
    tables::ValueType type;
    tables::WeightUnit unit;  // kWeight's
  };

  Status RowError(const std::string& what) const;
  // A row the table cannot be read past: its rows are skipped until it ends.
  void RowFailed(Status error);
  void AssignNumber(const OpenElement& cell, const Value& value, tables::Value* to);
  void AssignDuration(const OpenElement& cell, const Value& value, tables::Value* to);
  void AssignWeight(const OpenElement& cell, const Value& value, tables::WeightUnit unit,
                    tables::Value* to);
  void AssignThread(const Value& value, tables::Value* to);
  void AssignProcess(const Value& value, tables::Value* to);
  void AssignOther(const OpenElement& cell, const Value& value, const BoundColumn& bound,
                   tables::Value* to);
  std::string CellError(const OpenElement& cell, const Value& value, const char* what) const;
  void CommitSamples();

  ProfileBuilder& builder_;
  ThreadCells& threads_;
  const TextCells& texts_;
  FirstError& error_;
  tables::TableCommitter committer_;
  bool views_;

  // The current table: one of its consumers.
  const tables::TableEntry* entry_ = nullptr;
  uint32_t run_ = 1;
  bool table_failed_ = false;
  bool table_left_out_ = false;
  std::optional<Status> first_left_out_;
  std::vector<std::optional<BoundColumn>> columns_;  // one per <schema> column
  std::vector<tables::Role> bound_roles_;
  std::unique_ptr<tables::IntervalConsumer> intervals_;
  std::unique_ptr<tables::SampleConsumer> samples_consumer_;

  // The current row: its values, and per role the TextCells record of its text (else -1),
  // made views only when the row ends (records move as they are added).
  uint64_t row_index_ = 0;
  size_t cells_ = 0;
  tables::TypedRow row_;
  int64_t texts_of_row_[tables::kRoles];
  bool row_has_texts_ = false;

  // Across the document: names by pid and tid, as their cells gave them.
  std::map<int64_t, std::string> process_names_;
  std::map<uint64_t, std::string> thread_names_;
  uint64_t rows_without_weight_ = 0;
  uint64_t rows_without_thread_ = 0;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_ROWS_H_
