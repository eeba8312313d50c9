#include "formats/xctrace_xml/cell_values.h"

#include <string>

namespace instrumentscope::xctrace_xml {

static_assert(static_cast<int>(Element::kOsLogMetadata) < 32,
              "drafting_ holds a bit per element kind");

bool CellValues::Nested(const OpenElement& open) {
  if (drafting_ & Bit(open.element)) {
    error_.Set(Status(ErrorCode::kXmlBadStructure, "<" + std::string(AsView(open.name)) +
                                                       "> inside another <" +
                                                       std::string(AsView(open.name)) + ">"));
    return true;
  }
  drafting_ |= Bit(open.element);
  return false;
}

void CellValues::Start(const OpenElement& open, const Attributes& attributes) {
  switch (open.element) {
    case Element::kThread:
      if (!Nested(open)) threads_.StartThread(attributes);
      break;
    case Element::kProcess:
      if (!Nested(open)) threads_.StartProcess(attributes);
      break;
    case Element::kFrame:
      if (!Nested(open)) frames_.StartFrame(attributes);
      break;
    case Element::kBinary:
      if (!Nested(open)) frames_.StartBinary(attributes);
      break;
    case Element::kSource:
      if (!Nested(open)) frames_.StartSource(attributes);
      break;
    case Element::kBacktrace:
      if (!Nested(open)) stacks_.StartBacktrace(attributes);
      break;
    case Element::kTaggedBacktrace:
      if (!Nested(open)) stacks_.StartTagged();
      break;
    case Element::kKperfBt:
      if (!Nested(open)) stacks_.StartKperf();
      break;
    case Element::kOther:
      if (keep_texts_) texts_.Start(attributes, false);
      break;
    case Element::kOsLogMetadata:
      if (keep_texts_) texts_.Start(attributes, true);
      break;
    default: break;
  }
}

Value CellValues::Complete(const OpenElement& open, std::string_view text) {
  drafting_ &= ~Bit(open.element);
  switch (open.element) {
    case Element::kThread: return threads_.EndThread();
    case Element::kProcess: return threads_.EndProcess();
    case Element::kFrame: return frames_.EndFrame();
    case Element::kBinary: return frames_.EndBinary();
    case Element::kSource: return frames_.EndSource();
    case Element::kPath: return frames_.AddPath(text);
    case Element::kBacktrace: return stacks_.EndBacktrace();
    case Element::kTaggedBacktrace: return stacks_.EndTagged();
    case Element::kKperfBt: return stacks_.EndKperf();
    case Element::kTextAddresses: return stacks_.ParseAddresses(text);
    case Element::kOther:
    case Element::kOsLogMetadata:
      if (keep_texts_) return texts_.End(open.has_child, text);
      [[fallthrough]];
    default:
      if (!open.has_child) {
        if (auto number = ParseDecimal<int64_t>(text)) {
          Value value = MakeValue(ValueClass::kNumber, 0);
          value.set_number(*number);
          return value;
        }
      }
      return MakeValue(ValueClass::kOpaque, 0);
  }
}

void CellValues::Deliver(const OpenElement& child, const OpenElement& parent, const Value& value) {
  switch (parent.element) {
    case Element::kThread:
      if (child.element == Element::kTid && RequireNumber(child, value, "the thread id", error_)) {
        threads_.SetTid(static_cast<uint64_t>(value.number()));
      } else if (child.element == Element::kProcess) {
        threads_.SetThreadProcess(value.index);
      }
      break;
    case Element::kProcess:
      if (child.element == Element::kPid && RequireNumber(child, value, "the process id", error_)) {
        threads_.SetPid(value.number());
      }
      break;
    case Element::kFrame:
      if (child.element == Element::kBinary) frames_.SetFrameBinary(value.index);
      if (child.element == Element::kSource) frames_.SetFrameSource(value.index);
      break;
    case Element::kSource:
      if (child.element == Element::kPath) frames_.SetSourcePath(value.index);
      break;
    case Element::kBacktrace:
      if (child.element == Element::kFrame) {
        stacks_.AddBacktraceFrame(value.index);
      } else if (child.element == Element::kTextAddresses) {
        stacks_.AddBacktraceAddresses(value.index);
      }
      break;
    case Element::kTaggedBacktrace:
      if (child.element == Element::kBacktrace) stacks_.SetTaggedStack(value.index);
      break;
    case Element::kOsLogMetadata:
      if (keep_texts_) texts_.AddPiece(value);
      break;
    case Element::kKperfBt:
      if (child.element == Element::kTextAddresses) {
        stacks_.AddKperfAddresses(value.index);
      } else if (child.element == Element::kTextAddress &&
                 RequireNumber(child, value, "the program counter", error_)) {
        stacks_.SetKperfPc(static_cast<uint64_t>(value.number()));
      }
      break;
    default: break;
  }
}

void CellValues::Clear() {
  threads_.Clear();
  frames_.Clear();
  stacks_.Clear();
  texts_.Clear();
  keep_texts_ = false;
}

}  // namespace instrumentscope::xctrace_xml
