#include "demangle/itanium.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

// LLVM's demangler as LLVM 19 ships it (Debian's llvm-19-dev; CMake finds
// it): a header-only parser and printer.
#include "llvm/Demangle/ItaniumDemangle.h"

// The one function the header declares and leaves to LLVM's library.
DEMANGLE_NAMESPACE_BEGIN

// <discriminator> := _ <digit> | __ <number> _, and, as LLVM's extension,
// digits that end the name; skipped, as LLVM does.
const char* parse_discriminator(const char* first, const char* last) {
  auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  if (first == last) return first;
  if (is_digit(*first)) {
    const char* end = first + 1;
    while (end != last && is_digit(*end)) ++end;
    return end == last ? last : first;
  }
  if (*first != '_' || first + 1 == last) return first;
  const char* digits = first + 1;
  if (is_digit(*digits)) return digits + 1;
  if (*digits != '_') return first;
  const char* end = digits + 1;
  while (end != last && is_digit(*end)) ++end;
  return end != last && *end == '_' ? end + 1 : first;
}

DEMANGLE_NAMESPACE_END

namespace instrumentscope::demangle {
namespace {

using llvm::itanium_demangle::Node;
using llvm::itanium_demangle::NodeArray;

// Names longer than this are left as they are (real ones stay under a few KB).
constexpr size_t kMaxNameBytes = 64 * 1024;
// Nested parser calls (types in types, expressions in expressions): real
// names nest a few dozen deep; a crafted one must not exhaust the stack.
constexpr unsigned kMaxParseDepth = 192;
// The depth of the printed tree, which substitutions can make deeper than
// the parse, and the bytes printing would write, which they can make grow
// exponentially: both are bounded before anything is printed.
constexpr uint32_t kMaxTreeDepth = 256;
constexpr uint64_t kMaxPrintedBytes = 64 * 1024;
// Forward template references are resolved after they are counted, so their
// cost is unknown when their parents are built: names that use them are
// demangled only when short.
constexpr size_t kMaxNameBytesWithForwardReferences = 1024;

// What printing a node costs, kept just before it in the arena. Nodes are
// built children first, so a node's cost is known from its arguments the
// moment it is made, without walking the tree.
struct NodeCost {
  uint64_t printed_bytes;
  uint32_t depth;
};
constexpr size_t kCostSize =
    (sizeof(NodeCost) + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);

// The parser's nodes live as long as one demangling: a bump arena freed at once.
class Arena {
 public:
  void reset() {
    blocks_.clear();
    big_blocks_.clear();
    used_ = 0;
  }

  template <typename T, typename... Args>
  Node* makeNode(Args&&... args) {
    NodeCost cost{kNodeOverheadBytes, 1};
    (AddCost(args, &cost), ...);
    if constexpr (std::is_same_v<T, llvm::itanium_demangle::ForwardTemplateReference>) {
      has_forward_references_ = true;
    }
    too_costly_ =
        too_costly_ || cost.printed_bytes > kMaxPrintedBytes || cost.depth > kMaxTreeDepth;
    auto* header = static_cast<NodeCost*>(Allocate(kCostSize + sizeof(T)));
    *header = cost;
    return new (reinterpret_cast<char*>(header) + kCostSize) T(std::forward<Args>(args)...);
  }

  void* allocateNodeArray(size_t count) { return Allocate(count * sizeof(Node*)); }

  bool too_costly() const { return too_costly_; }
  bool has_forward_references() const { return has_forward_references_; }

 private:
  static constexpr size_t kBlockSize = 16 * 1024;
  // Punctuation and keywords a node prints beyond its names and children.
  static constexpr uint64_t kNodeOverheadBytes = 16;

  static const NodeCost& CostOf(const Node* node) {
    return *reinterpret_cast<const NodeCost*>(reinterpret_cast<const char*>(node) - kCostSize);
  }
  static void AddChild(const Node* child, NodeCost* cost) {
    if (!child) return;
    const NodeCost& child_cost = CostOf(child);
    cost->printed_bytes = std::min(cost->printed_bytes + child_cost.printed_bytes, kSaturated);
    cost->depth = std::max(cost->depth, child_cost.depth + 1);
  }
  template <typename Arg>
  static void AddCost(const Arg& arg, NodeCost* cost) {
    using Plain = std::decay_t<Arg>;
    if constexpr (std::is_convertible_v<Plain, const Node*>) {
      AddChild(arg, cost);
    } else if constexpr (std::is_same_v<Plain, NodeArray>) {
      for (const Node* child : arg) AddChild(child, cost);
    } else if constexpr (std::is_same_v<Plain, std::string_view>) {
      cost->printed_bytes = std::min(cost->printed_bytes + arg.size(), kSaturated);
    }
  }
  static constexpr uint64_t kSaturated = uint64_t{1} << 62;

  // Memory in whole units of the most aligned type, so that every node
  // starts aligned (a unit's size is a multiple of its alignment, and may
  // exceed it: 32 bytes aligned to 16 on x86-64).
  using Unit = std::max_align_t;
  static constexpr size_t kBlockUnits = kBlockSize / sizeof(Unit);

  void* Allocate(size_t size) {
    size_t units = (size + sizeof(Unit) - 1) / sizeof(Unit);
    if (units > kBlockUnits) {
      big_blocks_.emplace_back(new Unit[units]);
      return big_blocks_.back().get();
    }
    if (blocks_.empty() || used_ + units > kBlockUnits) {
      blocks_.emplace_back(new Unit[kBlockUnits]);
      used_ = 0;
    }
    void* memory = blocks_.back().get() + used_;
    used_ += units;
    return memory;
  }

  std::vector<std::unique_ptr<Unit[]>> blocks_;
  std::vector<std::unique_ptr<Unit[]>> big_blocks_;
  size_t used_ = 0;  // units of the last block
  bool too_costly_ = false;
  bool has_forward_references_ = false;
};

// LLVM's parser with a bound on its recursion: every nested construct goes
// through one of these entry points.
class BoundedParser : public llvm::itanium_demangle::AbstractManglingParser<BoundedParser, Arena> {
  using Base = llvm::itanium_demangle::AbstractManglingParser<BoundedParser, Arena>;

 public:
  using Base::Base;

  Node* parseType() {
    return Nested([this] { return Base::parseType(); });
  }
  Node* parseExpr() {
    return Nested([this] { return Base::parseExpr(); });
  }
  Node* parseName(NameState* state = nullptr) {
    return Nested([this, state] { return Base::parseName(state); });
  }
  Node* parseEncoding(bool parse_params = true) {
    return Nested([this, parse_params] { return Base::parseEncoding(parse_params); });
  }
  Node* parseTemplateArg() {
    return Nested([this] { return Base::parseTemplateArg(); });
  }

  bool too_deep() const { return too_deep_; }

 private:
  template <typename Parse>
  Node* Nested(Parse parse) {
    if (depth_ >= kMaxParseDepth) {
      too_deep_ = true;
      return nullptr;
    }
    ++depth_;
    Node* node = parse();
    --depth_;
    return node;
  }

  unsigned depth_ = 0;
  bool too_deep_ = false;
};

struct FreeBuffer {
  void operator()(char* buffer) const { std::free(buffer); }
};

}  // namespace

std::optional<std::string> DemangleItanium(std::string_view mangled) {
  // Mach-O adds an underscore to every C-level name: "__Z…", "____Z…_block_invoke".
  if (mangled.substr(0, 3) == "__Z" || mangled.substr(0, 5) == "____Z") mangled.remove_prefix(1);
  // Only whole symbols: LLVM's parser would also read "c" as the type char.
  if (mangled.substr(0, 2) != "_Z" && mangled.substr(0, 4) != "___Z") return std::nullopt;
  if (mangled.size() > kMaxNameBytes) return std::nullopt;
  BoundedParser parser(mangled.data(), mangled.data() + mangled.size());
  Node* tree = parser.parse();
  const Arena& arena = parser.ASTAllocator;
  if (!tree || parser.too_deep() || arena.too_costly()) return std::nullopt;
  if (arena.has_forward_references() && mangled.size() > kMaxNameBytesWithForwardReferences) {
    return std::nullopt;
  }
  llvm::itanium_demangle::OutputBuffer out;
  tree->print(out);
  std::unique_ptr<char, FreeBuffer> buffer(out.getBuffer());
  return std::string(buffer.get(), out.getCurrentPosition());
}

}  // namespace instrumentscope::demangle
