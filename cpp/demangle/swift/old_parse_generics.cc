// Generic signatures of the old mangling ("u0_Rxs8RunciblerFxq_"), their requirements, generic
// parameters and dependent member types ("wx5Mince" is A.Mince).
#include "demangle/swift/old_parser.h"

namespace instrumentscope::demangle::swift {

// Parameter counts per depth ('z' none, or an index: "_" one, "0_" two...), then 'r', or 'R'
// requirements 'r'. No count at all means one parameter.
Node* OldParser::ParseGenericSignature(NodeKind kind) {
  Node* signature = Make(kind);
  bool counted = false;
  while (signature && Peek() != 'R' && Peek() != 'r') {
    uint64_t count = 0;
    // Counts past kMaxNumber saturate: the printer lists at most its first few parameters.
    if (!NextIf('z')) {
      if (!ParseIndex(count, /*saturate=*/true)) return nullptr;
      ++count;
    }
    signature = Add(signature, MakeIndex(NodeKind::kDependentGenericParamCount, count));
    counted = true;
  }
  if (!counted) signature = Add(signature, MakeIndex(NodeKind::kDependentGenericParamCount, 1));
  if (NextIf('r')) return signature;
  if (!NextIf('R')) return nullptr;
  while (signature && !NextIf('r')) signature = Add(signature, ParseGenericRequirement());
  return signature;
}

// constrained-type ('z' type | 'l' layout | conformance-constraint)
Node* OldParser::ParseGenericRequirement() {
  Node* subject = ParseConstrainedType();
  if (!subject) return nullptr;
  if (NextIf('z'))
    return Make(NodeKind::kDependentGenericSameTypeRequirement, subject, ParseType());
  if (NextIf('l')) return ParseLayoutRequirement(subject);
  return Make(NodeKind::kDependentGenericConformanceRequirement, subject,
              ParseConformanceConstraint());
}

// A layout letter, with a size ('e', 'm') or a size '_' alignment ('E', 'M').
Node* OldParser::ParseLayoutRequirement(Node* subject) {
  char code = Next();
  int numbers = 0;
  switch (code) {
    case 'U':
    case 'R':
    case 'N':
    case 'T': break;
    case 'e':
    case 'm': numbers = 1; break;
    case 'E':
    case 'M': numbers = 2; break;
    default: return nullptr;
  }
  Node* requirement = Make(NodeKind::kDependentGenericLayoutRequirement, subject,
                           MakeText(NodeKind::kIdentifier, text_.substr(pos_ - 1, 1)));
  for (int i = 0; i < numbers && requirement; ++i) {
    uint64_t value = 0;
    if ((i > 0 && !NextIf('_')) || !ParseNatural(value)) return nullptr;
    requirement = Add(requirement, MakeIndex(NodeKind::kNumber, value));
  }
  return requirement;
}

// A base class ('C...' or a substituted class) or a protocol, as a Type.
Node* OldParser::ParseConformanceConstraint() {
  if (Peek() == 'C') return ParseType();
  if (!NextIf('S')) return ParseProtocolName();
  // A substitution is the protocol or class itself, or the protocol's module.
  Node* substitution = ParseSubstitution();
  if (!substitution) return nullptr;
  switch (substitution->kind()) {
    case NodeKind::kProtocol:
    case NodeKind::kClass: return MakeType(substitution);
    case NodeKind::kModule: return MakeType(ParseProtocolInContext(substitution));
    default: return nullptr;
  }
}

// A generic parameter or an associated type of one, without the 'q' of a type.
Node* OldParser::ParseConstrainedType() {
  if (NextIf('w')) return MakeType(ParseAssociatedType(/*compound=*/false));
  if (NextIf('W')) return MakeType(ParseAssociatedType(/*compound=*/true));
  return MakeType(ParseGenericParamIndex());
}

// 'x' is the first parameter, an index the next ones at depth 0, 'd' index index a deeper one.
Node* OldParser::ParseGenericParamIndex() {
  uint64_t depth = 0;
  uint64_t index = 0;
  if (NextIf('d')) {
    if (!ParseIndex(depth) || !ParseIndex(index)) return nullptr;
    ++depth;
  } else if (!NextIf('x')) {
    if (!ParseIndex(index)) return nullptr;
    ++index;
  }
  return Make(NodeKind::kDependentGenericParamType, MakeIndex(NodeKind::kIndex, depth),
              MakeIndex(NodeKind::kIndex, index));
}

// After 'q': a generic parameter index, or a type and the name of a member type of it.
Node* OldParser::ParseDependentType() {
  char c = Peek();
  if (c == 'd' || c == '_' || (c >= '0' && c <= '9')) return ParseGenericParamIndex();
  return ParseDependentMemberName(ParseType());
}

// A generic parameter and one member type name ('w'), or member names up to '_' ('W').
Node* OldParser::ParseAssociatedType(bool compound) {
  Node* base = ParseGenericParamIndex();
  if (!compound) return ParseDependentMemberName(MakeType(base));
  while (base && !NextIf('_')) base = ParseDependentMemberName(MakeType(base));
  return base;
}

// 'S' substitution of an earlier member name, or ('P' protocol)? identifier.
Node* OldParser::ParseDependentMemberName(Node* base) {
  if (!base) return nullptr;
  Node* member = nullptr;
  if (NextIf('S')) {
    member = ParseSubstitution();
    if (!member || member->kind() != NodeKind::kDependentAssociatedTypeRef) return nullptr;
  } else {
    Node* protocol = nullptr;
    if (NextIf('P')) {
      protocol = ParseProtocolName();
      if (!protocol) return nullptr;
    }
    member = Make(NodeKind::kDependentAssociatedTypeRef, ParseIdentifier());
    if (protocol) member = Add(member, protocol);
    member = AddSubstitution(member);
  }
  return Make(NodeKind::kDependentMemberType, base, member);
}

}  // namespace instrumentscope::demangle::swift
