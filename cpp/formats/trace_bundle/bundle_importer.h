// Reads .trace bundles written by Instruments 8.3.3 to 10.x: the time-profile
// table of every run (corespace/run<N>/core/stores), with backtraces from the
// run's array uniquer and names from form.template. Accepts a zipped bundle
// (at the zip's root or one folder down) or a folder's files.
//
// Not read (yet): legacy "sampler" data (Instruments 9.2 and older), symbols
// archives (Instruments 10.1+ symbols/ folders), tables other than
// time-profile. Bundles without CPU samples fail with the instruments they
// hold. See FORMAT.md for the layouts and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_

#include <memory>
#include <string_view>

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

// Whether a file of a folder is worth reading: lets callers skip the bulk of
// a bundle (UI state, per-instrument archives, scratch copies) unread.
bool WantsFile(std::string_view path);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
