#include "formats/xctrace_xml/tokenizer.h"

#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "formats/xctrace_xml/document_reader.h"

namespace instrumentscope::xctrace_xml {

Tokenizer::~Tokenizer() {
  if (parser_) xmlFreeParserCtxt(parser_);
}

Status Tokenizer::CreateParser(ByteSpan first_bytes) {
  // Only the callbacks set here run: no entity resolution, no DTD loading.
  xmlSAXHandler sax;
  std::memset(&sax, 0, sizeof(sax));
  sax.initialized = XML_SAX2_MAGIC;
  sax.startElementNs = &Tokenizer::OnStartElement;
  sax.endElementNs = &Tokenizer::OnEndElement;
  sax.characters = &Tokenizer::OnCharacters;
  sax.cdataBlock = &Tokenizer::OnCharacters;
  sax.internalSubset = &Tokenizer::OnDoctype;
  sax.serror = &Tokenizer::OnXmlError;

  // Four bytes let libxml2 detect the encoding before the first chunk.
  size_t initial = std::min<size_t>(first_bytes.size(), 4);
  parser_ = xmlCreatePushParserCtxt(&sax, this, reinterpret_cast<const char*>(first_bytes.data()),
                                    static_cast<int>(initial), nullptr);
  if (!parser_) return Status(ErrorCode::kLimitExceeded, "could not allocate an XML parser");
  // No XML_PARSE_NOENT (no entity substitution), no DTD loading, no network.
  xmlCtxtUseOptions(parser_, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  return ParseChunk(first_bytes.subspan(initial), false);
}

Status Tokenizer::ParseChunk(ByteSpan bytes, bool terminate) {
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

Status Tokenizer::Feed(ByteSpan bytes) {
  if (!status_.ok()) return status_;
  if (!parser_) return CreateParser(bytes);
  if (bytes.empty()) return OkStatus();
  return ParseChunk(bytes, false);
}

Status Tokenizer::Finish() {
  if (!status_.ok()) return status_;
  if (!parser_) RETURN_IF_ERROR(CreateParser(ByteSpan()));
  return ParseChunk(ByteSpan(), true);
}

void Tokenizer::Fail(Status status) {
  if (!status_.ok()) return;
  status_ = Located(std::move(status));
  if (parser_) xmlStopParser(parser_);
}

// Inline: it runs after every call into the reader.
inline bool Tokenizer::ReaderFailed() {
  if (!reader_.any_error()) return false;
  if (reader_.part_failed()) LocatePartError();
  if (!reader_.failed()) return false;
  FailWithReaderError();
  return true;
}

void Tokenizer::FailWithReaderError() {
  Fail(reader_.TakeError());
}

void Tokenizer::LocatePartError() {
  reader_.LeaveOutTable(Located(reader_.TakePartError()));
}

Status Tokenizer::Located(Status status) const {
  if (status.path().empty()) status.WithPath(CurrentPath());
  if (parser_ && parser_->input) {
    status.WithLine(static_cast<uint64_t>(parser_->input->line));
    status.WithOffset(static_cast<uint64_t>(xmlByteConsumed(parser_)));
  }
  return status;
}

Status Tokenizer::DepthError() const {
  return Status(ErrorCode::kLimitExceeded, "XML elements nest deeper than " +
                                               std::to_string(limits_.max_xml_depth) +
                                               " levels (limits.maxXmlDepth)");
}

std::string Tokenizer::CurrentPath() const {
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

void Tokenizer::OnXmlError(void* context, xmlErrorPtr error) {
  auto* self = static_cast<Tokenizer*>(context);
  if (!error || error->level == XML_ERR_WARNING) return;
  std::string message = error->message ? error->message : "malformed XML";
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  Status status(ErrorCode::kXmlSyntax, "the XML is malformed: " + message);
  if (error->line > 0) status.WithLine(static_cast<uint64_t>(error->line));
  self->Fail(std::move(status));
}

void Tokenizer::OnDoctype(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  static_cast<Tokenizer*>(context)->Fail(
      Status(ErrorCode::kXmlForbidden,
             "the XML has a DOCTYPE, which xctrace exports never have; DTDs and entities are "
             "refused, not processed"));
}

void Tokenizer::OnCharacters(void* context, const xmlChar* text, int length) {
  auto* self = static_cast<Tokenizer*>(context);
  if (self->region_ == Content::kSkipped || !self->status_.ok()) return;
  if (self->text_.size() + static_cast<size_t>(length) > self->limits_.max_xml_text_bytes) {
    self->Fail(
        Status(ErrorCode::kLimitExceeded, "an element's text exceeds " +
                                              std::to_string(self->limits_.max_xml_text_bytes) +
                                              " bytes (limits.maxXmlTextBytes)"));
    return;
  }
  self->text_.append(reinterpret_cast<const char*>(text), static_cast<size_t>(length));
}

void Tokenizer::OnStartElement(void* context, const xmlChar* localname, const xmlChar*,
                               const xmlChar*, int, const xmlChar**, int attribute_count, int,
                               const xmlChar** attributes) {
  auto* self = static_cast<Tokenizer*>(context);
  if (!self->status_.ok()) return;
  if (++self->element_count_ > self->limits_.max_xml_elements) {
    self->Fail(Status(ErrorCode::kLimitExceeded,
                      "more than " + std::to_string(self->limits_.max_xml_elements) +
                          " XML elements (limits.maxXmlElements)"));
    return;
  }
  if (self->region_ == Content::kSkipped) {
    if (self->stack_.size() + ++self->skip_nesting_ >= self->limits_.max_xml_depth) {
      self->Fail(self->DepthError());
    }
    return;
  }
  self->StartElement(localname, Attributes(attributes, attribute_count));
}

void Tokenizer::OnEndElement(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
  auto* self = static_cast<Tokenizer*>(context);
  if (!self->status_.ok()) return;
  if (self->region_ == Content::kSkipped && self->skip_nesting_ > 0) {
    --self->skip_nesting_;
    return;
  }
  self->EndElement();
}

void Tokenizer::StartElement(const xmlChar* localname, const Attributes& attributes) {
  uint32_t name_id = name_ids_.Find(reinterpret_cast<uintptr_t>(localname));
  if (name_id == IntegerMap::kNoValue) {
    if (element_names_.size() > UINT16_MAX) {
      Fail(Status(ErrorCode::kLimitExceeded, "more than 65536 distinct element names"));
      return;
    }
    name_id = static_cast<uint32_t>(element_names_.size());
    name_ids_.Insert(reinterpret_cast<uintptr_t>(localname), name_id);
    element_names_.push_back(localname);
    element_kinds_.push_back(ElementFromName(AsView(localname)));
  }
  if (!stack_.empty()) stack_.back().has_child = true;
  text_.clear();
  if (stack_.size() >= limits_.max_xml_depth) {
    Fail(DepthError());
    return;
  }
  // Filled in place: a copy of a struct just written field by field stalls
  // on reading it back whole, once per element.
  OpenElement& pushed = stack_.emplace_back();
  pushed.name = localname;
  pushed.element = element_kinds_[name_id];
  pushed.name_id = static_cast<uint16_t>(name_id);

  if (region_ == Content::kValues) {
    StartValue(stack_.back(), attributes);
    return;
  }
  Content content = reader_.Start(stack_, attributes);
  if (ReaderFailed()) return;
  stack_.back().content = content;
  if (content == Content::kValues || content == Content::kSkipped ||
      content == Content::kStartTags) {
    region_ = content;
    skip_nesting_ = 0;
  }
}

void Tokenizer::EndElement() {
  OpenElement open = stack_.back();
  stack_.pop_back();
  if (region_ == Content::kStartTags) {
    // Neither ends nor text are read here, so the text is not dropped either.
    if (open.content == Content::kStartTags) region_ = Content::kElements;
    return;
  }
  if (region_ == Content::kValues && open.content != Content::kValues) {
    EndValue(open);
  } else {
    if (open.content == region_) region_ = Content::kElements;  // it decided for its content
    reader_.End(open, stack_, text_);
    if (ReaderFailed()) return;
    if (open.content == Content::kTable) ids_.Clear();
  }
  text_.clear();
}

void Tokenizer::StartValue(OpenElement& open, const Attributes& attributes) {
  const OpenElement& parent = stack_[stack_.size() - 2];
  if (parent.is_ref) {
    Fail(Status(ErrorCode::kXmlBadStructure,
                "<" + std::string(AsView(parent.name)) + " ref> has content; refs are empty"));
    return;
  }
  std::optional<std::string_view> id_text, ref_text;
  for (int i = 0; i < attributes.size(); ++i) {
    if (attributes.NameIs(i, "id")) {
      id_text = attributes.raw_value(i);
    } else if (attributes.NameIs(i, "ref")) {
      ref_text = attributes.raw_value(i);
    }
  }
  if (ref_text) {
    ResolveRef(open, *ref_text);
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
  reader_.StartValue(open, attributes);
  ReaderFailed();
}

void Tokenizer::ResolveRef(OpenElement& open, std::string_view ref_text) {
  auto ref = ParseDecimal<uint64_t>(ref_text);
  if (!ref) {
    Fail(Status(ErrorCode::kXmlBadValue, "ref=\"" + std::string(ref_text) + "\" is not a number"));
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
}

void Tokenizer::EndValue(const OpenElement& open) {
  Value value = open.is_ref ? open.ref_value : reader_.CompleteValue(open, text_);
  if (ReaderFailed()) return;
  if (open.has_id) {
    value.element = open.name_id;
    if (ids_.size() >= limits_.max_xml_ids) {
      Fail(Status(ErrorCode::kLimitExceeded, "more than " + std::to_string(limits_.max_xml_ids) +
                                                 " distinct ids in one <node> (limits.maxXmlIds)"));
      return;
    }
    if (!ids_.Define(open.id, value)) {
      Fail(Status(ErrorCode::kXmlDuplicateId,
                  "id=\"" + std::to_string(open.id) + "\" is defined twice in this <node>"));
      return;
    }
  }
  // A direct child of the <row> is one of its cells.
  if (stack_.back().content == Content::kValues) {
    reader_.DeliverCell(open, value);
  } else {
    reader_.DeliverValue(open, stack_.back(), value);
  }
  ReaderFailed();
}

}  // namespace instrumentscope::xctrace_xml
