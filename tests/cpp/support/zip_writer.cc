#include "zip_writer.h"

#include <zlib.h>

#include <catch2/catch.hpp>

#include "container/zip.h"
#include "test_support.h"

namespace instrumentscope::testing {

void Put(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void Patch(std::vector<uint8_t>& out, size_t offset, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t Get(const std::vector<uint8_t>& bytes, size_t offset, int width) {
  uint64_t value = 0;
  for (int i = width; i-- > 0;) value = (value << 8) | bytes[offset + i];
  return value;
}

namespace {

void PutText(std::vector<uint8_t>& out, const std::string& text) {
  out.insert(out.end(), text.begin(), text.end());
}

std::string RawDeflate(const std::string& data) {
  std::vector<uint8_t> raw = Deflate(std::vector<uint8_t>(data.begin(), data.end()), -MAX_WBITS);
  return std::string(raw.begin(), raw.end());
}

}  // namespace

uint32_t Crc32(const std::string& data) {
  return static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

std::vector<uint8_t> WriteZip(const std::vector<Member>& members, bool zip64_end,
                              const std::string& comment) {
  std::vector<uint8_t> out, directory;
  for (const Member& member : members) {
    std::string stored = member.deflate ? RawDeflate(member.data) : member.data;
    uint16_t flags = member.flags | (member.data_descriptor ? 0x08 : 0);
    uint16_t method = member.method ? member.method : member.deflate ? 8 : 0;
    uint32_t crc = Crc32(member.data);
    uint64_t offset = out.size();
    bool sizes_in_header = !member.data_descriptor;
    uint64_t size32_marker = member.zip64 ? 0xffffffff : 0;

    Put(out, 0x04034b50, 4);
    Put(out, 45, 2);
    Put(out, flags, 2);
    Put(out, method, 2);
    Put(out, 0x00210000, 4);  // 1980-01-01 00:00
    Put(out, sizes_in_header ? crc : 0, 4);
    Put(out, size32_marker ? size32_marker : sizes_in_header ? stored.size() : 0, 4);
    Put(out, size32_marker ? size32_marker : sizes_in_header ? member.data.size() : 0, 4);
    Put(out, member.name.size(), 2);
    Put(out, member.zip64 ? 20 : 0, 2);
    PutText(out, member.name);
    if (member.zip64) {
      Put(out, 0x0001, 2);
      Put(out, 16, 2);
      Put(out, sizes_in_header ? member.data.size() : 0, 8);
      Put(out, sizes_in_header ? stored.size() : 0, 8);
    }
    PutText(out, stored);
    if (member.data_descriptor) {
      int width = member.zip64 ? 8 : 4;
      Put(out, 0x08074b50, 4);
      Put(out, crc, 4);
      Put(out, stored.size(), width);
      Put(out, member.data.size(), width);
    }

    Put(directory, 0x02014b50, 4);
    Put(directory, 0x031e, 2);  // made by: Unix
    Put(directory, 45, 2);
    Put(directory, flags, 2);
    Put(directory, method, 2);
    Put(directory, 0x00210000, 4);
    Put(directory, crc, 4);
    Put(directory, member.zip64 ? 0xffffffff : stored.size(), 4);
    Put(directory, member.zip64 ? 0xffffffff : member.data.size(), 4);
    Put(directory, member.name.size(), 2);
    Put(directory, member.zip64 ? 28 : 0, 2);
    Put(directory, 0, 6);  // comment size, first disk, internal attributes
    Put(directory, 0, 4);  // external attributes
    Put(directory, member.zip64 ? 0xffffffff : offset, 4);
    PutText(directory, member.name);
    if (member.zip64) {
      Put(directory, 0x0001, 2);
      Put(directory, 24, 2);
      Put(directory, member.data.size(), 8);
      Put(directory, stored.size(), 8);
      Put(directory, offset, 8);
    }
  }
  uint64_t directory_offset = out.size();
  out.insert(out.end(), directory.begin(), directory.end());
  uint64_t count = members.size();
  if (zip64_end) {
    uint64_t zip64_offset = out.size();
    Put(out, 0x06064b50, 4);
    Put(out, 44, 8);
    Put(out, 45, 2);
    Put(out, 45, 2);
    Put(out, 0, 4 + 4);
    Put(out, count, 8);
    Put(out, count, 8);
    Put(out, directory.size(), 8);
    Put(out, directory_offset, 8);
    Put(out, 0x07064b50, 4);
    Put(out, 0, 4);
    Put(out, zip64_offset, 8);
    Put(out, 1, 4);
  }
  bool saturate = zip64_end;
  Put(out, 0x06054b50, 4);
  Put(out, 0, 2 + 2);
  Put(out, saturate ? 0xffff : count, 2);
  Put(out, saturate ? 0xffff : count, 2);
  Put(out, saturate ? 0xffffffff : directory.size(), 4);
  Put(out, saturate ? 0xffffffff : directory_offset, 4);
  Put(out, comment.size(), 2);
  PutText(out, comment);
  return out;
}

std::vector<uint8_t> ZipRewritten(
    const std::string& path,
    const std::function<bool(const std::string& name, std::string& data)>& edit) {
  std::vector<uint8_t> original = ReadFile(path);
  auto zip = ZipArchive::Open(ByteSpan(original.data(), original.size()), Limits{});
  REQUIRE(zip.ok());
  std::vector<Member> members;
  for (const ZipEntry& entry : zip->entries()) {
    if (entry.is_directory) continue;
    auto bytes = zip->Extract(entry);
    REQUIRE(bytes.ok());
    std::string data(bytes->begin(), bytes->end());
    if (edit(entry.name, data)) members.push_back({entry.name, std::move(data)});
  }
  return WriteZip(members);
}

std::vector<uint8_t> ZipWithout(const std::string& path, const std::string& left_out) {
  return ZipRewritten(path, [&](const std::string& name, std::string&) {
    return name.find(left_out) == std::string::npos;
  });
}

}  // namespace instrumentscope::testing
