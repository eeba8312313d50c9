// Overflow-checked integer arithmetic for sizes, offsets and timestamps that
// come from untrusted input.
#ifndef INSTRUMENTSCOPE_BASE_CHECKED_MATH_H_
#define INSTRUMENTSCOPE_BASE_CHECKED_MATH_H_

#include <cstdint>
#include <optional>
#include <type_traits>

namespace instrumentscope {

template <typename T>
std::optional<T> CheckedAdd(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T sum;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// a + b, or the nearest a 64-bit integer holds: for times that only inform.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  return CheckedAdd(a, b).value_or(b > 0 ? INT64_MAX : INT64_MIN);
}

template <typename T>
std::optional<T> CheckedMul(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T product;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_CHECKED_MATH_H_
