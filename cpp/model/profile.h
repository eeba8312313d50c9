// The plain data every importer produces and every writer consumes: interned
// frames, a stack table (each stack is a parent stack plus one frame), and one
// sampled profile per thread whose samples are stack ids in time order.
#ifndef INSTRUMENTSCOPE_MODEL_PROFILE_H_
#define INSTRUMENTSCOPE_MODEL_PROFILE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/paged_vector.h"

namespace instrumentscope {

using FrameId = uint32_t;
using StackId = uint32_t;
// The stack of a sample with no frames: idle gaps and rows without a backtrace.
inline constexpr StackId kEmptyStack = UINT32_MAX;

using ImageId = uint32_t;
inline constexpr ImageId kNoImage = UINT32_MAX;
using ImageUuid = std::array<uint8_t, 16>;

// A binary the input places unnamed frames in: what symbolication needs to
// match it with the user's own binaries and dSYMs.
struct CodeImage {
  std::string path;  // its path, else its name
  std::string arch;  // "arm64e", when the input says
  std::optional<ImageUuid> uuid;
  std::optional<uint64_t> load_address;  // where its __TEXT was in memory
};

struct Frame {
  std::string name;
  std::string file;  // source file, else the binary's path; may be empty
  std::optional<uint32_t> line;
  // Only on frames the input left unnamed: the address as recorded (a return
  // address for callers) and, when the input says, the image it lies in.
  std::optional<uint64_t> address;
  ImageId image = kNoImage;
};

// Stack `s` is stack `parent[s]` (or kEmptyStack) with `frame[s]` on top, so a
// parent id is always smaller than its child's.
struct StackTable {
  std::vector<StackId> parent;
  std::vector<FrameId> frame;
  size_t size() const { return frame.size(); }
};

// Units of the speedscope file format that the importers produce.
enum class ValueUnit : uint8_t { kNone, kNanoseconds, kBytes };

struct Profile {
  std::string name;  // "Main Thread 0x9db2dc — proc (pid 83138)"
  ValueUnit unit = ValueUnit::kNanoseconds;
  int64_t start_value = 0;
  int64_t end_value = 0;
  // Paged: a long recording's samples never need one contiguous block.
  PagedVector<StackId> samples;  // time order; gaps are kEmptyStack
  PagedVector<int64_t> weights;  // same length as samples

  // Where the samples came from, for listings and pickers.
  std::string thread_name;  // "Main Thread 0x9db2dc"
  uint64_t tid = 0;
  std::string process_name;
  int64_t pid = -1;  // -1 when the input names no process
  // The labels every listing shows, made here once: "proc (pid 83138)",
  // "pid 83138", "proc" or "unnamed process"; the thread's name or
  // "unnamed thread".
  std::string process_label;
  std::string thread_label;
  uint32_t run = 1;
  std::string table;          // schema, e.g. "time-profile"
  uint64_t sample_count = 0;  // recorded samples, gaps excluded
  int64_t sample_weight = 0;  // their total weight, gaps excluded
};

// A table seen in the input, whether or not it held CPU samples.
struct TableSummary {
  uint32_t run = 1;
  std::string schema;
  uint64_t rows = 0;
  bool has_cpu_samples = false;
};

struct Warning {
  std::string code;
  std::string message;
};

// What symbolication from the user's files did.
struct SymbolicationReport {
  uint64_t unnamed_frames = 0;          // frames the input left unnamed
  uint64_t named_frames = 0;            // of them, named from the user's files
  std::vector<std::string> files_used;  // "App.dSYM/Contents/Resources/DWARF/App (arm64)"
  // Why frames of an image (kNoImage: bare addresses) stayed unnamed:
  // "no binary or dSYM given matches it", …
  std::map<ImageId, std::string> unnamed_because;
};

// Frames left unnamed in one image, among the frames samples reach.
struct UnnamedImage {
  ImageId image = kNoImage;  // in ProfileGroup::images; kNoImage: frames in no known image
  uint64_t frames = 0;       // distinct unnamed frames
  uint64_t samples = 0;      // samples whose stacks pass through one of them
};

// How many of the frames samples reach have names, after symbolication.
struct NamingReport {
  uint64_t sampled_frames = 0;       // distinct frames the samples reach
  uint64_t unnamed_frames = 0;       // of them, left unnamed (an address, "image+0x…")
  std::vector<UnnamedImage> images;  // most samples first
};

struct ProfileGroup {
  std::string name;      // the input's file name
  std::string exporter;  // "instrumentscope@<version>"
  std::vector<Frame> frames;
  std::vector<CodeImage> images;  // of unnamed frames
  StackTable stacks;
  std::vector<Profile> profiles;
  size_t active_profile_index = 0;  // the busiest thread
  std::vector<TableSummary> tables;
  std::vector<std::string> instruments;  // "Time Profiler", … (bundles only)
  std::vector<Warning> warnings;
  std::optional<SymbolicationReport> symbolication;  // when symbol files were given
  NamingReport naming;
};
}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_PROFILE_H_
