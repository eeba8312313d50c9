// Itanium C++ names (as Mach-O symbol tables keep them, "__ZN…") made
// readable, spelled as Apple's tools print them: through LLVM's Itanium
// demangler, the one libc++abi ships, in the native and the wasm build alike.
#ifndef INSTRUMENTSCOPE_DEMANGLE_ITANIUM_H_
#define INSTRUMENTSCOPE_DEMANGLE_ITANIUM_H_

#include <optional>
#include <string>
#include <string_view>

namespace instrumentscope::demangle {

// The readable form of an Itanium-mangled name ("_Z…", or a block
// "___Z…_block_invoke"), without Mach-O's extra leading underscore; nullopt
// when `mangled` is no such name.
std::optional<std::string> DemangleItanium(std::string_view mangled);

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_ITANIUM_H_
