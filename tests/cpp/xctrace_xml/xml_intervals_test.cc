// The xctrace XML importer on tables of intervals and of weighted events:
// Microsoft's exports in the corpus (vsyncs, thermal states, page faults),
// counted here independently of the importer, and small hand-written exports
// for the tables seen only as schemas (Points of Interest, signposts, hangs,
// hang risks, app spins, life cycle periods).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::CorpusFileOrSkip;
using testing::ImportText;
using testing::ReadFile;

const std::string kMicrosoft =
    "microsoft__Microsoft-Performance-Tools-Apple/InstrumentsProcessorTests/TestData/";

std::string ReadText(const std::string& path) {
  std::vector<uint8_t> bytes = ReadFile(path);
  return std::string(bytes.begin(), bytes.end());
}

std::string Export(const std::string& nodes) {
  return "<?xml version=\"1.0\"?>\n<trace-query-result>\n" + nodes + "</trace-query-result>\n";
}

std::string Node(const std::string& schema, const std::string& rows, int run = 1) {
  return "<node xpath='//trace-toc[1]/run[" + std::to_string(run) + "]/data[1]/table[7]'>" +
         schema + rows + "</node>\n";
}

// A <schema> of (mnemonic, engineering type) columns.
std::string Schema(const std::string& name,
                   const std::vector<std::pair<std::string, std::string>>& columns) {
  std::string schema = "<schema name=\"" + name + "\">";
  for (const auto& [mnemonic, type] : columns) {
    schema += "<col><mnemonic>" + mnemonic + "</mnemonic><name>" + mnemonic +
              "</name><engineering-type>" + type + "</engineering-type></col>";
  }
  return schema + "</schema>\n";
}

Status ImportError(const std::string& text, ImportOptions options = {}) {
  auto group = ImportText(text, options);
  REQUIRE(!group.ok());
  return group.status();
}

ImportOptions WithoutIntervals() {
  ImportOptions options;
  options.intervals = false;
  return options;
}

const IntervalSource* FindSource(const ProfileGroup& group, const std::string& name,
                                 int64_t pid = -1) {
  for (const IntervalSource& source : group.interval_sources) {
    if (source.name == name && source.pid == pid) return &source;
  }
  return nullptr;
}

// The labels of a source's intervals, in the order they open, over its lanes.
std::vector<std::string> Labels(const ProfileGroup& group, const IntervalSource* source) {
  std::vector<std::string> labels;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kIntervals ||
        &group.interval_sources[profile.interval_source] != source) {
      continue;
    }
    for (const IntervalEvent& event : profile.events) {
      if (event.open) labels.push_back(group.frames[event.frame].name);
    }
  }
  return labels;
}

const TableSummary& OnlyTable(const ProfileGroup& group) {
  REQUIRE(group.tables.size() == 1);
  return group.tables[0];
}

// The element text or fmt of the cell `<name id="N" fmt="…">text</name>` or
// `<name ref="N"/>` at the start of `at`, resolving refs through `ids`.
// Returns what was found; `at` moves past the start tag.
std::string CellValue(const std::string& xml, size_t* at, const std::string& name,
                      std::map<std::string, std::string>* ids, bool use_fmt) {
  size_t tag_end = xml.find('>', *at);
  std::string tag = xml.substr(*at, tag_end - *at);
  auto attribute = [&](const std::string& key) -> std::string {
    size_t found = tag.find(" " + key + "=\"");
    if (found == std::string::npos) return "";
    size_t start = found + key.size() + 3;
    return tag.substr(start, tag.find('"', start) - start);
  };
  *at = tag_end + 1;
  if (!attribute("ref").empty()) return (*ids)[attribute("ref")];
  std::string value = use_fmt
                          ? attribute("fmt")
                          : xml.substr(tag_end + 1, xml.find("</" + name, tag_end) - tag_end - 1);
  if (!attribute("id").empty()) (*ids)[attribute("id")] = value;
  return value;
}

TEST_CASE("Display vsyncs: one source per display, a 1 ns VSync per row") {
  auto path = CorpusFileOrSkip(kMicrosoft + "display_vsync_trace.xml");
  if (!path) return;
  // Rows per display, counted from the text.
  std::string xml = ReadText(*path);
  std::map<std::string, std::string> ids;
  std::map<std::string, uint64_t> rows_per_display;
  for (size_t at = xml.find("<display-name"); at != std::string::npos;
       at = xml.find("<display-name", at)) {
    ++rows_per_display[CellValue(xml, &at, "display-name", &ids, true)];
  }
  REQUIRE(rows_per_display.size() == 2);
  REQUIRE(rows_per_display["Built-In Display"] + rows_per_display["Display 1"] == 1599);

  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(OnlyTable(*group).has_intervals);
  CHECK(!OnlyTable(*group).has_cpu_samples);
  CHECK(OnlyTable(*group).rows == 1599);
  REQUIRE(group->interval_sources.size() == 2);
  for (const auto& [display, rows] : rows_per_display) {
    const IntervalSource* source = FindSource(*group, "Display vsyncs \xE2\x80\x94 " + display);
    REQUIRE(source);
    CHECK(source->table == "display-vsyncs-interval");
    CHECK(source->intervals == rows);
    CHECK(source->total_duration == static_cast<int64_t>(rows));  // 1 ns each
    CHECK(source->lanes == 1);
    std::vector<std::string> labels = Labels(*group, source);
    CHECK(labels.size() == rows);
    CHECK(std::all_of(labels.begin(), labels.end(),
                      [](const std::string& label) { return label == "VSync"; }));
  }
}

TEST_CASE("Thermal state: the one Nominal interval, named by the state's text") {
  auto path = CorpusFileOrSkip(kMicrosoft + "trace_thermal.xml");
  if (!path) return;
  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(OnlyTable(*group).has_intervals);
  REQUIRE(group->interval_sources.size() == 1);
  const IntervalSource* source = FindSource(*group, "Thermal state");
  REQUIRE(source);
  CHECK(source->intervals == 1);
  CHECK(source->total_duration == 4531561613);
  CHECK(source->lanes == 1);
  CHECK(Labels(*group, source) == std::vector<std::string>{"Nominal"});
}

TEST_CASE("Page faults: a weighted profile per thread, weighing each fault's duration") {
  auto path = CorpusFileOrSkip(kMicrosoft + "trace_memory.xml");
  if (!path) return;
  // Each row's duration (column 2) summed per thread id (column 3), from the text.
  std::string xml = ReadText(*path);
  std::map<std::string, std::string> duration_ids, thread_ids, tid_ids;
  std::map<uint64_t, int64_t> weight_per_tid;
  std::map<uint64_t, uint64_t> rows_per_tid;
  uint64_t rows = 0;
  for (size_t at = xml.find("<row>"); at != std::string::npos; at = xml.find("<row>", at)) {
    ++rows;
    at = xml.find("<duration ", at);
    int64_t duration = std::stoll(CellValue(xml, &at, "duration", &duration_ids, false));
    at = xml.find("<thread ", at);
    size_t tag_end = xml.find('>', at);
    std::string tid;
    if (xml.compare(tag_end - 1, 1, "/") == 0) {
      tid = CellValue(xml, &at, "thread", &thread_ids, false);
    } else {
      std::string thread_tag = xml.substr(at, tag_end - at);
      size_t tid_at = xml.find("<tid", tag_end);
      tid = CellValue(xml, &tid_at, "tid", &tid_ids, false);
      size_t id = thread_tag.find(" id=\"");
      thread_ids[thread_tag.substr(id + 5, thread_tag.find('"', id + 5) - id - 5)] = tid;
      at = tid_at;
    }
    weight_per_tid[std::stoull(tid)] += duration;
    ++rows_per_tid[std::stoull(tid)];
  }
  REQUIRE(rows == 1914);

  auto group = testing::ImportPath(*path);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(OnlyTable(*group).has_intervals);
  CHECK(group->interval_sources.empty());
  std::map<uint64_t, int64_t> imported_weight;
  std::map<uint64_t, uint64_t> imported_rows;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kWeighted) continue;
    INFO(profile.name);
    CHECK(profile.table == "virtual-memory");
    CHECK(profile.unit == ValueUnit::kNanoseconds);
    CHECK(profile.name.find("time in page faults") != std::string::npos);
    imported_weight[profile.tid] += profile.sample_weight;
    imported_rows[profile.tid] += profile.sample_count;
  }
  CHECK(imported_weight == weight_per_tid);
  // A thread's consecutive faults of one stack are one sample.
  REQUIRE(imported_rows.size() == rows_per_tid.size());
  for (const auto& [tid, samples] : imported_rows) {
    INFO(tid);
    CHECK(samples >= 1);
    CHECK(samples <= rows_per_tid[tid]);
  }
  CHECK(weight_per_tid.size() == 63);
}

TEST_CASE("With intervals off, exports without CPU samples fail as before") {
  for (const char* name : {"display_vsync_trace.xml", "trace_thermal.xml", "trace_memory.xml"}) {
    auto path = CorpusFileOrSkip(kMicrosoft + name);
    if (!path) return;
    INFO(name);
    auto group = testing::ImportPath(*path, WithoutIntervals());
    REQUIRE(!group.ok());
    CHECK(group.status().code() == ErrorCode::kXmlNoSampleTable);
    CHECK(group.status().message().find("xctrace export --input") != std::string::npos);
  }
}

const std::string kPointsOfInterestSchema =
    Schema("region-of-interest", {{"start", "start-time"},
                                  {"duration", "duration"},
                                  {"class", "region-of-interest-class"},
                                  {"name", "signpost-name"},
                                  {"subsystem", "subsystem"},
                                  {"start-message", "os-log-metadata"},
                                  {"end-message", "os-log-metadata"},
                                  {"process", "process"},
                                  {"thread", "thread"},
                                  {"start-backtrace", "backtrace"}});

std::string Process(int id, const std::string& name, int pid) {
  return "<process id=\"" + std::to_string(id) + "\" fmt=\"" + name + " (" + std::to_string(pid) +
         ")\"><pid id=\"" + std::to_string(id + 1) + "\" fmt=\"" + std::to_string(pid) + "\">" +
         std::to_string(pid) + "</pid></process>";
}

TEST_CASE("Points of Interest: by subsystem and process, labelled with name and message") {
  std::string rows =
      "<row><start-time id=\"1\" fmt=\"00:00.001\">1000000</start-time>"
      "<duration id=\"2\" fmt=\"5 ms\">5000000</duration><sentinel/>"
      "<signpost-name id=\"3\" fmt=\"Load feed\">Load feed</signpost-name>"
      "<subsystem id=\"4\" fmt=\"com.example.app\">com.example.app</subsystem>"
      // "%d items": the message is its pieces' texts, not the fmt that joins them with spaces.
      "<os-log-metadata id=\"5\" fmt=\"3  items\"><uint64 id=\"6\" fmt=\"3\">3</uint64>"
      "<narrative-text id=\"7\" fmt=\" items\"> items</narrative-text></os-log-metadata>"
      "<sentinel/>" +
      Process(8, "Example", 41) +
      "<sentinel/><sentinel/></row>\n"
      // Nested in the first: the same lane.
      "<row><start-time id=\"10\" fmt=\"00:00.002\">2000000</start-time>"
      "<duration id=\"11\" fmt=\"1 ms\">1000000</duration><sentinel/>"
      "<signpost-name id=\"12\" fmt=\"Decode\">Decode</signpost-name><subsystem ref=\"4\"/>"
      "<sentinel/><sentinel/><process ref=\"8\"/><sentinel/><sentinel/></row>\n"
      // Overlapping the first without nesting: a second lane.
      "<row><start-time id=\"13\" fmt=\"00:00.004\">4000000</start-time>"
      "<duration ref=\"2\"/><sentinel/><signpost-name ref=\"3\"/><subsystem ref=\"4\"/>"
      "<os-log-metadata ref=\"5\"/><sentinel/><process ref=\"8\"/><sentinel/><sentinel/></row>\n"
      // Another process.
      "<row><start-time ref=\"1\"/><duration ref=\"11\"/><sentinel/><signpost-name ref=\"3\"/>"
      "<subsystem ref=\"4\"/><sentinel/><os-log-metadata id=\"20\" fmt=\"done\">done"
      "</os-log-metadata>" +
      Process(21, "Helper", 42) + "<sentinel/><sentinel/></row>\n";
  auto group = ImportText(Export(Node(kPointsOfInterestSchema, rows)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(OnlyTable(*group).has_intervals);
  REQUIRE(group->interval_sources.size() == 2);
  const IntervalSource* example =
      FindSource(*group, "Points of Interest \xE2\x80\x94 com.example.app", 41);
  REQUIRE(example);
  CHECK(example->table == "region-of-interest");
  CHECK(example->process_label == "Example (pid 41)");
  CHECK(example->intervals == 3);
  CHECK(example->total_duration == 11000000);
  CHECK(example->lanes == 2);
  std::vector<std::string> labels = Labels(*group, example);
  std::sort(labels.begin(), labels.end());
  CHECK(labels == std::vector<std::string>{"Decode", "Load feed: 3 items", "Load feed: 3 items"});
  const IntervalSource* helper =
      FindSource(*group, "Points of Interest \xE2\x80\x94 com.example.app", 42);
  REQUIRE(helper);
  CHECK(Labels(*group, helper) == std::vector<std::string>{"Load feed: done"});
}

TEST_CASE("Signposts: by subsystem and category, labelled with name, id and message") {
  // The columns of Xcode 26.2's os-signpost-interval store (modplug/loops).
  std::string schema = Schema("os-signpost-interval", {{"start", "start-time"},
                                                       {"duration", "duration"},
                                                       {"layout-qualifier", "layout-id"},
                                                       {"name", "string"},
                                                       {"category", "category"},
                                                       {"subsystem", "subsystem"},
                                                       {"identifier", "os-signpost-identifier"},
                                                       {"process", "process"},
                                                       {"end-process", "process"},
                                                       {"start-thread", "thread"},
                                                       {"end-thread", "thread"},
                                                       {"start-message", "os-log-metadata"},
                                                       {"end-message", "os-log-metadata"}});
  std::string thread =
      "<thread id=\"30\" fmt=\"Main Thread 0x5 (Loops, pid: 77)\"><tid id=\"31\">5</tid>" +
      Process(32, "Loops", 77) + "</thread>";
  std::string rows =
      "<row><start-time id=\"1\" fmt=\"00:00.010\">10000000</start-time>"
      "<duration id=\"2\" fmt=\"2 ms\">2000000</duration><layout-id id=\"3\">0</layout-id>"
      "<string id=\"4\" fmt=\"Load feed\">Load feed</string>"
      "<category id=\"5\" fmt=\"Networking\">Networking</category>"
      "<subsystem id=\"6\" fmt=\"com.example.app\">com.example.app</subsystem>"
      "<os-signpost-identifier id=\"7\">26</os-signpost-identifier><sentinel/><sentinel/>" +
      thread +
      "<sentinel/><os-log-metadata id=\"8\" fmt=\"3 items\">3 items</os-log-metadata>"
      "<os-log-metadata id=\"9\" fmt=\"\"/></row>\n"
      // Points of Interest by category; OS_SIGNPOST_ID_EXCLUSIVE, which
      // Instruments does not show; no message.
      "<row><start-time id=\"10\" fmt=\"00:00.020\">20000000</start-time><duration ref=\"2\"/>"
      "<layout-id ref=\"3\"/><string id=\"11\" fmt=\"Render\">Render</string>"
      "<category id=\"12\" fmt=\"PointsOfInterest\">PointsOfInterest</category>"
      "<subsystem ref=\"6\"/><os-signpost-identifier id=\"13\" "
      "fmt=\"OS_SIGNPOST_ID_EXCLUSIVE\">17216892719917625070</os-signpost-identifier>"
      "<sentinel/><sentinel/><thread ref=\"30\"/><sentinel/><sentinel/><sentinel/></row>\n";
  auto group = ImportText(Export(Node(schema, rows)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  REQUIRE(group->interval_sources.size() == 2);
  // The process comes from the start thread when the process cell is empty.
  const IntervalSource* networking =
      FindSource(*group, "Signposts \xE2\x80\x94 com.example.app / Networking", 77);
  REQUIRE(networking);
  CHECK(Labels(*group, networking) ==
        std::vector<std::string>{"Load feed \xE2\x80\x94 id 0x1a: 3 items"});
  const IntervalSource* poi =
      FindSource(*group, "Points of Interest \xE2\x80\x94 com.example.app", 77);
  REQUIRE(poi);
  CHECK(Labels(*group, poi) == std::vector<std::string>{"Render"});
}

// The columns of the os-signpost table, as Xcode 26.2's store has them
// (modplug/loops) and third-party exports write them.
const std::string kSignpostSchema = Schema("os-signpost", {{"time", "event-time"},
                                                           {"thread", "thread"},
                                                           {"process", "process"},
                                                           {"event-type", "event-type"},
                                                           {"scope", "string"},
                                                           {"identifier", "os-signpost-identifier"},
                                                           {"name", "signpost-name"},
                                                           {"format-string", "format-string"},
                                                           {"backtrace", "backtrace"},
                                                           {"subsystem", "subsystem"},
                                                           {"category", "category"},
                                                           {"message", "os-log-metadata"},
                                                           {"emit-location", "return-location"}});

// One os-signpost row of process Loops (pid 77), subsystem com.example.app.
struct SignpostRow {
  int64_t time;
  std::string type;  // Begin, End, Event
  std::string name;
  uint64_t id;
  std::string category = "Networking";
  std::string message;  // a <narrative-text> piece, then a <uint64> of 42 when not empty
  std::string scope = "Process";
  uint64_t tid = 5;
};

std::string SignpostRows(const std::vector<SignpostRow>& rows) {
  std::string xml;
  for (const SignpostRow& row : rows) {
    std::string id =
        row.id == 0xEEEEB0B5B2B2EEEE ? "OS_SIGNPOST_ID_EXCLUSIVE" : "0x" + [](uint64_t v) {
          char text[17];
          snprintf(text, sizeof(text), "%llx", static_cast<unsigned long long>(v));
          return std::string(text);
        }(row.id);
    xml += "<row><event-time fmt=\"t\">" + std::to_string(row.time) + "</event-time>" +
           "<thread fmt=\"Thread " + std::to_string(row.tid) + "\"><tid>" +
           std::to_string(row.tid) + "</tid><process fmt=\"Loops (77)\"><pid>77</pid></process>" +
           "</thread><sentinel/><event-type fmt=\"" + row.type + "\">" + row.type +
           "</event-type><string fmt=\"" + row.scope + "\">" + row.scope + "</string>" +
           "<os-signpost-identifier fmt=\"" + id + "\">" + std::to_string(row.id) +
           "</os-signpost-identifier><signpost-name fmt=\"" + row.name + "\">" + row.name +
           "</signpost-name><sentinel/><sentinel/>"
           "<subsystem fmt=\"com.example.app\">com.example.app</subsystem>"
           "<category fmt=\"" +
           row.category + "\">" + row.category + "</category>" +
           (row.message.empty()
                ? std::string("<sentinel/>")
                : "<os-log-metadata fmt=\"" + row.message + " 42\"><narrative-text fmt=\"" +
                      row.message + "\">" + row.message +
                      "</narrative-text><uint64 fmt=\"42\">42</uint64></os-log-metadata>") +
           "<sentinel/></row>\n";
  }
  return xml;
}

// The intervals of a source as (start, end, label), by start.
std::vector<std::tuple<int64_t, int64_t, std::string>> Intervals(const ProfileGroup& group,
                                                                 const IntervalSource* source) {
  std::vector<std::tuple<int64_t, int64_t, std::string>> intervals;
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kIntervals ||
        &group.interval_sources[profile.interval_source] != source) {
      continue;
    }
    std::vector<const IntervalEvent*> open;
    for (const IntervalEvent& event : profile.events) {
      if (event.open) {
        open.push_back(&event);
        continue;
      }
      intervals.emplace_back(open.back()->at, event.at, group.frames[event.frame].name);
      open.pop_back();
    }
  }
  std::sort(intervals.begin(), intervals.end());
  return intervals;
}

TEST_CASE("os-signpost exports: begins and ends paired, events as points, messages from pieces") {
  constexpr uint64_t kExclusive = 0xEEEEB0B5B2B2EEEE;
  // In time order but for the last row, whose End closes a Begin written after it.
  std::vector<SignpostRow> rows = {
      {1000, "End", "Launch", 0x1},                                 // begun before the recording
      {2000, "Event", "Tick", kExclusive, "Networking", "bytes="},  // a point
      {3000, "Begin", "Load feed", 0x1a, "Networking", "page "},    // outer
      {4000, "Begin", "Load feed", 0x1a},                           // inner: same key
      {5000, "End", "Load feed", 0x1a, "Networking", "done "},      // closes the inner
      {6000, "Begin", "Load feed", 0x2b},                           // another id
      {7000, "End", "Load feed", 0x1a},                             // closes the outer
      {9000, "Begin", "Decode", 0x3c, "PointsOfInterest"},          // never ended
      {8500, "End", "Load feed", 0x2b},                             // written late
  };
  auto group = ImportText(Export(Node(kSignpostSchema, SignpostRows(rows))));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(OnlyTable(*group).has_intervals);
  const IntervalSource* networking =
      FindSource(*group, "Signposts \xE2\x80\x94 com.example.app / Networking", 77);
  REQUIRE(networking);
  CHECK(networking->table == "os-signpost");
  CHECK(networking->process_label == "Loops (pid 77)");
  const std::string dash = " \xE2\x80\x94 ";
  using Interval = std::tuple<int64_t, int64_t, std::string>;
  CHECK(Intervals(*group, networking) ==
        std::vector<Interval>{
            {0, 1000, "Launch" + dash + "id 0x1"},
            {2000, 2000, "Tick: bytes=42"},
            {3000, 7000, "Load feed" + dash + "id 0x1a: page 42"},
            {4000, 5000, "Load feed" + dash + "id 0x1a: done 42"},  // the End's message
            {6000, 8500, "Load feed" + dash + "id 0x2b"},
        });
  const IntervalSource* poi =
      FindSource(*group, "Points of Interest \xE2\x80\x94 com.example.app", 77);
  REQUIRE(poi);
  // Never ended: drawn to the end of the run, the latest time any table gives.
  CHECK(Intervals(*group, poi) == std::vector<Interval>{{9000, 9000, "Decode" + dash + "id 0x3c"}});
  auto unbegun = testing::WarningMessages(*group, "INTERVALS_WITHOUT_BEGIN");
  REQUIRE(unbegun.size() == 1);
  CHECK(unbegun[0].find("1 of Signposts \xE2\x80\x94 com.example.app / Networking \xE2\x80\x94 "
                        "Loops (pid 77) ended without beginning") == 0);
  CHECK(testing::WarningMessages(*group, "INTERVALS_WITHOUT_END").size() == 1);
  // Samples during the busiest names, as for os-signpost-interval.
  CHECK(networking->names.at(0).name == "Load feed");
  CHECK(networking->names.at(0).intervals == 3);

  auto without = ImportText(Export(Node(kSignpostSchema, SignpostRows(rows))), WithoutIntervals());
  REQUIRE(!without.ok());
  CHECK(without.status().code() == ErrorCode::kXmlNoSampleTable);
}

TEST_CASE("os-signpost exports: a signpost of thread scope pairs on its thread") {
  std::vector<SignpostRow> rows = {
      {1000, "Begin", "Work", 0x1, "Networking", "", "Thread", 5},
      {2000, "Begin", "Work", 0x1, "Networking", "", "Thread", 6},
      {3000, "End", "Work", 0x1, "Networking", "", "Thread", 5},  // thread 5's, not the newest
      {4000, "End", "Work", 0x1, "Networking", "", "Thread", 6},
  };
  auto group = ImportText(Export(Node(kSignpostSchema, SignpostRows(rows))));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const IntervalSource* source =
      FindSource(*group, "Signposts \xE2\x80\x94 com.example.app / Networking", 77);
  REQUIRE(source);
  const std::string label = "Work \xE2\x80\x94 id 0x1";
  using Interval = std::tuple<int64_t, int64_t, std::string>;
  CHECK(Intervals(*group, source) ==
        std::vector<Interval>{{1000, 3000, label}, {2000, 4000, label}});
  CHECK(source->lanes == 2);  // they overlap without nesting
}

TEST_CASE("Signposts in several tables of one run are drawn once, from os-signpost") {
  std::vector<SignpostRow> rows = {{1000, "Begin", "Load feed", 0x1a},
                                   {3000, "End", "Load feed", 0x1a}};
  // os-signpost-interval's pair of the same signposts, as Instruments derives it.
  std::string interval_schema =
      Schema("os-signpost-interval", {{"start", "start-time"},
                                      {"duration", "duration"},
                                      {"name", "string"},
                                      {"category", "category"},
                                      {"subsystem", "subsystem"},
                                      {"identifier", "os-signpost-identifier"},
                                      {"process", "process"}});
  std::string interval_rows =
      "<row><start-time>1000</start-time><duration>2000</duration><string>Load feed</string>"
      "<category>Networking</category><subsystem>com.example.app</subsystem>"
      "<os-signpost-identifier>26</os-signpost-identifier>" +
      Process(1, "Loops", 77) + "</row>\n";
  // In either order, and with the derived table of another run kept.
  for (bool signposts_first : {true, false}) {
    std::string signposts = Node(kSignpostSchema, SignpostRows(rows));
    std::string derived = Node(interval_schema, interval_rows);
    std::string other_run = Node(interval_schema, interval_rows, 2);
    auto group = ImportText(Export(signposts_first ? signposts + derived + other_run
                                                   : derived + other_run + signposts));
    INFO(group.status().ToString());
    REQUIRE(group.ok());
    REQUIRE(group->interval_sources.size() == 2);
    std::map<uint32_t, std::string> table_by_run;
    for (const IntervalSource& source : group->interval_sources) {
      CHECK(source.intervals == 1);
      table_by_run[source.run] = source.table;
    }
    CHECK(table_by_run ==
          std::map<uint32_t, std::string>{{1, "os-signpost"}, {2, "os-signpost-interval"}});
    // The table left out is listed as not read.
    for (const TableSummary& table : group->tables) {
      CHECK(table.has_intervals == (table.schema == "os-signpost" || table.run == 2));
    }
  }
}

const std::string kHangsSchema = Schema("potential-hangs", {{"start", "start-time"},
                                                            {"duration", "duration"},
                                                            {"hang-type", "hang-type"},
                                                            {"thread", "thread"},
                                                            {"process", "process"}});

// A row of potential-hangs; the first of a node defines the hang type and process.
std::string HangRow(const std::string& start, const std::string& duration, bool first = false) {
  return "<row><start-time>" + start + "</start-time><duration>" + duration + "</duration>" +
         (first ? "<hang-type id=\"49\" fmt=\"Hang\">Hang</hang-type><sentinel/>" +
                      Process(50, "App", 9)
                : "<hang-type ref=\"49\"/><sentinel/><process ref=\"50\"/>") +
         "</row>\n";
}

TEST_CASE("Hangs, hang risks, app spins and life cycle periods") {
  std::string hangs =
      "<row><start-time fmt=\"00:01.326\">1326520666</start-time>"
      "<duration fmt=\"817.10 ms\">817103292</duration>"
      "<hang-type id=\"3\" fmt=\"Hang\">Hang</hang-type>"
      "<thread id=\"4\" fmt=\"Main Thread 0x1 (App, pid: 9)\"><tid id=\"5\">1</tid>" +
      Process(6, "App", 9) +
      "</thread><process ref=\"6\"/></row>\n"
      "<row><start-time>2143625500</start-time><duration>300000000</duration>"
      "<hang-type id=\"11\" fmt=\"Microhang\">Microhang</hang-type>"
      "<thread ref=\"4\"/><process ref=\"6\"/></row>\n";
  // Mperf's Instruments 26 hang-risks store: events with a time, no duration.
  std::string risks_schema = Schema("hang-risks", {{"time", "event-time"},
                                                   {"process", "process"},
                                                   {"message", "narrative"},
                                                   {"severity", "string"},
                                                   {"event-type", "event-type"}});
  std::string risks = "<row><event-time>1000</event-time>" + Process(1, "App", 9) +
                      "<narrative fmt=\"Main thread I/O\">…</narrative><string>High</string>"
                      "<sentinel/></row>\n";
  std::string spin_schema = Schema(
      "app-spin", {{"timestamp", "event-time"}, {"process", "process"}, {"event", "string"}});
  std::string spins =
      "<row><event-time>5000</event-time>" + Process(1, "App", 9) + "<string>Spin</string></row>\n";
  std::string life_schema = Schema("life-cycle-period", {{"start", "start-time"},
                                                         {"group", "string"},
                                                         {"lane", "layout-id"},
                                                         {"duration", "duration"},
                                                         {"process", "process"},
                                                         {"period", "app-period"},
                                                         {"narrative", "narrative"}});
  std::string life =
      "<row><start-time>0</start-time><string>App</string><layout-id>0</layout-id>"
      "<duration>400</duration>" +
      Process(1, "App", 9) +
      "<app-period id=\"3\" fmt=\"Launching - Initializing\">1</app-period>"
      "<sentinel/></row>\n"
      "<row><start-time>400</start-time><string>App</string><layout-id>0</layout-id>"
      "<sentinel/><process ref=\"1\"/><app-period id=\"4\" fmt=\"Foreground - "
      "Active\">2</app-period><sentinel/></row>\n";
  auto group = ImportText(Export(Node(kHangsSchema, hangs) + Node(risks_schema, risks) +
                                 Node(spin_schema, spins) + Node(life_schema, life)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  REQUIRE(group->tables.size() == 4);
  for (const TableSummary& table : group->tables) CHECK(table.has_intervals);

  const IntervalSource* hang_source = FindSource(*group, "Hangs", 9);
  REQUIRE(hang_source);
  CHECK(hang_source->intervals == 2);
  CHECK(hang_source->total_duration == 817103292 + 300000000);
  std::vector<std::string> labels = Labels(*group, hang_source);
  std::sort(labels.begin(), labels.end());
  CHECK(labels == std::vector<std::string>{"Hang", "Microhang"});

  const IntervalSource* risk_source = FindSource(*group, "Hang risks", 9);
  REQUIRE(risk_source);
  CHECK(risk_source->intervals == 1);
  CHECK(risk_source->total_duration == 0);
  CHECK(Labels(*group, risk_source) == std::vector<std::string>{"Main thread I/O"});

  const IntervalSource* spin_source = FindSource(*group, "App spins", 9);
  REQUIRE(spin_source);
  CHECK(Labels(*group, spin_source) == std::vector<std::string>{"Spin"});

  // The period still open when the recording stopped runs to the run's end:
  // the last time any table of the run reaches.
  const IntervalSource* life_source = FindSource(*group, "Life cycle", 9);
  REQUIRE(life_source);
  CHECK(life_source->intervals == 2);
  CHECK(Labels(*group, life_source) ==
        std::vector<std::string>{"Launching - Initializing", "Foreground - Active"});
}

TEST_CASE("A duration of all ones never ended, in an export as in a bundle") {
  std::string schema = Schema("life-cycle-period", {{"start", "start-time"},
                                                    {"duration", "duration"},
                                                    {"process", "process"},
                                                    {"period", "app-period"}});
  auto row = [](int64_t start, const std::string& duration, const std::string& process,
                const std::string& period) {
    return "<row><start-time>" + std::to_string(start) + "</start-time><duration>" + duration +
           "</duration>" + process + "<app-period fmt=\"" + period + "\">1</app-period></row>\n";
  };
  std::string rows = row(0, "400", Process(1, "App", 9), "Launching") +
                     row(400, "18446744073709551615", "<process ref=\"1\"/>", "Foreground") +
                     row(500, "1500", "<process ref=\"1\"/>", "Background");
  auto group = ImportText(Export(Node(schema, rows)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const IntervalSource* source = FindSource(*group, "Life cycle", 9);
  REQUIRE(source);
  CHECK(source->intervals == 3);
  CHECK(testing::WarningMessages(*group, "INTERVALS_WITHOUT_END") ==
        std::vector<std::string>{"1 of Life cycle \xE2\x80\x94 App (pid 9) began and never "
                                 "ended in the recording; drawn to the end of run 1"});
  // "Foreground" runs from 400 ns to the run's end, which the last period sets.
  std::map<std::string, std::pair<int64_t, int64_t>> spans;
  for (const Profile& profile : group->profiles) {
    if (profile.kind != ProfileKind::kIntervals) continue;
    CHECK(profile.end_value == 2000);
    std::vector<std::pair<int64_t, FrameId>> open;
    for (const IntervalEvent& event : profile.events) {
      if (event.open) {
        open.emplace_back(event.at, event.frame);
        continue;
      }
      spans[group->frames[open.back().second].name] = {open.back().first, event.at};
      open.pop_back();
    }
  }
  CHECK(spans["Foreground"] == std::make_pair(int64_t{400}, int64_t{2000}));
  CHECK(spans["Background"] == std::make_pair(int64_t{500}, int64_t{2000}));

  // One less than all ones is a duration, past the largest time: refused.
  std::string past = row(0, "18446744073709551614", Process(1, "App", 9), "Foreground");
  Status error = ImportError(Export(Node(schema, past)));
  CHECK(error.code() == ErrorCode::kXmlBadValue);
}

// A time-profile <node>: ten 1 ms samples of App's (pid 9) main thread, from 0.
std::string TenMillisecondsOfSamples() {
  std::string time_profile = Schema("time-profile", {{"time", "sample-time"},
                                                     {"thread", "thread"},
                                                     {"weight", "weight"},
                                                     {"stack", "backtrace"}});
  std::string samples;
  for (int i = 0; i < 10; ++i) {
    samples += "<row><sample-time>" + std::to_string(i * 1000000) + "</sample-time>" +
               (i == 0 ? "<thread id=\"1\" fmt=\"Main Thread 0x1 (App, pid: 9)\"><tid id=\"2\">1"
                         "</tid>" +
                             Process(3, "App", 9) + "</thread>"
                       : "<thread ref=\"1\"/>") +
               "<weight>1000000</weight><backtrace><frame name=\"work\" addr=\"0x10\"/>"
               "</backtrace></row>\n";
  }
  return Node(time_profile, samples);
}

TEST_CASE("Hangs with CPU samples: a view of the samples during hangs") {
  std::string hangs =
      "<row><start-time>2000000</start-time><duration>4000000</duration>"
      "<hang-type fmt=\"Hang\">Hang</hang-type><sentinel/>" +
      Process(1, "App", 9) + "</row>\n";
  std::string xml = Export(TenMillisecondsOfSamples() + Node(kHangsSchema, hangs));
  auto group = ImportText(xml);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(group->interval_sources.size() == 1);
  bool during_hangs = false;
  for (const Profile& profile : group->profiles) {
    if (profile.kind == ProfileKind::kDuring && profile.interval_name == "hangs") {
      during_hangs = true;
    }
  }
  CHECK(during_hangs);

  // Off: the CPU samples alone, as if the hangs table were not there.
  auto without = ImportText(xml, WithoutIntervals());
  REQUIRE(without.ok());
  CHECK(without->interval_sources.empty());
  REQUIRE(without->profiles.size() == 1);
  CHECK(without->profiles[0].kind == ProfileKind::kThread);
  REQUIRE(without->tables.size() == 2);
  CHECK(!without->tables[1].has_intervals);
}

TEST_CASE("Life cycle periods from an export: samples during the busiest, as from a bundle") {
  std::string life_schema = Schema("life-cycle-period", {{"start", "start-time"},
                                                         {"duration", "duration"},
                                                         {"process", "process"},
                                                         {"period", "app-period"}});
  std::string life = "<row><start-time>0</start-time><duration>4000000</duration>" +
                     Process(1, "App", 9) +
                     "<app-period fmt=\"Launching - Initializing\">1</app-period></row>\n";
  auto group = ImportText(Export(TenMillisecondsOfSamples() + Node(life_schema, life)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  std::vector<std::string> during;
  for (const Profile& profile : group->profiles) {
    if (profile.kind == ProfileKind::kDuring) {
      during.push_back(profile.interval_name);
    }
  }
  CHECK(during == std::vector<std::string>{"Launching - Initializing"});
}

TEST_CASE("Texts resolve through refs; a thermal state may end by its end column") {
  std::string schema =
      Schema("device-thermal-state-intervals", {{"start", "start-time"},
                                                {"duration", "duration"},
                                                {"end", "start-time"},
                                                {"thermal-state", "thermal-state"}});
  std::string rows =
      "<row><start-time id=\"1\">0</start-time><duration id=\"2\">100</duration>"
      "<start-time id=\"3\">100</start-time><thermal-state id=\"4\" fmt=\"Fair\">Fair"
      "</thermal-state></row>\n"
      "<row><start-time ref=\"3\"/><sentinel/><start-time id=\"5\">250</start-time>"
      "<thermal-state id=\"6\" fmt=\"Serious\">Serious</thermal-state></row>\n"
      "<row><start-time ref=\"5\"/><duration ref=\"2\"/><start-time id=\"7\">350</start-time>"
      "<thermal-state ref=\"4\"/></row>\n";
  auto group = ImportText(Export(Node(schema, rows)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  const IntervalSource* source = FindSource(*group, "Thermal state");
  REQUIRE(source);
  CHECK(source->intervals == 3);
  CHECK(source->total_duration == 350);
  CHECK(Labels(*group, source) == std::vector<std::string>{"Fair", "Serious", "Fair"});
}

TEST_CASE("A table with a row that makes no interval is left out, as a bundle's is") {
  // CPU samples, a hangs table whose second row has no start, and a good thermal table.
  std::string thermal =
      Schema("device-thermal-state-intervals", {{"start", "start-time"}, {"duration", "duration"}});
  std::string xml =
      Export(TenMillisecondsOfSamples() +
             Node(kHangsSchema, HangRow("1", "5", true) +
                                    "<row><sentinel/><duration>5</duration></row>\n" +
                                    HangRow("30", "5")) +
             Node(thermal, "<row><start-time>0</start-time><duration>100</duration></row>"));
  auto group = ImportText(xml);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  std::vector<std::string> warnings = testing::WarningMessages(*group, "TABLE_UNREADABLE");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("the potential-hangs table of run 1 left out (its hangs): XML_BAD_VALUE: "
                         "row 2 of potential-hangs has no start time") == 0);
  CHECK(warnings[0].find("line") != std::string::npos);
  // No hang is drawn, not even the rows before the bad one; the rest imports.
  CHECK(!FindSource(*group, "Hangs", 9));
  CHECK(FindSource(*group, "Thermal state", -1));
  CHECK(testing::ThreadProfiles(*group) == 1);
  for (const TableSummary& table : group->tables) {
    if (table.schema == "potential-hangs") CHECK(!table.has_intervals);
  }
}

TEST_CASE("Malformed interval rows fail naming the row") {
  Status status = ImportError(Export(Node(
      kHangsSchema, HangRow("1", "5", true) + "<row><sentinel/><duration>5</duration></row>\n")));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() == "row 2 of potential-hangs has no start time");
  CHECK(status.line() == 5u);
  CHECK(status.path().find("trace-query-result/node[1]") == 0);

  status = ImportError(Export(Node(kHangsSchema, HangRow("1", "5", true) + HangRow("20", "-3"))));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() == "row 2 of potential-hangs has a negative duration, -3 ns");

  status = ImportError(Export(Node(kHangsSchema, HangRow("1", "soon", true))));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() ==
        "row 1 of potential-hangs has a duration <duration> that holds \"soon\", not an integer");

  status = ImportError(Export(Node(kHangsSchema, HangRow("1", "9223372036854775807", true))));
  CHECK(status.code() == ErrorCode::kXmlBadValue);

  std::string thermal =
      Schema("device-thermal-state-intervals", {{"start", "start-time"}, {"end", "start-time"}});
  status = ImportError(
      Export(Node(thermal, "<row><start-time>50</start-time><start-time>10</start-time></row>")));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() ==
        "row 1 of device-thermal-state-intervals ends (at 10 ns) before it "
        "starts (at 50 ns)");

  status = ImportError(Export(Node(kHangsSchema, HangRow("1", "5", true) + HangRow("-4", "5"))));
  CHECK(status.code() == ErrorCode::kXmlBadValue);

  // A page fault without a start time.
  std::string memory = Schema(
      "virtual-memory", {{"start", "start-time"}, {"duration", "duration"}, {"thread", "thread"}});
  status =
      ImportError(Export(Node(memory,
                              "<row><sentinel/><duration>5</duration><thread fmt=\"T\"><tid>1</tid>"
                              "</thread></row>")));
  CHECK(status.code() == ErrorCode::kBadSample);
  CHECK(status.message() == "row 1 of virtual-memory has no start time");
  status = ImportError(
      Export(Node(memory,
                  "<row><start-time>4</start-time><duration>-5</duration><thread fmt=\"T\">"
                  "<tid>1</tid></thread></row>")));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() == "row 1 of virtual-memory has a negative duration, -5 ns");
}

TEST_CASE("Nothing readable: still XML_NO_SAMPLE_TABLE, or XML_NO_SAMPLES for empty tables") {
  std::string unknown = Node(Schema("device-thermal-state", {{"start", "start-time"}}),
                             "<row><start-time>0</start-time></row>");
  CHECK(ImportError(Export(unknown)).code() == ErrorCode::kXmlNoSampleTable);
  // A table of intervals without a start column is not read.
  CHECK(ImportError(Export(Node(Schema("potential-hangs", {{"duration", "duration"}}),
                                "<row><duration>5</duration></row>")))
            .code() == ErrorCode::kXmlNoSampleTable);
  // An interval table in another run than the one asked for.
  ImportOptions run2;
  run2.run = 2;
  CHECK(
      ImportError(
          Export(Node(kHangsSchema, HangRow("1", "5", true), 1) + Node(kHangsSchema, "", 2)), run2)
          .code() == ErrorCode::kXmlNoSamples);
  CHECK(
      ImportError(Export(Node(kHangsSchema, HangRow("1", "5", true))), WithoutIntervals()).code() ==
      ErrorCode::kXmlNoSampleTable);
}

}  // namespace
}  // namespace instrumentscope
