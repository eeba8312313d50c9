// The one profile builder shared by every importer. Importers hand it frames,
// stacks and samples in whatever order the input has them; Build() returns a
// ProfileGroup with frames interned, one profile per thread and timeline,
// samples in time order and idle gaps as empty-stack samples; then, unless
// told not to, the views made from them (see profile_views.cc) and the
// intervals importers handed over as evented profiles (intervals.cc).
#ifndef INSTRUMENTSCOPE_MODEL_PROFILE_BUILDER_H_
#define INSTRUMENTSCOPE_MODEL_PROFILE_BUILDER_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/integer_map.h"
#include "base/paged_vector.h"
#include "base/status.h"
#include "base/text_index.h"
#include "model/profile.h"
#include "model/warning_codes.h"

namespace instrumentscope {

struct FrameDesc {
  std::string_view name;
  // The binary the code belongs to (its path, else its name). Frames are the
  // same frame when name and image match, whatever their address or line.
  std::string_view image;
  std::string_view source_file;  // empty when the input has no source info
  std::optional<uint32_t> line;
  // For a frame the input could not name (its name then shows the address):
  // the address and the image from InternImage(), kept for symbolication.
  std::optional<uint64_t> address;
  ImageId image_id = kNoImage;
  // Frame::folded: a folded body's functions. Bodies of other functions are
  // other frames, whatever their shared name.
  const std::vector<std::string>* folded = nullptr;
};

struct ThreadDesc {
  std::string_view thread_name;  // "Main Thread 0x9db2dc"
  uint64_t tid = 0;
  std::string_view process_name;
  int64_t pid = -1;
  uint32_t threads = 1;  // several: the samples of a process's threads together
};

// What a timeline's samples are: CPU samples (ProfileKind::kThread), events
// of another table weighted by their durations (kWeighted: page faults), or
// allocations weighted by their bytes or counted (kAllocations). Profiles of
// other events are named with what they weigh: "Main Thread — proc (pid 4) —
// time in page faults".
struct TimelineContent {
  ProfileKind kind = ProfileKind::kThread;
  std::string weighs;  // for other events: "time in page faults", "all allocations, bytes"
};

class ProfileBuilder {
 public:
  explicit ProfileBuilder(uint64_t max_samples = UINT64_MAX, uint64_t max_stack_nodes = UINT64_MAX)
      : max_samples_(max_samples), max_stack_nodes_(max_stack_nodes) {}

  using TimelineId = uint32_t;
  using ThreadId = uint32_t;
  using TimelineContent = instrumentscope::TimelineContent;

  struct RawSample {
    int64_t time;
    int64_t weight;
    StackId stack;
  };

  FrameId InternFrame(const FrameDesc& desc);
  ImageId InternImage(const CodeImage& image);
  StackId InternStack(StackId parent, FrameId frame);
  // Interns `leaf_to_root` (as backtraces list them) on top of `base`.
  StackId InternFrames(StackId base, const std::vector<FrameId>& leaf_to_root);
  // `top`'s frames, root first, pushed onto `base`.
  StackId AppendStack(StackId base, StackId top);

  // Whether a timeline's sample times are real times on an axis its threads
  // share (a recording), or only an order (a call tree's rows).
  enum class TimeAxis : uint8_t { kShared, kOrderOnly };

  // A timeline is one table of one run: its threads share one time axis.
  // With ValueUnit::kNanoseconds on a shared axis, `time` is nanoseconds since
  // the run started and gaps are filled; otherwise samples are only in order.
  TimelineId AddTimeline(uint32_t run, std::string table, ValueUnit unit,
                         TimeAxis axis = TimeAxis::kShared, TimelineContent content = {});
  void SetTimelineUnit(TimelineId timeline, ValueUnit unit);
  ThreadId InternThread(TimelineId timeline, const ThreadDesc& desc);
  Status AddSample(ThreadId thread, int64_t time, int64_t weight, StackId stack);
  // Whether `held` samples more, held back to be added later, stay within
  // limits.maxSamples: what AddSample would say of the last of them.
  Status CheckRoomFor(uint64_t held) const {
    return held <= sample_room() ? OkStatus() : TooManySamples();
  }
  // How many samples more limits.maxSamples lets in.
  uint64_t sample_room() const { return max_samples_ - total_samples_; }
  // What AddSample refuses whatever the builder holds: a negative time or
  // weight, or an end that overflows. For importers that hold samples back.
  // Inline: asked of every sample, it makes a Status only to refuse one.
  static Status CheckSample(int64_t time, int64_t weight) {
    if (time >= 0 && weight >= 0 && weight <= INT64_MAX - time) return OkStatus();
    return BadSample(time, weight);
  }

  // Intervals. A source is one kind of interval of one table and process
  // (the signposts of one subsystem and category, hangs, thermal states):
  // its intervals become evented profiles on its run's time axis, in as many
  // lanes as overlaps that do not nest need.
  using IntervalSourceId = uint32_t;
  // The "during" views a source's intervals get, a sampled profile per thread
  // of the CPU samples that fall inside them: none (vsyncs, thermal states),
  // one per name for the busiest names (signposts), or one for all (hangs).
  enum class DuringViews : uint8_t { kNone, kBusiestNames, kAll };
  struct IntervalSourceDesc {
    uint32_t run = 1;
    std::string table;  // "os-signpost"
    std::string name;   // "Points of Interest — com.example.app / Networking"
    std::string process_name;
    int64_t pid = -1;
    DuringViews during = DuringViews::kNone;
    std::string during_name;  // kAll's: "hangs"
    // The summary lists every name (a thread's states), not only the busiest.
    bool every_name = false;
    std::optional<uint64_t> tid;  // IntervalSource::tid
  };
  IntervalSourceId AddIntervalSource(IntervalSourceDesc desc);
  // An end no row gave: the interval runs to the end of its run.
  static constexpr int64_t kOpenEnd = INT64_MAX;
  // A start no row gave (it began before the recording): the interval runs
  // from the start of its run.
  static constexpr int64_t kOpenStart = INT64_MIN;
  // Times in nanoseconds since the run started. `label` is the interval's
  // frame as a person reads it ("Load feed — id 0x1a: 3 items"); `name`
  // groups intervals for "during" views ("Load feed"); `detail` is what the
  // label adds of the interval's own (its message: "3 items").
  Status AddInterval(IntervalSourceId source, int64_t start, int64_t end, std::string_view name,
                     std::string_view label, std::string_view detail = {});
  uint64_t total_intervals() const { return intervals_.size(); }
  // The spans of the intervals added so far whose "during" views take all of
  // their source (hangs), of `run` and of process `pid` or of none: sorted,
  // overlaps merged, an end not yet known INT64_MAX. Events weighted by their
  // durations are not merged across them (samples.h), so that their views
  // during those intervals hold exactly the events that start inside them.
  std::vector<std::pair<int64_t, int64_t>> AllDuringSpans(uint32_t run, int64_t pid) const;
  // A part read on another thread (Append) holds no intervals, yet its events
  // are cut where `whole`'s intervals of `run` cut them: it keeps a copy of
  // those spans, for AllDuringSpans only.
  void CopyDuringSpans(const ProfileBuilder& whole, uint32_t run);

  // Whether Build() adds the views (whole processes, thread pools, samples
  // during intervals); on by default.
  void SetMakeViews(bool make_views) { make_views_ = make_views; }

  void AddTable(TableSummary table) { tables_.push_back(std::move(table)); }
  // A part of the import ran on `threads` at once.
  void NoteThreads(uint32_t threads) { most_threads_ = std::max(most_threads_, threads); }
  void AddRunInfo(RunInfo info) { run_info_.push_back(std::move(info)); }
  // An Allocations recording's events of one process (ProfileGroup::heaps),
  // in time order; they count towards limits.maxSamples as samples do.
  Status AddHeapEvents(HeapEvents heap);
  void AddInstrument(std::string name) { instruments_.push_back(std::move(name)); }
  // The busiest thread of this run opens first, whatever other runs hold.
  void SetPreferredRun(uint32_t run) { preferred_run_ = run; }
  void AddWarning(WarningCode code, std::string message);

  // A part of the import built on another thread in a builder of its own (a
  // bundle's table read ahead: trace_bundle/tables_ahead.h). Whether
  // Append(part) leaves this builder as the part's own calls, made here,
  // would have: not when the part holds what Append does not carry
  // (intervals, heaps, runs, instruments), would pass this builder's
  // limits, or gives a frame's source another file than this one.
  bool CanAppend(const ProfileBuilder& part) const;
  // Adds the part's images, frames, stacks, timelines, threads, samples,
  // tables and warnings, in the order the part was given them. Only after
  // CanAppend(part).
  Status Append(const ProfileBuilder& part);

  // Inspection before Build(), for importers and tests.
  const Frame& frame(FrameId id) const { return frames_[id]; }
  const StackTable& stacks() const { return stacks_; }
  size_t thread_count() const { return threads_.size(); }
  std::vector<RawSample> raw_samples(ThreadId thread) const;
  // What the thread's samples are: CPU samples, or events weighing something else.
  const TimelineContent& content(ThreadId thread) const {
    return timelines_[threads_[thread].timeline].content;
  }
  uint64_t total_samples() const { return total_samples_; }
  bool has_warnings() const { return !warnings_.empty(); }
  const std::vector<TableSummary>& tables() const { return tables_; }
  // Whether some frame is left unnamed (FrameDesc::address).
  bool has_unnamed_frames() const;
  // The pids of the threads and interval sources given without a process name.
  std::set<int64_t> UnnamedProcesses() const;

  // Consumes the builder.
  Result<ProfileGroup> Build(std::string name, std::string exporter) &&;

 private:
  static Status BadSample(int64_t time, int64_t weight);
  Status TooManySamples() const;
  // The text a frame is interned by: frames of one key are one frame.
  static void FrameKey(const FrameDesc& desc, std::string* key);
  // The same of an image.
  static std::string ImageKey(const CodeImage& image);
  // What InternFrame was given for frame `id`, its image renumbered by `images`.
  FrameDesc DescOf(FrameId id, const std::vector<ImageId>& images) const;

  // A sample as stored until Build(): 16 bytes, for there may be millions.
  // Weights that need more than 31 bits (rare) are kept in large_weights_.
  struct StoredSample {
    int64_t time;
    StackId stack;
    uint32_t weight;  // the weight, or kLargeWeight | its index in large_weights_
  };
  static constexpr uint32_t kLargeWeight = 0x80000000u;
  int64_t WeightOf(const StoredSample& sample) const {
    return sample.weight & kLargeWeight ? large_weights_[sample.weight & ~kLargeWeight]
                                        : sample.weight;
  }

  struct Timeline {
    uint32_t run;
    std::string table;
    ValueUnit unit;
    TimeAxis axis;
    TimelineContent content;
  };
  struct Interval {
    int64_t start;
    int64_t end;  // kOpenEnd until Build() ends it with its run
    IntervalSourceId source;
    uint32_t name;    // in interval_names_
    FrameId frame;    // its label
    uint32_t detail;  // in interval_details_
  };
  struct Thread {
    TimelineId timeline;
    std::string thread_name;
    uint64_t tid;
    std::string process_name;
    int64_t pid;
    uint32_t threads;
    bool sorted = true;
    PagedVector<StoredSample> samples;
  };
  struct ThreadKey {
    TimelineId timeline;
    int64_t pid;
    uint64_t tid;
    bool operator==(const ThreadKey& other) const {
      return timeline == other.timeline && pid == other.pid && tid == other.tid;
    }
  };
  struct ThreadKeyHash {
    size_t operator()(const ThreadKey& key) const;
  };

  // Build()'s steps.
  void SortSamplesByTime();
  std::vector<int64_t> TimelineEnds() const;
  std::vector<ThreadId> ThreadsByTimeline() const;
  Profile ProcessProfile(const Thread& thread) const;
  Profile NamedProfile(const Thread& thread, bool several_runs,
                       const std::string& input_name) const;
  Status FillProfile(const Thread& thread, int64_t timeline_end, Profile* profile) const;
  Status AddThreadProfiles(const std::vector<int64_t>& timeline_end, ProfileGroup* group);
  bool SeveralRuns() const;
  // profile_views.cc: whole processes and thread pools, then the samples
  // inside intervals, made while the threads hold their samples' times.
  class ViewFiller;
  struct DuringGroup {
    std::string name;   // "Load feed", "hangs"
    std::string label;  // "\"Load feed\"", "hangs"
    uint64_t intervals = 0;
    int64_t duration = 0;
    std::vector<std::pair<int64_t, int64_t>> ranges;
  };
  bool HasViews(const Thread& thread) const;
  // Whether the thread's samples join its process's views: CPU samples, or
  // weighted events (a process's threads' system calls together).
  bool HasProcessViews(const Thread& thread) const;
  Profile ViewProfile(const Thread& like, ProfileKind kind, std::string thread_part,
                      std::string view_part, bool several_runs) const;
  Status AddMergedView(const std::vector<ThreadId>& members, ProfileKind kind,
                       std::string thread_part, const std::string& weighs, bool several_runs,
                       std::vector<Profile>* views) const;
  Result<std::vector<Profile>> MakeProcessViews() const;
  std::vector<DuringGroup> DuringGroups(IntervalSourceId source) const;
  Result<std::vector<Profile>> MakeDuringViews() const;
  // intervals.cc: where each run with intervals ends (its CPU samples'
  // timelines extended to its intervals), open intervals ended there (and
  // those open at either end said), and their evented profiles.
  std::map<uint32_t, int64_t> ExtendToIntervals(std::vector<int64_t>* timeline_end) const;
  void EndOpenIntervals(const std::map<uint32_t, int64_t>& run_end);
  std::string OpenIntervalsMessage(const std::vector<uint64_t>& per_source, const std::string& what,
                                   const std::string& drawn) const;
  Status AddIntervalProfiles(const std::map<uint32_t, int64_t>& run_end, ProfileGroup* group);
  std::vector<IntervalSource::Name> BusiestNames(const std::vector<size_t>& intervals,
                                                 size_t listed, uint64_t* distinct) const;

  std::vector<Frame> frames_;
  std::vector<bool> frame_has_source_;
  TextIndex frame_index_;
  std::string frame_key_;  // scratch, to avoid an allocation per lookup
  std::vector<CodeImage> images_;
  std::unordered_map<std::string, ImageId> image_index_;
  StackTable stacks_;
  IntegerMap stack_index_;  // parent << 32 | frame → stack
  std::vector<Timeline> timelines_;
  std::vector<Thread> threads_;
  std::unordered_map<ThreadKey, ThreadId, ThreadKeyHash> thread_index_;
  std::vector<TableSummary> tables_;
  uint32_t most_threads_ = 1;
  std::vector<HeapEvents> heaps_;
  std::vector<RunInfo> run_info_;
  struct SourceState {
    IntervalSource summary;  // counts filled in by Build()
    DuringViews during;
    std::string during_name;
    bool every_name = false;
    uint64_t unbegun = 0;  // intervals added with kOpenStart
  };
  std::vector<SourceState> interval_sources_;
  std::vector<Interval> intervals_;
  struct DuringSpan {
    uint32_t run;
    int64_t pid;  // -1: of every process
    int64_t start;
    int64_t end;
  };
  std::vector<DuringSpan> copied_during_spans_;  // CopyDuringSpans
  // Calls `visit` with each span AllDuringSpans takes of `run`, its own
  // intervals' and those copied.
  template <typename Visit>
  void VisitDuringSpans(uint32_t run, Visit visit) const;
  std::vector<std::string> interval_names_;
  std::unordered_map<std::string, uint32_t> interval_name_index_;
  std::vector<std::string> interval_details_ = {std::string()};
  std::unordered_map<std::string, uint32_t> interval_detail_index_ = {{std::string(), 0}};
  bool make_views_ = true;
  std::vector<std::string> instruments_;
  std::vector<Warning> warnings_;
  std::vector<int64_t> large_weights_;
  uint64_t total_samples_ = 0;
  uint64_t max_samples_;
  uint64_t max_stack_nodes_;
  // Set when a stack could not be interned for the limit; the next sample fails.
  bool stack_limit_reached_ = false;
  std::optional<uint32_t> preferred_run_;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_PROFILE_BUILDER_H_
