// The formats instrumentscope reads, in priority order. The import dispatcher
// knows nothing about any one format: it asks each sniffer in turn, and for a
// folder, the formats that read folders.
#ifndef INSTRUMENTSCOPE_FORMATS_REGISTRY_H_
#define INSTRUMENTSCOPE_FORMATS_REGISTRY_H_

#include <string>
#include <vector>

#include "formats/importer.h"

namespace instrumentscope {

// A definite match beats a possible one; among equals, earlier entries win.
const std::vector<FormatDescriptor>& RegisteredFormats();
// The best match for `prefix`, or nullptr.
const FormatDescriptor* DetectFormat(ByteSpan prefix);

// A folder is read by the first format that reads folders. For all of its
// paths, whether each is worth reading; then the import of its files.
std::vector<bool> WantedFolderFiles(const std::vector<std::string>& paths);
Status ImportFolder(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_FORMATS_REGISTRY_H_
