// How many threads an import runs on. It asks for some (ImportOptions::
// threads; 0 is one per core) and holds those it gets beside its own thread
// while it runs. Natively a thread can always be started; the WebAssembly
// core only on the workers started with its module (SetWorkerCount), shared
// by the imports that run at once: one that finds them taken runs on fewer,
// or on its own thread alone. The single-threaded build has none.
#ifndef INSTRUMENTSCOPE_BASE_THREADS_H_
#define INSTRUMENTSCOPE_BASE_THREADS_H_

#include <cstdint>

namespace instrumentscope {

// `requested`, or when it is 0 one per core (in WebAssembly, one per worker
// and the caller's).
uint32_t ThreadsWanted(uint32_t requested);

// Set once the module's workers are started.
void SetWorkerCount(uint32_t workers);

// Threads besides the caller's, held until destroyed.
class HelperThreads {
 public:
  // Up to `wanted` - 1 of them: as many as are free.
  explicit HelperThreads(uint32_t wanted);
  ~HelperThreads();
  HelperThreads(const HelperThreads&) = delete;
  HelperThreads& operator=(const HelperThreads&) = delete;

  uint32_t count() const { return count_; }

 private:
  uint32_t count_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_THREADS_H_
