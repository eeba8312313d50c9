// Generic signatures ("<A, B where A: P>"), requirements, generic parameters and dependent
// types, and protocol conformances.
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

// Generic parameters are named by their index in base 26 ("A" ... "Z", "AB"...) and, past the
// outermost level, their depth ("A1").
std::string GenericParameterName(uint64_t depth, uint64_t index) {
  std::string name;
  do {
    name += static_cast<char>('A' + index % 26);
    index /= 26;
  } while (index != 0);
  if (depth != 0) name += std::to_string(depth);
  return name;
}

// Whether the signature marks parameter (depth, index) with a pack or value marker. The marker's
// parameter is matched with its index against `depth` and its depth against `index`, as the
// reference demangler does; the two agree for the common first parameter.
bool IsMarkedParam(const Node* signature, size_t from, size_t to, NodeKind marker, uint64_t depth,
                   uint64_t index) {
  for (size_t i = from; i < to; ++i) {
    const Node* child = signature->child(i);
    if (child->kind() != marker) continue;
    const Node* param = ChildOf(ChildOf(child, 0), 0);
    if (!IsKind(param, NodeKind::kDependentGenericParamType)) continue;
    if (ChildOf(param, 0) && ChildOf(param, 1) && index == param->child(0)->index() &&
        depth == param->child(1)->index()) {
      return true;
    }
  }
  return false;
}

std::string_view LayoutName(char code) {
  switch (code) {
    case 'U': return "_UnknownLayout";
    case 'R': return "_RefCountedObject";
    case 'N': return "_NativeRefCountedObject";
    case 'C': return "AnyObject";
    case 'D': return "_NativeClass";
    case 'T':
    case 'E':
    case 'e': return "_Trivial";
    case 'M':
    case 'm': return "_TrivialAtMost";
    case 'B': return "_BridgeObject";
    case 'S': return "_TrivialStride";
    case 'A': return "AnyReference";
    default: return {};
  }
}

// Generic signatures stop printing parameters here; only malformed names get near it.
constexpr uint64_t kMaxPrintedParams = 128;

}  // namespace

bool Printer::PrintGenericKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kDependentGenericSignature:
    case NodeKind::kDependentPseudogenericSignature: PrintGenericSignature(node); return true;
    case NodeKind::kDependentGenericConformanceRequirement:
    case NodeKind::kDependentGenericSameTypeRequirement:
    case NodeKind::kDependentGenericSameShapeRequirement: {
      bool same_shape = node->kind() == NodeKind::kDependentGenericSameShapeRequirement;
      Print(node->child(0));
      out_ += node->kind() == NodeKind::kDependentGenericConformanceRequirement ? ": "
              : same_shape                                                      ? ".shape == "
                                                                                : " == ";
      Print(node->child(1));
      if (same_shape) out_ += ".shape";
      return true;
    }
    case NodeKind::kDependentGenericInverseConformanceRequirement: {
      Print(node->child(0));
      out_ += ": ~";
      uint64_t bit = ChildOf(node, 1) ? node->child(1)->index() : 0;
      out_ += bit == 0   ? "Swift.Copyable"
              : bit == 1 ? "Swift.Escapable"
                         : "Swift.<bit " + std::to_string(bit) + ">";
      return true;
    }
    case NodeKind::kDependentGenericLayoutRequirement: PrintLayoutRequirement(node); return true;
    case NodeKind::kDependentGenericParamType:
      if (!ChildOf(node, 0) || !ChildOf(node, 1)) return Fail(), true;
      out_ += GenericParameterName(node->child(0)->index(), node->child(1)->index());
      return true;
    case NodeKind::kDependentGenericType:
      Print(node->child(0));
      if (!IsKind(ChildOf(node->child(1), 0), NodeKind::kFunctionType) &&
          !IsKind(ChildOf(node->child(1), 0), NodeKind::kNoEscapeFunctionType) &&
          !IsKind(ChildOf(node->child(1), 0), NodeKind::kUncurriedFunctionType) &&
          !IsKind(ChildOf(node->child(1), 0), NodeKind::kCalledOnceFunctionType) &&
          !IsKind(ChildOf(node->child(1), 0), NodeKind::kDependentGenericType)) {
        out_ += ' ';
      }
      Print(node->child(1));
      return true;
    case NodeKind::kDependentMemberType:
      Print(node->child(0));
      out_ += '.';
      Print(node->child(1));
      return true;
    case NodeKind::kDependentAssociatedTypeRef:
      if (node->num_children() > 1) {
        Print(node->child(1));
        out_ += '.';
      }
      Print(node->child(0));
      return true;
    default: return false;
  }
}

void Printer::PrintGenericSignature(const Node* node) {
  size_t count = node->num_children();
  size_t params = 0;
  while (params < count && node->child(params)->kind() == NodeKind::kDependentGenericParamCount) {
    ++params;
  }
  size_t requirements = params;
  while (requirements < count &&
         (node->child(requirements)->kind() == NodeKind::kDependentGenericParamPackMarker ||
          node->child(requirements)->kind() == NodeKind::kDependentGenericParamValueMarker)) {
    ++requirements;
  }
  out_ += '<';
  for (size_t depth = 0; depth < params; ++depth) {
    if (depth != 0) out_ += "><";
    uint64_t width = node->child(depth)->index();
    for (uint64_t index = 0; index < width; ++index) {
      if (index != 0) out_ += ", ";
      if (index >= kMaxPrintedParams) {
        out_ += "...";
        break;
      }
      if (IsMarkedParam(node, params, requirements, NodeKind::kDependentGenericParamPackMarker,
                        depth, index)) {
        out_ += "each ";
      }
      if (IsMarkedParam(node, params, requirements, NodeKind::kDependentGenericParamValueMarker,
                        depth, index)) {
        out_ += "let ";
      }
      out_ += GenericParameterName(depth, index);
    }
  }
  if (requirements != count && options_.display_where_clauses) {
    out_ += " where ";
    for (size_t i = requirements; i < count; ++i) {
      if (i > requirements) out_ += ", ";
      Print(node->child(i));
    }
  }
  out_ += '>';
}

void Printer::PrintLayoutRequirement(const Node* node) {
  Print(node->child(0));
  out_ += ": ";
  const Node* layout = node->child(1);
  if (!IsKind(layout, NodeKind::kIdentifier) || layout->text().size() != 1) return Fail();
  out_ += LayoutName(layout->text()[0]);
  if (node->num_children() > 2) {
    out_ += '(';
    Print(node->child(2));
    if (node->num_children() > 3) {
      out_ += ", ";
      Print(node->child(3));
    }
    out_ += ')';
  }
}

// One case per conformance node kind: the table reads best in one place.
bool Printer::PrintConformanceKind(const Node* node) {
  auto optional_index = [&](const Node* index) {
    if (index && index->has_index()) {
      out_ += '#';
      out_ += std::to_string(index->index());
      out_ += ' ';
    }
  };
  std::string_view prefix;
  switch (node->kind()) {
    case NodeKind::kProtocolConformance:
      if (node->num_children() == 4) {
        out_ += "property behavior storage of ";
        Print(node->child(2));
        out_ += " in ";
        Print(node->child(0));
        out_ += " : ";
        Print(node->child(1));
        return true;
      }
      Print(node->child(0));
      if (options_.display_protocol_conformances) {
        out_ += " : ";
        Print(node->child(1));
        out_ += " in ";
        Print(node->child(2));
      }
      return true;
    case NodeKind::kAnyProtocolConformanceList:
      if (node->num_children() > 0) {
        out_ += '(';
        PrintChildren(node, ", ");
        out_ += ')';
      }
      return true;
    case NodeKind::kConcreteProtocolConformance:
      out_ += "concrete protocol conformance ";
      Print(node->child(0));
      out_ += " to ";
      Print(node->child(1));
      if (node->num_children() > 2 && node->child(2)->num_children() > 0) {
        out_ += " with conditional requirements: ";
        Print(node->child(2));
      }
      return true;
    case NodeKind::kDependentProtocolConformanceAssociated:
      prefix = "dependent associated protocol conformance ";
      break;
    case NodeKind::kDependentProtocolConformanceInherited:
      prefix = "dependent inherited protocol conformance ";
      break;
    case NodeKind::kDependentProtocolConformanceRoot:
      prefix = "dependent root protocol conformance ";
      break;
    case NodeKind::kDependentProtocolConformanceOpaque:
      out_ += "opaque result conformance ";
      Print(node->child(0));
      out_ += " of ";
      Print(node->child(1));
      return true;
    case NodeKind::kPackProtocolConformance: prefix = "pack protocol conformance "; break;
    case NodeKind::kDependentAssociatedConformance:
      prefix = "dependent associated conformance ";
      break;
    case NodeKind::kProtocolConformanceRefInTypeModule:
      prefix = "protocol conformance ref (type's module) ";
      break;
    case NodeKind::kProtocolConformanceRefInProtocolModule:
      prefix = "protocol conformance ref (protocol's module) ";
      break;
    case NodeKind::kProtocolConformanceRefInOtherModule:
      prefix = "protocol conformance ref (retroactive) ";
      break;
    case NodeKind::kRetroactiveConformance:
      if (node->num_children() != 2) return true;
      out_ += "retroactive @ ";
      PrintChildren(node);
      return true;
    default: return false;
  }
  out_ += prefix;
  bool dependent = node->kind() == NodeKind::kDependentProtocolConformanceAssociated ||
                   node->kind() == NodeKind::kDependentProtocolConformanceInherited ||
                   node->kind() == NodeKind::kDependentProtocolConformanceRoot;
  if (!dependent) {
    PrintChildren(node);
    return true;
  }
  optional_index(node->child(2));
  Print(node->child(0));
  out_ += " to ";
  Print(node->child(1));
  return true;
}

}  // namespace instrumentscope::demangle::swift
