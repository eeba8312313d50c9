// The lexical layer of v0 manglings (what follows "_R"): tags, base-62 and
// decimal numbers, identifiers, hex nibbles, backref targets. It also keeps
// the two counters that bound the work of a name: the nesting depth
// (kMaxDepth) and the bytes read (kMaxReadSteps). Once the read budget is
// spent, every read fails and exhausted() says so.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_V0_READER_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_V0_READER_H_

#include <cstdint>
#include <string_view>

#include "demangle/rust/limits.h"

namespace instrumentscope::demangle::rust {

// <undisambiguated-identifier>: plain ASCII, or Punycode when `deltas` is set
// (`ascii` then holds the basic code points).
struct V0Identifier {
  std::string_view ascii;
  std::string_view deltas;
  bool empty() const { return ascii.empty() && deltas.empty(); }
};

class V0Reader {
 public:
  explicit V0Reader(std::string_view text) : text_(text) {}

  size_t position() const { return position_; }
  // The byte at the position, '\0' at the end.
  char Peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  bool Next(char* c);
  // Reads `c` if it is next.
  bool Eat(char c);
  // Only to positions this reader has been at or a backref target.
  void Seek(size_t position) { position_ = position; }
  bool exhausted() const { return exhausted_; }

  // One nesting level deeper; false past kMaxDepth. Leave() undoes it.
  bool Enter() { return ++depth_ <= kMaxDepth; }
  void Leave() { --depth_; }

  // <base-62-number>: "_" is 0, "<digits>_" the digits' value plus 1.
  bool Base62(uint64_t* value);
  // `tag` and a <base-62-number>, read as that number plus 1; 0 without `tag`.
  // Disambiguators ('s') and binders ('G').
  bool OptionalBase62(char tag, uint64_t* value);
  bool Identifier(V0Identifier* identifier);
  // [0-9a-f]* "_", without the "_".
  bool HexNibbles(std::string_view* nibbles);
  // The <base-62-number> after a 'B' just read: a position before that 'B'.
  bool BackrefTarget(size_t* target);

 private:
  bool Step();

  std::string_view text_;
  size_t position_ = 0;
  uint32_t depth_ = 0;
  uint64_t steps_ = 0;
  bool exhausted_ = false;
};

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_V0_READER_H_
