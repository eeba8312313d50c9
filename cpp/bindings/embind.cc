// The only file that sees Emscripten: the core's import session as plain
// functions over integer handles. Bytes come in through one _malloc + set per
// chunk; results go out as a small JSON summary plus typed-array copies of the
// stack table, samples and weights, or as speedscope JSON handed to a writer
// piece by piece. Errors come out as {error: {...}} values, never as exceptions.
// Beside imports, the demangler on its own: names in, readable names out.

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "base/identifiers.h"
#include "base/json.h"
#include "base/threads.h"
#include "container/gzip_writer.h"
#include "demangle/demangle.h"
#include "firefox/writer.h"
#include "import/import.h"
#include "import/options.h"
#include "report/summary.h"
#include "speedscope/file_format.h"
#include "speedscope/writer.h"

namespace instrumentscope {
namespace {

using emscripten::val;

std::map<int, std::unique_ptr<Import>>& Sessions() {
  static std::map<int, std::unique_ptr<Import>> sessions;
  return sessions;
}

// Imports' results kept for writing parts of them as speedscope JSON later
// (the page shows one process at a time), until released.
std::map<int, ProfileGroup>& Groups() {
  static std::map<int, ProfileGroup> groups;
  return groups;
}

val ErrorValue(const Status& status) {
  val error = val::object();
  error.set("code", std::string(ErrorCodeName(status.code())));
  error.set("message", status.message());
  error.set("path", status.path());
  error.set("offset", status.offset() ? val(static_cast<double>(*status.offset())) : val::null());
  error.set("line", status.line() ? val(static_cast<double>(*status.line())) : val::null());
  val result = val::object();
  result.set("error", error);
  return result;
}

val InvalidArgument(const std::string& message) {
  return ErrorValue(Status(ErrorCode::kInvalidArgument, message));
}

// A copy, so nothing refers to wasm memory once the session is gone.
template <typename T>
val TypedArrayCopy(const char* type, const std::vector<T>& values) {
  return val::global(type).new_(emscripten::typed_memory_view(values.size(), values.data()));
}

// A copy of paged values, one page at a time, converted to `Element` when it
// differs from T: JS numbers hold 64-bit weights exactly up to 2^53.
template <typename Element, typename T>
val TypedArrayCopy(const char* type, const PagedVector<T>& values) {
  val array = val::global(type).new_(values.size());
  std::vector<Element> converted;
  size_t offset = 0;
  values.ForEachPage([&](const T* data, size_t count) {
    const Element* elements;
    if constexpr (std::is_same_v<Element, T>) {
      elements = data;
    } else {
      converted.assign(data, data + count);
      elements = converted.data();
    }
    array.call<void>("set", val(emscripten::typed_memory_view(count, elements)), offset);
    offset += count;
  });
  return array;
}

// Returns {session} or {error}.
val BeginImport(const std::string& options_json) {
  static int next_session = 1;
  ImportOptions options;
  Status status = ReadImportOptions(options_json, &options);
  if (!status.ok()) return ErrorValue(status);
  int session = next_session++;
  Sessions()[session] = std::make_unique<Import>(std::move(options));
  val result = val::object();
  result.set("session", session);
  return result;
}

// Feeds `size` bytes at wasm address `address`. Returns null or {error}.
val FeedImport(int session, uintptr_t address, size_t size) {
  auto entry = Sessions().find(session);
  if (entry == Sessions().end())
    return InvalidArgument("no import session " + std::to_string(session));
  Status status = entry->second->Feed(ByteSpan(reinterpret_cast<const uint8_t*>(address), size));
  return status.ok() ? val::null() : ErrorValue(status);
}

// Adds one file of a folder (a .trace bundle) to the session: `size` bytes
// at wasm address `address`, copied. Returns null or {error}.
val AddImportFile(int session, const std::string& path, uintptr_t address, size_t size) {
  auto entry = Sessions().find(session);
  if (entry == Sessions().end())
    return InvalidArgument("no import session " + std::to_string(session));
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(address);
  Status status = entry->second->AddFile(path, std::vector<uint8_t>(bytes, bytes + size));
  return status.ok() ? val::null() : ErrorValue(status);
}

// Adds one of the user's binaries or dSYMs (or a zip of them) to the session:
// `size` bytes at wasm address `address`, copied. `load_address` is "" or the
// hex or decimal address where its __TEXT was loaded. Returns null or {error}.
val AddSymbolFile(int session, const std::string& path, uintptr_t address, size_t size,
                  const std::string& load_address) {
  auto entry = Sessions().find(session);
  if (entry == Sessions().end())
    return InvalidArgument("no import session " + std::to_string(session));
  std::optional<uint64_t> load;
  if (!load_address.empty()) {
    load = ParseAddress(load_address);
    if (!load) return InvalidArgument("load address \"" + load_address + "\" is not an address");
  }
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(address);
  Status status =
      entry->second->AddSymbolFile(path, std::vector<uint8_t>(bytes, bytes + size), load);
  return status.ok() ? val::null() : ErrorValue(status);
}

// For a folder's paths (a JS array), whether the importer reads each file (a
// JS array of booleans); the others may be added empty.
val WantedFiles(const val& paths) {
  std::vector<bool> wanted = Import::WantedFiles(emscripten::vecFromJSArray<std::string>(paths));
  val result = val::array();
  for (bool file : wanted) result.call<void>("push", file);
  return result;
}

val ProgressValue(const ImportProgress& progress) {
  val result = val::object();
  result.set("stage", std::string(ImportStageName(progress.stage)));
  result.set("bytesRead", static_cast<double>(progress.bytes_read));
  result.set("samples", static_cast<double>(progress.samples));
  return result;
}

val ImportProgressOf(int session) {
  auto entry = Sessions().find(session);
  if (entry == Sessions().end()) return val::null();
  return ProgressValue(entry->second->progress());
}

// Ends the session: the import's profile group, or {error} in `error`.
Result<ProfileGroup> FinishSession(int session, ImportProgress* progress) {
  auto entry = Sessions().find(session);
  if (entry == Sessions().end()) {
    return Status(ErrorCode::kInvalidArgument, "no import session " + std::to_string(session));
  }
  std::unique_ptr<Import> import = std::move(entry->second);
  Sessions().erase(entry);
  Result<ProfileGroup> group = import->Finish();
  *progress = import->progress();
  return group;
}

// An evented profile's events: {at: Float64Array, frames: Uint32Array,
// open: Uint8Array (1: opens, 0: closes)}.
val EventsValue(const std::vector<IntervalEvent>& events) {
  std::vector<double> at(events.size());
  std::vector<uint32_t> frames(events.size());
  std::vector<uint8_t> open(events.size());
  for (size_t i = 0; i < events.size(); ++i) {
    at[i] = static_cast<double>(events[i].at);
    frames[i] = events[i].frame;
    open[i] = events[i].open ? 1 : 0;
  }
  val value = val::object();
  value.set("at", TypedArrayCopy("Float64Array", at));
  value.set("frames", TypedArrayCopy("Uint32Array", frames));
  value.set("open", TypedArrayCopy("Uint8Array", open));
  return value;
}

// Ends the session. Returns {error} or {progress, summary, stackParents,
// stackFrames, samples: [Uint32Array], weights: [Float64Array], events:
// [events or null]}, where samples hold stack ids (0xFFFFFFFF: no stack),
// events are an evented profile's (its samples and weights are empty) and
// summary is JSON with the frames.
val FinishImport(int session) {
  ImportProgress progress;
  Result<ProfileGroup> group = FinishSession(session, &progress);
  if (!group.ok()) return ErrorValue(group.status());

  val result = val::object();
  result.set("progress", ProgressValue(progress));
  result.set("summary", DumpJson(Summary(*group, SummaryFrames::kInclude)));
  result.set("stackParents", TypedArrayCopy("Uint32Array", group->stacks.parent));
  result.set("stackFrames", TypedArrayCopy("Uint32Array", group->stacks.frame));
  val samples = val::array();
  val weights = val::array();
  val events = val::array();
  for (Profile& profile : group->profiles) {
    samples.call<void>("push", TypedArrayCopy<uint32_t>("Uint32Array", profile.samples));
    weights.call<void>("push", TypedArrayCopy<double>("Float64Array", profile.weights));
    events.call<void>("push",
                      speedscope::IsEvented(profile) ? EventsValue(profile.events) : val::null());
    profile.samples.clear();
    profile.weights.clear();
    profile.events.clear();
  }
  result.set("samples", samples);
  result.set("weights", weights);
  result.set("events", events);
  return result;
}

// Hands the JSON `writer` produces to `write` (a function of a Uint8Array
// view of wasm memory, valid only during the call, that returns false to stop).
template <typename Writer>
void WriteTo(val& write, Writer writer) {
  writer([&write](std::string_view piece) {
    val view(emscripten::typed_memory_view(piece.size(),
                                           reinterpret_cast<const uint8_t*>(piece.data())));
    return write(view).as<bool>();
  });
}

// What FinishImportToJson writes: {format: "speedscope" | "firefox",
// mergeConsecutive (speedscope only: each run of consecutive samples of one
// stack as one sample), gzip (the file compressed)}.
struct JsonRequest {
  bool firefox = false;
  bool merge_consecutive = false;
  bool gzip = false;
};

Result<JsonRequest> ReadJsonRequest(const val& options) {
  JsonRequest request;
  std::string format =
      options["format"].isUndefined() ? "speedscope" : options["format"].as<std::string>();
  if (format != "speedscope" && format != "firefox") {
    return Status(ErrorCode::kInvalidArgument,
                  "no output format \"" + format + "\" (speedscope or firefox)");
  }
  request.firefox = format == "firefox";
  request.merge_consecutive = options["mergeConsecutive"].as<bool>();
  request.gzip = options["gzip"].as<bool>();
  return request;
}

void WriteRequested(const ProfileGroup& group, const JsonRequest& request, const JsonSink& sink) {
  if (request.firefox) {
    firefox::WriteFirefoxJson(group, sink);
    return;
  }
  speedscope::WriteOptions options;
  options.merge_consecutive = request.merge_consecutive;
  speedscope::WriteJson(group, sink, options);
}

// Ends the session, handing the file `options` asks for (JsonRequest) to
// `write` (a function of a Uint8Array view of wasm memory, valid only during
// the call, that returns false to stop) unless it is null. Returns {error}
// or {progress, summary}, where summary is JSON without the frames.
val FinishImportToJson(int session, val write, val options) {
  Result<JsonRequest> request = ReadJsonRequest(options);
  if (!request.ok()) return ErrorValue(request.status());
  ImportProgress progress;
  Result<ProfileGroup> group = FinishSession(session, &progress);
  if (!group.ok()) return ErrorValue(group.status());
  if (!write.isNull()) {
    WriteTo(write, [&](const JsonSink& sink) {
      if (!request->gzip) {
        WriteRequested(*group, *request, sink);
        return;
      }
      GzipWriter gzip(sink);
      WriteRequested(*group, *request, gzip.sink());
      gzip.Finish();
    });
  }
  val result = val::object();
  result.set("progress", ProgressValue(progress));
  result.set("summary", DumpJson(Summary(*group, SummaryFrames::kOmit)));
  return result;
}

// Ends the session and keeps its result. Returns {error} or {progress,
// summary, group}: summary is JSON without the frames; group names the
// result for WriteGroupJson and ReleaseGroup.
val FinishImportToGroup(int session) {
  static int next_group = 1;
  ImportProgress progress;
  Result<ProfileGroup> group = FinishSession(session, &progress);
  if (!group.ok()) return ErrorValue(group.status());
  val result = val::object();
  result.set("progress", ProgressValue(progress));
  result.set("summary", DumpJson(Summary(*group, SummaryFrames::kOmit)));
  int id = next_group++;
  Groups()[id] = group.take();
  result.set("group", id);
  return result;
}

// Writes a kept result to `write`: all of it as one speedscope file (the
// same bytes as the CLI's). Returns null or {error}.
val WriteGroupJson(int group, val write) {
  auto entry = Groups().find(group);
  if (entry == Groups().end()) return InvalidArgument("no kept result " + std::to_string(group));
  WriteTo(write, [&](const JsonSink& sink) { speedscope::WriteJson(entry->second, sink); });
  return val::null();
}

// Writes a kept result to `write` as a Firefox Profiler file (the same bytes
// as the CLI's --format firefox). Returns null or {error}.
val WriteGroupFirefoxJson(int group, val write) {
  auto entry = Groups().find(group);
  if (entry == Groups().end()) return InvalidArgument("no kept result " + std::to_string(group));
  WriteTo(write, [&](const JsonSink& sink) { firefox::WriteFirefoxJson(entry->second, sink); });
  return val::null();
}

// Writes what speedscope's viewer is handed of a kept result's `profiles` (a
// JS array of indices) opened at `picked`, within `budget` of the viewer's
// cost (speedscope::PlanViewer; a negative one for the default), left open for the caller to end
// with the profile to open first. Returns {error} or {profiles (those written, in order), alone,
// note, cost}.
val WriteViewerJson(int group, val profiles, double picked, double budget, val write) {
  auto entry = Groups().find(group);
  if (entry == Groups().end()) return InvalidArgument("no kept result " + std::to_string(group));
  const ProfileGroup& kept = entry->second;
  auto is_index = [&](double index) {
    return index >= 0 && index < kept.profiles.size() && index == static_cast<size_t>(index);
  };
  std::vector<size_t> selected;
  for (double index : emscripten::vecFromJSArray<double>(profiles)) {
    // Doubles, not unsigned: -1 stays -1 in the message.
    if (!is_index(index)) {
      char shown[32];
      std::snprintf(shown, sizeof shown, "%g", index);
      return InvalidArgument("no profile " + std::string(shown) + " in the kept result (it has " +
                             std::to_string(kept.profiles.size()) + ")");
    }
    selected.push_back(static_cast<size_t>(index));
  }
  if (selected.empty()) return InvalidArgument("no profiles chosen to write");
  if (!is_index(picked) ||
      std::find(selected.begin(), selected.end(), static_cast<size_t>(picked)) == selected.end()) {
    return InvalidArgument("the profile picked is not among those chosen to write");
  }
  if (!(budget <= 1e15)) return InvalidArgument("the viewer's budget is out of range");
  speedscope::ViewerPlan plan = speedscope::PlanViewer(
      kept, selected, static_cast<size_t>(picked),
      budget < 0 ? speedscope::kDefaultViewerBudget : static_cast<uint64_t>(budget));
  WriteTo(write, [&](const JsonSink& sink) { speedscope::WriteViewerJson(kept, plan, sink); });
  val written = val::array();
  for (size_t index : plan.profiles) written.call<void>("push", static_cast<double>(index));
  val result = val::object();
  result.set("profiles", written);
  result.set("alone", plan.alone);
  result.set("note", plan.note);
  result.set("cost", static_cast<double>(plan.cost));
  return result;
}

void ReleaseGroup(int group) {
  Groups().erase(group);
}

void CancelImport(int session) {
  Sessions().erase(session);
}

std::string VersionString() {
  return Version();
}

// What the file starting with the `size` bytes at wasm address `address` is
// (Import::RoleOf): "recording", "symbols" or "unknown".
std::string FileRoleOf(uintptr_t address, size_t size) {
  switch (Import::RoleOf(ByteSpan(reinterpret_cast<const uint8_t*>(address), size))) {
    case Import::FileRole::kRecording: return "recording";
    case Import::FileRole::kSymbols: return "symbols";
    case Import::FileRole::kUnknown: break;
  }
  return "unknown";
}

// The readable form of each of `names` (a JS array of strings) in `style`
// ("instruments" or "full"); a name that is no mangling comes back as it is.
val DemangleNames(val names, const std::string& style) {
  demangle::Style chosen = style == "full" ? demangle::Style::kFull : demangle::Style::kInstruments;
  const auto count = names["length"].as<unsigned>();
  val readable = val::array();
  for (unsigned i = 0; i < count; ++i) {
    std::string name = names[i].as<std::string>();
    std::optional<std::string> demangled = demangle::Demangle(name, chosen);
    readable.call<void>("push", demangled ? *demangled : name);
  }
  return readable;
}

}  // namespace
}  // namespace instrumentscope

EMSCRIPTEN_BINDINGS(instrumentscope) {
  emscripten::function("beginImport", &instrumentscope::BeginImport);
  emscripten::function("feedImport", &instrumentscope::FeedImport);
  emscripten::function("addImportFile", &instrumentscope::AddImportFile);
  emscripten::function("wantedFiles", &instrumentscope::WantedFiles);
  emscripten::function("addSymbolFile", &instrumentscope::AddSymbolFile);
  emscripten::function("importProgress", &instrumentscope::ImportProgressOf);
  emscripten::function("finishImport", &instrumentscope::FinishImport);
  emscripten::function("finishImportToJson", &instrumentscope::FinishImportToJson);
  emscripten::function("finishImportToGroup", &instrumentscope::FinishImportToGroup);
  emscripten::function("writeGroupJson", &instrumentscope::WriteGroupJson);
  emscripten::function("writeGroupFirefoxJson", &instrumentscope::WriteGroupFirefoxJson);
  emscripten::function("writeViewerJson", &instrumentscope::WriteViewerJson);
  emscripten::function("releaseGroup", &instrumentscope::ReleaseGroup);
  emscripten::function("cancelImport", &instrumentscope::CancelImport);
  emscripten::function("version", &instrumentscope::VersionString);
  emscripten::function("setWorkerCount", &instrumentscope::SetWorkerCount);
  emscripten::function("fileRole", &instrumentscope::FileRoleOf);
  emscripten::function("demangleNames", &instrumentscope::DemangleNames);
}
