// Types: function types and their parameters, tuples, packs, bound generics with sugar,
// metatypes, existentials, dependent types, builtin and opaque types.
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

// Types that read unambiguously before "?" or ".Type" without parentheses.
bool IsSimpleType(const Node* node) {
  while (IsKind(node, NodeKind::kType)) node = node->child(0);
  if (!node) return false;
  switch (node->kind()) {
    case NodeKind::kProtocolList: return ChildOf(node, 0) && node->child(0)->num_children() <= 1;
    case NodeKind::kProtocolListWithAnyObject:
      return ChildOf(ChildOf(node, 0), 0) && node->child(0)->child(0)->num_children() == 0;
    case NodeKind::kAssociatedType:
    case NodeKind::kAssociatedTypeRef:
    case NodeKind::kBoundGenericClass:
    case NodeKind::kBoundGenericEnum:
    case NodeKind::kBoundGenericStructure:
    case NodeKind::kBoundGenericProtocol:
    case NodeKind::kBoundGenericOtherNominalType:
    case NodeKind::kBoundGenericTypeAlias:
    case NodeKind::kBoundGenericFunction:
    case NodeKind::kBuiltinTypeName:
    case NodeKind::kBuiltinTupleType:
    case NodeKind::kBuiltinFixedArray:
    case NodeKind::kBuiltinBorrow:
    case NodeKind::kClass:
    case NodeKind::kDependentGenericType:
    case NodeKind::kDependentMemberType:
    case NodeKind::kDependentGenericParamType:
    case NodeKind::kDynamicSelf:
    case NodeKind::kEnum:
    case NodeKind::kErrorType:
    case NodeKind::kExistentialMetatype:
    case NodeKind::kMetatype:
    case NodeKind::kMetatypeRepresentation:
    case NodeKind::kModule:
    case NodeKind::kTuple:
    case NodeKind::kPack:
    case NodeKind::kSILPackDirect:
    case NodeKind::kSILPackIndirect:
    case NodeKind::kConstrainedExistentialRequirementList:
    case NodeKind::kConstrainedExistentialSelf:
    case NodeKind::kProtocol:
    case NodeKind::kReturnType:
    case NodeKind::kSILBoxType:
    case NodeKind::kSILBoxTypeWithLayout:
    case NodeKind::kStructure:
    case NodeKind::kOtherNominalType:
    case NodeKind::kTupleElementName:
    case NodeKind::kTypeAlias:
    case NodeKind::kTypeList:
    case NodeKind::kLabelList:
    case NodeKind::kSugaredOptional:
    case NodeKind::kSugaredArray:
    case NodeKind::kSugaredInlineArray:
    case NodeKind::kSugaredDictionary:
    case NodeKind::kSugaredParen:
    case NodeKind::kInteger:
    case NodeKind::kNegativeInteger: return true;
    default: return false;
  }
}

bool IsExistentialType(const Node* node) {
  return IsKind(node, NodeKind::kExistentialMetatype) || IsKind(node, NodeKind::kProtocolList) ||
         IsKind(node, NodeKind::kProtocolListWithClass) ||
         IsKind(node, NodeKind::kProtocolListWithAnyObject);
}

bool IsSwiftName(const Node* nominal, std::string_view name) {
  const Node* module = ChildOf(nominal, 0);
  const Node* identifier = ChildOf(nominal, 1);
  return IsKind(module, NodeKind::kModule) && module->text() == "Swift" &&
         IsKind(identifier, NodeKind::kIdentifier) && identifier->text() == name;
}

enum class Sugar { kNone, kOptional, kImplicitlyUnwrappedOptional, kArray, kDictionary };

Sugar FindSugar(const Node* node) {
  while (IsKind(node, NodeKind::kType) && node->num_children() == 1) node = node->child(0);
  if (!node || node->num_children() != 2) return Sugar::kNone;
  const Node* nominal = ChildOf(node->child(0), 0);
  size_t args = node->child(1)->num_children();
  if (node->kind() == NodeKind::kBoundGenericEnum && args == 1) {
    if (IsSwiftName(nominal, "Optional")) return Sugar::kOptional;
    if (IsSwiftName(nominal, "ImplicitlyUnwrappedOptional")) {
      return Sugar::kImplicitlyUnwrappedOptional;
    }
  } else if (node->kind() == NodeKind::kBoundGenericStructure) {
    if (args == 1 && IsSwiftName(nominal, "Array")) return Sugar::kArray;
    if (args == 2 && IsSwiftName(nominal, "Dictionary")) return Sugar::kDictionary;
  }
  return Sugar::kNone;
}

std::string_view DifferentiabilityName(uint64_t kind) {
  switch (kind) {
    case 'f': return "@differentiable(_forward)";
    case 'r': return "@differentiable(reverse)";
    case 'l': return "@differentiable(_linear)";
    case 'd': return "@differentiable";
    default: return {};
  }
}

}  // namespace

bool Printer::PrintTypeKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kFunctionType:
    case NodeKind::kUncurriedFunctionType:
    case NodeKind::kNoEscapeFunctionType:
    case NodeKind::kCalledOnceFunctionType:
    case NodeKind::kAutoClosureType:
    case NodeKind::kEscapingAutoClosureType:
    case NodeKind::kThinFunctionType:
    case NodeKind::kCFunctionPointer:
    case NodeKind::kObjCBlock:
    case NodeKind::kEscapingObjCBlock: PrintFunctionType(nullptr, node); return true;
    case NodeKind::kArgumentTuple:
      PrintFunctionParameters(nullptr, node, options_.show_function_argument_types);
      return true;
    case NodeKind::kTuple:
      out_ += '(';
      PrintChildren(node, ", ");
      out_ += ')';
      return true;
    case NodeKind::kTupleElement: PrintTupleElement(node); return true;
    case NodeKind::kPack:
    case NodeKind::kSILPackDirect:
    case NodeKind::kSILPackIndirect:
      out_ += node->kind() == NodeKind::kPack            ? "Pack{"
              : node->kind() == NodeKind::kSILPackDirect ? "@direct Pack{"
                                                         : "@indirect Pack{";
      PrintChildren(node, ", ");
      out_ += '}';
      return true;
    case NodeKind::kPackElement:
      out_ += "/* level: ";
      out_ += std::to_string(ChildOf(node, 1) ? node->child(1)->index() : 0);
      out_ += " */ each ";
      Print(node->child(0));
      return true;
    case NodeKind::kReturnType:
      if (node->num_children() == 0) {
        out_ += node->text();
      } else {
        PrintChildren(node);
      }
      return true;
    case NodeKind::kBoundGenericClass:
    case NodeKind::kBoundGenericStructure:
    case NodeKind::kBoundGenericEnum:
    case NodeKind::kBoundGenericProtocol:
    case NodeKind::kBoundGenericOtherNominalType:
    case NodeKind::kBoundGenericTypeAlias: PrintBoundGeneric(node); return true;
    case NodeKind::kMetatype:
    case NodeKind::kExistentialMetatype: PrintMetatype(node); return true;
    case NodeKind::kProtocolList:
    case NodeKind::kProtocolListWithClass:
    case NodeKind::kProtocolListWithAnyObject: PrintProtocolList(node); return true;
    case NodeKind::kTypeList: PrintChildren(node); return true;
    case NodeKind::kAssocTypePath: PrintChildren(node, "."); return true;
    default: return PrintSpecialTypeKind(node);
  }
}

// Existentials, sugar, opaque, builtin and SIL box types, function type attributes.
// One case per node kind: the table reads best in one place.
bool Printer::PrintSpecialTypeKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kConstrainedExistential:
      out_ += "any ";
      Print(node->child(0));
      out_ += '<';
      Print(node->child(1));
      out_ += '>';
      return true;
    case NodeKind::kConstrainedExistentialRequirementList: PrintChildren(node, ", "); return true;
    case NodeKind::kAssociatedTypeRef:
      Print(node->child(0));
      out_ += '.';
      out_ += ChildOf(node, 1) ? node->child(1)->text() : std::string_view();
      return true;
    case NodeKind::kSugaredOptional:
      PrintWithParens(node->child(0));
      out_ += '?';
      return true;
    case NodeKind::kSugaredArray:
    case NodeKind::kSugaredParen:
      out_ += node->kind() == NodeKind::kSugaredArray ? '[' : '(';
      Print(node->child(0));
      out_ += node->kind() == NodeKind::kSugaredArray ? ']' : ')';
      return true;
    case NodeKind::kSugaredInlineArray:
    case NodeKind::kSugaredDictionary:
      out_ += '[';
      Print(node->child(0));
      out_ += node->kind() == NodeKind::kSugaredInlineArray ? " of " : " : ";
      Print(node->child(1));
      out_ += ']';
      return true;
    case NodeKind::kOpaqueReturnTypeOf:
      out_ += "<<opaque return type of ";
      PrintChildren(node);
      out_ += ">>";
      return true;
    case NodeKind::kOpaqueType:
      Print(node->child(0));
      out_ += '.';
      Print(node->child(1));
      return true;
    case NodeKind::kBuiltinFixedArray:
      out_ += "Builtin.FixedArray<";
      Print(node->child(0));
      out_ += ", ";
      Print(node->child(1));
      out_ += '>';
      return true;
    case NodeKind::kBuiltinBorrow:
      out_ += "Builtin.Borrow<";
      Print(node->child(0));
      out_ += '>';
      return true;
    case NodeKind::kGlobalActorFunctionType:
      if (node->num_children() > 0) {
        out_ += '@';
        Print(node->child(0));
        out_ += ' ';
      }
      return true;
    case NodeKind::kDifferentiableFunctionType:
      out_ += DifferentiabilityName(node->index());
      out_ += ' ';
      return true;
    case NodeKind::kTypedThrowsAnnotation:
      out_ += " throws(";
      if (node->num_children() == 1) Print(node->child(0));
      out_ += ')';
      return true;
    case NodeKind::kSILBoxTypeWithLayout:
      // "<A> { var A } <Builtin.Int32>": signature, layout, arguments.
      if (node->num_children() == 3) {
        Print(node->child(1));
        out_ += ' ';
      }
      Print(node->child(0));
      if (node->num_children() == 3) {
        out_ += " <";
        PrintChildren(node->child(2), ", ");
        out_ += '>';
      }
      return true;
    case NodeKind::kSILBoxLayout:
      out_ += '{';
      for (size_t i = 0; i < node->num_children(); ++i) {
        out_ += i > 0 ? ", " : " ";
        Print(node->child(i));
      }
      out_ += " }";
      return true;
    case NodeKind::kExtendedExistentialTypeShape: {
      const Node* signature = node->num_children() == 2 ? node->child(0) : nullptr;
      out_ += "existential shape for ";
      if (signature) {
        Print(signature);
        out_ += ' ';
      }
      out_ += "any ";
      Print(node->child(node->num_children() - 1));
      return true;
    }
    default: return false;
  }
}

// Prints a function type; `labels` (a LabelList) names the parameters of an entity's type.
void Printer::PrintFunctionType(const Node* labels, const Node* function) {
  if (!function || function->num_children() < 2) {
    Fail();
    return;
  }
  auto print_convention = [&](std::string_view convention) {
    out_ += "@convention(";
    out_ += convention;
    if (IsKind(function->child(0), NodeKind::kClangType)) {
      out_ += ", mangledCType: \"";
      Print(function->child(0));
      out_ += '"';
    }
    out_ += ") ";
  };
  switch (function->kind()) {
    case NodeKind::kFunctionType:
    case NodeKind::kUncurriedFunctionType:
    case NodeKind::kNoEscapeFunctionType: break;
    case NodeKind::kCalledOnceFunctionType:
      out_ += function->index() == 0 ? "@called(exactlyOnce) " : "@called(atMostOnce) ";
      break;
    case NodeKind::kAutoClosureType:
    case NodeKind::kEscapingAutoClosureType: out_ += "@autoclosure "; break;
    case NodeKind::kThinFunctionType: out_ += "@convention(thin) "; break;
    case NodeKind::kCFunctionPointer: print_convention("c"); break;
    case NodeKind::kEscapingObjCBlock:
      out_ += "@escaping ";
      print_convention("block");
      break;
    case NodeKind::kObjCBlock: print_convention("block"); break;
    default: Fail(); return;
  }
  size_t arguments = function->num_children() - 2;
  size_t i = 0;
  auto take = [&](NodeKind kind) -> const Node* {
    const Node* child = function->child(i);
    if (i >= arguments || !IsKind(child, kind)) return nullptr;
    ++i;
    return child;
  };
  take(NodeKind::kClangType);
  bool sending_result = take(NodeKind::kSendingResultFunctionType) != nullptr;
  if (const Node* isolated_any = take(NodeKind::kIsolatedAnyFunctionType)) Print(isolated_any);
  const Node* nonisolated_caller = take(NodeKind::kNonIsolatedCallerFunctionType);
  if (const Node* global_actor = take(NodeKind::kGlobalActorFunctionType)) Print(global_actor);
  const Node* differentiable = take(NodeKind::kDifferentiableFunctionType);
  const Node* thrown = take(NodeKind::kThrowsAnnotation);
  if (!thrown) thrown = take(NodeKind::kTypedThrowsAnnotation);
  bool sendable = take(NodeKind::kConcurrentFunctionType) != nullptr;
  bool async = take(NodeKind::kAsyncAnnotation) != nullptr;
  if (differentiable) {
    out_ += DifferentiabilityName(differentiable->index());
    out_ += ' ';
  }
  if (nonisolated_caller) Print(nonisolated_caller);
  if (sendable) out_ += "@Sendable ";
  PrintFunctionParameters(labels, function->child(arguments),
                          options_.show_function_argument_types);
  if (!options_.show_function_argument_types) return;
  if (async) out_ += " async";
  if (thrown) Print(thrown);
  out_ += " -> ";
  if (sending_result) out_ += "sending ";
  Print(function->child(arguments + 1));
}

void Printer::PrintFunctionParameters(const Node* labels, const Node* arguments, bool show_types) {
  const Node* params = ChildOf(ChildOf(arguments, 0), 0);
  if (!IsKind(arguments, NodeKind::kArgumentTuple) || !params) {
    Fail();
    return;
  }
  if (params->kind() != NodeKind::kTuple) {
    // A single unnamed parameter.
    if (show_types) {
      out_ += '(';
      Print(params);
      out_ += ')';
    } else {
      out_ += "(_:)";
    }
    return;
  }
  bool has_labels = labels && labels->num_children() > 0;
  out_ += '(';
  for (size_t i = 0; i < params->num_children(); ++i) {
    const Node* param = params->child(i);
    if (i > 0 && show_types) out_ += ", ";
    if (has_labels) {
      const Node* label = labels->child(i);
      if (!label) return Fail();
      out_ += IsKind(label, NodeKind::kIdentifier) ? label->text() : "_";
      out_ += ':';
      if (show_types) out_ += ' ';
    } else if (!show_types) {
      const Node* name = FirstChildOfKind(param, NodeKind::kTupleElementName);
      out_ += name ? name->text() : "_";
      out_ += ':';
    }
    if (show_types) Print(param);
  }
  out_ += ')';
}

void Printer::PrintTupleElement(const Node* node) {
  if (const Node* name = FirstChildOfKind(node, NodeKind::kTupleElementName)) {
    out_ += name->text();
    out_ += ": ";
  }
  Print(FirstChildOfKind(node, NodeKind::kType));
  if (FirstChildOfKind(node, NodeKind::kVariadicMarker)) out_ += "...";
}

void Printer::PrintBoundGeneric(const Node* node) {
  if (node->num_children() < 2) return;
  if (node->num_children() != 2 || !options_.synthesize_sugar ||
      node->kind() == NodeKind::kBoundGenericClass) {
    PrintBoundGenericNoSugar(node);
    return;
  }
  if (node->kind() == NodeKind::kBoundGenericProtocol) {
    // A protocol "bound" to its conforming type prints as that type "as" the protocol.
    PrintChildren(node->child(1));
    out_ += " as ";
    Print(node->child(0));
    return;
  }
  const Node* args = node->child(1);
  switch (FindSugar(node)) {
    case Sugar::kNone: PrintBoundGenericNoSugar(node); break;
    case Sugar::kOptional:
    case Sugar::kImplicitlyUnwrappedOptional:
      PrintWithParens(args->child(0));
      out_ += FindSugar(node) == Sugar::kOptional ? '?' : '!';
      break;
    case Sugar::kArray:
      out_ += '[';
      Print(args->child(0));
      out_ += ']';
      break;
    case Sugar::kDictionary:
      out_ += '[';
      Print(args->child(0));
      out_ += " : ";
      Print(args->child(1));
      out_ += ']';
      break;
  }
}

void Printer::PrintBoundGenericNoSugar(const Node* node) {
  if (node->num_children() < 2) return;
  Print(node->child(0));
  out_ += '<';
  PrintChildren(node->child(1), ", ");
  out_ += '>';
}

void Printer::PrintWithParens(const Node* type) {
  bool parens = !IsSimpleType(type);
  if (parens) out_ += '(';
  Print(type);
  if (parens) out_ += ')';
}

void Printer::PrintMetatype(const Node* node) {
  size_t index = 0;
  if (node->num_children() == 2) {
    Print(node->child(0));
    out_ += ' ';
    index = 1;
  }
  if (node->kind() == NodeKind::kExistentialMetatype) {
    Print(node->child(index));
    out_ += ".Type";
    return;
  }
  const Node* type = ChildOf(node->child(index), 0);
  PrintWithParens(type);
  out_ += IsExistentialType(type) ? ".Protocol" : ".Type";
}

void Printer::PrintProtocolList(const Node* node) {
  if (node->kind() == NodeKind::kProtocolList) {
    const Node* types = node->child(0);
    if (!types) return;
    if (types->num_children() == 0) {
      out_ += "Any";
    } else {
      PrintChildren(types, " & ");
    }
    return;
  }
  bool with_class = node->kind() == NodeKind::kProtocolListWithClass;
  if (node->num_children() < (with_class ? 2u : 1u)) return;
  if (with_class) {
    Print(node->child(1));
    out_ += " & ";
  }
  const Node* types = ChildOf(node->child(0), 0);
  if (!types) return;
  if (with_class) {
    PrintChildren(types, " & ");
    return;
  }
  if (types->num_children() > 0) {
    PrintChildren(types, " & ");
    out_ += " & ";
  }
  out_ += "Swift.AnyObject";
}

}  // namespace instrumentscope::demangle::swift
