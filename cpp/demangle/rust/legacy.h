// Rust's legacy mangling: "_ZN" (also "__ZN" as Mach-O spells it, and "ZN" as
// Windows' dbghelp leaves it), length-prefixed path elements, "E", and then
// possibly a suffix such as ".exit.i.i" that the caller judges. The last element
// is usually the hash "h<16 hex digits>". Elements are ASCII with "$…$" escapes
// and ".." for "::". C++ names whose nested name holds anything but plain
// length-prefixed elements ("_ZN3foo3barEv", "_ZNK…", templates) are not read.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_LEGACY_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_LEGACY_H_

#include <optional>
#include <string_view>

#include "demangle/rust/output_buffer.h"
#include "demangle/style.h"

namespace instrumentscope::demangle::rust {

struct LegacySymbol {
  std::string_view elements;  // the length-prefixed elements, between "_ZN" and "E"
  std::string_view suffix;    // everything after the "E"
};

// nullopt when `symbol` is no legacy mangling (the suffix is not looked at).
std::optional<LegacySymbol> ParseLegacy(std::string_view symbol);

// The elements joined with "::"; in kInstruments without a hash last element.
bool PrintLegacy(const LegacySymbol& symbol, Style style, OutputBuffer* out);

// One element with its escapes resolved. An escape it does not know ends the
// unescaping: the rest of the element is printed as it is.
bool AppendLegacyElement(std::string_view element, OutputBuffer* out);

// "h" and hex digits: the element rustc appends to tell instances apart.
bool IsLegacyHash(std::string_view element);

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_LEGACY_H_
