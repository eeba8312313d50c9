#include "speedscope/writer.h"

#include <vector>

#include "base/json.h"
#include "speedscope/file_format.h"

namespace instrumentscope::speedscope {
nlohmann::json FrameJson(const Frame& frame) {
  nlohmann::json object = {{"name", frame.name}};
  if (!frame.file.empty()) object["file"] = frame.file;
  if (frame.line) object["line"] = *frame.line;
  return object;
}

void WriteJson(const ProfileGroup& group, std::ostream& out) {
  out << "{\"$schema\":" << DumpJson(kSchemaUrl) << ",\"exporter\":" << DumpJson(group.exporter)
      << ",\"name\":" << DumpJson(group.name)
      << ",\"activeProfileIndex\":" << group.active_profile_index << ",\n\"shared\":{\"frames\":[";
  for (size_t i = 0; i < group.frames.size(); ++i) {
    out << (i ? ",\n" : "\n") << DumpJson(FrameJson(group.frames[i]));
  }
  out << "\n]},\n\"profiles\":[";

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
    out << (p ? ",\n" : "\n") << text << ",\n\"samples\":[";
    for (size_t i = 0; i < profile.samples.size(); ++i) {
      leaf_to_root.clear();
      for (StackId stack = profile.samples[i]; stack != kEmptyStack;
           stack = group.stacks.parent[stack]) {
        leaf_to_root.push_back(group.stacks.frame[stack]);
      }
      out << (i ? ",[" : "[");
      for (size_t f = leaf_to_root.size(); f-- > 0;) {
        out << leaf_to_root[f] << (f ? "," : "");
      }
      out << ']';
    }
    out << "],\n\"weights\":[";
    for (size_t i = 0; i < profile.weights.size(); ++i) {
      out << (i ? "," : "") << profile.weights[i];
    }
    out << "]}";
  }
  out << "\n]}\n";
}

}  // namespace instrumentscope::speedscope
