#include "firefox/meta.h"

#include <map>
#include <string>

#include "firefox/processed_format.h"

namespace instrumentscope::firefox {
namespace {

// The most frequent weight of the first CPU samples, in milliseconds: what
// the profiler draws the last sample of a thread as.
double SamplingInterval(const ProfileGroup& group) {
  constexpr size_t kLooked = 10000;
  std::map<int64_t, size_t> counts;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kThread || profile.unit != ValueUnit::kNanoseconds) continue;
    for (size_t i = 0; i < profile.weights.size() && i < kLooked; ++i) {
      if (profile.samples[i] != kEmptyStack) ++counts[profile.weights[i]];
    }
    break;
  }
  int64_t interval = kUntimedStep;
  size_t most = 0;
  for (const auto& [weight, count] : counts) {
    if (count > most && weight > 0) interval = weight, most = count;
  }
  return static_cast<double>(interval) / 1e6;
}

// When the first run laid out started, in milliseconds since 1970; 0 when
// the recording does not say.
double StartTime(const ProfileGroup& group, const FirefoxLayout& layout) {
  for (const RunInfo& info : group.run_info) {
    if (info.run == layout.first_run && info.start_time) {
      return static_cast<double>(*info.start_time) / 1e6;
    }
  }
  return 0;
}

nlohmann::json Entry(const std::string& label, const std::string& value) {
  return {{"label", label}, {"format", "string"}, {"value", value}};
}

// What the profiler's metadata panel lists: the recording, every warning,
// and each run's own lines ("Target Model: MacBook Pro" as label and value).
nlohmann::json Extra(const ProfileGroup& group) {
  std::string instruments;
  for (const std::string& name : group.instruments) {
    instruments += (instruments.empty() ? "" : ", ") + name;
  }
  // Arrays are made as arrays: a braced list of one value would be that value.
  nlohmann::json entries = nlohmann::json::array();
  entries.push_back(Entry("Recording", group.name));
  if (!instruments.empty()) entries.push_back(Entry("Recorded with", instruments));
  entries.push_back(Entry("Converted by", group.exporter));
  for (const Warning& warning : group.warnings) {
    entries.push_back(Entry("Warning " + warning.code, warning.message));
  }
  nlohmann::json extra = nlohmann::json::array();
  extra.push_back({{"label", "Instruments recording"}, {"entries", entries}});
  for (const RunInfo& info : group.run_info) {
    nlohmann::json facts = nlohmann::json::array();
    for (const std::string& fact : info.facts) {
      size_t colon = fact.find(": ");
      facts.push_back(colon == std::string::npos
                          ? Entry(fact, "")
                          : Entry(fact.substr(0, colon), fact.substr(colon + 2)));
    }
    if (!facts.empty()) {
      extra.push_back({{"label", "Run " + std::to_string(info.run)}, {"entries", facts}});
    }
  }
  return extra;
}

nlohmann::json MarkerSchema(const SchemaLayout& schema) {
  nlohmann::json fields = nlohmann::json::array();
  fields.push_back({{"key", "label"}, {"label", "Interval"}, {"format", "unique-string"}});
  fields.push_back({{"key", "source"}, {"label", "Source"}, {"format", "unique-string"}});
  // A signpost's message, a thread state's note: what the label adds to the name.
  if (schema.details) {
    fields.push_back({{"key", "detail"}, {"label", "Detail"}, {"format", "unique-string"}});
  }
  return {
      {"name", schema.table},
      {"display", nlohmann::json::array({"marker-chart", "marker-table", "timeline-overview"})},
      {"chartLabel", "{marker.data.label}"},
      {"tooltipLabel", "{marker.data.label}"},
      {"tableLabel", "{marker.data.label}"},
      {"description", "Intervals of the Instruments table " + schema.table},
      {"fields", fields},
  };
}

}  // namespace

nlohmann::json MetaJson(const ProfileGroup& group, const FirefoxLayout& layout) {
  nlohmann::json meta = {
      {"interval", SamplingInterval(group)},
      {"startTime", StartTime(group, layout)},
      {"processType", 0},
      {"product", group.name},
      {"stackwalk", 1},
      {"version", kGeckoProfileVersion},
      {"preprocessedProfileVersion", kProcessedProfileVersion},
      // Frames are named here, or from the user's files: the profiler is not
      // to send their addresses to a symbol server.
      {"symbolicated", true},
      {"importedFrom", "Instruments, by " + group.exporter},
      {"usesOnlyOneStackType", true},
      {"sourceCodeIsNotOnSearchfox", true},
      {"profilingStartTime", 0},
      {"profilingEndTime", static_cast<double>(layout.end) / 1e6},
      {"categories", nlohmann::json::array()},
      {"markerSchema", nlohmann::json::array()},
      {"extra", Extra(group)},
  };
  for (Category category : kCategories) {
    meta["categories"].push_back({{"name", CategoryName(category)},
                                  {"color", CategoryColor(category)},
                                  {"subcategories", nlohmann::json::array({"Other"})}});
  }
  for (const SchemaLayout& schema : layout.schemas) {
    meta["markerSchema"].push_back(MarkerSchema(schema));
  }
  if (layout.selected_thread) {
    meta["initialSelectedThreads"] = nlohmann::json::array({*layout.selected_thread});
  }
  if (!layout.visible_threads.empty()) meta["initialVisibleThreads"] = layout.visible_threads;
  return meta;
}

}  // namespace instrumentscope::firefox
