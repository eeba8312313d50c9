// The formats instrumentscope reads, in priority order. The import dispatcher
// knows nothing about any one format: it asks each sniffer in turn.
#ifndef INSTRUMENTSCOPE_FORMATS_REGISTRY_H_
#define INSTRUMENTSCOPE_FORMATS_REGISTRY_H_

#include <vector>

#include "formats/importer.h"

namespace instrumentscope {

// A definite match beats a possible one; among equals, earlier entries win.
const std::vector<FormatDescriptor>& RegisteredFormats();
// The best match for `prefix`, or nullptr.
const FormatDescriptor* DetectFormat(ByteSpan prefix);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_FORMATS_REGISTRY_H_
