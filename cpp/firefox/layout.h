// What a ProfileGroup becomes in the Firefox Profiler, before a byte is
// written: which profiles are threads, where each run lies on the one
// timeline, which thread shows each interval as a marker, the libraries the
// frames lie in and the marker schemas. Views (a process's threads together,
// thread pools, samples during intervals) are not threads: the profiler makes
// them itself from the threads and markers.
#ifndef INSTRUMENTSCOPE_FIREFOX_LAYOUT_H_
#define INSTRUMENTSCOPE_FIREFOX_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firefox/processed_format.h"
#include "model/profile.h"

namespace instrumentscope::firefox {

// One interval of an interval profile, as a marker.
struct Marker {
  int64_t start;  // nanoseconds since its run started
  int64_t end;
  FrameId label;    // its frame: "Load feed — id 0x1a: 3 items"
  uint32_t name;    // in ProfileGroup::interval_names
  uint32_t source;  // in ProfileGroup::interval_sources
  uint32_t schema;  // in FirefoxLayout::schemas
  uint32_t detail;  // in ProfileGroup::interval_details; 0 for none
};

struct ThreadLayout {
  // The profile whose samples it holds; none for a thread of markers alone
  // (a process whose intervals no sampled thread of it can show) or of heap
  // events.
  std::optional<size_t> profile;
  // The heap events it holds as native allocations (ProfileGroup::heaps), in
  // place of the allocation profiles made of them.
  std::optional<size_t> heap;
  std::string name;
  std::string process_name;
  std::string pid;  // the format's pids are strings; "83138", or "83138 (run 2)"
  // Its tid as a number when no other thread has it, else as a string that
  // says which of them it is ("4 time in system calls").
  uint64_t tid = 0;
  std::string tid_text;
  bool main_thread = false;
  uint32_t run = 1;
  std::vector<Marker> markers;  // by start
};

struct LibraryLayout {
  std::string name;  // the binary's file name
  std::string path;
  std::string arch;
  std::string breakpad_id;  // its UUID, 32 hex digits and the age "0"; else empty
  std::optional<uint64_t> load_address;
};

struct SchemaLayout {
  std::string table;     // the Instruments table its intervals come from: its name
  bool details = false;  // whether some of its markers have a detail (a message, a note)
};

struct FirefoxLayout {
  std::vector<ThreadLayout> threads;
  // Where each run starts on the timeline, in nanoseconds: runs are laid one
  // after another, as the format has one timeline. By run number.
  std::vector<int64_t> run_offsets;
  std::vector<LibraryLayout> libraries;
  std::vector<uint32_t> frame_library;  // by frame: index in libraries, or kNoLibrary
  std::vector<Category> frame_category;
  std::vector<SchemaLayout> schemas;
  std::optional<size_t> selected_thread;  // the group's active profile's
  // The threads the timeline shows at first: those with markers, and those
  // of at least 1/20 of the busiest thread's samples (the others are one
  // click away). The profiler would hide threads of markers alone.
  std::vector<size_t> visible_threads;
  int64_t end = 0;         // of the last run, nanoseconds
  uint32_t first_run = 1;  // the run at the timeline's start
};
inline constexpr uint32_t kNoLibrary = UINT32_MAX;

// Profiles without times (a Deep Copy's call tree, allocations) are laid out
// a sample per millisecond, in the order the input has them.
inline constexpr int64_t kUntimedStep = 1000000;

// Whether a profile is a thread in the Firefox Profiler's file.
bool IsFirefoxThread(const Profile& profile);

FirefoxLayout LayOut(const ProfileGroup& group);

}  // namespace instrumentscope::firefox

#endif  // INSTRUMENTSCOPE_FIREFOX_LAYOUT_H_
