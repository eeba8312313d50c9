// Punycode (RFC 3492) as v0 manglings use it for non-ASCII identifiers: the
// basic code points come before the last '_' instead of the last '-'. Decodes
// at most kMaxPunycodeChars characters; longer identifiers are refused, and
// the caller prints them in their encoded form.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_PUNYCODE_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_PUNYCODE_H_

#include <array>
#include <cstdint>
#include <string_view>

#include "demangle/rust/output_buffer.h"

namespace instrumentscope::demangle::rust {

inline constexpr size_t kMaxPunycodeChars = 128;
// Decoding space, kept by the caller so that it stays out of the stack frames
// of a recursive printer.
using PunycodeScratch = std::array<uint32_t, kMaxPunycodeChars>;

// Appends the identifier `basic` + `deltas` encode. False when `out` is full,
// and, having appended nothing, when `deltas` is empty or malformed, decodes to
// something that is no Unicode scalar value, or makes more than
// kMaxPunycodeChars characters.
bool AppendPunycode(std::string_view basic, std::string_view deltas, PunycodeScratch* scratch,
                    OutputBuffer* out);

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_PUNYCODE_H_
