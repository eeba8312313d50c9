// A bundle's members read ahead on a helper thread (read_ahead.h): taken
// once, in any order; what a helper could not read is left to the import;
// what is held and what is read in all stay within their budgets. Whole
// bundles at several thread counts are bundle_threads_test.cc's.
#include "formats/trace_bundle/read_ahead.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace instrumentscope::trace_bundle {
namespace {

// A member's bytes: its path, repeated `size` / path length times.
SharedBytes BytesOf(const std::string& path, size_t size) {
  std::vector<uint8_t> bytes;
  while (bytes.size() + path.size() <= size) bytes.insert(bytes.end(), path.begin(), path.end());
  return std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

// Reads members of `size` bytes, failing those named in `failing`, and
// counts the reads a test can wait for.
class FakeMembers {
 public:
  explicit FakeMembers(size_t size, std::vector<std::string> failing = {})
      : size_(size), failing_(std::move(failing)) {}

  ReadAhead::Reader Reader() {
    return [this](const std::string& path, uint64_t most_bytes) -> Result<SharedBytes> {
      std::lock_guard<std::mutex> lock(mutex_);
      read_.push_back(path);
      changed_.notify_all();
      for (const std::string& failing : failing_) {
        if (path == failing) return Status(ErrorCode::kInflateCorrupt, "damaged").WithPath(path);
      }
      if (size_ > most_bytes) return Status(ErrorCode::kLimitExceeded, "too large");
      return BytesOf(path, size_);
    };
  }

  // Once `count` members were read; false after 10 s.
  bool WaitForReads(size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return read_.size() >= count; });
  }

  std::vector<std::string> Read() {
    std::lock_guard<std::mutex> lock(mutex_);
    return read_;
  }

 private:
  const size_t size_;
  const std::vector<std::string> failing_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> read_;
};

constexpr ReadAhead::Budget kRoomy{1 << 20, 1 << 20, 1 << 30};

std::unique_ptr<HelperThreads> OneHelper() {
  auto helpers = std::make_unique<HelperThreads>(2);
  REQUIRE(helpers->count() == 1);
  return helpers;
}

// Long enough for a helper to have read on, had it been free to.
void GiveTheHelperTime() {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

TEST_CASE("Members planned are read ahead in order and taken once, in any order") {
  FakeMembers members(64);
  ReadAhead ahead(members.Reader(), kRoomy, OneHelper());
  REQUIRE(ahead.helpers() == 1);
  ahead.Plan({"a", "b"});
  ahead.Plan({"b", "c"});  // b is planned once
  REQUIRE(members.WaitForReads(3));
  GiveTheHelperTime();
  CHECK(members.Read() == std::vector<std::string>{"a", "b", "c"});
  SharedBytes c = ahead.Take("c");
  REQUIRE(c);
  CHECK(*c == *BytesOf("c", 64));
  CHECK(*ahead.Take("a") == *BytesOf("a", 64));
  CHECK(ahead.Take("a") == nullptr);  // taken already: read in place
  CHECK(ahead.Take("unplanned") == nullptr);
  CHECK(*ahead.Take("b") == *BytesOf("b", 64));
}

TEST_CASE("A member a helper could not read, or found too large, is left to the import") {
  FakeMembers members(64, {"damaged"});
  ReadAhead ahead(members.Reader(), {1 << 20, 32, 1 << 30}, OneHelper());
  ahead.Plan({"damaged", "large"});
  REQUIRE(members.WaitForReads(2));
  CHECK(ahead.Take("damaged") == nullptr);
  CHECK(ahead.Take("large") == nullptr);
}

TEST_CASE("A helper holds no more than its budget until the import takes some") {
  FakeMembers members(64);
  // One member fills it: the second waits until the first is taken.
  ReadAhead ahead(members.Reader(), {64, 1 << 20, 1 << 30}, OneHelper());
  ahead.Plan({"a", "b", "c"});
  REQUIRE(members.WaitForReads(1));
  GiveTheHelperTime();
  CHECK(members.Read() == std::vector<std::string>{"a"});
  REQUIRE(ahead.Take("a"));
  REQUIRE(members.WaitForReads(2));
  GiveTheHelperTime();
  CHECK(members.Read() == std::vector<std::string>{"a", "b"});
  // Taken before any helper began it: read in place, and skipped by the helper.
  CHECK(ahead.Take("c") == nullptr);
  REQUIRE(ahead.Take("b"));
  GiveTheHelperTime();
  CHECK(members.Read() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("Nothing is read ahead past the bytes the import may read in all") {
  FakeMembers members(64);
  ReadAhead ahead(members.Reader(), {1 << 20, 1 << 20, 100}, OneHelper());
  ahead.Plan({"a", "b", "c"});
  REQUIRE(members.WaitForReads(2));
  GiveTheHelperTime();
  // 128 bytes read: past 100, so c is the import's to read, and to count.
  CHECK(members.Read() == std::vector<std::string>{"a", "b"});
  CHECK(ahead.Take("c") == nullptr);
}

TEST_CASE("With no helper free, nothing is read ahead") {
  FakeMembers members(64);
  ReadAhead ahead(members.Reader(), kRoomy, std::make_unique<HelperThreads>(1));
  CHECK(ahead.helpers() == 0);
  ahead.Plan({"a"});
  GiveTheHelperTime();
  CHECK(ahead.Take("a") == nullptr);
  CHECK(members.Read().empty());
}

TEST_CASE("Dropped with members held and a helper waiting for room, it stops") {
  FakeMembers members(64);
  auto ahead = std::make_unique<ReadAhead>(members.Reader(),
                                           ReadAhead::Budget{64, 1 << 20, 1 << 30}, OneHelper());
  ahead->Plan({"a", "b"});
  REQUIRE(members.WaitForReads(1));
  ahead.reset();
  CHECK(members.Read() == std::vector<std::string>{"a"});
}

}  // namespace
}  // namespace instrumentscope::trace_bundle
