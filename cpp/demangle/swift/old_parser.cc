// The old parser's core: cursor, numbers, identifiers, substitutions, and the top level of a name
// (specialization and other attributes, the global, a suffix).
#include "demangle/swift/old_parser.h"

#include <string>

#include "demangle/swift/punycode.h"

namespace instrumentscope::demangle::swift {
namespace {

// Numbers past this fail, or saturate where the caller asks.
constexpr uint64_t kMaxNumber = 0xFFFFFFFF;

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Operator names are spelled with one letter per character, 'a' to 'z'; a blank is a letter
// that stands for nothing.
constexpr std::string_view kOperatorLetters = "& @/= >    <*!|+?%-~   ^ .";

// Characters of a non-ASCII operator pass through unchanged.
bool DecodeOperatorName(std::string_view letters, std::string& out) {
  for (char c : letters) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      out += c;
      continue;
    }
    if (c < 'a' || c > 'z' || kOperatorLetters[c - 'a'] == ' ') return false;
    out += kOperatorLetters[c - 'a'];
  }
  return true;
}

// Text after a complete mangling: what the compiler appends (".cold", "_promote0", a number), or
// the rest of a mangling whose end the reference demangler also leaves unread, which in this
// scheme holds a '_'. The tail of a C name that merely starts like a mangling ("_TtBootstrap"
// reads Builtin.NativeObject, then "otstrap") is neither.
bool IsPlausibleSuffix(std::string_view suffix) {
  bool digits = true;
  for (char c : suffix) {
    if (c <= ' ' || c > '~') return false;
    digits = digits && IsDigit(c);
  }
  return digits || suffix[0] == '.' || suffix.find('_') != std::string_view::npos;
}

struct StandardType {
  char code;
  NodeKind kind;
  std::string_view name;
};

constexpr StandardType kStandardTypes[] = {
    {'a', NodeKind::kStructure, "Array"},
    {'b', NodeKind::kStructure, "Bool"},
    {'c', NodeKind::kStructure, "UnicodeScalar"},
    {'d', NodeKind::kStructure, "Double"},
    {'f', NodeKind::kStructure, "Float"},
    {'i', NodeKind::kStructure, "Int"},
    {'V', NodeKind::kStructure, "UnsafeRawPointer"},
    {'v', NodeKind::kStructure, "UnsafeMutableRawPointer"},
    {'P', NodeKind::kStructure, "UnsafePointer"},
    {'p', NodeKind::kStructure, "UnsafeMutablePointer"},
    {'q', NodeKind::kEnum, "Optional"},
    {'Q', NodeKind::kEnum, "ImplicitlyUnwrappedOptional"},
    {'R', NodeKind::kStructure, "UnsafeBufferPointer"},
    {'r', NodeKind::kStructure, "UnsafeMutableBufferPointer"},
    {'S', NodeKind::kStructure, "String"},
    {'u', NodeKind::kStructure, "UInt"},
};

}  // namespace

Node* OldParser::ParseSymbol() {
  // A name read from a fixed-size buffer may carry a NUL and garbage after it.
  text_ = text_.substr(0, text_.find('\0'));
  if (!NextIf("_T")) return nullptr;
  Node* global = Make(NodeKind::kGlobal);
  if (NextIf("TS")) {
    global = ParseSpecializations(global);
  } else if (Node* attribute = ParseAttribute()) {
    global = Add(global, attribute);
  }
  global = Add(global, ParseGlobal());
  if (global && !AtEnd()) {
    std::string_view suffix = text_.substr(pos_);
    if (!IsPlausibleSuffix(suffix)) return nullptr;
    global = Add(global, MakeText(NodeKind::kSuffix, suffix));
  }
  return factory_.ok() ? global : nullptr;
}

// One or more "_TTS" attributes (the first "_TTS" already read), then "_T" and the global.
Node* OldParser::ParseSpecializations(Node* global) {
  do {
    global = Add(global, ParseSpecialization());
    // Each specialization has its own substitutions, shared with nothing after it.
    substitutions_ = ArenaVector<Node*>();
  } while (global && NextIf("_TTS"));
  return NextIf("_T") ? global : nullptr;
}

// The attribute a "_TT" name may carry before its global; nullptr when there is none.
Node* OldParser::ParseAttribute() {
  static constexpr struct {
    std::string_view code;
    NodeKind kind;
  } kAttributes[] = {
      {"To", NodeKind::kObjCAttribute},    {"TO", NodeKind::kNonObjCAttribute},
      {"TD", NodeKind::kDynamicAttribute}, {"Td", NodeKind::kDirectMethodReferenceAttribute},
      {"TV", NodeKind::kVTableAttribute},
  };
  for (const auto& attribute : kAttributes) {
    if (NextIf(attribute.code)) return Make(attribute.kind);
  }
  return nullptr;
}

bool OldParser::NextIf(char c) {
  if (AtEnd() || text_[pos_] != c) return false;
  ++pos_;
  return true;
}

bool OldParser::NextIf(std::string_view s) {
  if (text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

// Digits; with `saturate` a number past kMaxNumber reads as kMaxNumber instead of failing.
bool OldParser::ParseNatural(uint64_t& value, bool saturate) {
  if (!IsDigit(Peek())) return false;
  value = 0;
  while (IsDigit(Peek())) {
    uint64_t digit = static_cast<uint64_t>(Next() - '0');
    if (value > (kMaxNumber - digit) / 10) {
      if (!saturate) return false;
      value = kMaxNumber;
    } else {
      value = value * 10 + digit;
    }
  }
  return true;
}

// "_" is 0, "<n>_" is n + 1.
bool OldParser::ParseIndex(uint64_t& value, bool saturate) {
  if (NextIf('_')) {
    value = 0;
    return true;
  }
  if (!ParseNatural(value, saturate) || !NextIf('_')) return false;
  ++value;
  return true;
}

Node* OldParser::ParseIndexAsNode() {
  uint64_t index = 0;
  return ParseIndex(index) ? MakeIndex(NodeKind::kNumber, index) : nullptr;
}

// identifier ::= 'X'? ('o' ('p' | 'P' | 'i'))? length name; 'X' marks Punycode, 'o' an operator
// (not allowed where `kind` names something else than a plain identifier).
Node* OldParser::ParseIdentifier(NodeKind kind) {
  bool punycoded = NextIf('X');
  if (NextIf('o')) {
    if (kind != NodeKind::kIdentifier) return nullptr;
    switch (Next()) {
      case 'p': kind = NodeKind::kPrefixOperator; break;
      case 'P': kind = NodeKind::kPostfixOperator; break;
      case 'i': kind = NodeKind::kInfixOperator; break;
      default: return nullptr;
    }
  }
  uint64_t length = 0;
  if (!ParseNatural(length) || length == 0 || length > text_.size() - pos_) return nullptr;
  std::string_view name = text_.substr(pos_, length);
  pos_ += length;
  return DecodeIdentifier(kind, name, punycoded);
}

Node* OldParser::DecodeIdentifier(NodeKind kind, std::string_view name, bool punycoded) {
  bool is_operator = kind == NodeKind::kPrefixOperator || kind == NodeKind::kPostfixOperator ||
                     kind == NodeKind::kInfixOperator;
  if (!punycoded && !is_operator) return MakeText(kind, name);
  std::string decoded;
  if (punycoded) {
    if (!DecodePunycode(name, decoded) || decoded.empty()) return nullptr;
    name = decoded;
  }
  std::string spelled;
  if (is_operator) {
    if (!DecodeOperatorName(name, spelled)) return nullptr;
    name = spelled;
  }
  return factory_.CreateText(kind, name);
}

// After 'S': a standard module or type, or an index into the names seen so far.
Node* OldParser::ParseSubstitution() {
  if (NextIf('o')) return MakeText(NodeKind::kModule, "__C");
  if (NextIf('C')) return MakeText(NodeKind::kModule, "__C_Synthesized");
  for (const StandardType& type : kStandardTypes) {
    if (NextIf(type.code)) {
      return Make(type.kind, MakeText(NodeKind::kModule, "Swift"),
                  MakeText(NodeKind::kIdentifier, type.name));
    }
  }
  uint64_t index = 0;
  if (!ParseIndex(index) || index >= substitutions_.size()) return nullptr;
  return substitutions_[index];
}

Node* OldParser::AddSubstitution(Node* node) {
  if (node && !substitutions_.PushBack(arena_, node)) return nullptr;
  return node;
}

}  // namespace instrumentscope::demangle::swift
