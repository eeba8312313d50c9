#include "tables/samples.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "base/checked_math.h"
#include "base/text.h"
#include "tables/narratives.h"

namespace instrumentscope::tables {
namespace {

constexpr uint32_t kNoThread = UINT32_MAX;
constexpr uint64_t kNoSample = UINT64_MAX;

// A system call's name as Instruments shows it: without the prefix of its
// kdebug class (MSC_ Mach traps, BSC_ BSD calls) that a bundle's strings
// and an export's cell text keep ("MSC_mach_msg2_trap": "mach_msg2_trap").
std::string_view LeafName(std::string_view text) {
  for (std::string_view prefix : {"MSC_", "BSC_"}) {
    if (text.size() > prefix.size() && text.substr(0, prefix.size()) == prefix) {
      return text.substr(prefix.size());
    }
  }
  return text;
}

}  // namespace

SampleConsumer::SampleConsumer(const TableEntry& entry, uint32_t run, RoleSet columns,
                               RowContext& context, ProfileBuilder& builder)
    : entry_(entry),
      run_(run),
      context_(context),
      builder_(builder),
      weighted_events_(entry.consumer == Consumer::kWeightedEvents),
      has_weight_(columns.has(Role::kWeight)),
      weight_is_duration_(false),
      has_kernel_stack_(columns.has(Role::kKernelBacktrace)),
      has_narrative_(columns.has(Role::kNarrative)),
      has_counters_(columns.has(Role::kCounters)),
      room_(builder.sample_room()) {
  for (const ColumnSpec& spec : entry.columns) {
    if (spec.role == Role::kWeight) weight_is_duration_ = spec.type == ValueType::kDuration;
  }
  views_.emplace_back(Role::kWeight, std::string(entry.weighs), weighted_events_);
  if (columns.has(Role::kSecondWeight)) {
    views_.emplace_back(Role::kSecondWeight, std::string(entry.second_weighs), true);
  }
  first_counter_ = views_.size();
}

Status SampleConsumer::Add(const TypedRow& row) {
  const Value& time = row[Role::kStart];
  if (!time.present) {
    return Status(ErrorCode::kBadSample,
                  weighted_events_ ? "has no start time" : "has no sample time");
  }
  int64_t weight = 1;  // time-sample rows count one sample each
  if (has_weight_) {
    const Value& value = row[Role::kWeight];
    if (!value.present) {
      ++rows_without_weight_;
      return OkStatus();
    }
    if (!weight_is_time_) weight_is_time_ = weight_is_duration_ || value.nanoseconds;
    // A weight above 2^63 is damage: it reads negative, and is refused below.
    weight = static_cast<int64_t>(value.number);
  }
  // Checked here, so that a refusal says what of the row is wrong.
  if (time.number > static_cast<uint64_t>(INT64_MAX)) {
    return Status(ErrorCode::kBadSample, "has a sample time past 2^63 ns");
  }
  if (weight < 0) {
    return Status(ErrorCode::kBadSample, "has a negative weight, " + std::to_string(weight));
  }
  if (!CheckedAdd(static_cast<int64_t>(time.number), weight)) {
    return Status(ErrorCode::kBadSample, "has a sample time and weight whose sum overflows");
  }
  std::optional<std::string_view> leaf;
  if (has_narrative_) {
    // Only spans off the CPU: the rest are other tables' (system calls, page faults).
    leaf = OffCpuSpan(row.text(Role::kNarrative));
    if (!leaf) return OkStatus();
  } else if (row.has(Role::kLeafFrame)) {
    leaf = LeafName(row.text(Role::kLeafFrame));
  }
  ++rows_;
  StackId stack = StackOf(row, leaf);
  uint32_t thread = ThreadOf(row);
  RETURN_IF_ERROR(AddTo(views_[0], thread, static_cast<int64_t>(time.number), weight, stack));
  if (views_.size() > 1 && row.has(Role::kSecondWeight)) {
    uint64_t second = row[Role::kSecondWeight].number;
    if (second > static_cast<uint64_t>(INT64_MAX - static_cast<int64_t>(time.number))) {
      return Status(
          ErrorCode::kBadSample,
          "has a sample time and " + std::string(entry_.second_weighs) + " whose sum overflows");
    }
    RETURN_IF_ERROR(AddTo(views_[1], thread, static_cast<int64_t>(time.number),
                          static_cast<int64_t>(second), stack));
  }
  if (has_counters_ && row.has(Role::kCounters)) {
    RETURN_IF_ERROR(
        AddCounts(row.text(Role::kCounters), thread, static_cast<int64_t>(time.number), stack));
  }
  return OkStatus();
}

Status SampleConsumer::AddCounts(std::string_view counts, uint32_t thread, int64_t time,
                                 StackId stack) {
  size_t counter = 0;
  for (std::string_view rest = counts; !rest.empty(); ++counter) {
    size_t end = rest.find(' ');
    std::string_view digits = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    uint64_t count = 0;
    auto [end_of_count, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), count);
    bool whole = error == std::errc() && end_of_count == digits.data() + digits.size();
    if (digits.empty() || !whole || count > static_cast<uint64_t>(INT64_MAX - time)) {
      return Status(ErrorCode::kBadSample, "has a count of counter " + std::to_string(counter + 1) +
                                               ", \"" + std::string(digits) +
                                               "\", that is no number of events");
    }
    if (first_counter_ + counter == views_.size()) {
      views_.emplace_back(Role::kCounters, "counter " + std::to_string(counter + 1), true);
    }
    RETURN_IF_ERROR(
        AddTo(views_[first_counter_ + counter], thread, time, static_cast<int64_t>(count), stack));
  }
  return OkStatus();
}

StackId SampleConsumer::StackOf(const TypedRow& row, std::optional<std::string_view> leaf) {
  StackId stack = kEmptyStack;
  if (row.has(Role::kBacktrace)) stack = static_cast<StackId>(row[Role::kBacktrace].number);
  if (has_kernel_stack_ && row.has(Role::kKernelBacktrace)) {
    stack = builder_.AppendStack(stack, static_cast<StackId>(row[Role::kKernelBacktrace].number));
  }
  if (leaf) {
    auto known = leaf_frames_.find(*leaf);
    if (known == leaf_frames_.end()) {
      FrameDesc desc;
      desc.name = *leaf;
      known = leaf_frames_.emplace(std::string(*leaf), builder_.InternFrame(desc)).first;
    }
    stack = builder_.InternStack(stack, known->second);
  }
  return stack;
}

Status SampleConsumer::AddTo(View& view, uint32_t thread, int64_t time, int64_t weight,
                             StackId stack) {
  if (view.events && weight == 0) return OkStatus();
  if (view.threads.size() <= thread) view.threads.resize(thread + 1, kNoThread);
  uint32_t& index = view.threads[thread];
  if (index == kNoThread) {
    index = view.samples.AddThread(threads_[thread]);
    view.last.push_back(View::Last{kNoSample, kEmptyStack, 0});
  }
  View::Last& last = view.last[index];
  uint64_t segment = view.events ? Segment(thread, time) : 0;
  if (view.events && last.sample != kNoSample && last.stack == stack && last.segment == segment &&
      view.samples.Merge(last.sample, weight)) {
    return OkStatus();
  }
  // Held samples count against limits.maxSamples as they are read, not only
  // once the table ends: a table too long for the limit is never held whole.
  if (held_ >= room_) return builder_.CheckRoomFor(held_ + 1);
  ++held_;
  last = View::Last{view.samples.size(), stack, segment};
  view.samples.AddChecked(index, time, weight, stack, std::nullopt);
  return OkStatus();
}

uint32_t SampleConsumer::ThreadOf(const TypedRow& row) {
  const Value& thread = row[Role::kThread];
  int64_t pid = thread.present && thread.pid >= 0 ? thread.pid
                : row.has(Role::kProcess)         ? row[Role::kProcess].pid
                                                  : -1;
  auto add = [&](SampleThread described) {
    threads_.push_back(std::move(described));
    return static_cast<uint32_t>(threads_.size() - 1);
  };
  if (!thread.present) {
    ++rows_without_thread_;
    auto known = unknown_threads_.find(pid);
    if (known != unknown_threads_.end()) return known->second;
    uint32_t unknown = add(SampleThread{"Unknown Thread", 0, context_.ProcessName(pid), pid});
    return unknown_threads_.emplace(pid, unknown).first->second;
  }
  uint32_t index = thread_index_.Find(thread.key);
  if (index != IntegerMap::kNoValue && threads_[index].pid == pid) return index;
  auto described = [&] {
    return SampleThread{context_.ThreadName(thread), thread.number, context_.ProcessName(pid), pid};
  };
  if (index == IntegerMap::kNoValue) {
    return thread_index_.Insert(thread.key, add(described())).first;
  }
  auto other = threads_of_other_pids_.find({thread.key, pid});
  if (other != threads_of_other_pids_.end()) return other->second;
  uint32_t added = add(described());
  return threads_of_other_pids_.emplace(std::make_pair(thread.key, pid), added).first->second;
}

uint64_t SampleConsumer::Segment(uint32_t thread, int64_t time) {
  // Looked up once per thread: every event of a thread asks.
  if (thread_spans_.size() <= thread) thread_spans_.resize(thread + 1, nullptr);
  const Spans*& of_thread = thread_spans_[thread];
  if (!of_thread) {
    int64_t pid = threads_[thread].pid;
    auto known = during_spans_.find(pid);
    if (known == during_spans_.end()) {
      known = during_spans_.emplace(pid, builder_.AllDuringSpans(run_, pid)).first;
    }
    of_thread = &known->second;
  }
  const Spans& spans = *of_thread;
  if (spans.empty()) return 0;
  // The first span that ends after `time`: before it, or inside.
  auto span =
      std::upper_bound(spans.begin(), spans.end(), time,
                       [](int64_t at, const auto& candidate) { return at < candidate.second; });
  uint64_t before = static_cast<uint64_t>(span - spans.begin());
  return 2 * before + (span != spans.end() && span->first <= time ? 1 : 0);
}

Status SampleConsumer::Commit(ProfileBuilder& builder, const std::string& path) const {
  for (const View& view : views_) {
    RETURN_IF_ERROR(view.samples.Commit(builder, Timeline(view), path));
  }
  size_t counters = views_.size() - first_counter_;
  if (counters > 0) {
    builder.AddWarning(WarningCode::kCountersUnnamed,
                       "the " + std::string(entry_.schema) + " table of run " +
                           std::to_string(run_) + " names its " +
                           Counted(counters, "performance counter") +
                           " by number (\"counter 1\"): which events each counts is not read");
  }
  return OkStatus();
}

void WarnOfRowsWithout(ProfileBuilder& builder, uint64_t without_weight, uint64_t without_thread) {
  if (without_weight > 0) {
    builder.AddWarning(WarningCode::kRowsWithoutWeight,
                       Counted(without_weight, "row") + " had no weight and were left out");
  }
  if (without_thread > 0) {
    builder.AddWarning(
        WarningCode::kRowsWithoutThread,
        Counted(without_thread, "row") + " named no thread; they appear under \"Unknown Thread\"");
  }
}

SampleTimeline SampleConsumer::Timeline(const View& view) const {
  SampleTimeline timeline;
  timeline.run = run_;
  timeline.table = std::string(entry_.schema);
  bool time = has_weight_ && weight_is_time_.value_or(weight_is_duration_);
  bool counts = view.weight == Role::kCounters;
  timeline.unit = time && !counts ? ValueUnit::kNanoseconds : ValueUnit::kNone;
  if (view.events) {
    timeline.content.kind = ProfileKind::kWeighted;
    timeline.content.weighs = view.weighs;
    timeline.axis = ProfileBuilder::TimeAxis::kOrderOnly;
  }
  return timeline;
}

}  // namespace instrumentscope::tables
