// A row of an Instruments table as both readers decode it: the bundle's
// (bulkstore bits, uniquer arrays, strings) and the export's (cells, id/ref,
// fmt texts). Each value sits at the role its column plays in the table's
// catalogue entry (catalogue.h), so that one consumer per table kind reads
// rows from either.
#ifndef INSTRUMENTSCOPE_TABLES_TYPED_ROW_H_
#define INSTRUMENTSCOPE_TABLES_TYPED_ROW_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace instrumentscope::tables {

// What a column is to the consumers, whatever its mnemonic.
enum class Role : uint8_t {
  kStart,     // the start of an interval, or the time of an event
  kDuration,  // an interval's length
  kEnd,       // an interval's end, where a table has one instead of a duration
  kThread,
  kProcess,
  kLabel,  // what an interval is: a thermal state, a hang type, a period…
  kGroup,  // what splits a table into sources besides its process: a display
  kName,   // a signpost's name
  kSubsystem,
  kCategory,
  kIdentifier,  // a signpost's id
  kEventType,   // "Begin", "End", "Event" (signposts); 1 start, 2 end (run loops)
  kScope,       // a signpost's "Process", "System" or "Thread"
  kMessage,     // a signpost row's message
  kFormat,      // a signpost row's format string
  kStartMessage,
  kEndMessage,
  kIntervalType,     // a run loop interval's kind ("individual_iteration")
  kMode,             // a run loop's mode
  kWeight,           // what a sample weighs: a time, cycles, or another event's duration
  kBacktrace,        // a sample's (user) stack
  kKernelBacktrace,  // a sample's kernel stack, drawn above its user stack
  kSecondWeight,     // another view of the same rows, weighing this: a system call's wait time
  kLeafFrame,        // a frame drawn above the stacks: the system call's name
  kNote,             // what a row's narrative says of it, shown after its label
  kCore,             // a CPU core's number
  kCounters,         // a sample's performance counters, each its own view
  kNarrative,        // what a thread-narrative row tells of: its opening words
  kMainThread,       // 1 on the row of a process's main thread
};
inline constexpr size_t kRoles = static_cast<size_t>(Role::kMainThread) + 1;

// The kind of value a role's column holds.
enum class ValueType : uint8_t {
  kTime,      // ns since the run started
  kDuration,  // ns; all ones within its bits: still going (formats/durations.h)
  kThread,
  kProcess,
  kText,       // a string, or a message made text
  kNumber,     // an integer: a signpost id, a run loop event's type, a flag
  kPid,        // a process id itself, not a process record: in `pid`
  kWeight,     // a sample's weight: a time where `nanoseconds` says so, else a count
  kBacktrace,  // a stack, interned in the ProfileBuilder: its StackId in `number`
  // Counts, one per counter, in `text` as decimals with spaces between ("120029 214575").
  kCounters,
  // A narrative: its text in `text`, or (bundles) its opening words ("Blocked for ").
  kNarrative,
};

// One cell, decoded.
struct Value {
  bool present = false;
  // A message whose text could not be read (its run's messages are damaged):
  // the reader said so once, and the consumer falls back on what else the row has.
  bool unreadable = false;
  uint64_t number = 0;    // kTime, kDuration, kNumber; a thread's tid, where known
  uint32_t bits = 64;     // a duration's width in its row
  std::string_view text;  // kText; a kNumber shown another way ("OS_SIGNPOST_ID_EXCLUSIVE")
  int64_t pid = -1;       // a thread's process, a process's pid
  // A thread's identity to its reader (a bundle's thread reference, an
  // export's tid): what tells threads apart, not a name.
  uint64_t key = 0;
  bool nanoseconds = false;  // kWeight: the weight is a time
};

class TypedRow {
 public:
  const Value& operator[](Role role) const { return values_[static_cast<size_t>(role)]; }
  Value& operator[](Role role) { return values_[static_cast<size_t>(role)]; }
  bool has(Role role) const { return (*this)[role].present; }
  std::string_view text(Role role) const { return (*this)[role].text; }
  void Clear() { values_ = {}; }

 private:
  std::array<Value, kRoles> values_{};
};

// Which roles a table's columns fill, from its schema.
class RoleSet {
 public:
  void Add(Role role) { bits_ |= Bit(role); }
  void Remove(Role role) { bits_ &= ~Bit(role); }
  bool has(Role role) const { return (bits_ & Bit(role)) != 0; }

 private:
  static uint64_t Bit(Role role) { return uint64_t{1} << static_cast<uint32_t>(role); }
  uint64_t bits_ = 0;
  static_assert(kRoles <= 64);
};

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_TYPED_ROW_H_
