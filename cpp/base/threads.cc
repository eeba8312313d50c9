#include "base/threads.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace instrumentscope {
namespace {

#ifdef __EMSCRIPTEN__
// None until the bindings say how many workers the module started.
std::atomic<uint32_t> free_threads{0};
#else
std::atomic<uint32_t> free_threads{UINT32_MAX};
#endif
std::atomic<uint32_t> worker_count{0};

}  // namespace

uint32_t ThreadsWanted(uint32_t requested) {
  if (requested > 0) return requested;
#ifdef __EMSCRIPTEN__
  return worker_count.load(std::memory_order_relaxed) + 1;
#else
  return std::max(1u, std::thread::hardware_concurrency());
#endif
}

void SetWorkerCount(uint32_t workers) {
  worker_count.store(workers, std::memory_order_relaxed);
  free_threads.store(workers, std::memory_order_relaxed);
}

HelperThreads::HelperThreads(uint32_t wanted) {
  uint32_t free = free_threads.load(std::memory_order_relaxed);
  uint32_t taken;
  do {
    taken = std::min(free, wanted > 0 ? wanted - 1 : 0);
  } while (taken > 0 && !free_threads.compare_exchange_weak(free, free - taken));
  count_ = taken;
}

HelperThreads::~HelperThreads() {
  if (count_ > 0) free_threads.fetch_add(count_);
}

}  // namespace instrumentscope
