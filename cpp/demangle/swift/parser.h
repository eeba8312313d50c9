// Parses the body of a Swift 4+ mangled name (after "$s", "_T0", "$e", "@__swiftmacro_"...) into a
// node tree. The mangling is postfix: each operator pops its operands off a stack of nodes and
// pushes its result; at the end the stack becomes the children of a Global node.
//
// Not supported: symbolic references (bytes 0x01-0x1F, which point into a binary image and are
// refused as the mangling rules require for untrusted input) and the pre-Swift-4 "_T" mangling,
// which OldParser (old_parser.h) reads.
// The parser's work is bounded by limits.h; it is split by area over the parse_*.cc files.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_PARSER_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_PARSER_H_

#include <string>
#include <string_view>

#include "demangle/swift/arena.h"
#include "demangle/swift/node.h"

namespace instrumentscope::demangle::swift {

class Parser {
 public:
  // Parses `text` from `start`. `labels_in_tuples` selects Swift 4.0 ("_T0") function types,
  // whose argument labels are names of the parameter tuple's elements.
  Parser(std::string_view text, size_t start, bool labels_in_tuples, Arena& arena,
         NodeFactory& factory);

  // The Global node, or nullptr. `first`, when given, is pushed before parsing starts.
  Node* ParseSymbol(Node* first = nullptr);

 private:
  // parser.cc: cursor, stack, node helpers, the operator dispatch, numbers.
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  char Next();
  bool NextIf(char c);
  bool NextIf(std::string_view s);
  void PushBack() { --pos_; }
  bool Push(Node* node);
  Node* Pop();
  Node* Pop(NodeKind kind);
  template <typename Predicate>
  Node* PopIf(Predicate predicate) {
    if (stack_.empty() || !predicate(stack_.Back()->kind())) return nullptr;
    return stack_.PopBack();
  }
  void AddSubstitution(Node* node);
  Node* Make(NodeKind kind) { return factory_.Create(kind); }
  template <typename... Rest>
  Node* Make(NodeKind kind, Node* first, Rest... rest) {
    if (!first || ((rest == nullptr) || ...)) return nullptr;
    Node* node = factory_.Create(kind);
    if (!Add(node, first)) return nullptr;
    if (!(Add(node, rest) && ...)) return nullptr;
    return node;
  }
  Node* MakeIndex(NodeKind kind, uint64_t index) { return factory_.CreateIndex(kind, index); }
  Node* MakeText(NodeKind kind, std::string_view text) {
    return factory_.CreateTextView(kind, text);
  }
  Node* MakeType(Node* child) { return Make(NodeKind::kType, child); }
  // Returns `parent`, or nullptr when either is null.
  Node* Add(Node* parent, Node* child);
  // Attaches `child` when it is not null; returns `parent` either way.
  Node* AddIfAny(Node* parent, Node* child);
  Node* ParseOperator();
  Node* ParseOperatorH();
  int ParseNatural();
  int ParseIndex();
  Node* ParseIndexAsNode();

  // parse_names.cc: identifiers, substitutions, local and private names, modules, contexts.
  Node* ParseIdentifier();
  bool AppendIdentifierPart(bool punycoded);
  void RecordWords(std::string_view slice);
  Node* ParseOperatorIdentifier();
  Node* ParseLocalIdentifier();
  Node* ParseMultiSubstitutions();
  Node* PushMultiSubstitutions(int repeat, size_t index);
  Node* ParseStandardSubstitution();
  Node* MakeStandardType(char code, bool concurrency);
  Node* MakeSwiftType(NodeKind kind, std::string_view name);
  Node* PopModule();
  Node* PopContext();
  Node* PopTypeAndGetChild();
  Node* PopTypeAndGetAnyGeneric();

  // parse_entities.cc: functions, variables, subscripts, accessors, closures, macros.
  Node* ParseAnyGenericType(NodeKind kind);
  Node* ParseExtensionContext();
  Node* ParsePlainFunction();
  Node* ParseFunctionEntity();
  Node* ParseEntity(NodeKind kind);
  Node* ParseVariable();
  Node* ParseSubscript();
  Node* ParseAccessor(Node* storage);
  Node* ParseMacroExpansion();
  Node* ParseMacroExpansionLoc();
  Node* PopFunctionParamLabels(Node* type);
  Node* PopLabel(Node* params, size_t index);

  // parse_types.cc: builtin, function, tuple, pack, special and annotated types.
  Node* ParseBuiltinType();
  Node* ParseBuiltinVector();
  Node* ParseTypeAnnotation();
  Node* ParseSpecialType();
  Node* ParseSpecialFunctionType(char code);
  Node* ParseSugaredType();
  Node* ParseSilBoxType(bool generic);
  Node* ParseAnonymousContext();
  Node* ParseMetatypeRepresentation();
  Node* ParseClangType();
  Node* ParseIntegerType();
  Node* FillFunctionType(Node* function, bool has_clang_type);
  Node* PopFunctionParams(NodeKind kind);
  Node* PopTuple();
  Node* PopPack(NodeKind kind);
  Node* PopTypeList();
  Node* ParseProtocolList();
  Node* ParseConstrainedExistentialRequirements();

  // parse_impl_function.cc: SIL function types ("I...").
  Node* ParseImplFunctionType();
  bool ParseImplSubstitutions(Node* function);
  bool ParseImplAttributes(Node* function);
  Node* ParseImplParamConvention(NodeKind kind);
  Node* ParseImplResultConvention(NodeKind kind);
  Node* ParseImplDifferentiability();

  // parse_generics.cc: bound generics, signatures, requirements, archetypes, conformances.
  bool ParseBoundGenerics(ArenaVector<Node*>& lists, Node*& retroactive);
  Node* ParseBoundGenericType();
  Node* BindGenericArgs(Node* nominal, ArenaVector<Node*>& lists, size_t list, int depth);
  Node* ParseGenericSignature(bool has_param_counts);
  Node* ParseGenericRequirement();
  Node* ParseLayoutRequirement(Node* subject);
  Node* ParseGenericParamIndex();
  Node* MakeGenericParam(int depth, int index);
  Node* ParseArchetype();
  Node* ParseOpaqueType();
  Node* ParseAssociatedTypeSimple(Node* base);
  Node* ParseAssociatedTypeCompound(Node* base);
  Node* PopAssocTypeName();
  Node* PopAssocTypePath();
  Node* PopProtocol();
  Node* PopProtocolConformance();
  Node* PopAnyProtocolConformance();
  Node* PopAnyProtocolConformanceList();
  Node* PopDependentProtocolConformance();
  Node* ParseConcreteProtocolConformance();
  Node* ParseDependentConformance(NodeKind kind);
  Node* ParseDependentConformanceIndex();
  Node* ParseRetroactiveConformance();
  Node* PopRetroactiveConformances();

  // parse_thunks.cc: the 'T' operators.
  Node* ParseThunkOrSpecialization();
  Node* ParseReabstractionThunk(NodeKind kind);
  Node* ParseKeyPathAccessorThunk(bool getter);
  Node* ParseKeyPathIndexThunk(NodeKind kind);
  Node* ParseObjCCompletionHandler(NodeKind kind);
  Node* ParseAssociatedConformanceThunk(NodeKind kind);
  Node* ParseOutlinedBridgedMethod();
  Node* ParseThunkW();
  Node* PopAssociatedConformanceSubject();

  // parse_specializations.cc: generic and function-signature specializations, autodiff.
  Node* ParseSpecAttributes(NodeKind kind);
  Node* ParseGenericSpecialization(NodeKind kind, Node* dropped);
  Node* ParseGenericSpecializationWithDroppedArguments();
  Node* ParsePartialSpecialization(NodeKind kind);
  Node* ParseFunctionSpecialization();
  bool AttachSpecializationArguments(Node* param);
  Node* ParseFunctionSpecParam(NodeKind kind);
  Node* ParseConstantPropagation(Node* param);
  Node* AddSpecParamKind(Node* param, uint64_t kind);
  Node* AddSpecParamNumber(Node* param, uint64_t kind);
  Node* ParseAutoDiffFunction(NodeKind kind);
  Node* ParseAutoDiffSubsetParametersThunk();
  Node* ParseAutoDiffSelfReorderingThunk();
  Node* ParseAutoDiffFunctionKind();
  Node* ParseDifferentiabilityWitness();
  Node* ParseIndexSubset();
  Node* PopAllInOrder(Node* parent);

  // parse_metadata.cc: 'M', 'W', 'H' records and value witnesses.
  Node* ParseMetatype();
  Node* ParsePrivateContextDescriptor();
  Node* ParseWitness();
  Node* ParseOutlinedOperation();
  Node* ParseGlobalVariableOnce(NodeKind kind);
  Node* ParseValueWitness();

  std::string_view text_;
  size_t pos_;
  const bool labels_in_tuples_;
  Arena& arena_;
  NodeFactory& factory_;
  ArenaVector<Node*> stack_;
  ArenaVector<Node*> substitutions_;
  // Words of the identifiers so far, for word substitutions ("0aB").
  std::string_view words_[26];
  int num_words_ = 0;
  std::string identifier_;
  bool ok_ = true;
};

// Kind predicates shared by the parse_*.cc files.
bool IsContextKind(NodeKind kind);
bool IsDeclNameKind(NodeKind kind);
bool IsAnyGenericKind(NodeKind kind);
bool IsEntityKind(NodeKind kind);
bool IsRequirementKind(NodeKind kind);
bool IsFunctionAttributeKind(NodeKind kind);
bool IsProtocolNode(const Node* node);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_PARSER_H_
