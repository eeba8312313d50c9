// Mangled symbol names made readable, for every importer and for
// symbolication alike: Swift (every scheme Swift has used), Rust (legacy,
// v0, and the half-demangled legacy names Instruments shows) and Itanium
// C++ (through LLVM's demangler), each also with Mach-O's extra leading
// underscore and behind dyld's "DYLD-STUB$$" prefix. Objective-C and C names,
// and names already readable, are no mangling: they are left as they are.
#ifndef INSTRUMENTSCOPE_DEMANGLE_DEMANGLE_H_
#define INSTRUMENTSCOPE_DEMANGLE_DEMANGLE_H_

#include <optional>
#include <string>
#include <string_view>

#include "demangle/style.h"

namespace instrumentscope::demangle {

// The readable form of `name`; nullopt when it is no mangling understood
// here (callers keep the name unchanged). Hostile names cost bounded time and
// memory: each demangler refuses names too long, too deep or printing too much.
std::optional<std::string> Demangle(std::string_view name, Style style);

// False when `name` cannot be a mangling Demangle reads, from its first
// characters: most C and every Objective-C name and address are told apart
// without a parse.
bool MayBeMangled(std::string_view name);

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_DEMANGLE_H_
