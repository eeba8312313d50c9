// Begin and end events paired into intervals as Instruments pairs them.
#include "model/event_pairing.h"

#include <catch2/catch.hpp>
#include <vector>

namespace instrumentscope {
namespace {

constexpr size_t kNone = PairedEvents::kNone;

std::vector<std::pair<size_t, size_t>> Pairs(const std::vector<KeyedEvent>& events) {
  std::vector<std::pair<size_t, size_t>> pairs;
  for (const PairedEvents& paired : PairEvents(events))
    pairs.emplace_back(paired.begin, paired.end);
  return pairs;
}

TEST_CASE("An end closes the newest open begin of its key") {
  std::vector<KeyedEvent> events = {
      {10, 1, EventRole::kBegin},  // 0
      {20, 1, EventRole::kBegin},  // 1
      {25, 2, EventRole::kBegin},  // 2: another key, left alone
      {30, 1, EventRole::kEnd},    // 3: closes 1
      {40, 1, EventRole::kEnd},    // 4: closes 0
      {50, 2, EventRole::kEnd},    // 5: closes 2
  };
  CHECK(Pairs(events) == std::vector<std::pair<size_t, size_t>>{{1, 3}, {0, 4}, {2, 5}});
}

TEST_CASE("Points, ends without a begin and begins without an end are all kept") {
  std::vector<KeyedEvent> events = {
      {5, 7, EventRole::kEnd},     // 0: begun before the recording
      {10, 1, EventRole::kBegin},  // 1: never ended
      {12, 3, EventRole::kPoint},  // 2
      {15, 2, EventRole::kBegin},  // 3: never ended
      {20, 1, EventRole::kBegin},  // 4
      {30, 1, EventRole::kEnd},    // 5: closes 4
  };
  std::vector<PairedEvents> paired = PairEvents(events);
  REQUIRE(paired.size() == 5);
  CHECK(paired[0].unbegun());
  CHECK(paired[0].first() == 0);
  CHECK(paired[1].begin == 2);
  CHECK(paired[1].end == 2);
  CHECK(paired[2].begin == 4);
  CHECK(paired[2].end == 5);
  // Those never ended come last, in the order they began.
  CHECK(paired[3].unended());
  CHECK(paired[3].first() == 1);
  CHECK(paired[4].first() == 3);
}

TEST_CASE("Events are paired in time order, ties in the order given") {
  // A run loop's run is written after the iterations it holds.
  std::vector<KeyedEvent> events = {
      {20, 1, EventRole::kBegin},  // 0: an iteration
      {30, 1, EventRole::kEnd},    // 1
      {10, 2, EventRole::kBegin},  // 2: the run, begun first
      {40, 2, EventRole::kEnd},    // 3
      {50, 1, EventRole::kBegin},  // 4: two begins at one time…
      {50, 1, EventRole::kBegin},  // 5
      {60, 1, EventRole::kEnd},    // 6: …the later given is the newer
  };
  CHECK(Pairs(events) ==
        std::vector<std::pair<size_t, size_t>>{{0, 1}, {2, 3}, {5, 6}, {4, kNone}});
}

TEST_CASE("No events, no intervals") {
  CHECK(PairEvents({}).empty());
}

}  // namespace
}  // namespace instrumentscope
