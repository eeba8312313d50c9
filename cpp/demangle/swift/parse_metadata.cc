// Metadata and descriptors ('M'), witness tables and outlined value operations ('W'), and value
// witnesses ('w').
#include <iterator>

#include "demangle/swift/parser.h"
#include "demangle/swift/payloads.h"

namespace instrumentscope::demangle::swift {
namespace {

// What an 'M' operator pops as its one child.
enum class Operand { kType, kNode, kProtocol, kConformance, kEntity };

struct MetadataOperator {
  char code;
  NodeKind kind;
  Operand operand;
};

constexpr MetadataOperator kMetadataOperators[] = {
    {'a', NodeKind::kTypeMetadataAccessFunction, Operand::kType},
    {'A', NodeKind::kReflectionMetadataAssocTypeDescriptor, Operand::kConformance},
    {'b', NodeKind::kCanonicalSpecializedGenericTypeMetadataAccessFunction, Operand::kType},
    {'B', NodeKind::kReflectionMetadataBuiltinDescriptor, Operand::kType},
    {'c', NodeKind::kProtocolConformanceDescriptor, Operand::kConformance},
    {'D', NodeKind::kTypeMetadataDemanglingCache, Operand::kType},
    {'f', NodeKind::kFullTypeMetadata, Operand::kType},
    {'F', NodeKind::kReflectionMetadataFieldDescriptor, Operand::kType},
    {'g', NodeKind::kOpaqueTypeDescriptorAccessor, Operand::kNode},
    {'h', NodeKind::kOpaqueTypeDescriptorAccessorImpl, Operand::kNode},
    {'i', NodeKind::kTypeMetadataInstantiationFunction, Operand::kType},
    {'I', NodeKind::kTypeMetadataInstantiationCache, Operand::kType},
    {'j', NodeKind::kOpaqueTypeDescriptorAccessorKey, Operand::kNode},
    {'J', NodeKind::kNoncanonicalSpecializedGenericTypeMetadataCache, Operand::kNode},
    {'k', NodeKind::kOpaqueTypeDescriptorAccessorVar, Operand::kNode},
    {'K', NodeKind::kMetadataInstantiationCache, Operand::kNode},
    {'l', NodeKind::kTypeMetadataSingletonInitializationCache, Operand::kType},
    {'L', NodeKind::kTypeMetadataLazyCache, Operand::kType},
    {'m', NodeKind::kMetaclass, Operand::kType},
    {'M', NodeKind::kCanonicalSpecializedGenericMetaclass, Operand::kType},
    {'n', NodeKind::kNominalTypeDescriptor, Operand::kType},
    {'N', NodeKind::kNoncanonicalSpecializedGenericTypeMetadata, Operand::kType},
    {'o', NodeKind::kClassMetadataBaseOffset, Operand::kType},
    {'p', NodeKind::kProtocolDescriptor, Operand::kProtocol},
    {'P', NodeKind::kGenericTypeMetadataPattern, Operand::kType},
    {'q', NodeKind::kUniquable, Operand::kNode},
    {'Q', NodeKind::kOpaqueTypeDescriptor, Operand::kNode},
    {'r', NodeKind::kTypeMetadataCompletionFunction, Operand::kType},
    {'s', NodeKind::kObjCResilientClassStub, Operand::kType},
    {'S', NodeKind::kProtocolSelfConformanceDescriptor, Operand::kProtocol},
    {'t', NodeKind::kFullObjCResilientClassStub, Operand::kType},
    {'u', NodeKind::kMethodLookupFunction, Operand::kType},
    {'U', NodeKind::kObjCMetadataUpdateFunction, Operand::kType},
    {'V', NodeKind::kPropertyDescriptor, Operand::kEntity},
    {'z', NodeKind::kCanonicalPrespecializedGenericTypeCachingOnceToken, Operand::kType},
};

// 'W' operators with a conformance as their one child.
struct ConformanceOperator {
  char code;
  NodeKind kind;
};

constexpr ConformanceOperator kConformanceOperators[] = {
    {'P', NodeKind::kProtocolWitnessTable},
    {'p', NodeKind::kProtocolWitnessTablePattern},
    {'G', NodeKind::kGenericProtocolWitnessTable},
    {'I', NodeKind::kGenericProtocolWitnessTableInstantiationFunction},
    {'r', NodeKind::kResilientProtocolWitnessTable},
    {'a', NodeKind::kProtocolWitnessTableAccessor},
};

constexpr ConformanceOperator kOutlinedOperators[] = {
    {'B', NodeKind::kOutlinedInitializeWithTakeNoValueWitness},
    {'C', NodeKind::kOutlinedInitializeWithCopyNoValueWitness},
    {'D', NodeKind::kOutlinedAssignWithTakeNoValueWitness},
    {'F', NodeKind::kOutlinedAssignWithCopyNoValueWitness},
    {'H', NodeKind::kOutlinedDestroyNoValueWitness},
    {'y', NodeKind::kOutlinedCopy},
    {'e', NodeKind::kOutlinedConsume},
    {'r', NodeKind::kOutlinedRetain},
    {'s', NodeKind::kOutlinedRelease},
    {'b', NodeKind::kOutlinedInitializeWithTake},
    {'c', NodeKind::kOutlinedInitializeWithCopy},
    {'d', NodeKind::kOutlinedAssignWithTake},
    {'f', NodeKind::kOutlinedAssignWithCopy},
    {'h', NodeKind::kOutlinedDestroy},
    {'g', NodeKind::kOutlinedEnumGetTag},
    {'i', NodeKind::kOutlinedEnumTagStore},
    {'j', NodeKind::kOutlinedEnumProjectDataForLoad},
};

}  // namespace

Node* Parser::ParseMetatype() {
  char code = Next();
  if (code == 'X') return ParsePrivateContextDescriptor();
  if (code == 'C') {
    Node* type = Pop(NodeKind::kType);
    Node* nominal = type ? type->child(0) : nullptr;
    if (!nominal || !IsAnyGenericKind(nominal->kind())) return nullptr;
    return Make(NodeKind::kReflectionMetadataSuperclassDescriptor, nominal);
  }
  for (const MetadataOperator& op : kMetadataOperators) {
    if (op.code != code) continue;
    switch (op.operand) {
      case Operand::kType: return Make(op.kind, Pop(NodeKind::kType));
      case Operand::kNode: return Make(op.kind, Pop());
      case Operand::kProtocol: return Make(op.kind, PopProtocol());
      case Operand::kConformance: return Make(op.kind, PopProtocolConformance());
      case Operand::kEntity: return Make(op.kind, PopIf(IsEntityKind));
    }
  }
  return nullptr;
}

Node* Parser::ParsePrivateContextDescriptor() {
  switch (Next()) {
    case 'E': return Make(NodeKind::kExtensionDescriptor, PopContext());
    case 'M': return Make(NodeKind::kModuleDescriptor, PopModule());
    case 'Y': {
      Node* discriminator = Pop();
      Node* context = discriminator ? PopContext() : nullptr;
      return Make(NodeKind::kAnonymousDescriptor, context, discriminator);
    }
    case 'X': return Make(NodeKind::kAnonymousDescriptor, PopContext());
    case 'A': {
      Node* path = PopAssocTypePath();
      Node* base = path ? Pop(NodeKind::kType) : nullptr;
      return Make(NodeKind::kAssociatedTypeGenericParamRef, base, path);
    }
    default: return nullptr;
  }
}

Node* Parser::ParseWitness() {
  char code = Next();
  for (const ConformanceOperator& op : kConformanceOperators) {
    if (op.code == code) return Make(op.kind, PopProtocolConformance());
  }
  switch (code) {
    case 'C': return Make(NodeKind::kEnumCase, PopIf(IsEntityKind));
    case 'V': return Make(NodeKind::kValueWitnessTable, Pop(NodeKind::kType));
    case 'v': {
      char directness = Next();
      if (directness != 'd' && directness != 'i') return nullptr;
      return Make(NodeKind::kFieldOffset, MakeIndex(NodeKind::kDirectness, directness == 'i'),
                  PopIf(IsEntityKind));
    }
    case 'S': return Make(NodeKind::kProtocolSelfConformanceWitnessTable, PopProtocol());
    case 'l':
    case 'L': {
      Node* conformance = PopProtocolConformance();
      Node* type = Pop(NodeKind::kType);
      NodeKind kind = code == 'l' ? NodeKind::kLazyProtocolWitnessTableAccessor
                                  : NodeKind::kLazyProtocolWitnessTableCacheVariable;
      return Make(kind, type, conformance);
    }
    case 't': {
      Node* name = PopIf(IsDeclNameKind);
      Node* conformance = PopProtocolConformance();
      return Make(NodeKind::kAssociatedTypeMetadataAccessor, conformance, name);
    }
    case 'T': {
      Node* protocol = Pop(NodeKind::kType);
      Node* path = PopAssocTypePath();
      Node* conformance = PopProtocolConformance();
      return Make(NodeKind::kAssociatedTypeWitnessTableAccessor, conformance, path, protocol);
    }
    case 'b': {
      Node* protocol = Pop(NodeKind::kType);
      Node* conformance = PopProtocolConformance();
      return Make(NodeKind::kBaseWitnessTableAccessor, conformance, protocol);
    }
    case 'O': return ParseOutlinedOperation();
    case 'Z': return ParseGlobalVariableOnce(NodeKind::kGlobalVariableOnceFunction);
    case 'z': return ParseGlobalVariableOnce(NodeKind::kGlobalVariableOnceToken);
    case 'J': return ParseDifferentiabilityWitness();
    default: return nullptr;
  }
}

// "WO" and a letter: children are the type, the generic signature if any, and for the enum tag
// operations the case index.
Node* Parser::ParseOutlinedOperation() {
  char code = Next();
  for (const ConformanceOperator& op : kOutlinedOperators) {
    if (op.code != code) continue;
    bool has_case = code == 'i' || code == 'j';
    Node* case_index = has_case ? ParseIndexAsNode() : nullptr;
    if (has_case && !case_index) return nullptr;
    Node* signature = Pop(NodeKind::kDependentGenericSignature);
    Node* node = AddIfAny(Make(op.kind, Pop(NodeKind::kType)), signature);
    return has_case ? Add(node, case_index) : node;
  }
  return nullptr;
}

// The context and the list of variables a global initializer covers ("decl-name '_'"+).
Node* Parser::ParseGlobalVariableOnce(NodeKind kind) {
  ArenaVector<Node*> names;
  while (Pop(NodeKind::kFirstElementMarker)) {
    Node* name = PopIf(IsDeclNameKind);
    if (!name || !names.PushBack(arena_, name)) return nullptr;
  }
  Node* list = Make(NodeKind::kGlobalVariableOnceDeclList);
  while (list && !names.empty()) list = Add(list, names.PopBack());
  return Make(kind, PopContext(), list);
}

Node* Parser::ParseValueWitness() {
  if (pos_ + 2 > text_.size()) return nullptr;
  int witness = ValueWitnessFromCode(text_.substr(pos_, 2));
  pos_ += 2;
  if (witness < 0) return nullptr;
  return Make(NodeKind::kValueWitness, MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(witness)),
              Pop(NodeKind::kType));
}

}  // namespace instrumentscope::demangle::swift
