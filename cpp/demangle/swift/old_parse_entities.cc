// Declarations of the old mangling: functions, variables, subscripts, initializers, closures and
// accessors; their contexts (modules, extensions, enclosing declarations); names; nominal types
// and protocols.
#include "demangle/swift/old_parser.h"

namespace instrumentscope::demangle::swift {
namespace {

bool IsEntityStart(char c) {
  switch (c) {
    case 'F':
    case 'I':
    case 'v':
    case 'P':
    case 'Z':
    case 'C':
    case 'V':
    case 'O': return true;
    default: return false;
  }
}

// Entity names that are a fixed word and have no type.
bool ParseNoTypeEntityName(char code, NodeKind& kind) {
  switch (code) {
    case 'D': kind = NodeKind::kDeallocator; return true;
    case 'd': kind = NodeKind::kDestructor; return true;
    case 'Z': kind = NodeKind::kIsolatedDeallocator; return true;
    case 'e': kind = NodeKind::kIVarInitializer; return true;
    case 'E': kind = NodeKind::kIVarDestroyer; return true;
    default: return false;
  }
}

// The length of the accessor code `rest` starts with, 0 when there is none; sets `kind`.
size_t AccessorCode(std::string_view rest, NodeKind& kind) {
  static constexpr struct {
    std::string_view code;
    NodeKind kind;
  } kAccessors[] = {
      {"aO", NodeKind::kOwningMutableAddressor},
      {"ao", NodeKind::kNativeOwningMutableAddressor},
      {"ap", NodeKind::kNativePinningMutableAddressor},
      {"au", NodeKind::kUnsafeMutableAddressor},
      {"lO", NodeKind::kOwningAddressor},
      {"lo", NodeKind::kNativeOwningAddressor},
      {"lp", NodeKind::kNativePinningAddressor},
      {"lu", NodeKind::kUnsafeAddressor},
      {"g", NodeKind::kGetter},
      {"G", NodeKind::kGlobalGetter},
      {"s", NodeKind::kSetter},
      {"m", NodeKind::kMaterializeForSet},
      {"w", NodeKind::kWillSet},
      {"W", NodeKind::kDidSet},
      {"r", NodeKind::kReadAccessor},
      {"M", NodeKind::kModifyAccessor},
  };
  for (const auto& accessor : kAccessors) {
    if (rest.substr(0, accessor.code.size()) == accessor.code) {
      kind = accessor.kind;
      return accessor.code.size();
    }
  }
  return 0;
}

}  // namespace

// entity ::= declaration | nominal-type
Node* OldParser::ParseEntity() {
  switch (Peek()) {
    case 'Z':
    case 'F':
    case 'v':
    case 'I':
    case 'i': return ParseDeclEntity();
    default: return ParseNominalType();
  }
}

// declaration ::= 'Z'? ('F' | 'v' | 'I' | 'i') context entity-name type?
Node* OldParser::ParseDeclEntity() {
  Nesting nesting(depth_);
  if (nesting.TooDeep()) return nullptr;
  bool is_static = NextIf('Z');
  NodeKind kind;
  switch (Next()) {
    case 'F': kind = NodeKind::kFunction; break;
    case 'v': kind = NodeKind::kVariable; break;
    case 'I': kind = NodeKind::kInitializer; break;
    case 'i': kind = NodeKind::kSubscript; break;
    default: return nullptr;
  }
  Node* context = ParseContext();
  if (!context) return nullptr;
  Node* entity = nullptr;
  if (ParseNoTypeEntityName(Peek(), kind)) {
    ++pos_;
    entity = Make(kind, context);
  } else if (size_t length = AccessorCode(text_.substr(pos_), kind)) {
    pos_ += length;
    entity = MakeStorageAccessor(kind, context, ParseDeclName());
  } else if (NextIf('C') || NextIf('c')) {
    kind = text_[pos_ - 1] == 'C' ? NodeKind::kAllocator : NodeKind::kConstructor;
    Node* type = ParseType();
    entity = Make(kind, context, type);
  } else if (NextIf('U') || NextIf('u')) {
    kind = text_[pos_ - 1] == 'U' ? NodeKind::kExplicitClosure : NodeKind::kImplicitClosure;
    Node* index = ParseIndexAsNode();
    entity = Make(kind, context, index, index ? ParseType() : nullptr);
  } else if (kind == NodeKind::kInitializer) {
    // A default argument's or a variable's initial value.
    if (NextIf('A')) {
      entity = Make(NodeKind::kDefaultArgumentInitializer, context, ParseIndexAsNode());
    } else {
      entity = NextIf('i') ? Make(NodeKind::kInitializer, context) : nullptr;
    }
  } else {
    Node* name = ParseDeclName();
    entity = Make(kind, context, name, name ? ParseType() : nullptr);
  }
  return is_static ? Make(NodeKind::kStatic, entity) : entity;
}

// The accessor wraps its storage: a Variable (context, name, type), or for the name "subscript" a
// Subscript (context, type, and the file's discriminator of a private subscript).
Node* OldParser::MakeStorageAccessor(NodeKind kind, Node* context, Node* name) {
  if (!name) return nullptr;
  Node* private_name = nullptr;
  bool subscript = false;
  if (name->kind() == NodeKind::kIdentifier) {
    subscript = name->text() == "subscript";
  } else if (name->kind() == NodeKind::kPrivateDeclName) {
    subscript = name->child(1)->text() == "subscript";
    if (subscript) private_name = Make(NodeKind::kPrivateDeclName, name->child(0));
  }
  Node* type = ParseType();
  Node* storage = subscript ? Make(NodeKind::kSubscript, context, type)
                            : Make(NodeKind::kVariable, context, name, type);
  if (private_name) storage = Add(storage, private_name);
  return Make(kind, storage);
}

// context ::= 'E' module context | 'e' module generic-signature context | 'S' substitution
//           | 's' | 'G' bound-generic-type | entity | module
Node* OldParser::ParseContext() {
  Nesting nesting(depth_);
  if (nesting.TooDeep()) return nullptr;
  if (NextIf('E')) return ParseExtension(/*constrained=*/false);
  if (NextIf('e')) return ParseExtension(/*constrained=*/true);
  if (NextIf('S')) {
    Node* context = ParseSubstitution();
    // Associated type names are substitutions too, but no context.
    if (!context || context->kind() == NodeKind::kDependentAssociatedTypeRef ||
        context->kind() == NodeKind::kAssociatedTypeRef) {
      return nullptr;
    }
    return context;
  }
  if (NextIf('s')) return MakeText(NodeKind::kModule, "Swift");
  if (NextIf('G')) return ParseBoundGenericType();
  if (IsEntityStart(Peek())) return ParseEntity();
  return ParseModule();
}

// An extension declared in a module other than its type's; a constrained one has a signature.
Node* OldParser::ParseExtension(bool constrained) {
  Node* module = ParseModule();
  Node* signature = nullptr;
  if (constrained) {
    signature = module ? ParseGenericSignature(NodeKind::kDependentGenericSignature) : nullptr;
    if (!signature) return nullptr;
  }
  Node* extension = Make(NodeKind::kExtension, module, module ? ParseContext() : nullptr);
  return signature ? Add(extension, signature) : extension;
}

Node* OldParser::ParseModule() {
  if (NextIf('s')) return MakeText(NodeKind::kModule, "Swift");
  if (NextIf('S')) {
    Node* module = ParseSubstitution();
    return module && module->kind() == NodeKind::kModule ? module : nullptr;
  }
  return AddSubstitution(ParseIdentifier(NodeKind::kModule));
}

// nominal-type ::= 'S' substitution | ('V' | 'O' | 'C' | 'P') declaration-name
Node* OldParser::ParseNominalType() {
  switch (Next()) {
    case 'S': return ParseSubstitution();
    case 'V': return ParseDeclaration(NodeKind::kStructure);
    case 'O': return ParseDeclaration(NodeKind::kEnum);
    case 'C': return ParseDeclaration(NodeKind::kClass);
    case 'P': return ParseDeclaration(NodeKind::kProtocol);
    default: return nullptr;
  }
}

// context decl-name, remembered as a substitution.
Node* OldParser::ParseDeclaration(NodeKind kind) {
  Node* context = ParseContext();
  Node* name = context ? ParseDeclName() : nullptr;
  return AddSubstitution(Make(kind, context, name));
}

// decl-name ::= 'L' index identifier | 'P' identifier identifier | identifier
Node* OldParser::ParseDeclName() {
  if (NextIf('L')) {
    Node* discriminator = ParseIndexAsNode();
    return Make(NodeKind::kLocalDeclName, discriminator,
                discriminator ? ParseIdentifier() : nullptr);
  }
  if (NextIf('P')) {
    // The file's discriminator, then the name.
    Node* discriminator = ParseIdentifier();
    return Make(NodeKind::kPrivateDeclName, discriminator,
                discriminator ? ParseIdentifier() : nullptr);
  }
  return ParseIdentifier();
}

// A protocol as a Type: 'S' substitution (the protocol, or its module), 's' (a protocol of
// Swift), or a declaration name.
Node* OldParser::ParseProtocolName() {
  Node* protocol = nullptr;
  if (NextIf('S')) {
    Node* substitution = ParseSubstitution();
    if (substitution && substitution->kind() == NodeKind::kProtocol) {
      protocol = substitution;
    } else if (substitution && substitution->kind() == NodeKind::kModule) {
      protocol = ParseProtocolInContext(substitution);
    }
  } else if (NextIf('s')) {
    protocol = ParseProtocolInContext(MakeText(NodeKind::kModule, "Swift"));
  } else {
    protocol = ParseDeclaration(NodeKind::kProtocol);
  }
  return MakeType(protocol);
}

Node* OldParser::ParseProtocolInContext(Node* context) {
  Node* name = ParseDeclName();
  return AddSubstitution(Make(NodeKind::kProtocol, context, name));
}

}  // namespace instrumentscope::demangle::swift
