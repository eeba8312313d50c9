// A sampled profile made cheap for speedscope's viewer to read. The viewer
// builds a time-ordered call tree a sample at a time: each sample costs it
// its stack's frames, a new tree node for every frame below where its stack
// parts from the sample before (ten times the samples, and most of its
// garbage collection, on a thread whose samples alternate between code
// paths), and a visit to every child its last node has.
// So within each window of a profile's time axis the samples of one stack are
// summed into one sample, and the window's stacks are put in the order of
// their call tree, a stack before those it is a prefix of: consecutive
// samples then share all but their last frames. What is summed over time
// (Left Heavy, Sandwich) stays exact; Time Order is exact to a window.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_SAMPLES_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_SAMPLES_H_

#include <cstdint>
#include <vector>

#include "model/profile.h"

namespace instrumentscope::speedscope {

// Each stack's depth and its place in a walk of the call tree (parents before
// children, siblings by id), made once for a group's stacks.
class StackOrder {
 public:
  explicit StackOrder(const StackTable& stacks);
  uint32_t Depth(StackId stack) const { return stack == kEmptyStack ? 0 : depth_[stack]; }
  uint32_t Rank(StackId stack) const { return stack == kEmptyStack ? 0 : rank_[stack]; }
  // How many frames two stacks share from the root.
  uint32_t CommonDepth(StackId a, StackId b) const;

 private:
  const StackTable& stacks_;
  std::vector<uint32_t> depth_;
  std::vector<uint32_t> rank_;  // from 1: the empty stack comes first
};

// A profile's samples as the viewer gets them.
struct ViewerSamples {
  // 0: every run of consecutive samples of one stack is one sample, in time
  // order, as the profile holds them (and stacks and weights are empty);
  // else the number of equal windows the time axis was cut into.
  uint32_t windows = 0;
  int64_t window_weight = 0;    // a window's width, in the profile's unit
  std::vector<StackId> stacks;  // with windows, unless only counted
  std::vector<int64_t> weights;
  // What the viewer pays to read them, in the units of kViewerCost*.
  uint64_t cost = 0;
};

// The viewer's price of a sample, of a frame in it, and of a call tree node
// it makes, as measured in Chromium (bench/page.js): a node costs about three
// frames, in its making and in garbage collection.
inline constexpr uint64_t kViewerCostPerSample = 1;
inline constexpr uint64_t kViewerCostPerFrame = 1;
inline constexpr uint64_t kViewerCostPerNode = 3;
// Visiting a node's child to freeze it costs a small part of that.
inline constexpr uint64_t kViewerChildrenPerCost = 32;

// The finest windows offered: past a few thousand, a window is narrower than
// a pixel of the whole time axis.
inline constexpr uint32_t kMostViewerWindows = 1 << 14;

// The samples of `profile` (sampled) with `windows` windows, or 0 for runs
// alone; without `keep`, their cost alone.
ViewerSamples CondenseSamples(const Profile& profile, const StackOrder& order, uint32_t windows,
                              bool keep = true);

// The finest of: runs alone, or kMostViewerWindows, half of them… down to
// `fewest_windows` (a power of two), whose cost is within `budget`; the
// fewest windows, over the budget, when none is.
// `runs`: the profile's runs alone (windows 0), when the caller has counted them.
ViewerSamples CondenseWithin(const Profile& profile, const StackOrder& order, uint64_t budget,
                             uint32_t fewest_windows = 1, const ViewerSamples* runs = nullptr);

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_SAMPLES_H_
