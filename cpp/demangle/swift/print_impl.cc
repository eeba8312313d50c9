// SIL function types: "@escaping @callee_guaranteed (@in_guaranteed A) -> (@out B)".
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {

bool Printer::PrintImplKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kImplFunctionType: PrintImplFunctionType(node); return true;
    case NodeKind::kImplParameter:
    case NodeKind::kImplResult:
      // Convention, then differentiability and sending markers when present, then the type.
      Print(node->child(0));
      out_ += ' ';
      if (node->num_children() == 3) Print(node->child(1));
      if (node->num_children() == 4) {
        Print(node->child(1));
        Print(node->child(2));
      }
      Print(node->child(node->num_children() - 1));
      return true;
    case NodeKind::kImplErrorResult:
    case NodeKind::kImplYield:
      out_ += node->kind() == NodeKind::kImplErrorResult ? "@error " : "@yields ";
      PrintChildren(node, " ");
      return true;
    case NodeKind::kImplFunctionConvention:
      out_ += "@convention(";
      out_ += ChildOf(node, 0) ? node->child(0)->text() : std::string_view();
      if (node->num_children() == 2) {
        out_ += ", mangledCType: \"";
        Print(node->child(1));
        out_ += '"';
      }
      out_ += ')';
      return true;
    case NodeKind::kImplDifferentiabilityKind:
      out_ += "@differentiable";
      switch (node->index()) {
        case 'l': out_ += "(_linear)"; break;
        case 'f': out_ += "(_forward)"; break;
        case 'r': out_ += "(reverse)"; break;
        default: break;
      }
      return true;
    case NodeKind::kImplEscaping: out_ += "@escaping"; return true;
    case NodeKind::kImplNonisolatedNonsendingIsolation: out_ += "@caller_isolated"; return true;
    case NodeKind::kImplErasedIsolation: out_ += "@isolated(any)"; return true;
    case NodeKind::kImplSendingResult: out_ += "sending"; return true;
    case NodeKind::kImplFunctionConventionName: return true;
    case NodeKind::kImplCalledOnceFunction:
      out_ += node->index() == 0 ? "@called(exactlyOnce)" : "@called(atMostOnce)";
      return true;
    case NodeKind::kImplCoroutineKind:
      if (!node->text().empty()) {
        out_ += '@';
        out_ += node->text();
      }
      return true;
    case NodeKind::kImplParameterResultDifferentiability:
    case NodeKind::kImplParameterSending:
    case NodeKind::kImplParameterIsolated:
    case NodeKind::kImplParameterImplicitLeading:
      if (!node->text().empty()) {
        out_ += node->text();
        out_ += ' ';
      }
      return true;
    case NodeKind::kImplInvocationSubstitutions:
      out_ += "for <";
      PrintChildren(node->child(0), ", ");
      out_ += '>';
      return true;
    case NodeKind::kImplPatternSubstitutions:
      out_ += "@substituted ";
      Print(node->child(0));
      out_ += " for <";
      PrintChildren(node->child(1), ", ");
      out_ += '>';
      return true;
    default: return false;
  }
}

void Printer::PrintImplFunctionType(const Node* function) {
  const Node* pattern = nullptr;
  const Node* invocation = nullptr;
  const Node* sending_result = nullptr;
  enum class State { kAttributes, kInputs, kResults } state = State::kAttributes;
  // Moves through the parts of "attributes (inputs) -> (results)" up to `next`.
  auto advance_to = [&](State next) {
    if (state == State::kAttributes && next != State::kAttributes) {
      if (pattern) {
        out_ += "@substituted ";
        Print(pattern->child(0));
        out_ += ' ';
      }
      out_ += '(';
      state = State::kInputs;
    }
    if (state == State::kInputs && next == State::kResults) {
      out_ += ") -> ";
      if (sending_result) {
        Print(sending_result);
        out_ += ' ';
      }
      out_ += '(';
      state = State::kResults;
    }
  };
  for (const Node* child : *function) {
    switch (child->kind()) {
      case NodeKind::kImplParameter:
        if (state == State::kInputs) out_ += ", ";
        advance_to(State::kInputs);
        Print(child);
        break;
      case NodeKind::kImplResult:
      case NodeKind::kImplYield:
      case NodeKind::kImplErrorResult:
        if (state == State::kResults) out_ += ", ";
        advance_to(State::kResults);
        Print(child);
        break;
      case NodeKind::kImplPatternSubstitutions: pattern = child; break;
      case NodeKind::kImplInvocationSubstitutions: invocation = child; break;
      case NodeKind::kImplSendingResult: sending_result = child; break;
      default:
        if (state != State::kAttributes) return Fail();
        Print(child);
        out_ += ' ';
    }
  }
  advance_to(State::kResults);
  out_ += ')';
  for (const Node* substitutions : {pattern, invocation}) {
    if (!substitutions) continue;
    out_ += " for <";
    PrintChildren(ChildOf(substitutions, substitutions == pattern ? 1 : 0));
    out_ += '>';
  }
}

}  // namespace instrumentscope::demangle::swift
