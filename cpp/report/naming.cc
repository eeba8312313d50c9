#include "report/naming.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/identifiers.h"
#include "base/text.h"
#include "model/warning_codes.h"

namespace instrumentscope {
namespace {

// Images named in the warning; the rest are counted.
constexpr size_t kImagesListed = 5;
constexpr StackId kNone = kEmptyStack;

// Per stack: what its frames say about naming, computed once, parents first
// (a parent's id is always below its child's).
struct StackFacts {
  std::vector<uint32_t> samples;         // samples ending in the stack, over all profiles
  std::vector<StackId> nearest_unnamed;  // the stack itself or its nearest ancestor with an
                                         // unnamed frame; kNone when there is none
  std::vector<StackId> nearest_folded;   // the same with a folded body (Frame::folded)
  // Of a stack with an unnamed frame: its nearest ancestor with an unnamed
  // frame of another image, kNone when there is none. A stack of addresses
  // in one image (an input of bare addresses) has its images in one step.
  std::vector<StackId> next_unnamed_image;
  std::vector<uint32_t> depth;     // its frames
  std::vector<uint32_t> nameable;  // of them, unnamed ones a symbol file could name
};

bool Unnamed(const ProfileGroup& group, FrameId frame) {
  return group.frames[frame].address.has_value();
}

// An input of bare addresses (xctrace of Xcode 14.0 and older, a Deep Copy):
// it names no image or binary anywhere, so any of its addresses may be the
// app's, which a symbol file with its load address can name.
bool BareAddresses(const ProfileGroup& group) {
  if (!group.images.empty()) return false;
  for (const Frame& frame : group.frames) {
    if (!frame.file.empty()) return false;
  }
  return true;
}

StackFacts Facts(const ProfileGroup& group) {
  const StackTable& stacks = group.stacks;
  StackFacts facts;
  facts.samples.assign(stacks.size(), 0);
  facts.nearest_unnamed.assign(stacks.size(), kNone);
  facts.nearest_folded.assign(stacks.size(), kNone);
  facts.next_unnamed_image.assign(stacks.size(), kNone);
  facts.depth.assign(stacks.size(), 0);
  facts.nameable.assign(stacks.size(), 0);
  // Frames outside every image of an input that names images (JIT-compiled
  // code, a loader's) no symbol file can name: they are reported, not counted.
  bool bare_addresses = BareAddresses(group);
  for (StackId s = 0; s < stacks.size(); ++s) {
    StackId parent = stacks.parent[s];
    const Frame& frame = group.frames[stacks.frame[s]];
    bool unnamed = frame.address.has_value();
    bool nameable = unnamed && (frame.image != kNoImage || bare_addresses);
    facts.nearest_unnamed[s] = unnamed           ? s
                               : parent == kNone ? kNone
                                                 : facts.nearest_unnamed[parent];
    facts.nearest_folded[s] = !frame.folded.empty() ? s
                              : parent == kNone     ? kNone
                                                    : facts.nearest_folded[parent];
    if (unnamed && parent != kNone) {
      StackId above = facts.nearest_unnamed[parent];
      bool same_image = above != kNone && group.frames[stacks.frame[above]].image == frame.image;
      facts.next_unnamed_image[s] = same_image ? facts.next_unnamed_image[above] : above;
    }
    facts.depth[s] = 1 + (parent == kNone ? 0 : facts.depth[parent]);
    facts.nameable[s] = (nameable ? 1 : 0) + (parent == kNone ? 0 : facts.nameable[parent]);
  }
  for (const Profile& profile : group.profiles) {
    if (IsView(profile.kind)) continue;  // their samples are counted in their threads
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      StackId stack = profile.samples[i];
      if (stack != kEmptyStack && facts.samples[stack] < UINT32_MAX) ++facts.samples[stack];
    }
  }
  return facts;
}

// The frames samples reach, and of the unnamed ones the images and the
// samples through them.
NamingReport Count(const ProfileGroup& group, const StackFacts& facts) {
  const StackTable& stacks = group.stacks;
  std::vector<bool> reached_stack(stacks.size(), false);
  std::vector<bool> reached_frame(group.frames.size(), false);
  // Per image (kNoImage last): unnamed frames reached and samples through them.
  std::vector<UnnamedImage> images(group.images.size() + 1);
  auto image_slot = [&](ImageId id) -> UnnamedImage& {
    return images[id == kNoImage ? group.images.size() : id];
  };
  std::vector<ImageId> seen;  // images counted for the current stack
  // Per folded frame reached: its place in report.folded.
  std::unordered_map<FrameId, size_t> folded_slot;
  std::vector<FrameId> folded_seen;  // folded frames counted for the current stack
  NamingReport report;
  for (StackId s = 0; s < stacks.size(); ++s) {
    if (facts.samples[s] == 0) continue;
    for (StackId up = s; up != kNone && !reached_stack[up]; up = stacks.parent[up]) {
      reached_stack[up] = true;
      FrameId frame = stacks.frame[up];
      if (reached_frame[frame]) continue;
      reached_frame[frame] = true;
      ++report.sampled_frames;
      if (!group.frames[frame].folded.empty()) {
        folded_slot.emplace(frame, report.folded.size());
        report.folded.push_back(FoldedFrame{frame, 0});
      }
      if (!Unnamed(group, frame)) continue;
      ++report.unnamed_frames;
      ++image_slot(group.frames[frame].image).frames;
    }
    folded_seen.clear();
    for (StackId up = facts.nearest_folded[s]; up != kNone;
         up = stacks.parent[up] == kNone ? kNone : facts.nearest_folded[stacks.parent[up]]) {
      FrameId frame = stacks.frame[up];
      if (std::find(folded_seen.begin(), folded_seen.end(), frame) != folded_seen.end()) continue;
      folded_seen.push_back(frame);
      report.folded[folded_slot.at(frame)].samples += facts.samples[s];
    }
    seen.clear();
    for (StackId up = facts.nearest_unnamed[s]; up != kNone; up = facts.next_unnamed_image[up]) {
      ImageId image = group.frames[stacks.frame[up]].image;
      if (std::find(seen.begin(), seen.end(), image) != seen.end()) continue;
      seen.push_back(image);
      image_slot(image).samples += facts.samples[s];
    }
  }
  for (size_t i = 0; i < images.size(); ++i) {
    if (images[i].frames == 0) continue;
    images[i].image = i < group.images.size() ? static_cast<ImageId>(i) : kNoImage;
    report.images.push_back(images[i]);
  }
  std::stable_sort(report.images.begin(), report.images.end(),
                   [](const UnnamedImage& a, const UnnamedImage& b) {
                     return a.samples != b.samples ? a.samples > b.samples : a.frames > b.frames;
                   });
  std::stable_sort(
      report.folded.begin(), report.folded.end(),
      [](const FoldedFrame& a, const FoldedFrame& b) { return a.samples > b.samples; });
  return report;
}

// The profiles whose unnamed frames carry more than the share of their
// weight, with that share, most first. A sample's weight is shared equally
// among the frames of its stack: the share is how much of the flame graph
// unnamed frames make up.
std::vector<std::pair<double, const Profile*>> ProfilesMissingSymbols(const ProfileGroup& group,
                                                                      const StackFacts& facts) {
  std::vector<std::pair<double, const Profile*>> missing;
  for (const Profile& profile : group.profiles) {
    if (IsView(profile.kind)) continue;
    double total = 0, carried = 0;
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      StackId stack = profile.samples[i];
      if (stack == kEmptyStack) continue;
      auto weight = static_cast<double>(profile.weights[i]);
      total += weight;
      carried += weight * facts.nameable[stack] / facts.depth[stack];
    }
    if (total > 0 && carried / total > kSymbolsMissingShare) {
      missing.emplace_back(carried / total, &profile);
    }
  }
  std::stable_sort(missing.begin(), missing.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  return missing;
}

// "87%", and "5.1%" below 10%, where a whole percent would hide the threshold.
std::string Percent(double share) {
  if (share >= 0.1) return std::to_string(static_cast<int>(std::lround(share * 100))) + "%";
  long tenths = std::lround(share * 1000);
  if (tenths % 10 == 0) return std::to_string(tenths / 10) + "%";
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

std::string DescribeImage(const ProfileGroup& group, const UnnamedImage& unnamed) {
  std::string counts =
      std::to_string(unnamed.frames) + (unnamed.frames == 1 ? " frame" : " frames") + " in " +
      std::to_string(unnamed.samples) + (unnamed.samples == 1 ? " sample" : " samples");
  std::string text;
  if (unnamed.image == kNoImage) {
    text = BareAddresses(group) ? counts + " at bare addresses"
                                : counts +
                                      " outside every image the recording names (no "
                                      "symbol file names those: JIT-compiled code, a "
                                      "loader's)";
  } else {
    const CodeImage& image = group.images[unnamed.image];
    text = std::string(BaseName(image.path));
    if (image.uuid) text += " (UUID " + FormatUuid(*image.uuid) + ")";
    text += ": " + counts;
  }
  if (group.symbolication) {
    auto because = group.symbolication->unnamed_because.find(unnamed.image);
    if (because != group.symbolication->unnamed_because.end()) text += ", " + because->second;
  }
  return text;
}

std::string MissingSymbolsMessage(const ProfileGroup& group,
                                  const std::vector<std::pair<double, const Profile*>>& profiles) {
  const auto& [share, worst] = profiles.front();
  std::string message =
      "unnamed frames make up " + Percent(share) + " of the flame graph of " + worst->name;
  if (profiles.size() > 1) {
    message += " (and more than " + Percent(kSymbolsMissingShare) + " of " +
               std::to_string(profiles.size() - 1) + " other profile" +
               (profiles.size() > 2 ? "s" : "") + ")";
  }
  message += ": ";
  // Images first, most samples first; frames in no image, which no file can
  // name, at the end.
  std::vector<const UnnamedImage*> images;
  const UnnamedImage* outside = nullptr;
  for (const UnnamedImage& image : group.naming.images) {
    if (image.image == kNoImage) {
      outside = &image;
    } else {
      images.push_back(&image);
    }
  }
  for (size_t i = 0; i < images.size() && i < kImagesListed; ++i) {
    if (i > 0) message += "; ";
    message += DescribeImage(group, *images[i]);
  }
  if (images.size() > kImagesListed) {
    message += "; and " + std::to_string(images.size() - kImagesListed) + " more images";
  }
  if (outside) message += (images.empty() ? "" : "; ") + DescribeImage(group, *outside);
  // After symbolication each image's reason says what would help.
  if (group.symbolication) return message;
  // Bare addresses need a load address for the user's files to name them.
  message += BareAddresses(group)
                 ? ". Give the app's binary or dSYM with the address it was loaded at "
                   "(PATH@0x… on the command line, Loaded at on the page)"
                 : ". Add the app's dSYM (Symbols… on the page, --symbols on the command "
                   "line) and, for system libraries, the binaries Xcode keeps for the "
                   "device's OS version (~/Library/Developer/Xcode/<platform> DeviceSupport/"
                   "<version>/Symbols): they are matched by UUID";
  return message;
}

}  // namespace

void ReportNaming(ProfileGroup* group) {
  StackFacts facts = Facts(*group);
  group->naming = Count(*group, facts);
  auto missing = ProfilesMissingSymbols(*group, facts);
  if (!missing.empty()) {
    group->warnings.push_back(
        MakeWarning(WarningCode::kSymbolsMissing, MissingSymbolsMessage(*group, missing)));
  }
}

std::string NamingText(const NamingReport& naming) {
  if (naming.sampled_frames == 0) return std::string();
  uint64_t named = naming.sampled_frames - naming.unnamed_frames - naming.folded.size();
  // Rounded down, to a tenth: 99.99% named is not 100%.
  uint64_t tenths = named * 1000 / naming.sampled_frames;
  std::string share = std::to_string(tenths / 10);
  if (tenths % 10) share += "." + std::to_string(tenths % 10);
  std::string text = Thousands(named) + " of " + Counted(naming.sampled_frames, "sampled frame") +
                     " named (" + share + "%)";
  if (naming.folded.empty()) return text;
  return text + "; " + Thousands(naming.folded.size()) +
         (naming.folded.size() == 1 ? " is code" : " are code") +
         " the linker folded from several functions (<deduplicated_symbol>, as Instruments shows "
         "it)";
}

std::string SymbolicationText(const SymbolicationReport& report) {
  std::string text = "named " + Thousands(report.named_frames) + " of " +
                     Counted(report.unnamed_frames, "unnamed frame");
  if (!report.files_used.empty()) text += " from " + JoinList(report.files_used);
  return text;
}

}  // namespace instrumentscope
