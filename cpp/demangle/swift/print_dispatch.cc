// The printer's walk: bounds, dispatch to the area printers, and the kinds whose spelling is a
// fixed text, a prefix before their first child, or their payload.
#include <array>
#include <cstdio>

#include "demangle/swift/limits.h"
#include "demangle/swift/printer.h"
#include "demangle/swift/symbol.h"

namespace instrumentscope::demangle::swift {
namespace {

// A kind spelled as `text`, followed by its first child when `child` is set; `thunk` texts are
// left out when thunks are shortened.
struct Spelling {
  std::string_view text;
  bool child = false;
  bool thunk = false;
  bool known = false;
};

struct SpellingEntry {
  NodeKind kind;
  Spelling spelling;
};

constexpr Spelling Text(std::string_view text) {
  return {text, false, false, true};
}
constexpr Spelling Prefix(std::string_view text) {
  return {text, true, false, true};
}
constexpr Spelling ThunkText(std::string_view text) {
  return {text, false, true, true};
}

constexpr SpellingEntry kSpellings[] = {
    {NodeKind::kType, Prefix("")},
    {NodeKind::kDeclContext, Prefix("")},
    {NodeKind::kStatic, Prefix("static ")},
    {NodeKind::kAsyncRemoved, Prefix("async demotion of ")},
    {NodeKind::kRepresentationChanged, Prefix("representation changed of ")},
    {NodeKind::kCurryThunk, Prefix("curry thunk of ")},
    {NodeKind::kSILThunkIdentity, Prefix("identity thunk of ")},
    {NodeKind::kDispatchThunk, Prefix("dispatch thunk of ")},
    {NodeKind::kMethodDescriptor, Prefix("method descriptor for ")},
    {NodeKind::kInOut, Prefix("inout ")},
    {NodeKind::kIsolated, Prefix("isolated ")},
    {NodeKind::kSending, Prefix("sending ")},
    {NodeKind::kCompileTimeLiteral, Prefix("_const ")},
    {NodeKind::kConstValue, Prefix("@const ")},
    {NodeKind::kShared, Prefix("__shared ")},
    {NodeKind::kOwned, Prefix("__owned ")},
    {NodeKind::kNoDerivative, Prefix("@noDerivative ")},
    {NodeKind::kWeak, Prefix("weak ")},
    {NodeKind::kUnowned, Prefix("unowned ")},
    {NodeKind::kUnmanaged, Prefix("unowned(unsafe) ")},
    {NodeKind::kPackExpansion, Prefix("repeat ")},
    {NodeKind::kSILBoxType, Prefix("@box ")},
    {NodeKind::kSILBoxImmutableField, Prefix("let ")},
    {NodeKind::kSILBoxMutableField, Prefix("var ")},
    {NodeKind::kUniquable, Prefix("uniquable ")},
    {NodeKind::kNonObjCAttribute, Text("@nonobjc ")},
    {NodeKind::kObjCAttribute, Text("@objc ")},
    {NodeKind::kDirectMethodReferenceAttribute, Text("super ")},
    {NodeKind::kDynamicAttribute, Text("dynamic ")},
    {NodeKind::kVTableAttribute, Text("override ")},
    {NodeKind::kIsSerialized, Text("serialized")},
    {NodeKind::kMetatypeParamsRemoved, Text("metatypes-removed")},
    {NodeKind::kUnknownIndex, Text("unknown index")},
    {NodeKind::kBuiltinTupleType, Text("Builtin.TheTupleType")},
    {NodeKind::kDynamicSelf, Text("Self")},
    {NodeKind::kConstrainedExistentialSelf, Text("Self")},
    {NodeKind::kErrorType, Text("<ERROR TYPE>")},
    {NodeKind::kConcurrentFunctionType, Text("@Sendable ")},
    {NodeKind::kIsolatedAnyFunctionType, Text("@isolated(any) ")},
    {NodeKind::kNonIsolatedCallerFunctionType, Text("nonisolated(nonsending) ")},
    {NodeKind::kSendingResultFunctionType, Text("sending ")},
    {NodeKind::kAsyncAnnotation, Text(" async")},
    {NodeKind::kThrowsAnnotation, Text(" throws")},
    {NodeKind::kEmptyList, Text(" empty-list ")},
    {NodeKind::kFirstElementMarker, Text(" first-element-marker ")},
    {NodeKind::kVariadicMarker, Text(" variadic-marker ")},
    {NodeKind::kOpaqueReturnType, Text("some")},
    {NodeKind::kAsyncFunctionPointer, Text("async function pointer to ")},
    {NodeKind::kHasSymbolQuery, Text("#_hasSymbol query for ")},
    {NodeKind::kCoroFunctionPointer, Text("coro function pointer to ")},
    {NodeKind::kDefaultOverride, Text("default override of ")},
    {NodeKind::kBackDeploymentFallback, Text("back deployment fallback for ")},
    {NodeKind::kAsyncMainEntryPoint, Text("async main entry point")},
    {NodeKind::kLabelList, Text("")},
    {NodeKind::kAssociatedType, Text("")},
    {NodeKind::kOpaqueReturnTypeIndex, Text("")},
    {NodeKind::kOpaqueReturnTypeParent, Text("")},
    {NodeKind::kMergedFunction, ThunkText("merged ")},
    {NodeKind::kDistributedThunk, ThunkText("distributed thunk ")},
    {NodeKind::kDistributedAccessor, ThunkText("distributed accessor for ")},
    {NodeKind::kAccessibleFunctionRecord, ThunkText("accessible function runtime record for ")},
    {NodeKind::kDynamicallyReplaceableFunctionKey, ThunkText("dynamically replaceable key for ")},
    {NodeKind::kDynamicallyReplaceableFunctionImpl,
     ThunkText("dynamically replaceable thunk for ")},
    {NodeKind::kDynamicallyReplaceableFunctionVar,
     ThunkText("dynamically replaceable variable for ")},
    {NodeKind::kBackDeploymentThunk, ThunkText("back deployment thunk for ")},
};

constexpr std::array<Spelling, kNodeKindCount> BuildSpellings() {
  std::array<Spelling, kNodeKindCount> table{};
  for (const SpellingEntry& entry : kSpellings)
    table[static_cast<size_t>(entry.kind)] = entry.spelling;
  return table;
}

constexpr std::array<Spelling, kNodeKindCount> kSpellingOf = BuildSpellings();

}  // namespace

const Node* FirstChildOfKind(const Node* node, NodeKind kind) {
  if (!node) return nullptr;
  for (const Node* child : *node) {
    if (child->kind() == kind) return child;
  }
  return nullptr;
}

std::optional<std::string> Printer::PrintRoot(const Node* root) {
  Print(root);
  if (failed_ || out_.empty()) return std::nullopt;
  return std::move(out_);
}

const Node* Printer::Print(const Node* node, bool as_prefix_context) {
  if (failed_) return nullptr;
  if (!node || ++steps_ > kMaxPrintSteps || out_.size() > kMaxOutputLength ||
      depth_ >= kMaxPrintDepth) {
    Fail();
    return nullptr;
  }
  ++depth_;
  const Node* postfix = PrintKind(node, as_prefix_context);
  --depth_;
  return postfix;
}

const Node* Printer::PrintKind(const Node* node, bool as_prefix_context) {
  const Node* postfix = nullptr;
  if (PrintEntityKind(node, as_prefix_context, &postfix)) return postfix;
  bool printed = PrintSimpleKind(node) || PrintPayloadKind(node) || PrintNameKind(node) ||
                 PrintTypeKind(node) || PrintImplKind(node) || PrintGenericKind(node) ||
                 PrintConformanceKind(node) || PrintSpecializationKind(node) ||
                 PrintThunkKind(node) || PrintDescriptorKind(node) || PrintWitnessKind(node);
  // The rest are parts that their parent prints (a generic parameter count, a specialization
  // parameter): met on their own they mean a malformed tree.
  if (!printed) Fail();
  return nullptr;
}

bool Printer::PrintSimpleKind(const Node* node) {
  const Spelling& spelling = kSpellingOf[static_cast<size_t>(node->kind())];
  if (!spelling.known) return false;
  if (!spelling.thunk || !options_.shorten_thunk) out_ += spelling.text;
  if (spelling.child) Print(node->child(0));
  return true;
}

bool Printer::PrintPayloadKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kIdentifier:
    case NodeKind::kClangType:
    case NodeKind::kBuiltinTypeName:
    case NodeKind::kMetatypeRepresentation:
    case NodeKind::kImplConvention:
    case NodeKind::kImplFunctionAttribute: out_ += node->text(); return true;
    case NodeKind::kModule:
      if (options_.display_module_names) out_ += node->text();
      return true;
    case NodeKind::kTupleElementName:
      out_ += node->text();
      out_ += ": ";
      return true;
    case NodeKind::kInfixOperator:
    case NodeKind::kPrefixOperator:
    case NodeKind::kPostfixOperator:
      out_ += node->text();
      out_ += node->kind() == NodeKind::kInfixOperator    ? " infix"
              : node->kind() == NodeKind::kPrefixOperator ? " prefix"
                                                          : " postfix";
      return true;
    case NodeKind::kIndex:
    case NodeKind::kNumber:
    case NodeKind::kInteger:
    case NodeKind::kSpecializationPassID: out_ += std::to_string(node->index()); return true;
    case NodeKind::kNegativeInteger:
      out_ += std::to_string(static_cast<int64_t>(node->index()));
      return true;
    case NodeKind::kSuffix:
      if (options_.display_unmangled_suffix) {
        out_ += " with unmangled suffix ";
        PrintQuoted(node->text());
      }
      return true;
    default: return false;
  }
}

void Printer::PrintChildren(const Node* node, std::string_view separator) {
  if (!node) return Fail();
  for (size_t i = 0; i < node->num_children(); ++i) {
    if (i > 0) out_ += separator;
    Print(node->child(i));
  }
}

void Printer::PrintQuoted(std::string_view text) {
  out_ += '"';
  for (char c : text) {
    unsigned char byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': out_ += "\\\\"; break;
      case '\t': out_ += "\\t"; break;
      case '\n': out_ += "\\n"; break;
      case '\r': out_ += "\\r"; break;
      case '"': out_ += "\\\""; break;
      case '\0': out_ += "\\0"; break;
      default:
        if (byte < 0x20 || byte >= 0x7F) {
          char escaped[5];
          std::snprintf(escaped, sizeof(escaped), "\\x%02X", byte);
          out_ += escaped;
        } else {
          out_ += c;
        }
    }
  }
  out_ += '"';
}

// Specialization payloads may be mangled names of their own: printed demangled when they are.
void Printer::PrintMaybeSymbol(std::string_view text) {
  if (std::optional<std::string> symbol =
          DemangleSymbol(text, kNestedSymbolOptions, nesting_ + 1)) {
    out_ += *symbol;
  } else {
    out_ += text;
  }
}

}  // namespace instrumentscope::demangle::swift
