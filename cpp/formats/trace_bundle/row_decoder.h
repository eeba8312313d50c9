// The rows of a bundle's tables (tables/catalogue.h), decoded into TypedRows
// for their consumers: each column found by its mnemonic wherever its bits
// sit (RowLayout::Field, topology parts included); times, durations and
// weights as stored (a duration's width kept, so that all ones reads as
// "still going"); strings from the run's strings file (a thread name's
// index in its upper 32 bits); messages (narrative and os-log-metadata
// columns, typed arrays) made text; processes and threads from the run's
// uniquer; backtraces made stacks. It is the RowContext of the consumers it
// feeds: threads and processes named as threads.h says.
//
// A thread's tid and process are looked up only where the consumer needs
// them: for samples, and for intervals split by thread or naming no process.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ROW_DECODER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ROW_DECODER_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/integer_map.h"
#include "base/status.h"
#include "formats/trace_bundle/messages.h"
#include "formats/trace_bundle/tables.h"
#include "tables/consumers.h"
#include "tables/typed_row.h"

namespace instrumentscope::trace_bundle {

class BundleContext;
struct CoreRunState;

class RowDecoder final : public tables::RowContext {
 public:
  RowDecoder(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
             const RowLayout& layout);

  // Why the table cannot be read: the required columns it lacks; else empty.
  const std::string& missing() const { return missing_; }
  tables::RoleSet roles() const { return roles_; }

  // Whether a column of `engineering_type` is one a time-profile row has,
  // which a table of samples of another kind may have too; its other columns
  // are what this version cannot decode from bundles yet (diagnostics.h).
  static bool SampleColumnType(std::string_view engineering_type);

  // Fills the roles of the table's columns; the others stay as they were (absent).
  Status Decode(const Row& row, tables::TypedRow* typed);

  std::string ThreadName(const tables::Value& thread) override;
  std::string ProcessName(int64_t pid) override;

 private:
  // A column of the entry, where its bits sit in the rows.
  struct BoundColumn {
    BitSlot slot;
    tables::Role role;
    tables::ValueType type;
    bool message = false;       // a typed array, read as text
    bool name_index = false;    // a thread name: its string's index in the upper 32 bits
    bool time_weight = false;   // a weight that is a time
    bool typed_weight = false;  // a weight that is a typed value (XRAnyTypeID)
    // A label that names a value by its string (a state, a system call): one
    // past the strings is shown by its number, this word first.
    std::string_view by_number = {};
  };

  // A reference not looked up before: its index in pids_, threads_.
  Result<uint32_t> LookUpProcess(uint64_t ref);
  Result<uint32_t> LookUpThread(uint64_t ref, uint64_t process_ref, uint64_t key);
  Status DecodeText(const BoundColumn& column, uint64_t ref, tables::Value* value);
  Status DecodeTypedWeight(uint64_t ref, tables::Value* value);
  Status DecodeCounters(uint64_t ref, tables::Value* value);
  // The run's typed arrays, made text or typed values: an error when they
  // cannot be read.
  Result<MessageReader*> Messages();
  Result<std::string_view> String(uint64_t index);
  // "syscall 372": a label whose string index is past the run's strings, said once per column.
  std::string_view ByNumber(const BoundColumn& column, uint64_t index);
  // nullopt when the run's messages cannot be read, which is said once per
  // run (MESSAGES_UNREADABLE).
  Result<std::optional<std::string>> Message(uint64_t ref);

  BundleContext& bundle_;
  const Table& table_;
  CoreRunState& run_;
  std::vector<BoundColumn> columns_;  // a process column first
  tables::RoleSet roles_;
  std::string missing_;
  bool thread_processes_ = false;
  // Threads looked up, by thread reference << 32 | the row's process reference.
  IntegerMap thread_index_;
  std::vector<RunReferences::Thread> threads_;
  IntegerMap process_index_;  // by process reference: the pid's index in pids_
  std::vector<int64_t> pids_;
  const std::vector<std::string>* strings_ = nullptr;  // the run's, once read
  std::optional<MessageReader> messages_;
  std::unordered_map<uint64_t, std::string> message_texts_;                // by reference
  std::unordered_map<uint64_t, MessageReader::TypedValue> typed_weights_;  // by reference
  std::unordered_map<uint64_t, std::string> counter_texts_;                // by reference
  std::set<std::string, std::less<>> by_number_;  // labels of values not in the strings
  std::set<std::string_view> by_number_said_;     // the columns warned of
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_ROW_DECODER_H_
