// Where things are in a .trace bundle: every path the importer reads, spelled
// once, both for reading (ScanLayout, the path builders) and for choosing a
// folder's files (WantedFiles). Knows only names: it reads no file. What the
// files hold, and the Instruments versions each was seen in, is in FORMAT.md.
//
//   form.template
//   corespace/run<N>/core/stores/<store>/{schema.xml,bulkstore,bulkstore_descriptor}
//   corespace/run<N>/core/uniquing/arrayUniquer/integeruniquer.{index,data}
//   corespace/run<N>/core/uniquing/strings
//   corespace/run<N>/core/uniquing/typedArrayUniquer/integeruniquer.{index,data}
//   corespace/run<N>/core/uniquing/EngineeringTypes.etypes
//   symbols/stores/<UUID>.symbolsarchive                  (Instruments 12+)
//   Trace<N>.run/<UUID>-sampler.data                      (4.5 to 9.2)
//   instrument_data/<UUID>/run_data/<N>.run.zip           (the legacy run's archive)
//   Trace<N>.run/event_data_<pid>.oa                      (Allocations, 6 to 9)
//   shared_data/<N>.run/<UUID>.zip                        (4.5's symbols, Allocations' data)
//
// Not described: corespace/currentRun/ (a scratch copy, never read), UI
// state, per-instrument archives other than the legacy runs'.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_LAYOUT_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_LAYOUT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "container/file_tree.h"

namespace instrumentscope::trace_bundle {

inline constexpr std::string_view kFormTemplate = "form.template";

// corespace/run<N>/: a run's tables and the uniquer and strings they share.
struct CoreRun {
  uint32_t number = 0;
  std::string folder;  // "corespace/run1/"

  std::string UniquerIndexPath() const;
  std::string UniquerDataPath() const;
  std::string StringsPath() const;
  // The messages' typed arrays and the names of their engineering types.
  std::string TypedUniquerIndexPath() const;
  std::string TypedUniquerDataPath() const;
  std::string EngineeringTypesPath() const;
};

// corespace/run<N>/core/stores/<store>/: one table.
struct StoreFolder {
  CoreRun run;
  std::string folder;  // "corespace/run1/core/stores/indexed-store-12/"

  std::string SchemaPath() const;
  std::string BulkStorePath() const;
  std::string DescriptorPath() const;
};

// A legacy Time Profiler run (Instruments 4.5 to 9.2): its sample file and
// the run archive that describes it.
struct LegacyRunFiles {
  uint32_t run = 0;
  std::string sampler_path;  // "Trace1.run/<UUID>-sampler.data"
  std::string archive_path;  // "instrument_data/<UUID>/run_data/1.run.zip"
};

// An Allocations run (Instruments 6 to 9): its events file; what describes
// them is among the run's shared_data zips.
struct AllocationRunFiles {
  uint32_t run = 0;
  int64_t pid = -1;         // the target process's, from the file's name
  std::string events_path;  // "Trace1.run/event_data_32976.oa"
};

// The paths of files found by name. Messages spell the patterns with the
// same functions: SamplerPath("<N>", "<UUID>") is "Trace<N>.run/<UUID>-sampler.data".
std::string SymbolArchivePath(std::string_view uuid);  // "symbols/stores/<UUID>.symbolsarchive"
std::string SamplerPath(std::string_view run, std::string_view uuid);
std::string RunArchivePath(std::string_view uuid, std::string_view run);
std::string AllocationEventsPath(std::string_view run, std::string_view pid);

// One bundle's files, sorted out once (paths relative to the bundle's root).
struct BundleLayout {
  std::vector<StoreFolder> stores;                  // by run; within a run, in path order
  std::vector<LegacyRunFiles> legacy_runs;          // in path order
  std::vector<AllocationRunFiles> allocation_runs;  // in path order
  // Sample files whatever their run archive: a bundle may have lost those.
  bool has_sampler_files = false;
  bool has_symbol_archives = false;
  std::map<uint32_t, std::vector<std::string>> shared_data_zips;  // by run

  // The runs with tables.
  std::set<uint32_t> StoreRuns() const;
};

BundleLayout ScanLayout(const std::vector<std::string>& paths);

// The folder holding the bundle: the top of the tree or one folder down.
Result<std::string> FindBundleRoot(const FileTree& files);

// Which files of a folder (all its paths, '/'-separated, the bundle at any
// depth) are worth reading: the bulk of a bundle (UI state, per-instrument
// archives, scratch copies) stays unread. A legacy run's sample file brings
// in its run archive and its run's shared_data zips; an Allocations events
// file, its run's shared_data zips.
std::vector<bool> WantedFiles(const std::vector<std::string>& paths);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_LAYOUT_H_
