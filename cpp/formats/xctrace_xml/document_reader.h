// The structure of an xctrace export, as the ElementTracker reports its elements:
// the root (table data, a table of contents, or not an export at all), each
// <node> with its run and its <schema>'s columns, and which <row>s are read.
// The elements inside those rows go to CellValues, the rows themselves to
// TableRows, for the consumer of the table's catalogue entry
// (tables/catalogue.h). What the document held is kept for the importer's
// summary.
//
// Not read: the rows of tables the catalogue has no entry for (nor those of
// intervals and weighted events when ImportOptions::intervals is off), or of
// other runs than the one asked for (they are counted, never parsed).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_DOCUMENT_READER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_DOCUMENT_READER_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/importer.h"
#include "formats/xctrace_xml/cell_values.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/table_of_contents.h"
#include "formats/xctrace_xml/table_rows.h"
#include "formats/xctrace_xml/table_schema.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class DocumentReader {
 public:
  DocumentReader(ProfileBuilder& builder, const ImportOptions& options);

  // An element starts; it is `stack.back()`, below the elements open around it.
  Content Start(std::vector<OpenElement>& stack, const Attributes& attributes);
  // An element ends; `stack` holds the elements still open, `text` what
  // followed its last tag inside.
  void End(const OpenElement& closed, const std::vector<OpenElement>& stack, std::string_view text);

  // The elements inside a <row> that is read, refs already resolved.
  void StartValue(const OpenElement& open, const Attributes& attributes) {
    cells_.Start(open, attributes);
  }
  Value CompleteValue(const OpenElement& open, std::string_view text) {
    return cells_.Complete(open, text);
  }
  void DeliverValue(const OpenElement& child, const OpenElement& parent, const Value& value) {
    cells_.Deliver(child, parent, value);
  }
  void DeliverCell(const OpenElement& cell, const Value& value) { rows_.AssignCell(cell, value); }

  // After the last element: what waits for the whole document (the
  // signposts of tables that may repeat one another).
  Status Finish();

  bool failed() const { return error_.failed(); }
  bool any_error() const { return error_.any(); }
  Status TakeError() { return error_.Take(); }
  // A table that cannot be read: the tracker takes its error, locates it
  // and gives it back; the table is left out with a warning.
  bool part_failed() const { return error_.part_failed(); }
  Status TakePartError() { return error_.TakePart(); }
  void LeaveOutTable(Status located) { rows_.LeaveOutTable(std::move(located)); }
  // The first table left out, when nothing else was read: the import's error.
  const std::optional<Status>& first_left_out() const { return rows_.first_left_out(); }

  // What the document held.
  bool is_table_of_contents() const { return document_ == Document::kTableOfContents; }
  const TableOfContents& table_of_contents() const { return toc_; }
  const std::vector<TableSummary>& tables() const { return tables_; }
  const std::set<uint32_t>& runs() const { return runs_seen_; }
  // The runs with a table read as intervals or weighted events, empty or not.
  const std::set<uint32_t>& runs_with_interval_tables() const { return runs_with_interval_tables_; }
  const TableRows& rows() const { return rows_; }

 private:
  Content StartRoot(const OpenElement& root);
  void StartNode(OpenElement& node, const Attributes& attributes);
  void StartSchema(const Attributes& attributes);
  Content StartRow(OpenElement& row);
  void EndNode();
  void EndSchema();

  const ImportOptions& options_;
  FirstError error_;
  CellValues cells_;
  TableRows rows_;

  enum class Document : uint8_t { kUnknown, kData, kTableOfContents };
  Document document_ = Document::kUnknown;
  TableOfContents toc_;

  // The current <node>.
  uint64_t node_count_ = 0;
  uint32_t node_run_ = 1;
  bool schema_seen_ = false;
  std::string schema_name_;
  std::vector<Column> columns_;
  Column column_draft_;
  bool node_has_cpu_samples_ = false;
  bool node_has_intervals_ = false;  // a table of intervals or of weighted events
  bool node_read_ = false;           // its rows go to rows_
  uint64_t node_rows_ = 0;
  bool in_row_ = false;  // in a <row> that is read

  // The whole document.
  std::vector<TableSummary> tables_;
  std::set<uint32_t> runs_seen_;
  std::set<uint32_t> runs_with_interval_tables_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_DOCUMENT_READER_H_
