// What speedscope's viewer is handed of a selection of profiles, so that it
// draws them in good time: the viewer reads every profile of its file before
// it draws one, at a cost that grows with the samples, their frames and the
// call tree nodes they make (viewer_samples.h), and with the frame list,
// which it copies for every profile. Within a budget of that cost, measured in
// Chromium (bench/page.js), a selection goes whole; else each sampled profile
// is condensed into windows, as finely as its share of the budget allows; and
// when that leaves any too coarse, the profile picked goes alone with the
// interval lanes. The note says what the viewer was not given.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_PLAN_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile.h"
#include "speedscope/viewer_samples.h"

namespace instrumentscope::speedscope {

// About a second of the viewer's reading in Chromium on this project's
// benchmark machine (bench/page.js).
inline constexpr uint64_t kDefaultViewerBudget = 8'000'000;

// Below this many windows a profile's Time Order is too coarse to be shown
// beside the others: the profile picked goes alone instead.
inline constexpr uint32_t kFewestWindowsTogether = 1024;

// The viewer's price of an interval's open or close event, and of a frame
// listed once per profile.
inline constexpr uint64_t kViewerCostPerEvent = 3;
inline constexpr uint64_t kViewerCostPerListedFrame = 1;

struct ViewerPlan {
  std::vector<size_t> profiles;        // indices into group.profiles, in the order written
  std::vector<ViewerSamples> samples;  // by position in `profiles`; empty for evented ones
  std::vector<FrameId> frames;         // the frames they reach, in id order
  bool alone = false;                  // the profile picked without the other threads
  uint64_t cost = 0;
  // What the viewer does not show as the recording holds it; empty when nothing.
  std::string note;
};

// The plan for `profiles` (indices into group.profiles) opened at `picked`,
// one of them.
ViewerPlan PlanViewer(const ProfileGroup& group, const std::vector<size_t>& profiles, size_t picked,
                      uint64_t budget = kDefaultViewerBudget);

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_VIEWER_PLAN_H_
