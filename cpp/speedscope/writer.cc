#include "speedscope/writer.h"

#include <charconv>
#include <string>
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

  std::vector<FrameId> leaf_to_root;
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
      leaf_to_root.clear();
      for (StackId stack = profile.samples[i]; stack != kEmptyStack;
           stack = group.stacks.parent[stack]) {
        leaf_to_root.push_back(group.stacks.frame[stack]);
      }
      out.Append(i ? ",[" : "[");
      for (size_t f = leaf_to_root.size(); f-- > 0;) {
        out.AppendNumber(leaf_to_root[f]);
        if (f) out.Append(',');
      }
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
