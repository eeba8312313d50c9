#include "demangle/swift/symbol.h"

#include "demangle/swift/arena.h"
#include "demangle/swift/limits.h"
#include "demangle/swift/node.h"
#include "demangle/swift/old_parser.h"
#include "demangle/swift/parser.h"
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The length of a Swift 4+ mangling prefix, 0 when there is none.
size_t PrefixLength(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {
      "_T0",  // Swift 4.0
      "$S",
      "_$S",  // Swift 4.2
      "$s",
      "_$s",  // Swift 5 and later
      "$e",
      "_$e",            // Embedded Swift
      "@__swiftmacro_"  // File names of macro expansions
  };
  for (std::string_view prefix : kPrefixes) {
    if (StartsWith(name, prefix)) return prefix.size();
  }
  return 0;
}

constexpr std::string_view kAsyncMain = "async_Main";

std::optional<std::string> ParseAndPrint(std::string_view name, size_t start, bool async_main,
                                         const PrintOptions& options, int nesting) {
  Arena arena;
  NodeFactory factory(arena);
  Parser parser(name, start, /*labels_in_tuples=*/StartsWith(name, "_T0"), arena, factory);
  // The entry point of an async main has a name but no mangling of its own; the operators after
  // it (continuations, function pointers) apply to it.
  Node* first = async_main ? factory.Create(NodeKind::kAsyncMainEntryPoint) : nullptr;
  Node* root = parser.ParseSymbol(first);
  if (!root) return std::nullopt;
  return Printer(options, nesting).PrintRoot(root);
}

std::optional<std::string> ParseAndPrintOld(std::string_view name, const PrintOptions& options,
                                            int nesting) {
  Arena arena;
  NodeFactory factory(arena);
  Node* root = OldParser(name, arena, factory).ParseSymbol();
  if (!root) return std::nullopt;
  return Printer(options, nesting).PrintRoot(root);
}

}  // namespace

std::optional<std::string> DemangleSymbol(std::string_view mangled, const PrintOptions& options,
                                          int nesting) {
  if (mangled.size() > kMaxInputLength || nesting > kMaxNestedSymbols) return std::nullopt;
  // As swift-demangle does, a doubled leading underscore counts once.
  if (StartsWith(mangled, "__")) mangled.remove_prefix(1);
  for (std::string_view async_main : {kAsyncMain, std::string_view("_async_Main")}) {
    if (StartsWith(mangled, async_main)) {
      return ParseAndPrint(mangled, async_main.size(), /*async_main=*/true, options, nesting);
    }
  }
  if (size_t start = PrefixLength(mangled)) {
    return ParseAndPrint(mangled, start, /*async_main=*/false, options, nesting);
  }
  // "_T" not followed by "0": the pre-Swift-4 scheme ("_TFC3foo3bar...").
  if (StartsWith(mangled, "_T")) return ParseAndPrintOld(mangled, options, nesting);
  return std::nullopt;
}

}  // namespace instrumentscope::demangle::swift
