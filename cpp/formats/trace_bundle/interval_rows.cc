#include "formats/trace_bundle/interval_rows.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/messages.h"
#include "formats/trace_bundle/tables.h"
#include "formats/trace_bundle/threads.h"
#include "tables/consumers.h"

namespace instrumentscope::trace_bundle {
namespace {

using tables::Role;
using tables::TypedRow;
using tables::Value;
using tables::ValueType;

// Whether a column's values are messages (typed arrays), not strings.
bool IsMessageColumn(const Table& table, std::string_view mnemonic) {
  for (const StoreColumn& column : table.schema.columns) {
    if (column.mnemonic != mnemonic) continue;
    return column.engineering_type == "XRNarrativeEntryTypeID" ||
           column.engineering_type == "XROSLogMetadataTypeID";
  }
  return false;
}

// A column of the entry, where its bits sit in the rows.
struct BoundColumn {
  BitSlot slot;
  Role role;
  ValueType type;
  bool message;  // a typed array, read as text
};

class RowDecoder final : public tables::RowContext {
 public:
  RowDecoder(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
             const TableRows& rows)
      : bundle_(bundle), table_(table), run_(bundle.Run(table.store.run)), rows_(rows) {
    std::vector<std::string_view> missing;
    for (const tables::ColumnSpec& spec : entry.columns) {
      BitSlot slot = rows.layout().Field(spec.mnemonic);
      if (!slot.width) {
        if (spec.required) missing.push_back(spec.mnemonic);
        continue;
      }
      if (roles_.has(spec.role)) continue;  // the role's first column wins
      roles_.Add(spec.role);
      columns_.push_back(
          BoundColumn{slot, spec.role, spec.type, IsMessageColumn(table, spec.mnemonic)});
    }
    if (!missing.empty()) missing_ = tables::MissingColumnsMessage(entry, missing);
    thread_processes_ = entry.split == tables::SourceSplit::kThread || !roles_.has(Role::kProcess);
  }

  // Why the table cannot be read: the required columns it lacks; else empty.
  const std::string& missing() const { return missing_; }
  tables::RoleSet roles() const { return roles_; }

  // Fills the roles of the table's columns; the others stay as they were (absent).
  Status Decode(const Row& row, TypedRow* typed) {
    for (const BoundColumn& column : columns_) {
      uint64_t raw = row.Get(column.slot);
      Value& value = (*typed)[column.role];
      value = Value();
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
        case ValueType::kProcess: RETURN_IF_ERROR(DecodeProcess(raw, &value)); break;
        case ValueType::kThread: RETURN_IF_ERROR(DecodeThread(raw, &value)); break;
        case ValueType::kText: RETURN_IF_ERROR(DecodeText(column, raw, &value)); break;
      }
    }
    return OkStatus();
  }

  std::string ThreadName(const Value& thread) override {
    return CoreThread(bundle_.Details(table_.run()), run_.names, thread.number, thread.key,
                      thread.pid)
        .name;
  }

  std::string ProcessName(int64_t pid) override {
    return CoreProcessName(bundle_.Details(table_.run()), run_.names, pid);
  }

 private:
  Status DecodeProcess(uint64_t ref, Value* value) {
    if (ref == kNoReference) return OkStatus();
    value->present = true;
    ASSIGN_OR_RETURN(value->pid, run_.references.ProcessId(ref));
    return OkStatus();
  }

  // A thread reference: the reference itself tells threads apart; its tid
  // and process are looked up where they are needed.
  Status DecodeThread(uint64_t ref, Value* value) {
    if (ref == kNoReference) return OkStatus();
    value->present = true;
    value->key = ref;
    if (!thread_processes_) return OkStatus();
    auto known = threads_.find(ref);
    if (known == threads_.end()) {
      RunReferences::Thread identity;
      ASSIGN_OR_RETURN(identity, run_.references.ThreadOf(ref, 1, kNoReference));
      known = threads_.emplace(ref, identity).first;
    }
    value->number = known->second.tid;
    value->pid = known->second.pid;
    return OkStatus();
  }

  Status DecodeText(const BoundColumn& column, uint64_t ref, Value* value) {
    if (ref == kNoReference) return OkStatus();
    value->present = true;
    if (!column.message) {
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

  Result<std::string_view> String(uint64_t index) {
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

  // nullopt when the run's messages cannot be read, which is said once per
  // run (MESSAGES_UNREADABLE).
  Result<std::optional<std::string>> Message(uint64_t ref) {
    if (!messages_) {
      if (run_.messages_unreadable) return std::optional<std::string>();
      auto messages = run_.references.Messages();
      if (!messages.ok()) {
        run_.messages_unreadable = true;
        std::string run = "run " + std::to_string(table_.run());
        RETURN_IF_ERROR(bundle_.left_out.LeaveOut(
            WarningCode::kMessagesUnreadable, run + "'s messages", messages.status(),
            "the messages of its signposts: they are labelled with their format strings",
            PartRole::kDetails));
        return std::optional<std::string>();
      }
      messages_.emplace(messages.take());
    }
    std::string text;
    ASSIGN_OR_RETURN(text, messages_->Text(ref));
    return std::optional<std::string>(std::move(text));
  }

  BundleContext& bundle_;
  const Table& table_;
  CoreRunState& run_;
  const TableRows& rows_;
  std::vector<BoundColumn> columns_;
  tables::RoleSet roles_;
  std::string missing_;
  bool thread_processes_ = false;
  std::map<uint64_t, RunReferences::Thread> threads_;  // by reference
  const std::vector<std::string>* strings_ = nullptr;  // the run's, once read
  std::optional<MessageReader> messages_;
  std::unordered_map<uint64_t, std::string> message_texts_;  // by reference
};

// Every row of `rows` through the entry's consumer, counted into `events`
// as they pass; the first row that cannot be read or makes no interval fails
// the table, located in its bulkstore.
Result<tables::IntervalTable> ConsumeRows(BundleContext& bundle, const Table& table,
                                          const tables::TableEntry& entry, const TableRows& rows,
                                          uint64_t* events) {
  RowDecoder decoder(bundle, table, entry, rows);
  if (!decoder.missing().empty()) {
    return Status(ErrorCode::kBundleUnsupported, decoder.missing()).WithPath(rows.path());
  }
  std::unique_ptr<tables::IntervalConsumer> consumer =
      tables::MakeConsumer(entry, table.run(), decoder.roles(), decoder);
  tables::RowObserver* observer = bundle.row_observer;
  if (observer) observer->StartTable(entry, table.run(), decoder.roles());
  TypedRow typed;
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    ++*events;
    Status status = decoder.Decode(rows.row(i), &typed);
    if (status.ok() && observer) observer->Row(typed, decoder);
    if (status.ok()) {
      status = consumer->Add(typed);
      if (!status.ok()) status = Status(ErrorCode::kBundleCorrupt, "a row " + status.message());
    }
    if (!status.ok()) return rows.InRow(status, i);
  }
  return consumer->Finish();
}

}  // namespace

Status ReadIntervalTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                         tables::TableCommitter& committer, IntervalTableRead* result) {
  Status status = [&]() -> Status {
    auto rows = ReadRows(bundle.files, table);
    if (!rows.ok()) return rows.status();
    auto intervals = ConsumeRows(bundle, table, entry, *rows, &result->rows);
    if (!intervals.ok()) {
      // Listed with all its rows, not those read before the one that failed.
      result->rows = rows->CountEvents();
      return intervals.status();
    }
    return committer.Commit(intervals.take());
  }();
  if (status.ok()) {
    result->read = true;
    return OkStatus();
  }
  result->left_out = true;
  std::string number = std::to_string(table.run());
  return bundle.left_out.LeaveOut(WarningCode::kTableUnreadable,
                                  "the " + table.name() + " table of run " + number, status,
                                  std::string(entry.lost), PartRole::kDetails);
}

}  // namespace instrumentscope::trace_bundle
