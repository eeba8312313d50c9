// The tables other than CPU samples that are read, through their <schema>:
// tables of intervals (a start and a duration, sometimes an end: vsyncs,
// thermal states, Points of Interest, signposts, hangs, life cycle periods)
// or of single events (hang risks, app spins), and the table of weighted
// events with stacks (virtual-memory: page faults, weighted by how long each
// took). Columns are found by mnemonic and engineering type, never by
// position; FORMAT.md lists what each table was seen with.
//
// Not read: any other table; columns other than those named here; os-signpost
// rows' format strings, backtraces and emit locations.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_TABLES_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_TABLES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/xctrace_xml/table_schema.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

enum class IntervalRole : uint8_t {
  kIgnored,
  kStart,  // start-time (or, for events, their time)
  kDuration,
  kEnd,
  kThread,
  kProcess,
  kName,  // a signpost's name
  kSubsystem,
  kCategory,
  kIdentifier,  // a signpost's id
  kStartMessage,
  kEndMessage,
  kLabel,      // what the table's intervals are: a thermal state, a hang type, a period…
  kGroup,      // what splits the table into sources besides the process: a display
  kEventType,  // a signpost row's "Begin", "End" or "Event"
  kScope,      // a signpost's "Process", "System" or "Thread"
  kMessage,    // a signpost row's message
};
inline constexpr size_t kIntervalRoles = static_cast<size_t>(IntervalRole::kMessage) + 1;

// What a table's intervals are, for naming sources and labelling intervals.
enum class IntervalKind : uint8_t {
  kVsyncs,
  kThermalState,
  kPointsOfInterest,
  kSignposts,       // os-signpost-interval: ready-made intervals
  kSignpostEvents,  // os-signpost: begins, ends and events, paired as Instruments pairs them
  kHangs,
  kHangRisks,
  kAppSpins,
  kLifeCycle,
};

struct IntervalLayout {
  std::string schema;
  IntervalKind kind = IntervalKind::kVsyncs;
  std::vector<IntervalRole> roles;  // one per column
  // Without a duration or an end column, rows are single events (zero long).
  bool has_duration = false;
  bool has_end = false;
  ProfileBuilder::DuringViews during = ProfileBuilder::DuringViews::kNone;
  std::string during_name;
};

// The schemas read as intervals.
const std::vector<std::string_view>& IntervalSchemas();

// nullopt unless `schema` is one of IntervalSchemas() with a start column.
std::optional<IntervalLayout> ReadIntervalLayout(const std::string& schema,
                                                 const std::vector<Column>& columns);

// A table of events with stacks, weighted by their durations.
struct WeightedLayout {
  TableLayout table;   // start time as the sample time, duration as the weight
  std::string weighs;  // "time in page faults"
};

// nullopt unless `schema` is virtual-memory with a start, a duration and a
// thread column.
std::optional<WeightedLayout> ReadWeightedLayout(const std::string& schema,
                                                 const std::vector<Column>& columns);

// Whether a table repeats the signposts of others (os-signpost,
// os-signpost-interval, region-of-interest): its rank among them, the table
// Instruments derives the others from first; nullopt for other tables.
std::optional<int> SignpostTableRank(IntervalKind kind);

// "Display vsyncs — Built-In Display", "Points of Interest — com.example.app",
// "Signposts — com.example.app / Networking", "Hangs"…: the parts a row gives.
std::string IntervalSourceName(IntervalKind kind, std::string_view group,
                               std::string_view subsystem, std::string_view category);

// A signpost's id as Instruments shows it: in hexadecimal when the export's
// text is a decimal number ("26" is "0x1a"), nothing for
// OS_SIGNPOST_ID_EXCLUSIVE, else as the text has it.
std::string SignpostId(std::string_view text);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_INTERVAL_TABLES_H_
