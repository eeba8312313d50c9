#include "demangle/rust/v0_reader.h"

namespace instrumentscope::demangle::rust {
namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

bool Base62Digit(char c, uint64_t* digit) {
  if (IsDigit(c)) {
    *digit = static_cast<uint64_t>(c - '0');
  } else if (c >= 'a' && c <= 'z') {
    *digit = static_cast<uint64_t>(c - 'a') + 10;
  } else if (c >= 'A' && c <= 'Z') {
    *digit = static_cast<uint64_t>(c - 'A') + 36;
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool V0Reader::Step() {
  if (exhausted_ || ++steps_ > kMaxReadSteps) {
    exhausted_ = true;
    return false;
  }
  return true;
}

bool V0Reader::Next(char* c) {
  if (position_ >= text_.size() || !Step()) return false;
  *c = text_[position_++];
  return true;
}

bool V0Reader::Eat(char c) {
  if (position_ >= text_.size() || text_[position_] != c || !Step()) return false;
  ++position_;
  return true;
}

bool V0Reader::Base62(uint64_t* value) {
  if (Eat('_')) {
    *value = 0;
    return true;
  }
  uint64_t number = 0;
  while (!Eat('_')) {
    char c;
    uint64_t digit;
    if (!Next(&c) || !Base62Digit(c, &digit)) return false;
    if (number > (UINT64_MAX - digit) / 62) return false;
    number = number * 62 + digit;
  }
  if (number == UINT64_MAX) return false;
  *value = number + 1;
  return true;
}

bool V0Reader::OptionalBase62(char tag, uint64_t* value) {
  *value = 0;
  if (!Eat(tag)) return true;
  if (!Base62(value) || *value == UINT64_MAX) return false;
  ++*value;
  return true;
}

bool V0Reader::Identifier(V0Identifier* identifier) {
  bool punycode = Eat('u');
  char c;
  if (!IsDigit(Peek()) || !Next(&c)) return false;
  uint64_t length = static_cast<uint64_t>(c - '0');
  // No leading zeros: "0" is the empty identifier, whatever follows.
  while (length != 0 && IsDigit(Peek())) {
    uint64_t digit = static_cast<uint64_t>(Peek() - '0');
    if (length > (UINT64_MAX - digit) / 10 || !Next(&c)) return false;
    length = length * 10 + digit;
  }
  // A '_' separates the length from an identifier that starts with a digit
  // or a '_'.
  Eat('_');
  if (length > text_.size() - position_) return false;
  std::string_view text = text_.substr(position_, static_cast<size_t>(length));
  position_ += text.size();
  if (!punycode) {
    *identifier = {text, {}};
    return true;
  }
  size_t delimiter = text.rfind('_');
  if (delimiter == std::string_view::npos) {
    *identifier = {{}, text};
  } else {
    *identifier = {text.substr(0, delimiter), text.substr(delimiter + 1)};
  }
  return !identifier->deltas.empty();
}

bool V0Reader::HexNibbles(std::string_view* nibbles) {
  size_t start = position_;
  for (char c;;) {
    if (!Next(&c)) return false;
    if (c == '_') break;
    if (!IsDigit(c) && !(c >= 'a' && c <= 'f')) return false;
  }
  *nibbles = text_.substr(start, position_ - 1 - start);
  return true;
}

bool V0Reader::BackrefTarget(size_t* target) {
  size_t tag_position = position_ - 1;
  uint64_t value;
  if (!Base62(&value) || value >= tag_position) return false;
  *target = static_cast<size_t>(value);
  return true;
}

}  // namespace instrumentscope::demangle::rust
