#include "speedscope/writer.h"

#include <array>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
namespace {

// Writes a sampled stack as its frame ids, root first, in brackets
// ("[3,7,12]"). Samples repeat a few thousand stacks millions of times, so
// the text of each is kept once made, up to a bound. Past it (long recordings
// of deep, varied stacks) a stack is put together from its frames' texts,
// made once per write: a fixed-size copy per frame instead of a number to
// format. Putting them together costs most in WebAssembly: keeping all of the
// largest bundle's texts (30 MB) rather than half made its writer 2.5 times
// as fast there.
class StackWriter {
 public:
  // `frame_ids`: the id each frame is written with, when not its own.
  StackWriter(const StackTable& stacks, size_t frame_count, size_t kept_bytes,
              const std::vector<FrameId>* frame_ids = nullptr)
      : stacks_(stacks),
        frame_count_(frame_count),
        max_blocks_(kept_bytes / kBlockBytes),
        frame_ids_(frame_ids) {}

  void Write(StackId stack, PieceWriter& out) {
    if (stack == kEmptyStack) {
      out.Append("[]");
      return;
    }
    // Consecutive samples often share their stack.
    if (stack != last_stack_) {
      last_stack_ = stack;
      last_text_ = TextOf(stack);
    }
    out.Append(last_text_);
  }

 private:
  static constexpr size_t kBlockBytes = 1 << 20;
  // A frame id's text with the comma before it (",4294967295" at most), in
  // a slot copied whole.
  static constexpr size_t kFrameSlot = 16;
  using FrameSlot = std::array<char, kFrameSlot>;

  std::string_view TextOf(StackId stack) {
    if (span_of_.empty()) span_of_.assign(stacks_.size(), kNotKept);
    uint32_t known = span_of_[stack];
    if (known != kNotKept) return spans_list_[known];
    std::string_view text = Compose(stack);
    std::optional<std::string_view> kept = Keep(text);
    if (!kept) return text;
    span_of_[stack] = static_cast<uint32_t>(spans_list_.size());
    spans_list_.push_back(*kept);
    return *kept;
  }

  // The stack's text in scratch_: each frame's slot written whole, the next
  // one over its spare bytes; the root's comma becomes the opening bracket.
  std::string_view Compose(StackId stack) {
    if (frame_lengths_.empty()) MakeFrameTexts();
    leaf_to_root_.clear();
    for (StackId node = stack; node != kEmptyStack; node = stacks_.parent[node]) {
      leaf_to_root_.push_back(stacks_.frame[node]);
    }
    // Grown, never shrunk: resizing back up would clear it again each time.
    size_t needed = leaf_to_root_.size() * kFrameSlot + 1;
    if (scratch_.size() < needed) scratch_.resize(needed);
    char* end = scratch_.data();
    for (size_t f = leaf_to_root_.size(); f-- > 0;) {
      FrameId frame = leaf_to_root_[f];
      std::memcpy(end, frame_texts_[frame].data(), kFrameSlot);
      end += frame_lengths_[frame];
    }
    scratch_[0] = '[';
    *end++ = ']';
    return std::string_view(scratch_.data(), static_cast<size_t>(end - scratch_.data()));
  }

  void MakeFrameTexts() {
    frame_texts_.resize(frame_count_);
    frame_lengths_.resize(frame_count_);
    for (size_t frame = 0; frame < frame_count_; ++frame) {
      FrameSlot& slot = frame_texts_[frame];
      slot[0] = ',';
      FrameId written = frame_ids_ ? (*frame_ids_)[frame] : static_cast<FrameId>(frame);
      char* end = std::to_chars(slot.data() + 1, slot.data() + kFrameSlot, written).ptr;
      frame_lengths_[frame] = static_cast<uint8_t>(end - slot.data());
    }
  }

  // A copy of `text` among the kept texts; nullopt once they are full.
  std::optional<std::string_view> Keep(std::string_view text) {
    if (text.size() > kBlockBytes) return std::nullopt;
    if (blocks_.empty() || kBlockBytes - block_used_ < text.size()) {
      if (blocks_.size() >= max_blocks_) return std::nullopt;
      blocks_.emplace_back(new char[kBlockBytes]);
      block_used_ = 0;
    }
    char* start = blocks_.back().get() + block_used_;
    std::memcpy(start, text.data(), text.size());
    block_used_ += text.size();
    return std::string_view(start, text.size());
  }

  const StackTable& stacks_;
  size_t frame_count_;
  size_t max_blocks_;
  const std::vector<FrameId>* frame_ids_;
  static constexpr uint32_t kNotKept = UINT32_MAX;
  // By stack id, its index in spans_list_: read for every sample, looked up
  // in place (4 bytes a stack) rather than hashed.
  std::vector<uint32_t> span_of_;
  std::vector<std::string_view> spans_list_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  std::vector<FrameSlot> frame_texts_;  // by frame id
  std::vector<uint8_t> frame_lengths_;
  std::vector<FrameId> leaf_to_root_;
  std::vector<char> scratch_;  // the text of a stack not kept
  StackId last_stack_ = kEmptyStack;
  std::string_view last_text_;
};

// Writes weights, which repeat too: a sampling interval, an idle gap.
class WeightWriter {
 public:
  void Write(int64_t weight, PieceWriter& out) {
    if (weight != last_ || length_ == 0) {
      last_ = weight;
      length_ =
          static_cast<size_t>(std::to_chars(text_, text_ + sizeof(text_), weight).ptr - text_);
    }
    out.Append(std::string_view(text_, length_));
  }

 private:
  int64_t last_ = 0;
  char text_[20];
  size_t length_ = 0;
};

}  // namespace

nlohmann::json FrameJson(const Frame& frame) {
  nlohmann::json object = {{"name", frame.name}};
  if (!frame.file.empty()) object["file"] = frame.file;
  if (frame.line) object["line"] = *frame.line;
  return object;
}

void WriteFrameJson(const Frame& frame, PieceWriter& out) {
  // FrameJson's members in its order (nlohmann_json sorts them), written
  // without making the object: a bundle has a hundred thousand frames.
  char before = '{';
  if (!frame.file.empty()) {
    out.Append("{\"file\":");
    out.AppendJsonString(frame.file);
    before = ',';
  }
  if (frame.line) {
    out.Append(before);
    out.Append("\"line\":");
    out.AppendNumber(*frame.line);
    before = ',';
  }
  out.Append(before);
  out.Append("\"name\":");
  out.AppendJsonString(frame.name);
  out.Append('}');
}

namespace {

void WriteFrame(const Frame& frame, bool first, PieceWriter& out) {
  out.Append(first ? "\n" : ",\n");
  WriteFrameJson(frame, out);
}

void WriteFrames(const ProfileGroup& group, PieceWriter& out) {
  out.Append(",\n\"shared\":{\"frames\":[");
  for (size_t i = 0; i < group.frames.size() && out.ok(); ++i) {
    WriteFrame(group.frames[i], i == 0, out);
  }
  out.Append("\n]}");
}

// Those of `frames` alone, renumbered in their order.
void WriteFrames(const ProfileGroup& group, const std::vector<FrameId>& frames, PieceWriter& out) {
  out.Append(",\n\"shared\":{\"frames\":[");
  for (size_t i = 0; i < frames.size() && out.ok(); ++i) {
    WriteFrame(group.frames[frames[i]], i == 0, out);
  }
  out.Append("\n]}");
}

// The members every profile has, the object left open for the rest.
void WriteProfileHeader(const Profile& profile, PieceWriter& out) {
  nlohmann::json header = {{"type", IsEvented(profile) ? kEventedProfileType : kSampledProfileType},
                           {"name", profile.name},
                           {"unit", UnitName(profile.unit)},
                           {"startValue", profile.start_value},
                           {"endValue", profile.end_value}};
  std::string text = DumpJson(header);
  text.pop_back();
  out.Append(text);
}

// `frame_ids`: the id each frame is written with, when not its own.
void WriteEvents(const Profile& profile, PieceWriter& out,
                 const std::vector<FrameId>* frame_ids = nullptr) {
  out.Append(",\n\"events\":[");
  for (size_t i = 0; i < profile.events.size() && out.ok(); ++i) {
    const IntervalEvent& event = profile.events[i];
    out.Append(i ? ",\n{\"type\":\"" : "\n{\"type\":\"");
    out.Append(event.open ? 'O' : 'C');
    out.Append("\",\"frame\":");
    out.AppendNumber(frame_ids ? (*frame_ids)[event.frame] : event.frame);
    out.Append(",\"at\":");
    out.AppendNumber(event.at);
    out.Append('}');
  }
  out.Append("]}");
}

// Calls `visit(stack, weight)` for each run of consecutive samples of one
// stack, with the run's summed weight (which fits, as the profile's total does).
template <typename Visit>
void ForEachRun(const Profile& profile, const Visit& visit) {
  for (size_t i = 0; i < profile.samples.size();) {
    StackId stack = profile.samples[i];
    int64_t weight = 0;
    for (; i < profile.samples.size() && profile.samples[i] == stack; ++i) {
      weight += profile.weights[i];
    }
    if (!visit(stack, weight)) return;
  }
}

// A sampled profile with each run of samples of one stack made one sample:
// the same flame graph and the same time order in fewer samples.
void WriteMergedSamples(const Profile& profile, StackWriter& stack_writer, PieceWriter& out) {
  out.Append(",\n\"samples\":[");
  bool first = true;
  ForEachRun(profile, [&](StackId stack, int64_t) {
    if (!first) out.Append(',');
    first = false;
    stack_writer.Write(stack, out);
    return out.ok();
  });
  out.Append("],\n\"weights\":[");
  first = true;
  WeightWriter weight_writer;
  ForEachRun(profile, [&](StackId, int64_t weight) {
    if (!first) out.Append(',');
    first = false;
    weight_writer.Write(weight, out);
    return out.ok();
  });
  out.Append("]}");
}

// A viewer's samples (viewer_samples.h).
void WriteSamples(const ViewerSamples& samples, StackWriter& stack_writer, PieceWriter& out) {
  out.Append(",\n\"samples\":[");
  for (size_t i = 0; i < samples.stacks.size() && out.ok(); ++i) {
    if (i) out.Append(',');
    stack_writer.Write(samples.stacks[i], out);
  }
  out.Append("],\n\"weights\":[");
  WeightWriter weight_writer;
  for (size_t i = 0; i < samples.weights.size() && out.ok(); ++i) {
    if (i) out.Append(',');
    weight_writer.Write(samples.weights[i], out);
  }
  out.Append("]}");
}

void WriteProfile(const Profile& profile, StackWriter& stack_writer, bool merge_consecutive,
                  PieceWriter& out) {
  WriteProfileHeader(profile, out);
  if (IsEvented(profile)) {
    WriteEvents(profile, out);
    return;
  }
  if (merge_consecutive) {
    WriteMergedSamples(profile, stack_writer, out);
    return;
  }
  out.Append(",\n\"samples\":[");
  bool first = true;
  profile.samples.ForEachPage([&](const StackId* samples, size_t count) {
    for (size_t i = 0; i < count && out.ok(); ++i) {
      if (!first) out.Append(',');
      first = false;
      stack_writer.Write(samples[i], out);
    }
  });
  out.Append("],\n\"weights\":[");
  first = true;
  WeightWriter weight_writer;
  profile.weights.ForEachPage([&](const int64_t* weights, size_t count) {
    for (size_t i = 0; i < count && out.ok(); ++i) {
      if (!first) out.Append(',');
      first = false;
      weight_writer.Write(weights[i], out);
    }
  });
  out.Append("]}");
}

// The members before the frames: schema, exporter and name.
void WriteHead(const ProfileGroup& group, PieceWriter& out) {
  out.Append("{\"$schema\":");
  out.Append(DumpJson(kSchemaUrl));
  out.Append(",\"exporter\":");
  out.Append(DumpJson(group.exporter));
  out.Append(",\"name\":");
  out.Append(DumpJson(group.name));
}

void WriteProfiles(const ProfileGroup& group, const std::vector<size_t>& profiles,
                   size_t kept_stack_text_bytes, bool merge_consecutive, PieceWriter& out) {
  out.Append(",\n\"profiles\":[");
  StackWriter stack_writer(group.stacks, group.frames.size(), kept_stack_text_bytes);
  for (size_t i = 0; i < profiles.size() && out.ok(); ++i) {
    out.Append(i ? ",\n" : "\n");
    WriteProfile(group.profiles[profiles[i]], stack_writer, merge_consecutive, out);
  }
  out.Append("\n]");
}

}  // namespace

bool WriteJson(const ProfileGroup& group, const JsonSink& sink, const WriteOptions& options) {
  PieceWriter out(sink);
  WriteHead(group, out);
  out.Append(",\"activeProfileIndex\":");
  out.AppendNumber(group.active_profile_index);
  WriteFrames(group, out);
  std::vector<size_t> all(group.profiles.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  WriteProfiles(group, all, options.kept_stack_text_bytes, options.merge_consecutive, out);
  out.Append("}\n");
  return out.Flush();
}

bool WriteViewerJson(const ProfileGroup& group, const ViewerPlan& plan, const JsonSink& sink) {
  PieceWriter out(sink);
  WriteHead(group, out);
  WriteFrames(group, plan.frames, out);
  std::vector<FrameId> frame_ids(group.frames.size(), 0);
  for (size_t i = 0; i < plan.frames.size(); ++i) {
    frame_ids[plan.frames[i]] = static_cast<FrameId>(i);
  }
  out.Append(",\n\"profiles\":[");
  StackWriter stack_writer(group.stacks, group.frames.size(), kKeptStackTextBytes, &frame_ids);
  for (size_t i = 0; i < plan.profiles.size() && out.ok(); ++i) {
    const Profile& profile = group.profiles[plan.profiles[i]];
    out.Append(i ? ",\n" : "\n");
    WriteProfileHeader(profile, out);
    if (IsEvented(profile)) {
      WriteEvents(profile, out, &frame_ids);
    } else if (plan.samples[i].windows == 0) {
      WriteMergedSamples(profile, stack_writer, out);
    } else {
      WriteSamples(plan.samples[i], stack_writer, out);
    }
  }
  out.Append("\n]");
  return out.Flush();
}

void WriteJson(const ProfileGroup& group, std::ostream& out, const WriteOptions& options) {
  WriteJson(
      group,
      [&out](std::string_view piece) {
        out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
        return static_cast<bool>(out);
      },
      options);
}

}  // namespace instrumentscope::speedscope
