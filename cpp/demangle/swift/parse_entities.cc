// Entities: nominal types, extensions, functions, variables, subscripts and their accessors,
// initializers, closures, macros and macro expansions; and argument labels.
#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {
namespace {

bool IsMacroExpansionKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kAccessorAttachedMacroExpansion:
    case NodeKind::kMemberAttributeAttachedMacroExpansion:
    case NodeKind::kFreestandingMacroExpansion:
    case NodeKind::kMemberAttachedMacroExpansion:
    case NodeKind::kPeerAttachedMacroExpansion:
    case NodeKind::kConformanceAttachedMacroExpansion:
    case NodeKind::kExtensionAttachedMacroExpansion:
    case NodeKind::kMacroExpansionLoc: return true;
    default: return false;
  }
}

// The attributes a function type may carry before its argument tuple, in child order.
bool IsFunctionTypeAttribute(NodeKind kind) {
  switch (kind) {
    case NodeKind::kSendingResultFunctionType:
    case NodeKind::kGlobalActorFunctionType:
    case NodeKind::kIsolatedAnyFunctionType:
    case NodeKind::kNonIsolatedCallerFunctionType:
    case NodeKind::kDifferentiableFunctionType:
    case NodeKind::kThrowsAnnotation:
    case NodeKind::kTypedThrowsAnnotation:
    case NodeKind::kConcurrentFunctionType:
    case NodeKind::kAsyncAnnotation: return true;
    default: return false;
  }
}

}  // namespace

Node* Parser::ParseAnyGenericType(NodeKind kind) {
  Node* name = PopIf(IsDeclNameKind);
  Node* context = PopContext();
  Node* type = MakeType(Make(kind, context, name));
  AddSubstitution(type);
  return type;
}

Node* Parser::ParseExtensionContext() {
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  Node* module = PopModule();
  Node* type = PopTypeAndGetAnyGeneric();
  return AddIfAny(Make(NodeKind::kExtension, module, type), signature);
}

Node* Parser::ParsePlainFunction() {
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  Node* type = FillFunctionType(Make(NodeKind::kFunctionType), false);
  Node* labels = PopFunctionParamLabels(type);
  if (signature) type = MakeType(Make(NodeKind::kDependentGenericType, signature, type));
  Node* name = PopIf(IsDeclNameKind);
  Node* context = PopContext();
  return labels ? Make(NodeKind::kFunction, context, name, labels, type)
                : Make(NodeKind::kFunction, context, name, type);
}

Node* Parser::ParseFunctionEntity() {
  enum class Args { kNone, kTypeAndMaybePrivateName, kTypeAndIndex, kIndex } args = Args::kNone;
  NodeKind kind;
  switch (Next()) {
    case 'D': kind = NodeKind::kDeallocator; break;
    case 'd': kind = NodeKind::kDestructor; break;
    case 'Z': kind = NodeKind::kIsolatedDeallocator; break;
    case 'E': kind = NodeKind::kIVarDestroyer; break;
    case 'e': kind = NodeKind::kIVarInitializer; break;
    case 'i': kind = NodeKind::kInitializer; break;
    case 'P': kind = NodeKind::kPropertyWrapperBackingInitializer; break;
    case 'F': kind = NodeKind::kPropertyWrappedFieldInitAccessor; break;
    case 'W': kind = NodeKind::kPropertyWrapperInitFromProjectedValue; break;
    case 'C': kind = NodeKind::kAllocator, args = Args::kTypeAndMaybePrivateName; break;
    case 'c': kind = NodeKind::kConstructor, args = Args::kTypeAndMaybePrivateName; break;
    case 'U': kind = NodeKind::kExplicitClosure, args = Args::kTypeAndIndex; break;
    case 'u': kind = NodeKind::kImplicitClosure, args = Args::kTypeAndIndex; break;
    case 'A': kind = NodeKind::kDefaultArgumentInitializer, args = Args::kIndex; break;
    case 'm': return ParseEntity(NodeKind::kMacro);
    case 'M': return ParseMacroExpansion();
    case 'p': return ParseEntity(NodeKind::kGenericTypeParamDecl);
    default: return nullptr;
  }
  Node* name_or_index = nullptr;
  Node* type = nullptr;
  Node* labels = nullptr;
  if (args == Args::kTypeAndMaybePrivateName) {
    name_or_index = Pop(NodeKind::kPrivateDeclName);
    type = Pop(NodeKind::kType);
    labels = PopFunctionParamLabels(type);
  } else if (args != Args::kNone) {
    name_or_index = ParseIndexAsNode();
    if (args == Args::kTypeAndIndex) type = Pop(NodeKind::kType);
  }
  Node* entity = Make(kind, PopContext());
  switch (args) {
    case Args::kNone: return entity;
    case Args::kIndex: return Add(entity, name_or_index);
    case Args::kTypeAndIndex: return Add(Add(entity, name_or_index), type);
    case Args::kTypeAndMaybePrivateName:
      return AddIfAny(Add(AddIfAny(entity, labels), type), name_or_index);
  }
  return nullptr;
}

Node* Parser::ParseEntity(NodeKind kind) {
  Node* type = Pop(NodeKind::kType);
  Node* labels = PopFunctionParamLabels(type);
  Node* name = PopIf(IsDeclNameKind);
  Node* context = PopContext();
  return labels ? Make(kind, context, name, labels, type) : Make(kind, context, name, type);
}

Node* Parser::ParseVariable() {
  return ParseAccessor(ParseEntity(NodeKind::kVariable));
}

Node* Parser::ParseSubscript() {
  Node* private_name = Pop(NodeKind::kPrivateDeclName);
  Node* type = Pop(NodeKind::kType);
  Node* labels = PopFunctionParamLabels(type);
  Node* context = PopContext();
  if (!type) return nullptr;
  Node* subscript = Add(Make(NodeKind::kSubscript), context);
  subscript = AddIfAny(Add(AddIfAny(subscript, labels), type), private_name);
  return ParseAccessor(subscript);
}

Node* Parser::ParseAccessor(Node* storage) {
  NodeKind kind;
  switch (Next()) {
    case 'm': kind = NodeKind::kMaterializeForSet; break;
    case 's': kind = NodeKind::kSetter; break;
    case 'g': kind = NodeKind::kGetter; break;
    case 'G': kind = NodeKind::kGlobalGetter; break;
    case 'w': kind = NodeKind::kWillSet; break;
    case 'W': kind = NodeKind::kDidSet; break;
    case 'r': kind = NodeKind::kReadAccessor; break;
    case 'y': kind = NodeKind::kYieldingBorrowAccessor; break;
    case 'M': kind = NodeKind::kModifyAccessor; break;
    case 'x': kind = NodeKind::kYieldingMutateAccessor; break;
    case 'i': kind = NodeKind::kInitAccessor; break;
    case 'b': kind = NodeKind::kBorrowAccessor; break;
    case 'z': kind = NodeKind::kMutateAccessor; break;
    case 'a':
      switch (Next()) {
        case 'O': kind = NodeKind::kOwningMutableAddressor; break;
        case 'o': kind = NodeKind::kNativeOwningMutableAddressor; break;
        case 'P': kind = NodeKind::kNativePinningMutableAddressor; break;
        case 'u': kind = NodeKind::kUnsafeMutableAddressor; break;
        default: return nullptr;
      }
      break;
    case 'l':
      switch (Next()) {
        case 'O': kind = NodeKind::kOwningAddressor; break;
        case 'o': kind = NodeKind::kNativeOwningAddressor; break;
        case 'p': kind = NodeKind::kNativePinningAddressor; break;
        case 'u': kind = NodeKind::kUnsafeAddressor; break;
        default: return nullptr;
      }
      break;
    case 'p': return storage;  // The storage itself.
    default: return nullptr;
  }
  return Make(kind, storage);
}

Node* Parser::ParseMacroExpansion() {
  NodeKind kind;
  bool attached = true;
  switch (Next()) {
    case 'a': kind = NodeKind::kAccessorAttachedMacroExpansion; break;
    case 'r': kind = NodeKind::kMemberAttributeAttachedMacroExpansion; break;
    case 'm': kind = NodeKind::kMemberAttachedMacroExpansion; break;
    case 'p': kind = NodeKind::kPeerAttachedMacroExpansion; break;
    case 'c': kind = NodeKind::kConformanceAttachedMacroExpansion; break;
    case 'e': kind = NodeKind::kExtensionAttachedMacroExpansion; break;
    case 'q': kind = NodeKind::kPreambleAttachedMacroExpansion; break;
    case 'b': kind = NodeKind::kBodyAttachedMacroExpansion; break;
    case 'f': kind = NodeKind::kFreestandingMacroExpansion, attached = false; break;
    case 'u': kind = NodeKind::kMacroExpansionUniqueName, attached = false; break;
    case 'X': return ParseMacroExpansionLoc();
    default: return nullptr;
  }
  Node* macro_name = Pop(NodeKind::kIdentifier);
  Node* private_discriminator =
      kind == NodeKind::kFreestandingMacroExpansion ? Pop(NodeKind::kPrivateDeclName) : nullptr;
  Node* attached_name = attached ? PopIf(IsDeclNameKind) : nullptr;
  Node* context = PopIf(IsMacroExpansionKind);
  if (!context) context = PopContext();
  Node* discriminator = ParseIndexAsNode();
  Node* result = attached_name ? Make(kind, context, attached_name, macro_name, discriminator)
                               : Make(kind, context, macro_name, discriminator);
  return result ? AddIfAny(result, private_discriminator) : nullptr;
}

Node* Parser::ParseMacroExpansionLoc() {
  int line = ParseIndex();
  int column = ParseIndex();
  if (line < 0 || column < 0) return nullptr;
  Node* buffer = Pop(NodeKind::kIdentifier);
  Node* module = Pop(NodeKind::kIdentifier);
  return Make(NodeKind::kMacroExpansionLoc, module, buffer,
              MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(line)),
              MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(column)));
}

// The argument labels of a function-typed entity: an empty LabelList for "no labels" ('y'),
// otherwise one Identifier or FirstElementMarker ('_') per parameter; nullptr when the type has
// no parameters.
Node* Parser::PopFunctionParamLabels(Node* type) {
  if (!labels_in_tuples_ && Pop(NodeKind::kEmptyList)) return Make(NodeKind::kLabelList);
  if (!type || type->kind() != NodeKind::kType) return nullptr;
  Node* function = type->child(0);
  if (function->kind() == NodeKind::kDependentGenericType) {
    Node* inner = function->child(1);
    function = inner ? inner->child(0) : nullptr;
  }
  if (!function || (function->kind() != NodeKind::kFunctionType &&
                    function->kind() != NodeKind::kNoEscapeFunctionType)) {
    return nullptr;
  }
  size_t first = 0;
  while (function->child(first) && IsFunctionTypeAttribute(function->child(first)->kind())) {
    ++first;
  }
  Node* arguments = function->child(first);
  if (!arguments || arguments->kind() != NodeKind::kArgumentTuple) return nullptr;
  Node* params = arguments->child(0) ? arguments->child(0)->child(0) : nullptr;
  if (!params) return nullptr;
  size_t count = params->kind() == NodeKind::kTuple ? params->num_children() : 1;
  if (count == 0) return nullptr;
  Node* labels = Make(NodeKind::kLabelList);
  if (labels_in_tuples_ && params->kind() != NodeKind::kTuple) return labels;
  bool any_label = false;
  for (size_t i = 0; i < count; ++i) {
    Node* label = PopLabel(params, i);
    if (!label || (label->kind() != NodeKind::kIdentifier &&
                   label->kind() != NodeKind::kFirstElementMarker)) {
      return nullptr;
    }
    Add(labels, label);
    any_label |= label->kind() == NodeKind::kIdentifier;
  }
  if (!any_label) return Make(NodeKind::kLabelList);
  if (!labels_in_tuples_) factory_.ReverseChildren(labels);
  return labels;
}

// The label of parameter `index`: popped off the stack, or for Swift 4.0 names taken out of the
// parameter tuple's element.
Node* Parser::PopLabel(Node* params, size_t index) {
  if (!labels_in_tuples_) return Pop();
  Node* param = params->child(index);
  for (size_t i = 0; param && i < param->num_children(); ++i) {
    Node* name = param->child(i);
    if (name->kind() == NodeKind::kTupleElementName) {
      factory_.RemoveChild(param, i);
      return MakeText(NodeKind::kIdentifier, name->text());
    }
  }
  return Make(NodeKind::kFirstElementMarker);
}

}  // namespace instrumentscope::demangle::swift
