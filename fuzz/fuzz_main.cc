// The libFuzzer entry point of one target, named at compile time.
#include <cstdio>
#include <cstdlib>

#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const instrumentscope::fuzz::Target* target =
      instrumentscope::fuzz::FindTarget(INSTRUMENTSCOPE_FUZZ_TARGET);
  if (!target) {
    std::fprintf(stderr, "no fuzz target %s\n", INSTRUMENTSCOPE_FUZZ_TARGET);
    std::abort();
  }
  target->run(instrumentscope::ByteSpan(data, size));
  return 0;
}
