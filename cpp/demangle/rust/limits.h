// The bounds every Rust demangling stays within. Names come from untrusted
// recordings and are demangled in the browser, on wasm's small stack, so each
// kind of work a name can ask for has a fixed ceiling; past one, the name is
// left as it is.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_LIMITS_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_LIMITS_H_

#include <cstddef>
#include <cstdint>

namespace instrumentscope::demangle::rust {

// Real symbols stay within a few KiB; longer names are not read at all.
inline constexpr size_t kMaxInputBytes = 64 * 1024;
// v0 backrefs can repeat text exponentially; demangling stops at this size.
inline constexpr size_t kMaxOutputBytes = 128 * 1024;
// Nesting of v0 paths, types, consts and backrefs: each level costs a few
// stack frames.
inline constexpr uint32_t kMaxDepth = 500;
// Mangled bytes read, re-reads through backrefs included: bounds the time of a
// name that repeats much but prints little.
inline constexpr uint64_t kMaxReadSteps = uint64_t{1} << 22;

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_LIMITS_H_
