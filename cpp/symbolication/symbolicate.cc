#include "symbolication/symbolicate.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/identifiers.h"
#include "base/integer_map.h"
#include "base/text.h"
#include "model/warning_codes.h"

namespace instrumentscope {

namespace {

constexpr StackId kUnmapped = kEmptyStack - 1;

// A symbol image placed in the recorded process's memory.
struct Placement {
  size_t image;           // in SymbolFiles::images()
  uint64_t load_address;  // where its __TEXT was
};

// What became of the unnamed frames of one image of the trace (or of bare
// addresses, kNoImage).
struct ImageOutcome {
  std::vector<Placement> placements;  // the files that may name its frames, DWARF first
  bool matched_by_name = false;
  std::set<FrameId> named;    // frames of the trace named from a file
  std::set<FrameId> unnamed;  // frames no file named
};

class Symbolicator {
 public:
  Symbolicator(SymbolFiles& files, ProfileGroup& group, bool lines, uint64_t max_stack_nodes)
      : files_(files),
        group_(group),
        lines_(lines),
        max_stack_nodes_(std::min<uint64_t>(max_stack_nodes, kUnmapped)),
        caller_map_(group.stacks.size(), kUnmapped),
        leaf_map_(group.stacks.size(), kUnmapped),
        kept_(group.frames.size(), kUnmapped),
        image_used_(files.images().size(), false) {}

  Status Run();

 private:
  ImageOutcome& OutcomeFor(ImageId image);
  Result<const std::vector<FrameId>*> Resolve(FrameId frame, bool caller);
  FrameId KeepFrame(FrameId old);
  FrameId AddSymbolized(SymbolizedFrame symbolized, const SymbolImage& image);
  Result<StackId> Push(StackId base, StackId old, bool caller);
  Result<StackId> MapStack(StackId stack, bool leaf);
  Result<StackId> Intern(StackId parent, FrameId frame);
  void Report();
  std::string Describe(ImageId image) const;

  SymbolFiles& files_;
  ProfileGroup& group_;
  bool lines_;  // a frame per source line, not per function
  uint64_t max_stack_nodes_;
  std::vector<Frame> frames_;
  std::unordered_map<std::string, FrameId> frame_index_;
  StackTable stacks_;
  IntegerMap stack_index_;
  std::vector<StackId> caller_map_;  // old stack → new, its frame looked up as a caller
  std::vector<StackId> leaf_map_;    // old stack → new, its frame looked up as a leaf
  std::vector<StackId> path_;        // scratch for MapStack
  std::vector<FrameId> kept_;        // old frame → the same frame in the new table
  std::unordered_map<uint64_t, std::vector<FrameId>> resolved_;  // frame << 1 | caller
  std::map<ImageId, ImageOutcome> outcomes_;
  std::vector<bool> image_used_;  // per symbol image: it named a frame
};

ImageOutcome& Symbolicator::OutcomeFor(ImageId id) {
  auto [entry, inserted] = outcomes_.try_emplace(id);
  ImageOutcome& outcome = entry->second;
  if (!inserted) return outcome;
  std::vector<SymbolImage>& images = files_.images();
  std::vector<Placement>& placements = outcome.placements;
  if (id == kNoImage) {
    // Bare addresses say nothing of where images were: only files the user
    // placed can name them (slid images would otherwise be named wrongly).
    for (size_t i = 0; i < images.size(); ++i) {
      if (auto load = files_.load_address(i)) placements.push_back(Placement{i, *load});
    }
  } else {
    const CodeImage& image = group_.images[id];
    auto place = [&](size_t i) {
      uint64_t load = image.load_address
                          ? *image.load_address
                          : files_.load_address(i).value_or(images[i].text_address());
      placements.push_back(Placement{i, load});
    };
    for (size_t i = 0; i < images.size(); ++i) {
      if (image.uuid && images[i].uuid() == image.uuid) place(i);
    }
    if (placements.empty()) {
      // By name: the slices of the image's architecture if the trace says it, else all.
      std::string_view name = BaseName(image.path);
      bool arch_known = std::any_of(images.begin(), images.end(), [&](const SymbolImage& symbols) {
        return symbols.name() == name && symbols.arch() == image.arch;
      });
      for (size_t i = 0; i < images.size(); ++i) {
        if (images[i].name() == name && (!arch_known || images[i].arch() == image.arch)) place(i);
      }
      outcome.matched_by_name = !placements.empty();
    }
  }
  // DWARF first: it knows inlined calls, files and lines.
  std::stable_sort(placements.begin(), placements.end(),
                   [&images](const Placement& a, const Placement& b) {
                     return images[a.image].has_debug_info() && !images[b.image].has_debug_info();
                   });
  return outcome;
}

FrameId Symbolicator::KeepFrame(FrameId old) {
  if (kept_[old] == kUnmapped) {
    kept_[old] = static_cast<FrameId>(frames_.size());
    frames_.push_back(group_.frames[old]);
  }
  return kept_[old];
}

FrameId Symbolicator::AddSymbolized(SymbolizedFrame symbolized, const SymbolImage& image) {
  if (lines_ && symbolized.source_line) {
    symbolized.file = std::move(symbolized.source_file);
    symbolized.line = symbolized.source_line;
  }
  // One frame per function (its file and binary), or per line of it.
  std::string key = symbolized.function;
  key.push_back('\0');
  key.append(symbolized.file);
  key.push_back('\0');
  key.append(image.name());
  if (lines_ && symbolized.line) key.append(":" + std::to_string(*symbolized.line));
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
  if (!frame.address) {
    frames.push_back(KeepFrame(old));
    return &frames;
  }
  ImageOutcome& outcome = OutcomeFor(frame.image);
  // A caller's return address follows its call: the call is one byte before.
  uint64_t address = caller && *frame.address > 0 ? *frame.address - 1 : *frame.address;
  for (const Placement& placement : outcome.placements) {
    SymbolImage& image = files_.images()[placement.image];
    if (address < placement.load_address || address - placement.load_address >= image.text_size()) {
      continue;
    }
    auto found = image.Lookup(address - placement.load_address + image.text_address());
    if (!found.ok()) return found.status();
    if (found->empty()) continue;
    for (SymbolizedFrame& symbolized : *found) {
      frames.push_back(AddSymbolized(std::move(symbolized), image));
    }
    image_used_[placement.image] = true;
    outcome.named.insert(old);
    outcome.unnamed.erase(old);
    return &frames;
  }
  if (!outcome.named.count(old)) outcome.unnamed.insert(old);
  frames.push_back(KeepFrame(old));
  return &frames;
}

Result<StackId> Symbolicator::Intern(StackId parent, FrameId frame) {
  uint64_t key = uint64_t{parent} << 32 | frame;
  uint32_t found = stack_index_.Find(key);
  if (found != IntegerMap::kNoValue) return found;
  // Inlined calls add stack nodes: the limit the builder kept holds here too.
  if (stacks_.size() >= max_stack_nodes_) {
    return Status(
        ErrorCode::kLimitExceeded,
        "naming frames from the symbol files (inlined calls among them) makes more than " +
            std::to_string(max_stack_nodes_) + " distinct stack prefixes (limits.maxStackNodes)");
  }
  auto id = static_cast<StackId>(stacks_.size());
  stack_index_.Insert(key, id);
  stacks_.parent.push_back(parent);
  stacks_.frame.push_back(frame);
  return id;
}

Result<StackId> Symbolicator::Push(StackId base, StackId old, bool caller) {
  const std::vector<FrameId>* frames;
  ASSIGN_OR_RETURN(frames, Resolve(group_.stacks.frame[old], caller));
  // Frames come innermost first: the outermost (the function the others were
  // inlined into) is pushed first, nearest the root.
  for (auto frame = frames->rbegin(); frame != frames->rend(); ++frame) {
    ASSIGN_OR_RETURN(base, Intern(base, *frame));
  }
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

void Symbolicator::Report() {
  SymbolicationReport report;
  std::vector<SymbolImage>& images = files_.images();

  for (const auto& [id, outcome] : outcomes_) {
    report.unnamed_frames += outcome.named.size() + outcome.unnamed.size();
    report.named_frames += outcome.named.size();
    if (outcome.matched_by_name && !outcome.named.empty()) {
      group_.warnings.push_back(MakeWarning(
          WarningCode::kSymbolsMatchedByName,
          Describe(id) + " was named from the symbol file of the same name, not by UUID: if " +
              "that file comes from another build, the names may be wrong"));
    }
    // Why frames stayed unnamed: the naming report, which runs last, puts it
    // in its SYMBOLS_MISSING warning.
    if (outcome.unnamed.empty()) continue;
    if (id == kNoImage) {
      report.unnamed_because[id] =
          outcome.placements.empty()
              ? "no symbol file was given the address it was loaded at"
              : "they lie outside the symbol files as placed (check their load addresses)";
    } else {
      report.unnamed_because[id] = outcome.placements.empty()
                                       ? "no binary or dSYM given matches it"
                                       : "its symbol file has no function there (another build?)";
    }
  }

  // Files that named nothing: most likely another build of the app.
  std::set<std::string> files_used;
  for (size_t i = 0; i < images.size(); ++i) {
    if (!image_used_[i]) continue;
    report.files_used.push_back(images[i].path() + " (" + images[i].arch() + ")");
    files_used.insert(images[i].path());
  }
  std::map<std::string, std::string> idle_files;  // path → its architectures and UUIDs
  for (size_t i = 0; i < images.size(); ++i) {
    if (files_used.count(images[i].path())) continue;
    std::string& description = idle_files[images[i].path()];
    if (!description.empty()) description += ", ";
    description += images[i].arch() +
                   (images[i].uuid() ? " UUID " + FormatUuid(*images[i].uuid()) : " no UUID");
  }
  for (const auto& [path, description] : idle_files) {
    group_.warnings.push_back(
        MakeWarning(WarningCode::kSymbolsUnused,
                    path + " (" + description + ") names no frame of the recording"));
  }
  group_.symbolication = std::move(report);
}

Status Symbolicator::Run() {
  for (Profile& profile : group_.profiles) {
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      StackId stack = profile.samples[i];
      if (stack == kEmptyStack) continue;
      ASSIGN_OR_RETURN(profile.samples[i], MapStack(stack, /*leaf=*/true));
    }
  }
  group_.frames = std::move(frames_);
  group_.stacks = std::move(stacks_);
  Report();
  return Status();
}

}  // namespace

Status Symbolicate(SymbolFiles& files, ProfileGroup* group, bool lines, uint64_t max_stack_nodes) {
  return Symbolicator(files, *group, lines, max_stack_nodes).Run();
}

}  // namespace instrumentscope
