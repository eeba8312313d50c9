#include "demangle/rust/v0_printer.h"

#include "demangle/rust/v0_literals.h"

namespace instrumentscope::demangle::rust {
namespace {

bool IsUpper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool IsLower(char c) {
  return c >= 'a' && c <= 'z';
}

// <basic-type>: one lowercase letter; nullptr for the letters that are none.
const char* BasicTypeName(char tag) {
  switch (tag) {
    case 'a': return "i8";
    case 'b': return "bool";
    case 'c': return "char";
    case 'd': return "f64";
    case 'e': return "str";
    case 'f': return "f32";
    case 'h': return "u8";
    case 'i': return "isize";
    case 'j': return "usize";
    case 'l': return "i32";
    case 'm': return "u32";
    case 'n': return "i128";
    case 'o': return "u128";
    case 'p': return "_";
    case 's': return "i16";
    case 't': return "u16";
    case 'u': return "()";
    case 'v': return "...";
    case 'x': return "i64";
    case 'y': return "u64";
    case 'z': return "!";
    default: return nullptr;
  }
}

bool IsUnsignedTag(char tag) {
  return tag == 'h' || tag == 't' || tag == 'm' || tag == 'y' || tag == 'o' || tag == 'j';
}
bool IsSignedTag(char tag) {
  return tag == 'a' || tag == 's' || tag == 'l' || tag == 'x' || tag == 'n' || tag == 'i';
}

}  // namespace

std::optional<std::string_view> V0Mangling(std::string_view symbol) {
  std::string_view mangling;
  if (symbol.size() > 2 && symbol.substr(0, 2) == "_R") {
    mangling = symbol.substr(2);
  } else if (symbol.size() > 1 && symbol[0] == 'R') {
    mangling = symbol.substr(1);
  } else if (symbol.size() > 3 && symbol.substr(0, 3) == "__R") {
    mangling = symbol.substr(3);
  } else {
    return std::nullopt;
  }
  if (!IsUpper(mangling[0])) return std::nullopt;
  for (char c : mangling) {
    if (static_cast<unsigned char>(c) >= 0x80) return std::nullopt;
  }
  return mangling;
}

bool V0Printer::PrintSymbol(size_t* end) {
  if (!PrintPath(/*in_value=*/true)) return false;
  if (IsUpper(reader_.Peek()) && !SkipPath()) return false;
  if (reader_.exhausted()) return false;
  *end = reader_.position();
  return true;
}

template <typename Body>
bool V0Printer::InBinder(Body body) {
  uint64_t count;
  if (!reader_.OptionalBase62('G', &count)) return false;
  if (!printing_) return body();
  if (count > 0) {
    if (!Print("for<")) return false;
    // The output cap ends a loop of any count.
    for (uint64_t i = 0; i < count; ++i) {
      if (i > 0 && !Print(", ")) return false;
      ++bound_lifetimes_;
      if (!PrintLifetime(1)) return false;
    }
    if (!Print("> ")) return false;
  }
  bool ok = body();
  bound_lifetimes_ -= count;
  return ok;
}

template <typename PrintTarget>
bool V0Printer::FollowBackref(PrintTarget print_target) {
  size_t target;
  if (!reader_.BackrefTarget(&target) || !reader_.Enter()) return false;
  bool ok = true;
  if (printing_) {
    size_t resume = reader_.position();
    reader_.Seek(target);
    ok = print_target();
    reader_.Seek(resume);
  }
  reader_.Leave();
  return ok;
}

template <typename Item>
bool V0Printer::PrintList(Item item, std::string_view separator, size_t* count) {
  size_t items = 0;
  for (; !reader_.Eat('E'); ++items) {
    if (items > 0 && !Print(separator)) return false;
    if (!item()) return false;
  }
  if (count) *count = items;
  return true;
}

// Paths.

bool V0Printer::PrintPath(bool in_value) {
  char tag;
  if (!reader_.Enter() || !reader_.Next(&tag)) return false;
  bool ok;
  switch (tag) {
    case 'C': ok = PrintCrateRoot(); break;
    case 'N': ok = PrintNestedPath(in_value); break;
    case 'M':
    case 'X':
    case 'Y': ok = PrintImplPath(tag); break;
    case 'I': ok = PrintGenericPath(in_value); break;
    case 'B': ok = FollowBackref([&] { return PrintPath(in_value); }); break;
    default: ok = false;
  }
  reader_.Leave();
  return ok;
}

bool V0Printer::PrintCrateRoot() {
  uint64_t disambiguator;
  V0Identifier name;
  if (!reader_.OptionalBase62('s', &disambiguator) || !reader_.Identifier(&name) ||
      !PrintIdentifier(name)) {
    return false;
  }
  // The crate's disambiguator tells apart crates of one name: kFull only.
  if (style_ == Style::kInstruments || disambiguator == 0 || !printing_) return true;
  return out_->Append("[") && out_->AppendHex(disambiguator) && out_->Append("]");
}

bool V0Printer::PrintNestedPath(bool in_value) {
  char name_space;
  if (!reader_.Next(&name_space) || !(IsUpper(name_space) || IsLower(name_space))) return false;
  uint64_t disambiguator;
  V0Identifier name;
  if (!PrintPath(in_value) || !reader_.OptionalBase62('s', &disambiguator) ||
      !reader_.Identifier(&name)) {
    return false;
  }
  // Lowercase namespaces are the compiler's own: only their name shows.
  if (IsLower(name_space)) return name.empty() || (Print("::") && PrintIdentifier(name));
  const char* kind = name_space == 'C' ? "closure" : name_space == 'S' ? "shim" : nullptr;
  if (!Print("::{") || !Print(kind ? kind : std::string_view(&name_space, 1))) return false;
  if (!name.empty() && !(Print(":") && PrintIdentifier(name))) return false;
  return Print("#") && PrintDecimal(disambiguator) && Print("}");
}

bool V0Printer::PrintImplPath(char tag) {
  // An impl's own path (where the impl is written) is not shown.
  uint64_t disambiguator;
  if (tag != 'Y' && !(reader_.OptionalBase62('s', &disambiguator) && SkipPath())) return false;
  if (!Print("<") || !PrintType()) return false;
  if (tag != 'M' && !(Print(" as ") && PrintPath(false))) return false;
  return Print(">");
}

bool V0Printer::PrintGenericPath(bool in_value) {
  // In an expression, generic arguments need the turbofish "::<".
  if (!PrintPath(in_value) || (in_value && !Print("::")) || !Print("<")) return false;
  return PrintList([&] { return PrintGenericArg(); }, ", ") && Print(">");
}

bool V0Printer::SkipPath() {
  bool was_printing = printing_;
  printing_ = false;
  bool ok = PrintPath(false);
  printing_ = was_printing;
  return ok;
}

bool V0Printer::PrintGenericArg() {
  uint64_t lifetime;
  if (reader_.Eat('L')) return reader_.Base62(&lifetime) && PrintLifetime(lifetime);
  if (reader_.Eat('K')) return PrintConst(false);
  return PrintType();
}

// Types.

bool V0Printer::PrintType() {
  char tag;
  if (!reader_.Next(&tag)) return false;
  if (const char* basic = BasicTypeName(tag)) return Print(basic);
  if (!reader_.Enter()) return false;
  bool ok;
  switch (tag) {
    case 'R':
    case 'Q': ok = PrintReferenceType(tag); break;
    case 'P': ok = Print("*const ") && PrintType(); break;
    case 'O': ok = Print("*mut ") && PrintType(); break;
    case 'A':
      ok = Print("[") && PrintType() && Print("; ") && PrintConst(true) && Print("]");
      break;
    case 'S': ok = Print("[") && PrintType() && Print("]"); break;
    case 'T': ok = PrintTupleType(); break;
    case 'F': ok = PrintFnType(); break;
    case 'D': ok = PrintDynType(); break;
    case 'B': ok = FollowBackref([&] { return PrintType(); }); break;
    case 'W': ok = PrintType() && Print(" is ") && PrintPattern(); break;
    default:
      // A named type: the tag starts a path.
      reader_.Seek(reader_.position() - 1);
      ok = PrintPath(false);
  }
  reader_.Leave();
  return ok;
}

bool V0Printer::PrintReferenceType(char tag) {
  if (!Print("&")) return false;
  uint64_t lifetime = 0;
  if (reader_.Eat('L') && !reader_.Base62(&lifetime)) return false;
  if (lifetime != 0 && !(PrintLifetime(lifetime) && Print(" "))) return false;
  if (tag == 'Q' && !Print("mut ")) return false;
  return PrintType();
}

bool V0Printer::PrintTupleType() {
  size_t count = 0;
  if (!Print("(") || !PrintList([&] { return PrintType(); }, ", ", &count)) return false;
  return (count != 1 || Print(",")) && Print(")");
}

bool V0Printer::PrintFnType() {
  return InBinder([&] {
    bool is_unsafe = reader_.Eat('U');
    bool has_abi = reader_.Eat('K');
    std::string_view abi = "C";
    if (has_abi && !reader_.Eat('C')) {
      V0Identifier name;
      if (!reader_.Identifier(&name) || name.ascii.empty() || !name.deltas.empty()) return false;
      abi = name.ascii;
    }
    if (is_unsafe && !Print("unsafe ")) return false;
    if (has_abi) {
      if (!Print("extern \"")) return false;
      // The mangling spells the ABI's '-' as '_'.
      for (char c : abi) {
        if (!Print(c == '_' ? std::string_view("-") : std::string_view(&c, 1))) return false;
      }
      if (!Print("\" ")) return false;
    }
    if (!Print("fn(") || !PrintList([&] { return PrintType(); }, ", ") || !Print(")")) {
      return false;
    }
    if (reader_.Eat('u')) return true;  // returns ()
    return Print(" -> ") && PrintType();
  });
}

bool V0Printer::PrintDynType() {
  if (!Print("dyn ")) return false;
  bool bounds = InBinder([&] { return PrintList([&] { return PrintDynTrait(); }, " + "); });
  uint64_t lifetime;
  if (!bounds || !reader_.Eat('L') || !reader_.Base62(&lifetime)) return false;
  return lifetime == 0 || (Print(" + ") && PrintLifetime(lifetime));
}

bool V0Printer::PrintDynTrait() {
  bool open;
  if (!PrintPathMaybeOpen(&open)) return false;
  // Associated type (and const) bindings join the trait's generic arguments.
  while (reader_.Eat('p')) {
    V0Identifier name;
    if (!Print(open ? ", " : "<") || !reader_.Identifier(&name) || !PrintIdentifier(name) ||
        !Print(" = ")) {
      return false;
    }
    // The bound is a type, or a const after 'K'.
    if (!(reader_.Eat('K') ? PrintConst(false) : PrintType())) return false;
    open = true;
  }
  return !open || Print(">");
}

bool V0Printer::PrintPathMaybeOpen(bool* open) {
  *open = false;
  if (reader_.Eat('B')) return FollowBackref([&] { return PrintPathMaybeOpen(open); });
  if (!reader_.Eat('I')) return PrintPath(false);
  *open = true;
  return PrintPath(false) && Print("<") && PrintList([&] { return PrintGenericArg(); }, ", ");
}

bool V0Printer::PrintPattern() {
  char tag;
  if (!reader_.Next(&tag)) return false;
  switch (tag) {
    case 'R': return PrintConst(false) && Print("..=") && PrintConst(false);
    case 'N': return Print("!null");
    case 'O': {
      if (!reader_.Enter() || !PrintPattern()) return false;
      while (!reader_.Eat('E')) {
        if (!Print(" | ") || !PrintPattern()) return false;
      }
      reader_.Leave();
      return true;
    }
    default: return false;
  }
}

// Consts.

bool V0Printer::PrintConst(bool in_value) {
  char tag;
  if (!reader_.Next(&tag) || !reader_.Enter()) return false;
  // Outside an expression, anything but a literal needs braces ("Re" is the
  // literal "…").
  bool expression = tag == 'e' || tag == 'A' || tag == 'T' || tag == 'V' || tag == 'Q' ||
                    (tag == 'R' && reader_.Peek() != 'e');
  bool braced = !in_value && expression;
  if (braced && !Print("{")) return false;
  bool ok;
  if (tag == 'p') {
    ok = Print("_");
  } else if (IsUnsignedTag(tag)) {
    ok = PrintConstUint(tag);
  } else if (IsSignedTag(tag)) {
    ok = (!reader_.Eat('n') || Print("-")) && PrintConstUint(tag);
  } else if (tag == 'b') {
    std::string_view nibbles;
    uint64_t value;
    ok = reader_.HexNibbles(&nibbles) && ParseHexU64(nibbles, &value) && value <= 1 &&
         Print(value ? "true" : "false");
  } else if (tag == 'c') {
    ok = PrintConstChar();
  } else if (tag == 'e') {
    // A string literal is a &str; *"…" is the str itself.
    ok = Print("*") && PrintConstStr();
  } else if (tag == 'R' && reader_.Eat('e')) {
    ok = PrintConstStr();
  } else if (tag == 'R' || tag == 'Q') {
    ok = Print(tag == 'R' ? "&" : "&mut ") && PrintConst(true);
  } else if (tag == 'A' || tag == 'T') {
    ok = PrintConstAggregate(tag);
  } else if (tag == 'V') {
    ok = PrintConstVariant();
  } else if (tag == 'B') {
    ok = FollowBackref([&] { return PrintConst(in_value); });
  } else {
    ok = false;
  }
  reader_.Leave();
  return ok && (!braced || Print("}"));
}

bool V0Printer::PrintConstAggregate(char tag) {
  size_t count = 0;
  auto element = [&] { return PrintConst(true); };
  if (tag == 'A') return Print("[") && PrintList(element, ", ") && Print("]");
  if (!Print("(") || !PrintList(element, ", ", &count)) return false;
  return (count != 1 || Print(",")) && Print(")");
}

bool V0Printer::PrintConstVariant() {
  char kind;
  if (!PrintPath(true) || !reader_.Next(&kind)) return false;
  auto element = [&] { return PrintConst(true); };
  auto field = [&] {
    uint64_t disambiguator;
    V0Identifier name;
    return reader_.OptionalBase62('s', &disambiguator) && reader_.Identifier(&name) &&
           PrintIdentifier(name) && Print(": ") && PrintConst(true);
  };
  switch (kind) {
    case 'U': return true;
    case 'T': return Print("(") && PrintList(element, ", ") && Print(")");
    case 'S': return Print(" { ") && PrintList(field, ", ") && Print(" }");
    default: return false;
  }
}

bool V0Printer::PrintConstUint(char type_tag) {
  std::string_view nibbles;
  uint64_t value;
  if (!reader_.HexNibbles(&nibbles)) return false;
  // Values past 64 bits print as their nibbles.
  bool printed = ParseHexU64(nibbles, &value) ? PrintDecimal(value) : Print("0x") && Print(nibbles);
  // kFull names the type: 123usize.
  return printed && (style_ == Style::kInstruments || Print(BasicTypeName(type_tag)));
}

bool V0Printer::PrintConstChar() {
  std::string_view nibbles;
  uint64_t value;
  if (!reader_.HexNibbles(&nibbles) || !ParseHexU64(nibbles, &value) || !IsScalarValue(value)) {
    return false;
  }
  if (!printing_) return true;
  return out_->Append('\'') && AppendLiteralChar(static_cast<uint32_t>(value), '\'', out_) &&
         out_->Append('\'');
}

bool V0Printer::PrintConstStr() {
  std::string_view nibbles;
  if (!reader_.HexNibbles(&nibbles) || !IsHexUtf8(nibbles)) return false;
  if (!printing_) return true;
  if (!out_->Append('"')) return false;
  for (size_t pos = 0; pos < nibbles.size();) {
    if (!AppendLiteralChar(NextHexUtf8(nibbles, &pos), '"', out_)) return false;
  }
  return out_->Append('"');
}

// Names and lifetimes.

bool V0Printer::PrintIdentifier(const V0Identifier& identifier) {
  if (!printing_) return true;
  if (identifier.deltas.empty()) return out_->Append(identifier.ascii);
  if (AppendPunycode(identifier.ascii, identifier.deltas, &punycode_scratch_, out_)) return true;
  // Undecodable (or long) Punycode is shown encoded, with the standard '-'.
  return out_->Append("punycode{") &&
         (identifier.ascii.empty() || (out_->Append(identifier.ascii) && out_->Append("-"))) &&
         out_->Append(identifier.deltas) && out_->Append("}");
}

bool V0Printer::PrintLifetime(uint64_t index) {
  // Binders are not tracked while only reading.
  if (!printing_) return true;
  if (!out_->Append('\'')) return false;
  // 0 is the erased lifetime; others count back through the bound ones.
  if (index == 0) return out_->Append('_');
  if (index > bound_lifetimes_) return false;
  uint64_t depth = bound_lifetimes_ - index;
  if (depth < 26) return out_->Append(static_cast<char>('a' + depth));
  return out_->Append('_') && out_->AppendDecimal(depth);
}

}  // namespace instrumentscope::demangle::rust
