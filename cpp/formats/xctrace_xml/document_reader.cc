#include "formats/xctrace_xml/document_reader.h"

#include <utility>

namespace instrumentscope::xctrace_xml {

DocumentReader::DocumentReader(ProfileBuilder& builder, const ImportOptions& options)
    : options_(options),
      cells_(builder, options.limits, error_),
      rows_(builder, cells_.threads(), cells_.texts(), error_, options.intervals) {}

Content DocumentReader::Start(std::vector<OpenElement>& stack, const Attributes& attributes) {
  OpenElement& open = stack.back();
  size_t depth = stack.size() - 1;  // elements open around this one
  if (depth == 0) return StartRoot(open);
  if (document_ == Document::kTableOfContents) {
    toc_.Start(open.element, depth, attributes);
    return Content::kElements;
  }
  if (depth == 1) {
    if (open.element != Element::kNode) return Content::kElements;
    StartNode(open, attributes);
    return Content::kTable;
  }
  if (depth == 2 && stack[1].element == Element::kNode) {
    if (open.element == Element::kSchema) {
      StartSchema(attributes);
    } else if (open.element == Element::kRow) {
      return StartRow(open);
    }
  }
  return Content::kElements;
}

Content DocumentReader::StartRoot(const OpenElement& root) {
  if (root.element == Element::kTraceQueryResult) {
    document_ = Document::kData;
    return Content::kElements;
  }
  if (root.element == Element::kTraceToc) {
    document_ = Document::kTableOfContents;
    return Content::kStartTags;
  }
  error_.Set(Status(ErrorCode::kXmlNotXctrace,
                    "the root element is <" + std::string(AsView(root.name)) +
                        ">, not an xctrace export's <trace-query-result> (table data) or "
                        "<trace-toc> (table of contents)"));
  return Content::kElements;
}

void DocumentReader::StartNode(OpenElement& node, const Attributes& attributes) {
  node.index = ++node_count_;
  std::optional<std::string_view> xpath = attributes.Find("xpath");
  node_run_ = xpath ? RunFromXpath(DecodeAttribute(*xpath)) : 1;
  runs_seen_.insert(node_run_);
  schema_seen_ = false;
  schema_name_.clear();
  columns_.clear();
  node_has_cpu_samples_ = false;
  node_has_intervals_ = false;
  node_read_ = false;
  node_rows_ = 0;
}

void DocumentReader::StartSchema(const Attributes& attributes) {
  if (schema_seen_) {
    error_.Set(Status(ErrorCode::kXmlBadStructure, "a <node> has a second <schema>"));
    return;
  }
  if (std::optional<std::string_view> name = attributes.Find("name")) {
    schema_name_ = DecodeAttribute(*name);
  }
  columns_.clear();
  column_draft_ = Column{};
}

Content DocumentReader::StartRow(OpenElement& row) {
  row.index = node_rows_ + 1;
  if (!schema_seen_) {
    error_.Set(Status(ErrorCode::kXmlBadStructure, "a <row> comes before the table's <schema>"));
    return Content::kElements;
  }
  ++node_rows_;
  if (!node_read_) return Content::kSkipped;
  in_row_ = true;
  rows_.StartRow(node_rows_);
  return Content::kValues;
}

void DocumentReader::End(const OpenElement& closed, const std::vector<OpenElement>& stack,
                         std::string_view text) {
  size_t depth = stack.size();
  if (depth == 1 && closed.element == Element::kNode) {
    EndNode();
  } else if (depth == 2 && closed.element == Element::kSchema) {
    EndSchema();
  } else if (depth == 2 && closed.element == Element::kRow) {
    if (in_row_) {
      in_row_ = false;
      rows_.EndRow();
    }
  } else if (depth == 3 && closed.element == Element::kCol &&
             stack[2].element == Element::kSchema && stack[1].element == Element::kNode) {
    columns_.push_back(std::move(column_draft_));
    column_draft_ = Column{};
  } else if (depth == 4 && stack[3].element == Element::kCol &&
             stack[2].element == Element::kSchema && stack[1].element == Element::kNode) {
    if (closed.element == Element::kMnemonic) {
      column_draft_.mnemonic = std::string(TrimWhitespace(text));
    }
    if (closed.element == Element::kEngineeringType) {
      column_draft_.engineering_type = std::string(TrimWhitespace(text));
    }
  }
}

void DocumentReader::EndSchema() {
  schema_seen_ = true;
  const tables::TableEntry* entry = tables::FindTable(schema_name_);
  if (!entry || !entry->from_exports) return;
  bool samples = entry->consumer == tables::Consumer::kCpuSamples;
  if (!samples && !options_.intervals) return;
  bool in_run = !options_.run || *options_.run == node_run_;
  // A table of another run is not read, nor its columns looked at.
  bool read = in_run && rows_.StartTable(*entry, columns_, node_run_);
  (samples ? node_has_cpu_samples_ : node_has_intervals_) = !in_run || read;
  node_read_ = read;
  if (read && tables::ReadsTexts(*entry)) cells_.KeepTexts(true);
}

void DocumentReader::EndNode() {
  if (node_read_) rows_.EndTable();
  TableSummary summary;
  summary.run = node_run_;
  summary.schema = schema_seen_ ? schema_name_ : std::string("(no schema)");
  summary.rows = node_rows_;
  // Listed as read only with rows, as a bundle's tables are, and not when left out.
  bool left_out = node_read_ && rows_.table_left_out();
  summary.has_cpu_samples = node_has_cpu_samples_;  // left out or not: the import's error says
  summary.has_intervals = node_has_intervals_ && node_rows_ > 0 && !left_out;
  if (node_has_intervals_) runs_with_interval_tables_.insert(node_run_);
  tables_.push_back(std::move(summary));
  cells_.Clear();
}

Status DocumentReader::Finish() {
  RETURN_IF_ERROR(rows_.Finish());
  // Tables whose signposts another table of their run holds are listed as not read.
  for (TableSummary& table : tables_) {
    if (rows_.LeftOut(table.run, table.schema)) table.has_intervals = false;
  }
  return OkStatus();
}

}  // namespace instrumentscope::xctrace_xml
