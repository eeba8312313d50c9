// Prints a node tree (node.h) as readable Swift, spelled per PrintOptions. One recursive walk;
// every step is bounded (depth, visits, output length: limits.h), and a tree of a shape the
// printer does not expect fails the print instead of guessing. Split by area over print_*.cc.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINTER_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINTER_H_

#include <optional>
#include <string>
#include <string_view>

#include "demangle/swift/node.h"
#include "demangle/swift/print_options.h"

namespace instrumentscope::demangle::swift {

class Printer {
 public:
  // `nesting` counts the mangled names being printed around this one (specialization payloads
  // hold mangled names of their own).
  Printer(const PrintOptions& options, int nesting) : options_(options), nesting_(nesting) {}

  // nullopt when the tree is malformed, a limit is reached or nothing would be printed.
  std::optional<std::string> PrintRoot(const Node* root);

 private:
  enum class TypePrinting { kNone, kWithColon, kFunctionStyle };
  // How PrintEntity spells an entity: "context.name", "extra #index of name in context"...
  struct EntityStyle {
    TypePrinting type = TypePrinting::kNone;
    bool has_name = false;
    std::string_view extra_name;
    int extra_index = -1;
    std::string_view overwrite_name;
  };
  static EntityStyle MakeStyle(TypePrinting type, bool has_name, std::string_view extra_name = {},
                               int extra_index = -1, std::string_view overwrite_name = {}) {
    return {type, has_name, extra_name, extra_index, overwrite_name};
  }

  // print_dispatch.cc: the walk, the simple kinds and text helpers.
  // Returns the context an entity printed as a prefix context could not print in front of
  // itself (the caller then prints it after " in "), or nullptr.
  const Node* Print(const Node* node, bool as_prefix_context = false);
  const Node* PrintKind(const Node* node, bool as_prefix_context);
  bool PrintSimpleKind(const Node* node);
  bool PrintPayloadKind(const Node* node);
  void PrintChildren(const Node* node, std::string_view separator = {});
  void PrintQuoted(std::string_view text);
  void PrintMaybeSymbol(std::string_view text);
  void Fail() { failed_ = true; }

  // print_entities.cc: entities, contexts, names, accessors.
  bool PrintEntityKind(const Node* node, bool as_prefix_context, const Node** postfix);
  const Node* PrintEntity(const Node* entity, bool as_prefix_context, EntityStyle style);
  void PrintFunctionName(const Node* entity, EntityStyle& style, bool multi_word);
  void PrintEntityType(const Node* entity, const Node* type, const Node* generic_args);
  const Node* PrintStorage(const Node* storage, bool as_prefix_context, std::string_view accessor);
  bool PrintMacroExpansion(const Node* node, bool as_prefix_context, const Node** postfix);
  bool PrintNameKind(const Node* node);

  // print_types.cc: function types, tuples, generics applied, sugar, metatypes.
  bool PrintTypeKind(const Node* node);
  bool PrintSpecialTypeKind(const Node* node);
  void PrintFunctionType(const Node* labels, const Node* function);
  void PrintFunctionParameters(const Node* labels, const Node* arguments, bool show_types);
  void PrintBoundGeneric(const Node* node);
  void PrintBoundGenericNoSugar(const Node* node);
  void PrintWithParens(const Node* type);
  void PrintMetatype(const Node* node);
  void PrintProtocolList(const Node* node);
  void PrintTupleElement(const Node* node);

  // print_impl.cc: SIL function types.
  bool PrintImplKind(const Node* node);
  void PrintImplFunctionType(const Node* function);

  // print_generics.cc: signatures, requirements, conformances.
  bool PrintGenericKind(const Node* node);
  void PrintGenericSignature(const Node* node);
  void PrintLayoutRequirement(const Node* node);
  bool PrintConformanceKind(const Node* node);

  // print_specializations.cc: specializations and thunks.
  bool PrintSpecializationKind(const Node* node);
  void PrintSpecializationPrefix(const Node* node, std::string_view description,
                                 std::string_view param_prefix = {});
  void PrintSpecializationParams(const Node* node);
  void PrintNextArgument(const Node* node, size_t& index, uint64_t kind);
  void PrintSpecializationParamKind(uint64_t kind);
  bool PrintThunkKind(const Node* node);
  void PrintReabstractionThunk(const Node* node);
  void PrintAutoDiffFunction(const Node* node);
  void PrintAutoDiffSubsetThunk(const Node* node);
  void PrintAutoDiffSelfReorderingThunk(const Node* node);
  void PrintDifferentiabilityWitness(const Node* node);
  void PrintKeyPathThunk(const Node* node);

  // print_descriptors.cc: metadata, descriptors, witnesses and other "x for y" symbols.
  bool PrintDescriptorKind(const Node* node);
  bool PrintWitnessKind(const Node* node);

  const PrintOptions& options_;
  const int nesting_;
  std::string out_;
  int depth_ = 0;
  size_t steps_ = 0;
  bool failed_ = false;
  bool specialization_prefix_printed_ = false;
};

// Null-safe accessors: a missing child is a malformed tree, which Print reports.
inline const Node* ChildOf(const Node* node, size_t i) {
  return node ? node->child(i) : nullptr;
}
inline bool IsKind(const Node* node, NodeKind kind) {
  return node && node->kind() == kind;
}
const Node* FirstChildOfKind(const Node* node, NodeKind kind);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINTER_H_
