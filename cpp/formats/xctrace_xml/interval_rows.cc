#include "formats/xctrace_xml/interval_rows.h"

#include <algorithm>
#include <utility>

#include "formats/durations.h"
#include "formats/signposts.h"
#include "formats/xctrace_xml/labels.h"

namespace instrumentscope::xctrace_xml {

void IntervalRows::StartTable(IntervalLayout layout, uint32_t run) {
  layout_ = std::move(layout);
  table_.emplace(run, layout_.schema, layout_.during, layout_.during_name);
  signposts_.clear();
  signpost_events_.clear();
  signpost_keys_.clear();
}

void IntervalRows::StartRow(uint64_t row) {
  cells_ = 0;
  row_ = {};
  row_.index = row;
  std::fill(std::begin(row_.texts), std::end(row_.texts), -1);
}

Status IntervalRows::RowError(const std::string& what) const {
  return Status(ErrorCode::kXmlBadValue,
                "row " + std::to_string(row_.index) + " of " + layout_.schema + " " + what);
}

void IntervalRows::AssignCell(const OpenElement& cell, const Value& value) {
  size_t column = cells_++;
  if (column >= layout_.roles.size()) {
    error_.Set(ExtraCellError(layout_.roles.size()));
    return;
  }
  if (cell.element == Element::kSentinel) return;  // an empty cell
  auto number = [&](const char* what, std::optional<int64_t>* to) {
    std::optional<int64_t> read = CellNumber(value, texts_);
    if (!read) {
      error_.Set(RowError(std::string("has a ") + what + " <" + std::string(AsView(cell.name)) +
                          "> that holds " +
                          (value.value_class == ValueClass::kText
                               ? "\"" + std::string(CellText(value, texts_)) + "\""
                               : std::string(ValueClassName(value.value_class))) +
                          ", not an integer"));
      return;
    }
    *to = read;
  };
  IntervalRole role = layout_.roles[column];
  switch (role) {
    case IntervalRole::kIgnored: break;
    case IntervalRole::kStart: number("start time", &row_.start); break;
    case IntervalRole::kDuration:
      // All ones is no number of nanoseconds but "still going", read as
      // bundles read it; past int64, only looked for when no number is read.
      if (!CellNumber(value, texts_)) {
        auto digits = ParseDecimal<uint64_t>(CellText(value, texts_));
        row_.still_going = digits && StillGoing(*digits);
      }
      if (!row_.still_going) number("duration", &row_.duration);
      break;
    case IntervalRole::kEnd: number("end time", &row_.end); break;
    case IntervalRole::kThread:
      if (value.value_class == ValueClass::kThread) row_.thread = value.index;
      break;
    case IntervalRole::kProcess:
      if (value.value_class == ValueClass::kProcess) row_.process = value.index;
      break;
    default:
      if (value.value_class == ValueClass::kText) {
        row_.texts[static_cast<size_t>(role)] = value.index;
      }
      break;
  }
}

std::string_view IntervalRows::Text(IntervalRole role) const {
  int64_t index = row_.texts[static_cast<size_t>(role)];
  return index < 0 ? std::string_view() : texts_.text(static_cast<uint32_t>(index)).text;
}

std::string IntervalRows::SignpostIdOfRow() const {
  int64_t index = row_.texts[static_cast<size_t>(IntervalRole::kIdentifier)];
  if (index < 0) return std::string();
  // The id's own digits: its fmt is "0x1a", or "OS_SIGNPOST_ID_EXCLUSIVE".
  const TextRecord& id = texts_.text(static_cast<uint32_t>(index));
  return SignpostId(id.own.empty() ? id.text : id.own);
}

// The row's start and end, or nullopt when it has none or they make no
// interval (the error set).
std::optional<std::pair<int64_t, int64_t>> IntervalRows::RowSpan() {
  if (!row_.start) {
    error_.Set(RowError("has no start time"));
    return std::nullopt;
  }
  int64_t start = *row_.start;
  if (start < 0) {
    error_.Set(RowError("starts before the run, at " + std::to_string(start) + " ns"));
    return std::nullopt;
  }
  int64_t end = start;
  if (row_.still_going) {
    end = ProfileBuilder::kOpenEnd;
  } else if (row_.duration) {
    if (*row_.duration < 0) {
      error_.Set(RowError("has a negative duration, " + std::to_string(*row_.duration) + " ns"));
      return std::nullopt;
    }
    std::optional<int64_t> row_end = IntervalEnd(start, static_cast<uint64_t>(*row_.duration));
    if (!row_end) {
      error_.Set(RowError("ends past the largest time (start " + std::to_string(start) +
                          " ns, duration " + std::to_string(*row_.duration) + " ns)"));
      return std::nullopt;
    }
    end = *row_end;
  } else if (row_.end) {
    if (*row_.end < start) {
      error_.Set(RowError("ends (at " + std::to_string(*row_.end) + " ns) before it starts (at " +
                          std::to_string(start) + " ns)"));
      return std::nullopt;
    }
    end = *row_.end;
  } else if (layout_.has_duration || layout_.has_end) {
    end = ProfileBuilder::kOpenEnd;  // still open when the recording stopped
  }
  return std::make_pair(start, end);
}

void IntervalRows::EndRow() {
  std::optional<std::pair<int64_t, int64_t>> span = RowSpan();
  if (!span) return;
  if (layout_.kind == IntervalKind::kSignpostEvents) {
    HoldSignpost(span->first);
    return;
  }
  std::string name, label;
  Label(&name, &label);
  table_->Add(Source(), span->first, span->second, std::move(name), std::move(label));
}

size_t IntervalRows::Source() {
  std::string name =
      IntervalSourceName(layout_.kind, Text(IntervalRole::kGroup), Text(IntervalRole::kSubsystem),
                         Text(IntervalRole::kCategory));
  int64_t process = row_.process;
  if (process < 0 && row_.thread >= 0) process = threads_.thread(row_.thread).process;
  if (process < 0) return table_->Source(name, std::string(), -1);
  const ProcessRecord& record = threads_.process(process);
  return table_->Source(name, record.name, record.pid);
}

void IntervalRows::HoldSignpost(int64_t time) {
  SignpostRow row;
  row.source = Source();
  std::string_view name = Text(IntervalRole::kName);
  row.name = name.empty() ? "Signpost" : std::string(name);
  row.id = SignpostIdOfRow();
  row.message = std::string(Text(IntervalRole::kMessage));
  // What makes a Begin and an End one interval: the source (process,
  // subsystem, category), the name and the id; the thread too, for a
  // signpost of thread scope.
  std::string key = std::to_string(row.source);
  for (std::string_view part : {name, std::string_view(row.id)}) key.append(1, '\0').append(part);
  if (Text(IntervalRole::kScope) == "Thread" && row_.thread >= 0) {
    key.append(1, '\0').append(std::to_string(threads_.thread(row_.thread).tid));
  }
  uint64_t key_id = signpost_keys_.try_emplace(key, signpost_keys_.size()).first->second;
  // Without an event type, every row is a point in time.
  EventRole role = row_.texts[static_cast<size_t>(IntervalRole::kEventType)] < 0
                       ? EventRole::kPoint
                       : SignpostRole(Text(IntervalRole::kEventType));
  signpost_events_.push_back(KeyedEvent{time, key_id, role});
  signposts_.push_back(std::move(row));
}

void IntervalRows::PairSignposts() {
  for (const PairedEvents& pair : PairEvents(signpost_events_)) {
    const SignpostRow& first = signposts_[pair.first()];
    // The Begin's message, else the End's.
    const std::string* message = &first.message;
    if (message->empty() && !pair.unbegun() && !pair.unended()) {
      message = &signposts_[pair.end].message;
    }
    // Open at either end, an interval is drawn from or to its run's end.
    table_->Add(first.source, pair.StartTime(signpost_events_, ProfileBuilder::kOpenStart),
                pair.EndTime(signpost_events_, ProfileBuilder::kOpenEnd), first.name,
                SignpostLabel(first.name, first.id, *message));
  }
}

void IntervalRows::EndTable() {
  if (!table_) return;
  if (layout_.kind == IntervalKind::kSignpostEvents) PairSignposts();
  signposts_.clear();
  signpost_events_.clear();
  signpost_keys_.clear();
  TableIntervals table = std::move(*table_);
  table_.reset();
  if (std::optional<int> rank = SignpostTableRank(layout_.kind)) {
    held_.emplace_back(*rank, std::move(table));
    return;
  }
  Status committed = std::move(table).Commit(builder_);
  if (!committed.ok()) error_.Set(std::move(committed));
}

Status IntervalRows::Finish() {
  std::map<uint32_t, int> first_rank;  // per run, the first kind of signpost table it has rows of
  for (const auto& [rank, table] : held_) {
    if (table.empty()) continue;
    auto [entry, inserted] = first_rank.try_emplace(table.run(), rank);
    if (!inserted) entry->second = std::min(entry->second, rank);
  }
  for (auto& [rank, table] : held_) {
    auto first = first_rank.find(table.run());
    if (first != first_rank.end() && rank > first->second) {
      left_out_.emplace(table.run(), table.schema());
      continue;
    }
    RETURN_IF_ERROR(std::move(table).Commit(builder_));
  }
  held_.clear();
  return OkStatus();
}

void IntervalRows::Label(std::string* name, std::string* label) const {
  switch (layout_.kind) {
    case IntervalKind::kVsyncs: *name = *label = "VSync"; return;
    case IntervalKind::kPointsOfInterest:
    case IntervalKind::kSignposts: {
      *name = std::string(Text(IntervalRole::kName));
      if (name->empty()) *name = "Signpost";
      std::string_view message = Text(IntervalRole::kStartMessage);
      if (message.empty()) message = Text(IntervalRole::kEndMessage);
      *label = SignpostLabel(*name, SignpostIdOfRow(), message);
      return;
    }
    default: break;
  }
  *label = std::string(Text(IntervalRole::kLabel));
  if (label->empty()) {
    switch (layout_.kind) {
      case IntervalKind::kThermalState: *label = "Thermal state"; break;
      case IntervalKind::kHangs: *label = "Hang"; break;
      case IntervalKind::kHangRisks: *label = "Hang risk"; break;
      case IntervalKind::kAppSpins: *label = "Spin"; break;
      default: *label = "Life cycle period"; break;
    }
  }
  *name = *label;
}

}  // namespace instrumentscope::xctrace_xml
