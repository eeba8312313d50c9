// The consumer of sample tables, fed typed rows as either reader decodes
// them: a row without a weight is left out, one without a thread goes to
// "Unknown Thread", and both are counted for the warnings that say so.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  CHECK(consumer.samples() == 3);
  REQUIRE(consumer.Commit(builder, "").ok());
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

// The roles of every column of `entry`: a table whose schema has them all.
tables::RoleSet EveryColumn(const tables::TableEntry& entry) {
  tables::RoleSet columns;
  for (const tables::ColumnSpec& spec : entry.columns) columns.Add(spec.role);
  return columns;
}

// A system call on thread `tid` (of pid 7): its start, duration, wait, call and stack.
tables::TypedRow Call(uint64_t tid, int64_t start, uint64_t duration, uint64_t wait,
                      std::string_view call, StackId stack) {
  tables::TypedRow row;
  row[Role::kStart] = tables::Value{true, false, static_cast<uint64_t>(start)};
  tables::Value& thread = row[Role::kThread];
  thread.present = true;
  thread.number = thread.key = tid;
  thread.pid = 7;
  for (auto [role, value] : {std::pair{Role::kWeight, duration}, {Role::kSecondWeight, wait}}) {
    row[role].present = true;
    row[role].number = value;
  }
  row[Role::kLeafFrame].present = true;
  row[Role::kLeafFrame].text = call;
  row[Role::kBacktrace].present = true;
  row[Role::kBacktrace].number = stack;
  return row;
}

TEST_CASE(
    "System calls: by duration and by wait, the call's name the leaf, runs of one stack merged") {
  const tables::TableEntry* entry = tables::FindTable("syscall");
  REQUIRE(entry);
  tables::RoleSet columns = EveryColumn(*entry);
  ProfileBuilder builder;
  FrameDesc run_loop;
  run_loop.name = "CFRunLoopRun";
  StackId stack = builder.InternStack(kEmptyStack, builder.InternFrame(run_loop));
  Names names;
  tables::SampleConsumer consumer(*entry, 1, columns, names, builder);
  // Thread 5 waits in mach_msg2_trap three times, thread 6's call between
  // them; then thread 5 reads, once without waiting, and a call of no time.
  CHECK(consumer.Add(Call(5, 0, 100, 90, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.Add(Call(6, 50, 10, 0, "BSC_read", stack)).ok());
  CHECK(consumer.Add(Call(5, 200, 300, 250, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.Add(Call(5, 600, 50, 40, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.Add(Call(5, 700, 20, 0, "BSC_read", stack)).ok());
  CHECK(consumer.Add(Call(5, 800, 0, 0, "BSC_getpid", stack)).ok());
  CHECK(consumer.Add(Call(5, 900, 30, 25, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.rows() == 7);
  // By duration: thread 5's 3 runs of calls, thread 6's 1; by wait: thread 5's 1.
  CHECK(consumer.samples() == 5);
  REQUIRE(consumer.Commit(builder, "").ok());

  auto group = std::move(builder).Build("", "");
  REQUIRE(group.ok());
  std::map<std::string, std::vector<std::pair<std::string, int64_t>>> profiles;
  for (const Profile& profile : group->profiles) {
    CHECK(profile.unit == ValueUnit::kNanoseconds);
    if (profile.kind == ProfileKind::kAllThreads) {
      // The process's threads together, named as their profiles are.
      CHECK(profile.name ==
            "All threads \xE2\x80\x94 app (pid 7) \xE2\x80\x94 time in system calls");
      CHECK(profile.sample_weight == 510);
      continue;
    }
    CHECK(profile.kind == ProfileKind::kWeighted);
    auto& samples = profiles[profile.name];
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      std::string folded;
      for (StackId at = profile.samples[i]; at != kEmptyStack; at = group->stacks.parent[at]) {
        folded = group->frames[group->stacks.frame[at]].name + (folded.empty() ? "" : ";") + folded;
      }
      samples.emplace_back(folded, profile.weights[i]);
    }
  }
  using Samples = std::vector<std::pair<std::string, int64_t>>;
  CHECK(profiles["worker 0x5 \xE2\x80\x94 app (pid 7) \xE2\x80\x94 time in system calls"] ==
        Samples{{"CFRunLoopRun;mach_msg2_trap", 450},
                {"CFRunLoopRun;read", 20},
                {"CFRunLoopRun;mach_msg2_trap", 30}});
  CHECK(profiles["worker 0x6 \xE2\x80\x94 app (pid 7) \xE2\x80\x94 time in system calls"] ==
        Samples{{"CFRunLoopRun;read", 10}});
  // A run of one stack is merged across the calls that waited nothing.
  CHECK(profiles["worker 0x5 \xE2\x80\x94 app (pid 7) \xE2\x80\x94 wait in system calls"] ==
        Samples{{"CFRunLoopRun;mach_msg2_trap", 405}});
  CHECK(profiles.size() == 3);
}

TEST_CASE("System calls during hangs: those that start inside one, never merged across its edge") {
  const tables::TableEntry* entry = tables::FindTable("syscall");
  REQUIRE(entry);
  tables::RoleSet columns = EveryColumn(*entry);
  ProfileBuilder builder;
  ProfileBuilder::IntervalSourceDesc hangs;
  hangs.table = "potential-hangs";
  hangs.name = "Hangs";
  hangs.process_name = "app";
  hangs.pid = 7;
  hangs.during = ProfileBuilder::DuringViews::kAll;
  hangs.during_name = "hangs";
  REQUIRE(builder.AddInterval(builder.AddIntervalSource(hangs), 250, 650, "Hang", "Hang").ok());
  FrameDesc run_loop;
  run_loop.name = "CFRunLoopRun";
  StackId stack = builder.InternStack(kEmptyStack, builder.InternFrame(run_loop));
  Names names;
  tables::SampleConsumer consumer(*entry, 1, columns, names, builder);
  // Three calls of one stack: before the hang, before it too, inside it.
  CHECK(consumer.Add(Call(5, 0, 100, 90, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.Add(Call(5, 200, 300, 250, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.Add(Call(5, 600, 50, 40, "MSC_mach_msg2_trap", stack)).ok());
  CHECK(consumer.samples() == 4);  // by duration, 2; by wait, 2
  REQUIRE(consumer.Commit(builder, "").ok());

  auto group = std::move(builder).Build("", "");
  REQUIRE(group.ok());
  std::map<std::string, std::vector<int64_t>> during;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kDuring) continue;
    CHECK(profile.interval_name == "hangs");
    for (size_t i = 0; i < profile.weights.size(); ++i) {
      during[profile.name].push_back(profile.weights[i]);
    }
  }
  CHECK(during == std::map<std::string, std::vector<int64_t>>{
                      {"worker 0x5 \xE2\x80\x94 during hangs (1, 400 ns) \xE2\x80\x94 app (pid 7) "
                       "\xE2\x80\x94 time in system calls",
                       {50}},
                      {"worker 0x5 \xE2\x80\x94 during hangs (1, 400 ns) \xE2\x80\x94 app (pid 7) "
                       "\xE2\x80\x94 wait in system calls",
                       {40}}});
}

TEST_CASE("Hangs read after the events they hold: the views during them said to be approximate") {
  const tables::TableEntry* entry = tables::FindTable("syscall");
  REQUIRE(entry);
  tables::RoleSet columns = EveryColumn(*entry);
  ProfileBuilder builder;
  Names names;
  tables::SampleConsumer consumer(*entry, 1, columns, names, builder);
  CHECK(consumer.Add(Call(5, 200, 300, 250, "MSC_mach_msg2_trap", kEmptyStack)).ok());
  CHECK(consumer.Add(Call(5, 600, 50, 40, "MSC_mach_msg2_trap", kEmptyStack)).ok());
  REQUIRE(consumer.Commit(builder, "").ok());
  // As an export whose potential-hangs table follows its syscall table.
  ProfileBuilder::IntervalSourceDesc hangs;
  hangs.table = "potential-hangs";
  hangs.name = "Hangs";
  hangs.pid = 7;
  hangs.during = ProfileBuilder::DuringViews::kAll;
  hangs.during_name = "hangs";
  REQUIRE(builder.AddInterval(builder.AddIntervalSource(hangs), 250, 650, "Hang", "Hang").ok());
  auto group = std::move(builder).Build("", "");
  REQUIRE(group.ok());
  CHECK(testing::WarningMessages(*group, "DURING_VIEWS_APPROXIMATE") ==
        std::vector<std::string>{
            "run 1's hangs were read after its events weighted by durations (potential-hangs "
            "after them in the export): a run of one stack's events that crosses a hang's edge "
            "counts whole in its views during hangs, by its first event"});
}

}  // namespace
}  // namespace instrumentscope
