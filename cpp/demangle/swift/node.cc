#include "demangle/swift/node.h"

#include <algorithm>
#include <new>

#include "demangle/swift/limits.h"

namespace instrumentscope::demangle::swift {

Node* NodeFactory::Allocate() {
  if (!ok_ || nodes_ >= kMaxNodes) {
    ok_ = false;
    return nullptr;
  }
  void* memory = arena_.Allocate(sizeof(Node), alignof(Node));
  if (!memory) {
    ok_ = false;
    return nullptr;
  }
  ++nodes_;
  return new (memory) Node();
}

Node* NodeFactory::Create(NodeKind kind) {
  Node* node = Allocate();
  if (node) node->kind_ = kind;
  return node;
}

Node* NodeFactory::CreateText(NodeKind kind, std::string_view text) {
  char* copy = arena_.AllocateArray<char>(text.size() + 1);
  if (!copy) {
    ok_ = false;
    return nullptr;
  }
  std::copy(text.begin(), text.end(), copy);
  return CreateTextView(kind, std::string_view(copy, text.size()));
}

Node* NodeFactory::CreateTextView(NodeKind kind, std::string_view text) {
  Node* node = Create(kind);
  if (!node) return nullptr;
  node->payload_ = Node::Payload::kText;
  node->text_ = text.data();
  node->text_size_ = text.size();
  return node;
}

Node* NodeFactory::CreateIndex(NodeKind kind, uint64_t index) {
  Node* node = Create(kind);
  if (!node) return nullptr;
  node->payload_ = Node::Payload::kIndex;
  node->index_ = index;
  return node;
}

bool NodeFactory::AddChild(Node* parent, Node* child) {
  if (!parent || !child || !ok_) return false;
  // Refusing tall trees here keeps every later walk of the tree within kMaxTreeHeight.
  if (child->height_ + 1 > kMaxTreeHeight) {
    ok_ = false;
    return false;
  }
  if (parent->num_children_ == parent->capacity_) {
    uint32_t capacity = parent->capacity_ == 0 ? 2 : parent->capacity_ * 2;
    Node** children = arena_.AllocateArray<Node*>(capacity);
    if (!children) {
      ok_ = false;
      return false;
    }
    std::copy(parent->children_, parent->children_ + parent->num_children_, children);
    parent->children_ = children;
    parent->capacity_ = capacity;
  }
  parent->children_[parent->num_children_++] = child;
  parent->height_ = std::max<uint16_t>(parent->height_, child->height_ + 1);
  return true;
}

void NodeFactory::RemoveChild(Node* parent, size_t index) {
  if (index >= parent->num_children_) return;
  std::copy(parent->children_ + index + 1, parent->children_ + parent->num_children_,
            parent->children_ + index);
  --parent->num_children_;
}

void NodeFactory::ReverseChildren(Node* parent, size_t from) {
  if (from < parent->num_children_) {
    std::reverse(parent->children_ + from, parent->children_ + parent->num_children_);
  }
}

std::string_view NodeKindName(NodeKind kind) {
  static constexpr std::string_view kNames[] = {
#define SWIFT_NODE_KIND(Name) #Name,
#include "demangle/swift/node_kinds.inc"
#undef SWIFT_NODE_KIND
  };
  return kNames[static_cast<size_t>(kind)];
}

namespace {

void DumpNode(const Node* node, int depth, std::string& out) {
  out.append(static_cast<size_t>(depth) * 2, ' ');
  out += NodeKindName(node->kind());
  if (node->has_text()) {
    out += " \"";
    out += node->text();
    out += '"';
  } else if (node->has_index()) {
    out += ' ';
    out += std::to_string(node->index());
  }
  out += '\n';
  for (const Node* child : *node) DumpNode(child, depth + 1, out);
}

}  // namespace

std::string DumpTree(const Node* root) {
  std::string out;
  if (root) DumpNode(root, 0, out);
  return out;
}

}  // namespace instrumentscope::demangle::swift
