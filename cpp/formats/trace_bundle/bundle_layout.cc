#include "formats/trace_bundle/bundle_layout.h"

#include <algorithm>
#include <charconv>

#include "base/text.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr std::string_view kCorespace = "corespace/";
constexpr std::string_view kRunPrefix = "corespace/run";
constexpr std::string_view kStores = "core/stores/";
constexpr std::string_view kSchemaFile = "schema.xml";
constexpr std::string_view kBulkStoreFile = "bulkstore";
constexpr std::string_view kDescriptorFile = "bulkstore_descriptor";
constexpr std::string_view kUniquer = "core/uniquing/arrayUniquer/integeruniquer.";
constexpr std::string_view kUniquerIndex = "index";
constexpr std::string_view kUniquerData = "data";
constexpr std::string_view kStrings = "core/uniquing/strings";
constexpr std::string_view kTypedUniquer = "core/uniquing/typedArrayUniquer/integeruniquer.";
constexpr std::string_view kEngineeringTypes = "core/uniquing/EngineeringTypes.etypes";
constexpr std::string_view kSymbolStores = "symbols/stores/";
constexpr std::string_view kSymbolArchiveSuffix = ".symbolsarchive";
constexpr std::string_view kTracePrefix = "Trace";
constexpr std::string_view kRunSuffix = ".run";
constexpr std::string_view kSamplerSuffix = "-sampler.data";
constexpr std::string_view kEventsPrefix = "event_data_";
constexpr std::string_view kEventsSuffix = ".oa";
constexpr std::string_view kInstrumentData = "instrument_data/";
constexpr std::string_view kRunData = "/run_data/";
constexpr std::string_view kRunArchiveSuffix = ".run.zip";
constexpr std::string_view kSharedData = "shared_data/";
constexpr std::string_view kZipSuffix = ".zip";

std::string Join(std::initializer_list<std::string_view> parts) {
  std::string joined;
  for (std::string_view part : parts) joined += part;
  return joined;
}

// The N of "run<N>" or "Trace<N>.run": 1 or more, without leading zeros.
std::optional<uint32_t> RunNumber(std::string_view digits) {
  uint32_t run = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), run);
  if (digits.empty() || digits[0] == '0' || error != std::errc() ||
      end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return run;
}

// "corespace/run<N>/<rest>" → run N, and `rest`.
std::optional<CoreRun> ParseRunPath(std::string_view path, std::string_view* rest) {
  if (!StartsWith(path, kRunPrefix)) return std::nullopt;
  size_t slash = path.find('/', kRunPrefix.size());
  if (slash == std::string_view::npos) return std::nullopt;
  std::optional<uint32_t> run =
      RunNumber(path.substr(kRunPrefix.size(), slash - kRunPrefix.size()));
  if (!run) return std::nullopt;
  *rest = path.substr(slash + 1);
  return CoreRun{*run, std::string(path.substr(0, slash + 1))};
}

// A file of a store: "corespace/run<N>/core/stores/<store>/<file>".
std::optional<StoreFolder> ParseStoreFile(std::string_view path, std::string_view* file) {
  std::string_view rest;
  std::optional<CoreRun> run = ParseRunPath(path, &rest);
  if (!run || !StartsWith(rest, kStores)) return std::nullopt;
  size_t slash = path.rfind('/');
  if (slash <= run->folder.size() + kStores.size()) return std::nullopt;  // no store name
  *file = path.substr(slash + 1);
  return StoreFolder{std::move(*run), std::string(path.substr(0, slash + 1))};
}

// Uniquer files and strings: the references a run's tables share.
bool IsRunReferenceFile(std::string_view path) {
  std::string_view rest;
  if (!ParseRunPath(path, &rest)) return false;
  return rest == kStrings || rest == Join({kUniquer, kUniquerIndex}) ||
         rest == Join({kUniquer, kUniquerData}) || rest == Join({kTypedUniquer, kUniquerIndex}) ||
         rest == Join({kTypedUniquer, kUniquerData}) || rest == kEngineeringTypes;
}

bool IsSymbolArchivePath(std::string_view path) {
  return StartsWith(path, kSymbolStores) && EndsWith(path, kSymbolArchiveSuffix);
}

// "Trace<N>.run/<file>" → the run's digits, and the file's name.
std::optional<std::pair<std::string_view, std::string_view>> ParseTraceRunFile(
    std::string_view path) {
  if (!StartsWith(path, kTracePrefix)) return std::nullopt;
  size_t slash = path.find('/');
  if (slash == std::string_view::npos || !EndsWith(path.substr(0, slash), kRunSuffix)) {
    return std::nullopt;
  }
  std::string_view digits =
      path.substr(kTracePrefix.size(), slash - kRunSuffix.size() - kTracePrefix.size());
  std::string_view file = path.substr(slash + 1);
  if (!RunNumber(digits) || file.empty() || file.find('/') != std::string_view::npos) {
    return std::nullopt;
  }
  return std::make_pair(digits, file);
}

// "Trace<N>.run/<UUID>-sampler.data" → its legacy run's files.
std::optional<LegacyRunFiles> ParseSamplerPath(std::string_view path) {
  auto parts = ParseTraceRunFile(path);
  if (!parts || !EndsWith(parts->second, kSamplerSuffix)) return std::nullopt;
  std::string_view uuid = parts->second.substr(0, parts->second.size() - kSamplerSuffix.size());
  if (uuid.empty()) return std::nullopt;
  return LegacyRunFiles{*RunNumber(parts->first), std::string(path),
                        RunArchivePath(uuid, parts->first)};
}

// "Trace<N>.run/event_data_<pid>.oa" → its Allocations run's files.
std::optional<AllocationRunFiles> ParseAllocationPath(std::string_view path) {
  auto parts = ParseTraceRunFile(path);
  if (!parts || !StartsWith(parts->second, kEventsPrefix) ||
      !EndsWith(parts->second, kEventsSuffix)) {
    return std::nullopt;
  }
  std::string_view digits = parts->second.substr(
      kEventsPrefix.size(), parts->second.size() - kEventsPrefix.size() - kEventsSuffix.size());
  std::optional<uint32_t> pid = RunNumber(digits);
  if (!pid) return std::nullopt;
  return AllocationRunFiles{*RunNumber(parts->first), *pid, std::string(path)};
}

std::string SharedDataFolder(std::string_view run) {
  return Join({kSharedData, run, kRunSuffix, "/"});
}

// "shared_data/<N>.run/<name>.zip" → N.
std::optional<uint32_t> ParseSharedDataZip(std::string_view path) {
  if (!StartsWith(path, kSharedData) || !EndsWith(path, kZipSuffix)) return std::nullopt;
  size_t slash = path.find('/', kSharedData.size());
  if (slash == std::string_view::npos || path.find('/', slash + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view folder = path.substr(kSharedData.size(), slash - kSharedData.size());
  if (!EndsWith(folder, kRunSuffix)) return std::nullopt;
  return RunNumber(folder.substr(0, folder.size() - kRunSuffix.size()));
}

// The part of `path` from `marker` on, where the marker starts a path
// component; empty without one. Folders hand over the bundle at any depth.
std::string_view FromMarker(std::string_view path, std::string_view marker) {
  for (size_t at = path.find(marker); at != std::string_view::npos;
       at = path.find(marker, at + 1)) {
    if (at == 0 || path[at - 1] == '/') return path.substr(at);
  }
  return {};
}

std::string_view LastComponent(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// A file of a run's records, "<root>Trace<N>.run/<file>", the path from
// Trace<N>.run on, and its bundle's root (the path before its last two
// components).
std::optional<std::string_view> TraceRunFileIn(std::string_view path, std::string_view* root) {
  size_t name = path.rfind('/');
  if (name == std::string_view::npos || name == 0) return std::nullopt;
  size_t folder = path.rfind('/', name - 1);
  size_t start = folder == std::string_view::npos ? 0 : folder + 1;
  *root = path.substr(0, start);
  std::string_view in_bundle = path.substr(start);
  if (!ParseSamplerPath(in_bundle) && !ParseAllocationPath(in_bundle)) return std::nullopt;
  return in_bundle;
}

// The files a bundle's samples need, by their own path.
bool WantsOnItsOwn(std::string_view path) {
  if (LastComponent(path) == kFormTemplate) return true;
  if (IsSymbolArchivePath(FromMarker(path, kSymbolStores))) return true;
  std::string_view core = FromMarker(path, kRunPrefix);
  std::string_view file;
  if (ParseStoreFile(core, &file)) {
    return file == kSchemaFile || file == kBulkStoreFile || file == kDescriptorFile;
  }
  return IsRunReferenceFile(core);
}

}  // namespace

std::string CoreRun::UniquerIndexPath() const {
  return Join({folder, kUniquer, kUniquerIndex});
}

std::string CoreRun::UniquerDataPath() const {
  return Join({folder, kUniquer, kUniquerData});
}

std::string CoreRun::StringsPath() const {
  return Join({folder, kStrings});
}

std::string CoreRun::TypedUniquerIndexPath() const {
  return Join({folder, kTypedUniquer, kUniquerIndex});
}

std::string CoreRun::TypedUniquerDataPath() const {
  return Join({folder, kTypedUniquer, kUniquerData});
}

std::string CoreRun::EngineeringTypesPath() const {
  return Join({folder, kEngineeringTypes});
}

std::string StoreFolder::SchemaPath() const {
  return Join({folder, kSchemaFile});
}

std::string StoreFolder::BulkStorePath() const {
  return Join({folder, kBulkStoreFile});
}

std::string StoreFolder::DescriptorPath() const {
  return Join({folder, kDescriptorFile});
}

std::string SymbolArchivePath(std::string_view uuid) {
  return Join({kSymbolStores, uuid, kSymbolArchiveSuffix});
}

std::string SamplerPath(std::string_view run, std::string_view uuid) {
  return Join({kTracePrefix, run, kRunSuffix, "/", uuid, kSamplerSuffix});
}

std::string RunArchivePath(std::string_view uuid, std::string_view run) {
  return Join({kInstrumentData, uuid, kRunData, run, kRunArchiveSuffix});
}

std::string AllocationEventsPath(std::string_view run, std::string_view pid) {
  return Join({kTracePrefix, run, kRunSuffix, "/", kEventsPrefix, pid, kEventsSuffix});
}

std::set<uint32_t> BundleLayout::StoreRuns() const {
  std::set<uint32_t> runs;
  for (const StoreFolder& store : stores) runs.insert(store.run.number);
  return runs;
}

BundleLayout ScanLayout(const std::vector<std::string>& paths) {
  BundleLayout layout;
  // A store is one as soon as one of its files is there: a store that lost
  // its schema.xml is then left out with a warning, never silently.
  std::set<std::string> store_folders;
  for (const std::string& path : paths) {
    if (IsJunkPath(path)) continue;
    std::string_view file;
    std::optional<StoreFolder> store = ParseStoreFile(path, &file);
    if (store && (file == kSchemaFile || file == kBulkStoreFile || file == kDescriptorFile) &&
        store_folders.insert(store->folder).second) {
      layout.stores.push_back(std::move(*store));
    }
    if (std::optional<LegacyRunFiles> legacy = ParseSamplerPath(path)) {
      layout.legacy_runs.push_back(std::move(*legacy));
    }
    if (std::optional<AllocationRunFiles> allocations = ParseAllocationPath(path)) {
      layout.allocation_runs.push_back(std::move(*allocations));
    }
    if (std::optional<uint32_t> run = ParseSharedDataZip(path)) {
      layout.shared_data_zips[*run].push_back(path);
    }
    layout.has_sampler_files = layout.has_sampler_files || EndsWith(path, kSamplerSuffix);
    layout.has_symbol_archives = layout.has_symbol_archives || IsSymbolArchivePath(path);
  }
  std::stable_sort(
      layout.stores.begin(), layout.stores.end(),
      [](const StoreFolder& a, const StoreFolder& b) { return a.run.number < b.run.number; });
  return layout;
}

Result<std::string> FindBundleRoot(const FileTree& files) {
  std::set<std::string> roots;
  for (const std::string& path : files.paths()) {
    if (IsJunkPath(path)) continue;
    for (std::string_view marker : {kFormTemplate, kCorespace}) {
      size_t at = path.find(marker);
      if (at == std::string::npos) continue;
      std::string_view prefix = std::string_view(path).substr(0, at);
      // At the top ("") or one folder down ("x.trace/").
      if (prefix.empty() || (prefix.back() == '/' && prefix.find('/') == prefix.size() - 1)) {
        roots.insert(std::string(prefix));
      }
    }
  }
  if (roots.size() == 1) return *roots.begin();
  if (roots.empty()) {
    std::set<std::string> tops;
    for (const std::string& path : files.paths()) {
      if (!IsJunkPath(path)) tops.insert(path.substr(0, path.find('/')));
    }
    // As many names as fit in about 200 characters.
    std::vector<std::string> shown;
    size_t length = 0;
    for (const std::string& top : tops) {
      if (length > 200) {
        shown.push_back("…");
        break;
      }
      length += (shown.empty() ? 0 : 2) + top.size();
      shown.push_back(top);
    }
    std::string listing = JoinList(shown);
    return Status(ErrorCode::kUnknownFormat,
                  "no Instruments .trace bundle here: neither a form.template nor a corespace/ "
                  "folder at the top or one folder down (found: " +
                      (listing.empty() ? std::string("nothing") : listing) + ")");
  }
  return Status(ErrorCode::kBundleUnsupported, "several .trace bundles in one input (" +
                                                   JoinList(roots) + "); give them one at a time");
}

std::vector<bool> WantedFiles(const std::vector<std::string>& paths) {
  // A legacy run's sample file brings in its run archive, and its run's
  // shared_data zips (4.5's symbols); an Allocations events file, its run's
  // shared_data zips; other bundles' archives stay unread.
  std::set<std::string> run_archives;
  std::set<std::string> shared_data_folders;
  for (const std::string& path : paths) {
    std::string_view root;
    std::optional<std::string_view> records = TraceRunFileIn(path, &root);
    if (!records || IsJunkPath(path)) continue;
    uint32_t run = 0;
    if (std::optional<LegacyRunFiles> legacy = ParseSamplerPath(*records)) {
      run_archives.insert(std::string(root) + legacy->archive_path);
      run = legacy->run;
    } else {
      run = ParseAllocationPath(*records)->run;
    }
    shared_data_folders.insert(std::string(root) + SharedDataFolder(std::to_string(run)));
  }
  std::vector<bool> wanted;
  wanted.reserve(paths.size());
  for (const std::string& path : paths) {
    if (IsJunkPath(path)) {
      wanted.push_back(false);
      continue;
    }
    // shared_data/<N>.run/<UUID>.zip: its folder is the path up to its last '/'.
    bool shared_data = EndsWith(path, kZipSuffix) &&
                       shared_data_folders.count(path.substr(0, path.rfind('/') + 1)) > 0;
    std::string_view root;
    wanted.push_back(WantsOnItsOwn(path) || TraceRunFileIn(path, &root) ||
                     run_archives.count(path) || shared_data);
  }
  return wanted;
}

}  // namespace instrumentscope::trace_bundle
