// A System Trace bundle (Instruments 26.x, a Mac): thread states as lanes,
// what each core ran, system calls by duration and by wait, page faults.
// Totals are held against an independent decoder of the same bytes (the
// research pass's Python reader of the bulkstores, quoted here), and the
// tables against one another.
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "container/inflate.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;

constexpr const char* kSystemTrace = "BA-Partners__Documents/Untitled.trace";
constexpr std::string_view kDash = " \xE2\x80\x94 ";

const TableSummary* TableNamed(const ProfileGroup& group, const std::string& schema) {
  for (const TableSummary& table : group.tables) {
    if (table.schema == schema) return &table;
  }
  return nullptr;
}

// A thread as both its lanes and its profiles name it.
using ThreadKey = std::pair<std::string, int64_t>;  // its name, its pid

TEST_CASE("A System Trace bundle: each of its scheduling tables read, and its counts") {
  auto path = CorpusFileOrSkip(kSystemTrace);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  for (const char* schema : {"thread-state", "cpu-state", "syscall", "virtual-memory"}) {
    INFO(schema);
    const TableSummary* table = TableNamed(*group, schema);
    REQUIRE(table);
    CHECK(table->has_intervals);
  }
  CHECK(TableNamed(*group, "syscall")->rows == 838333);
  CHECK(TableNamed(*group, "virtual-memory")->rows == 43);

  // 11,254 thread-state rows, 3,613 of them of no thread (thread reference
  // 0xFFFFFFFF: mostly Blocked from the recording's start); 5,735 cpu-state rows.
  uint64_t states = 0, core_intervals = 0;
  std::set<std::string> cores;
  for (const IntervalSource& source : group->interval_sources) {
    if (source.table == "thread-state") states += source.intervals;
    if (source.table == "cpu-state") {
      core_intervals += source.intervals;
      cores.insert(source.name);
    }
  }
  CHECK(states == 11254 - 3613);
  CHECK(core_intervals == 5735);
  CHECK(cores.size() == 8);
  CHECK(cores.count("Cores \xE2\x80\x94 CPU 0") == 1);
  auto without_thread = testing::WarningMessages(*group, "ROWS_WITHOUT_THREAD");
  REQUIRE(without_thread.size() == 1);
  CHECK_THAT(without_thread[0],
             Catch::StartsWith("3,613 rows of the thread-state table of run 1 named no thread: "
                               "their states are in no lane"));

  // Every row's duration and wait time, summed by the Python reader: the
  // profiles weigh them all, whatever rows were merged.
  int64_t duration = 0, wait = 0, faults = 0;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kWeighted) continue;
    if (profile.name.find("time in system calls") != std::string::npos) {
      duration += profile.sample_weight;
    } else if (profile.name.find("wait in system calls") != std::string::npos) {
      wait += profile.sample_weight;
    } else if (profile.name.find("time in page faults") != std::string::npos) {
      faults += profile.sample_weight;
    }
  }
  CHECK(duration == 8317970372);
  CHECK(wait == 8088239242);
  CHECK(faults == 402337);  // the narratives' "Virtual memory … took" total
}

TEST_CASE("A System Trace's narratives: each thread's time off the CPU, by why, with its stacks") {
  auto path = CorpusFileOrSkip(kSystemTrace);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  REQUIRE(group.ok());
  // Of 849,177 rows, the spans off the CPU, by their opening words, summed
  // by the Python reader over every row (of a thread or not).
  const std::map<std::string, int64_t> expected = {
      {"Blocked", 439995521622},        // "Blocked for …"
      {"Idle", 7061920504},             // "Idle for …"
      {"Preempted", 23600932},          // "Preempted at priority …"
      {"Waiting for a CPU", 11613204},  // "The thread was made runnable by … It waited …"
      {"Interrupted", 3139878},         // "Interrupted for …"
  };
  std::map<std::string, int64_t> actual;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kWeighted || profile.table != "thread-narrative") continue;
    CHECK(profile.name.find("time off CPU") != std::string::npos);
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      REQUIRE(profile.samples[i] != kEmptyStack);
      actual[group->frames[group->stacks.frame[profile.samples[i]]].name] += profile.weights[i];
    }
  }
  CHECK(actual == expected);
  const TableSummary* table = TableNamed(*group, "thread-narrative");
  REQUIRE(table);
  CHECK(table->has_intervals);
}

TEST_CASE(
    "A System Trace's thread states: each thread's states add up to its life, calls fit them") {
  auto path = CorpusFileOrSkip(kSystemTrace);
  if (!path) return;
  auto group = testing::ImportPath(*path);
  REQUIRE(group.ok());

  // Per thread, its time by state as the summary lists it, and its life:
  // from its first state's start to its last state's end.
  std::map<ThreadKey, std::map<std::string, int64_t>> by_state;
  std::map<ThreadKey, std::pair<int64_t, int64_t>> lives;
  std::string prefix = "Thread states" + std::string(kDash);
  for (const IntervalSource& source : group->interval_sources) {
    if (source.table != "thread-state") continue;
    REQUIRE(source.name.rfind(prefix, 0) == 0);
    ThreadKey thread{source.name.substr(prefix.size()), source.pid};
    REQUIRE(source.names.size() == source.distinct_names);  // every state listed
    for (const IntervalSource::Name& name : source.names) {
      by_state[thread][name.name] += name.total_duration;
    }
  }
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kIntervals || profile.table != "thread-state") continue;
    const IntervalSource& source = group->interval_sources[profile.interval_source];
    ThreadKey thread{source.name.substr(prefix.size()), source.pid};
    REQUIRE(!profile.events.empty());
    auto [life, added] =
        lives.try_emplace(thread, profile.events.front().at, profile.events.back().at);
    life->second.first = std::min(life->second.first, profile.events.front().at);
    life->second.second = std::max(life->second.second, profile.events.back().at);
  }
  REQUIRE(by_state.size() == lives.size());
  CHECK(by_state.size() > 100);
  for (const auto& [thread, states] : by_state) {
    INFO(thread.first << " pid " << thread.second);
    int64_t total = 0;
    for (const auto& [state, time] : states) total += time;
    int64_t life = lives[thread].second - lives[thread].first;
    CHECK(std::abs(total - life) * 100 <= life);
  }

  // The rule: a system call's time that was not waiting (its duration less
  // its wait time) is time its thread was not blocked, so a thread's calls
  // add up to at most its time Running, Runnable, Preempted or Interrupted
  // in thread-state. (Its calls' CPU time alone exceeds its Running time
  // in 53 of the 113 threads: Instruments counts a call's time Runnable as
  // CPU time, not as waiting.)
  std::map<ThreadKey, int64_t> not_waiting;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kWeighted || profile.table != "syscall") continue;
    if (profile.thread_name == "Unknown Thread") continue;
    ThreadKey thread{profile.thread_name, profile.pid};
    bool waits = profile.name.find("wait in system calls") != std::string::npos;
    not_waiting[thread] += waits ? -profile.sample_weight : profile.sample_weight;
  }
  CHECK(not_waiting.size() > 100);
  for (const auto& [thread, time] : not_waiting) {
    INFO(thread.first << " pid " << thread.second);
    REQUIRE(by_state.count(thread) == 1);
    std::map<std::string, int64_t>& states = by_state[thread];
    int64_t on_or_ready =
        states["Running"] + states["Runnable"] + states["Preempted"] + states["Interrupted"];
    CHECK(time <= on_or_ready);
  }
}

// The rows of a copy's bulkstore, inflated, to be damaged and written back plain.
struct Rows {
  std::string path;
  std::vector<uint8_t> bytes;
  uint32_t row_size = 0;

  Rows(const testing::ScratchCopy& copy, const std::string& store)
      : path(copy / ("corespace/run1/core/stores/" + store + "/bulkstore")) {
    std::vector<uint8_t> compressed = testing::ReadFile(path);
    auto inflated = Inflate(ByteSpan(compressed.data(), compressed.size()), InflateFormat::kZlib,
                            size_t{1} << 30);
    REQUIRE(inflated.ok());
    bytes = std::move(*inflated);
    std::memcpy(&row_size, bytes.data() + 16, 4);
  }
  void SetU32(size_t row, size_t offset, uint32_t value) {
    std::memcpy(bytes.data() + 0x1000 + row * row_size + offset, &value, 4);
  }
  void Write() const { testing::WriteFile(path, std::string(bytes.begin(), bytes.end())); }
};

TEST_CASE(
    "A System Trace's damaged rows: a call or state past the strings by its number, a stack "
    "past the uniquer costing its table") {
  auto path = CorpusFileOrSkip(kSystemTrace);
  if (!path) return;
  testing::ScratchCopy copy(*path);
  // syscall (indexed-store-18, 104-byte rows): row 0's call, category 2 of
  // its topology @20, past the run's 4,562 strings; thread-state
  // (indexed-store-7, 60 bytes): row 3's state @20 likewise; virtual-memory
  // (indexed-store-17, 64 bytes): row 0's backtrace @60 past the uniquer.
  Rows calls(copy, "indexed-store-18");
  calls.SetU32(0, 20, 372000);
  calls.Write();
  Rows states(copy, "indexed-store-7");
  states.SetU32(3, 20, 14000);
  states.Write();
  Rows faults(copy, "indexed-store-17");
  REQUIRE(faults.row_size == 64);
  faults.SetU32(0, 60, 0x7FFFFFF0);
  faults.Write();

  auto group = testing::ImportPath(copy.path());
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  // Said once per column, with the value (warnings of a code are one line).
  CHECK(testing::WarningMessages(*group, "UNKNOWN_VALUES") ==
        std::vector<std::string>{
            "the thread-state table of run 1 names state 14000, none of the run's 4,562 strings: "
            "shown as \"state 14000\"; the syscall table of run 1 names syscall 372000, none of "
            "the run's 4,562 strings: shown as \"syscall 372000\""});
  bool call_shown = false, state_shown = false;
  for (const Frame& frame : group->frames) {
    call_shown |= frame.name == "syscall 372000";
    state_shown |= frame.name == "state 14000";
  }
  CHECK(call_shown);
  CHECK(state_shown);
  // The page faults are left out, and said so; the rest imports.
  CHECK(testing::WarningMessages(*group, "TABLE_UNREADABLE") ==
        std::vector<std::string>{
            "the virtual-memory table of run 1 left out: "
            "corespace/run1/core/uniquing/arrayUniquer/integeruniquer.data is damaged (its page "
            "faults): BUNDLE_CORRUPT: array 2147483632 is not in the uniquer (it holds 11748); the "
            "kdebug table of run 1 left out: corespace/run1/core/stores/indexed-store-44/bulkstore "
            "is missing (its row count: it is listed with 0 rows)"});
  for (const Profile& profile : group->profiles) CHECK(profile.table != "virtual-memory");
}

}  // namespace
}  // namespace instrumentscope
