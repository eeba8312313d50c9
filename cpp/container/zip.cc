#include "container/zip.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "container/inflate.h"

namespace instrumentscope {
namespace {

constexpr uint32_t kLocalHeaderSignature = 0x04034b50;     // PK 03 04
constexpr uint32_t kCentralHeaderSignature = 0x02014b50;   // PK 01 02
constexpr uint32_t kEndRecordSignature = 0x06054b50;       // PK 05 06
constexpr uint32_t kZip64EndRecordSignature = 0x06064b50;  // PK 06 06
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;    // PK 06 07
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kEndRecordSize = 22;
constexpr size_t kZip64LocatorSize = 20;
constexpr size_t kZip64EndRecordSize = 56;
constexpr size_t kMaxCommentSize = 0xffff;
constexpr uint16_t kZip64ExtraId = 0x0001;
// A 32-bit size or offset of this value is in the entry's zip64 extra field.
constexpr uint32_t kZip64Marker = 0xffffffff;
constexpr uint16_t kFlagEncrypted = 0x0001;
constexpr uint16_t kMethodStored = 0;
constexpr uint16_t kMethodDeflate = 8;

Status Corrupt(const std::string& message, uint64_t offset) {
  return Status(ErrorCode::kZipCorrupt, message).WithOffset(offset);
}

std::string Hex32(uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof(text), "%08x", value);
  return text;
}

// Where the end records say the central directory is.
struct CentralDirectory {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t entry_count = 0;
};

// The end of central directory record closes the archive, followed only by a
// comment of up to 64 KiB; the last signature whose comment fits is the one.
Result<size_t> FindEndRecord(ByteSpan archive) {
  if (archive.size() < kEndRecordSize) {
    return Corrupt("too short for a zip archive: " + std::to_string(archive.size()) +
                       " bytes, and the end record alone takes 22",
                   archive.size());
  }
  size_t last = archive.size() - kEndRecordSize;
  size_t first = last - std::min(last, kMaxCommentSize);
  ByteReader reader(archive);
  for (size_t position = last + 1; position-- > first;) {
    RETURN_IF_ERROR(reader.Seek(position));
    ASSIGN_OR_RETURN(uint32_t signature, reader.ReadU32Le());
    if (signature != kEndRecordSignature) continue;
    RETURN_IF_ERROR(reader.Seek(position + kEndRecordSize - 2));
    ASSIGN_OR_RETURN(uint16_t comment_size, reader.ReadU16Le());
    if (comment_size <= archive.size() - position - kEndRecordSize) return position;
  }
  return Corrupt("no end of central directory record: the archive is cut short or not a zip",
                 archive.size());
}

// Reads the end record at `end_offset` and, when a zip64 locator precedes it,
// the zip64 end record, whose 64-bit fields then replace the 32-bit ones.
Result<CentralDirectory> ReadEndRecords(ByteSpan archive, size_t end_offset, const Limits& limits) {
  ByteReader reader(archive);
  RETURN_IF_ERROR(reader.Seek(end_offset + 4));
  ASSIGN_OR_RETURN(uint32_t disk, reader.ReadU16Le());
  ASSIGN_OR_RETURN(uint32_t directory_disk, reader.ReadU16Le());
  ASSIGN_OR_RETURN(uint64_t disk_entry_count, reader.ReadU16Le());
  CentralDirectory directory;
  ASSIGN_OR_RETURN(directory.entry_count, reader.ReadU16Le());
  ASSIGN_OR_RETURN(directory.size, reader.ReadU32Le());
  ASSIGN_OR_RETURN(directory.offset, reader.ReadU32Le());
  uint64_t record_offset = end_offset;  // the central directory ends before it

  if (end_offset >= kZip64LocatorSize) {
    size_t locator_offset = end_offset - kZip64LocatorSize;
    RETURN_IF_ERROR(reader.Seek(locator_offset));
    ASSIGN_OR_RETURN(uint32_t locator_signature, reader.ReadU32Le());
    if (locator_signature == kZip64LocatorSignature) {
      RETURN_IF_ERROR(reader.Skip(4));  // the disk holding the zip64 end record
      ASSIGN_OR_RETURN(uint64_t zip64_offset, reader.ReadU64Le());
      if (zip64_offset > locator_offset || locator_offset - zip64_offset < kZip64EndRecordSize) {
        return Corrupt("the zip64 end record at offset " + std::to_string(zip64_offset) +
                           " does not fit before its locator",
                       locator_offset);
      }
      RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(zip64_offset)));
      ASSIGN_OR_RETURN(uint32_t zip64_signature, reader.ReadU32Le());
      if (zip64_signature != kZip64EndRecordSignature) {
        return Corrupt("no zip64 end record where its locator points", zip64_offset);
      }
      RETURN_IF_ERROR(reader.Skip(12));  // record size, versions made by and needed
      ASSIGN_OR_RETURN(disk, reader.ReadU32Le());
      ASSIGN_OR_RETURN(directory_disk, reader.ReadU32Le());
      ASSIGN_OR_RETURN(disk_entry_count, reader.ReadU64Le());
      ASSIGN_OR_RETURN(directory.entry_count, reader.ReadU64Le());
      ASSIGN_OR_RETURN(directory.size, reader.ReadU64Le());
      ASSIGN_OR_RETURN(directory.offset, reader.ReadU64Le());
      record_offset = zip64_offset;
    }
  }

  if (disk != 0 || directory_disk != 0) {
    return Status(ErrorCode::kZipUnsupported, "archives split across several disks are not read")
        .WithOffset(record_offset);
  }
  if (disk_entry_count != directory.entry_count) {
    return Corrupt("the end record counts " + std::to_string(disk_entry_count) +
                       " entries on its disk but " + std::to_string(directory.entry_count) +
                       " in all, and there is only one disk",
                   record_offset);
  }
  if (directory.entry_count > limits.max_zip_entries) {
    return Status(ErrorCode::kLimitExceeded,
                  "the archive lists " + std::to_string(directory.entry_count) +
                      " entries, more than " + std::to_string(limits.max_zip_entries) +
                      " (limits.maxZipEntries)")
        .WithOffset(record_offset);
  }
  std::optional<uint64_t> directory_end = CheckedAdd(directory.offset, directory.size);
  if (!directory_end || *directory_end > record_offset) {
    return Corrupt("the central directory (" + std::to_string(directory.size) +
                       " bytes at offset " + std::to_string(directory.offset) +
                       ") does not end before the end record",
                   record_offset);
  }
  if (directory.entry_count > directory.size / kCentralHeaderSize) {
    return Corrupt(std::to_string(directory.entry_count) +
                       " entries cannot fit in a central directory of " +
                       std::to_string(directory.size) + " bytes",
                   record_offset);
  }
  return directory;
}

// Replaces the 32-bit sizes and offset saturated at kZip64Marker by the 64-bit
// values of the zip64 extra field, which holds only those, in this order.
Status ReadZip64Extra(ByteSpan extra, uint64_t extra_offset, ZipEntry& entry) {
  ByteReader reader(extra, extra_offset);
  while (reader.remaining() >= 4) {
    ASSIGN_OR_RETURN(uint16_t id, reader.ReadU16Le());
    ASSIGN_OR_RETURN(uint16_t size, reader.ReadU16Le());
    if (size > reader.remaining()) break;  // the rest is padding, not fields
    uint64_t field_offset = reader.absolute_offset();
    ASSIGN_OR_RETURN(ByteSpan field, reader.ReadBytes(size));
    if (id != kZip64ExtraId) continue;
    ByteReader values(field, field_offset);
    for (uint64_t* value :
         {&entry.uncompressed_size, &entry.compressed_size, &entry.local_header_offset}) {
      if (*value != kZip64Marker) continue;
      if (values.remaining() < 8) {
        return Corrupt("the zip64 extra field is too short for the sizes it stands for",
                       field_offset);
      }
      ASSIGN_OR_RETURN(*value, values.ReadU64Le());
    }
    return OkStatus();
  }
  return Corrupt("a size or offset of 0xffffffff without a zip64 extra field", extra_offset);
}

// Reads central directory entry `index` (of `count`) at the reader's position.
Result<ZipEntry> ReadCentralEntry(ByteReader& reader, uint64_t index, uint64_t count,
                                  size_t archive_size) {
  uint64_t header_offset = reader.absolute_offset();
  std::string which =
      "central directory entry " + std::to_string(index + 1) + " of " + std::to_string(count);
  if (reader.remaining() < kCentralHeaderSize) {
    return Corrupt(which + " runs past the end of the central directory", header_offset);
  }
  ASSIGN_OR_RETURN(uint32_t signature, reader.ReadU32Le());
  if (signature != kCentralHeaderSignature) {
    return Corrupt(which + " lacks its signature", header_offset);
  }
  ZipEntry entry;
  RETURN_IF_ERROR(reader.Skip(4));  // versions made by and needed
  ASSIGN_OR_RETURN(entry.flags, reader.ReadU16Le());
  ASSIGN_OR_RETURN(entry.method, reader.ReadU16Le());
  RETURN_IF_ERROR(reader.Skip(4));  // modification time and date
  ASSIGN_OR_RETURN(entry.crc32, reader.ReadU32Le());
  ASSIGN_OR_RETURN(entry.compressed_size, reader.ReadU32Le());
  ASSIGN_OR_RETURN(entry.uncompressed_size, reader.ReadU32Le());
  ASSIGN_OR_RETURN(uint16_t name_size, reader.ReadU16Le());
  ASSIGN_OR_RETURN(uint16_t extra_size, reader.ReadU16Le());
  ASSIGN_OR_RETURN(uint16_t comment_size, reader.ReadU16Le());
  RETURN_IF_ERROR(reader.Skip(8));  // first disk, internal and external attributes
  ASSIGN_OR_RETURN(entry.local_header_offset, reader.ReadU32Le());
  if (size_t{name_size} + extra_size + comment_size > reader.remaining()) {
    return Corrupt(which + "'s name, extra field and comment run past the central directory",
                   header_offset);
  }
  ASSIGN_OR_RETURN(ByteSpan name, reader.ReadBytes(name_size));
  entry.name = std::string(name.as_chars());
  entry.is_directory = !entry.name.empty() && entry.name.back() == '/';
  uint64_t extra_offset = reader.absolute_offset();
  ASSIGN_OR_RETURN(ByteSpan extra, reader.ReadBytes(extra_size));
  RETURN_IF_ERROR(reader.Skip(comment_size));

  if (entry.compressed_size == kZip64Marker || entry.uncompressed_size == kZip64Marker ||
      entry.local_header_offset == kZip64Marker) {
    Status status = ReadZip64Extra(extra, extra_offset, entry);
    if (!status.ok()) return status.WithPath(entry.name);
  }
  // The local header and data must at least fit; Extract checks them exactly.
  std::optional<uint64_t> data_end =
      CheckedAdd<uint64_t>(entry.local_header_offset, kLocalHeaderSize);
  if (data_end) data_end = CheckedAdd(*data_end, entry.compressed_size);
  if (!data_end || *data_end > archive_size) {
    return Corrupt("the entry's local header at offset " +
                       std::to_string(entry.local_header_offset) + " and " +
                       std::to_string(entry.compressed_size) +
                       " bytes of data lie outside the archive (" + std::to_string(archive_size) +
                       " bytes)",
                   header_offset)
        .WithPath(entry.name);
  }
  return entry;
}

}  // namespace

bool LooksLikeZip(ByteSpan prefix) {
  ByteReader reader(prefix);
  auto signature = reader.ReadU32Le();
  return signature.ok() &&
         (*signature == kLocalHeaderSignature || *signature == kEndRecordSignature);
}

Result<ZipArchive> ZipArchive::Open(ByteSpan archive, const Limits& limits) {
  ASSIGN_OR_RETURN(size_t end_offset, FindEndRecord(archive));
  ASSIGN_OR_RETURN(CentralDirectory directory, ReadEndRecords(archive, end_offset, limits));
  // ReadEndRecords checked that the central directory lies inside the archive,
  // so these fit a size_t, and each of its entries takes 46 bytes or more.
  ByteSpan directory_bytes =
      archive.subspan(static_cast<size_t>(directory.offset), static_cast<size_t>(directory.size));
  ByteReader reader(directory_bytes, directory.offset);
  std::vector<ZipEntry> entries;
  entries.reserve(static_cast<size_t>(
      std::min<uint64_t>(directory.entry_count, directory.size / kCentralHeaderSize)));
  for (uint64_t index = 0; index < directory.entry_count; ++index) {
    ASSIGN_OR_RETURN(ZipEntry entry,
                     ReadCentralEntry(reader, index, directory.entry_count, archive.size()));
    entries.push_back(std::move(entry));
  }
  if (reader.remaining() > 0) {
    return Corrupt("the central directory holds more than the " +
                       std::to_string(directory.entry_count) + " entries the end record declares",
                   reader.absolute_offset());
  }
  // Entries sharing their data make a small archive inflate without end.
  std::vector<uint64_t> starts;
  starts.reserve(entries.size());
  for (const ZipEntry& entry : entries) starts.push_back(entry.local_header_offset);
  std::sort(starts.begin(), starts.end());
  auto shared = std::adjacent_find(starts.begin(), starts.end());
  if (shared != starts.end()) {
    return Corrupt("several entries share the data at offset " + std::to_string(*shared) +
                       " (overlapping entries: a zip bomb's trick)",
                   *shared);
  }
  return ZipArchive(archive, limits, std::move(entries));
}

Result<ByteSpan> ZipArchive::EntryData(const ZipEntry& entry) const {
  uint64_t header_offset = entry.local_header_offset;
  if (header_offset > archive_.size() || archive_.size() - header_offset < kLocalHeaderSize) {
    return Corrupt("the local header at offset " + std::to_string(header_offset) +
                       " lies outside the archive",
                   header_offset)
        .WithPath(entry.name);
  }
  ByteReader reader(archive_);
  RETURN_IF_ERROR(reader.Seek(static_cast<size_t>(header_offset)));
  ASSIGN_OR_RETURN(uint32_t signature, reader.ReadU32Le());
  if (signature != kLocalHeaderSignature) {
    return Corrupt("no local header signature where the central directory points", header_offset)
        .WithPath(entry.name);
  }
  // Versions, flags, method, time, date, CRC-32 and sizes: the central
  // directory's are the ones that count (with a data descriptor these are 0).
  RETURN_IF_ERROR(reader.Skip(22));
  ASSIGN_OR_RETURN(uint16_t name_size, reader.ReadU16Le());
  ASSIGN_OR_RETURN(uint16_t extra_size, reader.ReadU16Le());
  // The local name and extra field may differ in length from the central ones.
  // No overflow: header_offset is within the archive.
  uint64_t data_offset = header_offset + kLocalHeaderSize + name_size + extra_size;
  if (data_offset > archive_.size() || archive_.size() - data_offset < entry.compressed_size) {
    return Corrupt("the entry's " + std::to_string(entry.compressed_size) +
                       " bytes of data at offset " + std::to_string(data_offset) +
                       " run past the end of the archive",
                   data_offset)
        .WithPath(entry.name);
  }
  return archive_.subspan(static_cast<size_t>(data_offset),
                          static_cast<size_t>(entry.compressed_size));
}

Result<std::vector<uint8_t>> ZipArchive::Extract(const ZipEntry& entry) const {
  if (entry.flags & kFlagEncrypted) {
    return Status(ErrorCode::kZipUnsupported, "the entry is encrypted")
        .WithOffset(entry.local_header_offset)
        .WithPath(entry.name);
  }
  if (entry.method != kMethodStored && entry.method != kMethodDeflate) {
    return Status(ErrorCode::kZipUnsupported,
                  "compression method " + std::to_string(entry.method) +
                      " is not supported (only 0, stored, and 8, deflate)")
        .WithOffset(entry.local_header_offset)
        .WithPath(entry.name);
  }
  ASSIGN_OR_RETURN(ByteSpan data, EntryData(entry));
  uint64_t data_offset = static_cast<uint64_t>(data.data() - archive_.data());

  std::vector<uint8_t> output;
  if (entry.method == kMethodStored) {
    if (entry.compressed_size != entry.uncompressed_size) {
      return Corrupt("a stored entry whose sizes differ: " + std::to_string(entry.compressed_size) +
                         " bytes stored, " + std::to_string(entry.uncompressed_size) +
                         " uncompressed",
                     data_offset)
          .WithPath(entry.name);
    }
    output.assign(data.data(), data.data() + data.size());
  } else {
    if (entry.uncompressed_size > limits_.max_member_bytes) {
      return Status(ErrorCode::kLimitExceeded,
                    "the entry inflates to " + std::to_string(entry.uncompressed_size) +
                        " bytes, more than the limit of " +
                        std::to_string(limits_.max_member_bytes) + " (limits.maxMemberBytes)")
          .WithOffset(data_offset)
          .WithPath(entry.name);
    }
    // Inflate needs room for one byte more than the declared size (this bites
    // where size_t has 32 bits).
    if (entry.uncompressed_size >= output.max_size()) {
      return Status(ErrorCode::kLimitExceeded, "the entry's " +
                                                   std::to_string(entry.uncompressed_size) +
                                                   " bytes do not fit in memory")
          .WithOffset(data_offset)
          .WithPath(entry.name);
    }
    auto inflated = Inflate(data, InflateFormat::kRawDeflate, entry.uncompressed_size, data_offset);
    if (!inflated.ok()) {
      Status status = inflated.status();
      // Both limits are checked above: more output than max_output is more than declared.
      if (status.code() == ErrorCode::kLimitExceeded) {
        status = Corrupt("the entry inflates to more than the " +
                             std::to_string(entry.uncompressed_size) +
                             " bytes the central directory declares",
                         *inflated.status().offset());
      }
      return status.WithPath(entry.name);
    }
    output = inflated.take();
    if (output.size() != entry.uncompressed_size) {
      return Corrupt("the entry inflates to " + std::to_string(output.size()) + " bytes, not the " +
                         std::to_string(entry.uncompressed_size) +
                         " the central directory declares",
                     data_offset)
          .WithPath(entry.name);
    }
  }
  uint32_t crc = static_cast<uint32_t>(crc32_z(0, output.data(), output.size()));
  if (crc != entry.crc32) {
    return Corrupt("CRC-32 mismatch: the data has " + Hex32(crc) + ", the central directory says " +
                       Hex32(entry.crc32),
                   data_offset)
        .WithPath(entry.name);
  }
  return output;
}

}  // namespace instrumentscope
