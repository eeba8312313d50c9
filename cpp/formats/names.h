// Names shared by the importers: thread labels and addresses without symbols.
#ifndef INSTRUMENTSCOPE_FORMATS_NAMES_H_
#define INSTRUMENTSCOPE_FORMATS_NAMES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/byte_span.h"
#include "model/profile.h"

namespace instrumentscope {

// "Main Thread 0x9db2dc" from the ways Instruments writes thread names:
//   "Main Thread  0xe7716 (java, pid: 23369)"        (xctrace, Xcode 12–14)
//   "Main Thread 0x2b73e56 (test-simple, pid: 49230)" (xctrace, Xcode 16)
//   "Main Thread (0x13e4cf3) (a.out, pid: 34963)"     (xctrace, Xcode 26)
//   "Main Thread  0x3c1feee"                          (form.template, 8–11)
// An unnamed thread becomes "Thread 0x…".
std::string ThreadLabel(std::string_view name, uint64_t tid);

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
std::string FormatUuid(const ImageUuid& uuid);
std::optional<ImageUuid> ParseUuid(std::string_view text);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_FORMATS_NAMES_H_
