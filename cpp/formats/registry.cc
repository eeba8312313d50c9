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

namespace {

const FormatDescriptor* FolderFormat() {
  for (const FormatDescriptor& format : RegisteredFormats()) {
    if (format.wanted_files && format.import_files) return &format;
  }
  return nullptr;
}

}  // namespace

std::vector<bool> WantedFolderFiles(const std::vector<std::string>& paths) {
  const FormatDescriptor* format = FolderFormat();
  return format ? format->wanted_files(paths) : std::vector<bool>(paths.size(), false);
}

Status ImportFolder(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options) {
  const FormatDescriptor* format = FolderFormat();
  if (!format)
    return Status(ErrorCode::kUnknownFormat, "no format instrumentscope reads is a folder");
  return format->import_files(files, builder, options);
}

}  // namespace instrumentscope
