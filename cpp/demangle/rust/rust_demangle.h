// Rust symbol names made readable: legacy manglings ("_ZN…17h<hash>E"), the
// half-demangled legacy names Instruments shows ("std::rt::lang_start::h…"),
// and v0 manglings ("_R…"), each with the suffixes LLVM adds (".llvm.<hex>",
// dropped; ".exit.i.i" and the like, kept). Input and work are bounded (see
// demangle/rust/limits.h): a name past a limit is left as it is.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_RUST_DEMANGLE_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_RUST_DEMANGLE_H_

#include <optional>
#include <string>
#include <string_view>

#include "demangle/style.h"

namespace instrumentscope::demangle {

// The readable form of a Rust symbol, spelled in `style`; nullopt when `name`
// is no Rust symbol (callers then keep it unchanged).
std::optional<std::string> DemangleRust(std::string_view name, Style style);

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_RUST_DEMANGLE_H_
