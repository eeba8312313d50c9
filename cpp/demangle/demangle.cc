#include "demangle/demangle.h"

#include "base/text.h"
#include "demangle/itanium.h"
#include "demangle/rust/rust_demangle.h"
#include "demangle/swift/swift_demangle.h"

namespace instrumentscope::demangle {
namespace {

// dyld's stubs for calls into other images, as symbol archives name them.
constexpr std::string_view kStubPrefix = "DYLD-STUB$$";

std::optional<std::string> DemangleScheme(std::string_view name, Style style) {
  // Swift first: its manglings cannot be Itanium names. Rust next: a legacy
  // Rust name is a valid Itanium name too, but only Rust's demangler drops
  // its hash and unescapes its "$LT$"s.
  if (auto swift = DemangleSwift(name, style)) return swift;
  if (auto rust = DemangleRust(name, style)) return rust;
  return DemangleItanium(name);
}

std::optional<std::string> DemangleSymbol(std::string_view name, Style style) {
  std::optional<std::string> readable = DemangleScheme(name, style);
  // A name that reads as nothing (a Rust path of only its hash, without the
  // hash) stays as the input spells it: a frame always has a name.
  if (readable && readable->empty()) return std::nullopt;
  return readable;
}

}  // namespace

bool MayBeMangled(std::string_view name) {
  if (name.empty()) return false;
  switch (name[0]) {
    case '_':  // _Z, _R, _T, _$s and Mach-O's underscore before them
    case '$':  // $s, $S, $e
    case '@':  // @__swiftmacro_
    case 'D':  // DYLD-STUB$$
    case 'R':  // v0 without its underscore
    case 'Z':  // legacy Rust without its underscore
    case 'a':  // async_Main
      return true;
    default:
      // Rust's legacy names as Instruments half demangles them end "::h" + 16 hex digits.
      return name.find("::h") != std::string_view::npos;
  }
}

std::optional<std::string> Demangle(std::string_view name, Style style) {
  if (!MayBeMangled(name)) return std::nullopt;
  if (StartsWith(name, kStubPrefix)) {
    auto target = DemangleSymbol(name.substr(kStubPrefix.size()), style);
    if (!target) return std::nullopt;
    return std::string(kStubPrefix) + *target;
  }
  return DemangleSymbol(name, style);
}

}  // namespace instrumentscope::demangle
