#include "demangle/swift/swift_demangle.h"

#include "demangle/swift/print_options.h"
#include "demangle/swift/symbol.h"

namespace instrumentscope::demangle {

std::optional<std::string> DemangleSwift(std::string_view mangled, Style style) {
  const swift::PrintOptions& options =
      style == Style::kInstruments ? swift::kSimplifiedOptions : swift::kFullOptions;
  return swift::DemangleSymbol(mangled, options, /*nesting=*/0);
}

}  // namespace instrumentscope::demangle
