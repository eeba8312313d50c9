// The tables of corpus bundles (intervals, CPU samples, weighted events), read twice: from the
// bundle's bulkstores, and from an `xctrace export` of the same rows, which
// this test writes as xctrace writes its exports (a <schema> of the table's
// mnemonics, a cell per column, threads and processes with their fmt,
// backtraces as their frames). Both readers decode into the catalogue's
// typed rows for the same consumers: the sources, intervals, lanes, labels,
// samples, stacks and warnings must be the same.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "base/identifiers.h"
#include "container/file_tree.h"
#include "container/inflate.h"
#include "container/zip.h"
#include "formats/names.h"
#include "formats/trace_bundle/bundle_importer.h"
#include "model/profile_builder.h"
#include "tables/consumers.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using tables::Role;
using tables::ValueType;

std::string Escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// The element (and engineering type) xctrace writes a value of this type as.
const char* ElementOf(ValueType type) {
  switch (type) {
    case ValueType::kTime: return "start-time";
    case ValueType::kDuration: return "duration";
    case ValueType::kThread: return "thread";
    case ValueType::kProcess: return "process";
    case ValueType::kText: return "string";
    case ValueType::kNumber: return "uint64";
    case ValueType::kPid: return "pid";
    case ValueType::kWeight: return "weight";
    case ValueType::kBacktrace: return "backtrace";
    case ValueType::kCounters: return "pmc-events";
    case ValueType::kNarrative: return "narrative";
  }
  return "string";
}

// Writes each table the bundle reader decodes as an export's <node>;
// `builder` holds the stacks its backtraces are.
class ExportWriter final : public tables::RowObserver {
 public:
  explicit ExportWriter(const ProfileBuilder& builder) : builder_(builder) {}

  void StartTable(const tables::TableEntry& entry, uint32_t run, tables::RoleSet columns) override {
    EndTable();
    columns_.clear();
    // Ids are a node's own.
    backtrace_ids_.clear();
    cell_ids_.clear();
    tables::RoleSet written;
    for (const tables::ColumnSpec& spec : entry.columns) {
      if (!columns.has(spec.role) || written.has(spec.role)) continue;
      written.Add(spec.role);
      columns_.push_back(spec);
    }
    node_ = "<node xpath='//trace-toc[1]/run[" + std::to_string(run) +
            "]/data[1]/table[1]'><schema name=\"" + std::string(entry.schema) + "\">";
    for (const tables::ColumnSpec& spec : columns_) {
      // A weight of a typed value (counters-profile) is "any", its cells telling times apart.
      bool typed = spec.type == ValueType::kWeight && entry.schema == "counters-profile";
      node_ += "<col><mnemonic>" + std::string(spec.mnemonic) + "</mnemonic><engineering-type>" +
               (typed ? "any" : ElementOf(spec.type)) + "</engineering-type></col>";
    }
    node_ += "</schema>\n";
    ++tables_;
    if (entry.consumer == tables::Consumer::kCpuSamples) runs_with_samples_.insert(run);
  }

  void Row(const tables::TypedRow& row, tables::RowContext& context) override {
    node_ += "<row>";
    for (const tables::ColumnSpec& spec : columns_) node_ += Cell(spec, row[spec.role], context);
    node_ += "</row>\n";
  }

  // The export; a run without samples gets one, ending where `run_ends`
  // says it ends: an interval never ended is drawn to its run's end, which
  // the bundle's samples set.
  std::string Export(const std::map<uint32_t, int64_t>& run_ends) {
    EndTable();
    for (const auto& [run, end] : run_ends) {
      if (runs_with_samples_.count(run)) continue;
      nodes_ +=
          "<node xpath='//trace-toc[1]/run[" + std::to_string(run) +
          "]/data[1]/table[2]'><schema name=\"time-profile\">"
          "<col><mnemonic>time</mnemonic><engineering-type>sample-time</engineering-type></col>"
          "<col><mnemonic>thread</mnemonic><engineering-type>thread</engineering-type></col>"
          "<col><mnemonic>weight</mnemonic><engineering-type>weight</engineering-type></col>"
          "<col><mnemonic>stack</mnemonic><engineering-type>backtrace</engineering-type></col>"
          "</schema><row><sample-time>" +
          std::to_string(end - 1) +
          "</sample-time><thread fmt=\"Main Thread 0x1\"><tid>1</tid></thread>"
          "<weight>1</weight><backtrace><frame name=\"end of run\" addr=\"0x1\"/>"
          "</backtrace></row></node>\n";
    }
    return "<?xml version=\"1.0\"?>\n<trace-query-result>\n" + nodes_ + "</trace-query-result>\n";
  }
  int tables() const { return tables_; }

 private:
  void EndTable() {
    if (!node_.empty()) nodes_ += node_ + "</node>\n";
    node_.clear();
  }

  // A process the recording names no fmt of is written without one.
  static std::string Process(int64_t pid, tables::RowContext& context) {
    std::string name = context.ProcessName(pid);
    std::string fmt = name.empty() ? std::string()
                                   : " fmt=\"" + Escaped(name) + " (" + std::to_string(pid) + ")\"";
    return "<process" + fmt + "><pid>" + std::to_string(pid) + "</pid></process>";
  }

  std::string Cell(const tables::ColumnSpec& spec, const tables::Value& value,
                   tables::RowContext& context) {
    if (!value.present || value.unreadable) return "<sentinel/>";
    const char* element = ElementOf(spec.type);
    auto plain = [&](const std::string& text) {
      return std::string("<") + element + ">" + text + "</" + element + ">";
    };
    switch (spec.type) {
      case ValueType::kTime:
      case ValueType::kNumber: return plain(std::to_string(value.number));
      case ValueType::kDuration: {
        // A duration all ones within its bits: all ones in the export too.
        bool still_going = value.bits < 64 && value.number == (uint64_t{1} << value.bits) - 1;
        return plain(still_going ? std::to_string(UINT64_MAX) : std::to_string(value.number));
      }
      case ValueType::kProcess: return Reused("process", Process(value.pid, context));
      case ValueType::kThread: {
        // The bundle keeps a thread's reference; where it looked up no tid,
        // the reference tells threads apart as a tid does in an export.
        uint64_t tid = value.pid >= 0 ? value.number : value.key;
        std::string name = ThreadLabel(context.ThreadName(value), tid);
        std::string process = value.pid >= 0 ? context.ProcessName(value.pid) : std::string();
        std::string fmt =
            name + (process.empty() ? std::string()
                                    : " (" + process + ", pid: " + std::to_string(value.pid) + ")");
        return Reused("thread", "<thread fmt=\"" + Escaped(fmt) + "\"><tid>" + std::to_string(tid) +
                                    "</tid>" +
                                    (value.pid >= 0 ? Process(value.pid, context) : std::string()) +
                                    "</thread>");
      }
      case ValueType::kText:
      case ValueType::kNarrative:
        return std::string("<") + element + " fmt=\"" + Escaped(value.text) + "\">" +
               Escaped(value.text) + "</" + element + ">";
      case ValueType::kCounters:
        return std::string("<") + element + " fmt=\"(" + Escaped(value.text) + ")\">" +
               Escaped(value.text) + "</" + element + ">";
      case ValueType::kWeight:
        // A count of events is no <weight>: xctrace writes a typed value's element.
        return value.nanoseconds ? plain(std::to_string(value.number))
                                 : "<pmc-event>" + std::to_string(value.number) + "</pmc-event>";
      case ValueType::kBacktrace: return Backtrace(static_cast<StackId>(value.number));
      case ValueType::kPid: return plain(std::to_string(value.pid));
    }
    return "<sentinel/>";
  }

  // `cell`, an <element …> of its kind: with an id the first time, by
  // reference after, as xctrace writes them.
  std::string Reused(const std::string& element, const std::string& cell) {
    auto [known, added] = cell_ids_.try_emplace(cell, next_id_);
    if (!added) return "<" + element + " ref=\"" + std::to_string(known->second) + "\"/>";
    ++next_id_;
    return "<" + element + " id=\"" + std::to_string(known->second) + "\"" +
           cell.substr(element.size() + 1);
  }

  // A stack's frames, leaf first, by name, and by address where unnamed;
  // a stack written before, by reference, as xctrace does.
  std::string Backtrace(StackId stack) {
    auto [known, added] = backtrace_ids_.try_emplace(stack, next_id_);
    if (!added) return "<backtrace ref=\"" + std::to_string(known->second) + "\"/>";
    ++next_id_;
    std::string frames;
    for (StackId at = stack; at != kEmptyStack; at = builder_.stacks().parent[at]) {
      const Frame& frame = builder_.frame(builder_.stacks().frame[at]);
      frames += "<frame name=\"" + Escaped(frame.name) + "\"";
      if (frame.address) frames += " addr=\"" + HexAddress(*frame.address) + "\"";
      frames += "/>";
    }
    return "<backtrace id=\"" + std::to_string(known->second) + "\">" + frames + "</backtrace>";
  }

  const ProfileBuilder& builder_;
  std::map<StackId, uint64_t> backtrace_ids_;
  std::map<std::string, uint64_t> cell_ids_;
  uint64_t next_id_ = 1;
  std::set<uint32_t> runs_with_samples_;
  std::vector<tables::ColumnSpec> columns_;
  std::string node_;
  std::string nodes_;
  int tables_ = 0;
};

// A source as both readers must give it.
using SourceKey = std::tuple<uint32_t, std::string, std::string, std::string>;
struct SourceFacts {
  std::string process_label;
  uint64_t intervals;
  int64_t total_duration;
  uint32_t lanes;
  std::vector<std::tuple<std::string, uint64_t, int64_t>> names;
  uint64_t distinct_names;
  bool operator==(const SourceFacts& other) const {
    return std::tie(process_label, intervals, total_duration, lanes, names, distinct_names) ==
           std::tie(other.process_label, other.intervals, other.total_duration, other.lanes,
                    other.names, other.distinct_names);
  }
};

std::map<SourceKey, SourceFacts> Sources(const ProfileGroup& group) {
  std::map<SourceKey, SourceFacts> sources;
  for (const IntervalSource& source : group.interval_sources) {
    SourceFacts facts{
        source.process_label, source.intervals, source.total_duration, source.lanes, {},
        source.distinct_names};
    for (const IntervalSource::Name& name : source.names) {
      facts.names.emplace_back(name.name, name.intervals, name.total_duration);
    }
    sources[{source.run, source.table, source.name, std::to_string(source.pid)}] = facts;
  }
  return sources;
}

// Each evented profile of intervals: its events as (time, label, opens).
std::map<std::string, std::vector<std::tuple<int64_t, std::string, bool>>> IntervalProfiles(
    const ProfileGroup& group) {
  std::map<std::string, std::vector<std::tuple<int64_t, std::string, bool>>> profiles;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kIntervals) continue;
    auto& events = profiles[profile.name];
    for (const IntervalEvent& event : profile.events) {
      events.emplace_back(event.at, group.frames[event.frame].name, event.open);
    }
  }
  return profiles;
}

std::vector<std::string> IntervalWarnings(const ProfileGroup& group) {
  std::vector<std::string> warnings;
  for (const std::string& code : {"INTERVALS_WITHOUT_END", "INTERVALS_WITHOUT_BEGIN"}) {
    for (const std::string& message : testing::WarningMessages(group, code)) {
      warnings.push_back(code + std::string(": ") + message);
    }
  }
  return warnings;
}

// Where each run of `group` ends, by its interval profiles.
std::map<uint32_t, int64_t> RunEnds(const ProfileGroup& group) {
  std::map<uint32_t, int64_t> ends;
  for (const Profile& profile : group.profiles) {
    if (profile.kind == ProfileKind::kIntervals) ends[profile.run] = profile.end_value;
  }
  return ends;
}

// The bundle at `path`'s interval tables, as its rows decode, written as an export.
std::string ExportOfBundle(const std::string& path, const std::map<uint32_t, int64_t>& run_ends,
                           int* tables) {
  std::shared_ptr<FileTree> tree;
  if (std::filesystem::is_directory(path)) {
    auto folder = std::make_shared<FolderTree>(Limits{});
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (!entry.is_regular_file()) continue;
      folder->Add(std::filesystem::relative(entry.path(), path).generic_string(),
                  testing::ReadFile(entry.path().string()));
    }
    tree = folder;
  } else {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::ReadFile(path));
    auto zip = ZipTree::Open(bytes, Limits{});
    REQUIRE(zip.ok());
    tree = std::shared_ptr<FileTree>(std::move(*zip));
  }
  ProfileBuilder builder;
  ExportWriter writer(builder);
  Status status = trace_bundle::ImportBundleShowingRows(*tree, builder, ImportOptions{}, writer);
  INFO(status.ToString());
  REQUIRE(status.ok());
  *tables = writer.tables();
  return writer.Export(run_ends);
}

// Each thread's samples of `kind`: their count, total weight and stacks, folded.
std::map<std::string, std::tuple<size_t, int64_t, std::map<std::string, int64_t>>> ThreadProfiles(
    const ProfileGroup& group, ProfileKind kind = ProfileKind::kThread) {
  std::map<std::string, std::tuple<size_t, int64_t, std::map<std::string, int64_t>>> profiles;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != kind) continue;
    auto& [samples, total, stacks] = profiles[profile.name];
    samples += profile.samples.size();
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      std::string folded;
      for (StackId at = profile.samples[i]; at != kEmptyStack; at = group.stacks.parent[at]) {
        folded = group.frames[group.stacks.frame[at]].name + (folded.empty() ? "" : ";") + folded;
      }
      stacks[folded] += profile.weights[i];
      total += profile.weights[i];
    }
  }
  return profiles;
}

// What keys two maps differ at, for a failure to name: a key only in one,
// or with another value.
template <typename Key, typename Value>
std::string Differences(const std::map<Key, Value>& exported, const std::map<Key, Value>& bundle) {
  std::ostringstream out;
  auto name = [](const Key& key) {
    if constexpr (std::is_same_v<Key, std::string>) {
      return key;
    } else {
      return std::get<2>(key);  // a source's name
    }
  };
  for (const auto& [key, value] : exported) {
    auto other = bundle.find(key);
    if (other == bundle.end()) {
      out << "only exported: " << name(key) << "\n";
    } else if (!(other->second == value)) {
      out << "differs: " << name(key) << "\n";
    }
  }
  for (const auto& [key, value] : bundle) {
    if (!exported.count(key)) out << "only in the bundle: " << name(key) << "\n";
  }
  return out.str().substr(0, 2000);
}

// `with_samples`: the bundle at `path` has CPU samples, which the export must give the same.
void CheckBundle(const std::string& path, int tables_expected, bool with_samples) {
  auto bundle = testing::ImportPath(path);
  INFO(bundle.status().ToString());
  REQUIRE(bundle.ok());
  int tables = 0;
  std::string xml = ExportOfBundle(path, RunEnds(*bundle), &tables);
  CHECK(tables == tables_expected);
  auto exported = testing::ImportText(xml);
  INFO(exported.status().ToString());
  REQUIRE(exported.ok());

  CHECK(!bundle->interval_sources.empty());
  INFO(Differences(Sources(*exported), Sources(*bundle)));
  CHECK(Sources(*exported) == Sources(*bundle));
  INFO(Differences(IntervalProfiles(*exported), IntervalProfiles(*bundle)));
  CHECK(IntervalProfiles(*exported) == IntervalProfiles(*bundle));
  CHECK(IntervalWarnings(*exported) == IntervalWarnings(*bundle));
  if (with_samples) {
    CHECK(!ThreadProfiles(*bundle).empty());
    INFO(Differences(ThreadProfiles(*exported), ThreadProfiles(*bundle)));
    CHECK(ThreadProfiles(*exported) == ThreadProfiles(*bundle));
  }
  // Events weighted by their durations, and counters' counts.
  INFO(Differences(ThreadProfiles(*exported, ProfileKind::kWeighted),
                   ThreadProfiles(*bundle, ProfileKind::kWeighted)));
  CHECK(ThreadProfiles(*exported, ProfileKind::kWeighted) ==
        ThreadProfiles(*bundle, ProfileKind::kWeighted));
  // The tables each reader read, and those it left for repeating another.
  auto read = [](const ProfileGroup& group) {
    std::map<std::string, bool> read;
    for (const TableSummary& table : group.tables) {
      if (tables::FindTable(table.schema)) read[table.schema] |= table.has_intervals;
    }
    return read;
  };
  std::map<std::string, bool> from_export = read(*exported);
  for (const auto& [schema, has_intervals] : from_export) {
    INFO(schema);
    CHECK(read(*bundle)[schema] == has_intervals);
  }
}

void CheckBothReaders(const std::string& relative, int tables_expected, bool with_samples) {
  auto path = testing::CorpusFileOrSkip(relative);
  if (path) CheckBundle(*path, tables_expected, with_samples);
}

TEST_CASE(
    "Both readers, Strux (11.4.1): CPU samples, signposts, Points of Interest, thermal states, "
    "life cycle, a spin") {
  // time-profile, os-signpost (two stores, one empty), thermal states,
  // life-cycle-period, app-spin; not region-of-interest, whose points
  // os-signpost holds.
  CheckBothReaders("Ricks__Strux/Instruments.trace", 6, true);
}

TEST_CASE("Both readers, loops (26.2): 18,634 signpost rows, begins and ends paired") {
  // os-signpost; not os-signpost-interval, whose pairs os-signpost holds.
  CheckBothReaders("modplug__loops/profile.trace", 1, false);
}

TEST_CASE(
    "Both readers, mperf (26.0): CPU samples, run loop iterations per thread, a thermal state") {
  // time-profile, named by thread-info and process-info; runloop-events.
  CheckBothReaders("benjaminRomano__mperf/src/test/resources/example.trace.zip", 9, true);
}

TEST_CASE("Both readers, a System Trace (26.x): thread states, cores, system calls, narratives") {
  auto path = testing::CorpusFileOrSkip("BA-Partners__Documents/Untitled.trace");
  if (!path) return;
  // Its syscall and thread-narrative tables (838,333 and 849,177 rows) cut
  // to their first 20,000 rows, written back plain: an export of every row
  // would run to hundreds of megabytes.
  testing::ScratchCopy copy(*path);
  for (const char* store : {"indexed-store-18", "indexed-store-63"}) {
    std::string bulkstore =
        copy / ("corespace/run1/core/stores/" + std::string(store) + "/bulkstore");
    std::vector<uint8_t> compressed = testing::ReadFile(bulkstore);
    auto inflated = Inflate(ByteSpan(compressed.data(), compressed.size()), InflateFormat::kZlib,
                            size_t{1} << 30);
    REQUIRE(inflated.ok());
    uint32_t row_size = (*inflated)[16] | (*inflated)[17] << 8;
    REQUIRE(row_size > 0);
    std::string rows(inflated->begin(), inflated->begin() + 0x1000 + 20000 * row_size);
    testing::WriteFile(bulkstore, rows);
  }
  // thread-state, cpu-state, virtual-memory, syscall, thread-narrative,
  // thermal state and run loop iterations, and five empty tables (two
  // os-signpost stores, region-of-interest, potential-hangs, hang-risks);
  // names from thread-info and process-info.
  CheckBundle(copy.path(), 12, false);
}

TEST_CASE("Both readers, CPU Counters (13+): samples weighing times or counts, a counter's view") {
  // 20 counters-profile tables (4 empty); run 20's Points of Interest (os-signpost).
  CheckBothReaders("nealsid__emacs-module-wrapper-template/Instruments.trace", 21, true);
}

}  // namespace
}  // namespace instrumentscope
