// Addresses, bytes and UUIDs as people read and write them: "0x1834a4734",
// "ee ff c0 00 …", "BFF4A4B7-1F74-3723-A4E0-BD55F5AA02C0".
#ifndef INSTRUMENTSCOPE_BASE_IDENTIFIERS_H_
#define INSTRUMENTSCOPE_BASE_IDENTIFIERS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/byte_span.h"

namespace instrumentscope {

using Uuid = std::array<uint8_t, 16>;

// "0x1834a4734"
std::string HexAddress(uint64_t address);
// "ee ff c0 00 05 00 00 00 …": up to 16 bytes of `bytes` from `offset`, for
// a message about a layout this version does not know.
std::string QuoteBytes(ByteSpan bytes, size_t offset = 0);
// The address of "0x1834a4734" (any case); nullopt for anything else.
std::optional<uint64_t> ParseHexAddress(std::string_view text);
// "0x1834a4734" or "6497650484", as users give load addresses.
std::optional<uint64_t> ParseAddress(std::string_view text);

// "BFF4A4B7-1F74-3723-A4E0-BD55F5AA02C0", as Instruments and dwarfdump write
// UUIDs; the parser takes either case.
std::string FormatUuid(const Uuid& uuid);
std::optional<Uuid> ParseUuid(std::string_view text);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_IDENTIFIERS_H_
