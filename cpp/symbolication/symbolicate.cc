#include "symbolication/symbolicate.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/integer_map.h"
#include "formats/names.h"

namespace instrumentscope {

namespace {

constexpr StackId kUnmapped = kEmptyStack - 1;
// Images listed by name in one warning; the rest are counted.
constexpr size_t kImagesListed = 5;

std::string_view BaseName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// A symbol image placed in the recorded process's memory.
struct Placement {
  size_t image;           // in SymbolFiles::images()
  uint64_t load_address;  // where its __TEXT was
};

class Symbolicator {
 public:
  Symbolicator(SymbolFiles& files, ProfileGroup& group)
      : files_(files),
        group_(group),
        caller_map_(group.stacks.size(), kUnmapped),
        leaf_map_(group.stacks.size(), kUnmapped),
        kept_(group.frames.size(), kUnmapped) {}

  Status Run();

 private:
  const std::vector<Placement>& PlacementsFor(ImageId image);
  Result<const std::vector<FrameId>*> Resolve(FrameId frame, bool caller);
  FrameId KeepFrame(FrameId old);
  FrameId AddSymbolized(SymbolizedFrame symbolized, const SymbolImage& image);
  Result<StackId> Push(StackId base, StackId old, bool caller);
  Result<StackId> MapStack(StackId stack, bool leaf);
  StackId Intern(StackId parent, FrameId frame);
  void Report(uint64_t unnamed_frames);
  std::string Describe(ImageId image) const;

  SymbolFiles& files_;
  ProfileGroup& group_;
  std::vector<Frame> frames_;
  std::unordered_map<std::string, FrameId> frame_index_;
  StackTable stacks_;
  IntegerMap stack_index_;
  std::vector<StackId> caller_map_;  // old stack → new, its frame looked up as a caller
  std::vector<StackId> leaf_map_;    // old stack → new, its frame looked up as a leaf
  std::vector<StackId> path_;        // scratch for MapStack
  std::vector<FrameId> kept_;        // old frame → the same frame in the new table
  std::unordered_map<uint64_t, std::vector<FrameId>> resolved_;  // frame << 1 | caller
  std::map<ImageId, std::vector<Placement>> placements_;
  std::set<FrameId> named_;                       // old frames named in some role
  std::vector<bool> image_used_;                  // per symbol image
  std::map<ImageId, std::set<FrameId>> missing_;  // old frames left unnamed, per image
  std::set<ImageId> matched_by_name_;
};

const std::vector<Placement>& Symbolicator::PlacementsFor(ImageId id) {
  auto cached = placements_.find(id);
  if (cached != placements_.end()) return cached->second;
  std::vector<Placement>& placements = placements_[id];
  std::vector<SymbolImage>& images = files_.images();
  auto place = [&](size_t i, std::optional<uint64_t> recorded) {
    uint64_t load =
        recorded ? *recorded : files_.load_address(i).value_or(images[i].text_address());
    placements.push_back(Placement{i, load});
  };
  if (id == kNoImage) {
    // Bare addresses: every file, where the user placed it or where it was linked.
    for (size_t i = 0; i < images.size(); ++i) place(i, std::nullopt);
  } else {
    const CodeImage& image = group_.images[id];
    for (size_t i = 0; i < images.size(); ++i) {
      if (image.uuid && images[i].uuid() == image.uuid) place(i, image.load_address);
    }
    if (placements.empty()) {
      for (size_t i = 0; i < images.size(); ++i) {
        if (images[i].name() == BaseName(image.path)) place(i, image.load_address);
      }
      if (!placements.empty()) matched_by_name_.insert(id);
    }
  }
  // DWARF first: it knows inlined calls, files and lines.
  std::stable_sort(placements.begin(), placements.end(),
                   [&images](const Placement& a, const Placement& b) {
                     return images[a.image].has_debug_info() && !images[b.image].has_debug_info();
                   });
  return placements;
}

FrameId Symbolicator::KeepFrame(FrameId old) {
  if (kept_[old] == kUnmapped) {
    kept_[old] = static_cast<FrameId>(frames_.size());
    frames_.push_back(group_.frames[old]);
  }
  return kept_[old];
}

FrameId Symbolicator::AddSymbolized(SymbolizedFrame symbolized, const SymbolImage& image) {
  std::string key = symbolized.function;
  key.push_back('\0');
  key.append(symbolized.file);
  key.push_back('\0');
  key.append(image.name());
  auto [entry, inserted] = frame_index_.try_emplace(key, static_cast<FrameId>(frames_.size()));
  if (inserted) {
    Frame frame;
    frame.name = std::move(symbolized.function);
    frame.file = std::move(symbolized.file);
    frame.line = symbolized.line;
    frames_.push_back(std::move(frame));
  }
  return entry->second;
}

Result<const std::vector<FrameId>*> Symbolicator::Resolve(FrameId old, bool caller) {
  auto [entry, inserted] = resolved_.try_emplace(uint64_t{old} << 1 | (caller ? 1 : 0));
  std::vector<FrameId>& frames = entry->second;
  if (!inserted) return &frames;
  const Frame& frame = group_.frames[old];
  if (frame.address) {
    // A caller's return address follows its call: the call is one byte before.
    uint64_t address = caller && *frame.address > 0 ? *frame.address - 1 : *frame.address;
    for (const Placement& placement : PlacementsFor(frame.image)) {
      SymbolImage& image = files_.images()[placement.image];
      uint64_t linked = address - placement.load_address + image.text_address();
      if (address < placement.load_address || linked - image.text_address() >= image.text_size()) {
        continue;
      }
      auto found = image.Lookup(linked);
      if (!found.ok()) return found.status();
      if (found->empty()) continue;
      for (SymbolizedFrame& symbolized : *found) {
        frames.push_back(AddSymbolized(std::move(symbolized), image));
      }
      image_used_[placement.image] = true;
      named_.insert(old);
      missing_[frame.image].erase(old);
      return &frames;
    }
    if (!named_.count(old)) missing_[frame.image].insert(old);
  }
  frames.push_back(KeepFrame(old));
  return &frames;
}

StackId Symbolicator::Intern(StackId parent, FrameId frame) {
  auto [id, inserted] =
      stack_index_.Insert(uint64_t{parent} << 32 | frame, static_cast<uint32_t>(stacks_.size()));
  if (inserted) {
    stacks_.parent.push_back(parent);
    stacks_.frame.push_back(frame);
  }
  return id;
}

Result<StackId> Symbolicator::Push(StackId base, StackId old, bool caller) {
  const std::vector<FrameId>* frames;
  ASSIGN_OR_RETURN(frames, Resolve(group_.stacks.frame[old], caller));
  // Innermost first: the function holding the inlined calls goes on first.
  for (auto frame = frames->rbegin(); frame != frames->rend(); ++frame) base = Intern(base, *frame);
  return base;
}

Result<StackId> Symbolicator::MapStack(StackId stack, bool leaf) {
  std::vector<StackId>& memo = leaf ? leaf_map_ : caller_map_;
  if (memo[stack] != kUnmapped) return memo[stack];
  // Callers not mapped yet, nearest first; iteratively, for stacks run deep.
  path_.clear();
  StackId above = group_.stacks.parent[stack];
  while (above != kEmptyStack && caller_map_[above] == kUnmapped) {
    path_.push_back(above);
    above = group_.stacks.parent[above];
  }
  StackId base = above == kEmptyStack ? kEmptyStack : caller_map_[above];
  for (auto caller = path_.rbegin(); caller != path_.rend(); ++caller) {
    ASSIGN_OR_RETURN(base, Push(base, *caller, /*caller=*/true));
    caller_map_[*caller] = base;
  }
  ASSIGN_OR_RETURN(memo[stack], Push(base, stack, /*caller=*/!leaf));
  return memo[stack];
}

std::string Symbolicator::Describe(ImageId id) const {
  const CodeImage& image = group_.images[id];
  std::string text(BaseName(image.path));
  if (image.uuid) text += " (UUID " + FormatUuid(*image.uuid) + ")";
  return text;
}

void Symbolicator::Report(uint64_t unnamed_frames) {
  SymbolicationReport report;
  report.unnamed_frames = unnamed_frames;
  report.named_frames = named_.size();
  std::vector<SymbolImage>& images = files_.images();
  std::set<std::string> files_matched;
  for (size_t i = 0; i < images.size(); ++i) {
    if (!image_used_[i]) continue;
    report.files_used.push_back(images[i].path() + " (" + images[i].arch() + ")");
    files_matched.insert(images[i].path());
  }

  for (ImageId id : matched_by_name_) {
    group_.warnings.push_back(
        {"SYMBOLS_MATCHED_BY_NAME",
         Describe(id) + " was matched with the symbol file of the same name, not by UUID: if " +
             "the file comes from another build, the names may be wrong"});
  }

  // Images that kept unnamed frames, most frames first.
  std::vector<std::pair<size_t, ImageId>> unnamed;
  for (const auto& [id, frames] : missing_) {
    if (!frames.empty()) unnamed.emplace_back(frames.size(), id);
  }
  std::sort(unnamed.begin(), unnamed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (!unnamed.empty()) {
    std::string message = "frames still unnamed, for want of a matching binary or dSYM: ";
    for (size_t i = 0; i < unnamed.size() && i < kImagesListed; ++i) {
      const auto& [count, id] = unnamed[i];
      if (i > 0) message += ", ";
      message += std::to_string(count) + " in " +
                 (id == kNoImage ? std::string("no image the recording names (for bare "
                                               "addresses, give each file its load address)")
                                 : Describe(id));
    }
    if (unnamed.size() > kImagesListed) {
      message +=
          ", and more in " + std::to_string(unnamed.size() - kImagesListed) + " other images";
    }
    group_.warnings.push_back({"SYMBOLS_MISSING", message});
  }

  // Files that named nothing: most likely another build of the app.
  std::map<std::string, std::string> idle_files;  // path → its architectures and UUIDs
  for (size_t i = 0; i < images.size(); ++i) {
    if (files_matched.count(images[i].path())) continue;
    std::string& description = idle_files[images[i].path()];
    if (!description.empty()) description += ", ";
    description += images[i].arch() +
                   (images[i].uuid() ? " UUID " + FormatUuid(*images[i].uuid()) : " no UUID");
  }
  for (const auto& [path, description] : idle_files) {
    group_.warnings.push_back(
        {"SYMBOLS_UNUSED", path + " (" + description + ") names no frame of the trace"});
  }
  group_.symbolication = std::move(report);
}

Status Symbolicator::Run() {
  image_used_.assign(files_.images().size(), false);
  uint64_t unnamed_frames = 0;
  for (const Frame& frame : group_.frames) {
    if (frame.address) ++unnamed_frames;
  }
  if (unnamed_frames > 0) {
    for (Profile& profile : group_.profiles) {
      for (size_t i = 0; i < profile.samples.size(); ++i) {
        StackId stack = profile.samples[i];
        if (stack == kEmptyStack) continue;
        ASSIGN_OR_RETURN(profile.samples[i], MapStack(stack, /*leaf=*/true));
      }
    }
    group_.frames = std::move(frames_);
    group_.stacks = std::move(stacks_);
  }
  Report(unnamed_frames);
  return Status();
}

}  // namespace

Status Symbolicate(SymbolFiles& files, ProfileGroup* group) {
  return Symbolicator(files, *group).Run();
}

}  // namespace instrumentscope
