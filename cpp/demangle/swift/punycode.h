// Swift's variant of Punycode (RFC 3492) for identifiers with characters a plain identifier
// cannot hold: '_' is the delimiter, digits are 'a'-'z' then 'A'-'J', and ASCII characters that
// are not identifier characters are carried as code points 0xD800 + c.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_PUNYCODE_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_PUNYCODE_H_

#include <string>
#include <string_view>

namespace instrumentscope::demangle::swift {

// Appends the UTF-8 of `encoded` to `out`. False for malformed input, arithmetic overflow, a
// code point that is no Unicode scalar, or input longer than kMaxPunycodeLength.
bool DecodePunycode(std::string_view encoded, std::string& out);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_PUNYCODE_H_
