// SIL function types ("I" ... "_"): substitutions, attributes, then the conventions of the
// parameters, results, yields and error result, whose types precede the "I" on the stack.
#include "demangle/swift/parser.h"

namespace instrumentscope::demangle::swift {

Node* Parser::ParseImplFunctionType() {
  Node* function = Make(NodeKind::kImplFunctionType);
  if (!function || !ParseImplSubstitutions(function) || !ParseImplAttributes(function)) {
    return nullptr;
  }
  // The conventions are collected first and get their types at the closing '_'.
  ArenaVector<Node*> parts;
  while (Node* param = ParseImplParamConvention(NodeKind::kImplParameter)) {
    Add(param, ParseImplDifferentiability());
    if (NextIf('T')) Add(param, MakeText(NodeKind::kImplParameterSending, "sending"));
    if (NextIf('I')) Add(param, MakeText(NodeKind::kImplParameterIsolated, "isolated"));
    if (NextIf('L')) {
      Add(param, MakeText(NodeKind::kImplParameterImplicitLeading, "sil_implicit_leading_param"));
    }
    if (!parts.PushBack(arena_, param)) return nullptr;
  }
  while (Node* result = ParseImplResultConvention(NodeKind::kImplResult)) {
    Add(result, ParseImplDifferentiability());
    if (!parts.PushBack(arena_, result)) return nullptr;
  }
  while (NextIf('Y')) {
    Node* yield = ParseImplParamConvention(NodeKind::kImplYield);
    if (!yield || !parts.PushBack(arena_, yield)) return nullptr;
  }
  if (NextIf('z')) {
    Node* error = ParseImplResultConvention(NodeKind::kImplErrorResult);
    if (!error || !parts.PushBack(arena_, error)) return nullptr;
  }
  if (!NextIf('_')) return nullptr;
  for (size_t i = parts.size(); i > 0; --i) {
    if (!Add(parts[i - 1], Pop(NodeKind::kType))) return nullptr;
  }
  for (Node* part : parts) {
    if (!Add(function, part)) return nullptr;
  }
  return MakeType(function);
}

// "s": pattern substitutions with their generic signature; "I": invocation substitutions.
bool Parser::ParseImplSubstitutions(Node* function) {
  for (bool pattern : {true, false}) {
    if (!NextIf(pattern ? 's' : 'I')) continue;
    ArenaVector<Node*> lists;
    Node* retroactive = nullptr;
    if (!ParseBoundGenerics(lists, retroactive) || lists.size() != 1) return false;
    Node* substitutions = nullptr;
    if (pattern) {
      Node* signature = Pop(NodeKind::kDependentGenericSignature);
      substitutions = Make(NodeKind::kImplPatternSubstitutions, signature, lists[0]);
    } else {
      substitutions = Make(NodeKind::kImplInvocationSubstitutions, lists[0]);
    }
    if (!Add(function, AddIfAny(substitutions, retroactive))) return false;
  }
  return true;
}

bool Parser::ParseImplAttributes(Node* function) {
  Node* signature = Pop(NodeKind::kDependentGenericSignature);
  if (signature && NextIf('P')) {
    Node* pseudo = Make(NodeKind::kDependentPseudogenericSignature);
    for (Node* child : *signature) Add(pseudo, child);
    signature = pseudo;
  }
  if (NextIf('e')) Add(function, Make(NodeKind::kImplEscaping));
  if (NextIf('A')) Add(function, Make(NodeKind::kImplErasedIsolation));
  if (NextIf('N')) Add(function, Make(NodeKind::kImplNonisolatedNonsendingIsolation));
  if (NextIf('O')) Add(function, MakeIndex(NodeKind::kImplCalledOnceFunction, NextIf('o') ? 1 : 0));
  char c = Peek();
  if (c == 'd' || c == 'l' || c == 'f' || c == 'r') {
    Add(function, MakeIndex(NodeKind::kImplDifferentiabilityKind, static_cast<uint64_t>(Next())));
  }
  std::string_view callee;
  switch (Next()) {
    case 'y': callee = "@callee_unowned"; break;
    case 'g': callee = "@callee_guaranteed"; break;
    case 'x': callee = "@callee_owned"; break;
    case 't': callee = "@convention(thin)"; break;
    default: return false;
  }
  Add(function, MakeText(NodeKind::kImplConvention, callee));
  std::string_view convention;
  bool has_clang_type = false;
  switch (Next()) {
    case 'B': convention = "block"; break;
    case 'C': convention = "c"; break;
    case 'M': convention = "method"; break;
    case 'O': convention = "objc_method"; break;
    case 'K': convention = "closure"; break;
    case 'W': convention = "witness_method"; break;
    case 'V': convention = "com_method"; break;
    case 'z':
      has_clang_type = true;
      switch (Next()) {
        case 'B': convention = "block"; break;
        case 'C': convention = "c"; break;
        default:
          PushBack();
          PushBack();
          break;
      }
      break;
    default: PushBack(); break;
  }
  if (!convention.empty()) {
    Node* node = Make(NodeKind::kImplFunctionConvention,
                      MakeText(NodeKind::kImplFunctionConventionName, convention));
    if (has_clang_type) AddIfAny(node, ParseClangType());
    Add(function, node);
  }
  std::string_view coroutine = NextIf('A')   ? "yield_once"
                               : NextIf('I') ? "yield_once_2"
                               : NextIf('G') ? "yield_many"
                                             : "";
  if (!coroutine.empty()) Add(function, MakeText(NodeKind::kImplCoroutineKind, coroutine));
  if (NextIf('h')) Add(function, MakeText(NodeKind::kImplFunctionAttribute, "@Sendable"));
  if (NextIf('H')) Add(function, MakeText(NodeKind::kImplFunctionAttribute, "@async"));
  if (NextIf('T')) Add(function, Make(NodeKind::kImplSendingResult));
  AddIfAny(function, signature);
  return factory_.ok();
}

Node* Parser::ParseImplParamConvention(NodeKind kind) {
  std::string_view convention;
  switch (Next()) {
    case 'i': convention = "@in"; break;
    case 'c': convention = "@in_constant"; break;
    case 'l': convention = "@inout"; break;
    case 'b': convention = "@inout_aliasable"; break;
    case 'n': convention = "@in_guaranteed"; break;
    case 'X': convention = "@in_cxx"; break;
    case 'x': convention = "@owned"; break;
    case 'g': convention = "@guaranteed"; break;
    case 'e': convention = "@deallocating"; break;
    case 'y': convention = "@unowned"; break;
    case 'v': convention = "@pack_owned"; break;
    case 'p': convention = "@pack_guaranteed"; break;
    case 'm': convention = "@pack_inout"; break;
    default: PushBack(); return nullptr;
  }
  return Make(kind, MakeText(NodeKind::kImplConvention, convention));
}

Node* Parser::ParseImplResultConvention(NodeKind kind) {
  std::string_view convention;
  switch (Next()) {
    case 'r': convention = "@out"; break;
    case 'o': convention = "@owned"; break;
    case 'd': convention = "@unowned"; break;
    case 'u': convention = "@unowned_inner_pointer"; break;
    case 'a': convention = "@autoreleased"; break;
    case 'k': convention = "@pack_out"; break;
    case 'l': convention = "@guaranteed_address"; break;
    case 'g': convention = "@guaranteed"; break;
    case 'm': convention = "@inout"; break;
    default: PushBack(); return nullptr;
  }
  return Make(kind, MakeText(NodeKind::kImplConvention, convention));
}

// Always a node: its text is empty unless the value is @noDerivative ('w').
Node* Parser::ParseImplDifferentiability() {
  return MakeText(NodeKind::kImplParameterResultDifferentiability,
                  NextIf('w') ? "@noDerivative" : "");
}

}  // namespace instrumentscope::demangle::swift
