// Thunks and attributes of the global that print around the entity they apply to: partial
// applies, reabstraction thunks, key path helpers, async continuations, autodiff thunks.
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

std::string_view AutoDiffKindName(uint64_t kind) {
  switch (kind) {
    case 'f': return "forward-mode derivative";
    case 'r': return "reverse-mode derivative";
    case 'd': return "differential";
    case 'p': return "pullback";
    default: return {};
  }
}

}  // namespace

bool Printer::PrintThunkKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kPartialApplyForwarder:
    case NodeKind::kPartialApplyObjCForwarder:
      out_ += options_.shorten_partial_apply                     ? "partial apply"
              : node->kind() == NodeKind::kPartialApplyForwarder ? "partial apply forwarder"
                                                                 : "partial apply ObjC forwarder";
      if (node->num_children() > 0) {
        out_ += " for ";
        PrintChildren(node);
      }
      return true;
    case NodeKind::kReabstractionThunk:
    case NodeKind::kReabstractionThunkHelper:
    case NodeKind::kReabstractionThunkHelperWithSelf: PrintReabstractionThunk(node); return true;
    case NodeKind::kReabstractionThunkHelperWithGlobalActor:
      Print(node->child(0));
      out_ += " with global actor constraint ";
      Print(node->child(1));
      return true;
    case NodeKind::kKeyPathGetterThunkHelper:
    case NodeKind::kKeyPathSetterThunkHelper:
    case NodeKind::kKeyPathUnappliedMethodThunkHelper:
    case NodeKind::kKeyPathAppliedMethodThunkHelper:
    case NodeKind::kKeyPathEqualsThunkHelper:
    case NodeKind::kKeyPathHashThunkHelper: PrintKeyPathThunk(node); return true;
    case NodeKind::kAsyncAwaitResumePartialFunction:
    case NodeKind::kAsyncSuspendResumePartialFunction:
      if (options_.show_async_resume_partial) {
        out_ += '(';
        Print(node->child(0));
        out_ += node->kind() == NodeKind::kAsyncAwaitResumePartialFunction
                    ? ") await resume partial function for "
                    : ") suspend resume partial function for ";
      }
      return true;
    case NodeKind::kOutlinedVariable:
    case NodeKind::kOutlinedReadOnlyObject:
      out_ += node->kind() == NodeKind::kOutlinedVariable ? "outlined variable #"
                                                          : "outlined read-only object #";
      out_ += std::to_string(node->index());
      out_ += " of ";
      return true;
    case NodeKind::kOutlinedBridgedMethod:
      out_ += "outlined bridged method (";
      out_ += node->text();
      out_ += ") of ";
      return true;
    case NodeKind::kAutoDiffFunction:
    case NodeKind::kAutoDiffDerivativeVTableThunk: PrintAutoDiffFunction(node); return true;
    case NodeKind::kAutoDiffSubsetParametersThunk: PrintAutoDiffSubsetThunk(node); return true;
    case NodeKind::kAutoDiffSelfReorderingReabstractionThunk:
      PrintAutoDiffSelfReorderingThunk(node);
      return true;
    case NodeKind::kAutoDiffFunctionKind: out_ += AutoDiffKindName(node->index()); return true;
    case NodeKind::kDifferentiabilityWitness: PrintDifferentiabilityWitness(node); return true;
    case NodeKind::kIndexSubset: {
      // 'S' at position i means index i is in the set.
      out_ += '{';
      std::string_view separator;
      for (size_t i = 0; i < node->text().size(); ++i) {
        if (node->text()[i] != 'S') continue;
        out_ += separator;
        out_ += std::to_string(i);
        separator = ", ";
      }
      out_ += '}';
      return true;
    }
    default: return false;
  }
}

// Children: generic signature?, self type (with self only), to-type, from-type.
void Printer::PrintReabstractionThunk(const Node* node) {
  bool with_self = node->kind() == NodeKind::kReabstractionThunkHelperWithSelf;
  if (options_.shorten_thunk && !with_self) {
    out_ += "thunk for ";
    Print(node->child(node->num_children() - 1));
    return;
  }
  out_ += "reabstraction thunk ";
  if (node->kind() == NodeKind::kReabstractionThunkHelper) out_ += "helper ";
  size_t first = 0;
  if (node->num_children() == (with_self ? 4u : 3u)) {
    Print(node->child(0));
    out_ += ' ';
    first = 1;
  }
  size_t from = first + (with_self ? 2 : 1);
  out_ += "from ";
  Print(node->child(from));
  out_ += " to ";
  Print(node->child(from - 1));
  if (with_self) {
    out_ += " self ";
    Print(node->child(first));
  }
}

void Printer::PrintKeyPathThunk(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kKeyPathGetterThunkHelper: out_ += "key path getter for "; break;
    case NodeKind::kKeyPathSetterThunkHelper: out_ += "key path setter for "; break;
    case NodeKind::kKeyPathUnappliedMethodThunkHelper: out_ += "key path unapplied method "; break;
    case NodeKind::kKeyPathAppliedMethodThunkHelper: out_ += "key path applied method "; break;
    default: {
      // Index equality and hash: "(types)", after the generic signature if any.
      out_ += node->kind() == NodeKind::kKeyPathEqualsThunkHelper
                  ? "key path index equality operator for "
                  : "key path index hash operator for ";
      size_t types = node->num_children();
      if (IsKind(node->child(types - 1), NodeKind::kIsSerialized)) --types;
      if (IsKind(node->child(types - 1), NodeKind::kDependentGenericSignature)) {
        Print(node->child(types - 1));
        --types;
      }
      out_ += '(';
      for (size_t i = 0; i < types; ++i) {
        if (i != 0) out_ += ", ";
        Print(node->child(i));
      }
      out_ += ')';
      return;
    }
  }
  Print(node->child(0));
  out_ += " : ";
  for (size_t i = 1; i < node->num_children(); ++i) {
    if (node->child(i)->kind() == NodeKind::kIsSerialized) out_ += ", ";
    Print(node->child(i));
  }
}

// "<kind> of <function> with respect to parameters {..} and results {..} with <signature>".
void Printer::PrintAutoDiffFunction(const Node* node) {
  size_t kind = 0;
  while (kind < node->num_children() &&
         node->child(kind)->kind() != NodeKind::kAutoDiffFunctionKind) {
    ++kind;
  }
  if (kind + 3 > node->num_children()) return Fail();
  if (node->kind() == NodeKind::kAutoDiffDerivativeVTableThunk) out_ += "vtable thunk for ";
  Print(node->child(kind));
  out_ += " of ";
  const Node* signature = nullptr;
  for (size_t i = 0; i < kind; ++i) {
    if (i == kind - 1 && node->child(i)->kind() == NodeKind::kDependentGenericSignature) {
      signature = node->child(i);
      break;
    }
    Print(node->child(i));
  }
  if (options_.shorten_thunk) return;
  out_ += " with respect to parameters ";
  Print(node->child(kind + 1));
  out_ += " and results ";
  Print(node->child(kind + 2));
  if (signature && options_.display_where_clauses) {
    out_ += " with ";
    Print(signature);
  }
}

// Children: what is thunked (a global, or a type), then kind and three index subsets.
void Printer::PrintAutoDiffSubsetThunk(const Node* node) {
  size_t count = node->num_children();
  if (count < 5) return Fail();
  out_ += "autodiff subset parameters thunk for ";
  size_t rest = count - 4;
  Print(node->child(rest));
  out_ += " from ";
  if (rest == 1) {
    Print(node->child(0));
  } else {
    for (size_t i = 0; i + 1 < rest; ++i) Print(node->child(i));
  }
  if (options_.shorten_thunk) return;
  out_ += " with respect to parameters ";
  Print(node->child(rest + 1));
  out_ += " and results ";
  Print(node->child(rest + 2));
  out_ += " to parameters ";
  Print(node->child(rest + 3));
  if (rest > 1) {
    out_ += " of type ";
    Print(node->child(rest - 1));
  }
}

// Children: from-type, to-type, generic signature?, kind.
void Printer::PrintAutoDiffSelfReorderingThunk(const Node* node) {
  out_ += "autodiff self-reordering reabstraction thunk ";
  if (node->num_children() < 3) return Fail();
  if (options_.shorten_thunk) {
    out_ += "for ";
    Print(node->child(0));
    return;
  }
  size_t next = 2;
  const Node* signature = nullptr;
  if (node->child(next)->kind() == NodeKind::kDependentGenericSignature)
    signature = node->child(next++);
  out_ += "for ";
  Print(node->child(next));
  if (signature) {
    Print(signature);
    out_ += ' ';
  }
  out_ += " from ";
  Print(node->child(0));
  out_ += " to ";
  Print(node->child(1));
}

// Children: what is differentiable, Index(kind), parameter and result subsets, signature?.
void Printer::PrintDifferentiabilityWitness(const Node* node) {
  size_t count = node->num_children();
  size_t trailing = IsKind(node->child(count - 1), NodeKind::kDependentGenericSignature) ? 4 : 3;
  if (count < trailing + 1) return Fail();
  switch (node->child(count - trailing)->index()) {
    case 'f': out_ += "forward-mode"; break;
    case 'r': out_ += "reverse-mode"; break;
    case 'd': out_ += "normal"; break;
    case 'l': out_ += "linear"; break;
    default: return Fail();
  }
  out_ += " differentiability witness for ";
  size_t i = 0;
  for (; i < count && node->child(i)->kind() != NodeKind::kIndex; ++i) Print(node->child(i));
  ++i;
  out_ += " with respect to parameters ";
  Print(node->child(i++));
  out_ += " and results ";
  Print(node->child(i++));
  if (i < count) {
    out_ += " with ";
    Print(node->child(i));
  }
}

}  // namespace instrumentscope::demangle::swift
