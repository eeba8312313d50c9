// Writes a ProfileGroup as a speedscope JSON file, streaming: the output goes
// to a sink in pieces of about a megabyte and is never held in memory whole.
// One frame, and one profile header, per line.
#ifndef INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_
#define INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>
#include <vector>

#include "base/piece_writer.h"
#include "model/profile.h"
#include "speedscope/viewer_plan.h"

namespace instrumentscope::speedscope {

// FileFormat.Frame: name, and file and line when known.
nlohmann::json FrameJson(const Frame& frame);
// The same frame written as DumpJson(FrameJson(frame)) gives it, byte for byte.
void WriteFrameJson(const Frame& frame, PieceWriter& out);

// The most the writer keeps of the texts of stacks it has written, to copy
// them when they come again; past it, stacks are put together again each
// time. The largest corpus bundle's 184k sampled stacks take 30 MB.
inline constexpr size_t kKeptStackTextBytes = size_t{64} << 20;

struct WriteOptions {
  // Each run of consecutive samples of one stack as one sample of their summed
  // weight: the same flame graphs and time order in fewer samples, but no
  // longer one sample per sample the recording took.
  bool merge_consecutive = false;
  size_t kept_stack_text_bytes = kKeptStackTextBytes;
};

// Every profile, every sample unless asked. Returns false when the sink stopped it.
bool WriteJson(const ProfileGroup& group, const JsonSink& sink, const WriteOptions& options = {});
void WriteJson(const ProfileGroup& group, std::ostream& out, const WriteOptions& options = {});

// The profiles of `plan` (viewer_plan.h) as a speedscope file for a viewer,
// with the frames they reach alone, renumbered, and the samples the plan
// made. It is left open before its last member: the caller ends it with
// `,"activeProfileIndex":N}`, so that one rendering serves every choice of
// the profile a viewer opens first. Returns false when the sink stopped it.
bool WriteViewerJson(const ProfileGroup& group, const ViewerPlan& plan, const JsonSink& sink);

}  // namespace instrumentscope::speedscope

#endif  // INSTRUMENTSCOPE_SPEEDSCOPE_WRITER_H_
