// Specializations: generic ("Tg", "TG", "TB", "Ts", "Ti", "Tt"), partial ("Tp", "TP") and
// function signature ("Tf") ones; and automatic differentiation thunks and witnesses ("TJ",
// "WJ").
#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {
namespace {

using ParamKind = SpecializationParamKind;

constexpr uint64_t Bits(ParamKind kind) {
  return static_cast<uint64_t>(kind);
}

// The passes that may specialize a function are numbered '0' to '9'.
constexpr int kMaxSpecializationPass = 10;

}  // namespace

Node* Parser::ParseSpecAttributes(NodeKind kind) {
  bool serialized = NextIf('q');
  bool async_removed = NextIf('a');
  bool metatype_params_removed = NextIf('m');
  bool representation_changed = NextIf('r');
  int pass = Next() - '0';
  if (pass < 0 || pass >= kMaxSpecializationPass) return nullptr;
  Node* spec = Make(kind);
  if (serialized) Add(spec, Make(NodeKind::kIsSerialized));
  if (async_removed) Add(spec, Make(NodeKind::kAsyncRemoved));
  if (metatype_params_removed) Add(spec, Make(NodeKind::kMetatypeParamsRemoved));
  if (representation_changed) Add(spec, Make(NodeKind::kRepresentationChanged));
  return Add(spec, MakeIndex(NodeKind::kSpecializationPassID, static_cast<uint64_t>(pass)));
}

Node* Parser::ParseGenericSpecialization(NodeKind kind, Node* dropped) {
  Node* spec = ParseSpecAttributes(kind);
  if (!spec) return nullptr;
  for (size_t i = 0; dropped && i < dropped->num_children(); ++i) {
    Add(spec, dropped->child(i));
  }
  Node* types = PopTypeList();
  if (!types) return nullptr;
  for (Node* type : *types) {
    if (!Add(spec, Make(NodeKind::kGenericSpecializationParam, type))) return nullptr;
  }
  return spec;
}

// "Tt" ("t" NATURAL?)* then 'g', 'G' or 'B': a generic specialization that dropped arguments.
Node* Parser::ParseGenericSpecializationWithDroppedArguments() {
  PushBack();
  Node* dropped = Make(NodeKind::kGenericSpecialization);
  while (NextIf('t')) {
    int n = ParseNatural();
    Add(dropped, MakeIndex(NodeKind::kDroppedArgument, n < 0 ? 0 : static_cast<uint64_t>(n) + 1));
  }
  switch (Next()) {
    case 'g': return ParseGenericSpecialization(NodeKind::kGenericSpecialization, dropped);
    case 'G':
      return ParseGenericSpecialization(NodeKind::kGenericSpecializationNotReAbstracted, dropped);
    case 'B':
      return ParseGenericSpecialization(NodeKind::kGenericSpecializationInResilienceDomain,
                                        dropped);
    default: return nullptr;
  }
}

Node* Parser::ParsePartialSpecialization(NodeKind kind) {
  Node* spec = ParseSpecAttributes(kind);
  Node* param = Make(NodeKind::kGenericSpecializationParam, Pop(NodeKind::kType));
  return Add(spec, param);
}

Node* Parser::ParseFunctionSpecialization() {
  Node* spec = ParseSpecAttributes(NodeKind::kFunctionSignatureSpecialization);
  if (spec && spec->child(0)->kind() == NodeKind::kRepresentationChanged) return spec;
  while (spec && !NextIf('_')) {
    spec = Add(spec, ParseFunctionSpecParam(NodeKind::kFunctionSignatureSpecializationParam));
  }
  if (!NextIf('n')) {
    spec = Add(spec, ParseFunctionSpecParam(NodeKind::kFunctionSignatureSpecializationReturn));
  }
  if (!spec) return nullptr;
  // The arguments of the parameters (closure names, constants, types) precede "Tf" on the
  // stack, the last parameter's on top.
  for (size_t i = spec->num_children(); i > 0; --i) {
    Node* param = spec->child(i - 1);
    if (param->kind() != NodeKind::kFunctionSignatureSpecializationParam) continue;
    if (!AttachSpecializationArguments(param)) return nullptr;
  }
  return spec;
}

bool Parser::AttachSpecializationArguments(Node* param) {
  size_t fixed = param->num_children();
  for (size_t i = fixed; i > 0; --i) {
    Node* kind_node = param->child(i - 1);
    if (kind_node->kind() != NodeKind::kFunctionSignatureSpecializationParamKind) continue;
    switch (static_cast<ParamKind>(kind_node->index())) {
      case ParamKind::kClosureProp:
      case ParamKind::kEscapingClosureProp:
        while (Node* type = Pop(NodeKind::kType)) {
          if (!Add(param, type)) return false;
        }
        break;
      case ParamKind::kConstantPropKeyPath:
        if (!Add(param, Pop(NodeKind::kType)) || !Add(param, Pop(NodeKind::kType))) return false;
        break;
      case ParamKind::kConstantPropStruct:
        if (!Add(param, Pop(NodeKind::kType))) return false;
        continue;
      case ParamKind::kConstantPropFunction:
      case ParamKind::kConstantPropGlobal:
      case ParamKind::kConstantPropString: break;
      default: continue;
    }
    if (!Add(param, Pop(NodeKind::kIdentifier))) return false;
  }
  factory_.ReverseChildren(param, fixed);
  return true;
}

Node* Parser::ParseFunctionSpecParam(NodeKind kind) {
  Node* param = Make(kind);
  switch (Next()) {
    case 'n': return param;
    case 'c': return AddSpecParamKind(param, Bits(ParamKind::kClosureProp));
    case 'E': return AddSpecParamKind(param, Bits(ParamKind::kEscapingClosureProp));
    case 'C': {
      AddSpecParamKind(param, Bits(ParamKind::kClosurePropPreviousArg));
      int argument = ParseNatural();
      if (argument < 0) return nullptr;
      return Add(param, MakeIndex(NodeKind::kFunctionSignatureSpecializationParamPayload,
                                  static_cast<uint64_t>(argument)));
    }
    case 'p': return ParseConstantPropagation(param);
    case 'e': {
      uint64_t value = Bits(ParamKind::kFlagExistentialToGeneric);
      if (NextIf('D')) value |= Bits(ParamKind::kFlagDead);
      if (NextIf('G')) value |= Bits(ParamKind::kFlagOwnedToGuaranteed);
      if (NextIf('O')) value |= Bits(ParamKind::kFlagGuaranteedToOwned);
      if (NextIf('X')) value |= Bits(ParamKind::kFlagExploded);
      return AddSpecParamKind(param, value);
    }
    case 'd': {
      uint64_t value = Bits(ParamKind::kFlagDead);
      if (NextIf('G')) value |= Bits(ParamKind::kFlagOwnedToGuaranteed);
      if (NextIf('O')) value |= Bits(ParamKind::kFlagGuaranteedToOwned);
      if (NextIf('X')) value |= Bits(ParamKind::kFlagExploded);
      return AddSpecParamKind(param, value);
    }
    case 'g':
    case 'o': {
      bool owned_to_guaranteed = pos_ > 0 && text_[pos_ - 1] == 'g';
      uint64_t value = Bits(owned_to_guaranteed ? ParamKind::kFlagOwnedToGuaranteed
                                                : ParamKind::kFlagGuaranteedToOwned);
      if (NextIf('X')) value |= Bits(ParamKind::kFlagExploded);
      return AddSpecParamKind(param, value);
    }
    case 'x': return AddSpecParamKind(param, Bits(ParamKind::kFlagExploded));
    case 'i': return AddSpecParamKind(param, Bits(ParamKind::kBoxToValue));
    case 's': return AddSpecParamKind(param, Bits(ParamKind::kBoxToStack));
    case 'r': return AddSpecParamKind(param, Bits(ParamKind::kInOutToOut));
    default: return nullptr;
  }
}

// "p" and a run of constants: 'S' struct, 'f' function, 'g' global, 'i' integer, 'd' float,
// 's' string (with its encoding), 'k' key path.
Node* Parser::ParseConstantPropagation(Node* param) {
  while (param) {
    switch (Next()) {
      case 'S': AddSpecParamKind(param, Bits(ParamKind::kConstantPropStruct)); break;
      case 'f': AddSpecParamKind(param, Bits(ParamKind::kConstantPropFunction)); break;
      case 'g': AddSpecParamKind(param, Bits(ParamKind::kConstantPropGlobal)); break;
      case 'k': AddSpecParamKind(param, Bits(ParamKind::kConstantPropKeyPath)); break;
      case 'i': param = AddSpecParamNumber(param, Bits(ParamKind::kConstantPropInteger)); break;
      case 'd': param = AddSpecParamNumber(param, Bits(ParamKind::kConstantPropFloat)); break;
      case 's': {
        std::string_view encoding;
        switch (Next()) {
          case 'b': encoding = "u8"; break;
          case 'w': encoding = "u16"; break;
          case 'c': encoding = "objc"; break;
          default: return nullptr;
        }
        AddSpecParamKind(param, Bits(ParamKind::kConstantPropString));
        Add(param, MakeText(NodeKind::kFunctionSignatureSpecializationParamPayload, encoding));
        break;
      }
      default: PushBack(); return param;
    }
  }
  return nullptr;
}

Node* Parser::AddSpecParamKind(Node* param, uint64_t kind) {
  return Add(param, MakeIndex(NodeKind::kFunctionSignatureSpecializationParamKind, kind));
}

Node* Parser::AddSpecParamNumber(Node* param, uint64_t kind) {
  AddSpecParamKind(param, kind);
  size_t start = pos_;
  while (!AtEnd() && Peek() >= '0' && Peek() <= '9') ++pos_;
  if (pos_ == start) return nullptr;
  return Add(param, MakeText(NodeKind::kFunctionSignatureSpecializationParamPayload,
                             text_.substr(start, pos_ - start)));
}

// Pops every node left on the stack and adds them to `parent` bottom first.
Node* Parser::PopAllInOrder(Node* parent) {
  size_t first = parent ? parent->num_children() : 0;
  while (Node* node = Pop()) {
    if (!Add(parent, node)) return nullptr;
  }
  if (parent) factory_.ReverseChildren(parent, first);
  return parent;
}

Node* Parser::ParseAutoDiffFunction(NodeKind kind) {
  Node* result = PopAllInOrder(Make(kind));
  result = Add(result, ParseAutoDiffFunctionKind());
  result = Add(result, ParseIndexSubset());
  if (!NextIf('p')) return nullptr;
  result = Add(result, ParseIndexSubset());
  if (!NextIf('r')) return nullptr;
  return result;
}

Node* Parser::ParseAutoDiffSubsetParametersThunk() {
  Node* result = ParseAutoDiffFunction(NodeKind::kAutoDiffSubsetParametersThunk);
  result = Add(result, ParseIndexSubset());
  if (!NextIf('P')) return nullptr;
  return result;
}

Node* Parser::ParseAutoDiffSelfReorderingThunk() {
  Node* result = Make(NodeKind::kAutoDiffSelfReorderingReabstractionThunk);
  AddIfAny(result, Pop(NodeKind::kDependentGenericSignature));
  result = Add(result, Pop(NodeKind::kType));
  result = Add(result, Pop(NodeKind::kType));
  if (result) factory_.ReverseChildren(result);
  return Add(result, ParseAutoDiffFunctionKind());
}

Node* Parser::ParseAutoDiffFunctionKind() {
  char kind = Next();
  if (kind != 'f' && kind != 'r' && kind != 'd' && kind != 'p') return nullptr;
  return MakeIndex(NodeKind::kAutoDiffFunctionKind, static_cast<uint64_t>(kind));
}

Node* Parser::ParseDifferentiabilityWitness() {
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  Node* result = PopAllInOrder(Make(NodeKind::kDifferentiabilityWitness));
  char kind = Next();
  if (kind != 'f' && kind != 'r' && kind != 'd' && kind != 'l') return nullptr;
  result = Add(result, MakeIndex(NodeKind::kIndex, static_cast<uint64_t>(kind)));
  result = Add(result, ParseIndexSubset());
  if (!NextIf('p')) return nullptr;
  result = Add(result, ParseIndexSubset());
  if (!NextIf('r')) return nullptr;
  return AddIfAny(result, signature);
}

Node* Parser::ParseIndexSubset() {
  size_t start = pos_;
  while (!AtEnd() && (Peek() == 'S' || Peek() == 'U')) ++pos_;
  if (pos_ == start) return nullptr;
  return MakeText(NodeKind::kIndexSubset, text_.substr(start, pos_ - start));
}

}  // namespace instrumentscope::demangle::swift
