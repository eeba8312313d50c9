// Writes a ProfileGroup as a speedscope JSON file, streaming: the output is
// never held in memory whole. One frame, and one profile header, per line.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_

#include <nlohmann/json.hpp>
#include <ostream>

#include "model/profile.h"

namespace instrumentscope::speedscope {

// FileFormat.Frame: name, and file and line when known.
nlohmann::json FrameJson(const Frame& frame);

void WriteJson(const ProfileGroup& group, std::ostream& out);

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_
