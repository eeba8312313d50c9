#include "speedscope/writer.h"

#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/integer_map.h"
#include "base/json.h"
#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
namespace {

// Gathers output into one buffer and hands it to the sink a piece at a time.
// Once the sink says stop, everything else is dropped.
class PieceWriter {
 public:
  explicit PieceWriter(const JsonSink& sink) : sink_(sink), buffer_(new char[kJsonPieceBytes]) {}

  void Append(std::string_view text) {
    if (text.size() > kJsonPieceBytes - used_) {
      Flush();
      if (text.size() > kJsonPieceBytes) {  // a huge frame name: handed over whole
        ok_ = ok_ && sink_(text);
        return;
      }
    }
    std::memcpy(buffer_.get() + used_, text.data(), text.size());
    used_ += text.size();
  }
  void Append(char c) {
    if (used_ == kJsonPieceBytes) Flush();
    buffer_[used_++] = c;
  }
  template <typename Integer>
  void AppendNumber(Integer value) {
    if (kJsonPieceBytes - used_ < kMaxDigits) Flush();
    char* end = std::to_chars(buffer_.get() + used_, buffer_.get() + kJsonPieceBytes, value).ptr;
    used_ = static_cast<size_t>(end - buffer_.get());
  }
  bool ok() const { return ok_; }
  bool Flush() {
    if (ok_ && used_ > 0) ok_ = sink_(std::string_view(buffer_.get(), used_));
    used_ = 0;
    return ok_;
  }

 private:
  static constexpr size_t kMaxDigits = 20;  // of a 64-bit integer with its sign
  const JsonSink& sink_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
  bool ok_ = true;
};

// Writes sampled stacks as their frame ids, root first ("3,7,12"). Samples
// repeat a few thousand stacks millions of times, so the text of each is
// kept once made, up to a bound; beyond it stacks are written out each time.
class StackWriter {
 public:
  explicit StackWriter(const StackTable& stacks) : stacks_(stacks) {}

  void Write(StackId stack, PieceWriter& out) {
    uint32_t known = spans_.Find(stack);
    if (known != IntegerMap::kNoValue) {
      out.Append(TextOf(spans_list_[known]));
      return;
    }
    leaf_to_root_.clear();
    for (StackId node = stack; node != kEmptyStack; node = stacks_.parent[node]) {
      leaf_to_root_.push_back(stacks_.frame[node]);
    }
    std::optional<Span> kept = Keep();
    if (!kept) {
      for (size_t f = leaf_to_root_.size(); f-- > 0;) {
        out.AppendNumber(leaf_to_root_[f]);
        if (f) out.Append(',');
      }
      return;
    }
    spans_.Insert(stack, static_cast<uint32_t>(spans_list_.size()));
    spans_list_.push_back(*kept);
    out.Append(TextOf(*kept));
  }

 private:
  static constexpr size_t kBlockBytes = 1 << 20;
  static constexpr size_t kMaxBlocks = 16;
  struct Span {
    uint32_t block;
    uint32_t offset;
    uint32_t length;
  };

  std::string_view TextOf(const Span& span) const {
    return std::string_view(blocks_[span.block].get() + span.offset, span.length);
  }

  // Formats leaf_to_root_ into the kept texts; nullopt once they are full.
  std::optional<Span> Keep() {
    size_t longest = leaf_to_root_.size() * 11;  // ten digits and a comma per frame
    if (longest > kBlockBytes) return std::nullopt;
    if (blocks_.empty() || kBlockBytes - block_used_ < longest) {
      if (blocks_.size() == kMaxBlocks) return std::nullopt;
      blocks_.emplace_back(new char[kBlockBytes]);
      block_used_ = 0;
    }
    char* start = blocks_.back().get() + block_used_;
    char* end = start;
    for (size_t f = leaf_to_root_.size(); f-- > 0;) {
      end = std::to_chars(end, start + longest, leaf_to_root_[f]).ptr;
      if (f) *end++ = ',';
    }
    Span span{static_cast<uint32_t>(blocks_.size() - 1), static_cast<uint32_t>(block_used_),
              static_cast<uint32_t>(end - start)};
    block_used_ += span.length;
    return span;
  }

  const StackTable& stacks_;
  IntegerMap spans_;  // stack → index in spans_list_
  std::vector<Span> spans_list_;
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  std::vector<FrameId> leaf_to_root_;
};

}  // namespace

nlohmann::json FrameJson(const Frame& frame) {
  nlohmann::json object = {{"name", frame.name}};
  if (!frame.file.empty()) object["file"] = frame.file;
  if (frame.line) object["line"] = *frame.line;
  return object;
}

namespace {

void WriteFrames(const ProfileGroup& group, PieceWriter& out) {
  out.Append(",\n\"shared\":{\"frames\":[");
  for (size_t i = 0; i < group.frames.size() && out.ok(); ++i) {
    out.Append(i ? ",\n" : "\n");
    out.Append(DumpJson(FrameJson(group.frames[i])));
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

void WriteEvents(const Profile& profile, PieceWriter& out) {
  out.Append(",\n\"events\":[");
  for (size_t i = 0; i < profile.events.size() && out.ok(); ++i) {
    const IntervalEvent& event = profile.events[i];
    out.Append(i ? ",\n{\"type\":\"" : "\n{\"type\":\"");
    out.Append(event.open ? 'O' : 'C');
    out.Append("\",\"frame\":");
    out.AppendNumber(event.frame);
    out.Append(",\"at\":");
    out.AppendNumber(event.at);
    out.Append('}');
  }
  out.Append("]}");
}

void WriteProfile(const Profile& profile, StackWriter& stack_writer, PieceWriter& out) {
  WriteProfileHeader(profile, out);
  if (IsEvented(profile)) {
    WriteEvents(profile, out);
    return;
  }
  out.Append(",\n\"samples\":[");
  for (size_t i = 0; i < profile.samples.size() && out.ok(); ++i) {
    out.Append(i ? ",[" : "[");
    if (profile.samples[i] != kEmptyStack) stack_writer.Write(profile.samples[i], out);
    out.Append(']');
  }
  out.Append("],\n\"weights\":[");
  for (size_t i = 0; i < profile.weights.size() && out.ok(); ++i) {
    if (i) out.Append(',');
    out.AppendNumber(profile.weights[i]);
  }
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
                   PieceWriter& out) {
  out.Append(",\n\"profiles\":[");
  StackWriter stack_writer(group.stacks);
  for (size_t i = 0; i < profiles.size() && out.ok(); ++i) {
    out.Append(i ? ",\n" : "\n");
    WriteProfile(group.profiles[profiles[i]], stack_writer, out);
  }
  out.Append("\n]");
}

}  // namespace

bool WriteJson(const ProfileGroup& group, const JsonSink& sink) {
  PieceWriter out(sink);
  WriteHead(group, out);
  out.Append(",\"activeProfileIndex\":");
  out.AppendNumber(group.active_profile_index);
  WriteFrames(group, out);
  std::vector<size_t> all(group.profiles.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  WriteProfiles(group, all, out);
  out.Append("}\n");
  return out.Flush();
}

bool WriteOpenJson(const ProfileGroup& group, const std::vector<size_t>& profiles,
                   const JsonSink& sink) {
  PieceWriter out(sink);
  WriteHead(group, out);
  WriteFrames(group, out);
  WriteProfiles(group, profiles, out);
  return out.Flush();
}

void WriteJson(const ProfileGroup& group, std::ostream& out) {
  WriteJson(group, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    return static_cast<bool>(out);
  });
}

}  // namespace instrumentscope::speedscope
