#include "report/summary.h"

#include "base/identifiers.h"
#include "model/view_names.h"
#include "report/naming.h"
#include "speedscope/file_format.h"
#include "speedscope/writer.h"

namespace instrumentscope {
namespace {

nlohmann::json ProfilesJson(const ProfileGroup& group) {
  nlohmann::json profiles = nlohmann::json::array();
  for (const Profile& profile : group.profiles) {
    nlohmann::json entry = {
        {"name", profile.name},
        {"kind", speedscope::KindName(profile.kind)},
        {"unit", speedscope::UnitName(profile.unit)},
        {"startValue", profile.start_value},
        {"endValue", profile.end_value},
        {"threadName", profile.thread_name},
        {"threadLabel", profile.thread_label},
        {"processLabel", profile.process_label},
        {"tid", profile.tid},
        {"processName", profile.process_name},
        {"run", profile.run},
        {"table", profile.table},
        {"sampleCount", profile.sample_count},
        {"sampleWeight", profile.sample_weight},
        {"threads", profile.threads},
        {"lane", profile.lane},
        {"intervalName", profile.interval_name},
        {"listedName", profile.listed_name},
        {"weighs", profile.weighs},
        // A time as a person reads it ("134.8 ms"), for profiles weighing times.
        {"weightText", profile.unit == ValueUnit::kNanoseconds ? DurationText(profile.sample_weight)
                                                               : std::string()},
    };
    entry["pid"] = profile.pid >= 0 ? nlohmann::json(profile.pid) : nlohmann::json(nullptr);
    entry["intervalSource"] = profile.interval_source != UINT32_MAX
                                  ? nlohmann::json(profile.interval_source)
                                  : nlohmann::json(nullptr);
    profiles.push_back(std::move(entry));
  }
  return profiles;
}

nlohmann::json TablesJson(const ProfileGroup& group) {
  nlohmann::json tables = nlohmann::json::array();
  for (const TableSummary& table : group.tables) {
    tables.push_back({{"run", table.run},
                      {"schema", table.schema},
                      {"rows", table.rows},
                      {"cpuSamples", table.has_cpu_samples},
                      {"intervals", table.has_intervals},
                      {"allocations", table.has_allocations}});
  }
  return tables;
}

nlohmann::json IntervalSourcesJson(const ProfileGroup& group) {
  nlohmann::json sources = nlohmann::json::array();
  for (const IntervalSource& source : group.interval_sources) {
    nlohmann::json names = nlohmann::json::array();
    for (const IntervalSource::Name& name : source.names) {
      names.push_back({{"name", name.name},
                       {"intervals", name.intervals},
                       {"totalDuration", name.total_duration},
                       {"totalDurationText", DurationText(name.total_duration)}});
    }
    sources.push_back({{"run", source.run},
                       {"table", source.table},
                       {"name", source.name},
                       {"processLabel", source.process_label},
                       {"pid", source.pid >= 0 ? nlohmann::json(source.pid) : nlohmann::json()},
                       {"intervals", source.intervals},
                       {"totalDuration", source.total_duration},
                       {"totalDurationText", DurationText(source.total_duration)},
                       {"lanes", source.lanes},
                       {"names", std::move(names)},
                       {"nameCount", source.distinct_names},
                       {"states", source.states}});
  }
  return sources;
}

nlohmann::json NamingJson(const ProfileGroup& group) {
  nlohmann::json naming = {
      {"sampledFrames", group.naming.sampled_frames},
      {"unnamedFrames", group.naming.unnamed_frames},
      {"images", nlohmann::json::array()},
  };
  for (const UnnamedImage& unnamed : group.naming.images) {
    nlohmann::json entry = {{"image", nullptr},
                            {"uuid", nullptr},
                            {"frames", unnamed.frames},
                            {"samples", unnamed.samples}};
    if (unnamed.image != kNoImage) {
      const CodeImage& image = group.images[unnamed.image];
      entry["image"] = image.path;
      if (image.uuid) entry["uuid"] = FormatUuid(*image.uuid);
    }
    naming["images"].push_back(std::move(entry));
  }
  nlohmann::json& folded = naming["folded"] = nlohmann::json::array();
  for (const FoldedFrame& body : group.naming.folded) {
    const Frame& frame = group.frames[body.frame];
    folded.push_back(
        {{"image", frame.file}, {"samples", body.samples}, {"functions", frame.folded}});
  }
  naming["text"] = NamingText(group.naming);
  return naming;
}

}  // namespace

nlohmann::json Summary(const ProfileGroup& group, SummaryFrames frames) {
  nlohmann::json summary = {
      {"name", group.name},
      {"exporter", group.exporter},
      {"activeProfileIndex", group.active_profile_index},
      {"importThreads", group.threads},
  };
  summary["profiles"] = ProfilesJson(group);
  summary["tables"] = TablesJson(group);
  summary["intervalSources"] = IntervalSourcesJson(group);
  summary["instruments"] = group.instruments;
  nlohmann::json& warnings = summary["warnings"] = nlohmann::json::array();
  for (const Warning& warning : group.warnings) {
    warnings.push_back({{"code", warning.code}, {"message", warning.message}});
  }
  if (group.symbolication) {
    const SymbolicationReport& report = *group.symbolication;
    summary["symbolication"] = {{"unnamedFrames", report.unnamed_frames},
                                {"namedFrames", report.named_frames},
                                {"filesUsed", report.files_used},
                                {"text", SymbolicationText(report)}};
  }
  summary["naming"] = NamingJson(group);
  if (frames == SummaryFrames::kInclude) {
    nlohmann::json& list = summary["frames"] = nlohmann::json::array();
    for (const Frame& frame : group.frames) list.push_back(speedscope::FrameJson(frame));
  }
  return summary;
}

}  // namespace instrumentscope
