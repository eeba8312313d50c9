// Reads .trace bundles written by Instruments 4.5 to 16: the time-profile
// table of every run (corespace/run<N>/core/stores), with backtraces from the
// run's array uniquer, and the legacy Time Profiler's Trace<N>.run sample
// files (4.5 to 9.2) with their run archives; names from form.template, the
// symbols archives of symbols/ (12+) or 4.5's shared_data. Accepts a zipped
// bundle (at the zip's root or one folder down) or a folder's files.
//
// Not read (yet): tables other than time-profile (counters). Bundles without
// CPU samples fail with the instruments they hold. See FORMAT.md for the
// layouts and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "container/file_tree.h"
#include "formats/importer.h"

namespace instrumentscope {
class ProfileBuilder;
}

namespace instrumentscope::trace_bundle {

SniffMatch Sniff(ByteSpan prefix);
// A zipped bundle, fed as one stream: held in memory, read at Finish().
std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options);

inline const FormatDescriptor kFormat = {"trace-bundle", &Sniff, &CreateImporter};

// Imports the bundle in `files` (a folder's files, or a zip's). Error paths
// are paths in `files`.
Status ImportBundle(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options);

// Which files of a folder (all its paths, '/'-separated) are worth reading:
// lets callers leave the bulk of a bundle (UI state, per-instrument archives,
// scratch copies) unread. Some files are wanted for others beside them: a
// legacy run's archive for its sample file.
std::vector<bool> WantedFiles(const std::vector<std::string>& paths);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
