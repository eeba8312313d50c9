// The tree a Swift mangling is parsed into and the printer walks. A node is a kind, at most one
// payload (a text or an unsigned index) and an ordered list of children. Any parser may build
// trees for the printer: the Swift 4+ parser here, and a parser of pre-Swift-4 "_T" manglings.
//
// Building a tree: make one Arena and one NodeFactory per name, create nodes bottom-up and attach
// them with AddChild; everything is freed with the arena. Every call fails softly (nullptr or
// false) once a limit of limits.h is reached, and factory.ok() then stays false: a parser checks
// it once at the end. Shapes and payloads the printer expects are those of the Swift 4+ parser
// (parser*.cc); the payload conventions that are not plain text or numbers are spelled out below.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_NODE_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_NODE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "demangle/swift/arena.h"

namespace instrumentscope::demangle::swift {

enum class NodeKind : uint16_t {
#define SWIFT_NODE_KIND(Name) k##Name,
#include "demangle/swift/node_kinds.inc"
#undef SWIFT_NODE_KIND
};

inline constexpr size_t kNodeKindCount = 0
#define SWIFT_NODE_KIND(Name) +1
#include "demangle/swift/node_kinds.inc"
#undef SWIFT_NODE_KIND
    ;

// Index payload of FunctionSignatureSpecializationParamKind: one of the values below, or an
// or-combination of the flags.
enum class SpecializationParamKind : uint64_t {
  kConstantPropFunction = 0,
  kConstantPropGlobal = 1,
  kConstantPropInteger = 2,
  kConstantPropFloat = 3,
  kConstantPropString = 4,
  kClosureProp = 5,
  kBoxToValue = 6,
  kBoxToStack = 7,
  kInOutToOut = 8,
  kConstantPropKeyPath = 9,
  kConstantPropStruct = 10,
  kClosurePropPreviousArg = 11,
  kEscapingClosureProp = 12,
  kFlagDead = 1 << 6,
  kFlagOwnedToGuaranteed = 1 << 7,
  kFlagExploded = 1 << 8,
  kFlagGuaranteedToOwned = 1 << 9,
  kFlagExistentialToGeneric = 1 << 10,
};

// Other payload conventions:
// - ValueWitness: child 0 is an Index whose payload is the witness's position in the table of
//   payloads.cc (ValueWitnessCode / ValueWitnessName), child 1 the Type.
// - Directness: 0 direct, 1 indirect.
// - DifferentiableFunctionType, ImplDifferentiabilityKind, and the Index kind child of a
//   DifferentiabilityWitness: the mangling letter ('f', 'r', 'd' or 'l'); AutoDiffFunctionKind:
//   'f', 'r', 'd' or 'p'.
// - CalledOnceFunctionType and ImplCalledOnceFunction: 0 exactly once, 1 at most once.
// - DependentGenericLayoutRequirement: child 1 is an Identifier holding the layout letter.
// - DependentGenericInverseConformanceRequirement: child 1 is a Number, the protocol's bit.
// - NegativeInteger: the value as a two's-complement uint64_t.
// - DependentGenericParamType: children Index(depth), Index(index).

class Node {
 public:
  NodeKind kind() const { return kind_; }
  bool has_text() const { return payload_ == Payload::kText; }
  bool has_index() const { return payload_ == Payload::kIndex; }
  // Empty when the node has no text.
  std::string_view text() const {
    return has_text() ? std::string_view(text_, text_size_) : std::string_view();
  }
  // 0 when the node has no index.
  uint64_t index() const { return has_index() ? index_ : 0; }
  size_t num_children() const { return num_children_; }
  // nullptr past the last child.
  Node* child(size_t i) const { return i < num_children_ ? children_[i] : nullptr; }
  Node* const* begin() const { return children_; }
  Node* const* end() const { return children_ + num_children_; }
  // 1 for a leaf.
  int height() const { return height_; }

 private:
  friend class NodeFactory;
  enum class Payload : uint8_t { kNone, kText, kIndex };

  NodeKind kind_ = NodeKind::kGlobal;
  Payload payload_ = Payload::kNone;
  uint16_t height_ = 1;
  uint32_t num_children_ = 0;
  uint32_t capacity_ = 0;
  Node** children_ = nullptr;
  const char* text_ = nullptr;
  size_t text_size_ = 0;
  uint64_t index_ = 0;
};

class NodeFactory {
 public:
  explicit NodeFactory(Arena& arena) : arena_(arena) {}

  Node* Create(NodeKind kind);
  // Copies `text` into the arena.
  Node* CreateText(NodeKind kind, std::string_view text);
  // Keeps a view of `text`, which must outlive the tree (the mangled name, or a literal).
  Node* CreateTextView(NodeKind kind, std::string_view text);
  Node* CreateIndex(NodeKind kind, uint64_t index);
  // False (and nothing attached) when either is null or a limit is reached.
  bool AddChild(Node* parent, Node* child);
  void RemoveChild(Node* parent, size_t index);
  void ReverseChildren(Node* parent, size_t from = 0);
  bool ok() const { return ok_; }

 private:
  Node* Allocate();

  Arena& arena_;
  size_t nodes_ = 0;
  bool ok_ = true;
};

// The kind's name ("Function"); for tests and debugging.
std::string_view NodeKindName(NodeKind kind);
// The tree one node a line, indented by depth: "Function", "  Identifier \"foo\"".
std::string DumpTree(const Node* root);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_NODE_H_
