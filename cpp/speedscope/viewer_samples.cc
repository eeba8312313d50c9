#include "speedscope/viewer_samples.h"

#include <algorithm>

namespace instrumentscope::speedscope {

StackOrder::StackOrder(const StackTable& stacks)
    : stacks_(stacks), depth_(stacks.size()), rank_(stacks.size()) {
  // Stacks are interned parents first, so a parent's id is below its
  // children's; one that is not is taken for a root rather than trusted.
  size_t count = stacks.size();
  auto parent_of = [&](size_t stack) {
    StackId parent = stacks.parent[stack];
    return parent < stack ? static_cast<size_t>(parent) : count;  // count: the root
  };
  // Counted at [parent + 2] (the root is `count`), then summed: where each
  // parent's children begin, at [parent + 1] while they are placed.
  std::vector<uint32_t> first_child(count + 3, 0);
  for (size_t stack = 0; stack < count; ++stack) {
    size_t parent = parent_of(stack);
    depth_[stack] = parent == count ? 1 : depth_[parent] + 1;
    ++first_child[parent + 2];
  }
  for (size_t slot = 2; slot < first_child.size(); ++slot) {
    first_child[slot] += first_child[slot - 1];
  }
  std::vector<uint32_t> children(count);
  for (size_t stack = 0; stack < count; ++stack) {
    children[first_child[parent_of(stack) + 1]++] = static_cast<uint32_t>(stack);
  }
  // first_child[p]..first_child[p + 1] are now p's children, in id order.
  uint32_t next_rank = 1;
  std::vector<std::pair<size_t, uint32_t>> path = {{count, first_child[count]}};
  while (!path.empty()) {
    auto& [node, next] = path.back();
    if (next == first_child[node + 1]) {
      path.pop_back();
      continue;
    }
    uint32_t child = children[next++];
    rank_[child] = next_rank++;
    path.emplace_back(child, first_child[child]);
  }
}

uint32_t StackOrder::CommonDepth(StackId a, StackId b) const {
  uint32_t depth_a = Depth(a);
  uint32_t depth_b = Depth(b);
  for (; depth_a > depth_b; --depth_a) a = stacks_.parent[a];
  for (; depth_b > depth_a; --depth_b) b = stacks_.parent[b];
  for (; a != b; --depth_a) {
    a = stacks_.parent[a];
    b = stacks_.parent[b];
  }
  return depth_a;
}

namespace {

// Takes a profile's samples as the viewer will read them, consecutive ones of
// one stack summed, and counts what the viewer pays for them. It follows the
// viewer's time-ordered call tree along the current sample's path: a sample
// makes a node for each frame below where it parts from the one before, and
// then visits every child its last node has (to freeze them), which is how
// an idle gap ([], the root) between samples of many code paths comes to
// cost the square of the gaps. Keeps the samples only when asked.
class CostedSamples {
 public:
  CostedSamples(const StackOrder& order, bool keep) : order_(order), keep_(keep) {}

  void Append(StackId stack, int64_t weight) {
    if (started_ && stack == previous_) {
      if (keep_) out_.weights.back() += weight;
      return;
    }
    uint32_t depth = order_.Depth(stack);
    uint32_t common = started_ ? order_.CommonDepth(previous_, stack) : 0;
    children_.resize(common + 1);
    if (depth > common) {
      ++children_[common];
      children_.resize(depth + 1, 1);
      children_[depth] = 0;
    }
    visited_children_ += children_[depth];
    out_.cost += kViewerCostPerSample + uint64_t{depth} * kViewerCostPerFrame +
                 uint64_t{depth - common} * kViewerCostPerNode;
    if (keep_) {
      out_.stacks.push_back(stack);
      out_.weights.push_back(weight);
    }
    previous_ = stack;
    started_ = true;
  }

  ViewerSamples Finish(uint32_t windows, int64_t window_weight) && {
    out_.windows = windows;
    out_.window_weight = window_weight;
    out_.cost += visited_children_ / kViewerChildrenPerCost;
    return std::move(out_);
  }

 private:
  const StackOrder& order_;
  bool keep_;
  ViewerSamples out_;
  std::vector<uint64_t> children_ = {0};  // of the path's nodes, by depth; the root first
  uint64_t visited_children_ = 0;
  StackId previous_ = kEmptyStack;
  bool started_ = false;
};

// The samples of one window, summed by stack, in call tree order.
class Window {
 public:
  void Add(StackId stack, int64_t weight, const StackOrder& order) {
    if (!entries_.empty() && entries_.back().stack == stack) {
      entries_.back().weight += weight;
      return;
    }
    entries_.push_back({order.Rank(stack), stack, weight});
  }
  void MoveTo(CostedSamples& out) {
    std::sort(entries_.begin(), entries_.end(),
              [](const Entry& a, const Entry& b) { return a.rank < b.rank; });
    for (const Entry& entry : entries_) out.Append(entry.stack, entry.weight);
    entries_.clear();
  }

 private:
  struct Entry {
    uint32_t rank;
    StackId stack;
    int64_t weight;
  };
  std::vector<Entry> entries_;
};

}  // namespace

ViewerSamples CondenseSamples(const Profile& profile, const StackOrder& order, uint32_t windows,
                              bool keep) {
  int64_t total = 0;  // fits: it is the profile's total weight
  profile.weights.ForEachPage([&](const int64_t* weights, size_t count) {
    for (size_t i = 0; i < count; ++i) total += weights[i];
  });
  if (windows == 0 || total <= 0) {
    CostedSamples out(order, false);  // a writer takes runs from the profile itself
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      out.Append(profile.samples[i], profile.weights[i]);
    }
    return std::move(out).Finish(0, 0);
  }
  CostedSamples out(order, keep);
  Window window;
  uint64_t current = 0;
  int64_t before = 0;  // the weight of the samples before this one
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    auto at = static_cast<uint64_t>(static_cast<double>(before) / static_cast<double>(total) *
                                    static_cast<double>(windows));
    at = std::min<uint64_t>(at, windows - 1);
    if (at != current) {
      window.MoveTo(out);
      current = at;
    }
    window.Add(profile.samples[i], profile.weights[i], order);
    before += profile.weights[i];
  }
  window.MoveTo(out);
  return std::move(out).Finish(windows, total / windows + (total % windows != 0));
}

ViewerSamples CondenseWithin(const Profile& profile, const StackOrder& order, uint64_t budget,
                             uint32_t fewest_windows, const ViewerSamples* runs) {
  if (runs == nullptr) {
    ViewerSamples counted = CondenseSamples(profile, order, 0);
    if (counted.cost <= budget) return counted;
  } else if (runs->cost <= budget) {
    return *runs;
  }
  int fewest = 0;
  while (fewest < 31 && (uint32_t{1} << (fewest + 1)) <= fewest_windows) ++fewest;
  int most = fewest;
  while ((uint32_t{1} << most) < kMostViewerWindows) ++most;
  // The cost grows with the windows: the most within the budget, by halves,
  // counted without keeping the samples.
  if (CondenseSamples(profile, order, uint32_t{1} << fewest, false).cost <= budget) {
    while (fewest < most) {
      int middle = (fewest + most + 1) / 2;
      if (CondenseSamples(profile, order, uint32_t{1} << middle, false).cost <= budget) {
        fewest = middle;
      } else {
        most = middle - 1;
      }
    }
  }
  return CondenseSamples(profile, order, uint32_t{1} << fewest);
}

}  // namespace instrumentscope::speedscope
