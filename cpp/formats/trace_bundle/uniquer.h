// Instruments' integer uniquer (core/uniquing/arrayUniquer): arrays of u64
// stored once and referred to by number from table rows and other arrays.
//
// integeruniquer.index: a 32-byte header (magic 0x01234567 at 0, block size
// at 28), then one (u32 offset-in-block, u32 block) entry per array; entry 0
// is empty, so array k is the entry at 40 + 8k. integeruniquer.data: a 32-byte
// header, then arrays as u32 count + count × u64, never straddling a block.
// See FORMAT.md for the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_UNIQUER_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_UNIQUER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"
#include "container/file_tree.h"

namespace instrumentscope::trace_bundle {

class Uniquer {
 public:
  // Index and data as read from the bundle (already inflated). Without an
  // index (null or empty: some bundles lose it), the data file is scanned for
  // its arrays.
  static Result<Uniquer> Open(SharedBytes index, SharedBytes data, std::string data_path);
  // Whether the index's header can be read (its size, magic and block
  // size): an index that fails is no index at all, and the data is scanned
  // instead. Entries pointing past the data fail Open: the data is short.
  static Status CheckIndex(ByteSpan index);

  size_t size() const { return offsets_.size(); }
  // The elements of array `ref`.
  Result<std::vector<uint64_t>> Array(uint64_t ref) const;
  // Its first `count` elements (fewer when it holds fewer), without reading
  // the rest: records ([tid, process], [pid, name]) need only their head.
  Result<std::vector<uint64_t>> Head(uint64_t ref, uint32_t count) const;
  // Appends them to `out` instead, avoiding an allocation per lookup; an
  // array of more than `max_elements` fails with kLimitExceeded, unread.
  Status AppendArray(uint64_t ref, std::vector<uint64_t>* out,
                     uint64_t max_elements = UINT32_MAX) const;

 private:
  Uniquer(SharedBytes data, std::string data_path, std::vector<uint64_t> offsets)
      : data_(std::move(data)), data_path_(std::move(data_path)), offsets_(std::move(offsets)) {}

  static Result<std::vector<uint64_t>> ReadIndex(ByteSpan index, uint64_t data_size);
  static Result<std::vector<uint64_t>> ScanData(ByteSpan data);

  SharedBytes data_;
  std::string data_path_;
  std::vector<uint64_t> offsets_;  // byte offset in the data file of each array
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_UNIQUER_H_
