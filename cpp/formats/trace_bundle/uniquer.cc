#include "formats/trace_bundle/uniquer.h"

#include <algorithm>
#include <cstring>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope::trace_bundle {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "arrays are copied in the host's byte order");

constexpr uint32_t kMagic = 0x01234567;
constexpr size_t kHeaderSize = 32;
constexpr size_t kBlockSizeOffset = 28;
constexpr size_t kEntrySize = 8;
// Entry 0 follows the header and is always empty: array k is entry k + 1.
constexpr size_t kFirstEntry = kHeaderSize + kEntrySize;
// An array holds at most this many elements (the largest seen holds a few
// hundred): a bound, so a damaged count cannot ask for gigabytes.
constexpr uint32_t kMaxArrayElements = 1 << 24;

}  // namespace

Status Uniquer::CheckIndex(ByteSpan index) {
  if (index.size() < kHeaderSize) {
    return Status(ErrorCode::kBundleCorrupt, "integeruniquer.index is " +
                                                 std::to_string(index.size()) +
                                                 " bytes, too short for its 32-byte header");
  }
  ByteReader reader(index);
  if (*reader.ReadU32Le() != kMagic) {
    return Status(ErrorCode::kBundleCorrupt, "integeruniquer.index has no 0x01234567 magic")
        .WithOffset(0);
  }
  RETURN_IF_ERROR(reader.Seek(kBlockSizeOffset));
  if (*reader.ReadU32Le() == 0) {
    return Status(ErrorCode::kBundleCorrupt, "integeruniquer.index gives a block size of 0")
        .WithOffset(kBlockSizeOffset);
  }
  return OkStatus();
}

Result<std::vector<uint64_t>> Uniquer::ReadIndex(ByteSpan index, uint64_t data_size) {
  RETURN_IF_ERROR(CheckIndex(index));
  ByteReader reader(index);
  RETURN_IF_ERROR(reader.Seek(kBlockSizeOffset));
  uint32_t block_size = *reader.ReadU32Le();
  std::vector<uint64_t> offsets;
  if (index.size() < kFirstEntry) return offsets;
  offsets.reserve((index.size() - kFirstEntry) / kEntrySize);
  RETURN_IF_ERROR(reader.Seek(kFirstEntry));
  while (reader.remaining() >= kEntrySize) {
    uint64_t entry_offset = reader.absolute_offset();
    uint32_t in_block = *reader.ReadU32Le();
    uint32_t block = *reader.ReadU32Le();
    auto start = CheckedAdd<uint64_t>(uint64_t{block} * block_size, in_block);
    if (!start || *start + 4 > data_size) {
      return Status(ErrorCode::kBundleCorrupt, "integeruniquer.index entry " +
                                                   std::to_string(offsets.size()) +
                                                   " points past the end of integeruniquer.data (" +
                                                   std::to_string(data_size) + " bytes)")
          .WithOffset(entry_offset);
    }
    offsets.push_back(*start);
  }
  return offsets;
}

Result<std::vector<uint64_t>> Uniquer::ScanData(ByteSpan data) {
  // Arrays are packed from the header on; a zero count means the rest of the
  // block is padding. Block boundaries are unknown here, so the scan moves to
  // the next non-zero word: counts are never zero.
  std::vector<uint64_t> offsets;
  ByteReader reader(data);
  RETURN_IF_ERROR(reader.Seek(std::min(kHeaderSize, data.size())));
  while (reader.remaining() >= 4) {
    uint64_t start = reader.position();
    uint32_t count = *reader.ReadU32Le();
    if (count == 0) continue;
    if (count > kMaxArrayElements || count * uint64_t{8} > reader.remaining()) break;
    offsets.push_back(start);
    RETURN_IF_ERROR(reader.Skip(count * size_t{8}));
  }
  return offsets;
}

Result<Uniquer> Uniquer::Open(SharedBytes index, SharedBytes data, std::string data_path) {
  ByteSpan data_bytes(data->data(), data->size());
  std::vector<uint64_t> offsets;
  // An empty index is none: the arrays are found as without one.
  if (index && !index->empty()) {
    auto read = ReadIndex(ByteSpan(index->data(), index->size()), data->size());
    if (!read.ok()) return read.status();
    offsets = read.take();
  } else {
    auto scanned = ScanData(data_bytes);
    if (!scanned.ok()) return scanned.status();
    offsets = scanned.take();
  }
  return Uniquer(std::move(data), std::move(data_path), std::move(offsets));
}

Status Uniquer::AppendArray(uint64_t ref, std::vector<uint64_t>* out, uint64_t max_elements) const {
  if (ref >= offsets_.size()) {
    return Status(ErrorCode::kBundleCorrupt, "array " + std::to_string(ref) +
                                                 " is not in the uniquer (it holds " +
                                                 std::to_string(offsets_.size()) + ")")
        .WithPath(data_path_);
  }
  ByteReader reader(ByteSpan(data_->data(), data_->size()));
  Status status = reader.Seek(offsets_[ref]);
  auto count = status.ok() ? reader.ReadU32Le() : Result<uint32_t>(status);
  if (!count.ok()) return count.status().WithPath(data_path_);
  if (*count > kMaxArrayElements || *count * uint64_t{8} > reader.remaining()) {
    return Status(ErrorCode::kBundleCorrupt, "array " + std::to_string(ref) + " claims " +
                                                 std::to_string(*count) +
                                                 " elements, more than the file holds")
        .WithPath(data_path_)
        .WithOffset(offsets_[ref]);
  }
  if (*count > max_elements) {
    return Status(ErrorCode::kLimitExceeded, "array " + std::to_string(ref) + " holds " +
                                                 std::to_string(*count) + " elements, more than " +
                                                 std::to_string(max_elements))
        .WithPath(data_path_)
        .WithOffset(offsets_[ref]);
  }
  if (*count == 0) return OkStatus();
  // In bounds, checked above. The elements are little-endian, as every host is: copied whole.
  ByteSpan elements = *reader.ReadBytes(*count * size_t{8});
  size_t first = out->size();
  out->resize(first + *count);
  std::memcpy(out->data() + first, elements.data(), elements.size());
  return OkStatus();
}

Result<std::vector<uint64_t>> Uniquer::Head(uint64_t ref, uint32_t count) const {
  if (ref >= offsets_.size()) return Array(ref);  // the same error
  ByteReader reader(ByteSpan(data_->data(), data_->size()));
  Status status = reader.Seek(offsets_[ref]);
  auto size = status.ok() ? reader.ReadU32Le() : Result<uint32_t>(status);
  if (!size.ok()) return size.status().WithPath(data_path_);
  std::vector<uint64_t> head;
  for (uint32_t i = 0; i < std::min(*size, count); ++i) {
    auto element = reader.ReadU64Le();
    if (!element.ok()) return element.status().WithPath(data_path_);
    head.push_back(*element);
  }
  return head;
}

Result<std::vector<uint64_t>> Uniquer::Array(uint64_t ref) const {
  std::vector<uint64_t> elements;
  RETURN_IF_ERROR(AppendArray(ref, &elements));
  return elements;
}

}  // namespace instrumentscope::trace_bundle
