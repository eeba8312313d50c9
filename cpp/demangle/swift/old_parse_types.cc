// Types of the old mangling: builtin, nominal and bound generic types, function types, tuples,
// protocol compositions, metatypes, reference storage and SIL box types, archetypes.
#include <string>

#include "demangle/swift/old_parser.h"

namespace instrumentscope::demangle::swift {
namespace {

// A tuple element starts with a label's length, or with 'o', an operator name, which
// ParseIdentifier refuses as a label.
bool IsLabelStart(char c) {
  return (c >= '0' && c <= '9') || c == 'o';
}

struct BuiltinName {
  char code;
  std::string_view name;
};

constexpr BuiltinName kBuiltinNames[] = {
    {'b', "Builtin.BridgeObject"},  {'B', "Builtin.UnsafeValueBuffer"},
    {'O', "Builtin.UnknownObject"}, {'o', "Builtin.NativeObject"},
    {'p', "Builtin.RawPointer"},    {'t', "Builtin.SILToken"},
    {'w', "Builtin.Word"},
};

}  // namespace

Node* OldParser::ParseType() {
  return MakeType(ParseTypeBody());
}

// The type without its Type wrapper.
Node* OldParser::ParseTypeBody() {
  Nesting nesting(depth_);
  if (nesting.TooDeep()) return nullptr;
  switch (Next()) {
    case 'B': return ParseBuiltinType();
    case 'a': return ParseDeclaration(NodeKind::kTypeAlias);
    case 'b': return ParseFunctionType(NodeKind::kObjCBlock);
    case 'c': return ParseFunctionType(NodeKind::kCFunctionPointer);
    case 'C': return ParseDeclaration(NodeKind::kClass);
    case 'D': return Make(NodeKind::kDynamicSelf, ParseType());
    case 'E': return NextIf("RR") ? Make(NodeKind::kErrorType) : nullptr;
    case 'F':
    case 'f': return ParseFunctionType(NodeKind::kFunctionType);
    case 'G': return ParseBoundGenericType();
    case 'K': return ParseFunctionType(NodeKind::kAutoClosureType);
    case 'M': return Make(NodeKind::kMetatype, ParseType());
    case 'O': return ParseDeclaration(NodeKind::kEnum);
    case 'P':
      return NextIf('M') ? Make(NodeKind::kExistentialMetatype, ParseType()) : ParseProtocolList();
    case 'Q': return NextIf('u') ? Make(NodeKind::kOpaqueReturnType) : ParseArchetype();
    case 'q': return ParseDependentType();
    case 'R': return Make(NodeKind::kInOut, ParseTypeBody());
    case 'S': {
      // Modules and associated type names are substitutions too, but no types.
      Node* type = ParseSubstitution();
      if (!type || type->kind() == NodeKind::kModule ||
          type->kind() == NodeKind::kDependentAssociatedTypeRef) {
        return nullptr;
      }
      return type;
    }
    case 'T': return ParseTuple(/*variadic=*/false);
    case 't': return ParseTuple(/*variadic=*/true);
    case 'u': {
      Node* signature = ParseGenericSignature(NodeKind::kDependentGenericSignature);
      return Make(NodeKind::kDependentGenericType, signature, signature ? ParseType() : nullptr);
    }
    case 'V': return ParseDeclaration(NodeKind::kStructure);
    case 'w': return ParseAssociatedType(/*compound=*/false);
    case 'W': return ParseAssociatedType(/*compound=*/true);
    case 'X': return ParseSpecialType();
    case 'x': --pos_; return ParseGenericParamIndex();
    default: return nullptr;
  }
}

// After 'B'. Sizes are a number and '_': "Bi32_" is Builtin.Int32, "Bv4Bf16_" a vector of four.
Node* OldParser::ParseBuiltinType() {
  for (const BuiltinName& builtin : kBuiltinNames) {
    if (NextIf(builtin.code)) return MakeText(NodeKind::kBuiltinTypeName, builtin.name);
  }
  std::string name = "Builtin.";
  uint64_t elements = 0;
  if (NextIf('v')) {
    if (!ParseNatural(elements) || !NextIf('B')) return nullptr;
    name += "Vec" + std::to_string(elements) + "x";
    if (NextIf('p')) return factory_.CreateText(NodeKind::kBuiltinTypeName, name + "RawPointer");
  }
  uint64_t size = 0;
  if (NextIf('i')) {
    name += "Int";
  } else if (NextIf('f')) {
    name += "FPIEEE";
  } else {
    return nullptr;
  }
  if (!ParseNatural(size) || !NextIf('_')) return nullptr;
  return factory_.CreateText(NodeKind::kBuiltinTypeName, name + std::to_string(size));
}

// After 'X': SIL boxes, metatypes with a representation, thin functions, reference storage,
// SIL function types.
Node* OldParser::ParseSpecialType() {
  switch (Next()) {
    case 'b': return Make(NodeKind::kSILBoxType, ParseType());
    case 'B': return ParseSilBoxWithLayout();
    case 'M': {
      Node* representation = ParseMetatypeRepresentation();
      return Make(NodeKind::kMetatype, representation, representation ? ParseType() : nullptr);
    }
    case 'P': {
      if (!NextIf('M')) return ParseProtocolList();
      Node* representation = ParseMetatypeRepresentation();
      return Make(NodeKind::kExistentialMetatype, representation,
                  representation ? ParseType() : nullptr);
    }
    case 'f': return ParseFunctionType(NodeKind::kThinFunctionType);
    case 'o': return Make(NodeKind::kUnowned, ParseType());
    case 'u': return Make(NodeKind::kUnmanaged, ParseType());
    case 'w': return Make(NodeKind::kWeak, ParseType());
    case 'F': return ParseImplFunctionType();
    default: return nullptr;
  }
}

// After "XB": ('G' generic-signature)?, fields ('m' mutable or 'i' immutable, and a type) up to
// '_', and with a signature its generic arguments up to '_'.
Node* OldParser::ParseSilBoxWithLayout() {
  Node* signature = nullptr;
  if (NextIf('G')) {
    signature = ParseGenericSignature(NodeKind::kDependentGenericSignature);
    if (!signature) return nullptr;
  }
  Node* layout = Make(NodeKind::kSILBoxLayout);
  while (layout && !NextIf('_')) {
    NodeKind field;
    if (NextIf('m')) {
      field = NodeKind::kSILBoxMutableField;
    } else if (NextIf('i')) {
      field = NodeKind::kSILBoxImmutableField;
    } else {
      return nullptr;
    }
    layout = Add(layout, Make(field, ParseType()));
  }
  Node* box = Make(NodeKind::kSILBoxTypeWithLayout, layout);
  if (!signature) return box;
  Node* arguments = Make(NodeKind::kTypeList);
  while (arguments && !NextIf('_')) arguments = Add(arguments, ParseType());
  return Add(Add(box, signature), arguments);
}

// 'z'? argument-type result-type; 'z' marks a throwing function.
Node* OldParser::ParseFunctionType(NodeKind kind) {
  Node* function = Make(kind);
  if (NextIf('z')) function = Add(function, Make(NodeKind::kThrowsAnnotation));
  Node* arguments = ParseType();
  Node* result = arguments ? ParseType() : nullptr;
  function = Add(function, Make(NodeKind::kArgumentTuple, arguments));
  return Add(function, Make(NodeKind::kReturnType, result));
}

// (label? type)* '_'; labels start with a digit (their length). In a variadic tuple the last
// element is the variadic one.
Node* OldParser::ParseTuple(bool variadic) {
  Node* tuple = Make(NodeKind::kTuple);
  Node* last = nullptr;
  while (tuple && !NextIf('_')) {
    last = Make(NodeKind::kTupleElement);
    if (IsLabelStart(Peek())) last = Add(last, ParseIdentifier(NodeKind::kTupleElementName));
    if (last) last = Add(last, ParseType());
    tuple = Add(tuple, last);
  }
  if (!tuple || !variadic || !last) return tuple;
  // The marker goes first, before the label and the type.
  factory_.ReverseChildren(last);
  if (!Add(last, Make(NodeKind::kVariadicMarker))) return nullptr;
  factory_.ReverseChildren(last);
  return tuple;
}

// nominal-type (type* '_')+, one argument list per level of nesting, the outermost first.
Node* OldParser::ParseBoundGenericType() {
  return BindGenericArgs(ParseNominalType());
}

Node* OldParser::BindGenericArgs(Node* nominal) {
  Nesting nesting(depth_);
  if (nesting.TooDeep() || !nominal || nominal->num_children() == 0) return nullptr;
  Node* parent = nominal->child(0);
  NodeKind parent_kind = parent->kind();
  if (parent_kind != NodeKind::kModule && parent_kind != NodeKind::kFunction &&
      parent_kind != NodeKind::kExtension) {
    // The parent may gain arguments of its own: the type is rebuilt around the bound parent.
    Node* rebuilt = Make(nominal->kind(), BindGenericArgs(parent));
    for (size_t i = 1; i < nominal->num_children(); ++i) rebuilt = Add(rebuilt, nominal->child(i));
    if (!rebuilt) return nullptr;
    nominal = rebuilt;
  }
  Node* arguments = Make(NodeKind::kTypeList);
  while (!NextIf('_')) {
    arguments = Add(arguments, ParseType());
    if (!arguments || AtEnd()) return nullptr;
  }
  if (arguments->num_children() == 0) return nominal;
  NodeKind kind;
  switch (nominal->kind()) {
    case NodeKind::kClass: kind = NodeKind::kBoundGenericClass; break;
    case NodeKind::kStructure: kind = NodeKind::kBoundGenericStructure; break;
    case NodeKind::kEnum: kind = NodeKind::kBoundGenericEnum; break;
    default: return nullptr;
  }
  return Make(kind, MakeType(nominal), arguments);
}

// protocol* '_': "P_" is Any.
Node* OldParser::ParseProtocolList() {
  Node* protocols = Make(NodeKind::kTypeList);
  while (protocols && !NextIf('_')) protocols = Add(protocols, ParseProtocolName());
  return Make(NodeKind::kProtocolList, protocols);
}

Node* OldParser::ParseMetatypeRepresentation() {
  switch (Next()) {
    case 't': return MakeText(NodeKind::kMetatypeRepresentation, "@thin");
    case 'T': return MakeText(NodeKind::kMetatypeRepresentation, "@thick");
    case 'o': return MakeText(NodeKind::kMetatypeRepresentation, "@objc_metatype");
    default: return nullptr;
  }
}

// After 'Q': an associated type of an archetype ('Q'), a substitution ('S') or Swift ('s').
Node* OldParser::ParseArchetype() {
  Nesting nesting(depth_);
  if (nesting.TooDeep()) return nullptr;
  Node* root = nullptr;
  if (NextIf('Q')) {
    root = ParseArchetype();
  } else if (NextIf('S')) {
    root = ParseSubstitution();
  } else if (NextIf('s')) {
    root = MakeText(NodeKind::kModule, "Swift");
  }
  Node* name = root ? ParseIdentifier() : nullptr;
  return AddSubstitution(Make(NodeKind::kAssociatedTypeRef, root, name));
}

}  // namespace instrumentscope::demangle::swift
