// Demangling of Swift symbol names as they appear in Instruments recordings.
//
// Reads the Swift 4 and later manglings: "$s", "_$s", "$S", "_$S", "_T0", embedded Swift ("$e",
// "_$e"), macro expansion file names ("@__swiftmacro_") and the async main entry point; and the
// pre-Swift-4 "_T" mangling (old_parser.h says what of it). Does not read (returns nullopt for)
// names holding symbolic references, which only occur inside binaries, nor C symbols that merely
// start with "_T" ("_TIFFmalloc"). Untrusted input is safe: every name is bounded in
// length, nesting, memory and output (demangle/swift/limits.h).
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_SWIFT_DEMANGLE_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_SWIFT_DEMANGLE_H_

#include <optional>
#include <string>
#include <string_view>

#include "demangle/style.h"

namespace instrumentscope::demangle {

// The readable form of a Swift-mangled name, spelled in `style`; nullopt when `mangled` is not a
// Swift mangling this demangler understands (callers then keep it unchanged).
std::optional<std::string> DemangleSwift(std::string_view mangled, Style style);

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_SWIFT_DEMANGLE_H_
