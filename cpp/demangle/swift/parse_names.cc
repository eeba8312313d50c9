// Identifiers (plain, with word substitutions, Punycode), operators, substitutions, standard
// types, local and private names, and popping modules and contexts off the stack.
#include <iterator>

#include "demangle/swift/limits.h"
#include "demangle/swift/parser.h"
#include "demangle/swift/punycode.h"

namespace instrumentscope::demangle::swift {
namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsLower(char c) {
  return c >= 'a' && c <= 'z';
}
bool IsUpper(char c) {
  return c >= 'A' && c <= 'Z';
}

// Words, the units of word substitution, start at a non-digit, non-'_' character and end before
// '_' or where an uppercase letter follows a character that is not one.
bool IsWordStart(char c) {
  return !IsDigit(c) && c != '_' && c != '\0';
}
bool IsWordEnd(char c, char previous) {
  return c == '_' || c == '\0' || (!IsUpper(previous) && IsUpper(c));
}

struct StandardType {
  char code;
  NodeKind kind;
  std::string_view name;
};

constexpr StandardType kStandardTypes[] = {
    {'A', NodeKind::kStructure, "AutoreleasingUnsafeMutablePointer"},
    {'a', NodeKind::kStructure, "Array"},
    {'B', NodeKind::kProtocol, "BinaryFloatingPoint"},
    {'b', NodeKind::kStructure, "Bool"},
    {'D', NodeKind::kStructure, "Dictionary"},
    {'d', NodeKind::kStructure, "Double"},
    {'E', NodeKind::kProtocol, "Encodable"},
    {'e', NodeKind::kProtocol, "Decodable"},
    {'F', NodeKind::kProtocol, "FloatingPoint"},
    {'f', NodeKind::kStructure, "Float"},
    {'G', NodeKind::kProtocol, "RandomNumberGenerator"},
    {'H', NodeKind::kProtocol, "Hashable"},
    {'h', NodeKind::kStructure, "Set"},
    {'I', NodeKind::kStructure, "DefaultIndices"},
    {'i', NodeKind::kStructure, "Int"},
    {'J', NodeKind::kStructure, "Character"},
    {'j', NodeKind::kProtocol, "Numeric"},
    {'K', NodeKind::kProtocol, "BidirectionalCollection"},
    {'k', NodeKind::kProtocol, "RandomAccessCollection"},
    {'L', NodeKind::kProtocol, "Comparable"},
    {'l', NodeKind::kProtocol, "Collection"},
    {'M', NodeKind::kProtocol, "MutableCollection"},
    {'m', NodeKind::kProtocol, "RangeReplaceableCollection"},
    {'N', NodeKind::kStructure, "ClosedRange"},
    {'n', NodeKind::kStructure, "Range"},
    {'O', NodeKind::kStructure, "ObjectIdentifier"},
    {'P', NodeKind::kStructure, "UnsafePointer"},
    {'p', NodeKind::kStructure, "UnsafeMutablePointer"},
    {'Q', NodeKind::kProtocol, "Equatable"},
    {'q', NodeKind::kEnum, "Optional"},
    {'R', NodeKind::kStructure, "UnsafeBufferPointer"},
    {'r', NodeKind::kStructure, "UnsafeMutableBufferPointer"},
    {'S', NodeKind::kStructure, "String"},
    {'s', NodeKind::kStructure, "Substring"},
    {'T', NodeKind::kProtocol, "Sequence"},
    {'t', NodeKind::kProtocol, "IteratorProtocol"},
    {'U', NodeKind::kProtocol, "UnsignedInteger"},
    {'u', NodeKind::kStructure, "UInt"},
    {'V', NodeKind::kStructure, "UnsafeRawPointer"},
    {'v', NodeKind::kStructure, "UnsafeMutableRawPointer"},
    {'W', NodeKind::kStructure, "UnsafeRawBufferPointer"},
    {'w', NodeKind::kStructure, "UnsafeMutableRawBufferPointer"},
    {'X', NodeKind::kProtocol, "RangeExpression"},
    {'x', NodeKind::kProtocol, "Strideable"},
    {'Y', NodeKind::kProtocol, "RawRepresentable"},
    {'y', NodeKind::kProtocol, "StringProtocol"},
    {'Z', NodeKind::kProtocol, "SignedInteger"},
    {'z', NodeKind::kProtocol, "BinaryInteger"},
};

// The second set, after "Sc": types of the concurrency library.
constexpr StandardType kConcurrencyTypes[] = {
    {'A', NodeKind::kProtocol, "Actor"},
    {'C', NodeKind::kStructure, "CheckedContinuation"},
    {'c', NodeKind::kStructure, "UnsafeContinuation"},
    {'E', NodeKind::kStructure, "CancellationError"},
    {'e', NodeKind::kStructure, "UnownedSerialExecutor"},
    {'F', NodeKind::kProtocol, "Executor"},
    {'f', NodeKind::kProtocol, "SerialExecutor"},
    {'G', NodeKind::kStructure, "TaskGroup"},
    {'g', NodeKind::kStructure, "ThrowingTaskGroup"},
    {'I', NodeKind::kProtocol, "AsyncIteratorProtocol"},
    {'i', NodeKind::kProtocol, "AsyncSequence"},
    {'J', NodeKind::kStructure, "UnownedJob"},
    {'M', NodeKind::kClass, "MainActor"},
    {'P', NodeKind::kStructure, "TaskPriority"},
    {'S', NodeKind::kStructure, "AsyncStream"},
    {'s', NodeKind::kStructure, "AsyncThrowingStream"},
    {'T', NodeKind::kStructure, "Task"},
    {'t', NodeKind::kStructure, "UnsafeCurrentTask"},
};

// Operator characters are mangled as lowercase letters: 'a' is '&', 'c' is '@', and so on; a
// blank means the letter stands for no operator character.
constexpr std::string_view kOperatorChars = "& @/= >    <*!|+?%-~   ^ .";

}  // namespace

Node* Parser::ParseIdentifier() {
  if (!IsDigit(Peek())) return nullptr;
  bool words = false;
  bool punycoded = false;
  if (NextIf('0')) {
    punycoded = NextIf('0');
    words = !punycoded;
  }
  identifier_.clear();
  bool plain = !words && !punycoded;
  do {
    while (words && (IsLower(Peek()) || IsUpper(Peek()))) {
      char c = Next();
      int word = IsLower(c) ? c - 'a' : c - 'A';
      if (IsUpper(c)) words = false;
      if (word >= num_words_) return nullptr;
      identifier_ += words_[word];
      if (identifier_.size() > kMaxInputLength) return nullptr;
    }
    if (NextIf('0')) break;
    if (!AppendIdentifierPart(punycoded)) return nullptr;
  } while (words);
  if (identifier_.empty()) return nullptr;
  // A plain identifier is a slice of the name itself; no copy needed.
  Node* node = plain ? MakeText(NodeKind::kIdentifier,
                                text_.substr(pos_ - identifier_.size(), identifier_.size()))
                     : factory_.CreateText(NodeKind::kIdentifier, identifier_);
  AddSubstitution(node);
  return node;
}

bool Parser::AppendIdentifierPart(bool punycoded) {
  int length = ParseNatural();
  if (length <= 0) return false;
  if (punycoded) NextIf('_');
  if (pos_ > text_.size() || static_cast<size_t>(length) > text_.size() - pos_) return false;
  std::string_view slice = text_.substr(pos_, static_cast<size_t>(length));
  pos_ += slice.size();
  if (punycoded) return DecodePunycode(slice, identifier_);
  identifier_ += slice;
  RecordWords(slice);
  return identifier_.size() <= kMaxInputLength;
}

void Parser::RecordWords(std::string_view slice) {
  size_t word_start = std::string_view::npos;
  for (size_t i = 0; i <= slice.size(); ++i) {
    char c = i < slice.size() ? slice[i] : '\0';
    if (word_start != std::string_view::npos && IsWordEnd(c, slice[i - 1])) {
      if (i - word_start >= 2 && num_words_ < static_cast<int>(std::size(words_))) {
        words_[num_words_++] = slice.substr(word_start, i - word_start);
      }
      word_start = std::string_view::npos;
    }
    if (word_start == std::string_view::npos && IsWordStart(c)) word_start = i;
  }
}

Node* Parser::ParseOperatorIdentifier() {
  Node* name = Pop(NodeKind::kIdentifier);
  if (!name) return nullptr;
  identifier_.clear();
  for (char c : name->text()) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      identifier_ += c;  // Non-ASCII operator characters are kept as they are.
      continue;
    }
    if (!IsLower(c) || kOperatorChars[c - 'a'] == ' ') return nullptr;
    identifier_ += kOperatorChars[c - 'a'];
  }
  NodeKind kind;
  switch (Next()) {
    case 'i': kind = NodeKind::kInfixOperator; break;
    case 'p': kind = NodeKind::kPrefixOperator; break;
    case 'P': kind = NodeKind::kPostfixOperator; break;
    default: return nullptr;
  }
  return factory_.CreateText(kind, identifier_);
}

Node* Parser::ParseLocalIdentifier() {
  if (NextIf('L')) {
    Node* discriminator = Pop(NodeKind::kIdentifier);
    Node* name = PopIf(IsDeclNameKind);
    return Make(NodeKind::kPrivateDeclName, discriminator, name);
  }
  if (NextIf('l')) return Make(NodeKind::kPrivateDeclName, Pop(NodeKind::kIdentifier));
  char c = Peek();
  if ((c >= 'a' && c <= 'j') || (c >= 'A' && c <= 'J')) {
    Node* kind = MakeText(NodeKind::kIdentifier, text_.substr(pos_++, 1));
    return Make(NodeKind::kRelatedEntityDeclName, kind, Pop());
  }
  Node* discriminator = ParseIndexAsNode();
  Node* name = PopIf(IsDeclNameKind);
  return Make(NodeKind::kLocalDeclName, discriminator, name);
}

Node* Parser::ParseMultiSubstitutions() {
  int repeat = -1;
  while (true) {
    if (AtEnd()) return nullptr;
    char c = Next();
    if (IsLower(c)) {
      Node* node = PushMultiSubstitutions(repeat, static_cast<size_t>(c - 'a'));
      if (!node || !Push(node)) return nullptr;
      repeat = -1;
      continue;
    }
    if (IsUpper(c)) return PushMultiSubstitutions(repeat, static_cast<size_t>(c - 'A'));
    if (c == '_') {
      // The number before '_' was an index past the 26 letters, not a repeat count.
      size_t index = static_cast<size_t>(repeat + 27);
      return index < substitutions_.size() ? substitutions_[index] : nullptr;
    }
    PushBack();
    repeat = ParseNatural();
    if (repeat < 0) return nullptr;
  }
}

Node* Parser::PushMultiSubstitutions(int repeat, size_t index) {
  if (index >= substitutions_.size() || repeat > kMaxRepeatCount) return nullptr;
  Node* node = substitutions_[index];
  for (; repeat > 1; --repeat) {
    if (!Push(node)) return nullptr;
  }
  return node;
}

Node* Parser::ParseStandardSubstitution() {
  switch (Next()) {
    case 'o': return MakeText(NodeKind::kModule, "__C");
    case 'C': return MakeText(NodeKind::kModule, "__C_Synthesized");
    case 'g': {
      Node* optional =
          MakeType(Make(NodeKind::kBoundGenericEnum, MakeSwiftType(NodeKind::kEnum, "Optional"),
                        Make(NodeKind::kTypeList, Pop(NodeKind::kType))));
      AddSubstitution(optional);
      return optional;
    }
    default: {
      PushBack();
      int repeat = ParseNatural();
      if (repeat > kMaxRepeatCount) return nullptr;
      bool concurrency = NextIf('c');
      Node* node = MakeStandardType(Next(), concurrency);
      for (; node && repeat > 1; --repeat) {
        if (!Push(node)) return nullptr;
      }
      return node;
    }
  }
}

Node* Parser::MakeStandardType(char code, bool concurrency) {
  const StandardType* begin =
      concurrency ? std::begin(kConcurrencyTypes) : std::begin(kStandardTypes);
  const StandardType* end = concurrency ? std::end(kConcurrencyTypes) : std::end(kStandardTypes);
  for (const StandardType* type = begin; type != end; ++type) {
    if (type->code == code) return MakeSwiftType(type->kind, type->name);
  }
  return nullptr;
}

Node* Parser::MakeSwiftType(NodeKind kind, std::string_view name) {
  return MakeType(
      Make(kind, MakeText(NodeKind::kModule, "Swift"), MakeText(NodeKind::kIdentifier, name)));
}

Node* Parser::PopModule() {
  if (Node* identifier = Pop(NodeKind::kIdentifier)) {
    return MakeText(NodeKind::kModule, identifier->text());
  }
  return Pop(NodeKind::kModule);
}

Node* Parser::PopContext() {
  if (Node* module = PopModule()) return module;
  if (Node* type = Pop(NodeKind::kType)) {
    Node* child = type->child(0);
    if (type->num_children() != 1 || !IsContextKind(child->kind())) return nullptr;
    return child;
  }
  return PopIf(IsContextKind);
}

Node* Parser::PopTypeAndGetChild() {
  Node* type = Pop(NodeKind::kType);
  return type && type->num_children() == 1 ? type->child(0) : nullptr;
}

Node* Parser::PopTypeAndGetAnyGeneric() {
  Node* child = PopTypeAndGetChild();
  return child && IsAnyGenericKind(child->kind()) ? child : nullptr;
}

}  // namespace instrumentscope::demangle::swift
