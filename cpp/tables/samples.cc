#include "tables/samples.h"

#include <string>

#include "base/checked_math.h"
#include "base/text.h"

namespace instrumentscope::tables {

SampleConsumer::SampleConsumer(const TableEntry& entry, uint32_t run, RoleSet columns,
                               RowContext& context, ProfileBuilder& builder)
    : entry_(entry),
      run_(run),
      context_(context),
      builder_(builder),
      has_weight_(columns.has(Role::kWeight)),
      weight_is_duration_(false),
      has_kernel_stack_(columns.has(Role::kKernelBacktrace)),
      room_(builder.sample_room()) {
  for (const ColumnSpec& spec : entry.columns) {
    if (spec.role == Role::kWeight) weight_is_duration_ = spec.type == ValueType::kDuration;
  }
}

Status SampleConsumer::Add(const TypedRow& row) {
  const Value& time = row[Role::kStart];
  if (!time.present) {
    return Status(ErrorCode::kBadSample, entry_.consumer == Consumer::kWeightedEvents
                                             ? "has no start time"
                                             : "has no sample time");
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
  StackId stack = kEmptyStack;
  if (row.has(Role::kBacktrace)) stack = static_cast<StackId>(row[Role::kBacktrace].number);
  if (has_kernel_stack_ && row.has(Role::kKernelBacktrace)) {
    stack = builder_.AppendStack(stack, static_cast<StackId>(row[Role::kKernelBacktrace].number));
  }
  // Held samples count against limits.maxSamples as they are read, not only
  // once the table ends: a table too long for the limit is never held whole.
  if (samples_.size() >= room_) return builder_.CheckRoomFor(samples_.size() + 1);
  samples_.AddChecked(ThreadOf(row), static_cast<int64_t>(time.number), weight, stack,
                      std::nullopt);
  return OkStatus();
}

uint32_t SampleConsumer::ThreadOf(const TypedRow& row) {
  const Value& thread = row[Role::kThread];
  int64_t pid = thread.present && thread.pid >= 0 ? thread.pid
                : row.has(Role::kProcess)         ? row[Role::kProcess].pid
                                                  : -1;
  if (!thread.present) {
    ++rows_without_thread_;
    auto known = unknown_threads_.find(pid);
    if (known != unknown_threads_.end()) return known->second;
    SampleThread unknown{"Unknown Thread", 0, context_.ProcessName(pid), pid};
    return unknown_threads_.emplace(pid, samples_.AddThread(std::move(unknown))).first->second;
  }
  uint32_t index = threads_.Find(thread.key);
  if (index != IntegerMap::kNoValue && samples_.thread(index).pid == pid) return index;
  auto add = [&] {
    return samples_.AddThread(
        SampleThread{context_.ThreadName(thread), thread.number, context_.ProcessName(pid), pid});
  };
  if (index == IntegerMap::kNoValue) return threads_.Insert(thread.key, add()).first;
  auto other = threads_of_other_pids_.find({thread.key, pid});
  if (other != threads_of_other_pids_.end()) return other->second;
  return threads_of_other_pids_.emplace(std::make_pair(thread.key, pid), add()).first->second;
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

SampleTimeline SampleConsumer::Timeline() const {
  SampleTimeline timeline;
  timeline.run = run_;
  timeline.table = std::string(entry_.schema);
  bool time = has_weight_ && weight_is_time_.value_or(weight_is_duration_);
  timeline.unit = time ? ValueUnit::kNanoseconds : ValueUnit::kNone;
  if (entry_.consumer == Consumer::kWeightedEvents) {
    timeline.content.kind = ProfileKind::kWeighted;
    timeline.content.weighs = std::string(entry_.weighs);
  }
  return timeline;
}

}  // namespace instrumentscope::tables
