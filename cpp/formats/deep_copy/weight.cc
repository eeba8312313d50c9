#include "formats/deep_copy/weight.h"

#include <cstddef>

namespace instrumentscope::deep_copy {
namespace {

struct Unit {
  std::string_view name;
  Dimension dimension;
  int64_t scale;  // base units per unit
};

// As Instruments writes them: time from 7.x on, bytes in Allocations, cycles
// in CPU Counters (13.x), with 1024 per KB and 1000 per Kc.
constexpr Unit kUnits[] = {
    {"ns", Dimension::kTime, 1},
    {"\xC2\xB5s", Dimension::kTime, 1'000},  // µs, MICRO SIGN
    {"\xCE\xBCs", Dimension::kTime, 1'000},  // μs, GREEK SMALL LETTER MU
    {"us", Dimension::kTime, 1'000},
    {"ms", Dimension::kTime, 1'000'000},
    {"s", Dimension::kTime, 1'000'000'000},
    {"min", Dimension::kTime, 60'000'000'000},
    {"h", Dimension::kTime, 3'600'000'000'000},
    {"Bytes", Dimension::kBytes, 1},
    {"bytes", Dimension::kBytes, 1},
    {"B", Dimension::kBytes, 1},
    {"KB", Dimension::kBytes, int64_t{1} << 10},
    {"MB", Dimension::kBytes, int64_t{1} << 20},
    {"GB", Dimension::kBytes, int64_t{1} << 30},
    {"TB", Dimension::kBytes, int64_t{1} << 40},
    {"cycles", Dimension::kCycles, 1},
    {"Kc", Dimension::kCycles, 1'000},
    {"Mc", Dimension::kCycles, 1'000'000},
    {"Gc", Dimension::kCycles, 1'000'000'000},
    {"Tc", Dimension::kCycles, 1'000'000'000'000},
};

const Unit* FindUnit(std::string_view name) {
  for (const Unit& unit : kUnits) {
    if (unit.name == name) return &unit;
  }
  return nullptr;
}

// The spaces Instruments pads cells with: ASCII, and from 16.0 on U+2007
// FIGURE SPACE before percentages; no-break and thin spaces for good measure.
size_t SpaceLength(std::string_view text) {
  if (text.empty()) return 0;
  if (text[0] == ' ') return 1;
  for (std::string_view space : {"\xE2\x80\x87", "\xC2\xA0", "\xE2\x80\xAF", "\xE2\x80\x89"}) {
    if (text.substr(0, space.size()) == space) return space.size();
  }
  return 0;
}

void SkipSpaces(std::string_view& text) {
  while (size_t length = SpaceLength(text)) text.remove_prefix(length);
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// Digits, optionally with one decimal point; returns them without the point
// and sets `decimals`. Empty when `text` starts with no digit.
std::string_view TakeNumber(std::string_view& text, size_t* decimals) {
  size_t end = 0;
  while (end < text.size() && IsDigit(text[end])) ++end;
  *decimals = 0;
  if (end > 0 && end + 1 < text.size() && text[end] == '.' && IsDigit(text[end + 1])) {
    size_t fraction = end + 1;
    while (fraction < text.size() && IsDigit(text[fraction])) ++fraction;
    *decimals = fraction - end - 1;
    end = fraction;
  }
  std::string_view number = text.substr(0, end);
  text.remove_prefix(end);
  return number;
}

}  // namespace

const char* DimensionName(Dimension dimension) {
  switch (dimension) {
    case Dimension::kTime: return "time";
    case Dimension::kBytes: return "bytes";
    case Dimension::kCycles: return "cycles";
    case Dimension::kCount: return "a count";
  }
  return "a count";
}

std::string KnownUnits() {
  std::string names;
  for (const Unit& unit : kUnits) {
    if (unit.name == "\xCE\xBCs" || unit.name == "us" || unit.name == "bytes") continue;
    names += (names.empty() ? "" : ", ") + std::string(unit.name);
  }
  return names;
}

std::optional<std::string_view> HeaderUnit(std::string_view header) {
  if (header.empty() || header.back() != ')') return std::nullopt;
  size_t open = header.rfind('(');
  if (open == std::string_view::npos) return std::nullopt;
  std::string_view unit = header.substr(open + 1, header.size() - open - 2);
  if (!FindUnit(unit)) return std::nullopt;
  return unit;
}

Result<Weight> ParseWeight(std::string_view cell, std::optional<std::string_view> bare_unit) {
  auto bad = [cell](const std::string& why) {
    return Status(ErrorCode::kDeepCopyBadRow, "the weight \"" + std::string(cell) + "\" " + why);
  };
  const Unit* default_unit = bare_unit ? FindUnit(*bare_unit) : nullptr;
  Weight weight;

  std::string_view rest = cell;
  SkipSpaces(rest);
  if (rest.empty() || rest == "-") return weight;  // Instruments' way of writing zero

  size_t decimals = 0;
  std::string_view digits = TakeNumber(rest, &decimals);
  if (digits.empty()) return bad("does not start with a number");
  // Up to 18 digits fit in 63 bits.
  if (digits.size() - (decimals ? 1 : 0) > 18) return bad("has more digits than fit in 63 bits");
  uint64_t mantissa = 0;
  for (char c : digits) {
    if (IsDigit(c)) mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
  }

  if (!rest.empty() && rest[0] == ',') {
    return bad("has a comma: only numbers written as 1234.5 are read");
  }
  SkipSpaces(rest);
  size_t unit_end = 0;
  while (unit_end < rest.size() && !SpaceLength(rest.substr(unit_end)) &&
         !IsDigit(rest[unit_end]) && rest[unit_end] != '%') {
    ++unit_end;
  }
  std::string_view unit_name = rest.substr(0, unit_end);
  rest.remove_prefix(unit_end);
  const Unit* unit = unit_name.empty() ? default_unit : FindUnit(unit_name);
  if (!unit_name.empty() && !unit) {
    return bad("has the unit \"" + std::string(unit_name) + "\", which is none of " + KnownUnits());
  }
  // The share of the total that may follow: "99.9%".
  SkipSpaces(rest);
  size_t percent_decimals = 0;
  if (!TakeNumber(rest, &percent_decimals).empty()) {
    if (rest.empty() || rest[0] != '%') return bad("has a number after its unit that is no share");
    rest.remove_prefix(1);
  }
  SkipSpaces(rest);
  if (!rest.empty()) return bad("has \"" + std::string(rest) + "\" after the number");

  int64_t scale = unit ? unit->scale : 1;
  weight.dimension = unit ? unit->dimension : Dimension::kCount;
  uint64_t power = 1;
  for (size_t i = 0; i < decimals; ++i) power *= 10;
  // Exact: the product needs up to 123 bits, and the quotient is rounded half up.
  unsigned __int128 scaled =
      static_cast<unsigned __int128>(mantissa) * static_cast<uint64_t>(scale);
  unsigned __int128 value = (scaled + power / 2) / power;
  if (value > static_cast<unsigned __int128>(INT64_MAX)) return bad("is too large");
  weight.value = static_cast<int64_t>(value);
  // "0 s" is how Instruments writes an exact zero; any other figure is rounded
  // to its last digit.
  weight.rounding = mantissa == 0 && decimals == 0
                        ? 0.0
                        : 0.5 * static_cast<double>(scale) / static_cast<double>(power);
  return weight;
}

}  // namespace instrumentscope::deep_copy
