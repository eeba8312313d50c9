// Fuzz targets: each takes any bytes and must end in a value or an error, never
// a crash, a hang, or a read outside its input. libFuzzer drives them
// (fuzz_main.cc, one binary per target, `npm run fuzz`); the native tests run
// mutated real inputs through the same functions.
#ifndef INSTRUMENTSCOPE_FUZZ_TARGETS_H_
#define INSTRUMENTSCOPE_FUZZ_TARGETS_H_

#include <string_view>
#include <vector>

#include "base/byte_span.h"

namespace instrumentscope::fuzz {

struct Target {
  const char* name;
  void (*run)(ByteSpan input);
};

const std::vector<Target>& Targets();
// The target called `name`, or null.
const Target* FindTarget(std::string_view name);

}  // namespace instrumentscope::fuzz

#endif  // INSTRUMENTSCOPE_FUZZ_TARGETS_H_
