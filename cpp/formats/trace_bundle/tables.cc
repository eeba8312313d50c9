#include "formats/trace_bundle/tables.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <memory>

#include "container/keyed_archive.h"
#include "formats/trace_bundle/diagnostics.h"

namespace instrumentscope::trace_bundle {
namespace {

// The strings file: an XML property list, <plist><array><string>…</array></plist>.
Result<std::vector<std::string>> ParseStrings(ByteSpan xml) {
  if (xml.size() > INT32_MAX) {
    return Status(ErrorCode::kLimitExceeded, "the strings file is larger than 2 GiB");
  }
  std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
      xmlReadMemory(reinterpret_cast<const char*>(xml.data()), static_cast<int>(xml.size()),
                    "strings", nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
      xmlFreeDoc);
  if (!doc) {
    return Status(ErrorCode::kBundleCorrupt, "the strings file is not an XML property list");
  }
  // A property list names Apple's DTD but declares nothing; declared
  // entities would only be a hazard.
  if (doc->intSubset && doc->intSubset->entities) {
    return Status(ErrorCode::kBundleCorrupt, "the strings file declares entities");
  }
  std::vector<std::string> strings;
  xmlNode* root = xmlDocGetRootElement(doc.get());
  for (xmlNode* array = root ? root->children : nullptr; array; array = array->next) {
    if (array->type != XML_ELEMENT_NODE) continue;
    for (xmlNode* item = array->children; item; item = item->next) {
      if (item->type != XML_ELEMENT_NODE) continue;
      xmlChar* text = xmlNodeGetContent(item);
      strings.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
      xmlFree(text);
    }
  }
  return strings;
}

Result<std::optional<StoreDescriptor>> ReadStoreDescriptor(BundleFiles& files,
                                                           const StoreFolder& store) {
  std::string path = store.DescriptorPath();
  if (!files.Contains(path)) return std::optional<StoreDescriptor>();  // Instruments 8
  SharedBytes bytes;  // the archive's strings point into it
  ASSIGN_OR_RETURN(bytes, files.Read(path));
  auto archive = KeyedArchive::Parse(ByteSpan(bytes->data(), bytes->size()), files.limits());
  if (!archive.ok()) return archive.status().WithPath(path);
  auto descriptor = ReadDescriptor(*archive);
  if (!descriptor.ok()) return descriptor.status().WithPath(path);
  return std::optional<StoreDescriptor>(descriptor.take());
}

}  // namespace

Result<Table> OpenTable(BundleFiles& files, const StoreFolder& store) {
  std::string path = store.SchemaPath();
  SharedBytes bytes;
  ASSIGN_OR_RETURN(bytes, files.Read(path));
  auto schema = ParseStoreSchema(ByteSpan(bytes->data(), bytes->size()));
  if (!schema.ok()) return schema.status().WithPath(path);
  return Table{store, schema.take()};
}

Result<TableRows> ReadRows(BundleFiles& files, const Table& table) {
  std::string path = table.store.BulkStorePath();
  SharedBytes bytes;
  ASSIGN_OR_RETURN(bytes, files.Read(path));
  auto rows = BulkStore::Open(bytes);
  if (!rows.ok()) return rows.status().WithPath(path);
  std::optional<StoreDescriptor> descriptor;
  ASSIGN_OR_RETURN(descriptor, ReadStoreDescriptor(files, table.store));
  auto layout = LayoutRow(table.schema, descriptor, rows->row_size());
  if (!layout.ok()) return layout.status().WithPath(path);
  return TableRows(rows.take(), layout.take(), path);
}

Status StreamRows(BundleFiles& files, const Table& table, RowVisitor& visitor, uint64_t* events) {
  std::string path = table.store.BulkStorePath();
  std::optional<StoreDescriptor> descriptor;
  ASSIGN_OR_RETURN(descriptor, ReadStoreDescriptor(files, table.store));
  std::optional<RowLayout> layout;
  auto start = [&](uint32_t row_size) -> Status {
    auto laid_out = LayoutRow(table.schema, descriptor, row_size);
    if (!laid_out.ok()) return laid_out.status().WithPath(path);
    layout.emplace(laid_out.take());
    return visitor.Start(*layout);
  };
  BulkStoreRowCounter* rows = nullptr;
  BulkStoreRowCounter counter([&](uint64_t row, ByteSpan bytes) -> Status {
    if (!layout) RETURN_IF_ERROR(start(rows->row_size()));
    Status visited = visitor.Visit(Row(bytes));
    if (visited.ok() || (!visited.path().empty() && visited.path() != path)) return visited;
    Status located(visited.code(),
                   visited.message() + " (row " + std::to_string(row) + " of " + path + ")");
    located.WithPath(path).WithOffset(visited.offset().value_or(rows->row_offset(row)));
    return located;
  });
  rows = &counter;
  RETURN_IF_ERROR(files.ReadInPieces(path, [&](ByteSpan piece) { counter.Feed(piece); }));
  auto count = counter.Finish();
  if (!count.ok()) return count.status().WithPath(path);
  *events = *count;
  RETURN_IF_ERROR(counter.visit_error());
  // A table of no rows is started all the same: its consumer says what it holds.
  return layout ? OkStatus() : start(counter.row_size());
}

Result<uint64_t> CountRows(BundleFiles& files, const Table& table) {
  std::string path = table.store.BulkStorePath();
  // The descriptor's count saves inflating a table only listed (9.3.1 on):
  // equal to the rows counted in each of the corpus's 387 stores.
  if (files.Contains(path)) {
    auto descriptor = ReadStoreDescriptor(files, table.store);
    if (descriptor.ok() && *descriptor && (*descriptor)->event_count) {
      return *(*descriptor)->event_count;
    }
  }
  BulkStoreRowCounter counter;
  RETURN_IF_ERROR(files.ReadInPieces(path, [&](ByteSpan piece) { counter.Feed(piece); }));
  auto count = counter.Finish();
  if (!count.ok()) return count.status().WithPath(path);
  return count;
}

Status TableRows::InRow(const Status& status, uint64_t row) const {
  if (!status.path().empty() && status.path() != path_) return status;
  Status located(status.code(),
                 status.message() + " (row " + std::to_string(row) + " of " + path_ + ")");
  located.WithPath(path_);
  if (status.offset()) located.WithOffset(*status.offset());
  return located;
}

Status TableRows::AtRow(Status status, uint64_t row) const {
  return status.WithPath(path_).WithOffset(offset(row));
}

Result<const Uniquer*> RunReferences::Arrays() {
  if (!arrays_) arrays_ = OpenArrays();
  if (!arrays_->ok()) return arrays_->status();
  return &**arrays_;
}

Result<Uniquer> RunReferences::OpenArrays() {
  std::string index_path = run_.UniquerIndexPath(), data_path = run_.UniquerDataPath();
  SharedBytes data;
  ASSIGN_OR_RETURN(data, files_.Read(data_path));
  // Some bundles lose the index: the data is then scanned for its arrays.
  SharedBytes index;
  if (files_.Contains(index_path)) {
    auto read = files_.Read(index_path);
    Status damaged = read.status();
    // An empty index is none (Uniquer::Open), as in corespace/currentRun/.
    if (read.ok() && !(*read)->empty()) {
      damaged = Uniquer::CheckIndex(ByteSpan((*read)->data(), (*read)->size()));
    }
    if (damaged.ok()) {
      index = read.take();
    } else {
      // An index that cannot be read is one lost: the arrays are still found.
      std::string run = "run " + std::to_string(run_.number);
      RETURN_IF_ERROR(left_out_.LeaveOut(
          WarningCode::kBundlePartUnreadable, run + "'s uniquer index",
          damaged.WithPath(index_path),
          "where " + run + "'s arrays are: they are found by scanning integeruniquer.data instead",
          PartRole::kDetails));
    }
  }
  auto uniquer = Uniquer::Open(index, data, data_path);
  bool indexed = index && !index->empty();
  if (!uniquer.ok()) return uniquer.status().WithPath(indexed ? index_path : data_path);
  return uniquer;
}

Result<const std::vector<std::string>*> RunReferences::Strings() {
  if (!strings_) {
    strings_ = [this]() -> Result<std::vector<std::string>> {
      std::string path = run_.StringsPath();
      SharedBytes bytes;
      ASSIGN_OR_RETURN(bytes, files_.Read(path));
      auto strings = ParseStrings(ByteSpan(bytes->data(), bytes->size()));
      if (!strings.ok()) return strings.status().WithPath(path);
      return strings;
    }();
  }
  if (!strings_->ok()) return strings_->status();
  return &**strings_;
}

Result<Uniquer> RunReferences::OpenTypedArrays() {
  std::string index_path = run_.TypedUniquerIndexPath(), data_path = run_.TypedUniquerDataPath();
  SharedBytes data;
  ASSIGN_OR_RETURN(data, files_.Read(data_path));
  SharedBytes index;
  if (files_.Contains(index_path)) {
    auto read = files_.Read(index_path);
    // An index that cannot be read is none: the arrays are found by scanning.
    if (read.ok() && (*read)->empty()) read = SharedBytes();
    if (read.ok() && *read &&
        Uniquer::CheckIndex(ByteSpan((*read)->data(), (*read)->size())).ok()) {
      index = read.take();
    } else if (!read.ok() && read.status().code() == ErrorCode::kLimitExceeded) {
      return read.status();
    }
  }
  auto uniquer = Uniquer::Open(index, data, data_path);
  if (!uniquer.ok()) return uniquer.status().WithPath(index ? index_path : data_path);
  return uniquer;
}

Result<MessageReader> RunReferences::Messages() {
  if (!typed_arrays_) typed_arrays_ = OpenTypedArrays();
  if (!typed_arrays_->ok()) return typed_arrays_->status();
  if (!engineering_types_) {
    engineering_types_ = [this]() -> Result<std::vector<std::string>> {
      std::string path = run_.EngineeringTypesPath();
      SharedBytes bytes;
      ASSIGN_OR_RETURN(bytes, files_.Read(path));
      auto types = ReadEngineeringTypes(ByteSpan(bytes->data(), bytes->size()), files_.limits());
      if (!types.ok()) return types.status().WithPath(path);
      return types;
    }();
  }
  if (!engineering_types_->ok()) return engineering_types_->status();
  const std::vector<std::string>* strings;
  ASSIGN_OR_RETURN(strings, Strings());
  return MessageReader(**typed_arrays_, **engineering_types_, *strings);
}

Result<RunReferences::Thread> RunReferences::ThreadOf(uint64_t thread_ref, uint64_t process_ref) {
  const Uniquer* arrays;
  ASSIGN_OR_RETURN(arrays, Arrays());
  std::vector<uint64_t> record;
  ASSIGN_OR_RETURN(record, arrays->Head(thread_ref, 2));
  if (record.empty()) {
    return Status(ErrorCode::kBundleCorrupt,
                  "the record of thread reference " + std::to_string(thread_ref) + " is empty");
  }
  Thread thread;
  thread.tid = record[0];
  uint64_t process = record.size() > 1 ? record[1] : process_ref;
  if (process == kNoReference) return thread;  // a thread of no known process (pid -1)
  ASSIGN_OR_RETURN(thread.pid, ProcessId(process));
  return thread;
}

Result<int64_t> RunReferences::ProcessId(uint64_t process_ref) {
  const Uniquer* arrays;
  ASSIGN_OR_RETURN(arrays, Arrays());
  std::vector<uint64_t> record;
  ASSIGN_OR_RETURN(record, arrays->Head(process_ref, 1));
  if (record.empty()) return int64_t{-1};
  return static_cast<int64_t>(record[0]);
}

}  // namespace instrumentscope::trace_bundle
