#include "speedscope/folded_stacks.h"

#include <map>
#include <unordered_map>
#include <vector>

#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
namespace {

// Keeps one stack per line: separators and line breaks inside names are escaped.
void AppendName(const std::string& name, std::string* line) {
  for (char c : name) {
    if (c == ';' || c == '\\') {
      *line += '\\';
      *line += c;
    } else if (c == '\n' || c == '\r') {
      *line += c == '\n' ? "\\n" : "\\r";
    } else {
      *line += c;
    }
  }
}

// An evented profile's intervals, one per line as its frames nest, with its
// start and duration: "outer;inner @1200 +300".
std::string FoldedEvents(const ProfileGroup& group, const Profile& profile) {
  std::string text;
  // Written at each close, so that an interval's line knows its duration.
  std::vector<const IntervalEvent*> stack;
  for (const IntervalEvent& event : profile.events) {
    if (event.open) {
      stack.push_back(&event);
      continue;
    }
    std::string line;
    for (size_t i = 0; i < stack.size(); ++i) {
      if (i) line += ';';
      AppendName(group.frames[stack[i]->frame].name, &line);
    }
    text += line + " @" + std::to_string(stack.back()->at) + " +" +
            std::to_string(event.at - stack.back()->at) + "\n";
    stack.pop_back();
  }
  return text;
}

}  // namespace

std::string FoldedStacks(const ProfileGroup& group) {
  std::string text;
  for (size_t p = 0; p < group.profiles.size(); ++p) {
    const Profile& profile = group.profiles[p];
    if (IsEvented(profile)) {
      text += p ? "\n" : "";
      text += "# " + profile.name + "  [evented]\n";
      text += "# " + std::to_string(profile.sample_count) + " intervals, duration " +
              std::to_string(profile.sample_weight) + ", span " +
              std::to_string(profile.start_value) + ".." + std::to_string(profile.end_value) + "\n";
      text += FoldedEvents(group, profile);
      continue;
    }
    std::unordered_map<StackId, int64_t> weight_by_stack;
    int64_t idle = 0;
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      if (profile.samples[i] == kEmptyStack) {
        idle += profile.weights[i];
      } else {
        weight_by_stack[profile.samples[i]] += profile.weights[i];
      }
    }
    std::map<std::string, int64_t> weight_by_line;
    for (const auto& [stack, weight] : weight_by_stack) {
      std::vector<FrameId> leaf_to_root;
      for (StackId s = stack; s != kEmptyStack; s = group.stacks.parent[s]) {
        leaf_to_root.push_back(group.stacks.frame[s]);
      }
      std::string line;
      for (size_t f = leaf_to_root.size(); f-- > 0;) {
        AppendName(group.frames[leaf_to_root[f]].name, &line);
        if (f) line += ';';
      }
      weight_by_line[line] += weight;  // distinct frames can share a name
    }
    text += p ? "\n" : "";
    text += "# " + profile.name + (p == group.active_profile_index ? "  [active]" : "") + "\n";
    text += "# unit " + std::string(UnitName(profile.unit)) + ", " +
            std::to_string(profile.sample_count) + " samples, weight " +
            std::to_string(profile.sample_weight) + ", idle " + std::to_string(idle) + ", span " +
            std::to_string(profile.start_value) + ".." + std::to_string(profile.end_value) + "\n";
    for (const auto& [line, weight] : weight_by_line) {
      text += line + " " + std::to_string(weight) + "\n";
    }
  }
  return text;
}

}  // namespace instrumentscope::speedscope
