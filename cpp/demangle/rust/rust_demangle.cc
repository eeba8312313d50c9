#include "demangle/rust/rust_demangle.h"

#include "demangle/rust/half_demangled.h"
#include "demangle/rust/legacy.h"
#include "demangle/rust/limits.h"
#include "demangle/rust/output_buffer.h"
#include "demangle/rust/v0_printer.h"

namespace instrumentscope::demangle {
namespace {

using rust::OutputBuffer;

// ThinLTO renames internal symbols "<symbol>.llvm.<uppercase hex>", sometimes
// with "@@<version>" after: that suffix says nothing to a reader.
std::string_view WithoutLlvmSuffix(std::string_view name) {
  constexpr std::string_view kLlvm = ".llvm.";
  size_t at = name.find(kLlvm);
  if (at == std::string_view::npos) return name;
  for (char c : name.substr(at + kLlvm.size())) {
    if (!((c >= 'A' && c <= 'F') || (c >= '0' && c <= '9') || c == '@')) return name;
  }
  return name.substr(0, at);
}

// Other suffixes (LLVM IR's ".exit.i.i", ".0.0" of statics) are kept when they
// look like symbol text: a '.' and printable ASCII without spaces.
bool IsKeptSuffix(std::string_view suffix) {
  if (suffix.empty()) return true;
  if (suffix[0] != '.') return false;
  for (char c : suffix) {
    if (c < '!' || c > '~') return false;
  }
  return true;
}

// The text printed into `out`, with the suffix that followed the mangling.
std::optional<std::string> Finish(bool printed, std::string_view suffix, OutputBuffer* out) {
  if (!printed || !IsKeptSuffix(suffix) || !out->Append(suffix)) return std::nullopt;
  return out->Take();
}

}  // namespace

std::optional<std::string> DemangleRust(std::string_view name, Style style) {
  if (name.size() > rust::kMaxInputBytes) return std::nullopt;
  std::string_view symbol = WithoutLlvmSuffix(name);
  // Each form is recognised before anything is allocated for it.
  if (auto legacy = rust::ParseLegacy(symbol)) {
    if (!IsKeptSuffix(legacy->suffix)) return std::nullopt;
    OutputBuffer out(symbol.size());
    return Finish(rust::PrintLegacy(*legacy, style, &out), legacy->suffix, &out);
  }
  if (auto mangling = rust::V0Mangling(symbol)) {
    OutputBuffer out(symbol.size());
    size_t end = 0;
    bool printed = rust::V0Printer(*mangling, style, &out).PrintSymbol(&end);
    return Finish(printed, mangling->substr(end), &out);
  }
  if (rust::IsHalfDemangledLegacy(symbol)) {
    OutputBuffer out(symbol.size());
    return Finish(rust::PrintHalfDemangledLegacy(symbol, style, &out), {}, &out);
  }
  return std::nullopt;
}

}  // namespace instrumentscope::demangle
