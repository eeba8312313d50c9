#include "formats/xctrace_xml/xml_importer.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/text.h"
#include "formats/names.h"
#include "formats/xctrace_xml/id_table.h"
#include "formats/xctrace_xml/labels.h"
#include "formats/xctrace_xml/table_schema.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {
namespace {

// The elements the importer gives meaning to; everything else is kOther and
// matters only as a holder of ids.
enum class Element : uint8_t {
  kOther,
  kTraceQueryResult,
  kTraceToc,
  kNode,
  kSchema,
  kCol,
  kMnemonic,
  kEngineeringType,
  kRow,
  kSentinel,
  kThread,
  kTid,
  kProcess,
  kPid,
  kBacktrace,
  kTaggedBacktrace,
  kKperfBt,
  kFrame,
  kBinary,
  kSource,
  kPath,
  kTextAddresses,
  kTextAddress,
  kRun,
  kTable,
};

Element ElementFromName(std::string_view name) {
  static const std::unordered_map<std::string_view, Element> elements = {
      {"trace-query-result", Element::kTraceQueryResult},
      {"trace-toc", Element::kTraceToc},
      {"node", Element::kNode},
      {"schema", Element::kSchema},
      {"col", Element::kCol},
      {"mnemonic", Element::kMnemonic},
      {"engineering-type", Element::kEngineeringType},
      {"row", Element::kRow},
      {"sentinel", Element::kSentinel},
      {"thread", Element::kThread},
      {"tid", Element::kTid},
      {"process", Element::kProcess},
      {"pid", Element::kPid},
      {"backtrace", Element::kBacktrace},
      {"tagged-backtrace", Element::kTaggedBacktrace},
      {"kperf-bt", Element::kKperfBt},
      {"frame", Element::kFrame},
      {"binary", Element::kBinary},
      {"source", Element::kSource},
      {"path", Element::kPath},
      {"text-addresses", Element::kTextAddresses},
      {"text-address", Element::kTextAddress},
      {"run", Element::kRun},
      {"table", Element::kTable},
  };
  auto entry = elements.find(name);
  return entry == elements.end() ? Element::kOther : entry->second;
}

Value MakeValue(ValueClass value_class, uint32_t index) {
  Value value;
  value.value_class = value_class;
  value.index = index;
  return value;
}

std::string_view AsView(const xmlChar* text) {
  return std::string_view(reinterpret_cast<const char*>(text));
}

template <typename T>
std::optional<T> ParseDecimal(std::string_view text) {
  text = TrimWhitespace(text);
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// With entity replacement off, libxml2 hands SAX2 an '&' written as &amp; or
// &#38; in an attribute as the text "&#38;". No other reference survives: the
// DOCTYPE is refused, so no entity can be declared.
std::string DecodeAttribute(const xmlChar* begin, const xmlChar* end) {
  std::string value(reinterpret_cast<const char*>(begin), static_cast<size_t>(end - begin));
  if (value.find('&') == std::string::npos) return value;
  static constexpr std::string_view kAmpersand = "&#38;";
  std::string decoded;
  decoded.reserve(value.size());
  for (size_t i = 0; i < value.size();) {
    if (std::string_view(value).substr(i, kAmpersand.size()) == kAmpersand) {
      decoded.push_back('&');
      i += kAmpersand.size();
    } else {
      decoded.push_back(value[i++]);
    }
  }
  return decoded;
}

std::string Plural(uint64_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

struct OpenElement {
  const xmlChar* name;  // owned by the parser's dictionary
  Element element;
  uint16_t name_id = 0;  // see XmlImporter::element_names_
  bool has_child = false;
  bool is_ref = false;
  bool has_id = false;
  uint64_t id = 0;
  Value ref_value;
  int32_t column = -1;  // for the cells of a row
  uint64_t index = 0;   // 1-based position, for nodes and rows in error paths
};

struct ThreadRecord {
  std::string label;
  uint64_t tid = 0;
  int64_t process = -1;
  int64_t builder_thread = -1;  // this node's ProfileBuilder thread, once known
};

struct ProcessRecord {
  std::string name;
  int64_t pid = -1;
};

struct SourceRecord {
  std::optional<uint32_t> line;
  int64_t path = -1;
};

struct AddressFragment {
  size_t offset;
  size_t count;
};

class XmlImporter final : public StreamImporter {
 public:
  XmlImporter(ProfileBuilder& builder, const ImportOptions& options)
      : builder_(builder), options_(options) {}
  ~XmlImporter() override {
    if (parser_) xmlFreeParserCtxt(parser_);
  }

  Status Feed(ByteSpan bytes) override;
  Status Finish() override;

 private:
  // libxml2 callbacks.
  static void OnStartElement(void* context, const xmlChar* localname, const xmlChar* prefix,
                             const xmlChar* uri, int namespace_count, const xmlChar** namespaces,
                             int attribute_count, int defaulted_count, const xmlChar** attributes);
  static void OnEndElement(void* context, const xmlChar* localname, const xmlChar* prefix,
                           const xmlChar* uri);
  static void OnCharacters(void* context, const xmlChar* text, int length);
  static void OnDoctype(void* context, const xmlChar* name, const xmlChar* external_id,
                        const xmlChar* system_id);
  static void OnXmlError(void* context, xmlErrorPtr error);

  Status CreateParser(ByteSpan first_bytes);
  Status ParseChunk(ByteSpan bytes, bool terminate);

  void StartElement(const xmlChar* localname, int attribute_count, const xmlChar** attributes);
  void EndElement();
  void Fail(Status status);
  Status DepthError() const;
  std::string CurrentPath() const;

  void StartTocElement(Element element, int attribute_count, const xmlChar** attributes);
  void StartNode(int attribute_count, const xmlChar** attributes);
  void EndNode();
  void EndSchema();
  void StartRow(OpenElement& open);
  void EndRow();
  void StartCellContent(OpenElement& open, int attribute_count, const xmlChar** attributes);
  Value Complete(const OpenElement& open);
  void Deliver(const OpenElement& child, const Value& value);
  void AssignCell(const OpenElement& cell, const Value& value);
  Value CompleteBacktrace();
  Value CompleteKperfBacktrace();
  Value AddressesToStack(const std::vector<uint64_t>& addresses, std::string_view leaf_name);
  Value ParseAddresses();
  bool RequireNumber(const OpenElement& element, const Value& value, const char* what);

  Status TableOfContentsError() const;
  Status NoSampleTableError() const;

  ProfileBuilder& builder_;
  const ImportOptions& options_;
  xmlParserCtxtPtr parser_ = nullptr;
  Status status_;

  enum class Document : uint8_t { kUnknown, kData, kTableOfContents };
  Document document_ = Document::kUnknown;
  std::vector<OpenElement> stack_;
  // libxml2 interns element names in its dictionary: one pointer per name.
  struct ElementInfo {
    Element element;
    uint16_t name_id;
  };
  std::unordered_map<const xmlChar*, ElementInfo> element_cache_;
  std::vector<const xmlChar*> element_names_;  // by name_id
  std::string text_;                           // text since the last start or end tag
  uint64_t element_count_ = 0;
  bool skipping_row_ = false;
  uint32_t skip_nesting_ = 0;

  // The current <node>.
  uint64_t node_count_ = 0;
  uint32_t node_run_ = 1;
  bool schema_seen_ = false;
  std::string schema_name_;
  std::vector<Column> columns_;
  Column column_draft_;
  TableLayout layout_;
  bool node_selected_ = false;
  uint64_t node_rows_ = 0;
  ProfileBuilder::TimelineId timeline_ = 0;
  bool unit_decided_ = false;

  // Values behind ids, for the current node.
  IdTable ids_;
  std::vector<ThreadRecord> threads_;
  std::vector<ProcessRecord> processes_;
  struct BinaryRecord {
    std::string image;  // the binary's path, else its name
    CodeImage code;
    ImageId id = kNoImage;  // interned once an unnamed frame lies in it
  };
  std::vector<BinaryRecord> binaries_;
  std::vector<SourceRecord> sources_;
  std::vector<std::string> paths_;
  std::vector<uint64_t> address_pool_;
  std::vector<AddressFragment> fragments_;

  // Elements under construction. xctrace never nests an element in another of
  // its kind, so one draft per kind suffices.
  struct {
    bool open = false;
    std::string fmt;
    std::optional<uint64_t> tid;
    int64_t process = -1;
  } thread_;
  struct {
    bool open = false;
    std::string fmt;
    std::optional<int64_t> pid;
  } process_;
  struct {
    bool open = false;
    std::string name;
    std::string address;
    int64_t binary = -1;
    int64_t source = -1;
  } frame_;
  struct {
    bool open = false;
    std::string name;
    std::string path;
    std::string uuid;
    std::string load_address;
    std::string arch;
  } binary_;
  struct {
    bool open = false;
    std::optional<uint32_t> line;
    int64_t path = -1;
  } source_;
  struct {
    bool open = false;
    std::string fmt;
    std::vector<FrameId> frames;
    std::vector<uint64_t> addresses;
  } backtrace_;
  struct {
    bool open = false;
    StackId stack = kEmptyStack;
  } tagged_;
  struct {
    bool open = false;
    std::vector<uint64_t> addresses;
    std::optional<uint64_t> pc;
  } kperf_;

  // The current <row>.
  bool in_row_ = false;
  size_t row_depth_ = 0;
  int32_t row_cells_ = 0;
  struct {
    std::optional<int64_t> time;
    int64_t thread = -1;
    int64_t process = -1;
    std::optional<int64_t> weight;
    bool weight_is_time = false;
    StackId stack = kEmptyStack;
    StackId kernel_stack = kEmptyStack;
  } row_;

  // The whole document.
  std::vector<TableSummary> tables_;
  std::set<uint32_t> runs_seen_;
  uint64_t rows_without_weight_ = 0;
  uint64_t rows_without_thread_ = 0;
  struct TocRun {
    std::string number;
    std::vector<std::string> schemas;
  };
  std::vector<TocRun> toc_runs_;
  std::vector<FrameId> frame_scratch_;
};

Status XmlImporter::CreateParser(ByteSpan first_bytes) {
  // Only the callbacks set here run: no entity resolution, no DTD loading.
  xmlSAXHandler sax;
  std::memset(&sax, 0, sizeof(sax));
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = &XmlImporter::OnStartElement;
  sax.endElementNs = &XmlImporter::OnEndElement;
  sax.characters = &XmlImporter::OnCharacters;
  sax.cdataBlock = &XmlImporter::OnCharacters;
  sax.internalSubset = &XmlImporter::OnDoctype;
  sax.serror = &XmlImporter::OnXmlError;

  // Four bytes let libxml2 detect the encoding before the first chunk.
  size_t initial = std::min<size_t>(first_bytes.size(), 4);
  parser_ = xmlCreatePushParserCtxt(&sax, this, reinterpret_cast<const char*>(first_bytes.data()),
                                    static_cast<int>(initial), nullptr);
  if (!parser_) return Status(ErrorCode::kLimitExceeded, "could not allocate an XML parser");
  // No XML_PARSE_NOENT (no entity substitution), no DTD loading, no network.
  xmlCtxtUseOptions(parser_, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  return ParseChunk(first_bytes.subspan(initial), false);
}

Status XmlImporter::ParseChunk(ByteSpan bytes, bool terminate) {
  // libxml2 copies each piece into its own input buffer before parsing it:
  // small pieces keep that buffer small, whatever the size of our chunks.
  static constexpr size_t kMaxPiece = 256 << 10;
  do {
    size_t piece = std::min(bytes.size(), kMaxPiece);
    bool last = terminate && piece == bytes.size();
    int result = xmlParseChunk(parser_, reinterpret_cast<const char*>(bytes.data()),
                               static_cast<int>(piece), last ? 1 : 0);
    if (!status_.ok()) return status_;
    if (result != 0) {
      Fail(Status(ErrorCode::kXmlSyntax,
                  "the XML is malformed (libxml2 error " + std::to_string(result) + ")"));
      return status_;
    }
    bytes = bytes.subspan(piece);
  } while (!bytes.empty());
  return OkStatus();
}

Status XmlImporter::Feed(ByteSpan bytes) {
  if (!status_.ok()) return status_;
  if (!parser_) return CreateParser(bytes);
  if (bytes.empty()) return OkStatus();
  return ParseChunk(bytes, false);
}

Status XmlImporter::Finish() {
  if (!status_.ok()) return status_;
  if (!parser_) RETURN_IF_ERROR(CreateParser(ByteSpan()));
  RETURN_IF_ERROR(ParseChunk(ByteSpan(), true));

  if (document_ == Document::kTableOfContents) return TableOfContentsError();
  for (const TableSummary& table : tables_) builder_.AddTable(table);
  if (options_.run && !runs_seen_.count(*options_.run)) {
    std::string runs;
    for (uint32_t run : runs_seen_) runs += (runs.empty() ? "" : ", ") + std::to_string(run);
    return Status(ErrorCode::kRunNotFound, "this export has no run " +
                                               std::to_string(*options_.run) + "; it has run" +
                                               (runs_seen_.size() == 1 ? " " : "s ") + runs);
  }
  bool any_sample_table = std::any_of(tables_.begin(), tables_.end(), [this](const auto& table) {
    return table.has_cpu_samples && (!options_.run || *options_.run == table.run);
  });
  if (!any_sample_table) return NoSampleTableError();
  if (builder_.total_samples() == 0) {
    return Status(ErrorCode::kXmlNoSamples,
                  "the CPU sample tables in this export have no rows with samples");
  }
  if (rows_without_weight_) {
    builder_.AddWarning("ROWS_WITHOUT_WEIGHT",
                        Plural(rows_without_weight_, "row") + " had no weight and were left out");
  }
  if (rows_without_thread_) {
    builder_.AddWarning("ROWS_WITHOUT_THREAD", Plural(rows_without_thread_, "row") +
                                                   " named no thread; they appear under "
                                                   "\"Unknown Thread\"");
  }
  return OkStatus();
}

void XmlImporter::Fail(Status status) {
  if (!status_.ok()) return;
  if (status.path().empty()) status.WithPath(CurrentPath());
  if (parser_ && parser_->input) {
    status.WithLine(static_cast<uint64_t>(parser_->input->line));
    status.WithOffset(static_cast<uint64_t>(xmlByteConsumed(parser_)));
  }
  status_ = std::move(status);
  if (parser_) xmlStopParser(parser_);
}

Status XmlImporter::DepthError() const {
  return Status(ErrorCode::kLimitExceeded, "XML elements nest deeper than " +
                                               std::to_string(options_.limits.max_xml_depth) +
                                               " levels (limits.maxXmlDepth)");
}

std::string XmlImporter::CurrentPath() const {
  // Deep paths keep their first and last elements.
  static constexpr size_t kShown = 8;
  std::string path;
  for (size_t i = 0; i < stack_.size(); ++i) {
    if (stack_.size() > 2 * kShown && i == kShown) {
      path += "/…(" + std::to_string(stack_.size() - 2 * kShown) + " more)…";
      i = stack_.size() - kShown;
    }
    const OpenElement& open = stack_[i];
    if (!path.empty()) path += '/';
    path += AsView(open.name);
    if (open.element == Element::kNode || open.element == Element::kRow) {
      path += "[" + std::to_string(open.index) + "]";
    }
  }
  return path;
}

void XmlImporter::OnXmlError(void* context, xmlErrorPtr error) {
  auto* self = static_cast<XmlImporter*>(context);
  if (!error || error->level == XML_ERR_WARNING) return;
  std::string message = error->message ? error->message : "malformed XML";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  Status status(ErrorCode::kXmlSyntax, "the XML is malformed: " + message);
  if (error->line > 0) status.WithLine(static_cast<uint64_t>(error->line));
  self->Fail(std::move(status));
}

void XmlImporter::OnDoctype(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  static_cast<XmlImporter*>(context)->Fail(
      Status(ErrorCode::kXmlForbidden,
             "the XML has a DOCTYPE, which xctrace exports never have; DTDs and entities are "
             "refused, not processed"));
}

void XmlImporter::OnCharacters(void* context, const xmlChar* text, int length) {
  auto* self = static_cast<XmlImporter*>(context);
  if (self->skipping_row_ || !self->status_.ok()) return;
  if (self->text_.size() + static_cast<size_t>(length) > self->options_.limits.max_xml_text_bytes) {
    self->Fail(Status(ErrorCode::kLimitExceeded,
                      "an element's text exceeds " +
                          std::to_string(self->options_.limits.max_xml_text_bytes) +
                          " bytes (limits.maxXmlTextBytes)"));
    return;
  }
  self->text_.append(reinterpret_cast<const char*>(text), static_cast<size_t>(length));
}

void XmlImporter::OnStartElement(void* context, const xmlChar* localname, const xmlChar*,
                                 const xmlChar*, int, const xmlChar**, int attribute_count, int,
                                 const xmlChar** attributes) {
  auto* self = static_cast<XmlImporter*>(context);
  if (!self->status_.ok()) return;
  if (++self->element_count_ > self->options_.limits.max_xml_elements) {
    self->Fail(Status(ErrorCode::kLimitExceeded,
                      "more than " + std::to_string(self->options_.limits.max_xml_elements) +
                          " XML elements (limits.maxXmlElements)"));
    return;
  }
  if (self->skipping_row_) {
    if (self->stack_.size() + ++self->skip_nesting_ >= self->options_.limits.max_xml_depth) {
      self->Fail(self->DepthError());
    }
    return;
  }
  self->StartElement(localname, attribute_count, attributes);
}

void XmlImporter::OnEndElement(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  auto* self = static_cast<XmlImporter*>(context);
  if (!self->status_.ok()) return;
  if (self->skipping_row_ && self->skip_nesting_ > 0) {
    --self->skip_nesting_;
    return;
  }
  self->EndElement();
}

void XmlImporter::StartElement(const xmlChar* localname, int attribute_count,
                               const xmlChar** attributes) {
  auto cached = element_cache_.find(localname);
  if (cached == element_cache_.end()) {
    if (element_names_.size() > UINT16_MAX) {
      Fail(Status(ErrorCode::kLimitExceeded, "more than 65536 distinct element names"));
      return;
    }
    ElementInfo info{ElementFromName(AsView(localname)),
                     static_cast<uint16_t>(element_names_.size())};
    element_names_.push_back(localname);
    cached = element_cache_.emplace(localname, info).first;
  }
  Element element = cached->second.element;
  if (!stack_.empty()) stack_.back().has_child = true;
  text_.clear();
  size_t depth = stack_.size();
  if (depth >= options_.limits.max_xml_depth) {
    Fail(DepthError());
    return;
  }
  OpenElement pushed;
  pushed.name = localname;
  pushed.element = element;
  pushed.name_id = cached->second.name_id;
  stack_.push_back(pushed);
  OpenElement& open = stack_.back();

  if (depth == 0) {
    if (element == Element::kTraceQueryResult) {
      document_ = Document::kData;
    } else if (element == Element::kTraceToc) {
      document_ = Document::kTableOfContents;
    } else {
      Fail(Status(ErrorCode::kXmlNotXctrace,
                  "the root element is <" + std::string(AsView(localname)) +
                      ">, not an xctrace export's <trace-query-result> (table data) or "
                      "<trace-toc> (table of contents)"));
    }
    return;
  }
  if (document_ == Document::kTableOfContents) {
    StartTocElement(element, attribute_count, attributes);
    return;
  }
  if (depth == 1) {
    if (element == Element::kNode) {
      open.index = ++node_count_;
      StartNode(attribute_count, attributes);
    }
    return;
  }
  if (depth == 2 && stack_[1].element == Element::kNode) {
    if (element == Element::kSchema) {
      if (schema_seen_) {
        Fail(Status(ErrorCode::kXmlBadStructure, "a <node> has a second <schema>"));
        return;
      }
      for (int i = 0; i < attribute_count; ++i) {
        const xmlChar** attribute = attributes + i * 5;
        if (AsView(attribute[0]) == "name")
          schema_name_ = DecodeAttribute(attribute[3], attribute[4]);
      }
      columns_.clear();
      column_draft_ = Column{};
    } else if (element == Element::kRow) {
      StartRow(open);
    }
    return;
  }
  if (in_row_) StartCellContent(open, attribute_count, attributes);
}

void XmlImporter::EndElement() {
  OpenElement open = stack_.back();
  stack_.pop_back();
  size_t depth = stack_.size();

  if (document_ != Document::kData) return;
  if (depth == 1 && open.element == Element::kNode) {
    EndNode();
  } else if (depth == 2 && open.element == Element::kSchema) {
    EndSchema();
  } else if (depth == 2 && open.element == Element::kRow) {
    if (skipping_row_) {
      skipping_row_ = false;
    } else if (in_row_) {
      EndRow();
    }
  } else if (depth == 3 && open.element == Element::kCol && stack_[2].element == Element::kSchema &&
             stack_[1].element == Element::kNode) {
    columns_.push_back(std::move(column_draft_));
    column_draft_ = Column{};
  } else if (depth == 4 && stack_[3].element == Element::kCol &&
             stack_[2].element == Element::kSchema && stack_[1].element == Element::kNode) {
    if (open.element == Element::kMnemonic)
      column_draft_.mnemonic = std::string(TrimWhitespace(text_));
    if (open.element == Element::kEngineeringType) {
      column_draft_.engineering_type = std::string(TrimWhitespace(text_));
    }
  } else if (in_row_ && depth >= row_depth_) {
    Value value = open.is_ref ? open.ref_value : Complete(open);
    if (!status_.ok()) return;
    if (open.has_id) {
      value.element = open.name_id;
      if (ids_.size() >= options_.limits.max_xml_ids) {
        Fail(Status(ErrorCode::kLimitExceeded,
                    "more than " + std::to_string(options_.limits.max_xml_ids) +
                        " distinct ids in one <node> (limits.maxXmlIds)"));
        return;
      }
      if (!ids_.Define(open.id, value)) {
        Fail(Status(ErrorCode::kXmlDuplicateId,
                    "id=\"" + std::to_string(open.id) + "\" is defined twice in this <node>"));
        return;
      }
    }
    Deliver(open, value);
  }
  text_.clear();
}

void XmlImporter::StartTocElement(Element element, int attribute_count,
                                  const xmlChar** attributes) {
  auto attribute_value = [&](std::string_view name) -> std::string {
    for (int i = 0; i < attribute_count; ++i) {
      const xmlChar** attribute = attributes + i * 5;
      if (AsView(attribute[0]) == name) return DecodeAttribute(attribute[3], attribute[4]);
    }
    return {};
  };
  if (element == Element::kRun && stack_.size() == 2) {
    toc_runs_.push_back(TocRun{attribute_value("number"), {}});
  } else if (element == Element::kTable && !toc_runs_.empty()) {
    std::string schema = attribute_value("schema");
    auto& schemas = toc_runs_.back().schemas;
    if (!schema.empty() && std::find(schemas.begin(), schemas.end(), schema) == schemas.end()) {
      schemas.push_back(std::move(schema));
    }
  }
}

void XmlImporter::StartNode(int attribute_count, const xmlChar** attributes) {
  node_run_ = 1;
  for (int i = 0; i < attribute_count; ++i) {
    const xmlChar** attribute = attributes + i * 5;
    if (AsView(attribute[0]) == "xpath") {
      node_run_ = RunFromXpath(DecodeAttribute(attribute[3], attribute[4]));
    }
  }
  runs_seen_.insert(node_run_);
  schema_seen_ = false;
  schema_name_.clear();
  columns_.clear();
  layout_ = TableLayout{};
  node_selected_ = false;
  node_rows_ = 0;
  unit_decided_ = false;
}

void XmlImporter::EndSchema() {
  schema_seen_ = true;
  layout_ = ReadTableLayout(schema_name_, columns_);
  node_selected_ = layout_.has_cpu_samples && (!options_.run || *options_.run == node_run_);
  if (!node_selected_) return;
  ValueUnit unit =
      layout_.weight_unit == WeightUnit::kNanoseconds ? ValueUnit::kNanoseconds : ValueUnit::kNone;
  timeline_ = builder_.AddTimeline(node_run_, layout_.schema, unit);
  unit_decided_ = layout_.weight_unit != WeightUnit::kFromCell;
}

void XmlImporter::EndNode() {
  TableSummary summary;
  summary.run = node_run_;
  summary.schema = schema_seen_ ? layout_.schema : std::string("(no schema)");
  summary.rows = node_rows_;
  summary.has_cpu_samples = layout_.has_cpu_samples;
  tables_.push_back(std::move(summary));

  ids_.Clear();
  threads_.clear();
  processes_.clear();
  binaries_.clear();
  sources_.clear();
  paths_.clear();
  address_pool_.clear();
  fragments_.clear();
}

void XmlImporter::StartRow(OpenElement& open) {
  open.index = node_rows_ + 1;
  if (!schema_seen_) {
    Fail(Status(ErrorCode::kXmlBadStructure, "a <row> comes before the table's <schema>"));
    return;
  }
  ++node_rows_;
  if (!node_selected_) {
    skipping_row_ = true;
    skip_nesting_ = 0;
    return;
  }
  in_row_ = true;
  row_depth_ = stack_.size();
  row_cells_ = 0;
  row_ = {};
}

void XmlImporter::StartCellContent(OpenElement& open, int attribute_count,
                                   const xmlChar** attributes) {
  if (stack_.size() == row_depth_ + 1) open.column = row_cells_++;
  const OpenElement& parent = stack_[stack_.size() - 2];
  if (parent.is_ref) {
    Fail(Status(ErrorCode::kXmlBadStructure,
                "<" + std::string(AsView(parent.name)) + " ref> has content; refs are empty"));
    return;
  }

  std::optional<std::string_view> id_text, ref_text;
  const xmlChar** fmt = nullptr;
  const xmlChar** name = nullptr;
  const xmlChar** address = nullptr;
  const xmlChar** path = nullptr;
  const xmlChar** line = nullptr;
  const xmlChar** uuid = nullptr;
  const xmlChar** load_address = nullptr;
  const xmlChar** arch = nullptr;
  for (int i = 0; i < attribute_count; ++i) {
    const xmlChar** attribute = attributes + i * 5;
    std::string_view key = AsView(attribute[0]);
    std::string_view value(reinterpret_cast<const char*>(attribute[3]),
                           static_cast<size_t>(attribute[4] - attribute[3]));
    if (key == "id")
      id_text = value;
    else if (key == "ref")
      ref_text = value;
    else if (key == "fmt")
      fmt = attribute;
    else if (key == "name")
      name = attribute;
    else if (key == "addr")
      address = attribute;
    else if (key == "path")
      path = attribute;
    else if (key == "line")
      line = attribute;
    else if (key == "UUID")
      uuid = attribute;
    else if (key == "load-addr")
      load_address = attribute;
    else if (key == "arch")
      arch = attribute;
  }
  auto decoded = [](const xmlChar** attribute) {
    return attribute ? DecodeAttribute(attribute[3], attribute[4]) : std::string();
  };

  if (ref_text) {
    auto ref = ParseDecimal<uint64_t>(*ref_text);
    if (!ref) {
      Fail(Status(ErrorCode::kXmlBadValue,
                  "ref=\"" + std::string(*ref_text) + "\" is not a number"));
      return;
    }
    Value value = ids_.Find(*ref);
    if (value.value_class == ValueClass::kUndefined) {
      Fail(Status(ErrorCode::kXmlDanglingRef, "<" + std::string(AsView(open.name)) + " ref=\"" +
                                                  std::to_string(*ref) +
                                                  "\"/> names no earlier element with id=\"" +
                                                  std::to_string(*ref) + "\" in this <node>"));
      return;
    }
    // xctrace refers to an element only by its own name: <frame ref> to a <frame>.
    if (value.element != open.name_id) {
      Fail(Status(ErrorCode::kXmlRefMismatch,
                  "<" + std::string(AsView(open.name)) + " ref=\"" + std::to_string(*ref) +
                      "\"/> names a <" + std::string(AsView(element_names_[value.element])) +
                      ">, not a <" + std::string(AsView(open.name)) + ">"));
      return;
    }
    open.is_ref = true;
    open.ref_value = value;
    return;
  }
  if (id_text) {
    auto id = ParseDecimal<uint64_t>(*id_text);
    if (!id) {
      Fail(Status(ErrorCode::kXmlBadValue, "id=\"" + std::string(*id_text) + "\" is not a number"));
      return;
    }
    open.has_id = true;
    open.id = *id;
  }

  auto nested = [&](bool& is_open) {
    if (is_open) {
      Fail(Status(ErrorCode::kXmlBadStructure, "<" + std::string(AsView(open.name)) +
                                                   "> inside another <" +
                                                   std::string(AsView(open.name)) + ">"));
      return true;
    }
    is_open = true;
    return false;
  };
  switch (open.element) {
    case Element::kThread:
      if (nested(thread_.open)) return;
      thread_.fmt = decoded(fmt);
      thread_.tid.reset();
      thread_.process = -1;
      break;
    case Element::kProcess:
      if (nested(process_.open)) return;
      process_.fmt = decoded(fmt);
      process_.pid.reset();
      break;
    case Element::kFrame:
      if (nested(frame_.open)) return;
      frame_.name = decoded(name);
      frame_.address = decoded(address);
      frame_.binary = -1;
      frame_.source = -1;
      break;
    case Element::kBinary:
      if (nested(binary_.open)) return;
      binary_.name = decoded(name);
      binary_.path = decoded(path);
      binary_.uuid = decoded(uuid);
      binary_.load_address = decoded(load_address);
      binary_.arch = decoded(arch);
      break;
    case Element::kSource:
      if (nested(source_.open)) return;
      source_.line = line ? ParseDecimal<uint32_t>(decoded(line)) : std::nullopt;
      source_.path = -1;
      break;
    case Element::kBacktrace:
      if (nested(backtrace_.open)) return;
      backtrace_.fmt = decoded(fmt);
      backtrace_.frames.clear();
      backtrace_.addresses.clear();
      break;
    case Element::kTaggedBacktrace:
      if (nested(tagged_.open)) return;
      tagged_.stack = kEmptyStack;
      break;
    case Element::kKperfBt:
      if (nested(kperf_.open)) return;
      kperf_.addresses.clear();
      kperf_.pc.reset();
      break;
    default: break;
  }
}

Value XmlImporter::Complete(const OpenElement& open) {
  switch (open.element) {
    case Element::kThread: {
      thread_.open = false;
      ThreadRecord record;
      record.tid = thread_.tid.value_or(0);
      record.label = ThreadLabel(thread_.fmt, record.tid);
      record.process = thread_.process;
      threads_.push_back(std::move(record));
      return MakeValue(ValueClass::kThread, static_cast<uint32_t>(threads_.size() - 1));
    }
    case Element::kProcess: {
      process_.open = false;
      ProcessRecord record;
      record.pid = process_.pid.value_or(-1);
      record.name = ProcessName(process_.fmt, record.pid);
      processes_.push_back(std::move(record));
      return MakeValue(ValueClass::kProcess, static_cast<uint32_t>(processes_.size() - 1));
    }
    case Element::kFrame: {
      frame_.open = false;
      FrameDesc desc;
      desc.name = frame_.name;
      if (desc.name.empty()) {
        desc.name = frame_.address.empty() ? std::string_view("<unknown>")
                                           : std::string_view(frame_.address);
      }
      if (frame_.binary >= 0) desc.image = binaries_[frame_.binary].image;
      // Unsymbolicated frames are named by their address, as "0x…".
      if (auto address = ParseHexAddress(frame_.address);
          address && (frame_.name.empty() || ParseHexAddress(frame_.name))) {
        desc.address = address;
        if (frame_.binary >= 0) {
          BinaryRecord& binary = binaries_[frame_.binary];
          if (binary.id == kNoImage) binary.id = builder_.InternImage(binary.code);
          desc.image_id = binary.id;
        }
      }
      if (frame_.source >= 0) {
        const SourceRecord& source = sources_[frame_.source];
        if (source.path >= 0) desc.source_file = paths_[source.path];
        desc.line = source.line;
      }
      return MakeValue(ValueClass::kFrame, builder_.InternFrame(desc));
    }
    case Element::kBinary:
      binary_.open = false;
      {
        std::string image = binary_.path.empty() ? binary_.name : binary_.path;
        CodeImage code{image, binary_.arch, ParseUuid(binary_.uuid),
                       ParseHexAddress(binary_.load_address)};
        binaries_.push_back(BinaryRecord{std::move(image), std::move(code)});
      }
      return MakeValue(ValueClass::kBinary, static_cast<uint32_t>(binaries_.size() - 1));
    case Element::kSource:
      source_.open = false;
      sources_.push_back(SourceRecord{source_.line, source_.path});
      return MakeValue(ValueClass::kSource, static_cast<uint32_t>(sources_.size() - 1));
    case Element::kPath:
      paths_.emplace_back(TrimWhitespace(text_));
      return MakeValue(ValueClass::kPath, static_cast<uint32_t>(paths_.size() - 1));
    case Element::kBacktrace: backtrace_.open = false; return CompleteBacktrace();
    case Element::kTaggedBacktrace:
      tagged_.open = false;
      return MakeValue(ValueClass::kStack, tagged_.stack);
    case Element::kKperfBt: kperf_.open = false; return CompleteKperfBacktrace();
    case Element::kTextAddresses: return ParseAddresses();
    default:
      if (!open.has_child) {
        if (auto number = ParseDecimal<int64_t>(text_)) {
          Value value = MakeValue(ValueClass::kNumber, 0);
          value.set_number(*number);
          return value;
        }
      }
      return MakeValue(ValueClass::kOpaque, 0);
  }
}

Value XmlImporter::ParseAddresses() {
  AddressFragment fragment{address_pool_.size(), 0};
  std::string_view text = text_;
  while (true) {
    text = TrimWhitespace(text);
    if (text.empty()) break;
    size_t end = text.find_first_of(" \t\n\r");
    std::string_view token = text.substr(0, end);
    auto address = ParseDecimal<uint64_t>(token);
    if (!address) {
      Fail(Status(ErrorCode::kXmlBadValue,
                  "<text-addresses> holds \"" + std::string(token) + "\", not a decimal address"));
      return Value{};
    }
    address_pool_.push_back(*address);
    ++fragment.count;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end);
  }
  fragments_.push_back(fragment);
  return MakeValue(ValueClass::kAddresses, static_cast<uint32_t>(fragments_.size() - 1));
}

Value XmlImporter::CompleteBacktrace() {
  if (!backtrace_.frames.empty()) {
    return MakeValue(ValueClass::kStack, builder_.InternFrames(kEmptyStack, backtrace_.frames));
  }
  // Xcode 14.0 and older: addresses only, with the leaf's symbol in the fmt.
  return AddressesToStack(backtrace_.addresses, BacktraceLeafName(backtrace_.fmt));
}

Value XmlImporter::CompleteKperfBacktrace() {
  // The program counter leads, unless the address list already starts with it.
  if (kperf_.pc && (kperf_.addresses.empty() || kperf_.addresses.front() != *kperf_.pc)) {
    kperf_.addresses.insert(kperf_.addresses.begin(), *kperf_.pc);
  }
  return AddressesToStack(kperf_.addresses, {});
}

Value XmlImporter::AddressesToStack(const std::vector<uint64_t>& addresses,
                                    std::string_view leaf_name) {
  frame_scratch_.clear();
  for (uint64_t address : addresses) {
    if (address == 0) continue;  // a zero ends the list; it is no code address
    std::string name =
        frame_scratch_.empty() && !leaf_name.empty() ? std::string(leaf_name) : HexAddress(address);
    FrameDesc desc;
    desc.name = name;
    if (ParseHexAddress(name)) desc.address = address;  // not the fmt's leaf symbol
    frame_scratch_.push_back(builder_.InternFrame(desc));
  }
  return MakeValue(ValueClass::kStack, builder_.InternFrames(kEmptyStack, frame_scratch_));
}

bool XmlImporter::RequireNumber(const OpenElement& element, const Value& value, const char* what) {
  if (value.value_class == ValueClass::kNumber) return true;
  Fail(Status(ErrorCode::kXmlBadValue,
              std::string(what) + " <" + std::string(AsView(element.name)) + "> holds " +
                  (value.value_class == ValueClass::kOpaque ? "no integer"
                                                            : ValueClassName(value.value_class)) +
                  ", not an integer"));
  return false;
}

void XmlImporter::Deliver(const OpenElement& child, const Value& value) {
  if (stack_.empty()) return;
  const OpenElement& parent = stack_.back();
  if (parent.element == Element::kRow && stack_.size() == row_depth_) {
    AssignCell(child, value);
    return;
  }
  auto frames_limit = [this](size_t frames) {
    if (frames <= options_.limits.max_frames_per_stack) return true;
    Fail(
        Status(ErrorCode::kLimitExceeded, "a backtrace has more than " +
                                              std::to_string(options_.limits.max_frames_per_stack) +
                                              " frames (limits.maxFramesPerStack)"));
    return false;
  };
  switch (parent.element) {
    case Element::kThread:
      if (child.element == Element::kTid && RequireNumber(child, value, "the thread id")) {
        thread_.tid = static_cast<uint64_t>(value.number());
      } else if (child.element == Element::kProcess) {
        thread_.process = value.index;
      }
      break;
    case Element::kProcess:
      if (child.element == Element::kPid && RequireNumber(child, value, "the process id")) {
        process_.pid = value.number();
      }
      break;
    case Element::kFrame:
      if (child.element == Element::kBinary) frame_.binary = value.index;
      if (child.element == Element::kSource) frame_.source = value.index;
      break;
    case Element::kSource:
      if (child.element == Element::kPath) source_.path = value.index;
      break;
    case Element::kBacktrace:
      if (child.element == Element::kFrame) {
        backtrace_.frames.push_back(value.index);
        frames_limit(backtrace_.frames.size());
      } else if (child.element == Element::kTextAddresses) {
        const AddressFragment& fragment = fragments_[value.index];
        auto begin = address_pool_.begin() + static_cast<ptrdiff_t>(fragment.offset);
        backtrace_.addresses.insert(backtrace_.addresses.end(), begin,
                                    begin + static_cast<ptrdiff_t>(fragment.count));
        frames_limit(backtrace_.addresses.size());
      }
      break;
    case Element::kTaggedBacktrace:
      if (child.element == Element::kBacktrace) tagged_.stack = value.index;
      break;
    case Element::kKperfBt:
      if (child.element == Element::kTextAddresses) {
        const AddressFragment& fragment = fragments_[value.index];
        auto begin = address_pool_.begin() + static_cast<ptrdiff_t>(fragment.offset);
        kperf_.addresses.insert(kperf_.addresses.end(), begin,
                                begin + static_cast<ptrdiff_t>(fragment.count));
        frames_limit(kperf_.addresses.size());
      } else if (child.element == Element::kTextAddress &&
                 RequireNumber(child, value, "the program counter")) {
        kperf_.pc = static_cast<uint64_t>(value.number());
      }
      break;
    default: break;
  }
}

void XmlImporter::AssignCell(const OpenElement& cell, const Value& value) {
  if (cell.column < 0 || static_cast<size_t>(cell.column) >= layout_.roles.size()) {
    Fail(Status(ErrorCode::kXmlBadStructure, "the row has more cells than the schema's " +
                                                 Plural(layout_.roles.size(), "column")));
    return;
  }
  if (cell.element == Element::kSentinel) return;  // an empty cell
  auto require = [&](ValueClass expected, const char* column) {
    if (value.value_class == expected) return true;
    Fail(Status(ErrorCode::kXmlBadValue, std::string("the ") + column + " column holds " +
                                             ValueClassName(value.value_class) + ", not " +
                                             ValueClassName(expected)));
    return false;
  };
  switch (layout_.roles[cell.column]) {
    case ColumnRole::kTime:
      if (RequireNumber(cell, value, "the sample time")) row_.time = value.number();
      break;
    case ColumnRole::kThread:
      if (require(ValueClass::kThread, "thread")) row_.thread = value.index;
      break;
    case ColumnRole::kProcess:
      if (require(ValueClass::kProcess, "process")) row_.process = value.index;
      break;
    case ColumnRole::kWeight:
      if (RequireNumber(cell, value, "the weight")) {
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

void XmlImporter::EndRow() {
  in_row_ = false;
  if (!row_.time) {
    Fail(Status(ErrorCode::kXmlBadValue, "a row has no sample time"));
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

  ProfileBuilder::ThreadId thread_id;
  auto process_desc = [this](int64_t process, ThreadDesc* desc) {
    if (process < 0) return;
    desc->process_name = processes_[process].name;
    desc->pid = processes_[process].pid;
  };
  if (row_.thread >= 0) {
    ThreadRecord& thread = threads_[row_.thread];
    if (thread.builder_thread < 0) {
      ThreadDesc desc;
      desc.thread_name = thread.label;
      desc.tid = thread.tid;
      process_desc(thread.process >= 0 ? thread.process : row_.process, &desc);
      thread.builder_thread = builder_.InternThread(timeline_, desc);
    }
    thread_id = static_cast<ProfileBuilder::ThreadId>(thread.builder_thread);
  } else {
    ++rows_without_thread_;
    ThreadDesc desc;
    desc.thread_name = "Unknown Thread";
    process_desc(row_.process, &desc);
    thread_id = builder_.InternThread(timeline_, desc);
  }
  Status added = builder_.AddSample(thread_id, *row_.time, weight, stack);
  if (!added.ok()) Fail(std::move(added));
}

Status XmlImporter::TableOfContentsError() const {
  std::string message =
      "this is a table of contents (xctrace export --toc): it lists the recording's tables but "
      "holds none of their rows.";
  std::string command;
  for (size_t run = 0; run < toc_runs_.size(); ++run) {
    const TocRun& toc_run = toc_runs_[run];
    std::string cpu_tables;
    for (std::string_view schema : CpuSampleSchemas()) {
      if (std::find(toc_run.schemas.begin(), toc_run.schemas.end(), schema) !=
          toc_run.schemas.end()) {
        cpu_tables += (cpu_tables.empty() ? "" : ", ") + std::string(schema);
        if (command.empty()) command = ExportCommand(static_cast<uint32_t>(run + 1), schema);
      }
    }
    message +=
        " Run " + (toc_run.number.empty() ? std::to_string(run + 1) : toc_run.number) +
        (cpu_tables.empty() ? " has no CPU sample table" : " has CPU samples in " + cpu_tables) +
        ".";
  }
  if (command.empty()) {
    message += " Record with the Time Profiler or CPU Profiler template to get CPU samples.";
  } else {
    message += " Export a table with:\n  " + command;
  }
  return Status(ErrorCode::kXmlTableOfContents, message);
}

Status XmlImporter::NoSampleTableError() const {
  std::string message = "this export holds no CPU samples";
  if (tables_.empty()) {
    message += ": it has no <node> tables at all.";
  } else {
    message += "; its tables are: ";
    for (size_t i = 0; i < tables_.size(); ++i) {
      const TableSummary& table = tables_[i];
      if (i == 10) {
        message += ", and " + std::to_string(tables_.size() - i) + " more";
        break;
      }
      message += (i ? ", " : "") + table.schema + " (run " + std::to_string(table.run) + ", " +
                 Plural(table.rows, "row") + ")";
    }
    message += ".";
  }
  uint32_t run = options_.run.value_or(tables_.empty() ? 1 : tables_.front().run);
  message += " Export the Time Profiler's table instead:\n  " + ExportCommand(run, "time-profile");
  return Status(ErrorCode::kXmlNoSampleTable, message);
}

}  // namespace

SniffMatch Sniff(ByteSpan prefix) {
  std::string_view text = prefix.as_chars();
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::string_view start = TrimWhitespace(text);
  if (start.empty() || start.front() != '<') return SniffMatch::kNo;
  if (text.find("<trace-query-result") != std::string_view::npos ||
      text.find("<trace-toc") != std::string_view::npos) {
    return SniffMatch::kYes;
  }
  return start.substr(0, 5) == "<?xml" ? SniffMatch::kMaybe : SniffMatch::kNo;
}

std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options) {
  return std::make_unique<XmlImporter>(builder, options);
}

}  // namespace instrumentscope::xctrace_xml
