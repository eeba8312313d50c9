#include "formats/trace_bundle/bundle_files.h"

#include <memory>

#include "container/inflate.h"
#include "container/zip.h"

namespace instrumentscope::trace_bundle {

BundleFiles::BundleFiles(const FileTree& files, const Limits& limits)
    : files_(files), limits_(limits), layout_(ScanLayout(files.paths())) {}

Result<SharedBytes> BundleFiles::Read(const std::string& path) {
  auto bytes = files_.Read(path);
  if (!bytes.ok()) return bytes.status().WithPath(path);
  SharedBytes member = bytes.take();
  if (LooksLikeZlib(ByteSpan(member->data(), member->size()))) {
    auto inflated = Inflate(ByteSpan(member->data(), member->size()), InflateFormat::kZlib,
                            limits_.max_member_bytes);
    if (!inflated.ok()) return inflated.status().WithPath(path);
    member = std::make_shared<const std::vector<uint8_t>>(inflated.take());
  }
  RETURN_IF_ERROR(Count(path, member->size()));
  return member;
}

Result<SharedBytes> BundleFiles::ReadAsStored(const std::string& path) const {
  return files_.Read(path);
}

Status BundleFiles::ReadInPieces(const std::string& path,
                                 const std::function<void(ByteSpan)>& piece) {
  auto bytes = files_.Read(path);
  if (!bytes.ok()) return bytes.status().WithPath(path);
  ByteSpan member((*bytes)->data(), (*bytes)->size());
  uint64_t size = 0;
  if (LooksLikeZlib(member)) {
    Status inflated = InflateStream(member, InflateFormat::kZlib, limits_.max_member_bytes, 0,
                                    [&](ByteSpan part) {
                                      size += part.size();
                                      piece(part);
                                    });
    if (!inflated.ok()) return inflated.WithPath(path);
  } else {
    size = member.size();
    piece(member);
  }
  return Count(path, size);
}

Result<std::vector<uint8_t>> BundleFiles::ReadZipped(const std::string& path,
                                                     std::string* member_path) {
  SharedBytes zip_bytes;
  ASSIGN_OR_RETURN(zip_bytes, Read(path));
  auto zip = ZipArchive::Open(ByteSpan(zip_bytes->data(), zip_bytes->size()), limits_);
  if (!zip.ok()) return zip.status().WithPath(path);
  for (const ZipEntry& entry : zip->entries()) {
    if (entry.is_directory || IsJunkPath(entry.name)) continue;
    *member_path = path + "!/" + entry.name;
    auto bytes = zip->Extract(entry);
    if (!bytes.ok()) return bytes.status().WithPath(*member_path);
    RETURN_IF_ERROR(Count(*member_path, bytes->size()));
    return bytes;
  }
  return Status(ErrorCode::kBundleCorrupt, "the zip holds no file").WithPath(path);
}

Status BundleFiles::Count(const std::string& path, uint64_t size) {
  read_bytes_ += size;
  if (read_bytes_ > limits_.max_decompressed_bytes) {
    return Status(ErrorCode::kLimitExceeded, "the bundle's files expand to more than " +
                                                 std::to_string(limits_.max_decompressed_bytes) +
                                                 " bytes (limits.maxDecompressedBytes)")
        .WithPath(path);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
