#include "firefox/layout.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "base/checked_math.h"
#include "base/text.h"
#include "model/view_names.h"

namespace instrumentscope::firefox {
namespace {

bool Timed(const Profile& profile) {
  return profile.unit == ValueUnit::kNanoseconds;
}

// Where a profile's samples or intervals end, nanoseconds after its run started.
int64_t EndOf(const Profile& profile) {
  if (Timed(profile) || profile.kind == ProfileKind::kIntervals) return profile.end_value;
  return static_cast<int64_t>(profile.samples.size()) * kUntimedStep;
}

// Which part of the system a binary is, by where it lies.
Category LibraryCategory(std::string_view path) {
  std::string_view name = BaseName(path);
  if (StartsWith(name, "kernel") || path.find("/System/Library/Kernels/") != path.npos ||
      path.find("/System/Library/Extensions/") != path.npos) {
    return Category::kKernel;
  }
  if (StartsWith(path, "/usr/lib/") || StartsWith(path, "/usr/libexec/") ||
      path.find("/System/Library/") != path.npos || path.find("/usr/lib/") != path.npos ||
      StartsWith(path, "/Library/Apple/") || StartsWith(name, "libsystem_") || name == "dyld" ||
      StartsWith(name, "libdispatch") || StartsWith(name, "libobjc")) {
    return Category::kSystem;
  }
  return Category::kUser;
}

std::string BreakpadId(const ImageUuid& uuid) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string id;
  for (uint8_t byte : uuid) {
    id.push_back(kHex[byte >> 4]);
    id.push_back(kHex[byte & 15]);
  }
  id.push_back('0');  // the age, always 0 for Mach-O
  return id;
}

void LayOutLibraries(const ProfileGroup& group, FirefoxLayout* layout) {
  std::unordered_map<std::string_view, const CodeImage*> images;
  for (const CodeImage& image : group.images) images.emplace(image.path, &image);
  std::unordered_map<std::string_view, uint32_t> index;
  layout->frame_library.assign(group.frames.size(), kNoLibrary);
  layout->frame_category.assign(group.frames.size(), Category::kOther);
  for (size_t f = 0; f < group.frames.size(); ++f) {
    const Frame& frame = group.frames[f];
    std::string_view path = frame.library;
    if (frame.image != kNoImage) path = group.images[frame.image].path;
    if (path.empty()) continue;
    auto [entry, inserted] = index.try_emplace(path, static_cast<uint32_t>(index.size()));
    if (inserted) {
      LibraryLayout library;
      library.path = std::string(path);
      library.name = std::string(BaseName(path));
      if (auto image = images.find(path); image != images.end()) {
        library.arch = image->second->arch;
        if (image->second->uuid) library.breakpad_id = BreakpadId(*image->second->uuid);
        library.load_address = image->second->load_address;
      }
      layout->libraries.push_back(std::move(library));
    }
    layout->frame_library[f] = entry->second;
    layout->frame_category[f] = LibraryCategory(path);
  }
}

void LayOutRuns(const ProfileGroup& group, FirefoxLayout* layout) {
  std::map<uint32_t, int64_t> run_end;
  for (const Profile& profile : group.profiles) {
    int64_t& end = run_end[profile.run];
    end = std::max(end, EndOf(profile));
  }
  // Heap events are instants: their run lasts a step past the last.
  for (const HeapEvents& heap : group.heaps) {
    if (heap.events.empty()) continue;
    int64_t& end = run_end[heap.run];
    end = std::max(end, SaturatingAdd(heap.events.back().time, kUntimedStep));
  }
  uint32_t last_run = run_end.empty() ? 1 : run_end.rbegin()->first;
  layout->first_run = run_end.empty() ? 1 : run_end.begin()->first;
  layout->run_offsets.assign(last_run + 1, 0);
  int64_t offset = 0;
  for (uint32_t run = 1; run <= last_run; ++run) {
    layout->run_offsets[run] = offset;
    auto end = run_end.find(run);
    if (end != run_end.end()) offset = SaturatingAdd(offset, end->second);
  }
  layout->end = offset;
}

std::string PidText(int64_t pid, uint32_t run, bool several_runs) {
  std::string text = pid >= 0 ? std::to_string(pid) : "unknown";
  if (several_runs) text += " (run " + std::to_string(run) + ")";
  return text;
}

bool IsMainThreadName(std::string_view name) {
  return StartsWith(name, "Main Thread");
}

// Numbers for tids no other thread has; strings that tell the others apart.
void NameTids(FirefoxLayout* layout) {
  std::map<uint64_t, size_t> uses;
  for (const ThreadLayout& thread : layout->threads) ++uses[thread.tid];
  std::set<std::string> taken;
  for (ThreadLayout& thread : layout->threads) {
    if (uses[thread.tid] == 1) continue;
    std::string text = std::to_string(thread.tid) + " " + thread.name + " " + thread.pid;
    for (uint32_t n = 2; !taken.insert(text).second; ++n) {
      text = std::to_string(thread.tid) + " " + thread.name + " " + thread.pid + " #" +
             std::to_string(n);
    }
    thread.tid_text = std::move(text);
  }
}

// The heap events an allocation profile sums, if the group has them.
std::optional<size_t> HeapOf(const ProfileGroup& group, const Profile& profile) {
  if (profile.kind != ProfileKind::kAllocations && profile.kind != ProfileKind::kVmRegions) {
    return std::nullopt;
  }
  HeapKind kind =
      profile.kind == ProfileKind::kAllocations ? HeapKind::kMalloc : HeapKind::kVmRegions;
  for (size_t h = 0; h < group.heaps.size(); ++h) {
    const HeapEvents& heap = group.heaps[h];
    if (heap.run == profile.run && heap.pid == profile.pid && heap.kind == kind) return h;
  }
  return std::nullopt;
}

const char* HeapName(HeapKind kind) {
  return kind == HeapKind::kMalloc ? "heap allocations" : "VM regions";
}

void LayOutThreads(const ProfileGroup& group, bool several_runs, FirefoxLayout* layout) {
  std::set<size_t> heaps_laid_out;
  for (size_t p = 0; p < group.profiles.size(); ++p) {
    const Profile& profile = group.profiles[p];
    if (!IsFirefoxThread(profile)) continue;
    ThreadLayout thread;
    // An Allocations recording's profiles of one process and kind are one
    // thread of its heap events, where the first of them is.
    std::optional<size_t> heap = HeapOf(group, profile);
    if (heap && !heaps_laid_out.insert(*heap).second) continue;
    std::vector<std::string> parts = {profile.thread_label};
    if (heap) {
      thread.heap = heap;
      parts.push_back(HeapName(group.heaps[*heap].kind));
    } else {
      thread.profile = p;
      if (profile.kind != ProfileKind::kThread) parts.push_back(profile.weighs);
    }
    thread.name = JoinName(parts);
    thread.process_name =
        profile.process_name.empty() ? profile.process_label : profile.process_name;
    thread.pid = PidText(profile.pid, profile.run, several_runs);
    thread.tid = profile.tid;
    thread.main_thread =
        profile.kind == ProfileKind::kThread && IsMainThreadName(profile.thread_name);
    thread.run = profile.run;
    if (p == group.active_profile_index ||
        (heap && HeapOf(group, group.profiles[group.active_profile_index]) == heap)) {
      layout->selected_thread = layout->threads.size();
    }
    layout->threads.push_back(std::move(thread));
  }
}

// The thread that shows a source's markers: for a thread's source (its
// states, its run loop) that thread, its CPU samples else its other events;
// else its process's main thread, else its process's first CPU thread, else
// a thread of markers alone made for it.
size_t MarkerThread(const ProfileGroup& group, const IntervalSource& source, bool several_runs,
                    FirefoxLayout* layout) {
  std::string pid = PidText(source.pid, source.run, several_runs);
  std::optional<size_t> own_events;
  std::optional<size_t> main;
  std::optional<size_t> first;
  for (size_t t = 0; t < layout->threads.size(); ++t) {
    const ThreadLayout& thread = layout->threads[t];
    if (thread.pid != pid || thread.run != source.run) continue;
    bool cpu = thread.profile && group.profiles[*thread.profile].kind == ProfileKind::kThread;
    bool own = thread.profile && source.tid && thread.tid == *source.tid;
    if (own && cpu) return t;
    if (own && !own_events) own_events = t;
    // Threads of markers alone are main threads: they stand for their process.
    if (thread.main_thread && !main) main = t;
    if (cpu && !first) first = t;
  }
  for (std::optional<size_t> chosen : {own_events, main, first}) {
    if (chosen) return *chosen;
  }
  ThreadLayout thread;
  thread.name = "Intervals";
  thread.process_name =
      source.process_name.empty()
          ? (source.process_label.empty() ? kUnnamedProcess : source.process_label)
          : source.process_name;
  thread.pid = pid;
  thread.tid = 0;
  thread.main_thread = true;
  thread.run = source.run;
  layout->threads.push_back(std::move(thread));
  return layout->threads.size() - 1;
}

// Pairs each interval profile's opens and closes (properly nested) into markers.
void LayOutMarkers(const ProfileGroup& group, bool several_runs, FirefoxLayout* layout) {
  std::map<std::string, uint32_t> schema_of_table;
  std::vector<size_t> thread_of_source(group.interval_sources.size(), SIZE_MAX);
  for (const Profile& profile : group.profiles) {
    if (profile.kind != ProfileKind::kIntervals) continue;
    uint32_t s = profile.interval_source;
    const IntervalSource& source = group.interval_sources[s];
    if (thread_of_source[s] == SIZE_MAX) {
      thread_of_source[s] = MarkerThread(group, source, several_runs, layout);
    }
    auto [schema, added] =
        schema_of_table.try_emplace(source.table, static_cast<uint32_t>(layout->schemas.size()));
    if (added) layout->schemas.push_back({source.table});
    std::vector<const IntervalEvent*> open;
    std::vector<Marker>& markers = layout->threads[thread_of_source[s]].markers;
    for (const IntervalEvent& event : profile.events) {
      if (event.open) {
        open.push_back(&event);
        continue;
      }
      if (open.empty()) continue;  // nested by construction (intervals.cc)
      const IntervalEvent& begun = *open.back();
      open.pop_back();
      markers.push_back(
          {begun.at, event.at, begun.frame, begun.name, s, schema->second, begun.detail});
      if (begun.detail != 0) layout->schemas[schema->second].details = true;
    }
  }
  for (ThreadLayout& thread : layout->threads) {
    std::stable_sort(thread.markers.begin(), thread.markers.end(),
                     [](const Marker& a, const Marker& b) { return a.start < b.start; });
  }
}

void ChooseVisibleThreads(const ProfileGroup& group, FirefoxLayout* layout) {
  uint64_t busiest = 0;
  for (const ThreadLayout& thread : layout->threads) {
    if (thread.profile) busiest = std::max(busiest, group.profiles[*thread.profile].sample_count);
  }
  for (size_t t = 0; t < layout->threads.size(); ++t) {
    const ThreadLayout& thread = layout->threads[t];
    uint64_t samples = thread.profile ? group.profiles[*thread.profile].sample_count : 0;
    if (!thread.markers.empty() || thread.heap || (samples > 0 && samples * 20 >= busiest) ||
        t == layout->selected_thread) {
      layout->visible_threads.push_back(t);
    }
  }
}

}  // namespace

bool IsFirefoxThread(const Profile& profile) {
  return !IsView(profile.kind) && profile.kind != ProfileKind::kIntervals;
}

FirefoxLayout LayOut(const ProfileGroup& group) {
  FirefoxLayout layout;
  std::set<uint32_t> runs;
  for (const Profile& profile : group.profiles) runs.insert(profile.run);
  bool several_runs = runs.size() > 1;
  LayOutLibraries(group, &layout);
  LayOutRuns(group, &layout);
  LayOutThreads(group, several_runs, &layout);
  LayOutMarkers(group, several_runs, &layout);
  NameTids(&layout);
  ChooseVisibleThreads(group, &layout);
  return layout;
}

}  // namespace instrumentscope::firefox
