#include "formats/xctrace_xml/interval_rows.h"

#include <algorithm>
#include <utility>

#include "formats/xctrace_xml/labels.h"

namespace instrumentscope::xctrace_xml {

void IntervalRows::StartTable(IntervalLayout layout, uint32_t run) {
  layout_ = std::move(layout);
  run_ = run;
  sources_.clear();
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
    case IntervalRole::kDuration: number("duration", &row_.duration); break;
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

void IntervalRows::EndRow() {
  if (!row_.start) {
    error_.Set(RowError("has no start time"));
    return;
  }
  int64_t start = *row_.start;
  if (start < 0) {
    error_.Set(RowError("starts before the run, at " + std::to_string(start) + " ns"));
    return;
  }
  int64_t end = start;
  if (row_.duration) {
    if (*row_.duration < 0) {
      error_.Set(RowError("has a negative duration, " + std::to_string(*row_.duration) + " ns"));
      return;
    }
    if (*row_.duration > ProfileBuilder::kOpenEnd - 1 - start) {
      error_.Set(RowError("ends past the largest time (start " + std::to_string(start) +
                          " ns, duration " + std::to_string(*row_.duration) + " ns)"));
      return;
    }
    end = start + *row_.duration;
  } else if (row_.end) {
    if (*row_.end < start) {
      error_.Set(RowError("ends (at " + std::to_string(*row_.end) + " ns) before it starts (at " +
                          std::to_string(start) + " ns)"));
      return;
    }
    end = *row_.end;
  } else if (layout_.has_duration || layout_.has_end) {
    end = ProfileBuilder::kOpenEnd;  // still open when the recording stopped
  }

  std::string name, label;
  Label(&name, &label);
  Status added = builder_.AddInterval(Source(), start, end, name, label);
  if (!added.ok()) error_.Set(std::move(added));
}

ProfileBuilder::IntervalSourceId IntervalRows::Source() {
  std::string name =
      IntervalSourceName(layout_.kind, Text(IntervalRole::kGroup), Text(IntervalRole::kSubsystem),
                         Text(IntervalRole::kCategory));
  int64_t process = row_.process;
  if (process < 0 && row_.thread >= 0) process = threads_.thread(row_.thread).process;
  int64_t pid = process >= 0 ? threads_.process(process).pid : -1;
  auto key = std::make_pair(std::move(name), pid);
  auto found = sources_.find(key);
  if (found != sources_.end()) return found->second;

  ProfileBuilder::IntervalSourceDesc desc;
  desc.run = run_;
  desc.table = layout_.schema;
  desc.name = key.first;
  if (process >= 0) desc.process_name = threads_.process(process).name;
  desc.pid = pid;
  desc.during = layout_.during;
  desc.during_name = layout_.during_name;
  ProfileBuilder::IntervalSourceId source = builder_.AddIntervalSource(std::move(desc));
  sources_.emplace(std::move(key), source);
  return source;
}

void IntervalRows::Label(std::string* name, std::string* label) const {
  switch (layout_.kind) {
    case IntervalKind::kVsyncs: *name = *label = "VSync"; return;
    case IntervalKind::kPointsOfInterest:
    case IntervalKind::kSignposts: {
      *name = std::string(Text(IntervalRole::kName));
      if (name->empty()) *name = "Interval";
      *label = *name;
      std::string_view id = Text(IntervalRole::kIdentifier);
      if (!id.empty()) *label += " \xE2\x80\x94 id " + SignpostId(id);  // " — id "
      std::string_view message = Text(IntervalRole::kStartMessage);
      if (message.empty()) message = Text(IntervalRole::kEndMessage);
      if (!message.empty()) *label += ": " + std::string(message);
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
