// Reads the text Instruments puts on the clipboard with Edit ▸ Deep Copy of a
// call tree (Instruments 7 through 16): a header line, then one tab-separated
// row per call-tree node with its total weight, often its self weight, and
// its symbol indented by depth. Each row's own weight becomes one sample of
// its stack, after those of the rows below it, as a flame graph of the tree.
// Process rows ("name (pid)") and thread rows ("name 0xtid") are not frames:
// the rows below each become a profile of their own.
//
// FORMAT.md in this folder describes the text and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_DEEP_COPY_DEEP_COPY_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_DEEP_COPY_DEEP_COPY_IMPORTER_H_

#include <memory>

#include "formats/importer.h"

namespace instrumentscope::deep_copy {

SniffMatch Sniff(ByteSpan prefix);
std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options);

inline const FormatDescriptor kFormat = {"instruments-deep-copy", &Sniff, &CreateImporter};

}  // namespace instrumentscope::deep_copy

#endif  // INSTRUMENTSCOPE_FORMATS_DEEP_COPY_DEEP_COPY_IMPORTER_H_
