// A read-only zip archive (APPNOTE 6.3) over bytes held in memory: how a
// .trace bundle, a directory, travels as one file. Reads the central
// directory, including ZIP64's, and extracts stored and deflated entries,
// checking each one's CRC-32. Encryption and multi-disk archives are refused.
#ifndef INSTRUMENTSCOPE_CONTAINER_ZIP_H_
#define INSTRUMENTSCOPE_CONTAINER_ZIP_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"

namespace instrumentscope {

// True when `prefix` starts with a local file header (PK 03 04) or, for an
// archive without entries, the end of central directory record (PK 05 06).
bool LooksLikeZip(ByteSpan prefix);

// One entry as the central directory describes it.
struct ZipEntry {
  // The name's bytes as stored (UTF-8 or CP437), never transcoded.
  std::string name;
  uint16_t method = 0;
  uint16_t flags = 0;
  uint32_t crc32 = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  bool is_directory = false;  // the name ends in '/'
};

class ZipArchive {
 public:
  // Reads the central directory of `archive`, which must outlive the result:
  // the archive keeps a view of the bytes, not a copy.
  static Result<ZipArchive> Open(ByteSpan archive, const Limits& limits);

  const std::vector<ZipEntry>& entries() const { return entries_; }

  // The entry's bytes, after checking their size and CRC-32 against the
  // central directory.
  Result<std::vector<uint8_t>> Extract(const ZipEntry& entry) const;

 private:
  ZipArchive(ByteSpan archive, const Limits& limits, std::vector<ZipEntry> entries)
      : archive_(archive), limits_(limits), entries_(std::move(entries)) {}

  // The entry's compressed bytes, found through its local header.
  Result<ByteSpan> EntryData(const ZipEntry& entry) const;

  ByteSpan archive_;
  Limits limits_;
  std::vector<ZipEntry> entries_;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_ZIP_H_
