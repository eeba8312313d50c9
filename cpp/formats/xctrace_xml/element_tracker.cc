#include "formats/xctrace_xml/element_tracker.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "formats/xctrace_xml/document_reader.h"

namespace instrumentscope::xctrace_xml {

void ElementTracker::Fail(Status status) {
  if (!status_.ok()) return;
  status_ = Located(std::move(status));
}

// Inline: it runs after every call into the reader.
inline bool ElementTracker::ReaderFailed() {
  if (!reader_.any_error()) return false;
  if (reader_.part_failed()) LocatePartError();
  if (!reader_.failed()) return false;
  FailWithReaderError();
  return true;
}

void ElementTracker::FailWithReaderError() {
  Fail(reader_.TakeError());
}

void ElementTracker::LocatePartError() {
  reader_.LeaveOutTable(Located(reader_.TakePartError()));
}

Status ElementTracker::Located(Status status) const {
  if (status.path().empty()) status.WithPath(CurrentPath());
  XmlLocation where = where_();
  if (where.line > 0) {
    status.WithLine(where.line);
    status.WithOffset(where.offset);
  }
  return status;
}

Status ElementTracker::DepthError() const {
  return Status(ErrorCode::kLimitExceeded, "XML elements nest deeper than " +
                                               std::to_string(limits_.max_xml_depth) +
                                               " levels (limits.maxXmlDepth)");
}

std::string ElementTracker::CurrentPath() const {
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

void ElementTracker::Characters(const xmlChar* text, int length) {
  if (region_ == Content::kSkipped || !status_.ok()) return;
  if (text_.size() + static_cast<size_t>(length) > limits_.max_xml_text_bytes) {
    Fail(Status(ErrorCode::kLimitExceeded, "an element's text exceeds " +
                                               std::to_string(limits_.max_xml_text_bytes) +
                                               " bytes (limits.maxXmlTextBytes)"));
    return;
  }
  text_.append(reinterpret_cast<const char*>(text), static_cast<size_t>(length));
}

void ElementTracker::Start(const xmlChar* localname, const Attributes& attributes,
                           std::optional<uint64_t> ref) {
  if (!status_.ok()) return;
  if (++element_count_ > limits_.max_xml_elements) {
    Fail(Status(ErrorCode::kLimitExceeded, "more than " + std::to_string(limits_.max_xml_elements) +
                                               " XML elements (limits.maxXmlElements)"));
    return;
  }
  if (region_ == Content::kSkipped) {
    if (stack_.size() + ++skip_nesting_ >= limits_.max_xml_depth) Fail(DepthError());
    return;
  }
  StartElement(localname, attributes, ref);
}

void ElementTracker::End() {
  if (!status_.ok()) return;
  if (region_ == Content::kSkipped && skip_nesting_ > 0) {
    --skip_nesting_;
    return;
  }
  EndElement();
}

void ElementTracker::StartElement(const xmlChar* localname, const Attributes& attributes,
                                  std::optional<uint64_t> ref) {
  uint32_t name_id = name_ids_.Find(reinterpret_cast<uintptr_t>(localname));
  if (name_id == IntegerMap::kNoValue) {
    name_id = InternName(AsView(localname));
    if (name_id == IntegerMap::kNoValue) return;
    name_ids_.Insert(reinterpret_cast<uintptr_t>(localname), name_id);
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
  pushed.name = reinterpret_cast<const xmlChar*>(element_names_[name_id].c_str());
  pushed.element = element_kinds_[name_id];
  pushed.name_id = static_cast<uint16_t>(name_id);
  if (stack_.size() <= 2) context_lines_[stack_.size() - 1] = where_().line;

  if (region_ == Content::kValues) {
    if (!ref) {
      StartValue(stack_.back(), attributes);
    } else if (!InsideRef()) {
      ResolveRef(stack_.back(), *ref);
    }
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

uint32_t ElementTracker::InternName(std::string_view name) {
  auto known = names_.find(name);
  if (known != names_.end()) return known->second;
  if (element_names_.size() > UINT16_MAX) {
    Fail(Status(ErrorCode::kLimitExceeded, "more than 65536 distinct element names"));
    return IntegerMap::kNoValue;
  }
  auto name_id = static_cast<uint32_t>(element_names_.size());
  const std::string& kept = element_names_.emplace_back(name);
  names_.emplace(kept, name_id);
  element_kinds_.push_back(ElementFromName(kept));
  return name_id;
}

void ElementTracker::EndElement() {
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

bool ElementTracker::InsideRef() {
  const OpenElement& parent = stack_[stack_.size() - 2];
  if (!parent.is_ref) return false;
  Fail(Status(ErrorCode::kXmlBadStructure,
              "<" + std::string(AsView(parent.name)) + " ref> has content; refs are empty"));
  return true;
}

void ElementTracker::StartValue(OpenElement& open, const Attributes& attributes) {
  if (InsideRef()) return;
  std::optional<std::string_view> id_text, ref_text;
  for (int i = 0; i < attributes.size(); ++i) {
    if (attributes.NameIs(i, "id")) {
      id_text = attributes.raw_value(i);
    } else if (attributes.NameIs(i, "ref")) {
      ref_text = attributes.raw_value(i);
    }
  }
  if (ref_text) {
    auto ref = ParseDecimal<uint64_t>(*ref_text);
    if (!ref) {
      Fail(Status(ErrorCode::kXmlBadValue,
                  "ref=\"" + std::string(*ref_text) + "\" is not a number"));
      return;
    }
    ResolveRef(open, *ref);
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

void ElementTracker::ResolveRef(OpenElement& open, uint64_t ref) {
  Value value = ids_.Find(ref);
  if (value.value_class == ValueClass::kUndefined) {
    Fail(Status(ErrorCode::kXmlDanglingRef, "<" + std::string(AsView(open.name)) + " ref=\"" +
                                                std::to_string(ref) +
                                                "\"/> names no earlier element with id=\"" +
                                                std::to_string(ref) + "\" in this <node>"));
    return;
  }
  // xctrace refers to an element only by its own name: <frame ref> to a <frame>.
  if (value.element != open.name_id) {
    Fail(Status(ErrorCode::kXmlRefMismatch, "<" + std::string(AsView(open.name)) + " ref=\"" +
                                                std::to_string(ref) + "\"/> names a <" +
                                                element_names_[value.element] + ">, not a <" +
                                                std::string(AsView(open.name)) + ">"));
    return;
  }
  open.is_ref = true;
  open.ref_value = value;
}

void ElementTracker::EndValue(const OpenElement& open) {
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
