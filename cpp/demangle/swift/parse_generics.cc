// Generics: bound generic types, generic signatures and requirements, generic parameters,
// archetypes (associated, opaque and pack types), and protocol conformances.
#include "demangle/swift/limits.h"
#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {
namespace {

bool ConsumesGenericArgs(NodeKind kind) {
  switch (kind) {
    case NodeKind::kVariable:
    case NodeKind::kSubscript:
    case NodeKind::kImplicitClosure:
    case NodeKind::kExplicitClosure:
    case NodeKind::kDefaultArgumentInitializer:
    case NodeKind::kInitializer:
    case NodeKind::kPropertyWrapperBackingInitializer:
    case NodeKind::kPropertyWrappedFieldInitAccessor:
    case NodeKind::kPropertyWrapperInitFromProjectedValue:
    case NodeKind::kStatic: return false;
    default: return true;
  }
}

bool IsAnyProtocolConformance(NodeKind kind) {
  switch (kind) {
    case NodeKind::kConcreteProtocolConformance:
    case NodeKind::kPackProtocolConformance:
    case NodeKind::kDependentProtocolConformanceRoot:
    case NodeKind::kDependentProtocolConformanceInherited:
    case NodeKind::kDependentProtocolConformanceAssociated:
    case NodeKind::kDependentProtocolConformanceOpaque: return true;
    default: return false;
  }
}

bool IsDependentProtocolConformance(NodeKind kind) {
  return kind == NodeKind::kDependentProtocolConformanceRoot ||
         kind == NodeKind::kDependentProtocolConformanceInherited ||
         kind == NodeKind::kDependentProtocolConformanceAssociated;
}

NodeKind BoundKindOf(NodeKind kind) {
  switch (kind) {
    case NodeKind::kClass: return NodeKind::kBoundGenericClass;
    case NodeKind::kStructure: return NodeKind::kBoundGenericStructure;
    case NodeKind::kEnum: return NodeKind::kBoundGenericEnum;
    case NodeKind::kProtocol: return NodeKind::kBoundGenericProtocol;
    case NodeKind::kOtherNominalType: return NodeKind::kBoundGenericOtherNominalType;
    case NodeKind::kTypeAlias: return NodeKind::kBoundGenericTypeAlias;
    default: return NodeKind::kGlobal;  // Not bindable.
  }
}

}  // namespace

// The argument lists of a bound generic type, innermost type first; each list is a TypeList.
bool Parser::ParseBoundGenerics(ArenaVector<Node*>& lists, Node*& retroactive) {
  retroactive = PopRetroactiveConformances();
  while (true) {
    Node* list = Make(NodeKind::kTypeList);
    if (!list || !lists.PushBack(arena_, list)) return false;
    while (Node* type = Pop(NodeKind::kType)) {
      if (!Add(list, type)) return false;
    }
    factory_.ReverseChildren(list);
    if (Pop(NodeKind::kEmptyList)) return true;
    if (!Pop(NodeKind::kFirstElementMarker)) return false;
  }
}

Node* Parser::ParseBoundGenericType() {
  ArenaVector<Node*> lists;
  Node* retroactive = nullptr;
  if (!ParseBoundGenerics(lists, retroactive)) return nullptr;
  Node* nominal = PopTypeAndGetAnyGeneric();
  Node* bound = BindGenericArgs(nominal, lists, 0, 0);
  if (!bound) return nullptr;
  Node* type = MakeType(AddIfAny(bound, retroactive));
  AddSubstitution(type);
  return type;
}

// Applies lists[list...] to `nominal` and, outwards, to its enclosing types.
Node* Parser::BindGenericArgs(Node* nominal, ArenaVector<Node*>& lists, size_t list, int depth) {
  if (!nominal || list >= lists.size() || nominal->num_children() == 0 || depth > kMaxTreeHeight) {
    return nullptr;
  }
  Node* context = nominal->child(0);
  bool consumes = ConsumesGenericArgs(nominal->kind());
  Node* args = lists[list];
  if (consumes) ++list;
  if (list < lists.size()) {
    Node* bound_parent = nullptr;
    if (context->kind() == NodeKind::kExtension) {
      bound_parent = Make(NodeKind::kExtension, context->child(0),
                          BindGenericArgs(context->child(1), lists, list, depth + 1));
      AddIfAny(bound_parent, context->child(2));
    } else {
      bound_parent = BindGenericArgs(context, lists, list, depth + 1);
    }
    Node* rebuilt = Make(nominal->kind(), bound_parent);
    for (size_t i = 1; rebuilt && i < nominal->num_children(); ++i) {
      rebuilt = Add(rebuilt, nominal->child(i));
    }
    if (!rebuilt) return nullptr;
    nominal = rebuilt;
  }
  if (!consumes || args->num_children() == 0) return nominal;
  if (nominal->kind() == NodeKind::kFunction || nominal->kind() == NodeKind::kConstructor) {
    return Make(NodeKind::kBoundGenericFunction, nominal, args);
  }
  NodeKind bound = BoundKindOf(nominal->kind());
  if (bound == NodeKind::kGlobal) return nullptr;
  return Make(bound, MakeType(nominal), args);
}

Node* Parser::ParseGenericSignature(bool has_param_counts) {
  Node* signature = Make(NodeKind::kDependentGenericSignature);
  if (has_param_counts) {
    while (!NextIf('l')) {
      int count = 0;
      if (!NextIf('z')) {
        int index = ParseIndex();
        if (index < 0) return nullptr;
        count = index + 1;
      }
      if (!Add(signature, MakeIndex(NodeKind::kDependentGenericParamCount, count))) return nullptr;
    }
  } else if (!Add(signature, MakeIndex(NodeKind::kDependentGenericParamCount, 1))) {
    return nullptr;
  }
  size_t counts = signature->num_children();
  while (Node* requirement = PopIf(IsRequirementKind)) {
    if (!Add(signature, requirement)) return nullptr;
  }
  factory_.ReverseChildren(signature, counts);
  return signature;
}

Node* Parser::ParseGenericRequirement() {
  enum class Subject { kParam, kAssoc, kCompoundAssoc, kSubstitution };
  enum class Constraint {
    kProtocol,
    kBaseClass,
    kSameType,
    kSameShape,
    kLayout,
    kPack,
    kInverse,
    kValue
  };
  Subject subject = Subject::kParam;
  Constraint constraint = Constraint::kProtocol;
  switch (Next()) {
    case 'V': constraint = Constraint::kValue; break;
    case 'v': constraint = Constraint::kPack; break;
    case 'c': constraint = Constraint::kBaseClass, subject = Subject::kAssoc; break;
    case 'C': constraint = Constraint::kBaseClass, subject = Subject::kCompoundAssoc; break;
    case 'b': constraint = Constraint::kBaseClass; break;
    case 'B': constraint = Constraint::kBaseClass, subject = Subject::kSubstitution; break;
    case 't': constraint = Constraint::kSameType, subject = Subject::kAssoc; break;
    case 'T': constraint = Constraint::kSameType, subject = Subject::kCompoundAssoc; break;
    case 's': constraint = Constraint::kSameType; break;
    case 'S': constraint = Constraint::kSameType, subject = Subject::kSubstitution; break;
    case 'm': constraint = Constraint::kLayout, subject = Subject::kAssoc; break;
    case 'M': constraint = Constraint::kLayout, subject = Subject::kCompoundAssoc; break;
    case 'l': constraint = Constraint::kLayout; break;
    case 'L': constraint = Constraint::kLayout, subject = Subject::kSubstitution; break;
    case 'p': subject = Subject::kAssoc; break;
    case 'P': subject = Subject::kCompoundAssoc; break;
    case 'Q': subject = Subject::kSubstitution; break;
    case 'h': constraint = Constraint::kSameShape; break;
    case 'i': constraint = Constraint::kInverse; break;
    case 'I': constraint = Constraint::kInverse, subject = Subject::kSubstitution; break;
    case 'j': constraint = Constraint::kInverse, subject = Subject::kAssoc; break;
    case 'J': constraint = Constraint::kInverse, subject = Subject::kCompoundAssoc; break;
    default: PushBack(); break;
  }
  // An inverse requirement names the suppressed protocol by its bit before the subject.
  Node* inverse = constraint == Constraint::kInverse ? ParseIndexAsNode() : nullptr;
  if (constraint == Constraint::kInverse && !inverse) return nullptr;
  Node* type = nullptr;
  switch (subject) {
    case Subject::kParam: type = MakeType(ParseGenericParamIndex()); break;
    case Subject::kAssoc: type = ParseAssociatedTypeSimple(ParseGenericParamIndex()); break;
    case Subject::kCompoundAssoc:
      type = ParseAssociatedTypeCompound(ParseGenericParamIndex());
      break;
    case Subject::kSubstitution: type = Pop(NodeKind::kType); break;
  }
  if (subject == Subject::kAssoc || subject == Subject::kCompoundAssoc) AddSubstitution(type);
  switch (constraint) {
    case Constraint::kValue:
      return Make(NodeKind::kDependentGenericParamValueMarker, type, Pop(NodeKind::kType));
    case Constraint::kPack: return Make(NodeKind::kDependentGenericParamPackMarker, type);
    case Constraint::kProtocol:
      return Make(NodeKind::kDependentGenericConformanceRequirement, type, PopProtocol());
    case Constraint::kInverse:
      return Make(NodeKind::kDependentGenericInverseConformanceRequirement, type, inverse);
    case Constraint::kBaseClass:
      return Make(NodeKind::kDependentGenericConformanceRequirement, type, Pop(NodeKind::kType));
    case Constraint::kSameType:
      return Make(NodeKind::kDependentGenericSameTypeRequirement, type, Pop(NodeKind::kType));
    case Constraint::kSameShape:
      return Make(NodeKind::kDependentGenericSameShapeRequirement, type, Pop(NodeKind::kType));
    case Constraint::kLayout: return ParseLayoutRequirement(type);
  }
  return nullptr;
}

Node* Parser::ParseLayoutRequirement(Node* subject) {
  size_t letter_pos = pos_;
  char c = Next();
  Node* size = nullptr;
  Node* alignment = nullptr;
  switch (c) {
    case 'U':
    case 'R':
    case 'N':
    case 'C':
    case 'D':
    case 'T':
    case 'B':
    case 'A': break;
    case 'E':
    case 'M':
      if (!(size = ParseIndexAsNode())) return nullptr;
      alignment = ParseIndexAsNode();
      break;
    case 'e':
    case 'm':
    case 'S':
      if (!(size = ParseIndexAsNode())) return nullptr;
      break;
    default: return nullptr;
  }
  Node* name = MakeText(NodeKind::kIdentifier, text_.substr(letter_pos, 1));
  Node* requirement = Make(NodeKind::kDependentGenericLayoutRequirement, subject, name);
  return AddIfAny(AddIfAny(requirement, size), alignment);
}

Node* Parser::ParseGenericParamIndex() {
  if (NextIf('d')) {
    int depth = ParseIndex();
    int index = ParseIndex();
    return depth < 0 ? nullptr : MakeGenericParam(depth + 1, index);
  }
  if (NextIf('z')) return MakeGenericParam(0, 0);
  if (NextIf('s')) return Make(NodeKind::kConstrainedExistentialSelf);
  int index = ParseIndex();
  return index < 0 ? nullptr : MakeGenericParam(0, index + 1);
}

Node* Parser::MakeGenericParam(int depth, int index) {
  if (depth < 0 || index < 0) return nullptr;
  return Make(NodeKind::kDependentGenericParamType,
              MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(depth)),
              MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(index)));
}

Node* Parser::ParseArchetype() {
  Node* type = nullptr;
  switch (Next()) {
    case 'a': {
      Node* name = Pop(NodeKind::kIdentifier);
      Node* base = PopTypeAndGetChild();
      type = MakeType(Make(NodeKind::kAssociatedTypeRef, base, name));
      break;
    }
    case 'O': return Make(NodeKind::kOpaqueReturnTypeOf, PopContext());
    case 'o': return ParseOpaqueType();
    case 'r': return MakeType(Make(NodeKind::kOpaqueReturnType));
    case 'R': {
      int ordinal = ParseIndex();
      if (ordinal < 0) return nullptr;
      return MakeType(
          Make(NodeKind::kOpaqueReturnType, MakeIndex(NodeKind::kOpaqueReturnTypeIndex, ordinal)));
    }
    case 'x': type = ParseAssociatedTypeSimple(nullptr); break;
    case 'X': type = ParseAssociatedTypeCompound(nullptr); break;
    case 'y': type = ParseAssociatedTypeSimple(ParseGenericParamIndex()); break;
    case 'Y': type = ParseAssociatedTypeCompound(ParseGenericParamIndex()); break;
    case 'z': type = ParseAssociatedTypeSimple(MakeGenericParam(0, 0)); break;
    case 'Z': type = ParseAssociatedTypeCompound(MakeGenericParam(0, 0)); break;
    case 'p': {
      Node* count = PopTypeAndGetChild();
      Node* pattern = PopTypeAndGetChild();
      return MakeType(Make(NodeKind::kPackExpansion, pattern, count));
    }
    case 'e': {
      Node* pack = PopTypeAndGetChild();
      int level = ParseIndex();
      if (level < 0) return nullptr;
      return MakeType(
          Make(NodeKind::kPackElement, pack, MakeIndex(NodeKind::kPackElementLevel, level)));
    }
    case 'P': return PopPack(NodeKind::kPack);
    case 'S':
      switch (Next()) {
        case 'd': return PopPack(NodeKind::kSILPackDirect);
        case 'i': return PopPack(NodeKind::kSILPackIndirect);
        default: return nullptr;
      }
    default: return nullptr;
  }
  AddSubstitution(type);
  return type;
}

Node* Parser::ParseOpaqueType() {
  int index = ParseIndex();
  if (index < 0) return nullptr;
  ArenaVector<Node*> lists;
  Node* retroactive = nullptr;
  if (!ParseBoundGenerics(lists, retroactive)) return nullptr;
  Node* name = Pop();
  Node* arguments = Make(NodeKind::kTypeList);
  for (size_t i = lists.size(); i > 0; --i) {
    if (!Add(arguments, lists[i - 1])) return nullptr;
  }
  Node* opaque = Make(NodeKind::kOpaqueType, name, MakeIndex(NodeKind::kIndex, index), arguments);
  Node* type = MakeType(AddIfAny(opaque, retroactive));
  AddSubstitution(type);
  return type;
}

Node* Parser::ParseAssociatedTypeSimple(Node* base) {
  Node* name = PopAssocTypeName();
  Node* base_type = base ? MakeType(base) : Pop(NodeKind::kType);
  return MakeType(Make(NodeKind::kDependentMemberType, base_type, name));
}

Node* Parser::ParseAssociatedTypeCompound(Node* base) {
  ArenaVector<Node*> names;
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    Node* name = PopAssocTypeName();
    if (!name || !names.PushBack(arena_, name)) return nullptr;
  } while (!first);
  Node* type = base ? MakeType(base) : Pop(NodeKind::kType);
  while (!names.empty()) {
    type = MakeType(Make(NodeKind::kDependentMemberType, type, names.PopBack()));
  }
  return type;
}

Node* Parser::PopAssocTypeName() {
  Node* protocol = Pop(NodeKind::kType);
  if (protocol && !IsProtocolNode(protocol)) return nullptr;
  Node* name = Make(NodeKind::kDependentAssociatedTypeRef, Pop(NodeKind::kIdentifier));
  return AddIfAny(name, protocol);
}

Node* Parser::PopAssocTypePath() {
  Node* path = Make(NodeKind::kAssocTypePath);
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    if (!Add(path, PopAssocTypeName())) return nullptr;
  } while (!first);
  factory_.ReverseChildren(path);
  return path;
}

Node* Parser::PopProtocol() {
  if (Node* type = Pop(NodeKind::kType)) return IsProtocolNode(type) ? type : nullptr;
  Node* name = PopIf(IsDeclNameKind);
  Node* context = PopContext();
  return MakeType(Make(NodeKind::kProtocol, context, name));
}

Node* Parser::PopProtocolConformance() {
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  Node* module = PopModule();
  Node* protocol = PopProtocol();
  Node* type = Pop(NodeKind::kType);
  Node* name = nullptr;
  if (!type) {
    // A property behavior's conformance.
    name = Pop(NodeKind::kIdentifier);
    type = Pop(NodeKind::kType);
  }
  if (signature) type = MakeType(Make(NodeKind::kDependentGenericType, signature, type));
  return AddIfAny(Make(NodeKind::kProtocolConformance, type, protocol, module), name);
}

Node* Parser::PopAnyProtocolConformance() {
  return PopIf(IsAnyProtocolConformance);
}

Node* Parser::PopAnyProtocolConformanceList() {
  Node* list = Make(NodeKind::kAnyProtocolConformanceList);
  if (Pop(NodeKind::kEmptyList)) return list;
  bool first = false;
  do {
    first = Pop(NodeKind::kFirstElementMarker) != nullptr;
    if (!Add(list, PopAnyProtocolConformance())) return nullptr;
  } while (!first);
  factory_.ReverseChildren(list);
  return list;
}

Node* Parser::PopDependentProtocolConformance() {
  return PopIf(IsDependentProtocolConformance);
}

Node* Parser::ParseConcreteProtocolConformance() {
  Node* conditions = PopAnyProtocolConformanceList();
  Node* reference = Pop(NodeKind::kProtocolConformanceRefInTypeModule);
  if (!reference) reference = Pop(NodeKind::kProtocolConformanceRefInProtocolModule);
  if (!reference) {
    // A retroactive conformance names the module that declares it.
    Node* module = PopModule();
    Node* protocol = PopProtocol();
    reference = Make(NodeKind::kProtocolConformanceRefInOtherModule, protocol, module);
  }
  Node* type = Pop(NodeKind::kType);
  return Make(NodeKind::kConcreteProtocolConformance, type, reference, conditions);
}

// "HD" (root), "HI" (inherited) and "HA" (associated) conformances.
Node* Parser::ParseDependentConformance(NodeKind kind) {
  Node* index = ParseDependentConformanceIndex();
  if (kind == NodeKind::kDependentProtocolConformanceAssociated) {
    Node* protocol = PopProtocol();
    Node* type = Pop(NodeKind::kType);
    Node* associated = Make(NodeKind::kDependentAssociatedConformance, type, protocol);
    return Make(kind, PopDependentProtocolConformance(), associated, index);
  }
  Node* protocol = PopProtocol();
  Node* base = kind == NodeKind::kDependentProtocolConformanceRoot
                   ? Pop(NodeKind::kType)
                   : PopDependentProtocolConformance();
  return Make(kind, base, protocol, index);
}

// 1 means unknown; every known index is stored plus 2.
Node* Parser::ParseDependentConformanceIndex() {
  int index = ParseIndex();
  if (index <= 0) return nullptr;
  if (index == 1) return Make(NodeKind::kUnknownIndex);
  return MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(index - 2));
}

Node* Parser::ParseRetroactiveConformance() {
  Node* index = ParseIndexAsNode();
  Node* conformance = PopAnyProtocolConformance();
  return Make(NodeKind::kRetroactiveConformance, index, conformance);
}

Node* Parser::PopRetroactiveConformances() {
  Node* list = nullptr;
  while (Node* conformance = Pop(NodeKind::kRetroactiveConformance)) {
    if (!list) list = Make(NodeKind::kTypeList);
    Add(list, conformance);
  }
  if (list) factory_.ReverseChildren(list);
  return list;
}

}  // namespace instrumentscope::demangle::swift
