// What follows "_T" in an old mangling: metadata ('M'), partial apply forwarders ("PA"), a type
// ('t'), value witnesses ('w'), witness tables and field offsets ('W'), thunks ('T'), or a
// declaration.
#include "demangle/swift/old_parser.h"
#include "demangle/swift/payloads.h"

namespace instrumentscope::demangle::swift {

Node* OldParser::ParseGlobal() {
  Nesting nesting(depth_);
  if (nesting.TooDeep()) return nullptr;
  switch (Peek()) {
    case 'M': ++pos_; return ParseMetadata();
    case 'P': {
      // A forwarder without the function it forwards to names nothing a profile could show.
      if (!NextIf("PA")) return nullptr;
      NodeKind kind =
          NextIf('o') ? NodeKind::kPartialApplyObjCForwarder : NodeKind::kPartialApplyForwarder;
      if (!NextIf("__T")) return nullptr;
      return Make(kind, ParseGlobal());
    }
    case 't': {
      // A type on its own is the Global's child as is, without its Type wrapper.
      ++pos_;
      Node* type = ParseType();
      return type ? type->child(0) : nullptr;
    }
    case 'w': ++pos_; return ParseValueWitness();
    case 'W': ++pos_; return ParseWitnessTable();
    case 'T': ++pos_; return ParseThunk();
    default: return ParseDeclEntity();
  }
}

Node* OldParser::ParseMetadata() {
  static constexpr struct {
    char code;
    NodeKind kind;
  } kMetadata[] = {
      {'P', NodeKind::kGenericTypeMetadataPattern}, {'a', NodeKind::kTypeMetadataAccessFunction},
      {'L', NodeKind::kTypeMetadataLazyCache},      {'m', NodeKind::kMetaclass},
      {'n', NodeKind::kNominalTypeDescriptor},      {'f', NodeKind::kFullTypeMetadata},
  };
  if (NextIf('p')) return Make(NodeKind::kProtocolDescriptor, ParseProtocolName());
  for (const auto& metadata : kMetadata) {
    if (NextIf(metadata.code)) return Make(metadata.kind, ParseType());
  }
  return Make(NodeKind::kTypeMetadata, ParseType());
}

Node* OldParser::ParseValueWitness() {
  if (text_.size() - pos_ < 2) return nullptr;
  int witness = ValueWitnessFromCode(text_.substr(pos_, 2));
  if (witness < 0) return nullptr;
  pos_ += 2;
  return Make(NodeKind::kValueWitness, MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(witness)),
              ParseType());
}

Node* OldParser::ParseWitnessTable() {
  switch (Next()) {
    case 'V': return Make(NodeKind::kValueWitnessTable, ParseType());
    case 'v': {
      uint64_t directness = 0;
      if (NextIf('i')) {
        directness = 1;
      } else if (!NextIf('d')) {
        return nullptr;
      }
      Node* offset = Make(NodeKind::kFieldOffset, MakeIndex(NodeKind::kDirectness, directness));
      return Add(offset, ParseEntity());
    }
    case 'P': return Make(NodeKind::kProtocolWitnessTable, ParseProtocolConformance());
    case 'G': return Make(NodeKind::kGenericProtocolWitnessTable, ParseProtocolConformance());
    case 'I':
      return Make(NodeKind::kGenericProtocolWitnessTableInstantiationFunction,
                  ParseProtocolConformance());
    case 'l': {
      Node* type = ParseType();
      return Make(NodeKind::kLazyProtocolWitnessTableAccessor, type, ParseProtocolConformance());
    }
    case 'L': {
      Node* type = ParseType();
      return Make(NodeKind::kLazyProtocolWitnessTableCacheVariable, type,
                  ParseProtocolConformance());
    }
    case 'a': return Make(NodeKind::kProtocolWitnessTableAccessor, ParseProtocolConformance());
    case 't': {
      Node* conformance = ParseProtocolConformance();
      return Make(NodeKind::kAssociatedTypeMetadataAccessor, conformance, ParseDeclName());
    }
    case 'T': {
      Node* conformance = ParseProtocolConformance();
      Node* name = ParseDeclName();
      return Make(NodeKind::kAssociatedTypeWitnessTableAccessor, conformance, name,
                  ParseProtocolName());
    }
    default: return nullptr;
  }
}

Node* OldParser::ParseThunk() {
  switch (Next()) {
    case 'R': return ParseReabstractionThunk(NodeKind::kReabstractionThunkHelper);
    case 'r': return ParseReabstractionThunk(NodeKind::kReabstractionThunk);
    case 'W': {
      // The witness is mangled in its own generic context.
      Node* conformance = ParseProtocolConformance();
      return Make(NodeKind::kProtocolWitness, conformance, ParseEntity());
    }
    default: return nullptr;
  }
}

// 'G' generic-signature? and two function types; the printer reads the first as the one the thunk
// converts to.
Node* OldParser::ParseReabstractionThunk(NodeKind kind) {
  Node* thunk = Make(kind);
  if (NextIf('G')) thunk = Add(thunk, ParseGenericSignature(NodeKind::kDependentGenericSignature));
  thunk = Add(thunk, ParseType());
  return Add(thunk, ParseType());
}

// type protocol context: "foo.bar : foo.barrable in foo".
Node* OldParser::ParseProtocolConformance() {
  Node* type = ParseType();
  Node* protocol = type ? ParseProtocolName() : nullptr;
  Node* context = protocol ? ParseContext() : nullptr;
  return Make(NodeKind::kProtocolConformance, type, protocol, context);
}

}  // namespace instrumentscope::demangle::swift
