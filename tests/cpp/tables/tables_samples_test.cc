// The consumer of sample tables, fed typed rows as either reader decodes
// them: a row without a weight is left out, one without a thread goes to
// "Unknown Thread", and both are counted for the warnings that say so.
#include <catch2/catch.hpp>
#include <string>

#include "model/profile_builder.h"
#include "tables/catalogue.h"
#include "tables/samples.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using tables::Role;

class Names final : public tables::RowContext {
 public:
  std::string ThreadName(const tables::Value& thread) override {
    return "worker 0x" + std::to_string(thread.number);
  }
  std::string ProcessName(int64_t pid) override { return pid == 7 ? "app" : ""; }
};

tables::TypedRow Sample(int64_t time, bool thread, bool weight) {
  tables::TypedRow row;
  row[Role::kStart] = tables::Value{true, false, static_cast<uint64_t>(time)};
  if (thread) {
    tables::Value& value = row[Role::kThread];
    value.present = true;
    value.number = 5;
    value.key = 5;
    value.pid = 7;
  }
  if (weight) {
    tables::Value& value = row[Role::kWeight];
    value.present = true;
    value.number = 1000;
    value.nanoseconds = true;
  }
  return row;
}

TEST_CASE("A sample table's rows without a weight are left out, without a thread shown apart") {
  const tables::TableEntry* entry = tables::FindTable("time-profile");
  REQUIRE(entry);
  tables::RoleSet columns;
  for (Role role : {Role::kStart, Role::kThread, Role::kWeight, Role::kBacktrace}) {
    columns.Add(role);
  }
  ProfileBuilder builder;
  Names names;
  tables::SampleConsumer consumer(*entry, 1, columns, names, builder);
  CHECK(consumer.Add(Sample(0, true, true)).ok());
  CHECK(consumer.Add(Sample(1000, true, false)).ok());  // left out
  CHECK(consumer.Add(Sample(2000, false, true)).ok());  // "Unknown Thread", of no process
  CHECK(consumer.Add(Sample(3000, true, true)).ok());
  CHECK(consumer.rows_without_weight() == 1);
  CHECK(consumer.rows_without_thread() == 1);
  CHECK(consumer.samples().size() == 3);
  REQUIRE(consumer.samples().Commit(builder, consumer.Timeline(), "").ok());
  tables::WarnOfRowsWithout(builder, consumer.rows_without_weight(),
                            consumer.rows_without_thread());

  auto group = std::move(builder).Build("", "");
  REQUIRE(group.ok());
  CHECK(testing::WarningMessages(*group, "ROWS_WITHOUT_WEIGHT") ==
        std::vector<std::string>{"1 row had no weight and were left out"});
  CHECK(testing::WarningMessages(*group, "ROWS_WITHOUT_THREAD") ==
        std::vector<std::string>{"1 row named no thread; they appear under \"Unknown Thread\""});
  std::vector<std::string> threads;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kThread) continue;
    threads.push_back(profile.name + ": " + std::to_string(profile.sample_count));
    CHECK(profile.unit == ValueUnit::kNanoseconds);
  }
  CHECK(threads == std::vector<std::string>{"worker 0x5 — app (pid 7): 2", "Unknown Thread: 1"});
}

TEST_CASE("Rows without a weight or a thread are counted with thousands, for either reader") {
  ProfileBuilder builder;
  tables::WarnOfRowsWithout(builder, 1234, 0);
  auto group = std::move(builder).Build("", "");
  REQUIRE(group.ok());
  CHECK(testing::WarningMessages(*group, "ROWS_WITHOUT_WEIGHT") ==
        std::vector<std::string>{"1,234 rows had no weight and were left out"});
  CHECK(testing::WarningMessages(*group, "ROWS_WITHOUT_THREAD").empty());
}

}  // namespace
}  // namespace instrumentscope
