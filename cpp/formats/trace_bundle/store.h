// A table store of a run (core/stores/indexed-store-N): its schema.xml (the
// table's name and columns), its bulkstore (fixed-size rows after a header)
// and, from Instruments 9 on, its bulkstore_descriptor (the row's fields).
// See FORMAT.md for the layouts and the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STORE_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/status.h"
#include "container/file_tree.h"
#include "container/keyed_archive.h"

namespace instrumentscope::trace_bundle {

struct StoreColumn {
  std::string mnemonic;          // "time", "thread", "weight", "stack"…
  std::string engineering_type;  // "XRSampleTimestampTypeID"…
  std::string topology_field;    // set for the columns the row's topology holds
};

struct StoreSchema {
  std::string name;      // "time-profile", "thread-name", "kdebug"…
  std::string topology;  // "XRT50_C22_TypeID", "XRTD50_CC22_TypeID"…
  std::vector<StoreColumn> columns;
};

Result<StoreSchema> ParseStoreSchema(ByteSpan xml);

// One field of a row: where it sits and how wide it is (0: absent).
struct FieldSlot {
  size_t offset = 0;
  size_t width = 0;
};

// A value anywhere in a row: `bits` bits from bit `shift` of the
// little-endian `width` bytes at `offset` (at most 8). The topologies of
// interval tables pack theirs in bits (Instruments 11: 50-bit times and
// durations, 22-bit categories); other columns are whole bytes.
struct BitSlot {
  size_t offset = 0;
  size_t width = 0;  // 0: absent
  uint32_t shift = 0;
  uint32_t bits = 0;
  uint64_t mask = 0;  // `bits` ones, kept for the read of every row

  static BitSlot Of(size_t offset, size_t width, uint32_t shift, uint32_t bits) {
    return BitSlot{offset, width, shift, bits,
                   bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1};
  }
};

// Where the fields of a row are: the topology's, and the other columns by
// mnemonic. Every column is found with Field(), which knows every topology's
// parts (start, duration, categories) by the schema's topologyField, to the
// bit: category 1 is the thread in sample tables, the pid in thread-info and
// process-info; category 2, of the 16-byte topology only, is 0 in every row
// seen.
struct RowLayout {
  size_t row_size = 0;
  FieldSlot time;  // the bytes the topology's time starts in: without them, no table read
  std::map<std::string, FieldSlot, std::less<>> columns;

  // The columns the topology holds, by mnemonic, to the bit.
  std::map<std::string, BitSlot, std::less<>> topology_columns;

  // A column wherever it sits, a topology part or not: the one way to find a column.
  BitSlot Field(std::string_view mnemonic) const;
};

struct DescriptorField {
  std::string name;  // the column's mnemonic, or "topology"
  int64_t index = 0;
  int64_t type = 0;
};

struct StoreDescriptor {
  int64_t max_event_size = 0;
  std::vector<DescriptorField> fields;
  // `_props.next_event_id`: the rows written, padding not counted [9.3.1 – 26.2].
  std::optional<uint64_t> event_count;
};

Result<StoreDescriptor> ReadDescriptor(const KeyedArchive& archive);

// The layout from the descriptor's fields (topologies of 9, 16, 18 and 24
// bytes, FORMAT.md); without a descriptor (Instruments 8), from the schema:
// the topology it names (18 bytes for XRTD50_CC22_TypeID, else 9), then 8
// bytes for weights and 4 for every other column. Either way it must add up
// to the bulkstore's row size.
Result<RowLayout> LayoutRow(const StoreSchema& schema,
                            const std::optional<StoreDescriptor>& descriptor, uint32_t row_size);

class BulkStore {
 public:
  static Result<BulkStore> Open(SharedBytes bytes);

  uint32_t row_size() const { return row_size_; }
  uint64_t row_count() const { return row_count_; }
  uint64_t row_offset(uint64_t row) const { return data_start_ + row * row_size_; }
  ByteSpan Row(uint64_t row) const;
  // The bytes from row `row` to the end of the store: its fields read a
  // word at a time, the rows after it read past and masked off.
  ByteSpan RowOnward(uint64_t row) const;
  // Rows of zeros pad the store's chunks: they are no events.
  bool IsPadding(uint64_t row) const;
  // The rows that are no padding.
  uint64_t CountEvents() const;

 private:
  BulkStore(SharedBytes bytes, uint64_t data_start, uint32_t row_size, uint64_t row_count)
      : bytes_(std::move(bytes)),
        data_start_(data_start),
        row_size_(row_size),
        row_count_(row_count) {}

  SharedBytes bytes_;
  uint64_t data_start_;
  uint32_t row_size_;
  uint64_t row_count_;
};

// Counts the rows of a bulkstore that are no padding from its bytes given in
// order, a piece at a time: a table that is only listed is never held whole.
// Given a visitor, it hands it each such row too, as it completes: a table
// read this way is never held whole either (one row at a time).
class BulkStoreRowCounter {
 public:
  // Row `row` (its index among all rows, padding included), its bytes
  // followed by 8 of zeros (a field is read a word at a time). An error
  // stops the visits, not the count.
  using Visit = std::function<Status(uint64_t row, ByteSpan bytes)>;

  BulkStoreRowCounter() = default;
  explicit BulkStoreRowCounter(Visit visit) : visit_(std::move(visit)) {}

  void Feed(ByteSpan piece);
  // The count, or the error BulkStore::Open gives for the same bytes.
  Result<uint64_t> Finish() const;
  uint64_t size() const { return size_; }
  // Known once the header is read (0 before), for visitors that lay out rows.
  uint32_t row_size() const { return row_size_; }
  uint64_t row_offset(uint64_t row) const { return data_start_ + row * row_size_; }
  // The first error a visit returned.
  const Status& visit_error() const { return visit_error_; }

 private:
  void CountRows(ByteSpan bytes, uint64_t position);

  Visit visit_;
  Status visit_error_;
  std::vector<uint8_t> head_;
  std::vector<uint8_t> row_;  // the row being filled, when visiting
  uint64_t size_ = 0;
  uint64_t data_start_ = 0;
  uint32_t row_size_ = 0;  // 0 until the header is read
  uint32_t row_filled_ = 0;
  bool row_has_data_ = false;
  uint64_t rows_ = 0;       // that are no padding
  uint64_t row_index_ = 0;  // of the row being filled, padding included
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_STORE_H_
