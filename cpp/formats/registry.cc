#include "formats/registry.h"

#include "formats/deep_copy/deep_copy_importer.h"
#include "formats/trace_bundle/bundle_importer.h"
#include "formats/xctrace_xml/xml_importer.h"

namespace instrumentscope {

const std::vector<FormatDescriptor>& RegisteredFormats() {
  static const std::vector<FormatDescriptor> formats = {
      trace_bundle::kFormat,
      xctrace_xml::kFormat,
      deep_copy::kFormat,
  };
  return formats;
}

const FormatDescriptor* DetectFormat(ByteSpan prefix) {
  const FormatDescriptor* maybe = nullptr;
  for (const FormatDescriptor& format : RegisteredFormats()) {
    SniffMatch match = format.sniff(prefix);
    if (match == SniffMatch::kYes) return &format;
    if (match == SniffMatch::kMaybe && !maybe) maybe = &format;
  }
  return maybe;
}

}  // namespace instrumentscope
