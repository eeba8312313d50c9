// A small zip writer for the tests: enough of APPNOTE to build every case the
// zip reader's tests need (deflate, data descriptors, zip64), and zips of
// symbol files.
#ifndef INSTRUMENTSCOPE_TESTS_CPP_ZIP_WRITER_H_
#define INSTRUMENTSCOPE_TESTS_CPP_ZIP_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace instrumentscope::testing {

// Where the writer puts things.
constexpr size_t kLocalHeaderSize = 30;
constexpr size_t kLocalExtraSizeField = 28;
constexpr size_t kCentralCrcField = 16;
constexpr size_t kCentralUncompressedSizeField = 24;
constexpr size_t kCentralLocalOffsetField = 42;
constexpr size_t kEndRecordSize = 22;

struct Member {
  std::string name;
  std::string data;
  bool deflate = false;
  bool data_descriptor = false;  // CRC-32 and sizes after the data, 0 in the local header
  bool zip64 = false;            // sizes and offset only in zip64 extra fields
  uint16_t flags = 0;            // more flag bits
  uint16_t method = 0;           // overrides the method (the data stays as written)
};

// Little-endian `value` in `bytes` bytes, appended, overwritten or read.
void Put(std::vector<uint8_t>& out, uint64_t value, int bytes);
void Patch(std::vector<uint8_t>& out, size_t offset, uint64_t value, int bytes);
uint64_t Get(const std::vector<uint8_t>& bytes, size_t offset, int width);
uint32_t Crc32(const std::string& data);

// With `zip64_end`, a zip64 end record and locator precede the end record,
// whose fields are then saturated.
std::vector<uint8_t> WriteZip(const std::vector<Member>& members, bool zip64_end = false,
                              const std::string& comment = "");

// The zip at `path` written again, each file passed through `edit`, which
// may change its bytes and returns false to leave it out.
std::vector<uint8_t> ZipRewritten(
    const std::string& path,
    const std::function<bool(const std::string& name, std::string& data)>& edit);

// The zip at `path` written again without the files whose names contain
// `left_out` (a bundle without its symbol archives, say).
std::vector<uint8_t> ZipWithout(const std::string& path, const std::string& left_out);

}  // namespace instrumentscope::testing

#endif  // INSTRUMENTSCOPE_TESTS_CPP_ZIP_WRITER_H_
