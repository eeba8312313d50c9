// The weights of Deep Copy text: "4273.0ms   99.9%", " 429.93 MB     100.0%",
// "96.08 Gc  100.0%", "532 cycles", "0 s", "-". Read as exact decimals and
// scaled to whole base units (nanoseconds, bytes, cycles), with the rounding
// the text itself carries (half its last digit) kept beside the value.
#ifndef INSTRUMENTSCOPE_FORMATS_DEEP_COPY_WEIGHT_H_
#define INSTRUMENTSCOPE_FORMATS_DEEP_COPY_WEIGHT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace instrumentscope::deep_copy {

// What a column measures; every weight of one copy measures one of these.
enum class Dimension : uint8_t { kTime, kBytes, kCycles, kCount };

const char* DimensionName(Dimension dimension);

struct Weight {
  int64_t value = 0;      // nanoseconds, bytes, cycles or a count
  double rounding = 0.0;  // the most the text's rounding can hide, in the same unit
  // Unset for "-" and empty cells: a zero of no particular kind.
  std::optional<Dimension> dimension;
};

// The unit named in a header such as "Self (ms)", for cells that are bare
// numbers; nullopt when the header names none.
std::optional<std::string_view> HeaderUnit(std::string_view header);

// Reads one cell. `bare_unit` applies to a number written without a unit; a
// number with neither is a count. An empty cell or "-" is zero. The message of
// an error describes the cell; the caller adds where it is.
Result<Weight> ParseWeight(std::string_view cell, std::optional<std::string_view> bare_unit);

// The units ParseWeight knows, for error messages.
std::string KnownUnits();

}  // namespace instrumentscope::deep_copy

#endif  // INSTRUMENTSCOPE_FORMATS_DEEP_COPY_WEIGHT_H_
