#include "firefox/writer.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/checked_math.h"
#include "base/json.h"
#include "firefox/layout.h"
#include "firefox/meta.h"
#include "firefox/processed_format.h"

namespace instrumentscope::firefox {
namespace {

// The format's one table of strings, which every other table points into.
class StringTable {
 public:
  uint32_t Index(std::string_view text) {
    auto [entry, inserted] = index_.try_emplace(std::string(text), 0);
    if (inserted) {
      entry->second = static_cast<uint32_t>(strings_.size());
      strings_.push_back(&entry->first);
    }
    return entry->second;
  }
  const std::vector<const std::string*>& strings() const { return strings_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<const std::string*> strings_;  // into index_'s keys, which stay put
};

// Nanoseconds as milliseconds, exactly: "1", "0.25", "-3.000001".
void AppendMilliseconds(int64_t nanoseconds, PieceWriter& out) {
  if (nanoseconds < 0) out.Append('-');
  uint64_t magnitude =
      nanoseconds < 0 ? uint64_t{0} - static_cast<uint64_t>(nanoseconds) : nanoseconds;
  out.AppendNumber(magnitude / 1000000);
  uint32_t fraction = static_cast<uint32_t>(magnitude % 1000000);
  if (fraction == 0) return;
  char digits[7] = {'.'};
  for (int i = 6; i >= 1; --i, fraction /= 10) digits[i] = static_cast<char>('0' + fraction % 10);
  size_t length = 7;
  while (digits[length - 1] == '0') --length;
  out.Append(std::string_view(digits, length));
}

class ProcessedWriter {
 public:
  ProcessedWriter(const ProfileGroup& group, const JsonSink& sink)
      : group_(group), layout_(LayOut(group)), out_(sink) {}

  bool Write() {
    out_.Append("{\"meta\":");
    WriteMeta();
    out_.Append(",\n\"libs\":[");
    WriteLibraries();
    out_.Append("],\n\"threads\":[");
    for (size_t t = 0; t < layout_.threads.size() && out_.ok(); ++t) {
      out_.Append(t ? ",\n" : "\n");
      WriteThread(layout_.threads[t]);
    }
    if (layout_.threads.empty()) WriteEmptyThread();
    out_.Append("],\n\"pages\":[],\"counters\":[],\n\"shared\":{");
    WriteStackTable();
    WriteFrameTable();
    WriteFuncTable();
    WriteResourceTable();
    out_.Append(",\n\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],");
    out_.Append("\"functionSize\":[],\"length\":0}");
    WriteSources();
    out_.Append(
        ",\n\"sourceLocationTable\":{\"source\":[],\"line\":[],\"column\":[],\"length\":0}");
    WriteStrings();
    out_.Append("}}\n");
    return out_.Flush();
  }

 private:
  void Key(std::string_view key) {
    out_.Append(",\"");
    out_.Append(key);
    out_.Append("\":");
  }
  void Text(std::string_view text) { out_.AppendJsonString(text); }

  // A column of `count` values, "key":[v0,v1,…], each written by `value(i)`.
  template <typename Value>
  void Column(std::string_view key, size_t count, const Value& value, bool first = false) {
    if (!first) out_.Append(',');
    out_.Append('"');
    out_.Append(key);
    out_.Append("\":[");
    for (size_t i = 0; i < count && out_.ok(); ++i) {
      if (i) out_.Append(',');
      value(i);
    }
    out_.Append(']');
  }
  // A column whose every value is the same text.
  void ConstantColumn(std::string_view key, size_t count, std::string_view value,
                      bool first = false) {
    Column(
        key, count, [&](size_t) { out_.Append(value); }, first);
  }
  void Length(size_t count) {
    out_.Append(",\"length\":");
    out_.AppendNumber(count);
    out_.Append('}');
  }

  void WriteMeta() { out_.Append(DumpJson(MetaJson(group_, layout_))); }

  void WriteLibraries() {
    for (size_t i = 0; i < layout_.libraries.size() && out_.ok(); ++i) {
      const LibraryLayout& library = layout_.libraries[i];
      nlohmann::json lib = {{"arch", library.arch},      {"name", library.name},
                            {"path", library.path},      {"debugName", library.name},
                            {"debugPath", library.path}, {"breakpadId", library.breakpad_id},
                            {"codeId", nullptr}};
      out_.Append(i ? ",\n" : "\n");
      out_.Append(DumpJson(lib));
    }
  }

  void WriteThreadHead(const ThreadLayout& thread, int64_t registered) {
    int64_t run_start = layout_.run_offsets[thread.run];
    out_.Append("{\"processType\":\"default\",\"processStartupTime\":");
    AppendMilliseconds(run_start, out_);
    out_.Append(",\"processShutdownTime\":null,\"registerTime\":");
    AppendMilliseconds(registered, out_);
    out_.Append(",\"unregisterTime\":null,\"pausedRanges\":[]");
    Key("name");
    Text(thread.name);
    Key("isMainThread");
    out_.Append(thread.main_thread ? "true" : "false");
    Key("pid");
    Text(thread.pid);
    Key("tid");
    if (thread.tid_text.empty()) {
      out_.AppendNumber(thread.tid);
    } else {
      Text(thread.tid_text);
    }
    Key("processName");
    Text(thread.process_name);
    out_.Append(",\"showMarkersInTimeline\":true");
  }

  void WriteThread(const ThreadLayout& thread) {
    int64_t run_start = layout_.run_offsets[thread.run];
    const Profile* profile = thread.profile ? &group_.profiles[*thread.profile] : nullptr;
    int64_t first = SaturatingAdd(
        run_start, profile && profile->unit == ValueUnit::kNanoseconds ? profile->start_value : 0);
    WriteThreadHead(thread, first);
    out_.Append(",\n\"samples\":{");
    if (profile) {
      WriteSamples(*profile, first);
    } else {
      out_.Append("\"stack\":[],\"timeDeltas\":[],\"weight\":null,\"weightType\":\"samples\"");
      Length(0);
    }
    out_.Append(",\n\"markers\":{");
    WriteMarkers(thread);
    if (thread.heap) {
      out_.Append(",\n\"nativeAllocations\":{");
      WriteHeap(group_.heaps[*thread.heap], run_start);
    }
    out_.Append('}');
  }

  // Allocations and frees (negative weights) by address: what the profiler's
  // "retained memory" matches up.
  void WriteHeap(const HeapEvents& heap, int64_t run_start) {
    const PagedVector<HeapEvent>& events = heap.events;
    Column(
        "time", events.size(),
        [&](size_t i) { AppendMilliseconds(SaturatingAdd(run_start, events[i].time), out_); },
        true);
    Column("weight", events.size(), [&](size_t i) { out_.AppendNumber(events[i].bytes); });
    Key("weightType");
    Text(kWeightBytes);
    Column("stack", events.size(), [&](size_t i) {
      if (events[i].stack == kEmptyStack) {
        out_.Append("null");
      } else {
        out_.AppendNumber(events[i].stack);
      }
    });
    Column("memoryAddress", events.size(), [&](size_t i) { out_.AppendNumber(events[i].address); });
    Column("threadId", events.size(), [&](size_t i) { out_.AppendNumber(events[i].tid); });
    Length(events.size());
  }

  void WriteEmptyThread() {
    ThreadLayout thread;
    thread.name = group_.name;
    thread.process_name = group_.name;
    thread.pid = "unknown";
    thread.main_thread = true;
    WriteThread(thread);
  }

  void WriteSamples(const Profile& profile, int64_t first) {
    size_t count = profile.samples.size();
    Column(
        "stack", count,
        [&](size_t i) {
          StackId stack = profile.samples[i];
          if (stack == kEmptyStack) {
            out_.Append("null");
          } else {
            out_.AppendNumber(stack);
          }
        },
        true);
    bool timed = profile.unit == ValueUnit::kNanoseconds;
    Column("timeDeltas", count, [&](size_t i) {
      if (i == 0) {
        AppendMilliseconds(first, out_);
      } else {
        AppendMilliseconds(timed ? profile.weights[i - 1] : kUntimedStep, out_);
      }
    });
    Column("weight", count, [&](size_t i) {
      if (timed) {
        AppendMilliseconds(profile.weights[i], out_);
      } else {
        out_.AppendNumber(profile.weights[i]);
      }
    });
    Key("weightType");
    Text(timed                               ? kWeightTracingMs
         : profile.unit == ValueUnit::kBytes ? kWeightBytes
                                             : kWeightSamples);
    Length(count);
  }

  void WriteMarkers(const ThreadLayout& thread) {
    const std::vector<Marker>& markers = thread.markers;
    int64_t run_start = layout_.run_offsets[thread.run];
    Column(
        "data", markers.size(),
        [&](size_t i) {
          const Marker& marker = markers[i];
          out_.Append("{\"type\":");
          Text(layout_.schemas[marker.schema].table);
          out_.Append(",\"label\":");
          out_.AppendNumber(strings_.Index(group_.frames[marker.label].name));
          out_.Append(",\"source\":");
          out_.AppendNumber(strings_.Index(group_.interval_sources[marker.source].name));
          if (marker.detail != 0) {
            out_.Append(",\"detail\":");
            out_.AppendNumber(strings_.Index(group_.interval_details[marker.detail]));
          }
          out_.Append('}');
        },
        true);
    Column("name", markers.size(), [&](size_t i) {
      out_.AppendNumber(strings_.Index(group_.interval_names[markers[i].name]));
    });
    Column("startTime", markers.size(),
           [&](size_t i) { AppendMilliseconds(SaturatingAdd(run_start, markers[i].start), out_); });
    Column("endTime", markers.size(),
           [&](size_t i) { AppendMilliseconds(SaturatingAdd(run_start, markers[i].end), out_); });
    Column("phase", markers.size(), [&](size_t) { out_.AppendNumber(kPhaseInterval); });
    Column("category", markers.size(),
           [&](size_t) { out_.AppendNumber(static_cast<int>(Category::kIntervals)); });
    Length(markers.size());
  }

  void WriteStackTable() {
    const StackTable& stacks = group_.stacks;
    out_.Append("\n\"stackTable\":{");
    Column(
        "frame", stacks.size(), [&](size_t s) { out_.AppendNumber(stacks.frame[s]); }, true);
    Column("prefixOffset", stacks.size(), [&](size_t s) {
      StackId parent = stacks.parent[s];
      out_.AppendNumber(parent == kEmptyStack ? 0 : s - parent);
    });
    Length(stacks.size());
  }

  // The frame's address from its binary's start, when both are known.
  std::optional<uint64_t> Offset(size_t f) const {
    const Frame& frame = group_.frames[f];
    uint32_t library = layout_.frame_library[f];
    if (!frame.address || library == kNoLibrary) return std::nullopt;
    std::optional<uint64_t> load = layout_.libraries[library].load_address;
    if (!load || *frame.address < *load || *frame.address - *load > INT32_MAX) return std::nullopt;
    return *frame.address - *load;
  }

  void WriteFrameTable() {
    size_t count = group_.frames.size();
    out_.Append(",\n\"frameTable\":{");
    Column(
        "address", count,
        [&](size_t f) {
          std::optional<uint64_t> offset = Offset(f);
          if (offset) {
            out_.AppendNumber(*offset);
          } else {
            out_.Append("-1");
          }
        },
        true);
    ConstantColumn("inlineDepth", count, "0");
    Column("category", count,
           [&](size_t f) { out_.AppendNumber(static_cast<int>(layout_.frame_category[f])); });
    ConstantColumn("subcategory", count, "0");
    Column("func", count, [&](size_t f) { out_.AppendNumber(f); });  // a function per frame
    ConstantColumn("nativeSymbol", count, "null");
    ConstantColumn("innerWindowID", count, "null");
    Column("line", count, [&](size_t f) { Line(f); });
    ConstantColumn("column", count, "null");
    ConstantColumn("originalLocation", count, "null");
    Length(count);
  }

  void Line(size_t f) {
    const Frame& frame = group_.frames[f];
    if (frame.line) {
      out_.AppendNumber(*frame.line);
    } else {
      out_.Append("null");
    }
  }

  // A frame's source file, when its file is one rather than its binary.
  bool HasSource(const Frame& frame) const {
    return !frame.file.empty() && frame.file != frame.library;
  }

  void WriteFuncTable() {
    size_t count = group_.frames.size();
    std::unordered_map<std::string_view, uint32_t> source_index;
    for (const Frame& frame : group_.frames) {
      if (HasSource(frame)) {
        auto [entry, added] = source_index.try_emplace(frame.file, sources_.size());
        if (added) sources_.push_back(&frame.file);
      }
    }
    out_.Append(",\n\"funcTable\":{");
    Column(
        "name", count, [&](size_t f) { out_.AppendNumber(strings_.Index(group_.frames[f].name)); },
        true);
    ConstantColumn("isJS", count, "false");
    ConstantColumn("relevantForJS", count, "false");
    Column("resource", count, [&](size_t f) {
      uint32_t library = layout_.frame_library[f];
      if (library == kNoLibrary) {
        out_.Append("-1");
      } else {
        out_.AppendNumber(library);  // a resource per library, in the same order
      }
    });
    Column("source", count, [&](size_t f) {
      const Frame& frame = group_.frames[f];
      if (HasSource(frame)) {
        out_.AppendNumber(source_index.at(frame.file));
      } else {
        out_.Append("null");
      }
    });
    Column("lineNumber", count, [&](size_t f) { Line(f); });
    ConstantColumn("columnNumber", count, "null");
    ConstantColumn("originalLocation", count, "null");
    Length(count);
  }

  void WriteResourceTable() {
    size_t count = layout_.libraries.size();
    out_.Append(",\n\"resourceTable\":{");
    Column(
        "lib", count, [&](size_t l) { out_.AppendNumber(l); }, true);
    Column("name", count,
           [&](size_t l) { out_.AppendNumber(strings_.Index(layout_.libraries[l].name)); });
    ConstantColumn("host", count, "null");
    Column("type", count, [&](size_t) { out_.AppendNumber(kResourceLibrary); });
    Length(count);
  }

  void WriteSources() {
    size_t count = sources_.size();
    out_.Append(",\n\"sources\":{");
    ConstantColumn("id", count, "null", true);
    Column("filename", count, [&](size_t s) { out_.AppendNumber(strings_.Index(*sources_[s])); });
    ConstantColumn("startLine", count, "1");
    ConstantColumn("startColumn", count, "1");
    ConstantColumn("sourceMapURL", count, "null");
    ConstantColumn("content", count, "null");
    Length(count);
  }

  void WriteStrings() {
    out_.Append(",\n\"stringArray\":[");
    const std::vector<const std::string*>& strings = strings_.strings();
    for (size_t i = 0; i < strings.size() && out_.ok(); ++i) {
      out_.Append(i ? ",\n" : "\n");
      Text(*strings[i]);
    }
    out_.Append("\n]");
  }

  const ProfileGroup& group_;
  FirefoxLayout layout_;
  PieceWriter out_;
  StringTable strings_;
  std::vector<const std::string*> sources_;
};

}  // namespace

bool WriteFirefoxJson(const ProfileGroup& group, const JsonSink& sink) {
  return ProcessedWriter(group, sink).Write();
}

void WriteFirefoxJson(const ProfileGroup& group, std::ostream& out) {
  WriteFirefoxJson(group, [&out](std::string_view piece) {
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    return static_cast<bool>(out);
  });
}

}  // namespace instrumentscope::firefox
