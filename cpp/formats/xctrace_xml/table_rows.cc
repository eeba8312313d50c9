#include "formats/xctrace_xml/table_rows.h"

#include <algorithm>
#include <utility>

#include "base/text.h"
#include "formats/xctrace_xml/labels.h"
#include "tables/durations.h"

namespace instrumentscope::xctrace_xml {

using tables::Role;
using tables::ValueType;

bool TableRows::StartTable(const tables::TableEntry& entry, const std::vector<Column>& columns,
                           uint32_t run) {
  entry_ = &entry;
  run_ = run;
  table_failed_ = false;
  table_left_out_ = false;
  columns_.assign(columns.size(), std::nullopt);
  bound_roles_.clear();
  row_.Clear();  // a row sets only its table's roles: those of the table before must not show
  std::fill(std::begin(texts_of_row_), std::end(texts_of_row_), -1);
  row_has_texts_ = false;
  tables::RoleSet roles;
  std::vector<std::string_view> missing;
  // A role given twice takes the first column the schema has, in the entry's order.
  for (const tables::ColumnSpec& spec : entry.columns) {
    auto column = std::find_if(columns.begin(), columns.end(),
                               [&](const Column& c) { return c.mnemonic == spec.mnemonic; });
    if (column == columns.end()) {
      if (spec.required) missing.push_back(spec.mnemonic);
      continue;
    }
    if (roles.has(spec.role)) continue;
    roles.Add(spec.role);
    bound_roles_.push_back(spec.role);
    columns_[static_cast<size_t>(column - columns.begin())] =
        BoundColumn{spec.role, spec.type, tables::WeightUnitOf(column->engineering_type)};
  }
  intervals_.reset();
  samples_consumer_.reset();
  if (!missing.empty()) {
    builder_.AddWarning(WarningCode::kTableUnreadable,
                        "the " + std::string(entry.schema) + " table of run " +
                            std::to_string(run) + " left out (" + std::string(entry.lost) +
                            "): " + tables::MissingColumnsMessage(entry, missing));
    return false;
  }
  if (tables::MakesIntervals(entry.consumer)) {
    intervals_ = tables::MakeConsumer(entry, run, roles, *this);
  } else {
    if (!views_) roles.Remove(Role::kCounters);
    samples_consumer_ =
        std::make_unique<tables::SampleConsumer>(entry, run, roles, *this, builder_);
  }
  return true;
}

void TableRows::StartRow(uint64_t row) {
  cells_ = 0;
  row_index_ = row;
  // Only the table's roles are ever set, each always by one kind of cell,
  // which sets every field its value type uses but the text, set as the row ends.
  for (tables::Role role : bound_roles_) {
    row_[role].present = false;
    row_[role].text = std::string_view();
  }
  if (row_has_texts_) std::fill(std::begin(texts_of_row_), std::end(texts_of_row_), -1);
  row_has_texts_ = false;
}

void TableRows::RowFailed(Status error) {
  table_failed_ = true;
  error_.SetPart(std::move(error));
}

void TableRows::LeaveOutTable(Status located) {
  builder_.AddWarning(WarningCode::kTableUnreadable, "the " + std::string(entry_->schema) +
                                                         " table of run " + std::to_string(run_) +
                                                         " left out (" + std::string(entry_->lost) +
                                                         "): " + located.ToString());
  if (!first_left_out_) first_left_out_ = std::move(located);
}

Status TableRows::RowError(const std::string& what) const {
  return Status(ErrorCode::kXmlBadValue, "row " + std::to_string(row_index_) + " of " +
                                             std::string(entry_->schema) + " " + what);
}

std::string TableRows::CellError(const OpenElement& cell, const Value& value,
                                 const char* what) const {
  return std::string("has a ") + what + " <" + std::string(AsView(cell.name)) + "> that holds " +
         (value.value_class == ValueClass::kText
              ? "\"" + std::string(CellText(value, texts_)) + "\""
              : std::string(ValueClassName(value.value_class))) +
         ", not an integer";
}

void TableRows::AssignNumber(const OpenElement& cell, const Value& value, tables::Value* to) {
  bool start = to == &row_[Role::kStart];
  std::optional<int64_t> number = CellNumber(value, texts_);
  if (!number) {
    bool sample = entry_->consumer == tables::Consumer::kCpuSamples;
    RowFailed(RowError(CellError(cell, value,
                                 !start   ? "end time"
                                 : sample ? "sample time"
                                          : "start time")));
    return;
  }
  if (*number < 0) {
    if (entry_->consumer == tables::Consumer::kCpuSamples) {
      RowFailed(Status(ErrorCode::kBadSample, RowError("has a sample time before the run, " +
                                                       std::to_string(*number) + " ns")
                                                  .message()));
      return;
    }
    RowFailed(RowError((start ? "starts" : "ends") + std::string(" before the run, at ") +
                       std::to_string(*number) + " ns"));
    return;
  }
  to->present = true;
  to->number = static_cast<uint64_t>(*number);
}

void TableRows::AssignDuration(const OpenElement& cell, const Value& value, tables::Value* to) {
  std::optional<int64_t> number = CellNumber(value, texts_);
  if (!number) {
    // All ones is no number of nanoseconds but "still going" (durations.h);
    // past int64, it is looked for only when no number is read.
    auto digits = ParseDecimal<uint64_t>(CellText(value, texts_));
    if (digits && tables::StillGoing(*digits)) {
      to->present = true;
      to->number = *digits;
      return;
    }
    RowFailed(RowError(CellError(cell, value, "duration")));
    return;
  }
  if (*number < 0) {
    RowFailed(RowError("has a negative duration, " + std::to_string(*number) + " ns"));
    return;
  }
  to->present = true;
  to->number = static_cast<uint64_t>(*number);
}

void TableRows::AssignWeight(const OpenElement& cell, const Value& value, tables::WeightUnit unit,
                             tables::Value* to) {
  std::optional<int64_t> number = CellNumber(value, texts_);
  if (!number) {
    RowFailed(RowError(CellError(cell, value, "weight")));
    return;
  }
  to->present = true;
  to->number = static_cast<uint64_t>(*number);  // a negative one: refused as a sample
  to->nanoseconds = unit == tables::WeightUnit::kNanoseconds ||
                    (unit == tables::WeightUnit::kFromCell && AsView(cell.name) == "weight");
}

void TableRows::AssignThread(const Value& value, tables::Value* to) {
  if (value.value_class != ValueClass::kThread) return;
  ThreadRecord& thread = threads_.thread(value.index);
  to->present = true;
  to->key = to->number = thread.tid;
  to->pid = -1;
  if (thread.process >= 0) {
    const ProcessRecord& process = threads_.process(thread.process);
    to->pid = process.pid;
    if (!thread.named) process_names_.try_emplace(process.pid, process.name);
  }
  // Each record is named once: sample tables have a thread cell per row.
  if (!thread.named) thread_names_.try_emplace(thread.tid, thread.label);
  thread.named = true;
}

void TableRows::AssignProcess(const Value& value, tables::Value* to) {
  if (value.value_class != ValueClass::kProcess) return;
  ProcessRecord& process = threads_.process(value.index);
  to->present = true;
  to->pid = process.pid;
  if (!process.named) process_names_.try_emplace(process.pid, process.name);
  process.named = true;
}

void TableRows::AssignOther(const OpenElement& cell, const Value& value, const BoundColumn& bound,
                            tables::Value* to) {
  switch (bound.type) {
    case ValueType::kText:
    case ValueType::kNarrative:
    case ValueType::kCounters:  // the counts themselves, not their fmt, when the row ends
      if (value.value_class != ValueClass::kText) break;
      to->present = true;
      texts_of_row_[static_cast<size_t>(bound.role)] = value.index;
      row_has_texts_ = true;
      break;
    case ValueType::kNumber: {
      if (value.value_class != ValueClass::kText) break;
      // A number by its own digits: an id's fmt is "0x1a", or "OS_SIGNPOST_ID_EXCLUSIVE".
      const TextRecord& text = texts_.text(value.index);
      std::optional<uint64_t> number =
          ParseDecimal<uint64_t>(text.own.empty() ? std::string_view(text.text) : text.own);
      to->present = true;
      to->number = number.value_or(0);
      if (!number) {
        texts_of_row_[static_cast<size_t>(bound.role)] = value.index;
        row_has_texts_ = true;
      }
      break;
    }
    case ValueType::kPid: {
      std::optional<int64_t> pid = CellNumber(value, texts_);
      if (!pid) {
        RowFailed(RowError(CellError(cell, value, "process id")));
        break;
      }
      to->present = true;
      to->pid = *pid;
      break;
    }
    default: break;
  }
}

void TableRows::AssignCell(const OpenElement& cell, const Value& value) {
  size_t column = cells_++;
  if (column >= columns_.size()) {
    error_.Set(ExtraCellError(columns_.size()));
    return;
  }
  // Unread, empty, or in a table left out.
  if (!columns_[column] || cell.element == Element::kSentinel || table_failed_) return;
  const BoundColumn& bound = *columns_[column];
  tables::Value& to = row_[bound.role];
  switch (bound.type) {
    case ValueType::kTime: AssignNumber(cell, value, &to); break;
    case ValueType::kDuration: AssignDuration(cell, value, &to); break;
    case ValueType::kWeight: AssignWeight(cell, value, bound.unit, &to); break;
    case ValueType::kThread: AssignThread(value, &to); break;
    case ValueType::kProcess: AssignProcess(value, &to); break;
    case ValueType::kBacktrace:
      if (value.value_class != ValueClass::kStack) {
        RowFailed(RowError("has a backtrace <" + std::string(AsView(cell.name)) + "> that holds " +
                           ValueClassName(value.value_class) + ", not a backtrace"));
        break;
      }
      to.present = true;
      to.number = value.index;
      break;
    default: AssignOther(cell, value, bound, &to); break;
  }
}

void TableRows::EndRow() {
  if (table_failed_ || error_.failed()) return;
  if (row_has_texts_) {
    for (size_t role = 0; role < tables::kRoles; ++role) {
      if (texts_of_row_[role] < 0) continue;
      const TextRecord& text = texts_.text(static_cast<uint32_t>(texts_of_row_[role]));
      bool counts = static_cast<Role>(role) == Role::kCounters && !text.own.empty();
      row_[static_cast<Role>(role)].text = counts ? text.own : text.text;
    }
  }
  if (intervals_) {
    Status added = intervals_->Add(row_);
    if (!added.ok()) RowFailed(RowError(added.message()));
  } else if (samples_consumer_) {
    // A sample refused keeps its code (BAD_SAMPLE); a limit reached ends the import.
    Status added = samples_consumer_->Add(row_);
    if (added.code() == ErrorCode::kLimitExceeded) {
      error_.Set(std::move(added));
    } else if (!added.ok()) {
      RowFailed(Status(added.code(), RowError(added.message()).message()));
    }
  }
}

void TableRows::EndTable() {
  table_left_out_ = table_failed_;
  if (samples_consumer_) {
    CommitSamples();
    return;
  }
  if (!intervals_) return;
  std::unique_ptr<tables::IntervalConsumer> consumer = std::move(intervals_);
  if (error_.failed() || table_failed_) return;
  auto table = consumer->Finish();
  Status committed = table.ok() ? committer_.Commit(table.take()) : table.status();
  if (!committed.ok()) error_.Set(std::move(committed));
}

void TableRows::CommitSamples() {
  std::unique_ptr<tables::SampleConsumer> consumer = std::move(samples_consumer_);
  if (error_.failed() || table_failed_) return;
  rows_without_weight_ += consumer->rows_without_weight();
  rows_without_thread_ += consumer->rows_without_thread();
  // A limit reached is located where the table ends.
  Status committed = consumer->Commit(builder_, std::string());
  if (!committed.ok()) error_.Set(std::move(committed));
}

std::string TableRows::ThreadName(const tables::Value& thread) {
  auto named = thread_names_.find(thread.key);
  return named == thread_names_.end() ? std::string() : named->second;
}

std::string TableRows::ProcessName(int64_t pid) {
  auto named = process_names_.find(pid);
  return named == process_names_.end() ? std::string() : named->second;
}

}  // namespace instrumentscope::xctrace_xml
