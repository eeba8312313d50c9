// Types: builtin, function types and their annotations, tuples, packs, protocol compositions,
// metatypes, ownership, sugar, SIL boxes, and integer (value generic) types.
#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {
namespace {

// Builtin vector and integer widths beyond this are refused, as the compiler never makes them.
constexpr int kMaxBuiltinWidth = 4096;
constexpr std::string_view kBuiltinPrefix = "Builtin.";

}  // namespace

Node* Parser::ParseBuiltinType() {
  std::string_view name;
  switch (Next()) {
    case 'A': name = "Builtin.ImplicitActor"; break;
    case 'b': name = "Builtin.BridgeObject"; break;
    case 'B': name = "Builtin.UnsafeValueBuffer"; break;
    case 'e': name = "Builtin.Executor"; break;
    case 'I': name = "Builtin.IntLiteral"; break;
    case 'O': name = "Builtin.UnknownObject"; break;
    case 'o': name = "Builtin.NativeObject"; break;
    case 'p': name = "Builtin.RawPointer"; break;
    case 'j': name = "Builtin.Job"; break;
    case 'D': name = "Builtin.DefaultActorStorage"; break;
    case 'd': name = "Builtin.NonDefaultDistributedActorStorage"; break;
    case 'c': name = "Builtin.RawUnsafeContinuation"; break;
    case 't': name = "Builtin.SILToken"; break;
    case 'w': name = "Builtin.Word"; break;
    case 'P': name = "Builtin.PackIndex"; break;
    case 'T': return MakeType(Make(NodeKind::kBuiltinTupleType));
    case 'f':
    case 'i': {
      bool is_float = text_[pos_ - 1] == 'f';
      int width = ParseIndex() - 1;
      if (width <= 0 || width > kMaxBuiltinWidth) return nullptr;
      identifier_ = is_float ? "Builtin.FPIEEE" : "Builtin.Int";
      identifier_ += std::to_string(width);
      return MakeType(factory_.CreateText(NodeKind::kBuiltinTypeName, identifier_));
    }
    case 'v': return ParseBuiltinVector();
    case 'V': {
      Node* element = Pop(NodeKind::kType);
      Node* size = Pop(NodeKind::kType);
      return MakeType(Make(NodeKind::kBuiltinFixedArray, size, element));
    }
    case 'W': return MakeType(Make(NodeKind::kBuiltinBorrow, Pop(NodeKind::kType)));
    default: return nullptr;
  }
  return MakeType(MakeText(NodeKind::kBuiltinTypeName, name));
}

Node* Parser::ParseBuiltinVector() {
  int count = ParseIndex() - 1;
  if (count <= 0 || count > kMaxBuiltinWidth) return nullptr;
  Node* element = PopTypeAndGetChild();
  if (!element || element->kind() != NodeKind::kBuiltinTypeName ||
      element->text().substr(0, kBuiltinPrefix.size()) != kBuiltinPrefix) {
    return nullptr;
  }
  identifier_ = "Builtin.Vec";
  identifier_ += std::to_string(count);
  identifier_ += 'x';
  identifier_ += element->text().substr(kBuiltinPrefix.size());
  return MakeType(factory_.CreateText(NodeKind::kBuiltinTypeName, identifier_));
}

Node* Parser::ParseTypeAnnotation() {
  switch (Next()) {
    case 'a': return Make(NodeKind::kAsyncAnnotation);
    case 'A': return Make(NodeKind::kIsolatedAnyFunctionType);
    case 'b': return Make(NodeKind::kConcurrentFunctionType);
    case 'c': return Make(NodeKind::kGlobalActorFunctionType, PopTypeAndGetChild());
    case 'C': return Make(NodeKind::kNonIsolatedCallerFunctionType);
    case 'i': return MakeType(Make(NodeKind::kIsolated, PopTypeAndGetChild()));
    case 'j': {
      char kind = Next();
      if (kind != 'f' && kind != 'r' && kind != 'd' && kind != 'l') return nullptr;
      return MakeIndex(NodeKind::kDifferentiableFunctionType, static_cast<uint64_t>(kind));
    }
    case 'k': return MakeType(Make(NodeKind::kNoDerivative, PopTypeAndGetChild()));
    case 'K': return Make(NodeKind::kTypedThrowsAnnotation, PopTypeAndGetChild());
    case 't': return MakeType(Make(NodeKind::kCompileTimeLiteral, PopTypeAndGetChild()));
    case 'g': return MakeType(Make(NodeKind::kConstValue, PopTypeAndGetChild()));
    case 'T': return Make(NodeKind::kSendingResultFunctionType);
    case 'u': return MakeType(Make(NodeKind::kSending, PopTypeAndGetChild()));
    default: return nullptr;
  }
}

Node* Parser::ParseSpecialType() {
  char code = Next();
  switch (code) {
    case 'o': return MakeType(Make(NodeKind::kUnowned, Pop(NodeKind::kType)));
    case 'u': return MakeType(Make(NodeKind::kUnmanaged, Pop(NodeKind::kType)));
    case 'w': return MakeType(Make(NodeKind::kWeak, Pop(NodeKind::kType)));
    case 'b': return MakeType(Make(NodeKind::kSILBoxType, Pop(NodeKind::kType)));
    case 'D': return MakeType(Make(NodeKind::kDynamicSelf, Pop(NodeKind::kType)));
    case 'M':
    case 'm': {
      Node* representation = ParseMetatypeRepresentation();
      Node* type = Pop(NodeKind::kType);
      NodeKind kind = code == 'M' ? NodeKind::kMetatype : NodeKind::kExistentialMetatype;
      return MakeType(Make(kind, representation, type));
    }
    case 'P': {
      Node* requirements = ParseConstrainedExistentialRequirements();
      Node* base = Pop(NodeKind::kType);
      return MakeType(Make(NodeKind::kConstrainedExistential, base, requirements));
    }
    case 'p': return MakeType(Make(NodeKind::kExistentialMetatype, Pop(NodeKind::kType)));
    case 'c': {
      Node* superclass = Pop(NodeKind::kType);
      Node* protocols = ParseProtocolList();
      return MakeType(Make(NodeKind::kProtocolListWithClass, protocols, superclass));
    }
    case 'l': return MakeType(Make(NodeKind::kProtocolListWithAnyObject, ParseProtocolList()));
    case 'X':
    case 'x': return ParseSilBoxType(code == 'X');
    case 'Y': return ParseAnyGenericType(NodeKind::kOtherNominalType);
    case 'Z': return ParseAnonymousContext();
    case 'e': return MakeType(Make(NodeKind::kErrorType));
    case 'S': return ParseSugaredType();
    case 'g':
    case 'G': {
      Node* type = Pop(NodeKind::kType);
      Node* signature = code == 'G' ? Pop(NodeKind::kDependentGenericSignature) : nullptr;
      return signature ? Make(NodeKind::kExtendedExistentialTypeShape, signature, type)
                       : Make(NodeKind::kExtendedExistentialTypeShape, type);
    }
    default: return ParseSpecialFunctionType(code);
  }
}

Node* Parser::ParseSpecialFunctionType(char code) {
  switch (code) {
    case 'E': return FillFunctionType(Make(NodeKind::kNoEscapeFunctionType), false);
    case 'A': return FillFunctionType(Make(NodeKind::kEscapingAutoClosureType), false);
    case 'f': return FillFunctionType(Make(NodeKind::kThinFunctionType), false);
    case 'K': return FillFunctionType(Make(NodeKind::kAutoClosureType), false);
    case 'U': return FillFunctionType(Make(NodeKind::kUncurriedFunctionType), false);
    case 'L': return FillFunctionType(Make(NodeKind::kEscapingObjCBlock), false);
    case 'B': return FillFunctionType(Make(NodeKind::kObjCBlock), false);
    case 'C': return FillFunctionType(Make(NodeKind::kCFunctionPointer), false);
    case 'O': {
      uint64_t at_most_once = NextIf('o') ? 1 : 0;
      return FillFunctionType(MakeIndex(NodeKind::kCalledOnceFunctionType, at_most_once), false);
    }
    case 'z':
      switch (Next()) {
        case 'B': return FillFunctionType(Make(NodeKind::kObjCBlock), true);
        case 'C': return FillFunctionType(Make(NodeKind::kCFunctionPointer), true);
        default: return nullptr;
      }
    default: return nullptr;
  }
}

Node* Parser::ParseSugaredType() {
  switch (Next()) {
    case 'q': return MakeType(Make(NodeKind::kSugaredOptional, Pop(NodeKind::kType)));
    case 'a': return MakeType(Make(NodeKind::kSugaredArray, Pop(NodeKind::kType)));
    case 'p': return MakeType(Make(NodeKind::kSugaredParen, Pop(NodeKind::kType)));
    case 'A': {
      Node* element = Pop(NodeKind::kType);
      Node* count = Pop(NodeKind::kType);
      return MakeType(Make(NodeKind::kSugaredInlineArray, count, element));
    }
    case 'D': {
      Node* value = Pop(NodeKind::kType);
      Node* key = Pop(NodeKind::kType);
      return MakeType(Make(NodeKind::kSugaredDictionary, key, value));
    }
    default: return nullptr;
  }
}

Node* Parser::ParseSilBoxType(bool generic) {
  Node* signature = nullptr;
  Node* arguments = nullptr;
  if (generic) {
    signature = Pop(NodeKind::kDependentGenericSignature);
    arguments = signature ? PopTypeList() : nullptr;
    if (!arguments) return nullptr;
  }
  Node* fields = PopTypeList();
  if (!fields) return nullptr;
  Node* layout = Make(NodeKind::kSILBoxLayout);
  for (Node* field : *fields) {
    // An inout field type marks a mutable field.
    Node* inner = field->child(0);
    bool is_mutable = inner && inner->kind() == NodeKind::kInOut;
    if (is_mutable) field = MakeType(inner->child(0));
    NodeKind kind = is_mutable ? NodeKind::kSILBoxMutableField : NodeKind::kSILBoxImmutableField;
    if (!Add(layout, Make(kind, field))) return nullptr;
  }
  Node* box = Make(NodeKind::kSILBoxTypeWithLayout, layout);
  if (signature) box = Add(Add(box, signature), arguments);
  return MakeType(box);
}

Node* Parser::ParseAnonymousContext() {
  Node* types = PopTypeList();
  Node* name = Pop(NodeKind::kIdentifier);
  Node* parent = PopContext();
  return Add(Make(NodeKind::kAnonymousContext, name, parent), types);
}

Node* Parser::ParseMetatypeRepresentation() {
  switch (Next()) {
    case 't': return MakeText(NodeKind::kMetatypeRepresentation, "@thin");
    case 'T': return MakeText(NodeKind::kMetatypeRepresentation, "@thick");
    case 'o': return MakeText(NodeKind::kMetatypeRepresentation, "@objc_metatype");
    default: return nullptr;
  }
}

Node* Parser::ParseClangType() {
  int length = ParseNatural();
  if (length <= 0 || pos_ > text_.size() || static_cast<size_t>(length) > text_.size() - pos_) {
    return nullptr;
  }
  Node* type = MakeText(NodeKind::kClangType, text_.substr(pos_, static_cast<size_t>(length)));
  pos_ += static_cast<size_t>(length);
  return type;
}

Node* Parser::ParseIntegerType() {
  bool negative = NextIf('n');
  int value = ParseIndex();
  if (value < 0) return nullptr;
  if (negative) {
    return MakeType(
        MakeIndex(NodeKind::kNegativeInteger, static_cast<uint64_t>(-static_cast<int64_t>(value))));
  }
  return MakeType(MakeIndex(NodeKind::kInteger, static_cast<uint64_t>(value)));
}

// Pops a function type's parts in the reverse of their mangled order: attributes, then the
// argument tuple and the result.
Node* Parser::FillFunctionType(Node* function, bool has_clang_type) {
  if (!function) return nullptr;
  if (has_clang_type) AddIfAny(function, ParseClangType());
  AddIfAny(function, Pop(NodeKind::kSendingResultFunctionType));
  AddIfAny(function, PopIf([](NodeKind kind) {
             return kind == NodeKind::kGlobalActorFunctionType ||
                    kind == NodeKind::kIsolatedAnyFunctionType ||
                    kind == NodeKind::kNonIsolatedCallerFunctionType;
           }));
  AddIfAny(function, Pop(NodeKind::kDifferentiableFunctionType));
  AddIfAny(function, PopIf([](NodeKind kind) {
             return kind == NodeKind::kThrowsAnnotation || kind == NodeKind::kTypedThrowsAnnotation;
           }));
  AddIfAny(function, Pop(NodeKind::kConcurrentFunctionType));
  AddIfAny(function, Pop(NodeKind::kAsyncAnnotation));
  function = Add(function, PopFunctionParams(NodeKind::kArgumentTuple));
  function = Add(function, PopFunctionParams(NodeKind::kReturnType));
  return MakeType(function);
}

Node* Parser::PopFunctionParams(NodeKind kind) {
  Node* params =
      Pop(NodeKind::kEmptyList) ? MakeType(Make(NodeKind::kTuple)) : Pop(NodeKind::kType);
  return Make(kind, params);
}

Node* Parser::PopTuple() {
  Node* tuple = Make(NodeKind::kTuple);
  if (Pop(NodeKind::kEmptyList)) return MakeType(tuple);
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    Node* element = AddIfAny(Make(NodeKind::kTupleElement), Pop(NodeKind::kVariadicMarker));
    if (Node* label = Pop(NodeKind::kIdentifier)) {
      AddIfAny(element, MakeText(NodeKind::kTupleElementName, label->text()));
    }
    Node* type = Pop(NodeKind::kType);
    if (!Add(element, type) || !Add(tuple, element)) return nullptr;
  } while (!first);
  factory_.ReverseChildren(tuple);
  return MakeType(tuple);
}

// A pack ("QP"), or a SIL pack ("QSd", "QSi") when `kind` says so.
Node* Parser::PopPack(NodeKind kind) {
  Node* pack = Make(kind);
  if (Pop(NodeKind::kEmptyList)) return MakeType(pack);
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    if (!Add(pack, Pop(NodeKind::kType))) return nullptr;
  } while (!first);
  factory_.ReverseChildren(pack);
  return MakeType(pack);
}

Node* Parser::PopTypeList() {
  Node* list = Make(NodeKind::kTypeList);
  if (Pop(NodeKind::kEmptyList)) return list;
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    if (!Add(list, Pop(NodeKind::kType))) return nullptr;
  } while (!first);
  factory_.ReverseChildren(list);
  return list;
}

Node* Parser::ParseProtocolList() {
  Node* types = Make(NodeKind::kTypeList);
  if (!Pop(NodeKind::kEmptyList)) {
    bool first = false;
    do {
      first = Pop(NodeKind::kFirstElementMarker) != nullptr;
      if (!Add(types, PopProtocol())) return nullptr;
    } while (!first);
    factory_.ReverseChildren(types);
  }
  return Make(NodeKind::kProtocolList, types);
}

Node* Parser::ParseConstrainedExistentialRequirements() {
  Node* list = Make(NodeKind::kConstrainedExistentialRequirementList);
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    if (!Add(list, PopIf(IsRequirementKind))) return nullptr;
  } while (!first);
  factory_.ReverseChildren(list);
  return list;
}

}  // namespace instrumentscope::demangle::swift
