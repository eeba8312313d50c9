// How a demangled name is spelled. Every demangler of cpp/demangle/ takes one.
#ifndef INSTRUMENTSCOPE_DEMANGLE_STYLE_H_
#define INSTRUMENTSCOPE_DEMANGLE_STYLE_H_

namespace instrumentscope::demangle {

enum class Style {
  // As Instruments and xctrace show frames: for Swift, no module names, no
  // return types, argument labels only, generic parameters as <A>; for Rust,
  // no hashes. The default for frame names.
  kInstruments,
  // Everything the mangling says, as the language's own tool prints it by
  // default (swift-demangle, rustc-demangle's "{}", c++filt).
  kFull,
};

}  // namespace instrumentscope::demangle

#endif  // INSTRUMENTSCOPE_DEMANGLE_STYLE_H_
