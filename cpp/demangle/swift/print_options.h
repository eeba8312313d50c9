// What the printer shows. Each field is one choice between what swift-demangle prints by default
// and Apple's "simplified UI" spelling that Instruments and xctrace show.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINT_OPTIONS_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINT_OPTIONS_H_

namespace instrumentscope::demangle::swift {

struct PrintOptions {
  // "[A]", "A?", "[A : B]" instead of Swift.Array<A>, Swift.Optional<A>, Swift.Dictionary<A, B>.
  bool synthesize_sugar = true;
  // "(extension in M):"; and anonymous contexts.
  bool display_extension_contexts = true;
  // ` with unmangled suffix ".1"`.
  bool display_unmangled_suffix = true;
  bool display_module_names = true;
  // "generic specialization <Swift.Int> of " rather than "specialized ".
  bool display_generic_specializations = true;
  // " : Proto in Module" after a conforming type.
  bool display_protocol_conformances = true;
  bool display_where_clauses = true;
  // " : Type" after a variable or an accessor.
  bool display_entity_types = true;
  // "partial apply" rather than "partial apply forwarder".
  bool shorten_partial_apply = false;
  // "thunk for " rather than "reabstraction thunk helper ... from ... to ...", and no
  // "merged ", "dynamically replaceable ..." prefixes.
  bool shorten_thunk = false;
  // "destroy for " rather than "destroy value witness for ".
  bool shorten_value_witness = false;
  // "(foo in _5F3C...)" for file-private names.
  bool show_private_discriminators = true;
  // Parameter types and the result; without them "f(x:_:)".
  bool show_function_argument_types = true;
  // "(1) await resume partial function for " before async continuations.
  bool show_async_resume_partial = true;
};

// As swift-demangle prints by default.
inline constexpr PrintOptions kFullOptions = {};

// As Instruments and xctrace show frames.
inline constexpr PrintOptions kSimplifiedOptions = {
    /*synthesize_sugar=*/true,
    /*display_extension_contexts=*/false,
    /*display_unmangled_suffix=*/false,
    /*display_module_names=*/false,
    /*display_generic_specializations=*/false,
    /*display_protocol_conformances=*/false,
    /*display_where_clauses=*/false,
    /*display_entity_types=*/false,
    /*shorten_partial_apply=*/true,
    /*shorten_thunk=*/true,
    /*shorten_value_witness=*/true,
    /*show_private_discriminators=*/false,
    /*show_function_argument_types=*/false,
    /*show_async_resume_partial=*/false,
};

// Mangled names inside specialization payloads print as the demangler library does by default:
// the full spelling without sugar.
inline constexpr PrintOptions kNestedSymbolOptions = {/*synthesize_sugar=*/false};

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_PRINT_OPTIONS_H_
