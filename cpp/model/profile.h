// The plain data every importer produces and every writer consumes: interned
// frames, a stack table (each stack is a parent stack plus one frame), one
// sampled profile per thread whose samples are stack ids in time order, the
// views made from them (a process's threads together, thread pools, samples
// during intervals) and evented profiles of the intervals a recording holds.
#ifndef INSTRUMENTSCOPE_MODEL_PROFILE_H_
#define INSTRUMENTSCOPE_MODEL_PROFILE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/paged_vector.h"

namespace instrumentscope {

using FrameId = uint32_t;
using StackId = uint32_t;
// The stack of a sample with no frames: idle gaps and rows without a backtrace.
inline constexpr StackId kEmptyStack = UINT32_MAX;

using ImageId = uint32_t;
inline constexpr ImageId kNoImage = UINT32_MAX;
using ImageUuid = std::array<uint8_t, 16>;

// A binary the input places unnamed frames in: what symbolication needs to
// match it with the user's own binaries and dSYMs.
struct CodeImage {
  std::string path;  // its path, else its name
  std::string arch;  // "arm64e", when the input says
  std::optional<ImageUuid> uuid;
  std::optional<uint64_t> load_address;  // where its __TEXT was in memory
};

struct Frame {
  std::string name;
  std::string file;     // source file, else the binary's path; may be empty
  std::string library;  // the binary's path, else its name; may be empty
  std::optional<uint32_t> line;
  // Only on frames the input left unnamed: the address as recorded (a return
  // address for callers) and, when the input says, the image it lies in.
  std::optional<uint64_t> address;
  ImageId image = kNoImage;
  // Code the linker shared among identical functions, which the input names
  // "<deduplicated_symbol>" as Instruments does: the functions it may be, as
  // the input spells them until demangled with every name. The frame keeps
  // Instruments' name; the full style adds these (symbolication/demangle_frames.h).
  std::vector<std::string> folded;
};

// Stack `s` is stack `parent[s]` (or kEmptyStack) with `frame[s]` on top, so a
// parent id is always smaller than its child's.
struct StackTable {
  std::vector<StackId> parent;
  std::vector<FrameId> frame;
  size_t size() const { return frame.size(); }
};

// Units of the speedscope file format that the importers produce.
enum class ValueUnit : uint8_t { kNone, kNanoseconds, kBytes };

// What a profile shows, for pickers that group them.
enum class ProfileKind : uint8_t {
  kThread,       // one thread's CPU samples
  kWeighted,     // one thread's events of another table, weighted by duration (page faults)
  kAllThreads,   // every thread of a process, samples in time order
  kThreadPool,   // the threads of a process that share a name
  kIntervals,    // one lane of an interval source (evented)
  kDuring,       // one thread's CPU samples inside intervals of one name
  kAllocations,  // one thread's allocations, weighted by their bytes or counted
  kVmRegions,    // one thread's VM regions mapped, weighted by their bytes
};

// Whether a profile repeats samples other profiles hold (views of threads):
// totals over a group's samples leave views out.
inline bool IsView(ProfileKind kind) {
  return kind == ProfileKind::kAllThreads || kind == ProfileKind::kThreadPool ||
         kind == ProfileKind::kDuring;
}

// An evented profile's event: a frame opens or closes at a time.
struct IntervalEvent {
  int64_t at;
  FrameId frame;
  uint32_t name;  // in ProfileGroup::interval_names: what groups it ("Load feed")
  // In ProfileGroup::interval_details: its own words beside its name (a
  // signpost's message, a thread state's note); 0, the empty one, for none.
  uint32_t detail;
  bool open;
};

struct Profile {
  std::string name;  // "Main Thread 0x9db2dc — proc (pid 83138)"
  // The parts of the name a listing shows under the profile's process and
  // run: {"Main Thread 0x1a", "during hangs (4, 2.3 s)"}.
  std::vector<std::string> listed_name;
  ProfileKind kind = ProfileKind::kThread;
  ValueUnit unit = ValueUnit::kNanoseconds;
  int64_t start_value = 0;
  int64_t end_value = 0;
  // Paged: a long recording's samples never need one contiguous block.
  PagedVector<StackId> samples;  // time order; gaps are kEmptyStack
  PagedVector<int64_t> weights;  // same length as samples
  // kIntervals only (no samples): properly nested, in time order.
  std::vector<IntervalEvent> events;

  // Where the samples came from, for listings and pickers.
  std::string thread_name;  // "Main Thread 0x9db2dc"
  uint64_t tid = 0;
  std::string process_name;
  int64_t pid = -1;  // -1 when the input names no process
  // The labels every listing shows, made here once: "proc (pid 83138)",
  // "pid 83138", "proc" or "unnamed process"; the thread's name or
  // "unnamed thread".
  std::string process_label;
  std::string thread_label;
  uint32_t run = 1;
  std::string table;          // schema, e.g. "time-profile"
  uint64_t sample_count = 0;  // recorded samples, gaps excluded (kIntervals: intervals)
  int64_t sample_weight = 0;  // their total weight, gaps excluded (kIntervals: durations)
  // kAllThreads, kThreadPool: how many threads; kDuring: the thread's own.
  uint32_t threads = 1;
  // kIntervals, kDuring: the source in ProfileGroup::interval_sources.
  uint32_t interval_source = UINT32_MAX;
  uint32_t lane = 0;          // kIntervals: 1, 2… within its source
  std::string interval_name;  // kDuring: "Load feed", or "hangs"
  // What the weights are when not CPU samples: "time in system calls", "time
  // off CPU", "counter 1" (kWeighted and its process's views), "all
  // allocations, bytes" (kAllocations); empty for CPU samples and intervals.
  std::string weighs;
};

// An Allocations recording's events of one process, in time order: each
// block (or VM region) allocated, with its address, bytes and stack, and each
// free of one, by the address it frees. The allocation profiles sum them by
// stack; these keep which block each free frees, for viewers that show the
// memory retained at any moment.
struct HeapEvent {
  int64_t time;  // nanoseconds since the run started
  uint64_t address;
  int64_t bytes;  // an allocation's bytes; a free's, minus those of the block it frees
  StackId stack;  // where it was allocated, or freed
  uint32_t tid;
};
enum class HeapKind : uint8_t {
  kMalloc,     // heap blocks (ProfileKind::kAllocations)
  kVmRegions,  // VM regions mapped (ProfileKind::kVmRegions)
};
struct HeapEvents {
  uint32_t run = 1;
  int64_t pid = -1;
  HeapKind kind = HeapKind::kMalloc;
  PagedVector<HeapEvent> events;
};

// One kind of interval of one table, process and subsystem: Points of
// Interest of "com.example.app / Networking", hangs, thermal states…
struct IntervalSource {
  uint32_t run = 1;
  std::string table;  // "os-signpost"
  std::string name;   // "Points of Interest — com.example.app / Networking"
  std::string process_name;
  std::string process_label;  // as a thread profile's, or empty
  int64_t pid = -1;
  // The thread a source of one thread's intervals (its states, its run
  // loop's iterations) belongs to, by its tid.
  std::optional<uint64_t> tid;
  uint64_t intervals = 0;      // zero-length ones (single events) included
  int64_t total_duration = 0;  // sum of durations, ns
  uint32_t lanes = 0;          // evented profiles needed to draw them unnested
  struct Name {
    std::string name;  // "Load feed"
    uint64_t intervals = 0;
    int64_t total_duration = 0;
  };
  // The most frequent first, at most kListedIntervalNames but for sources
  // whose every name counts (a thread's states).
  std::vector<Name> names;
  uint64_t distinct_names = 0;
  // Its names are states whose time counts (a thread's): every one is
  // listed, and listings show each one's time and share.
  bool states = false;
};
inline constexpr size_t kListedIntervalNames = 5;

// What a recording says of one of its runs, for viewers that show it.
struct RunInfo {
  uint32_t run = 1;
  std::optional<int64_t> start_time;  // nanoseconds since 1970
  // Instruments' own lines, "Label: value": "Target Model: MacBook Pro",
  // "Instruments: 11.4.1 (11E503a)", …
  std::vector<std::string> facts;
};

// A table seen in the input, whether or not it held CPU samples.
struct TableSummary {
  uint32_t run = 1;
  std::string schema;
  uint64_t rows = 0;
  bool has_cpu_samples = false;
  bool has_intervals = false;    // read as intervals or as weighted events
  bool has_allocations = false;  // read as allocations
};

struct Warning {
  std::string code;
  std::string message;
};

// What symbolication from the user's files did.
struct SymbolicationReport {
  uint64_t unnamed_frames = 0;          // frames the input left unnamed
  uint64_t named_frames = 0;            // of them, named from the user's files
  std::vector<std::string> files_used;  // "App.dSYM/Contents/Resources/DWARF/App (arm64)"
  // Why frames of an image (kNoImage: bare addresses) stayed unnamed:
  // "no binary or dSYM given matches it", …
  std::map<ImageId, std::string> unnamed_because;
};

// Frames left unnamed in one image, among the frames samples reach.
struct UnnamedImage {
  ImageId image = kNoImage;  // in ProfileGroup::images; kNoImage: frames in no known image
  uint64_t frames = 0;       // distinct unnamed frames
  uint64_t samples = 0;      // samples whose stacks pass through one of them
};

// A folded body samples reach (Frame::folded).
struct FoldedFrame {
  FrameId frame = 0;
  uint64_t samples = 0;  // samples whose stacks pass through it
};

// How many of the frames samples reach have names, after symbolication.
struct NamingReport {
  uint64_t sampled_frames = 0;       // distinct frames the samples reach
  uint64_t unnamed_frames = 0;       // of them, left unnamed (an address, "image+0x…")
  std::vector<UnnamedImage> images;  // most samples first
  // Of them, folded bodies: named as Instruments names them, by no one
  // function; most samples first.
  std::vector<FoldedFrame> folded;
};

struct ProfileGroup {
  std::string name;      // the input's file name
  std::string exporter;  // "instrumentscope@<version>"
  std::vector<Frame> frames;
  std::vector<CodeImage> images;  // of unnamed frames
  StackTable stacks;
  std::vector<Profile> profiles;
  size_t active_profile_index = 0;  // the busiest thread
  std::vector<IntervalSource> interval_sources;
  // What intervals are grouped by ("Load feed", "Hang"), for IntervalEvent::name.
  std::vector<std::string> interval_names;
  std::vector<std::string> interval_details;  // for IntervalEvent::detail; [0] is empty
  std::vector<TableSummary> tables;
  uint32_t threads = 1;                  // the most the import ran on at once
  std::vector<HeapEvents> heaps;         // an Allocations recording's, by run and process
  std::vector<RunInfo> run_info;         // what the recording says of its runs, when it does
  std::vector<std::string> instruments;  // "Time Profiler", … (bundles only)
  std::vector<Warning> warnings;
  std::optional<SymbolicationReport> symbolication;  // when symbol files were given
  NamingReport naming;
};
}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_PROFILE_H_
