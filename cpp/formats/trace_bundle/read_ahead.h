// A bundle's members read on helper threads before the import asks for them,
// so that inflating one overlaps with decoding another. The import still asks
// in its own order and counts what it takes (BundleFiles), so it makes the
// same profile, warnings and errors as without: a member no helper has begun
// yet, or one a helper could not read or found too large to hold, the import
// reads in place, as it would have. Only a member being read is waited for.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_READ_AHEAD_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_READ_AHEAD_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "base/threads.h"
#include "container/file_tree.h"

namespace instrumentscope::trace_bundle {

class ReadAhead {
 public:
  // Reads one member, on a helper thread, failing past `most_bytes`.
  using Reader = std::function<Result<SharedBytes>(const std::string& path, uint64_t most_bytes)>;

  struct Budget {
    uint64_t held_bytes;    // read and not yet taken; a helper waits above it
    uint64_t member_bytes;  // one member larger is left to the import
    uint64_t total_bytes;   // all read ahead (limits.maxDecompressedBytes)
  };

  // With no helper free, nothing is read ahead: Take always says to read in place.
  ReadAhead(Reader reader, Budget budget, std::unique_ptr<HelperThreads> helpers);
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  uint32_t helpers() const { return helpers_->count(); }
  // Members to read, after those planned before; one planned already is not again.
  void Plan(const std::vector<std::string>& paths);
  // The member, read; null when the import is to read it in place.
  SharedBytes Take(const std::string& path);

 private:
  enum class State : uint8_t { kPlanned, kReading, kRead, kInPlace };
  struct Member {
    State state = State::kPlanned;
    SharedBytes bytes;
  };

  void Help();
  // The next member a helper may read, or null: none, or none may be held now.
  std::map<std::string, Member>::iterator NextToRead();

  const Reader reader_;
  const Budget budget_;
  std::unique_ptr<HelperThreads> helpers_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Member> members_;  // planned and not taken
  std::deque<std::string> order_;          // planned, not yet begun
  uint64_t held_bytes_ = 0;
  uint64_t total_bytes_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_READ_AHEAD_H_
