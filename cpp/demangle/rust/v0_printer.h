// Rust's v0 mangling ("_R…", RFC 2603), printed in one pass as it is read:
// paths (crate roots, nested paths and their namespaces, inherent and trait
// impls, trait definitions, generic arguments), types, consts, lifetimes with
// their binders, pattern types, and backrefs, which are followed (not when the
// text is only read, as for impl paths and the instantiating crate) each one
// nesting a level deeper. Every invalid input, and every input that passes a
// limit of limits.h, is refused as a whole: no partial output with error
// markers in it.
#ifndef INSTRUMENTSCOPE_DEMANGLE_RUST_V0_PRINTER_H_
#define INSTRUMENTSCOPE_DEMANGLE_RUST_V0_PRINTER_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "demangle/rust/output_buffer.h"
#include "demangle/rust/punycode.h"
#include "demangle/rust/v0_reader.h"
#include "demangle/style.h"

namespace instrumentscope::demangle::rust {

// What follows the prefix ("_R", "__R" as Mach-O spells it, "R" as Windows'
// dbghelp leaves it) when `symbol` has the shape of a v0 mangling: ASCII,
// starting with a path's uppercase tag.
std::optional<std::string_view> V0Mangling(std::string_view symbol);

class V0Printer {
 public:
  V0Printer(std::string_view mangling, Style style, OutputBuffer* out)
      : reader_(mangling), style_(style), out_(out) {}

  // Prints the symbol's path, then reads the instantiating crate that may
  // follow. `*end` is where the rest begins. False when the mangling is invalid.
  bool PrintSymbol(size_t* end);

 private:
  bool PrintPath(bool in_value);
  bool PrintCrateRoot();
  bool PrintNestedPath(bool in_value);
  bool PrintImplPath(char tag);
  bool PrintGenericPath(bool in_value);
  // A path read without printing it (an impl's own path, the instantiating
  // crate).
  bool SkipPath();
  bool PrintGenericArg();

  bool PrintType();
  bool PrintReferenceType(char tag);
  bool PrintTupleType();
  bool PrintFnType();
  bool PrintDynType();
  bool PrintDynTrait();
  // A trait path whose generic arguments stay open ("Trait<A") for the
  // associated type bindings after it; `*open` says whether they did.
  bool PrintPathMaybeOpen(bool* open);
  bool PrintPattern();

  bool PrintConst(bool in_value);
  bool PrintConstAggregate(char tag);
  bool PrintConstVariant();
  bool PrintConstUint(char type_tag);
  bool PrintConstChar();
  bool PrintConstStr();

  bool PrintIdentifier(const V0Identifier& identifier);
  bool PrintLifetime(uint64_t index);

  // Reads a <binder> and prints "for<'a, …> " before `body`, whose lifetimes
  // it binds.
  template <typename Body>
  bool InBinder(Body body);
  // Reads a backref and, when printing, prints its target with `print`.
  template <typename Print>
  bool FollowBackref(Print print);
  // Items up to an 'E', separated by `separator`; `*count` gets their number.
  template <typename Item>
  bool PrintList(Item item, std::string_view separator, size_t* count = nullptr);

  bool Print(std::string_view text) { return !printing_ || out_->Append(text); }
  bool PrintDecimal(uint64_t value) { return !printing_ || out_->AppendDecimal(value); }

  V0Reader reader_;
  Style style_;
  OutputBuffer* out_;
  bool printing_ = true;
  // Lifetimes bound by the binders around what is being printed.
  uint64_t bound_lifetimes_ = 0;
  PunycodeScratch punycode_scratch_;
};

}  // namespace instrumentscope::demangle::rust

#endif  // INSTRUMENTSCOPE_DEMANGLE_RUST_V0_PRINTER_H_
