// The values of v0 const generic arguments: integers and UTF-8 text spelled as
// hex nibbles, and chars and strings spelled as Rust literals.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_V0_LITERALS_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_V0_LITERALS_H_

#include <cstdint>
#include <string_view>

#include "demangle/rust/output_buffer.h"

namespace instrumentscope::demangle::rust {

// Most significant nibble first; false when the value needs more than 64 bits.
bool ParseHexU64(std::string_view nibbles, uint64_t* value);

// Whether the nibbles are pairs that make valid UTF-8 (no overlong forms,
// surrogates or values past U+10FFFF).
bool IsHexUtf8(std::string_view nibbles);
// The character at `*pos` of nibbles IsHexUtf8 accepted; moves `*pos` past it.
uint32_t NextHexUtf8(std::string_view nibbles, size_t* pos);

// `code_point` as it reads inside a literal quoted with `quote` ('\'' or '"'):
// the other kind of quote as it is, \0 \t \r \n \\ \' \" escaped, and what
// does not print as \u{hex}. Which characters print follows Unicode only
// approximately: controls, separators other than ' ', format characters,
// private use, noncharacters, the common combining-mark blocks and the
// unassigned planes are escaped; other characters print as themselves.
bool AppendLiteralChar(uint32_t code_point, char quote, OutputBuffer* out);

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_V0_LITERALS_H_
