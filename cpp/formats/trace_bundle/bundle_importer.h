// The .trace bundle format, for the registry: bundles written by Instruments
// 4.5 to 26, zipped (at the zip's root or one folder down) or as a folder's
// files. Every table of the catalogue (tables/catalogue.h) a bundle is read
// for has its rows decoded by row_decoder.h for the entry's consumer: the
// thread-name, thread-info and process-info tables first (threads.h), then
// the tables of intervals and events (interval_rows.h: signposts, thermal
// states, life-cycle periods, hangs, run loops), then the CPU samples of
// corespace runs (sample_rows.h: time-profile). Besides the tables: the
// legacy Time Profiler's Trace<N>.run files (legacy_runs.h) and the
// allocations of Allocations runs (allocation_runs.h). Frames are named from
// form.template, the symbol archives of symbols/ (12+) or 4.5's shared_data
// (frames.h); threads and processes from wherever the bundle names them
// (threads.h). A part that cannot be
// read is left out with a warning (diagnostics.h).
//
// Not read (yet): sample tables other than time-profile (cpu-profile,
// counters-profile and time-sample are named in the error of a bundle that
// has only those); every other table is only listed, with its row count.
// See FORMAT.md for the layouts and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_

#include <memory>

#include "container/file_tree.h"
#include "formats/importer.h"
#include "formats/trace_bundle/bundle_layout.h"

namespace instrumentscope {
class ProfileBuilder;
}
namespace instrumentscope::tables {
class RowObserver;
}

namespace instrumentscope::trace_bundle {

SniffMatch Sniff(ByteSpan prefix);
// A zipped bundle, fed as one stream: held in memory, read at Finish().
std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options);

// Imports the bundle in `files` (a folder's files, or a zip's). Error paths
// are paths in `files`.
Status ImportBundle(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options);
// The same import, showing `observer` every row of the tables read as
// intervals and as samples.
Status ImportBundleShowingRows(const FileTree& files, ProfileBuilder& builder,
                               const ImportOptions& options, tables::RowObserver& observer);

inline const FormatDescriptor kFormat = {"trace-bundle", &Sniff, &CreateImporter, &WantedFiles,
                                         &ImportBundle};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_IMPORTER_H_
