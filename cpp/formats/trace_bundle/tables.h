// The tables of a bundle's runs, for the consumers that give them meaning: a
// store (corespace/run<N>/core/stores/<store>/) opened by its schema, its rows
// typed (every column by mnemonic, the topology's parts to the bit, laid out
// by bulkstore_descriptor or, without one, by the schema), and the
// references rows hold resolved through the run's array uniquer and strings.
// Errors name the file, the byte offset and the row. Knows no table's
// meaning: the catalogue (tables/catalogue.h) does, and row_decoder.h
// decodes rows for its consumers. See FORMAT.md for the layouts.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "formats/trace_bundle/bundle_files.h"
#include "formats/trace_bundle/bundle_layout.h"
#include "formats/trace_bundle/messages.h"
#include "formats/trace_bundle/store.h"
#include "formats/trace_bundle/uniquer.h"

namespace instrumentscope::trace_bundle {

class LeftOutParts;

// A store whose schema was read: the table's name and columns.
struct Table {
  StoreFolder store;
  StoreSchema schema;

  uint32_t run() const { return store.run.number; }
  const std::string& name() const { return schema.name; }
};

Result<Table> OpenTable(BundleFiles& files, const StoreFolder& store);

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "rows are read in the host's byte order");

// One row of a table.
class Row {
 public:
  explicit Row(ByteSpan bytes) : bytes_(bytes) {}

  // A column anywhere, packed in bits or not (RowLayout::Field); 0 when absent.
  // LayoutRow checked once that the fields fit the row size, the size of
  // every row: no check per field of millions of rows. `bytes` starts at the
  // row and may run on past it (BulkStore::RowOnward).
  uint64_t Get(const BitSlot& slot) const {
    uint64_t value = 0;
    if (slot.offset + sizeof(value) <= bytes_.size()) {
      // One load of the 8 bytes from the field on: the rows are little-endian, as every host is.
      std::memcpy(&value, bytes_.data() + slot.offset, sizeof(value));
      if (slot.width < sizeof(value)) value &= (uint64_t{1} << (slot.width * 8)) - 1;
    } else {
      for (size_t i = slot.width; i-- > 0;) value = value << 8 | bytes_[slot.offset + i];
    }
    return value >> slot.shift & slot.mask;
  }

 private:
  ByteSpan bytes_;
};

// The rows of a table, read whole.
class TableRows {
 public:
  const RowLayout& layout() const { return layout_; }
  uint64_t size() const { return rows_.row_count(); }  // padding included
  bool IsPadding(uint64_t row) const { return rows_.IsPadding(row); }
  Row row(uint64_t row) const { return Row(rows_.RowOnward(row)); }
  uint64_t offset(uint64_t row) const { return rows_.row_offset(row); }
  uint64_t CountEvents() const { return rows_.CountEvents(); }
  // Calls `visit(row)` with every row that is no padding.
  template <typename Visit>
  void ForEachEvent(Visit visit) const {
    for (uint64_t i = 0; i < size(); ++i) {
      if (!IsPadding(i)) visit(row(i));
    }
  }

  // An error about row `row`: where it is in the bulkstore. An error about
  // another file (the uniquer) stays as it is, located in that file.
  Status InRow(const Status& status, uint64_t row) const;
  // An error about the value of row `row`: at its bytes in the bulkstore.
  Status AtRow(Status status, uint64_t row) const;
  const std::string& path() const { return path_; }

 private:
  friend Result<TableRows> ReadRows(BundleFiles& files, const Table& table);

  TableRows(BulkStore rows, RowLayout layout, std::string path)
      : rows_(std::move(rows)), layout_(std::move(layout)), path_(std::move(path)) {}

  BulkStore rows_;
  RowLayout layout_;
  std::string path_;  // the bulkstore's
};

Result<TableRows> ReadRows(BundleFiles& files, const Table& table);

// What reads a table's rows as its bulkstore inflates (StreamRows).
class RowVisitor {
 public:
  virtual ~RowVisitor() = default;
  // Once the row's layout is known, before the first row.
  virtual Status Start(const RowLayout& layout) = 0;
  virtual Status Visit(const Row& row) = 0;
};

// A table's rows as its bulkstore inflates, never held whole (a System
// Trace's 838,333 system calls are 88 MB inflated) unless a helper read it
// ahead, within its budget (read_ahead.h): `visitor` is started,
// then given each row that is no padding. An error stops the visits, located
// in the bulkstore (its row, and the row's offset) unless it names another
// file (the uniquer); `events` gets the rows that are no padding, all of
// them, whatever stopped the visits.
Status StreamRows(BundleFiles& files, const Table& table, RowVisitor& visitor, uint64_t* events);

// The rows of a table that is only listed: as its descriptor counts them,
// else counted a piece at a time (Instruments 8; a descriptor that cannot be read).
Result<uint64_t> CountRows(BundleFiles& files, const Table& table);

// What the rows of one run refer to: arrays in the run's uniquer, strings in
// its strings file. Each is read once, when first needed.
class RunReferences {
 public:
  RunReferences(BundleFiles& files, LeftOutParts& left_out, CoreRun run)
      : files_(files), left_out_(left_out), run_(std::move(run)) {}

  // What `other`, of the same run, has read so far (a helper's copy: tables_ahead.h).
  void CopyReadFrom(const RunReferences& other) {
    arrays_ = other.arrays_;
    strings_ = other.strings_;
    typed_arrays_ = other.typed_arrays_;
    engineering_types_ = other.engineering_types_;
  }

  // Without an index, or with one that cannot be read (a warning), the
  // arrays are found by scanning the data file.
  Result<const Uniquer*> Arrays();
  // Fails when the run has no strings file: only tables with strings ask.
  Result<const std::vector<std::string>*> Strings();
  // The run's messages: its typed arrays (typedArrayUniquer, found by
  // scanning when its index is lost), engineering types and strings.
  Result<MessageReader> Messages();

  // A thread reference (XRThreadTypeID) is the index of its [tid, process
  // reference] record (in the 9-byte topology, its 22 bits after the time's
  // 50); a record without a process takes the row's. A process reference (XRProcessTypeID) is the
  // index of its [pid, name] record (the name is a placeholder, "TODO").
  struct Thread {
    uint64_t tid = 0;
    int64_t pid = -1;
  };
  Result<Thread> ThreadOf(uint64_t thread_ref, uint64_t process_ref);
  Result<int64_t> ProcessId(uint64_t process_ref);

 private:
  Result<Uniquer> OpenArrays();
  Result<Uniquer> OpenTypedArrays();

  BundleFiles& files_;
  LeftOutParts& left_out_;
  CoreRun run_;
  std::optional<Result<Uniquer>> arrays_;
  std::optional<Result<std::vector<std::string>>> strings_;
  std::optional<Result<Uniquer>> typed_arrays_;
  std::optional<Result<std::vector<std::string>>> engineering_types_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_TABLES_H_
