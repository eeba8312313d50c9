// The consumer of tables of CPU samples and of events weighted by their
// durations (catalogue.h: kCpuSamples, kWeightedEvents), fed TypedRows by
// either reader. A row becomes a sample at its start time, on its thread (a
// row without one goes to "Unknown Thread" and is counted), weighing its
// weight (in a table without a weight column, 1; a row without one is left
// out and counted), its stack the row's backtrace with its kernel backtrace
// drawn above, then its leaf frame (a system call's name; a narrative's span
// off the CPU, rows of other narratives left out). Samples are held
// in a SampleTable until the table ends, so a table damaged halfway costs
// only itself.
//
// Weighted events make a view per weight column (a system call's duration,
// and its wait time), and samples with performance counters a view per
// counter (its counts the weights, "counter 1"): each is laid out in order
// without idle gaps, a thread's consecutive events of one stack one sample,
// so that hundreds of thousands of short calls cost their changes of stack,
// not their rows; an event weighing nothing is in no view.
#ifndef INSTRUMENTSCOPE_TABLES_SAMPLES_H_
#define INSTRUMENTSCOPE_TABLES_SAMPLES_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/integer_map.h"
#include "base/status.h"
#include "model/profile_builder.h"
#include "tables/catalogue.h"
#include "tables/consumers.h"
#include "tables/sample_table.h"
#include "tables/typed_row.h"

namespace instrumentscope::tables {

class SampleConsumer {
 public:
  // `builder` interns the stacks the rows' backtraces are; it sees no
  // samples before the reader commits them.
  SampleConsumer(const TableEntry& entry, uint32_t run, RoleSet columns, RowContext& context,
                 ProfileBuilder& builder);

  // A row; an error refuses it, saying why ("has no sample time"), and its
  // reader says where it is. Samples keep no place of their own: what
  // Commit can still refuse (a limit of distinct stacks) is the table's.
  Status Add(const TypedRow& row);

  uint64_t rows() const { return rows_; }  // the rows made samples, merged or not
  uint64_t rows_without_weight() const { return rows_without_weight_; }
  uint64_t rows_without_thread() const { return rows_without_thread_; }
  uint64_t samples() const { return held_; }  // held, in every view

  // Adds each view's timeline, threads and samples to the builder: an error
  // (a limit reached) names `path` where it is not empty.
  Status Commit(ProfileBuilder& builder, const std::string& path) const;

 private:
  // The samples of one weight column.
  struct View {
    View(Role weight_role, std::string weighs_what, bool events_view)
        : weight(weight_role), weighs(std::move(weighs_what)), events(events_view) {}
    Role weight;
    std::string weighs;  // what its profiles are named with: "time in system calls", "counter 1"
    // Events weighted by their durations, or counts of a counter: laid out
    // in order, consecutive ones of a stack merged, those weighing nothing left out.
    bool events;
    SampleTable samples;
    std::vector<uint32_t> threads;  // by the consumer's thread: its index in samples
    // By thread of samples: its last sample, which the thread's next event
    // of that stack, on the same side of every hang, is merged into.
    struct Last {
      uint64_t sample;
      StackId stack;
      uint64_t segment;  // Segment() of its time
    };
    std::vector<Last> last;
  };

  uint32_t ThreadOf(const TypedRow& row);
  // The row's stack, with `leaf` above it: a system call's name, a span off the CPU.
  StackId StackOf(const TypedRow& row, std::optional<std::string_view> leaf);
  // Adds a sample of `weight` to `view`, or to the thread's last one.
  Status AddTo(View& view, uint32_t thread, int64_t time, int64_t weight, StackId stack);
  // Each of the row's counts to its counter's view.
  Status AddCounts(std::string_view counts, uint32_t thread, int64_t time, StackId stack);
  SampleTimeline Timeline(const View& view) const;
  // Where `time` lies among the spans of hangs and the like of thread
  // `thread`'s process (ProfileBuilder::AllDuringSpans): 2k before span k,
  // 2k + 1 inside it.
  uint64_t Segment(uint32_t thread, int64_t time);

  const TableEntry& entry_;
  uint32_t run_;
  RowContext& context_;
  ProfileBuilder& builder_;
  bool weighted_events_;
  bool has_weight_;
  bool weight_is_duration_;
  bool has_kernel_stack_;
  bool has_narrative_;  // rows of spans off the CPU are kept, their span the leaf
  bool has_counters_;   // a view per performance counter
  uint64_t room_;       // the samples limits.maxSamples lets in: no other table adds any meanwhile
  std::optional<bool> weight_is_time_;  // from the first row with a weight

  std::vector<View> views_;
  size_t first_counter_ = 0;  // views_ from here are the counters', in order
  std::vector<SampleThread> threads_;
  // A thread's index in threads_ by its key, for the pid it was first seen
  // with; a key seen with other pids (a thread reference whose record names no
  // process, in rows of several) also by (key, pid).
  IntegerMap thread_index_;
  std::map<std::pair<uint64_t, int64_t>, uint32_t> threads_of_other_pids_;
  std::map<int64_t, uint32_t> unknown_threads_;              // by pid
  std::map<std::string, FrameId, std::less<>> leaf_frames_;  // by name
  using Spans = std::vector<std::pair<int64_t, int64_t>>;
  std::map<int64_t, Spans> during_spans_;   // by pid
  std::vector<const Spans*> thread_spans_;  // by thread: its process's
  uint64_t held_ = 0;                       // samples, in every view
  uint64_t rows_ = 0;
  uint64_t rows_without_weight_ = 0;
  uint64_t rows_without_thread_ = 0;
};

// Says, once an import's tables of samples are read, how many of their rows
// had no weight (left out: ROWS_WITHOUT_WEIGHT) or no thread ("Unknown
// Thread": ROWS_WITHOUT_THREAD), for bundles and exports alike.
void WarnOfRowsWithout(ProfileBuilder& builder, uint64_t without_weight, uint64_t without_thread);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_SAMPLES_H_
