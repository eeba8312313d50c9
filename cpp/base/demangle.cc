#include "base/demangle.h"

#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

// LLVM's demangler, from the copy libc++abi keeps (Debian's emscripten
// package ships it; CMake finds it): a header-only parser.
#include "demangle/ItaniumDemangle.h"

// The header puts the parser in an unnamed namespace: this file's own.
DEMANGLE_NAMESPACE_BEGIN

// <discriminator> := _ <digit> | __ <number> _ ; ignored, as libc++abi does.
const char* parse_discriminator(const char* first, const char* last) {
  if (first == last || *first != '_') return first;
  const char* digits = first + 1;
  if (digits != last && std::isdigit(static_cast<unsigned char>(*digits))) return digits + 1;
  if (digits != last && *digits == '_') {
    const char* end = digits + 1;
    while (end != last && std::isdigit(static_cast<unsigned char>(*end))) ++end;
    if (end != last && end != digits + 1 && *end == '_') return end + 1;
  }
  return first;
}

DEMANGLE_NAMESPACE_END

namespace instrumentscope {
namespace {

// The parser's nodes live as long as one demangling: an arena freed at once.
class Arena {
 public:
  void reset() { blocks_.clear(); }

  template <typename T, typename... Args>
  T* makeNode(Args&&... args) {
    return new (Allocate(sizeof(T))) T(std::forward<Args>(args)...);
  }

  void* allocateNodeArray(size_t count) {
    return Allocate(count * sizeof(itanium_demangle::Node*));
  }

 private:
  void* Allocate(size_t size) {
    size = (size + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
    blocks_.emplace_back(new std::max_align_t[size / sizeof(std::max_align_t) + 1]);
    return blocks_.back().get();
  }

  std::vector<std::unique_ptr<std::max_align_t[]>> blocks_;
};

struct FreeBuffer {
  void operator()(char* buffer) const { std::free(buffer); }
};

}  // namespace

std::optional<std::string> DemangleItanium(std::string_view mangled) {
  // Mach-O adds an underscore to every C-level name: "__Z…", "____Z…_block_invoke".
  if (mangled.substr(0, 3) == "__Z" || mangled.substr(0, 5) == "____Z") mangled.remove_prefix(1);
  itanium_demangle::ManglingParser<Arena> parser(mangled.data(), mangled.data() + mangled.size());
  itanium_demangle::Node* tree = parser.parse();
  if (!tree) return std::nullopt;
  itanium_demangle::OutputStream out;
  if (!itanium_demangle::initializeOutputStream(nullptr, nullptr, out, 256)) return std::nullopt;
  tree->print(out);
  std::unique_ptr<char, FreeBuffer> buffer(out.getBuffer());
  return std::string(buffer.get(), out.getCurrentPosition());
}

}  // namespace instrumentscope
