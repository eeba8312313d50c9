// The 'T' operators: thunks, attributes of the global, key path helpers, descriptors of
// associated types and conformances; specializations are in parse_specializations.cc.
#include <string_view>

#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {

// One case per operator character after 'T': the table reads best in one place.
Node* Parser::ParseThunkOrSpecialization() {
  char c = Next();
  switch (c) {
    case 'T': return NextIf('I') ? Make(NodeKind::kSILThunkIdentity, PopIf(IsEntityKind)) : nullptr;
    case 'c': return Make(NodeKind::kCurryThunk, PopIf(IsEntityKind));
    case 'j': return Make(NodeKind::kDispatchThunk, PopIf(IsEntityKind));
    case 'q': return Make(NodeKind::kMethodDescriptor, PopIf(IsEntityKind));
    case 'S': return Make(NodeKind::kProtocolSelfConformanceWitness, PopIf(IsEntityKind));
    case 'o': return Make(NodeKind::kObjCAttribute);
    case 'O': return Make(NodeKind::kNonObjCAttribute);
    case 'D': return Make(NodeKind::kDynamicAttribute);
    case 'd': return Make(NodeKind::kDirectMethodReferenceAttribute);
    case 'E': return Make(NodeKind::kDistributedThunk);
    case 'F': return Make(NodeKind::kDistributedAccessor);
    case 'a': return Make(NodeKind::kPartialApplyObjCForwarder);
    case 'A': return Make(NodeKind::kPartialApplyForwarder);
    case 'm': return Make(NodeKind::kMergedFunction);
    case 'X': return Make(NodeKind::kDynamicallyReplaceableFunctionVar);
    case 'x': return Make(NodeKind::kDynamicallyReplaceableFunctionKey);
    case 'I': return Make(NodeKind::kDynamicallyReplaceableFunctionImpl);
    case 'u': return Make(NodeKind::kAsyncFunctionPointer);
    case 'Q': return Make(NodeKind::kAsyncAwaitResumePartialFunction, ParseIndexAsNode());
    case 'Y': return Make(NodeKind::kAsyncSuspendResumePartialFunction, ParseIndexAsNode());
    case 'C': return Make(NodeKind::kCoroutineContinuationPrototype, Pop(NodeKind::kType));
    case 'z': return ParseObjCCompletionHandler(NodeKind::kObjCAsyncCompletionHandlerImpl);
    case 'Z': return ParseObjCCompletionHandler(NodeKind::kCheckedObjCAsyncCompletionHandlerImpl);
    case 'V': {
      Node* base = PopIf(IsEntityKind);
      Node* derived = PopIf(IsEntityKind);
      return Make(NodeKind::kVTableThunk, derived, base);
    }
    case 'W': {
      Node* entity = PopIf(IsEntityKind);
      Node* conformance = PopProtocolConformance();
      NodeKind kind = NextIf('V') ? NodeKind::kCOMMethodWitness : NodeKind::kProtocolWitness;
      return Make(kind, conformance, entity);
    }
    case 'R': return ParseReabstractionThunk(NodeKind::kReabstractionThunkHelper);
    case 'r': return ParseReabstractionThunk(NodeKind::kReabstractionThunk);
    case 'y': return ParseReabstractionThunk(NodeKind::kReabstractionThunkHelperWithSelf);
    case 'g': return ParseGenericSpecialization(NodeKind::kGenericSpecialization, nullptr);
    case 'G':
      return ParseGenericSpecialization(NodeKind::kGenericSpecializationNotReAbstracted, nullptr);
    case 'B':
      return ParseGenericSpecialization(NodeKind::kGenericSpecializationInResilienceDomain,
                                        nullptr);
    case 's':
      return ParseGenericSpecialization(NodeKind::kGenericSpecializationPrespecialized, nullptr);
    case 'i': return ParseGenericSpecialization(NodeKind::kInlinedGenericFunction, nullptr);
    case 't': return ParseGenericSpecializationWithDroppedArguments();
    case 'p': return ParsePartialSpecialization(NodeKind::kGenericPartialSpecialization);
    case 'P':
      return ParsePartialSpecialization(NodeKind::kGenericPartialSpecializationNotReAbstracted);
    case 'f': return ParseFunctionSpecialization();
    case 'K':
    case 'k': return ParseKeyPathAccessorThunk(c == 'K');
    case 'H': return ParseKeyPathIndexThunk(NodeKind::kKeyPathEqualsThunkHelper);
    case 'h': return ParseKeyPathIndexThunk(NodeKind::kKeyPathHashThunkHelper);
    case 'l': return Make(NodeKind::kAssociatedTypeDescriptor, PopAssocTypeName());
    case 'L': return Make(NodeKind::kProtocolRequirementsBaseDescriptor, PopProtocol());
    case 'M': return Make(NodeKind::kDefaultAssociatedTypeMetadataAccessor, PopAssocTypeName());
    case 'n': return ParseAssociatedConformanceThunk(NodeKind::kAssociatedConformanceDescriptor);
    case 'N':
      return ParseAssociatedConformanceThunk(NodeKind::kDefaultAssociatedConformanceAccessor);
    case 'b': {
      Node* requirement = PopProtocol();
      Node* protocol = Pop(NodeKind::kType);
      return Make(NodeKind::kBaseConformanceDescriptor, protocol, requirement);
    }
    case 'v': {
      int index = ParseIndex();
      if (index < 0) return nullptr;
      NodeKind kind = NextIf('r') ? NodeKind::kOutlinedReadOnlyObject : NodeKind::kOutlinedVariable;
      return MakeIndex(kind, static_cast<uint64_t>(index));
    }
    case 'e': return ParseOutlinedBridgedMethod();
    case 'U': {
      Node* global_actor = Pop(NodeKind::kType);
      Node* thunk = global_actor ? Pop() : nullptr;
      return Make(NodeKind::kReabstractionThunkHelperWithGlobalActor, thunk, global_actor);
    }
    case 'J':
      if (NextIf('S')) return ParseAutoDiffSubsetParametersThunk();
      if (NextIf('O')) return ParseAutoDiffSelfReorderingThunk();
      if (NextIf('V')) return ParseAutoDiffFunction(NodeKind::kAutoDiffDerivativeVTableThunk);
      return ParseAutoDiffFunction(NodeKind::kAutoDiffFunction);
    case 'w': return ParseThunkW();
    default: return nullptr;
  }
}

Node* Parser::ParseThunkW() {
  switch (Next()) {
    case 'b': return Make(NodeKind::kBackDeploymentThunk);
    case 'B': return Make(NodeKind::kBackDeploymentFallback);
    case 'c': return Make(NodeKind::kCoroFunctionPointer);
    case 'd': return Make(NodeKind::kDefaultOverride);
    case 'S': return Make(NodeKind::kHasSymbolQuery);
    default: return nullptr;
  }
}

// Children: generic signature?, self type (with self only), to-type, from-type. A missing type
// leaves the thunk short, as the printer then reports.
Node* Parser::ParseReabstractionThunk(NodeKind kind) {
  Node* thunk = Make(kind);
  AddIfAny(thunk, Pop(NodeKind::kDependentGenericSignature));
  if (kind == NodeKind::kReabstractionThunkHelperWithSelf) {
    AddIfAny(thunk, Pop(NodeKind::kType));
  }
  AddIfAny(thunk, Pop(NodeKind::kType));
  return AddIfAny(thunk, Pop(NodeKind::kType));
}

// Key path getter/setter ("TK", "Tk") and unapplied/applied method ("Tkmu", "TkMA") helpers:
// the entity, its generic signature if any, then the types, in mangled order.
Node* Parser::ParseKeyPathAccessorThunk(bool getter) {
  NodeKind kind =
      getter ? NodeKind::kKeyPathGetterThunkHelper : NodeKind::kKeyPathSetterThunkHelper;
  if (NextIf("mu")) {
    kind = NodeKind::kKeyPathUnappliedMethodThunkHelper;
  } else if (NextIf("MA")) {
    kind = NodeKind::kKeyPathAppliedMethodThunkHelper;
  }
  bool serialized = NextIf('q');
  ArenaVector<Node*> types;
  Node* node = Pop();
  if (!node || node->kind() != NodeKind::kType) return nullptr;
  do {
    if (!types.PushBack(arena_, node)) return nullptr;
    node = Pop();
  } while (node && node->kind() == NodeKind::kType);
  if (!node) return nullptr;
  Node* result = nullptr;
  if (node->kind() == NodeKind::kDependentGenericSignature) {
    result = Make(kind, Pop(), node);
  } else {
    result = Make(kind, node);
  }
  while (result && !types.empty()) result = Add(result, types.PopBack());
  if (serialized) result = Add(result, Make(NodeKind::kIsSerialized));
  return result;
}

// Key path index equality ("TH") and hash ("Th") helpers take every type on the stack.
Node* Parser::ParseKeyPathIndexThunk(NodeKind kind) {
  bool serialized = NextIf('q');
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  ArenaVector<Node*> types;
  while (Node* node = Pop()) {
    if (node->kind() != NodeKind::kType || !types.PushBack(arena_, node)) return nullptr;
  }
  if (!signature && types.empty()) return nullptr;
  Node* result = Make(kind);
  while (result && !types.empty()) result = Add(result, types.PopBack());
  result = AddIfAny(result, signature);
  if (serialized) result = Add(result, Make(NodeKind::kIsSerialized));
  return result;
}

Node* Parser::ParseObjCCompletionHandler(NodeKind kind) {
  Node* flag_mode = ParseIndexAsNode();
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  Node* result_type = Pop(NodeKind::kType);
  Node* impl_type = Pop(NodeKind::kType);
  return AddIfAny(Make(kind, impl_type, result_type, flag_mode), signature);
}

Node* Parser::ParseAssociatedConformanceThunk(NodeKind kind) {
  Node* requirement = PopProtocol();
  Node* subject = PopAssociatedConformanceSubject();
  Node* protocol = Pop(NodeKind::kType);
  return Make(kind, protocol, subject, requirement);
}

// A generic parameter type, or else a path of associated type names.
Node* Parser::PopAssociatedConformanceSubject() {
  if (Node* type = Pop(NodeKind::kType)) {
    Node* child = type->child(0);
    if (child && child->kind() == NodeKind::kDependentGenericParamType) return type;
    if (!Push(type)) return nullptr;
  }
  return PopAssocTypePath();
}

// "Te" and a bridge spec: the kind ('o', 'p', 'a', 'm') and per parameter and the result
// whether it is bridged ('n', 'b', 'g'), up to '_'.
Node* Parser::ParseOutlinedBridgedMethod() {
  size_t start = pos_;
  char kind = Next();
  if (kind != 'o' && kind != 'p' && kind != 'a' && kind != 'm') return nullptr;
  while (!NextIf('_')) {
    char c = Next();
    if (c != 'n' && c != 'b' && c != 'g') return nullptr;
  }
  return MakeText(NodeKind::kOutlinedBridgedMethod, text_.substr(start, pos_ - 1 - start));
}

}  // namespace instrumentscope::demangle::swift
