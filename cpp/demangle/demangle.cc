#include "demangle/demangle.h"

#include "base/text.h"
#include "demangle/itanium.h"
#include "demangle/rust/rust_demangle.h"
#include "demangle/swift/swift_demangle.h"

namespace instrumentscope::demangle {
namespace {

// dyld's stubs for calls into other images, as symbol archives name them.
constexpr std::string_view kStubPrefix = "DYLD-STUB$$";

std::optional<std::string> DemangleSymbol(std::string_view name, Style style) {
  // Swift first: its manglings cannot be Itanium names. Rust next: a legacy
  // Rust name is a valid Itanium name too, but only Rust's demangler drops
  // its hash and unescapes its "$LT$"s.
  if (auto swift = DemangleSwift(name, style)) return swift;
  if (auto rust = DemangleRust(name, style)) return rust;
  return DemangleItanium(name);
}

}  // namespace

std::optional<std::string> Demangle(std::string_view name, Style style) {
  if (StartsWith(name, kStubPrefix)) {
    auto target = DemangleSymbol(name.substr(kStubPrefix.size()), style);
    if (!target) return std::nullopt;
    return std::string(kStubPrefix) + *target;
  }
  return DemangleSymbol(name, style);
}

}  // namespace instrumentscope::demangle
