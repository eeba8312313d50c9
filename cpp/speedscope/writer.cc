#include "speedscope/writer.h"

#include <charconv>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/json.h"
#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
namespace {

// Gathers output into one buffer and hands it to the sink a piece at a time.
// Once the sink says stop, everything else is dropped.
class PieceWriter {
 public:
  explicit PieceWriter(const JsonSink& sink) : sink_(sink) {
    buffer_.reserve(kJsonPieceBytes + kJsonPieceBytes / 8);
  }

  void Append(std::string_view text) { buffer_.append(text); }
  void Append(char c) { buffer_.push_back(c); }
  template <typename Integer>
  void AppendNumber(Integer value) {
    char digits[24];
    auto result = std::to_chars(digits, digits + sizeof(digits), value);
    buffer_.append(digits, result.ptr);
  }
  // Returns false once the sink has stopped the writer.
  bool FlushIfFull() { return buffer_.size() < kJsonPieceBytes ? ok_ : Flush(); }
  bool Flush() {
    if (ok_ && !buffer_.empty()) ok_ = sink_(buffer_);
    buffer_.clear();
    return ok_;
  }

 private:
  const JsonSink& sink_;
  std::string buffer_;
  bool ok_ = true;
};

// The text of sampled stacks ("3,7,12": frame ids, root first), each made
// once: samples repeat a few thousand stacks millions of times. The texts
// kept are bounded; beyond the bound, stacks are written out each time.
class StackTexts {
 public:
  explicit StackTexts(const StackTable& stacks) : stacks_(stacks) {}

  std::string_view Text(StackId stack) {
    auto cached = spans_.find(stack);
    if (cached != spans_.end()) {
      return std::string_view(texts_).substr(cached->second.offset, cached->second.length);
    }
    size_t offset = texts_.size();
    if (offset >= kMaxTextBytes) {
      scratch_.clear();
      Append(stack, &scratch_);
      return scratch_;
    }
    Append(stack, &texts_);
    spans_.emplace(stack, Span{static_cast<uint32_t>(offset),
                               static_cast<uint32_t>(texts_.size() - offset)});
    return std::string_view(texts_).substr(offset);
  }

 private:
  static constexpr size_t kMaxTextBytes = 32 << 20;
  struct Span {
    uint32_t offset;
    uint32_t length;
  };

  void Append(StackId stack, std::string* out) {
    leaf_to_root_.clear();
    for (; stack != kEmptyStack; stack = stacks_.parent[stack]) {
      leaf_to_root_.push_back(stacks_.frame[stack]);
    }
    for (size_t f = leaf_to_root_.size(); f-- > 0;) {
      char digits[12];
      auto result = std::to_chars(digits, digits + sizeof(digits), leaf_to_root_[f]);
      out->append(digits, result.ptr);
      if (f) out->push_back(',');
    }
  }

  const StackTable& stacks_;
  std::unordered_map<StackId, Span> spans_;
  std::string texts_;
  std::string scratch_;
  std::vector<FrameId> leaf_to_root_;
};

}  // namespace

nlohmann::json FrameJson(const Frame& frame) {
  nlohmann::json object = {{"name", frame.name}};
  if (!frame.file.empty()) object["file"] = frame.file;
  if (frame.line) object["line"] = *frame.line;
  return object;
}

bool WriteJson(const ProfileGroup& group, const JsonSink& sink) {
  PieceWriter out(sink);
  out.Append("{\"$schema\":");
  out.Append(DumpJson(kSchemaUrl));
  out.Append(",\"exporter\":");
  out.Append(DumpJson(group.exporter));
  out.Append(",\"name\":");
  out.Append(DumpJson(group.name));
  out.Append(",\"activeProfileIndex\":");
  out.AppendNumber(group.active_profile_index);
  out.Append(",\n\"shared\":{\"frames\":[");
  for (size_t i = 0; i < group.frames.size(); ++i) {
    out.Append(i ? ",\n" : "\n");
    out.Append(DumpJson(FrameJson(group.frames[i])));
    if (!out.FlushIfFull()) return false;
  }
  out.Append("\n]},\n\"profiles\":[");

  StackTexts stack_texts(group.stacks);
  for (size_t p = 0; p < group.profiles.size(); ++p) {
    const Profile& profile = group.profiles[p];
    nlohmann::json header = {{"type", kSampledProfileType},
                             {"name", profile.name},
                             {"unit", UnitName(profile.unit)},
                             {"startValue", profile.start_value},
                             {"endValue", profile.end_value}};
    std::string text = DumpJson(header);
    text.pop_back();  // reopen the object to stream samples and weights into it
    out.Append(p ? ",\n" : "\n");
    out.Append(text);
    out.Append(",\n\"samples\":[");
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      out.Append(i ? ",[" : "[");
      if (profile.samples[i] != kEmptyStack) out.Append(stack_texts.Text(profile.samples[i]));
      out.Append(']');
      if (!out.FlushIfFull()) return false;
    }
    out.Append("],\n\"weights\":[");
    for (size_t i = 0; i < profile.weights.size(); ++i) {
      if (i) out.Append(',');
      out.AppendNumber(profile.weights[i]);
      if (!out.FlushIfFull()) return false;
    }
    out.Append("]}");
  }
  out.Append("\n]}\n");
  return out.Flush();
}

void WriteJson(const ProfileGroup& group, std::ostream& out) {
  WriteJson(group, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    return static_cast<bool>(out);
  });
}

}  // namespace instrumentscope::speedscope
