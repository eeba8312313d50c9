#include "formats/xctrace_xml/id_table.h"

#include <catch2/catch.hpp>

namespace instrumentscope::xctrace_xml {
namespace {

Value Number(int64_t number) {
  Value value;
  value.value_class = ValueClass::kNumber;
  value.set_number(number);
  return value;
}

Value Frame(uint32_t index) {
  Value value;
  value.value_class = ValueClass::kFrame;
  value.index = index;
  return value;
}

TEST_CASE("Ids resolve to their values, dense or sparse") {
  IdTable ids;
  CHECK(ids.Define(1, Number(10)));
  CHECK(ids.Define(2, Frame(7)));
  CHECK(ids.Define(1ull << 40, Number(99)));  // far outside xctrace's numbering
  CHECK(ids.Find(1).number() == 10);
  CHECK(ids.Find(2).value_class == ValueClass::kFrame);
  CHECK(ids.Find(2).index == 7);
  CHECK(ids.Find(1ull << 40).number() == 99);
  CHECK(ids.Find(3).value_class == ValueClass::kUndefined);
  CHECK(ids.size() == 3);
  ids.Clear();
  CHECK(ids.Find(1).value_class == ValueClass::kUndefined);
  CHECK(ids.size() == 0);
}

TEST_CASE("Numbers keep all 64 bits and their sign") {
  for (int64_t number : {int64_t{0}, int64_t{-1}, int64_t{96222200631163}, INT64_MIN, INT64_MAX}) {
    IdTable ids;
    REQUIRE(ids.Define(1, Number(number)));
    CHECK(ids.Find(1).number() == number);
  }
}

TEST_CASE("An id is defined once") {
  IdTable ids;
  CHECK(ids.Define(5, Number(1)));
  CHECK_FALSE(ids.Define(5, Number(2)));
  CHECK(ids.Find(5).number() == 1);
  // Defined while sparse, then the dense span grows past it.
  uint64_t late = 3 << 20;
  CHECK(ids.Define(late, Number(3)));
  for (uint64_t id = 10; id < (1 << 20); ++id) REQUIRE(ids.Define(id, Number(0)));
  CHECK_FALSE(ids.Define(late, Number(4)));
  CHECK(ids.Find(late).number() == 3);
}

}  // namespace
}  // namespace instrumentscope::xctrace_xml
