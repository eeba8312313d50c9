#include "formats/xctrace_xml/document_reader.h"

#include <utility>

namespace instrumentscope::xctrace_xml {

DocumentReader::DocumentReader(ProfileBuilder& builder, const ImportOptions& options)
    : builder_(builder),
      options_(options),
      cells_(builder, options.limits, error_),
      rows_(builder, cells_.threads(), error_),
      intervals_(builder, cells_.threads(), cells_.texts(), error_) {}

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
  layout_ = TableLayout{};
  node_has_intervals_ = false;
  node_reading_ = Reading::kNone;
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
  if (node_reading_ == Reading::kNone) return Content::kSkipped;
  in_row_ = true;
  if (node_reading_ == Reading::kSamples) {
    rows_.StartRow();
  } else {
    intervals_.StartRow(node_rows_);
  }
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
      if (node_reading_ == Reading::kSamples) {
        rows_.EndRow();
      } else {
        intervals_.EndRow();
      }
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
  layout_ = ReadTableLayout(schema_name_, columns_);
  bool in_run = !options_.run || *options_.run == node_run_;
  if (layout_.has_cpu_samples) {
    if (!in_run) return;
    node_reading_ = Reading::kSamples;
    ValueUnit unit = layout_.weight_unit == WeightUnit::kNanoseconds ? ValueUnit::kNanoseconds
                                                                     : ValueUnit::kNone;
    rows_.StartTable(layout_, builder_.AddTimeline(node_run_, layout_.schema, unit));
    return;
  }
  if (!options_.intervals) return;
  if (std::optional<WeightedLayout> weighted = ReadWeightedLayout(schema_name_, columns_)) {
    node_has_intervals_ = true;
    if (!in_run) return;
    node_reading_ = Reading::kSamples;
    layout_ = std::move(weighted->table);
    ProfileBuilder::TimelineContent content;
    content.kind = ProfileKind::kWeighted;
    content.weighs = std::move(weighted->weighs);
    rows_.StartTable(layout_,
                     builder_.AddTimeline(node_run_, layout_.schema, ValueUnit::kNanoseconds,
                                          ProfileBuilder::TimeAxis::kShared, content));
  } else if (const tables::TableEntry* entry = tables::FindTable(schema_name_)) {
    node_has_intervals_ = !in_run || intervals_.StartTable(*entry, columns_, node_run_);
    if (!in_run || !node_has_intervals_) return;
    node_reading_ = Reading::kIntervals;
    cells_.KeepTexts(true);
  }
}

void DocumentReader::EndNode() {
  if (node_reading_ == Reading::kIntervals) intervals_.EndTable();
  TableSummary summary;
  summary.run = node_run_;
  summary.schema = schema_seen_ ? layout_.schema : std::string("(no schema)");
  summary.rows = node_rows_;
  summary.has_cpu_samples = layout_.has_cpu_samples;
  // Listed as read only with rows, as a bundle's tables are, and not when left out.
  bool left_out = node_reading_ == Reading::kIntervals && intervals_.table_left_out();
  summary.has_intervals = node_has_intervals_ && node_rows_ > 0 && !left_out;
  if (node_has_intervals_) runs_with_interval_tables_.insert(node_run_);
  tables_.push_back(std::move(summary));
  cells_.Clear();
}

Status DocumentReader::Finish() {
  RETURN_IF_ERROR(intervals_.Finish());
  // Tables whose signposts another table of their run holds are listed as not read.
  for (TableSummary& table : tables_) {
    if (intervals_.LeftOut(table.run, table.schema)) table.has_intervals = false;
  }
  return OkStatus();
}

}  // namespace instrumentscope::xctrace_xml
