// SIL function types of the old mangling, after "XF": a callee convention, an optional
// "@convention(...)" and generic signature, '_', parameters up to '_', results up to '_'. Each
// parameter and result is a convention letter and a type; 'z' marks the error result.
#include "demangle/swift/old_parser.h"

namespace instrumentscope::demangle::swift {
namespace {

std::string_view ImplConventionName(char code, NodeKind kind) {
  if (kind == NodeKind::kImplParameter) {
    switch (code) {
      case 'd': return "@unowned";
      case 'g': return "@guaranteed";
      case 'e': return "@deallocating";
      case 'i': return "@in";
      case 'l': return "@inout";
      case 'o': return "@owned";
      default: return {};
    }
  }
  switch (code) {
    case 'a': return "@autoreleased";
    case 'd': return "@unowned";
    case 'D': return "@unowned_inner_pointer";
    case 'i': return "@out";
    case 'o': return "@owned";
    default: return {};
  }
}

std::string_view FunctionConventionName(char code) {
  switch (code) {
    case 'b': return "block";
    case 'c': return "c";
    case 'm': return "method";
    case 'O': return "objc_method";
    case 'w': return "witness_method";
    default: return {};
  }
}

}  // namespace

Node* OldParser::ParseImplFunctionType() {
  Node* function = Make(NodeKind::kImplFunctionType, ParseImplCallee());
  if (NextIf('C')) {
    std::string_view convention = FunctionConventionName(Next());
    if (convention.empty()) return nullptr;
    function = Add(function, Make(NodeKind::kImplFunctionConvention,
                                  MakeText(NodeKind::kImplFunctionConventionName, convention)));
  }
  if (NextIf('G')) {
    function = Add(function, ParseGenericSignature(NodeKind::kDependentGenericSignature));
  } else if (NextIf('g')) {
    function = Add(function, ParseGenericSignature(NodeKind::kDependentPseudogenericSignature));
  }
  if (!NextIf('_')) return nullptr;
  function = ParseImplEntries(function, NodeKind::kImplParameter);
  return ParseImplEntries(function, NodeKind::kImplResult);
}

Node* OldParser::ParseImplCallee() {
  switch (Next()) {
    case 't': return MakeText(NodeKind::kImplConvention, "@convention(thin)");
    case 'd': return MakeText(NodeKind::kImplConvention, "@callee_unowned");
    case 'g': return MakeText(NodeKind::kImplConvention, "@callee_guaranteed");
    case 'o': return MakeText(NodeKind::kImplConvention, "@callee_owned");
    default: return nullptr;
  }
}

// Parameters or results (`kind`) up to '_'.
Node* OldParser::ParseImplEntries(Node* function, NodeKind kind) {
  while (function && !NextIf('_')) {
    NodeKind entry =
        kind == NodeKind::kImplResult && NextIf('z') ? NodeKind::kImplErrorResult : kind;
    std::string_view convention = ImplConventionName(Next(), kind);
    if (convention.empty()) return nullptr;
    function =
        Add(function, Make(entry, MakeText(NodeKind::kImplConvention, convention), ParseType()));
  }
  return function;
}

}  // namespace instrumentscope::demangle::swift
