#include "formats/trace_bundle/image_list.h"

#include <cstring>
#include <string_view>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "base/identifiers.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr uint32_t kImageListMagic = 0xFF01FF02;
constexpr uint32_t kImageListVersion = 1;
constexpr size_t kImageListHeaderSize = 24;
constexpr uint64_t kImageRecordSize = 56;
constexpr uint64_t kImageSegmentSize = 32;
constexpr uint64_t kNeverUnloaded = 0x7FFFFFFFFFFFFFFF;
constexpr uint32_t kTrailerMagic = 0x00C0FFEE;
constexpr uint32_t kTrailerVersion = 4;
constexpr size_t kTrailerUuidOffset = 8;
constexpr size_t kTrailerBaseOffset = 0x18;

Status Corrupt(const std::string& message, size_t offset) {
  return Status(ErrorCode::kBundleCorrupt, message).WithOffset(offset);
}

Result<ProcessImage> ReadImage(ByteReader& reader) {
  size_t record = reader.position();
  ProcessImage image;
  ByteSpan uuid;
  ASSIGN_OR_RETURN(uuid, reader.ReadBytes(image.uuid.size()));
  std::memcpy(image.uuid.data(), uuid.data(), uuid.size());
  RETURN_IF_ERROR(reader.Skip(8));  // u32, flags
  uint64_t unload;
  RETURN_IF_ERROR(reader.Skip(8));  // load time
  ASSIGN_OR_RETURN(unload, reader.ReadU64Le());
  image.unloaded = unload != kNeverUnloaded;
  RETURN_IF_ERROR(reader.Skip(8));  // cputype, cpusubtype
  uint32_t segments, path_size;
  ASSIGN_OR_RETURN(segments, reader.ReadU32Le());
  ASSIGN_OR_RETURN(path_size, reader.ReadU32Le());
  ByteSpan path;
  ASSIGN_OR_RETURN(path, reader.ReadBytes(path_size));
  std::string_view text(reinterpret_cast<const char*>(path.data()), path.size());
  image.path = std::string(text.substr(0, text.find('\0')));
  if (segments > reader.remaining() / kImageSegmentSize) {
    return Corrupt("an image lists more segments than the image list has bytes for", record);
  }
  for (uint32_t s = 0; s < segments; ++s) {
    ByteSpan segment_name;
    ASSIGN_OR_RETURN(segment_name, reader.ReadBytes(16));
    uint64_t address, size;
    ASSIGN_OR_RETURN(address, reader.ReadU64Le());
    ASSIGN_OR_RETURN(size, reader.ReadU64Le());
    std::string_view name(reinterpret_cast<const char*>(segment_name.data()), 16);
    if (name.substr(0, name.find('\0')) == "__TEXT") {
      image.text_start = address;
      image.text_size = size;
    }
  }
  return image;
}

// The trailer after the last image: u32 0x00C0FFEE, u32 version, the shared
// cache's UUID at +8 and its base at +0x18, then version strings.
void ReadTrailer(ByteSpan blob, size_t offset, ImageList* list) {
  ByteReader reader(blob);
  if (blob.size() - offset < kTrailerBaseOffset + 8) return;  // none
  (void)reader.Seek(offset);
  uint32_t magic = *reader.ReadU32Le();
  uint32_t version = *reader.ReadU32Le();
  if (magic != kTrailerMagic || version != kTrailerVersion) {
    list->unread_trailer =
        "the shared-cache trailer at byte " + std::to_string(offset) +
        " is not one this version reads (magic 0x00C0FFEE, version 4): " + QuoteBytes(blob, offset);
    return;
  }
  SharedCacheMapping mapping;
  std::memcpy(mapping.uuid.data(), blob.data() + offset + kTrailerUuidOffset, mapping.uuid.size());
  (void)reader.Seek(offset + kTrailerBaseOffset);
  mapping.base = *reader.ReadU64Le();
  // No cache: zeros [16.0], or the kernel's placeholder 00 01 02 … 0f [16.0, 26.0].
  bool placeholder = true;
  for (size_t i = 0; i < mapping.uuid.size(); ++i) {
    placeholder = placeholder && (mapping.uuid[i] == 0 || mapping.uuid[i] == i);
  }
  if (!placeholder) list->shared_cache = mapping;
}

}  // namespace

Result<ImageList> ParseImageList(ByteSpan blob) {
  ByteReader reader(blob);
  uint32_t magic, version;
  ASSIGN_OR_RETURN(magic, reader.ReadU32Le());
  if (magic != kImageListMagic) return Corrupt("the image list has no 0xFF01FF02 magic", 0);
  if (blob.size() < kImageListHeaderSize) return Corrupt("the image list is cut short", 0);
  ASSIGN_OR_RETURN(version, reader.ReadU32Le());
  if (version != kImageListVersion) {
    return Status(ErrorCode::kBundleUnsupported,
                  "an image list of version " + std::to_string(version) +
                      ", which this version does not read (it reads version 1): " +
                      QuoteBytes(blob, 0))
        .WithOffset(4);
  }
  RETURN_IF_ERROR(reader.Seek(kImageListHeaderSize - 4));
  uint32_t count;
  ASSIGN_OR_RETURN(count, reader.ReadU32Le());
  if (count > (blob.size() - kImageListHeaderSize) / kImageRecordSize) {
    return Corrupt("the image list counts more images than it has bytes for", 0x14);
  }
  ImageList list;
  list.images.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    ProcessImage image;
    ASSIGN_OR_RETURN(image, ReadImage(reader));
    list.images.push_back(std::move(image));
  }
  ReadTrailer(blob, reader.position(), &list);
  return list;
}

std::vector<ProcessImage> PlaceSharedCache(const SharedCacheImages& cache, uint64_t base,
                                           const std::vector<uint64_t>& loaded) {
  std::vector<ProcessImage> placed;
  auto place = [&](const ProcessImage& image) {
    std::optional<uint64_t> start = CheckedAdd(base, image.text_start);
    if (!start || !CheckedAdd(*start, image.text_size)) return;
    placed.push_back(image);
    placed.back().text_start = *start;
  };
  if (loaded.empty()) {
    for (const auto& [key, image] : cache) place(image);
    return placed;
  }
  for (uint64_t key : loaded) {
    auto image = cache.find(key);
    if (image != cache.end()) place(image->second);
  }
  return placed;
}

}  // namespace instrumentscope::trace_bundle
