// Specializations ("generic specialization <Swift.Int> of ", "specialized ") and the
// description of function signature specialization parameters.
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

using ParamKind = SpecializationParamKind;

constexpr uint64_t Bits(ParamKind kind) {
  return static_cast<uint64_t>(kind);
}

std::string_view ParamKindName(uint64_t kind) {
  switch (static_cast<ParamKind>(kind)) {
    case ParamKind::kBoxToValue: return "Value Promoted from Box";
    case ParamKind::kBoxToStack: return "Stack Promoted from Box";
    case ParamKind::kInOutToOut: return "InOut Converted to Out";
    case ParamKind::kConstantPropFunction: return "Constant Propagated Function";
    case ParamKind::kConstantPropGlobal: return "Constant Propagated Global";
    case ParamKind::kConstantPropInteger: return "Constant Propagated Integer";
    case ParamKind::kConstantPropFloat: return "Constant Propagated Float";
    case ParamKind::kConstantPropString: return "Constant Propagated String";
    case ParamKind::kConstantPropKeyPath: return "Constant Propagated KeyPath";
    case ParamKind::kConstantPropStruct: return "Constant Propagated Struct";
    case ParamKind::kClosureProp: return "Closure Propagated";
    case ParamKind::kEscapingClosureProp: return "Escaping Closure Propagated";
    case ParamKind::kClosurePropPreviousArg: return "Same As Argument";
    default: return {};
  }
}

}  // namespace

bool Printer::PrintSpecializationKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kFunctionSignatureSpecialization:
      PrintSpecializationPrefix(node, "function signature specialization");
      return true;
    case NodeKind::kGenericPartialSpecialization:
      PrintSpecializationPrefix(node, "generic partial specialization", "Signature = ");
      return true;
    case NodeKind::kGenericPartialSpecializationNotReAbstracted:
      PrintSpecializationPrefix(node, "generic not-reabstracted partial specialization",
                                "Signature = ");
      return true;
    case NodeKind::kGenericSpecialization:
    case NodeKind::kGenericSpecializationInResilienceDomain:
      PrintSpecializationPrefix(node, "generic specialization");
      return true;
    case NodeKind::kGenericSpecializationPrespecialized:
      PrintSpecializationPrefix(node, "generic pre-specialization");
      return true;
    case NodeKind::kGenericSpecializationNotReAbstracted:
      PrintSpecializationPrefix(node, "generic not re-abstracted specialization");
      return true;
    case NodeKind::kInlinedGenericFunction:
      PrintSpecializationPrefix(node, "inlined generic function");
      return true;
    case NodeKind::kDroppedArgument:
      out_ += "param";
      out_ += std::to_string(node->index());
      out_ += "-removed";
      return true;
    case NodeKind::kGenericSpecializationParam:
      Print(node->child(0));
      for (size_t i = 1; i < node->num_children(); ++i) {
        out_ += i == 1 ? " with " : " and ";
        Print(node->child(i));
      }
      return true;
    case NodeKind::kFunctionSignatureSpecializationParamPayload:
      if (node->has_text()) {
        PrintMaybeSymbol(node->text());
      } else {
        out_ += std::to_string(node->index());
      }
      return true;
    case NodeKind::kFunctionSignatureSpecializationParamKind:
      PrintSpecializationParamKind(node->index());
      return true;
    default: return false;
  }
}

void Printer::PrintSpecializationPrefix(const Node* node, std::string_view description,
                                        std::string_view param_prefix) {
  if (!options_.display_generic_specializations) {
    if (!specialization_prefix_printed_) out_ += "specialized ";
    specialization_prefix_printed_ = true;
    return;
  }
  if (IsKind(node->child(0), NodeKind::kRepresentationChanged)) {
    out_ += "representation changed of ";
    return;
  }
  out_ += description;
  out_ += " <";
  std::string_view separator;
  int argument = 0;
  for (const Node* child : *node) {
    switch (child->kind()) {
      case NodeKind::kSpecializationPassID:
      case NodeKind::kDroppedArgument: break;
      case NodeKind::kIsSerialized:
      case NodeKind::kMetatypeParamsRemoved:
        out_ += separator;
        separator = ", ";
        Print(child);
        break;
      default:
        // Parameters left as they are have no children and print nothing, but are counted.
        if (child->num_children() > 0) {
          out_ += separator;
          out_ += param_prefix;
          separator = ", ";
          if (child->kind() == NodeKind::kFunctionSignatureSpecializationParam) {
            out_ += "Arg[" + std::to_string(argument) + "] = ";
            PrintSpecializationParams(child);
          } else if (child->kind() == NodeKind::kFunctionSignatureSpecializationReturn) {
            out_ += "Return = ";
            PrintSpecializationParams(child);
          } else {
            Print(child);
          }
        }
        ++argument;
    }
  }
  out_ += "> of ";
}

// A parameter's children are its kinds and payloads, then the arguments the kinds consume.
void Printer::PrintSpecializationParams(const Node* node) {
  size_t i = 0;
  size_t argument = 0;
  size_t end = node->num_children();
  auto bracketed = [&](auto&& body) {
    out_ += '[';
    Print(node->child(i++));
    out_ += " : ";
    body();
    out_ += ']';
  };
  while (i < end && !failed_) {
    const Node* child = node->child(i);
    if (!child->has_index()) return;
    uint64_t kind = child->index();
    switch (static_cast<ParamKind>(kind)) {
      case ParamKind::kBoxToValue:
      case ParamKind::kBoxToStack:
      case ParamKind::kInOutToOut: Print(node->child(i++)); break;
      case ParamKind::kConstantPropFunction:
      case ParamKind::kConstantPropGlobal:
      case ParamKind::kConstantPropStruct:
        bracketed([&] { PrintNextArgument(node, argument, kind); });
        break;
      case ParamKind::kConstantPropInteger:
      case ParamKind::kConstantPropFloat:
        if (i + 2 > end) return;
        bracketed([&] { Print(node->child(i++)); });
        break;
      case ParamKind::kConstantPropString:
        if (i + 2 > end) return;
        bracketed([&] {
          Print(node->child(i++));
          out_ += '\'';
          PrintNextArgument(node, argument, kind);
          out_ += '\'';
        });
        break;
      case ParamKind::kConstantPropKeyPath:
        bracketed([&] {
          PrintNextArgument(node, argument, kind);
          out_ += '<';
          PrintNextArgument(node, argument, kind);
          out_ += ',';
          PrintNextArgument(node, argument, kind);
          out_ += '>';
        });
        break;
      case ParamKind::kClosureProp:
      case ParamKind::kEscapingClosureProp:
        if (i + 2 > end) return;
        // The closing bracket of the argument list is the only one, as the reference prints.
        out_ += '[';
        Print(node->child(i++));
        out_ += " : ";
        Print(node->child(i++));
        out_ += ", Argument Types : [";
        while (i < end && node->child(i)->kind() == NodeKind::kType) {
          Print(node->child(i++));
          if (i < end && node->child(i)->has_text()) out_ += ", ";
        }
        out_ += ']';
        break;
      case ParamKind::kClosurePropPreviousArg:
        if (i + 2 > end) return;
        out_ += '[';
        Print(node->child(i++));
        out_ += ' ';
        Print(node->child(i++));
        out_ += ']';
        break;
      default: Print(node->child(i++));
    }
  }
}

// Prints the next child after `index` that is an argument rather than a kind or payload.
void Printer::PrintNextArgument(const Node* node, size_t& index, uint64_t kind) {
  while (index < node->num_children()) {
    const Node* child = node->child(index++);
    if (child->kind() == NodeKind::kFunctionSignatureSpecializationParamKind ||
        child->kind() == NodeKind::kFunctionSignatureSpecializationParamPayload) {
      continue;
    }
    bool names_symbol = kind == Bits(ParamKind::kConstantPropFunction) ||
                        kind == Bits(ParamKind::kConstantPropGlobal);
    if (names_symbol && child->has_text()) {
      PrintMaybeSymbol(child->text());
    } else if (kind == Bits(ParamKind::kConstantPropString) && child->has_text() &&
               !child->text().empty() && child->text()[0] == '_') {
      // A string starting with a digit or '_' was mangled with an extra '_'.
      out_ += child->text().substr(1);
    } else {
      Print(child);
    }
    return;
  }
}

void Printer::PrintSpecializationParamKind(uint64_t kind) {
  static constexpr struct {
    ParamKind flag;
    std::string_view name;
  } kFlags[] = {
      {ParamKind::kFlagExistentialToGeneric, "Existential To Protocol Constrained Generic"},
      {ParamKind::kFlagDead, "Dead"},
      {ParamKind::kFlagOwnedToGuaranteed, "Owned To Guaranteed"},
      {ParamKind::kFlagGuaranteedToOwned, "Guaranteed To Owned"},
      {ParamKind::kFlagExploded, "Exploded"},
  };
  bool any_flag = false;
  for (const auto& flag : kFlags) {
    if ((kind & Bits(flag.flag)) == 0) continue;
    if (any_flag) out_ += " and ";
    any_flag = true;
    out_ += flag.name;
  }
  if (!any_flag) out_ += ParamKindName(kind);
}

}  // namespace instrumentscope::demangle::swift
