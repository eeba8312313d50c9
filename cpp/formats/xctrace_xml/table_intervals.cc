#include "formats/xctrace_xml/table_intervals.h"

namespace instrumentscope::xctrace_xml {

size_t TableIntervals::Source(const std::string& name, const std::string& process_name,
                              int64_t pid) {
  auto [entry, inserted] = source_index_.try_emplace({name, pid}, sources_.size());
  if (inserted) sources_.push_back(PendingSource{name, process_name, pid});
  return entry->second;
}

void TableIntervals::Add(size_t source, int64_t start, int64_t end, std::string name,
                         std::string label) {
  intervals_.push_back(PendingInterval{source, start, end, std::move(name), std::move(label)});
}

Status TableIntervals::Commit(ProfileBuilder& builder) && {
  std::vector<ProfileBuilder::IntervalSourceId> ids;
  for (PendingSource& source : sources_) {
    ProfileBuilder::IntervalSourceDesc desc;
    desc.run = run_;
    desc.table = schema_;
    desc.name = std::move(source.name);
    desc.process_name = std::move(source.process_name);
    desc.pid = source.pid;
    desc.during = during_;
    desc.during_name = during_name_;
    ids.push_back(builder.AddIntervalSource(std::move(desc)));
  }
  for (const PendingInterval& interval : intervals_) {
    RETURN_IF_ERROR(builder.AddInterval(ids[interval.source], interval.start, interval.end,
                                        interval.name, interval.label));
  }
  return OkStatus();
}

}  // namespace instrumentscope::xctrace_xml
