// Parses the pre-Swift-4 mangling ("_T" not followed by "0", as in
// "_TFC3foo3bar3basfT3zimCS_3zim_T_") into the node tree of node.h, which the same Printer prints.
// The scheme is prefix, so this is a recursive descent: every recursion passes a counted Nesting
// (kMaxOldParseDepth), as the browser's stack is small; the other bounds are the factory's and
// limits.h's.
//
// Reads entities (functions, variables and their accessors, subscripts, initializers, closures),
// types, metadata and witness table symbols, value witnesses, field offsets, reabstraction thunks,
// protocol witnesses, partial apply forwarders, generic and function signature specializations
// and the @objc, @nonobjc, dynamic, super and override attributes.
//
// Not read (nullopt): function type attributes that came after this scheme was retired (async,
// @Sendable, differentiability, global actors; also on SIL function types) and indexed opaque
// result types. Stricter than the grammar, so that C symbols starting with "_T" ("_TIFFmalloc",
// "_TSSetProcessAppearance") are refused: the top level must be a declaration (not a bare nominal
// type), a partial apply forwarder must name its function, a type may not be a bare module, and
// text left after the mangling must look like a compiler-appended suffix (IsPlausibleSuffix).
// "f" (the uncurried type of a method) builds a FunctionType: the printer spells both alike.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_OLD_PARSER_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_OLD_PARSER_H_

#include <cstdint>
#include <string_view>

#include "demangle/swift/arena.h"
#include "demangle/swift/limits.h"
#include "demangle/swift/node.h"

namespace instrumentscope::demangle::swift {

// Nesting of the parse functions that recurse. A deeper parse would build a tree taller than
// kMaxTreeHeight, which the factory refuses anyway.
inline constexpr int kMaxOldParseDepth = kMaxTreeHeight;

class OldParser {
 public:
  // `text` is the whole name, "_T..."; it must outlive the tree.
  OldParser(std::string_view text, Arena& arena, NodeFactory& factory)
      : text_(text), arena_(arena), factory_(factory) {}

  // The Global node, or nullptr when `text` is not an old mangling this parser reads.
  Node* ParseSymbol();

 private:
  // Counts one level of recursion for as long as it lives.
  class Nesting {
   public:
    explicit Nesting(int& depth) : depth_(depth) { ++depth_; }
    ~Nesting() { --depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    bool TooDeep() const { return depth_ > kMaxOldParseDepth; }

   private:
    int& depth_;
  };

  // old_parser.cc: cursor, nodes, numbers, identifiers, substitutions, the top level.
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  char Next() { return AtEnd() ? '\0' : text_[pos_++]; }
  bool NextIf(char c);
  bool NextIf(std::string_view s);
  Node* Make(NodeKind kind) { return factory_.Create(kind); }
  template <typename... Rest>
  Node* Make(NodeKind kind, Node* first, Rest... rest) {
    if (!first || ((rest == nullptr) || ...)) return nullptr;
    Node* node = factory_.Create(kind);
    if (!Add(node, first) || !(Add(node, rest) && ...)) return nullptr;
    return node;
  }
  Node* MakeType(Node* child) { return Make(NodeKind::kType, child); }
  Node* MakeIndex(NodeKind kind, uint64_t index) { return factory_.CreateIndex(kind, index); }
  Node* MakeText(NodeKind kind, std::string_view text) {
    return factory_.CreateTextView(kind, text);
  }
  // Returns `parent`, or nullptr when either is null.
  Node* Add(Node* parent, Node* child) {
    return factory_.AddChild(parent, child) ? parent : nullptr;
  }
  bool ParseNatural(uint64_t& value, bool saturate = false);
  bool ParseIndex(uint64_t& value, bool saturate = false);
  Node* ParseIndexAsNode();
  Node* ParseIdentifier(NodeKind kind = NodeKind::kIdentifier);
  Node* DecodeIdentifier(NodeKind kind, std::string_view name, bool punycoded);
  Node* ParseSubstitution();
  Node* AddSubstitution(Node* node);
  Node* ParseSpecializations(Node* global);
  Node* ParseAttribute();

  // old_parse_globals.cc: what may follow "_T": metadata, witnesses, thunks, entities.
  Node* ParseGlobal();
  Node* ParseMetadata();
  Node* ParseWitnessTable();
  Node* ParseValueWitness();
  Node* ParseThunk();
  Node* ParseReabstractionThunk(NodeKind kind);
  Node* ParseProtocolConformance();

  // old_parse_entities.cc: declarations, their contexts and names, nominal types, protocols.
  Node* ParseEntity();
  Node* ParseDeclEntity();
  Node* MakeStorageAccessor(NodeKind kind, Node* context, Node* name);
  Node* ParseContext();
  Node* ParseExtension(bool constrained);
  Node* ParseModule();
  Node* ParseNominalType();
  Node* ParseDeclaration(NodeKind kind);
  Node* ParseDeclName();
  Node* ParseProtocolName();
  Node* ParseProtocolInContext(Node* context);

  // old_parse_types.cc: types.
  Node* ParseType();
  Node* ParseTypeBody();
  Node* ParseBuiltinType();
  Node* ParseSpecialType();
  Node* ParseSilBoxWithLayout();
  Node* ParseFunctionType(NodeKind kind);
  Node* ParseTuple(bool variadic);
  Node* ParseBoundGenericType();
  Node* BindGenericArgs(Node* nominal);
  Node* ParseProtocolList();
  Node* ParseMetatypeRepresentation();
  Node* ParseArchetype();

  // old_parse_generics.cc: generic signatures, requirements, dependent types.
  Node* ParseGenericSignature(NodeKind kind);
  Node* ParseGenericRequirement();
  Node* ParseLayoutRequirement(Node* subject);
  Node* ParseConformanceConstraint();
  Node* ParseConstrainedType();
  Node* ParseGenericParamIndex();
  Node* ParseDependentType();
  Node* ParseAssociatedType(bool compound);
  Node* ParseDependentMemberName(Node* base);

  // old_parse_specializations.cc: the "_TTS" attributes.
  Node* ParseSpecialization();
  Node* ParseGenericSpecializationParams(Node* specialization);
  Node* ParseSignatureSpecializationParam();
  Node* ParseConstantPropagation(Node* param);
  Node* ParseClosurePropagation(Node* param);
  Node* AddParamKind(Node* param, uint64_t kind);

  // old_parse_impl_function.cc: SIL function types ("XF").
  Node* ParseImplFunctionType();
  Node* ParseImplCallee();
  Node* ParseImplEntries(Node* function, NodeKind kind);

  std::string_view text_;
  size_t pos_ = 0;
  Arena& arena_;
  NodeFactory& factory_;
  ArenaVector<Node*> substitutions_;
  int depth_ = 0;
};

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_OLD_PARSER_H_
