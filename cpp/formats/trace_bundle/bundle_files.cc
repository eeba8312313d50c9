#include "formats/trace_bundle/bundle_files.h"

#include <algorithm>
#include <memory>

#include "container/inflate.h"
#include "container/zip.h"

namespace instrumentscope::trace_bundle {

namespace {

// What a helper may hold read ahead of the import, and read of one member.
constexpr uint64_t kMostHeldAhead = 16 << 20;
constexpr uint64_t kMostMemberAhead = 16 << 20;

// The member, inflated when it is a raw zlib stream, within `most_bytes`.
Result<SharedBytes> ReadMember(const FileTree& files, const std::string& path,
                               uint64_t most_bytes) {
  auto bytes = files.Read(path);
  if (!bytes.ok()) return bytes.status().WithPath(path);
  SharedBytes member = bytes.take();
  if (!LooksLikeZlib(ByteSpan(member->data(), member->size()))) return member;
  auto inflated =
      Inflate(ByteSpan(member->data(), member->size()), InflateFormat::kZlib, most_bytes);
  if (!inflated.ok()) return inflated.status().WithPath(path);
  return std::make_shared<const std::vector<uint8_t>>(inflated.take());
}

}  // namespace

BundleFiles::BundleFiles(const FileTree& files, const Limits& limits)
    : files_(files), limits_(limits), layout_(ScanLayout(files.paths())) {}

BundleFiles::~BundleFiles() = default;

uint32_t BundleFiles::ReadAheadOn(uint32_t threads) {
  if (!read_ahead_) {
    ReadAhead::Budget budget{kMostHeldAhead, std::min(limits_.max_member_bytes, kMostMemberAhead),
                             limits_.max_decompressed_bytes};
    const FileTree& files = files_;
    read_ahead_ = std::make_unique<ReadAhead>(
        [&files](const std::string& path, uint64_t most_bytes) {
          return ReadMember(files, path, most_bytes);
        },
        budget, std::make_unique<HelperThreads>(threads));
  }
  return read_ahead_->helpers();
}

void BundleFiles::PlanReads(const std::vector<std::string>& paths) {
  if (read_ahead_) read_ahead_->Plan(paths);
}

std::unique_ptr<BundleFiles> BundleFiles::ForHelper(std::vector<MemberRead>* reads) const {
  auto files = std::make_unique<BundleFiles>(files_, limits_);
  files->reads_ = reads;
  return files;
}

Result<SharedBytes> BundleFiles::Read(const std::string& path) {
  SharedBytes member = read_ahead_ ? read_ahead_->Take(path) : nullptr;
  if (!member) {
    ASSIGN_OR_RETURN(member, ReadMember(files_, path, limits_.max_member_bytes));
  }
  RETURN_IF_ERROR(Count(path, member->size()));
  return member;
}

Result<SharedBytes> BundleFiles::ReadAsStored(const std::string& path) const {
  return files_.Read(path);
}

Status BundleFiles::ReadInPieces(const std::string& path,
                                 const std::function<void(ByteSpan)>& piece) {
  if (SharedBytes read = read_ahead_ ? read_ahead_->Take(path) : nullptr) {
    piece(ByteSpan(read->data(), read->size()));
    return Count(path, read->size());
  }
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
  if (reads_) reads_->push_back(MemberRead{path, size});
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
