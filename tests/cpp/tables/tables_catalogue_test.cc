// The catalogue says once what each table is: no schema twice, every entry
// readable (the column its consumer cannot do without), columns named once,
// the tables of CPU samples each reader is read for.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "tables/catalogue.h"

namespace instrumentscope {
namespace {

// The role a consumer of `consumer` needs every row to have.
tables::Role KeyRole(tables::Consumer consumer) {
  switch (consumer) {
    case tables::Consumer::kThreadNames: return tables::Role::kThread;
    case tables::Consumer::kProcessNames: return tables::Role::kProcess;
    default: return tables::Role::kStart;
  }
}

TEST_CASE("Each table is described once, with the columns its consumer needs") {
  std::set<std::string> schemas;
  for (const tables::TableEntry& entry : tables::Catalogue()) {
    INFO(entry.schema);
    CHECK(schemas.insert(std::string(entry.schema)).second);
    CHECK(tables::FindTable(entry.schema) == &entry);
    std::set<std::string> mnemonics;
    bool has_key = false;
    for (const tables::ColumnSpec& column : entry.columns) {
      CHECK(mnemonics.insert(std::string(column.mnemonic)).second);
      has_key = has_key || (column.role == KeyRole(entry.consumer) && column.required);
    }
    CHECK(has_key);
    CHECK((entry.from_bundles || entry.from_exports));
    CHECK(!entry.lost.empty());
    // Intervals are named by their source; weighted events by what they weigh.
    if (tables::MakesIntervals(entry.consumer)) CHECK(!entry.source.empty());
    CHECK(entry.weighs.empty() == (entry.consumer != tables::Consumer::kWeightedEvents));
  }
  CHECK(tables::FindTable("kdebug") == nullptr);  // only listed
}

TEST_CASE(
    "The tables that repeat one another's signposts rank from the one the others derive from") {
  std::vector<std::string> ranked;
  for (const tables::TableEntry& entry : tables::Catalogue()) {
    if (entry.repeats_rank) {
      CHECK(*entry.repeats_rank == static_cast<int>(ranked.size()));  // read in rank order
      ranked.push_back(std::string(entry.schema));
    }
  }
  CHECK(ranked ==
        std::vector<std::string>{"os-signpost", "os-signpost-interval", "region-of-interest"});
}

TEST_CASE("A weight column's engineering type says what its weights are, in either spelling") {
  using tables::WeightUnit;
  using tables::WeightUnitOf;
  CHECK(WeightUnitOf("weight") == WeightUnit::kNanoseconds);  // time-profile
  CHECK(WeightUnitOf("XRTimeSampleWeightTypeID") == WeightUnit::kNanoseconds);
  CHECK(WeightUnitOf("cycle-weight") == WeightUnit::kCount);  // cpu-profile
  CHECK(WeightUnitOf("any") == WeightUnit::kFromCell);        // counters-profile
  CHECK(WeightUnitOf("XRAnyTypeID") == WeightUnit::kFromCell);
  CHECK(WeightUnitOf("size-in-bytes") == WeightUnit::kCount);
}

TEST_CASE("Bundles are read for time-profile samples and names; exports for every kind") {
  CHECK(tables::CpuSampleSchemas(true) == std::vector<std::string_view>{"time-profile"});
  CHECK(tables::CpuSampleSchemas(false) ==
        std::vector<std::string_view>{"time-profile", "cpu-profile", "counters-profile",
                                      "time-sample"});
  // An export names threads and processes in its cells: it has no name tables.
  for (const char* names : {"thread-name", "thread-info", "process-info"}) {
    INFO(names);
    REQUIRE(tables::FindTable(names));
    CHECK(tables::FindTable(names)->from_bundles);
    CHECK_FALSE(tables::FindTable(names)->from_exports);
  }
}

}  // namespace
}  // namespace instrumentscope
