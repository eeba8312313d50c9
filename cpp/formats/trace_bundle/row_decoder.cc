#include "formats/trace_bundle/row_decoder.h"

#include <algorithm>
#include <string_view>

#include "base/text.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/threads.h"

namespace instrumentscope::trace_bundle {
namespace {

using tables::Role;
using tables::TypedRow;
using tables::Value;
using tables::ValueType;

constexpr uint64_t kNoThreadReference = 0;

// A column's engineering type in the table's schema.xml, "" when it has none.
std::string_view EngineeringType(const Table& table, std::string_view mnemonic) {
  for (const StoreColumn& column : table.schema.columns) {
    if (column.mnemonic == mnemonic) return column.engineering_type;
  }
  return {};
}

// Whether a consumer of `entry` needs its threads' tids and processes.
bool NeedsThreadProcesses(const tables::TableEntry& entry, tables::RoleSet roles) {
  switch (entry.consumer) {
    case tables::Consumer::kCpuSamples:
    case tables::Consumer::kWeightedEvents:
    case tables::Consumer::kCoreStates: return true;  // their threads are named in labels
    case tables::Consumer::kThreadNames:
    case tables::Consumer::kProcessNames: return false;
    default: return entry.split == tables::SourceSplit::kThread || !roles.has(Role::kProcess);
  }
}

}  // namespace

bool RowDecoder::SampleColumnType(std::string_view engineering_type) {
  static constexpr std::string_view kTypes[] = {
      "XRSampleTimestampTypeID", "XRThreadTypeID",
      "XRProcessTypeID",         "XRCPUCoreTypeID",
      "XRThreadStateTypeID",     "XRTimeSampleWeightTypeID",
      "XRBacktraceTypeID",       "XRRecordedEventTimestampTypeID"};
  return std::find(std::begin(kTypes), std::end(kTypes), engineering_type) != std::end(kTypes);
}

RowDecoder::RowDecoder(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                       const RowLayout& layout)
    : bundle_(bundle), table_(table), run_(bundle.Run(table.store.run)) {
  std::vector<std::string_view> missing;
  for (const tables::ColumnSpec& spec : entry.columns) {
    BitSlot slot = layout.Field(spec.mnemonic);
    if (!slot.width) {
      if (spec.required) missing.push_back(spec.mnemonic);
      continue;
    }
    if (roles_.has(spec.role)) continue;  // the role's first column wins
    roles_.Add(spec.role);
    std::string_view type = EngineeringType(table, spec.mnemonic);
    BoundColumn column{slot, spec.role, spec.type};
    column.message = type == "XRNarrativeEntryTypeID" || type == "XROSLogMetadataTypeID";
    column.name_index = type == "XRThreadNameTypeID";
    column.time_weight = tables::WeightUnitOf(type) == tables::WeightUnit::kNanoseconds;
    column.typed_weight = tables::WeightUnitOf(type) == tables::WeightUnit::kFromCell;
    if (spec.type == ValueType::kText && !column.message && !column.name_index) {
      column.by_number = type == "XRSystemCallNameTypeID" ? "syscall" : spec.mnemonic;
    }
    columns_.push_back(column);
  }
  std::stable_partition(columns_.begin(), columns_.end(), [](const BoundColumn& column) {
    return column.type == ValueType::kProcess;
  });
  if (!missing.empty()) missing_ = tables::MissingColumnsMessage(entry, missing);
  thread_processes_ = NeedsThreadProcesses(entry, roles_);
}

Status RowDecoder::Decode(const Row& row, TypedRow* typed) {
  // The process first (columns_ has it first): a thread without one takes it.
  uint64_t process_ref = kNoReference;
  for (const BoundColumn& column : columns_) {
    uint64_t raw = row.Get(column.slot);
    if (column.type == ValueType::kProcess) process_ref = raw;
    // A role's column is always of one type: each case sets every field its
    // type uses, and the others keep their defaults (millions of rows, no
    // whole Value made afresh for each).
    Value& value = (*typed)[column.role];
    value.present = false;
    switch (column.type) {
      case ValueType::kTime:
      case ValueType::kNumber:
        value.present = true;
        value.number = raw;
        break;
      case ValueType::kDuration:
        value.present = true;
        value.number = raw;
        value.bits = column.slot.bits;
        break;
      case ValueType::kWeight:
        if (column.typed_weight) {
          RETURN_IF_ERROR(DecodeTypedWeight(raw, &value));
          break;
        }
        value.present = true;
        value.number = raw;
        value.nanoseconds = column.time_weight;
        break;
      case ValueType::kCounters: RETURN_IF_ERROR(DecodeCounters(raw, &value)); break;
      case ValueType::kPid:
        value.present = true;
        value.pid = static_cast<int64_t>(raw);
        break;
      case ValueType::kBacktrace: {
        value.present = true;
        // Millions of rows share thousands of stacks: the cache is asked first, without a Status.
        std::optional<StackId> known = run_.stacks.Known(raw);
        if (known) {
          value.number = *known;
          break;
        }
        StackId stack;
        ASSIGN_OR_RETURN(stack, run_.stacks.Stack(raw));
        value.number = stack;
        break;
      }
      case ValueType::kProcess: {
        value.pid = -1;
        if (raw == kNoReference) break;
        // Rows name a few processes, over and over: each is looked up once.
        uint32_t index = process_index_.Find(raw);
        if (index == IntegerMap::kNoValue) {
          ASSIGN_OR_RETURN(index, LookUpProcess(raw));
        }
        value.present = true;
        value.pid = pids_[index];
        break;
      }
      case ValueType::kThread: {
        // The reference itself tells threads apart; its tid and process are
        // looked up where they are needed.
        value.key = value.number = 0;
        value.pid = -1;
        // Reference 0 is the run's first array, kernel_task's process record
        // in every bundle seen: a System Trace's rows of threads that had
        // exited name it (26.x: syscall, virtual-memory), and so name no thread.
        if (raw == kNoReference || raw == kNoThreadReference) break;
        value.present = true;
        value.key = raw;
        if (!thread_processes_) break;
        // References are u32 columns or topology parts of at most 32 bits.
        if (raw > UINT32_MAX || process_ref > UINT32_MAX) {
          return Status(ErrorCode::kBundleCorrupt,
                        "thread reference " + std::to_string(raw) + " or process reference " +
                            std::to_string(process_ref) + " is past 2^32");
        }
        uint64_t key = raw << 32 | process_ref;
        uint32_t index = thread_index_.Find(key);
        if (index == IntegerMap::kNoValue) {
          ASSIGN_OR_RETURN(index, LookUpThread(raw, process_ref, key));
        }
        value.number = threads_[index].tid;
        value.pid = threads_[index].pid;
        break;
      }
      case ValueType::kText:
        value.text = std::string_view();
        value.unreadable = false;
        RETURN_IF_ERROR(DecodeText(column, raw, &value));
        break;
      case ValueType::kNarrative: {
        MessageReader* reader;
        ASSIGN_OR_RETURN(reader, Messages());
        ASSIGN_OR_RETURN(value.text, reader->Opening(raw));
        value.present = raw != kNoReference;
        break;
      }
    }
  }
  return OkStatus();
}

std::string RowDecoder::ThreadName(const Value& thread) {
  return CoreThread(bundle_.Details(table_.run()), run_.names, thread.number, thread.key,
                    thread.pid)
      .name;
}

std::string RowDecoder::ProcessName(int64_t pid) {
  return CoreProcessName(bundle_.Details(table_.run()), run_.names, pid);
}

Result<uint32_t> RowDecoder::LookUpProcess(uint64_t ref) {
  int64_t pid;
  ASSIGN_OR_RETURN(pid, run_.references.ProcessId(ref));
  uint32_t index = process_index_.Insert(ref, static_cast<uint32_t>(pids_.size())).first;
  pids_.push_back(pid);
  return index;
}

// A thread record without a process takes the row's.
Result<uint32_t> RowDecoder::LookUpThread(uint64_t ref, uint64_t process_ref, uint64_t key) {
  RunReferences::Thread identity;
  ASSIGN_OR_RETURN(identity, run_.references.ThreadOf(ref, process_ref));
  uint32_t index = thread_index_.Insert(key, static_cast<uint32_t>(threads_.size())).first;
  threads_.push_back(identity);
  return index;
}

Status RowDecoder::DecodeText(const BoundColumn& column, uint64_t ref, Value* value) {
  if (column.name_index) ref >>= 32;
  if (ref == kNoReference) return OkStatus();
  value->present = true;
  if (!column.message) {
    if (!column.by_number.empty()) {
      if (!strings_) {
        ASSIGN_OR_RETURN(strings_, run_.references.Strings());
      }
      if (ref >= strings_->size()) {
        value->text = ByNumber(column, ref);
        return OkStatus();
      }
    }
    ASSIGN_OR_RETURN(value->text, String(ref));
    return OkStatus();
  }
  // Rows repeat messages (a typed array is stored once and referred to):
  // each is made text once.
  auto known = message_texts_.find(ref);
  if (known == message_texts_.end()) {
    std::optional<std::string> text;
    ASSIGN_OR_RETURN(text, Message(ref));
    if (!text) {
      value->unreadable = true;
      return OkStatus();
    }
    known = message_texts_.emplace(ref, std::move(*text)).first;
  }
  value->text = known->second;
  return OkStatus();
}

std::string_view RowDecoder::ByNumber(const BoundColumn& column, uint64_t index) {
  std::string text = std::string(column.by_number) + " " + std::to_string(index);
  if (by_number_said_.insert(column.by_number).second) {
    bundle_.builder.AddWarning(
        WarningCode::kUnknownValues,
        "the " + table_.name() + " table of run " + std::to_string(table_.run()) + " names " +
            std::string(column.by_number) + " " + std::to_string(index) + ", none of the run's " +
            Counted(strings_->size(), "string") + ": shown as \"" + text + "\"");
  }
  return *by_number_.insert(std::move(text)).first;
}

Result<std::string_view> RowDecoder::String(uint64_t index) {
  if (!strings_) {
    ASSIGN_OR_RETURN(strings_, run_.references.Strings());
  }
  const std::vector<std::string>* strings = strings_;
  if (index >= strings->size()) {
    return Status(ErrorCode::kBundleCorrupt, "string " + std::to_string(index) + " is past the " +
                                                 std::to_string(strings->size()) +
                                                 " strings of the run");
  }
  return std::string_view((*strings)[index]);
}

Result<MessageReader*> RowDecoder::Messages() {
  if (messages_) return &*messages_;
  auto reader = run_.references.Messages();
  if (!reader.ok()) return reader.status();
  messages_.emplace(reader.take());
  messages_->SetThreadNamer([this](uint64_t thread_ref) -> Result<std::string> {
    // "forced off CPU 3 by a thread not known" (26.x thread-state notes).
    if (thread_ref == kNoReference) return std::string("a thread not known");
    if (thread_ref > UINT32_MAX) {
      return Status(ErrorCode::kBundleCorrupt, "a message names thread reference " +
                                                   std::to_string(thread_ref) + ", past 2^32");
    }
    uint64_t key = thread_ref << 32 | kNoReference;
    uint32_t index = thread_index_.Find(key);
    if (index == IntegerMap::kNoValue) {
      ASSIGN_OR_RETURN(index, LookUpThread(thread_ref, kNoReference, key));
    }
    Value thread;
    thread.key = thread_ref;
    thread.number = threads_[index].tid;
    thread.pid = threads_[index].pid;
    return ThreadName(thread);
  });
  return &*messages_;
}

Result<std::optional<std::string>> RowDecoder::Message(uint64_t ref) {
  if (!messages_) {
    if (run_.messages_unreadable) return std::optional<std::string>();
    auto messages = Messages();
    if (!messages.ok()) {
      run_.messages_unreadable = true;
      std::string run = "run " + std::to_string(table_.run());
      RETURN_IF_ERROR(bundle_.left_out.LeaveOut(
          WarningCode::kMessagesUnreadable, run + "'s messages", messages.status(),
          "the messages of its signposts: they are labelled with their format strings",
          PartRole::kDetails));
      return std::optional<std::string>();
    }
  }
  std::string text;
  ASSIGN_OR_RETURN(text, messages_->Text(ref));
  return std::optional<std::string>(std::move(text));
}

// A weight of XRAnyTypeID (counters-profile): a typed value, whose type says
// whether it is a time (XRTimeSampleWeightTypeID, 1 ms in 13+) or a count.
Status RowDecoder::DecodeTypedWeight(uint64_t ref, Value* value) {
  value->present = false;
  if (ref == kNoReference) return OkStatus();
  auto known = typed_weights_.find(ref);
  if (known == typed_weights_.end()) {
    MessageReader* reader;
    ASSIGN_OR_RETURN(reader, Messages());
    MessageReader::TypedValue typed;
    ASSIGN_OR_RETURN(typed, reader->Typed(ref));
    known = typed_weights_.emplace(ref, typed).first;
  }
  value->present = true;
  value->number = known->second.value;
  value->nanoseconds = tables::WeightUnitOf(known->second.type) == tables::WeightUnit::kNanoseconds;
  return OkStatus();
}

// A sample's counters (XRCoreProfilePMCEventsArrayTypeID): an array of the
// run's uniquer, a count per counter.
Status RowDecoder::DecodeCounters(uint64_t ref, Value* value) {
  value->present = false;
  value->text = std::string_view();
  if (ref == kNoReference) return OkStatus();
  auto known = counter_texts_.find(ref);
  if (known == counter_texts_.end()) {
    const Uniquer* arrays;
    ASSIGN_OR_RETURN(arrays, run_.references.Arrays());
    std::vector<uint64_t> counts;
    ASSIGN_OR_RETURN(counts, arrays->Array(ref));
    std::string text;
    for (uint64_t count : counts) text += (text.empty() ? "" : " ") + std::to_string(count);
    known = counter_texts_.emplace(ref, std::move(text)).first;
  }
  value->present = true;
  value->text = known->second;
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
