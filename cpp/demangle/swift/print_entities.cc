// Entities ("context.name type"), their contexts printed in front or after " in ", accessors,
// initializers, closures, macro expansions, and names.
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

bool NeedsSpaceBeforeType(const Node* type) {
  while (IsKind(type, NodeKind::kType)) type = type->child(0);
  if (!type) return true;
  switch (type->kind()) {
    case NodeKind::kFunctionType:
    case NodeKind::kNoEscapeFunctionType:
    case NodeKind::kUncurriedFunctionType:
    case NodeKind::kCalledOnceFunctionType:
    case NodeKind::kDependentGenericType: return false;
    default: return true;
  }
}

bool IsFunctionStyleType(NodeKind kind) {
  switch (kind) {
    case NodeKind::kFunctionType:
    case NodeKind::kNoEscapeFunctionType:
    case NodeKind::kUncurriedFunctionType:
    case NodeKind::kCFunctionPointer:
    case NodeKind::kThinFunctionType:
    case NodeKind::kCalledOnceFunctionType: return true;
    default: return false;
  }
}

// Initializers read "x of context"; everything else "x in context".
bool IsInitializerKind(NodeKind kind) {
  return kind == NodeKind::kDefaultArgumentInitializer || kind == NodeKind::kInitializer ||
         kind == NodeKind::kPropertyWrapperBackingInitializer ||
         kind == NodeKind::kPropertyWrappedFieldInitAccessor ||
         kind == NodeKind::kPropertyWrapperInitFromProjectedValue;
}

int IndexPlusOne(const Node* node) {
  return node ? static_cast<int>(node->index()) + 1 : 0;
}

std::string_view StorageAccessorName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kOwningAddressor: return "owningAddressor";
    case NodeKind::kOwningMutableAddressor: return "owningMutableAddressor";
    case NodeKind::kNativeOwningAddressor: return "nativeOwningAddressor";
    case NodeKind::kNativeOwningMutableAddressor: return "nativeOwningMutableAddressor";
    case NodeKind::kNativePinningAddressor: return "nativePinningAddressor";
    case NodeKind::kNativePinningMutableAddressor: return "nativePinningMutableAddressor";
    case NodeKind::kUnsafeAddressor: return "unsafeAddressor";
    case NodeKind::kUnsafeMutableAddressor: return "unsafeMutableAddressor";
    case NodeKind::kGlobalGetter:
    case NodeKind::kGetter: return "getter";
    case NodeKind::kSetter: return "setter";
    case NodeKind::kMaterializeForSet: return "materializeForSet";
    case NodeKind::kWillSet: return "willset";
    case NodeKind::kDidSet: return "didset";
    case NodeKind::kReadAccessor: return "read";
    case NodeKind::kYieldingBorrowAccessor: return "yielding_borrow";
    case NodeKind::kModifyAccessor: return "modify";
    case NodeKind::kYieldingMutateAccessor: return "yielding_mutate";
    case NodeKind::kInitAccessor: return "init";
    case NodeKind::kBorrowAccessor: return "borrow";
    case NodeKind::kMutateAccessor: return "mutate";
    default: return {};
  }
}

std::string_view NoTypeEntityText(NodeKind kind, bool in_class) {
  switch (kind) {
    case NodeKind::kInitializer: return "variable initialization expression";
    case NodeKind::kPropertyWrapperBackingInitializer:
      return "property wrapper backing initializer";
    case NodeKind::kPropertyWrappedFieldInitAccessor: return "property wrapped field init accessor";
    case NodeKind::kPropertyWrapperInitFromProjectedValue:
      return "property wrapper init from projected value";
    case NodeKind::kDestructor: return "deinit";
    case NodeKind::kDeallocator: return in_class ? "__deallocating_deinit" : "deinit";
    case NodeKind::kIsolatedDeallocator:
      return in_class ? "__isolated_deallocating_deinit" : "deinit";
    case NodeKind::kIVarInitializer: return "__ivar_initializer";
    case NodeKind::kIVarDestroyer: return "__ivar_destroyer";
    default: return {};
  }
}

}  // namespace

bool Printer::PrintEntityKind(const Node* node, bool as_prefix_context, const Node** postfix) {
  using TP = TypePrinting;
  NodeKind kind = node->kind();
  bool in_class = IsKind(node->child(0), NodeKind::kClass);
  TP closure_type = options_.show_function_argument_types ? TP::kFunctionStyle : TP::kNone;
  switch (kind) {
    case NodeKind::kVariable:
      *postfix = PrintEntity(node, as_prefix_context, MakeStyle(TP::kWithColon, true));
      return true;
    case NodeKind::kFunction:
    case NodeKind::kBoundGenericFunction:
      *postfix = PrintEntity(node, as_prefix_context, MakeStyle(TP::kFunctionStyle, true));
      return true;
    case NodeKind::kSubscript:
      *postfix = PrintEntity(node, as_prefix_context,
                             MakeStyle(TP::kFunctionStyle, false, {}, -1, "subscript"));
      return true;
    case NodeKind::kMacro: {
      TP type = node->num_children() == 3 ? TP::kWithColon : TP::kFunctionStyle;
      *postfix = PrintEntity(node, as_prefix_context, MakeStyle(type, true));
      return true;
    }
    case NodeKind::kGenericTypeParamDecl:
    case NodeKind::kClass:
    case NodeKind::kStructure:
    case NodeKind::kEnum:
    case NodeKind::kProtocol:
    case NodeKind::kTypeAlias:
    case NodeKind::kOtherNominalType:
      *postfix = PrintEntity(node, as_prefix_context, MakeStyle(TP::kNone, true));
      return true;
    case NodeKind::kExplicitClosure:
    case NodeKind::kImplicitClosure:
      *postfix = PrintEntity(
          node, as_prefix_context,
          MakeStyle(closure_type, false,
                    kind == NodeKind::kExplicitClosure ? "closure #" : "implicit closure #",
                    IndexPlusOne(node->child(1))));
      return true;
    case NodeKind::kDefaultArgumentInitializer:
      *postfix =
          PrintEntity(node, as_prefix_context,
                      MakeStyle(TP::kNone, false, "default argument ",
                                static_cast<int>(ChildOf(node, 1) ? node->child(1)->index() : 0)));
      return true;
    case NodeKind::kAllocator:
      *postfix = PrintEntity(
          node, as_prefix_context,
          MakeStyle(TP::kFunctionStyle, false, in_class ? "__allocating_init" : "init"));
      return true;
    case NodeKind::kConstructor:
      *postfix = PrintEntity(node, as_prefix_context,
                             MakeStyle(TP::kFunctionStyle, node->num_children() > 2, "init"));
      return true;
    default: break;
  }
  if (std::string_view text = NoTypeEntityText(kind, in_class); !text.empty()) {
    *postfix = PrintEntity(node, as_prefix_context, MakeStyle(TP::kNone, false, text));
    return true;
  }
  if (std::string_view accessor = StorageAccessorName(kind); !accessor.empty()) {
    *postfix = PrintStorage(node->child(0), as_prefix_context, accessor);
    return true;
  }
  return PrintMacroExpansion(node, as_prefix_context, postfix);
}

bool Printer::PrintMacroExpansion(const Node* node, bool as_prefix_context, const Node** postfix) {
  std::string_view role;
  switch (node->kind()) {
    case NodeKind::kFreestandingMacroExpansion:
      *postfix = PrintEntity(node, as_prefix_context,
                             MakeStyle(TypePrinting::kNone, true, "freestanding macro expansion #",
                                       IndexPlusOne(node->child(2))));
      return true;
    case NodeKind::kMacroExpansionUniqueName:
      *postfix = PrintEntity(
          node, as_prefix_context,
          MakeStyle(TypePrinting::kNone, true, "unique name #", IndexPlusOne(node->child(2))));
      return true;
    case NodeKind::kAccessorAttachedMacroExpansion: role = "accessor"; break;
    case NodeKind::kMemberAttributeAttachedMacroExpansion: role = "memberAttribute"; break;
    case NodeKind::kMemberAttachedMacroExpansion: role = "member"; break;
    case NodeKind::kPeerAttachedMacroExpansion: role = "peer"; break;
    case NodeKind::kConformanceAttachedMacroExpansion: role = "conformance"; break;
    case NodeKind::kExtensionAttachedMacroExpansion: role = "extension"; break;
    case NodeKind::kPreambleAttachedMacroExpansion: role = "preamble"; break;
    case NodeKind::kBodyAttachedMacroExpansion: role = "body"; break;
    default: return false;
  }
  // "peer macro @addCompletionHandler expansion #1 of f in S": the macro's name is printed into
  // the extra name.
  size_t start = out_.size();
  out_ += role;
  out_ += " macro @";
  Print(node->child(2));
  out_ += " expansion #";
  std::string extra = out_.substr(start);
  out_.resize(start);
  *postfix = PrintEntity(node, as_prefix_context,
                         MakeStyle(TypePrinting::kNone, true, extra, IndexPlusOne(node->child(3))));
  return true;
}

const Node* Printer::PrintStorage(const Node* storage, bool as_prefix_context,
                                  std::string_view accessor) {
  if (IsKind(storage, NodeKind::kVariable)) {
    return PrintEntity(storage, as_prefix_context,
                       MakeStyle(TypePrinting::kWithColon, true, accessor));
  }
  if (IsKind(storage, NodeKind::kSubscript)) {
    return PrintEntity(storage, as_prefix_context,
                       MakeStyle(TypePrinting::kWithColon, false, accessor, -1, "subscript"));
  }
  Fail();
  return nullptr;
}

// Prints "context.name type", or "name type in context" for multi-word names and local names.
// As a prefix context an entity with a type or a multi-word name prints nothing and is returned,
// to be printed by the caller after " in ".
const Node* Printer::PrintEntity(const Node* entity, bool as_prefix_context, EntityStyle style) {
  const Node* generic_args = nullptr;
  if (entity->kind() == NodeKind::kBoundGenericFunction) {
    generic_args = entity->child(1);
    entity = entity->child(0);
    if (!entity) {
      Fail();
      return nullptr;
    }
  }
  bool multi_word = style.extra_name.find(' ') != std::string_view::npos;
  bool local_name = style.has_name && IsKind(entity->child(1), NodeKind::kLocalDeclName);
  if (local_name) multi_word = true;
  if (as_prefix_context && (style.type != TypePrinting::kNone || multi_word)) return entity;
  const Node* context = entity->child(0);
  const Node* postfix = nullptr;
  if (multi_word) {
    postfix = context;
  } else {
    size_t before = out_.size();
    postfix = Print(context, /*as_prefix_context=*/true);
    if (out_.size() != before) out_ += '.';
  }
  PrintFunctionName(entity, style, multi_word);
  if (style.type != TypePrinting::kNone) {
    const Node* type = ChildOf(FirstChildOfKind(entity, NodeKind::kType), 0);
    if (!type) {
      Fail();
      return nullptr;
    }
    if (style.type == TypePrinting::kFunctionStyle) {
      const Node* t = type;
      while (IsKind(t, NodeKind::kDependentGenericType)) t = ChildOf(t->child(1), 0);
      if (!t || !IsFunctionStyleType(t->kind())) style.type = TypePrinting::kWithColon;
    }
    if (style.type == TypePrinting::kWithColon) {
      if (options_.display_entity_types) {
        out_ += " : ";
        PrintEntityType(entity, type, generic_args);
      }
    } else {
      if (multi_word || NeedsSpaceBeforeType(type)) out_ += ' ';
      PrintEntityType(entity, type, generic_args);
    }
  }
  if (!as_prefix_context && postfix) {
    out_ += IsInitializerKind(entity->kind()) ? " of " : " in ";
    Print(postfix);
    postfix = nullptr;
  }
  return postfix;
}

void Printer::PrintFunctionName(const Node* entity, EntityStyle& style, bool multi_word) {
  if (style.has_name || !style.overwrite_name.empty()) {
    if (!style.extra_name.empty() && multi_word) {
      out_ += style.extra_name;
      if (style.extra_index >= 0) out_ += std::to_string(style.extra_index);
      out_ += " of ";
      style.extra_name = {};
      style.extra_index = -1;
    }
    size_t before = out_.size();
    if (!style.overwrite_name.empty()) {
      out_ += style.overwrite_name;
    } else {
      const Node* name = entity->child(1);
      if (!IsKind(name, NodeKind::kPrivateDeclName)) Print(name);
      if (const Node* private_name = FirstChildOfKind(entity, NodeKind::kPrivateDeclName)) {
        Print(private_name);
      }
    }
    if (out_.size() != before && !style.extra_name.empty()) out_ += '.';
  }
  if (!style.extra_name.empty()) {
    out_ += style.extra_name;
    if (style.extra_index >= 0) out_ += std::to_string(style.extra_index);
  }
}

void Printer::PrintEntityType(const Node* entity, const Node* type, const Node* generic_args) {
  const Node* labels = FirstChildOfKind(entity, NodeKind::kLabelList);
  if (!labels && !generic_args) {
    Print(type);
    return;
  }
  if (generic_args) {
    out_ += '<';
    PrintChildren(generic_args, ", ");
    out_ += '>';
  }
  if (type->kind() == NodeKind::kDependentGenericType) {
    if (!generic_args) Print(type->child(0));
    const Node* dependent = type->child(1);
    if (NeedsSpaceBeforeType(dependent)) out_ += ' ';
    type = ChildOf(dependent, 0);
  }
  PrintFunctionType(labels, type);
}

bool Printer::PrintNameKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kGlobal: PrintChildren(node); return true;
    case NodeKind::kTypeMangling:
      if (IsKind(node->child(0), NodeKind::kLabelList)) {
        PrintFunctionType(node->child(0), ChildOf(node->child(1), 0));
      } else {
        Print(node->child(0));
      }
      return true;
    case NodeKind::kLocalDeclName:
      Print(node->child(1));
      out_ += " #";
      out_ += std::to_string(IndexPlusOne(node->child(0)));
      return true;
    case NodeKind::kPrivateDeclName:
      if (node->num_children() > 1) {
        if (options_.show_private_discriminators) out_ += '(';
        Print(node->child(1));
        if (options_.show_private_discriminators) {
          out_ += " in ";
          out_ += ChildOf(node, 0)->text();
          out_ += ')';
        }
      } else if (options_.show_private_discriminators) {
        out_ += "(in ";
        out_ += ChildOf(node, 0) ? node->child(0)->text() : std::string_view();
        out_ += ')';
      }
      return true;
    case NodeKind::kRelatedEntityDeclName:
      out_ += "related decl '";
      out_ += ChildOf(node, 0) ? node->child(0)->text() : std::string_view();
      out_ += "' for ";
      Print(node->child(1));
      return true;
    case NodeKind::kExtension:
      if (options_.display_extension_contexts) {
        out_ += "(extension in ";
        Print(node->child(0), /*as_prefix_context=*/true);
        out_ += "):";
      }
      Print(node->child(1));
      if (node->num_children() == 3) Print(node->child(2));
      return true;
    case NodeKind::kAnonymousContext:
      if (options_.display_extension_contexts) {
        Print(node->child(1));
        out_ += ".(unknown context at ";
        Print(node->child(0));
        out_ += ')';
        if (node->num_children() >= 3 && node->child(2)->num_children() > 0) {
          out_ += '<';
          Print(node->child(2));
          out_ += '>';
        }
      }
      return true;
    case NodeKind::kMacroExpansionLoc: {
      static constexpr std::string_view kLabels[] = {"module ", " file ", " line ", " column "};
      for (size_t i = 0; i < 4 && i < node->num_children(); ++i) {
        out_ += kLabels[i];
        Print(node->child(i));
      }
      return true;
    }
    default: return false;
  }
}

}  // namespace instrumentscope::demangle::swift
