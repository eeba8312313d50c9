// Demangling one whole Swift symbol with given print options: prefix recognition, parsing and
// printing. DemangleSwift is this with the options of a Style; the printer calls it for mangled
// names nested in specialization payloads.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_SYMBOL_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_SYMBOL_H_

#include <optional>
#include <string>
#include <string_view>

#include "demangle/swift/print_options.h"

namespace instrumentscope::demangle::swift {

// `nesting` is how many symbols are being printed around this one; past kMaxNestedSymbols the
// answer is nullopt.
std::optional<std::string> DemangleSymbol(std::string_view mangled, const PrintOptions& options,
                                          int nesting);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_SYMBOL_H_
