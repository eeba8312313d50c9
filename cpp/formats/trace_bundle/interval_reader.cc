#include "formats/trace_bundle/interval_reader.h"

#include "formats/durations.h"
#include "formats/trace_bundle/threads.h"
#include "model/view_names.h"

namespace instrumentscope::trace_bundle {

Result<int64_t> IntervalReader::Time(const Row& row, const BitSlot& slot) const {
  uint64_t time = row.Get(slot);
  if (time >= static_cast<uint64_t>(ProfileBuilder::kOpenEnd)) {
    return Status(ErrorCode::kBundleCorrupt, "a time of " + std::to_string(time) + " ns");
  }
  return static_cast<int64_t>(time);
}

Result<int64_t> IntervalReader::End(const Row& row, const BitSlot& duration, int64_t start) const {
  uint64_t value = row.Get(duration);
  std::optional<int64_t> end = IntervalEnd(start, value, duration.bits);
  if (!end) {
    return Status(ErrorCode::kBundleCorrupt, "an interval starting at " + std::to_string(start) +
                                                 " ns lasts " + std::to_string(value) +
                                                 " ns, past the largest time");
  }
  return *end;
}

Result<std::string_view> IntervalReader::String(uint64_t index) {
  if (index == kNoReference) return std::string_view();
  const std::vector<std::string>* strings;
  ASSIGN_OR_RETURN(strings, run_.references.Strings());
  if (index >= strings->size()) {
    return Status(ErrorCode::kBundleCorrupt, "string " + std::to_string(index) + " is past the " +
                                                 std::to_string(strings->size()) +
                                                 " strings of the run");
  }
  return std::string_view((*strings)[index]);
}

Result<int64_t> IntervalReader::Pid(uint64_t process_ref) {
  if (process_ref == kNoReference) return int64_t{-1};
  return run_.references.ProcessId(process_ref);
}

std::string IntervalReader::ProcessName(int64_t pid) const {
  if (pid < 0) return std::string();
  return CoreProcessName(bundle_.Details(table_.run()), run_.names, pid);
}

Result<std::optional<std::string>> IntervalReader::Message(uint64_t ref) {
  if (!messages_) {
    if (run_.messages_unreadable) return std::optional<std::string>();
    auto messages = run_.references.Messages();
    if (!messages.ok()) {
      run_.messages_unreadable = true;
      std::string run = "run " + std::to_string(table_.run());
      RETURN_IF_ERROR(bundle_.left_out.LeaveOut(
          "MESSAGES_UNREADABLE", run + "'s messages", messages.status(),
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

IntervalReader::SourceIndex IntervalReader::Source(std::string name, int64_t pid,
                                                   DuringViews during, std::string during_name) {
  auto [entry, inserted] = source_index_.try_emplace(std::make_pair(name, pid), sources_.size());
  if (inserted) {
    sources_.push_back(PendingSource{std::move(name), pid, during, std::move(during_name)});
  }
  return entry->second;
}

void IntervalReader::Add(SourceIndex source, int64_t start, int64_t end, std::string name,
                         std::string label) {
  intervals_.push_back(PendingInterval{source, start, end, std::move(name), std::move(label)});
}

Status IntervalReader::Commit() {
  ProfileBuilder& builder = bundle_.builder;
  std::vector<ProfileBuilder::IntervalSourceId> ids;
  ids.reserve(sources_.size());
  for (const PendingSource& source : sources_) {
    ProfileBuilder::IntervalSourceDesc desc;
    desc.run = table_.run();
    desc.table = table_.name();
    desc.name = source.name;
    desc.process_name = ProcessName(source.pid);
    desc.pid = source.pid;
    desc.during = source.during;
    desc.during_name = source.during_name;
    ids.push_back(builder.AddIntervalSource(std::move(desc)));
  }
  for (const PendingInterval& interval : intervals_) {
    Status added = builder.AddInterval(ids[interval.source], interval.start, interval.end,
                                       interval.name, interval.label);
    if (!added.ok()) return added.WithPath(rows_.path());
  }
  if (!intervals_.empty()) bundle_.runs_with_intervals.insert(table_.run());
  return OkStatus();
}

Status ReadIntervalTable(BundleContext& bundle, const Table& table, IntervalTableRead* result,
                         const std::function<Status(IntervalReader&)>& read) {
  CoreRunState& run = bundle.Run(table.store.run);
  std::optional<IntervalReader> reader;
  Status status = [&]() -> Status {
    auto rows = ReadRows(bundle.files, table);
    if (!rows.ok()) return rows.status();
    result->rows = rows->CountEvents();
    reader.emplace(bundle, table, run, rows.take());
    RETURN_IF_ERROR(read(*reader));
    return reader->Commit();
  }();
  if (status.ok()) {
    result->read = true;
    return OkStatus();
  }
  result->left_out = true;
  std::string number = std::to_string(table.run());
  return bundle.left_out.LeaveOut("TABLE_UNREADABLE",
                                  "the " + table.name() + " table of run " + number, status,
                                  "its intervals", PartRole::kDetails);
}

}  // namespace instrumentscope::trace_bundle
