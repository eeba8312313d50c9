// The catalogue says once what each table is: no schema twice, every entry
// readable (a start column it needs), columns named once, the tables of CPU
// samples each reader is read for.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "tables/catalogue.h"

namespace instrumentscope {
namespace {

TEST_CASE("Each table is described once, by the catalogue or the list of other tables") {
  std::set<std::string> schemas;
  for (const tables::TableEntry& entry : tables::Catalogue()) {
    INFO(entry.schema);
    CHECK(schemas.insert(std::string(entry.schema)).second);
    CHECK(tables::FindTable(entry.schema) == &entry);
    std::set<std::string> mnemonics;
    bool needs_start = false;
    for (const tables::ColumnSpec& column : entry.columns) {
      CHECK(mnemonics.insert(std::string(column.mnemonic)).second);
      needs_start = needs_start || (column.role == tables::Role::kStart && column.required);
    }
    CHECK(needs_start);
    CHECK(!entry.source.empty());
    CHECK(!entry.lost.empty());
  }
  for (const tables::OtherTable& table : tables::OtherTables()) {
    INFO(table.schema);
    CHECK(schemas.insert(std::string(table.schema)).second);
    CHECK(tables::FindOtherTable(table.schema) == &table);
    CHECK((table.from_bundles || table.from_exports));
  }
  CHECK(tables::FindTable("kdebug") == nullptr);  // only listed
  CHECK(tables::FindOtherTable("kdebug") == nullptr);
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

TEST_CASE("Bundles are read for time-profile samples; exports for every kind") {
  CHECK(tables::CpuSampleSchemas(true) == std::vector<std::string_view>{"time-profile"});
  CHECK(tables::CpuSampleSchemas(false) ==
        std::vector<std::string_view>{"time-profile", "cpu-profile", "counters-profile",
                                      "time-sample"});
}

}  // namespace
}  // namespace instrumentscope
