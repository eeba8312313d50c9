// Legacy Rust names as Instruments shows them. Instruments runs a C++ demangler
// over legacy symbols, which joins the elements with "::" but leaves each one
// escaped: "_$LT$$RF$std..io..stdio..Stdout$u20$as$u20$std..io..Write$GT$::
// write_fmt::h2cb06dcd2b172844". The hash last element is the signal: a name is
// read only when its last element is "h" and 16 lowercase hex digits and every
// element is a non-empty run of the characters legacy elements are made of
// (ASCII letters, digits, '_', '.', '$'), so C++ and Swift names never match.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_HALF_DEMANGLED_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_HALF_DEMANGLED_H_

#include <string_view>

#include "demangle/rust/output_buffer.h"
#include "demangle/style.h"

namespace instrumentscope::demangle::rust {

bool IsHalfDemangledLegacy(std::string_view name);

// The elements unescaped as legacy elements are, joined with "::"; in
// kInstruments without the hash. `name` must satisfy IsHalfDemangledLegacy.
bool PrintHalfDemangledLegacy(std::string_view name, Style style, OutputBuffer* out);

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_HALF_DEMANGLED_H_
