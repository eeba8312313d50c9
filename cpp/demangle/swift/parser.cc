// The parser's core: cursor and stack, the dispatch on an operator's first character, numbers.
#include "demangle/swift/parser.h"

#include "demangle/swift/limits.h"

namespace instrumentscope::demangle::swift {

Parser::Parser(std::string_view text, size_t start, bool labels_in_tuples, Arena& arena,
               NodeFactory& factory)
    : text_(text),
      pos_(start),
      labels_in_tuples_(labels_in_tuples),
      arena_(arena),
      factory_(factory) {}

Node* Parser::ParseSymbol(Node* first) {
  if (first && !Push(first)) return nullptr;
  while (!AtEnd()) {
    // A name read from a fixed-size buffer may carry a NUL and garbage after it.
    if (Peek() == '\0') break;
    Node* node = ParseOperator();
    if (!node || !Push(node)) return nullptr;
  }
  Node* global = Make(NodeKind::kGlobal);
  Node* suffix = Pop(NodeKind::kSuffix);
  // Attributes (merged, @objc, specialized...) come first; a partial apply forwarder wraps
  // everything after it.
  Node* parent = global;
  while (Node* attribute = PopIf(IsFunctionAttributeKind)) {
    Add(parent, attribute);
    if (attribute->kind() == NodeKind::kPartialApplyForwarder ||
        attribute->kind() == NodeKind::kPartialApplyObjCForwarder) {
      parent = attribute;
    }
  }
  for (Node* node : stack_) {
    Add(parent, node->kind() == NodeKind::kType ? node->child(0) : node);
  }
  AddIfAny(global, suffix);
  if (!ok_ || !factory_.ok() || !global || global->num_children() == 0) return nullptr;
  return global;
}

char Parser::Next() {
  // Past the end this reads a NUL and still advances, so PushBack stays symmetric.
  char c = Peek();
  ++pos_;
  return c;
}

bool Parser::NextIf(char c) {
  if (AtEnd() || text_[pos_] != c) return false;
  ++pos_;
  return true;
}

bool Parser::NextIf(std::string_view s) {
  if (AtEnd() || text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

bool Parser::Push(Node* node) {
  if (!node || stack_.size() >= kMaxStackEntries || !stack_.PushBack(arena_, node)) {
    ok_ = false;
    return false;
  }
  return true;
}

Node* Parser::Pop() {
  return stack_.empty() ? nullptr : stack_.PopBack();
}

Node* Parser::Pop(NodeKind kind) {
  return PopIf([kind](NodeKind top) { return top == kind; });
}

void Parser::AddSubstitution(Node* node) {
  if (node && !substitutions_.PushBack(arena_, node)) ok_ = false;
}

Node* Parser::Add(Node* parent, Node* child) {
  return factory_.AddChild(parent, child) ? parent : nullptr;
}

Node* Parser::AddIfAny(Node* parent, Node* child) {
  if (child) factory_.AddChild(parent, child);
  return parent;
}

int Parser::ParseNatural() {
  char c = Peek();
  if (c < '0' || c > '9') return -1;
  int value = 0;
  while (!AtEnd() && Peek() >= '0' && Peek() <= '9') {
    int digit = Next() - '0';
    if (value > (0x3fffffff - digit) / 10) return -1;
    value = value * 10 + digit;
  }
  return value;
}

int Parser::ParseIndex() {
  if (NextIf('_')) return 0;
  int value = ParseNatural();
  if (value >= 0 && NextIf('_')) return value + 1;
  return -1;
}

Node* Parser::ParseIndexAsNode() {
  int index = ParseIndex();
  return index >= 0 ? MakeIndex(NodeKind::kNumber, static_cast<uint64_t>(index)) : nullptr;
}

Node* Parser::ParseOperator() {
  char c = Next();
  switch (c) {
    case 'A': return ParseMultiSubstitutions();
    case 'B': return ParseBuiltinType();
    case 'C': return ParseAnyGenericType(NodeKind::kClass);
    case 'D': {
      Node* type = Pop(NodeKind::kType);
      Node* labels = PopFunctionParamLabels(type);
      return Add(AddIfAny(Make(NodeKind::kTypeMangling), labels), type);
    }
    case 'E': return ParseExtensionContext();
    case 'F': return ParsePlainFunction();
    case 'G': return ParseBoundGenericType();
    case 'H': return ParseOperatorH();
    case 'I': return ParseImplFunctionType();
    case 'K': return Make(NodeKind::kThrowsAnnotation);
    case 'L': return ParseLocalIdentifier();
    case 'M': return ParseMetatype();
    case 'N': return Make(NodeKind::kTypeMetadata, Pop(NodeKind::kType));
    case 'O': return ParseAnyGenericType(NodeKind::kEnum);
    case 'P': return ParseAnyGenericType(NodeKind::kProtocol);
    case 'Q': return ParseArchetype();
    case 'R': return ParseGenericRequirement();
    case 'S': return ParseStandardSubstitution();
    case 'T': return ParseThunkOrSpecialization();
    case 'V': return ParseAnyGenericType(NodeKind::kStructure);
    case 'W': return ParseWitness();
    case 'X': return ParseSpecialType();
    case 'Y': return ParseTypeAnnotation();
    case 'Z': return Make(NodeKind::kStatic, PopIf(IsEntityKind));
    case 'a': return ParseAnyGenericType(NodeKind::kTypeAlias);
    case 'c': return FillFunctionType(Make(NodeKind::kFunctionType), false);
    case 'd': return Make(NodeKind::kVariadicMarker);
    case 'f': return ParseFunctionEntity();
    case 'g': return ParseRetroactiveConformance();
    case 'h': return MakeType(Make(NodeKind::kShared, PopTypeAndGetChild()));
    case 'i': return ParseSubscript();
    case 'l': return ParseGenericSignature(false);
    case 'm': return MakeType(Make(NodeKind::kMetatype, Pop(NodeKind::kType)));
    case 'n': return MakeType(Make(NodeKind::kOwned, PopTypeAndGetChild()));
    case 'o': return ParseOperatorIdentifier();
    case 'p': return MakeType(ParseProtocolList());
    case 'q': return MakeType(ParseGenericParamIndex());
    case 'r': return ParseGenericSignature(true);
    case 's': return MakeText(NodeKind::kModule, "Swift");
    case 't': return PopTuple();
    case 'u': {
      Node* signature = Pop(NodeKind::kDependentGenericSignature);
      Node* type = Pop(NodeKind::kType);
      return MakeType(Make(NodeKind::kDependentGenericType, signature, type));
    }
    case 'v': return ParseVariable();
    case 'w': return ParseValueWitness();
    case 'x': return MakeType(MakeGenericParam(0, 0));
    case 'y': return Make(NodeKind::kEmptyList);
    case 'z': return MakeType(Make(NodeKind::kInOut, PopTypeAndGetChild()));
    case '_': return Make(NodeKind::kFirstElementMarker);
    case '.': {
      // A suffix the compiler appended after mangling (".123" of a partial apply, ".cold"...).
      PushBack();
      std::string_view rest = text_.substr(pos_);
      pos_ = text_.size();
      return MakeText(NodeKind::kSuffix, rest);
    }
    case '$': return ParseIntegerType();
    default:
      // Symbolic references (0x01-0x1F) point into a binary image: refused.
      if (static_cast<unsigned char>(c) < 0x20) return nullptr;
      PushBack();
      return ParseIdentifier();
  }
}

Node* Parser::ParseOperatorH() {
  switch (Next()) {
    case 'A': return ParseDependentConformance(NodeKind::kDependentProtocolConformanceAssociated);
    case 'C': return ParseConcreteProtocolConformance();
    case 'D': return ParseDependentConformance(NodeKind::kDependentProtocolConformanceRoot);
    case 'I': return ParseDependentConformance(NodeKind::kDependentProtocolConformanceInherited);
    case 'O': {
      Node* type = Pop(NodeKind::kType);
      Node* conformance = PopDependentProtocolConformance();
      return Make(NodeKind::kDependentProtocolConformanceOpaque, conformance, type);
    }
    case 'P': return Make(NodeKind::kProtocolConformanceRefInTypeModule, PopProtocol());
    case 'p': return Make(NodeKind::kProtocolConformanceRefInProtocolModule, PopProtocol());
    case 'X': return Make(NodeKind::kPackProtocolConformance, PopAnyProtocolConformanceList());
    case 'c': return Make(NodeKind::kProtocolConformanceDescriptorRecord, PopProtocolConformance());
    case 'n': return Make(NodeKind::kNominalTypeDescriptorRecord, Pop(NodeKind::kType));
    case 'o': return Make(NodeKind::kOpaqueTypeDescriptorRecord, Pop());
    case 'r': return Make(NodeKind::kProtocolDescriptorRecord, PopProtocol());
    case 'F': return Make(NodeKind::kAccessibleFunctionRecord);
    default: return nullptr;
  }
}

bool IsContextKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kAllocator:
    case NodeKind::kAnonymousContext:
    case NodeKind::kAutoDiffFunction:
    case NodeKind::kBorrowAccessor:
    case NodeKind::kBuiltinTupleType:
    case NodeKind::kClass:
    case NodeKind::kConstructor:
    case NodeKind::kDeallocator:
    case NodeKind::kDefaultArgumentInitializer:
    case NodeKind::kDestructor:
    case NodeKind::kDidSet:
    case NodeKind::kEnum:
    case NodeKind::kExplicitClosure:
    case NodeKind::kExtension:
    case NodeKind::kFunction:
    case NodeKind::kGetter:
    case NodeKind::kGlobalGetter:
    case NodeKind::kIVarInitializer:
    case NodeKind::kIVarDestroyer:
    case NodeKind::kImplicitClosure:
    case NodeKind::kInitAccessor:
    case NodeKind::kInitializer:
    case NodeKind::kIsolatedDeallocator:
    case NodeKind::kMaterializeForSet:
    case NodeKind::kModifyAccessor:
    case NodeKind::kModule:
    case NodeKind::kMutateAccessor:
    case NodeKind::kNativeOwningAddressor:
    case NodeKind::kNativeOwningMutableAddressor:
    case NodeKind::kNativePinningAddressor:
    case NodeKind::kNativePinningMutableAddressor:
    case NodeKind::kOpaqueReturnTypeOf:
    case NodeKind::kOtherNominalType:
    case NodeKind::kOwningAddressor:
    case NodeKind::kOwningMutableAddressor:
    case NodeKind::kPropertyWrappedFieldInitAccessor:
    case NodeKind::kPropertyWrapperBackingInitializer:
    case NodeKind::kPropertyWrapperInitFromProjectedValue:
    case NodeKind::kProtocol:
    case NodeKind::kReadAccessor:
    case NodeKind::kSetter:
    case NodeKind::kStatic:
    case NodeKind::kStructure:
    case NodeKind::kSubscript:
    case NodeKind::kTypeAlias:
    case NodeKind::kUnsafeAddressor:
    case NodeKind::kUnsafeMutableAddressor:
    case NodeKind::kVariable:
    case NodeKind::kWillSet:
    case NodeKind::kYieldingBorrowAccessor:
    case NodeKind::kYieldingMutateAccessor: return true;
    default: return false;
  }
}

bool IsDeclNameKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kIdentifier:
    case NodeKind::kLocalDeclName:
    case NodeKind::kPrivateDeclName:
    case NodeKind::kRelatedEntityDeclName:
    case NodeKind::kPrefixOperator:
    case NodeKind::kPostfixOperator:
    case NodeKind::kInfixOperator: return true;
    default: return false;
  }
}

bool IsAnyGenericKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kStructure:
    case NodeKind::kClass:
    case NodeKind::kEnum:
    case NodeKind::kProtocol:
    case NodeKind::kOtherNominalType:
    case NodeKind::kTypeAlias:
    case NodeKind::kBuiltinTupleType: return true;
    default: return false;
  }
}

bool IsEntityKind(NodeKind kind) {
  return kind == NodeKind::kType || IsContextKind(kind);
}

bool IsRequirementKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kDependentGenericParamPackMarker:
    case NodeKind::kDependentGenericParamValueMarker:
    case NodeKind::kDependentGenericSameTypeRequirement:
    case NodeKind::kDependentGenericSameShapeRequirement:
    case NodeKind::kDependentGenericLayoutRequirement:
    case NodeKind::kDependentGenericConformanceRequirement:
    case NodeKind::kDependentGenericInverseConformanceRequirement: return true;
    default: return false;
  }
}

bool IsFunctionAttributeKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kFunctionSignatureSpecialization:
    case NodeKind::kGenericSpecialization:
    case NodeKind::kGenericSpecializationPrespecialized:
    case NodeKind::kInlinedGenericFunction:
    case NodeKind::kGenericSpecializationNotReAbstracted:
    case NodeKind::kGenericPartialSpecialization:
    case NodeKind::kGenericPartialSpecializationNotReAbstracted:
    case NodeKind::kGenericSpecializationInResilienceDomain:
    case NodeKind::kObjCAttribute:
    case NodeKind::kNonObjCAttribute:
    case NodeKind::kDynamicAttribute:
    case NodeKind::kDirectMethodReferenceAttribute:
    case NodeKind::kVTableAttribute:
    case NodeKind::kPartialApplyForwarder:
    case NodeKind::kPartialApplyObjCForwarder:
    case NodeKind::kOutlinedVariable:
    case NodeKind::kOutlinedReadOnlyObject:
    case NodeKind::kOutlinedBridgedMethod:
    case NodeKind::kMergedFunction:
    case NodeKind::kDistributedThunk:
    case NodeKind::kDistributedAccessor:
    case NodeKind::kDynamicallyReplaceableFunctionImpl:
    case NodeKind::kDynamicallyReplaceableFunctionKey:
    case NodeKind::kDynamicallyReplaceableFunctionVar:
    case NodeKind::kAsyncFunctionPointer:
    case NodeKind::kAsyncAwaitResumePartialFunction:
    case NodeKind::kAsyncSuspendResumePartialFunction:
    case NodeKind::kAccessibleFunctionRecord:
    case NodeKind::kBackDeploymentThunk:
    case NodeKind::kBackDeploymentFallback:
    case NodeKind::kHasSymbolQuery:
    case NodeKind::kCoroFunctionPointer:
    case NodeKind::kDefaultOverride: return true;
    default: return false;
  }
}

bool IsProtocolNode(const Node* node) {
  while (node && node->kind() == NodeKind::kType) node = node->child(0);
  return node && node->kind() == NodeKind::kProtocol;
}

}  // namespace instrumentscope::demangle::swift
