// Fixed bounds on the work one Swift name may cause. Frame names come from untrusted recordings
// and are demangled in the browser, where the stack is small: reaching any of these limits makes
// DemangleSwift return nullopt instead of crashing or stalling.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_LIMITS_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_LIMITS_H_

#include <cstddef>

namespace instrumentscope::demangle::swift {

// Longer names are refused outright; real ones stay under a few KiB.
inline constexpr size_t kMaxInputLength = 64 * 1024;
// Height of a node tree, and so the recursion depth of everything that walks one.
inline constexpr int kMaxTreeHeight = 256;
// The printer's own recursion bound: a tree's height plus the printer's helper frames.
inline constexpr int kMaxPrintDepth = kMaxTreeHeight + 64;
inline constexpr size_t kMaxNodes = size_t{1} << 17;
inline constexpr size_t kMaxArenaBytes = size_t{16} << 20;
inline constexpr size_t kMaxStackEntries = size_t{1} << 14;
// The mangling's own bound on repeated substitutions ("S3i", "A4B").
inline constexpr int kMaxRepeatCount = 2048;
// Decoding inserts code points one by one, so its cost grows with the square of the length.
inline constexpr size_t kMaxPunycodeLength = 4096;
inline constexpr size_t kMaxOutputLength = 64 * 1024;
// Substitutions make the tree a DAG that may print exponentially often; this bounds the visits.
inline constexpr size_t kMaxPrintSteps = size_t{1} << 20;
// Specialization payloads may hold whole mangled names, which are demangled in turn.
inline constexpr int kMaxNestedSymbols = 2;

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_LIMITS_H_
