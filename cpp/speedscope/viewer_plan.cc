#include "speedscope/viewer_plan.h"

#include <algorithm>
#include <optional>

#include "base/text.h"
#include "model/view_names.h"
#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
namespace {

// The frames that the samples and events of `profiles` reach, in id order
// (condensing keeps every stack, so the profiles' own samples say).
std::vector<FrameId> ReachedFrames(const ProfileGroup& group, const std::vector<size_t>& profiles) {
  std::vector<bool> stack_seen(group.stacks.size());
  std::vector<bool> frame_seen(group.frames.size());
  for (size_t index : profiles) {
    const Profile& profile = group.profiles[index];
    for (const IntervalEvent& event : profile.events) {
      if (event.frame < frame_seen.size()) frame_seen[event.frame] = true;
    }
    profile.samples.ForEachPage([&](const StackId* samples, size_t count) {
      for (size_t i = 0; i < count; ++i) {
        for (StackId stack = samples[i]; stack < stack_seen.size() && !stack_seen[stack];
             stack = group.stacks.parent[stack]) {
          stack_seen[stack] = true;
          FrameId frame = group.stacks.frame[stack];
          if (frame < frame_seen.size()) frame_seen[frame] = true;
        }
      }
    });
  }
  std::vector<FrameId> frames;
  for (size_t frame = 0; frame < frame_seen.size(); ++frame) {
    if (frame_seen[frame]) frames.push_back(static_cast<FrameId>(frame));
  }
  return frames;
}

// What the viewer pays whatever the samples: the intervals' events, and the
// frame list copied for each profile.
uint64_t FixedCost(const ProfileGroup& group, const std::vector<size_t>& profiles,
                   size_t frame_count) {
  uint64_t cost = uint64_t{frame_count} * profiles.size() * kViewerCostPerListedFrame;
  for (size_t index : profiles) cost += group.profiles[index].events.size() * kViewerCostPerEvent;
  return cost;
}

// "47 ms", "1,024 bytes"; empty for a unit with no name.
std::string WidthText(ValueUnit unit, int64_t width) {
  switch (unit) {
    case ValueUnit::kNanoseconds: return DurationText(width);
    case ValueUnit::kBytes: return Counted(static_cast<uint64_t>(width), "byte");
    case ValueUnit::kNone: break;
  }
  return "";
}

std::string WindowsText(const Profile& profile, const ViewerSamples& samples) {
  std::string width = WidthText(profile.unit, samples.window_weight);
  return Counted(samples.windows, "window") + (width.empty() ? "" : " of " + width);
}

// The profiles listed by name in a note; the others are counted.
constexpr size_t kNotedProfiles = 4;

// Says the same whichever profile is opened first, so that one file serves them all.
std::string NoteOf(const ProfileGroup& group, const ViewerPlan& plan) {
  std::vector<std::string> condensed;
  for (size_t i = 0; i < plan.profiles.size(); ++i) {
    const ViewerSamples& samples = plan.samples[i];
    if (samples.windows == 0) continue;
    const Profile& profile = group.profiles[plan.profiles[i]];
    condensed.push_back(profile.name + ": " + WindowsText(profile, samples));
  }
  std::vector<std::string> sentences;
  if (plan.alone) {
    sentences.push_back(
        "This process's threads and the profile picked are more than speedscope's viewer reads in "
        "good time: it has the profile picked above and the intervals, not the other threads; "
        "pick them there one at a time.");
  }
  if (!condensed.empty()) {
    size_t unnamed = condensed.size() > kNotedProfiles ? condensed.size() - kNotedProfiles : 0;
    condensed.resize(condensed.size() - unnamed);
    if (unnamed) condensed.push_back("and " + Counted(unnamed, "more profile") + " likewise");
    sentences.push_back(
        "To draw in good time, speedscope's viewer has samples summed by stack within windows of "
        "their time (" +
        JoinList(condensed, "; ", [](const std::string& text) { return text; }) +
        "): Left Heavy and Sandwich are exact, Time Order only to a window. The download keeps "
        "every sample.");
  }
  return JoinList(sentences, " ", [](const std::string& text) { return text; });
}

ViewerPlan Finish(const ProfileGroup& group, std::vector<size_t> profiles,
                  std::vector<ViewerSamples> samples, std::vector<FrameId> frames, bool alone) {
  ViewerPlan plan;
  plan.profiles = std::move(profiles);
  plan.samples = std::move(samples);
  plan.frames = std::move(frames);
  plan.alone = alone;
  plan.cost = FixedCost(group, plan.profiles, plan.frames.size());
  for (const ViewerSamples& each : plan.samples) plan.cost += each.cost;
  plan.note = NoteOf(group, plan);
  return plan;
}

// Every profile, each sampled one condensed within its share of what the
// budget leaves (shares by what each would cost whole); nothing when one of
// them would be coarser than kFewestWindowsTogether.
std::optional<ViewerPlan> Together(const ProfileGroup& group, const std::vector<size_t>& profiles,
                                   const std::vector<ViewerSamples>& whole, uint64_t whole_cost,
                                   const StackOrder& order, uint64_t available,
                                   std::vector<FrameId>& frames) {
  std::vector<ViewerSamples> shared(profiles.size());
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (IsEvented(group.profiles[profiles[i]])) continue;
    // In doubles: the product of two costs may pass 2^64.
    auto share =
        static_cast<uint64_t>(static_cast<double>(available) * static_cast<double>(whole[i].cost) /
                              static_cast<double>(whole_cost));
    shared[i] = CondenseWithin(group.profiles[profiles[i]], order, share, kFewestWindowsTogether,
                               &whole[i]);
    if (shared[i].cost > share) return std::nullopt;
  }
  return Finish(group, profiles, std::move(shared), std::move(frames), false);
}

// The profile picked and the intervals, the profile in as many windows as the budget allows.
ViewerPlan Alone(const ProfileGroup& group, const std::vector<size_t>& profiles, size_t picked,
                 std::vector<ViewerSamples> whole, const StackOrder& order, uint64_t budget) {
  std::vector<size_t> alone;
  std::vector<ViewerSamples> samples;
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (profiles[i] != picked && !IsEvented(group.profiles[profiles[i]])) continue;
    alone.push_back(profiles[i]);
    samples.push_back(std::move(whole[i]));
  }
  std::vector<FrameId> frames = ReachedFrames(group, alone);
  uint64_t fixed = FixedCost(group, alone, frames.size());
  uint64_t available = budget > fixed ? budget - fixed : 0;
  for (size_t i = 0; i < alone.size(); ++i) {
    if (alone[i] == picked && !IsEvented(group.profiles[picked])) {
      samples[i] = CondenseWithin(group.profiles[picked], order, available, 1, &samples[i]);
    }
  }
  // With no other threads to leave out, the profile picked is only condensed.
  bool left_out = alone.size() < profiles.size();
  return Finish(group, std::move(alone), std::move(samples), std::move(frames), left_out);
}

}  // namespace

ViewerPlan PlanViewer(const ProfileGroup& group, const std::vector<size_t>& profiles, size_t picked,
                      uint64_t budget) {
  StackOrder order(group.stacks);
  std::vector<ViewerSamples> whole(profiles.size());
  uint64_t whole_cost = 0;
  for (size_t i = 0; i < profiles.size(); ++i) {
    if (IsEvented(group.profiles[profiles[i]])) continue;
    whole[i] = CondenseSamples(group.profiles[profiles[i]], order, 0);
    whole_cost += whole[i].cost;
  }
  std::vector<FrameId> frames = ReachedFrames(group, profiles);
  uint64_t fixed = FixedCost(group, profiles, frames.size());
  if (fixed + whole_cost <= budget) {
    return Finish(group, profiles, std::move(whole), std::move(frames), false);
  }
  if (fixed < budget) {
    std::optional<ViewerPlan> together =
        Together(group, profiles, whole, whole_cost, order, budget - fixed, frames);
    if (together) return std::move(*together);
  }
  return Alone(group, profiles, picked, std::move(whole), order, budget);
}

}  // namespace instrumentscope::speedscope
