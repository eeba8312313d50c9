// The specialization attributes of the old mangling, "_TTS" followed by 'g' or 'r' (generic,
// not re-abstracted) or 'f' (function signature), 'q' when serialized, the pass as one digit and
// the parameters up to '_'.
#include "demangle/swift/old_parser.h"

namespace instrumentscope::demangle::swift {
namespace {

using ParamKind = SpecializationParamKind;

constexpr uint64_t Bits(ParamKind kind) {
  return static_cast<uint64_t>(kind);
}

}  // namespace

Node* OldParser::ParseSpecialization() {
  NodeKind kind;
  switch (Next()) {
    case 'g': kind = NodeKind::kGenericSpecialization; break;
    case 'r': kind = NodeKind::kGenericSpecializationNotReAbstracted; break;
    case 'f': kind = NodeKind::kFunctionSignatureSpecialization; break;
    default: return nullptr;
  }
  Node* specialization = Make(kind);
  if (NextIf('q')) specialization = Add(specialization, Make(NodeKind::kIsSerialized));
  char pass = Next();
  if (pass < '0' || pass > '9') return nullptr;
  specialization = Add(specialization, MakeIndex(NodeKind::kSpecializationPassID,
                                                 static_cast<uint64_t>(pass - '0')));
  if (kind != NodeKind::kFunctionSignatureSpecialization) {
    return ParseGenericSpecializationParams(specialization);
  }
  while (specialization && !NextIf('_')) {
    specialization = Add(specialization, ParseSignatureSpecializationParam());
  }
  return specialization;
}

// (type protocol-conformance* '_')* '_'
Node* OldParser::ParseGenericSpecializationParams(Node* specialization) {
  while (specialization && !NextIf('_')) {
    Node* param = Make(NodeKind::kGenericSpecializationParam, ParseType());
    while (param && !NextIf('_')) param = Add(param, ParseProtocolConformance());
    specialization = Add(specialization, param);
  }
  return specialization;
}

// "n_" unchanged, "cp" a propagated constant, "cl" a propagated closure, "i_" / "k_" a box
// promoted to a value / to the stack, "r_" inout to out, or flags 'd' 'g' 'o' 's' and '_'.
Node* OldParser::ParseSignatureSpecializationParam() {
  Node* param = Make(NodeKind::kFunctionSignatureSpecializationParam);
  if (NextIf("n_")) return param;
  if (NextIf("cp")) return ParseConstantPropagation(param);
  if (NextIf("cl")) return ParseClosurePropagation(param);
  if (NextIf("i_")) return AddParamKind(param, Bits(ParamKind::kBoxToValue));
  if (NextIf("k_")) return AddParamKind(param, Bits(ParamKind::kBoxToStack));
  if (NextIf("r_")) return AddParamKind(param, Bits(ParamKind::kInOutToOut));
  uint64_t flags = 0;
  if (NextIf('d')) flags |= Bits(ParamKind::kFlagDead);
  if (NextIf('g')) flags |= Bits(ParamKind::kFlagOwnedToGuaranteed);
  if (NextIf('o')) flags |= Bits(ParamKind::kFlagGuaranteedToOwned);
  if (NextIf('s')) flags |= Bits(ParamKind::kFlagExploded);
  if (flags == 0 || !NextIf('_')) return nullptr;
  return AddParamKind(param, flags);
}

// "fr" function or 'g' global: a name and '_'; 'i' integer or "fl" float: text up to '_';
// "se" and '0' (UTF-8) or '1' (UTF-16), 'v', a string and '_'. Names and strings are the
// arguments the printer shows after the kind; numbers its payload.
Node* OldParser::ParseConstantPropagation(Node* param) {
  if (NextIf("fr") || NextIf('g')) {
    uint64_t kind = Bits(text_[pos_ - 1] == 'g' ? ParamKind::kConstantPropGlobal
                                                : ParamKind::kConstantPropFunction);
    Node* name = ParseIdentifier();
    if (!name || !NextIf('_')) return nullptr;
    return Add(AddParamKind(param, kind), name);
  }
  if (NextIf('i') || NextIf("fl")) {
    uint64_t kind = Bits(text_[pos_ - 1] == 'i' ? ParamKind::kConstantPropInteger
                                                : ParamKind::kConstantPropFloat);
    size_t end = text_.find('_', pos_);
    if (end == std::string_view::npos) return nullptr;
    Node* value = MakeText(NodeKind::kFunctionSignatureSpecializationParamPayload,
                           text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return Add(AddParamKind(param, kind), value);
  }
  if (!NextIf("se")) return nullptr;
  std::string_view encoding = NextIf('0') ? "u8" : NextIf('1') ? "u16" : "";
  if (encoding.empty() || !NextIf('v')) return nullptr;
  Node* string = ParseIdentifier();
  if (!string || !NextIf('_')) return nullptr;
  param = AddParamKind(param, Bits(ParamKind::kConstantPropString));
  param = Add(param, MakeText(NodeKind::kFunctionSignatureSpecializationParamPayload, encoding));
  return Add(param, string);
}

// The closure's mangled name, then the types of the arguments it captures, up to '_'.
Node* OldParser::ParseClosurePropagation(Node* param) {
  Node* name = ParseIdentifier();
  if (!name) return nullptr;
  param = AddParamKind(param, Bits(ParamKind::kClosureProp));
  param =
      Add(param, MakeText(NodeKind::kFunctionSignatureSpecializationParamPayload, name->text()));
  while (param && Peek() != '_') param = Add(param, ParseType());
  return NextIf('_') ? param : nullptr;
}

Node* OldParser::AddParamKind(Node* param, uint64_t kind) {
  return Add(param, MakeIndex(NodeKind::kFunctionSignatureSpecializationParamKind, kind));
}

}  // namespace instrumentscope::demangle::swift
