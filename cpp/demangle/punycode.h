// RFC 3492's Punycode decoding, shared by the Swift and Rust demanglers, which
// both spell non-ASCII identifiers so but with digits of their own: Swift
// 'a'-'z' then 'A'-'J', Rust 'a'-'z' then '0'-'9'. Each checks the decoded
// code points as its scheme requires and turns them into UTF-8.
#ifndef INSTRUMENTSCOPE_DEMANGLE_PUNYCODE_H_
#define INSTRUMENTSCOPE_DEMANGLE_PUNYCODE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace instrumentscope::demangle {

// A delta character's digit value (0-35), or -1 for a character no digit.
using PunycodeDigit = int (*)(char c);

// Decodes `basic` (the code points before the delimiter, copied as they are)
// and `deltas` (the variable-length integers after it) into `points`, room
// for `capacity` code points; `*count` says how many. False for a delta that
// ends early, holds a non-digit or overflows, for a code point past
// U+10FFFF, or for more code points than `capacity`.
bool DecodePunycode(std::string_view basic, std::string_view deltas, PunycodeDigit digit,
                    uint32_t* points, size_t capacity, size_t* count);

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_PUNYCODE_H_
