#include "formats/trace_bundle/store.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr uint32_t kBulkStoreMagic = 0x12340A0A;
constexpr size_t kDataStartOffset = 12;
constexpr size_t kRowSizeOffset = 16;
constexpr size_t kHeaderSize = kRowSizeOffset + 4;  // up to the row size
// Rows seen are 17 to 33 bytes: a bound, so a damaged header stays harmless.
constexpr uint32_t kMaxRowSize = 4096;
// A field descriptor holds _name, _index, _type and _multi.
constexpr size_t kMaxFieldProperties = 16;

// Descriptor field types (bulkstore_descriptor _fields[]._type) and sizes.
constexpr int64_t kFieldU32 = 1;
constexpr int64_t kFieldU64 = 2;
constexpr int64_t kFieldTimeAndCategory = 4;    // u48 time, u24 category 1: 9 bytes
constexpr int64_t kFieldTimeAndCategories = 7;  // u64 time, u32 category 1, u32 category 2
// Interval topologies: 50-bit start and duration, 22-bit categories packed in
// 18 bytes [11.4.1]; u64 start, u64 duration, u32 categories [26.0].
constexpr int64_t kFieldIntervalPacked = 5;
constexpr int64_t kFieldInterval = 6;
constexpr size_t kTopologySize = 9;
constexpr size_t kWideTopologySize = 16;
constexpr size_t kPackedIntervalSize = 18;
// The schema's name of the 18-byte topology [8.3.3]; every other table of 8.3.3 has the 9-byte one.
constexpr std::string_view kPackedIntervalTopology = "XRTD50_CC22_TypeID";
constexpr size_t kIntervalSize = 24;

struct XmlDocDeleter {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};

std::string Attribute(xmlNode* node, const char* name) {
  xmlChar* value = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!value) return {};
  std::string text(reinterpret_cast<const char*>(value));
  xmlFree(value);
  return text;
}

bool IsElement(xmlNode* node, const char* name) {
  return node->type == XML_ELEMENT_NODE &&
         std::strcmp(reinterpret_cast<const char*>(node->name), name) == 0;
}

}  // namespace

Result<StoreSchema> ParseStoreSchema(ByteSpan xml) {
  if (xml.size() > (16 << 20)) {
    return Status(ErrorCode::kBundleCorrupt, "schema.xml is larger than 16 MiB");
  }
  if (xml.empty()) return Status(ErrorCode::kBundleCorrupt, "schema.xml is empty (0 bytes)");
  // No entity substitution, no DTD loading, no network: a few columns of XML.
  xmlResetLastError();  // so that the reason below is this document's
  std::unique_ptr<xmlDoc, XmlDocDeleter> doc(xmlReadMemory(
      reinterpret_cast<const char*>(xml.data()), static_cast<int>(xml.size()), "schema.xml",
      nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (!doc) {
    const xmlError* error = xmlGetLastError();
    std::string reason = error && error->message ? error->message : "";
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
    Status status(ErrorCode::kBundleCorrupt,
                  "schema.xml is not well-formed XML" + (reason.empty() ? "" : ": " + reason));
    if (error && error->line > 0) status.WithLine(static_cast<uint64_t>(error->line));
    return status;
  }
  // Instruments declares no entities here; declared ones would only be a hazard.
  if (doc->intSubset && doc->intSubset->entities) {
    return Status(ErrorCode::kBundleCorrupt, "schema.xml declares entities");
  }
  xmlNode* root = xmlDocGetRootElement(doc.get());
  if (!root || !IsElement(root, "schema")) {
    return Status(ErrorCode::kBundleCorrupt, "schema.xml has no <schema> root element");
  }
  StoreSchema schema;
  schema.name = Attribute(root, "name");
  schema.topology = Attribute(root, "topology");
  for (xmlNode* child = root->children; child; child = child->next) {
    if (!IsElement(child, "column")) continue;
    schema.columns.push_back(StoreColumn{Attribute(child, "mnemonic"),
                                         Attribute(child, "engineeringType"),
                                         Attribute(child, "topologyField")});
  }
  return schema;
}

namespace {

// `next_event_id` of the descriptor's `_props` dictionary, if it has one.
Result<std::optional<uint64_t>> EventCount(const KeyedArchive& archive, uint32_t props) {
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  ASSIGN_OR_RETURN(entries, archive.DictionaryEntries(props));
  for (const auto& [key, value] : entries) {
    std::string_view name;
    ASSIGN_OR_RETURN(name, archive.String(key));
    if (name != "next_event_id") continue;
    int64_t count;
    ASSIGN_OR_RETURN(count, archive.Integer(value));
    if (count < 0) {
      return Status(ErrorCode::kKeyedArchiveCorrupt,
                    "the descriptor counts " + std::to_string(count) + " rows");
    }
    return std::optional<uint64_t>(static_cast<uint64_t>(count));
  }
  return std::optional<uint64_t>();
}

}  // namespace

Result<StoreDescriptor> ReadDescriptor(const KeyedArchive& archive) {
  // $top.root is an XREventDescriptor whose $0 holds the properties.
  uint32_t root, properties;
  ASSIGN_OR_RETURN(root, archive.Top("root"));
  ASSIGN_OR_RETURN(properties, archive.Field(root, "$0"));
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  ASSIGN_OR_RETURN(entries, archive.DictionaryEntries(properties));
  StoreDescriptor descriptor;
  for (const auto& [key, value] : entries) {
    std::string_view name;
    ASSIGN_OR_RETURN(name, archive.String(key));
    if (name == "_maxEventSize") {
      ASSIGN_OR_RETURN(descriptor.max_event_size, archive.Integer(value));
    } else if (name == "_props") {
      ASSIGN_OR_RETURN(descriptor.event_count, EventCount(archive, value));
    } else if (name == "_fields") {
      std::vector<uint32_t> fields;
      ASSIGN_OR_RETURN(fields, archive.ArrayElements(value));
      if (fields.size() > kMaxRowSize) {
        return Status(ErrorCode::kKeyedArchiveCorrupt, "the descriptor lists " +
                                                           std::to_string(fields.size()) +
                                                           " fields, more than a row can hold");
      }
      for (uint32_t field : fields) {
        // An XRFieldDescriptor whose $0 is {_name, _index, _type, _multi}.
        uint32_t field_properties;
        ASSIGN_OR_RETURN(field_properties, archive.Field(field, "$0"));
        std::vector<std::pair<uint32_t, uint32_t>> field_entries;
        ASSIGN_OR_RETURN(field_entries, archive.DictionaryEntries(field_properties));
        if (field_entries.size() > kMaxFieldProperties) {
          return Status(ErrorCode::kKeyedArchiveCorrupt, "a field of the descriptor has " +
                                                             std::to_string(field_entries.size()) +
                                                             " properties");
        }
        DescriptorField parsed;
        for (const auto& [field_key, field_value] : field_entries) {
          std::string_view field_name;
          ASSIGN_OR_RETURN(field_name, archive.String(field_key));
          if (field_name == "_name") {
            std::string_view text;
            ASSIGN_OR_RETURN(text, archive.String(field_value));
            parsed.name = std::string(text);
          } else if (field_name == "_index") {
            ASSIGN_OR_RETURN(parsed.index, archive.Integer(field_value));
          } else if (field_name == "_type") {
            ASSIGN_OR_RETURN(parsed.type, archive.Integer(field_value));
          }
        }
        descriptor.fields.push_back(std::move(parsed));
      }
    }
  }
  std::stable_sort(
      descriptor.fields.begin(), descriptor.fields.end(),
      [](const DescriptorField& a, const DescriptorField& b) { return a.index < b.index; });
  return descriptor;
}

namespace {

void PlaceColumn(const std::string& mnemonic, FieldSlot slot, RowLayout* layout) {
  layout->columns.emplace(mnemonic, slot);
}

// The parts of a topology, in bits from its start.
struct TopologyBits {
  uint32_t start, start_bits, duration, duration_bits, category1, category1_bits, category2,
      category2_bits;
};

std::optional<TopologyBits> BitsOf(int64_t type) {
  switch (type) {
    case kFieldTimeAndCategory: return TopologyBits{0, 50, 0, 0, 50, 22, 0, 0};
    case kFieldIntervalPacked: return TopologyBits{0, 50, 50, 50, 100, 22, 122, 22};
    case kFieldTimeAndCategories: return TopologyBits{0, 64, 0, 0, 64, 32, 96, 32};
    case kFieldInterval: return TopologyBits{0, 64, 64, 64, 128, 32, 160, 32};
    default: return std::nullopt;
  }
}

BitSlot SlotOf(size_t byte_offset, uint32_t bit, uint32_t bits) {
  if (bits == 0) return BitSlot{};
  uint32_t shift = bit % 8;
  return BitSlot::Of(byte_offset + bit / 8, (shift + bits + 7) / 8, shift, bits);
}

// The columns a topology of `type` at `offset` holds, by the schema's
// topologyField; parts no column claims (junk in 11.4.1) are left unread.
void PlaceTopologyColumns(const StoreSchema& schema, int64_t type, size_t offset,
                          RowLayout* layout) {
  std::optional<TopologyBits> bits = BitsOf(type);
  if (!bits) return;
  for (const StoreColumn& column : schema.columns) {
    const std::string& field = column.topology_field;
    BitSlot slot;
    if (field == "XRTraceRelativeTimestampFieldID") {
      slot = SlotOf(offset, bits->start, bits->start_bits);
    } else if (field == "XRDurationFieldID") {
      slot = SlotOf(offset, bits->duration, bits->duration_bits);
    } else if (field == "XRCategory1FieldID") {
      slot = SlotOf(offset, bits->category1, bits->category1_bits);
    } else if (field == "XRCategory2FieldID") {
      slot = SlotOf(offset, bits->category2, bits->category2_bits);
    }
    if (slot.width) layout->topology_columns.emplace(column.mnemonic, slot);
  }
}

}  // namespace

BitSlot RowLayout::Field(std::string_view mnemonic) const {
  auto topology = topology_columns.find(mnemonic);
  if (topology != topology_columns.end()) return topology->second;
  auto column = columns.find(mnemonic);
  if (column == columns.end()) return BitSlot{};
  const FieldSlot& slot = column->second;
  return BitSlot::Of(slot.offset, slot.width, 0, static_cast<uint32_t>(slot.width * 8));
}

Result<RowLayout> LayoutRow(const StoreSchema& schema,
                            const std::optional<StoreDescriptor>& descriptor, uint32_t row_size) {
  RowLayout layout;
  layout.row_size = row_size;
  size_t offset = 0;
  if (descriptor) {
    bool has_topology = false;
    for (const DescriptorField& field : descriptor->fields) {
      bool topology = BitsOf(field.type).has_value();
      if (topology && has_topology) {
        return Status(ErrorCode::kBundleUnsupported,
                      "the " + schema.name + " table's rows have two topologies");
      }
      has_topology = has_topology || topology;
      if (topology) PlaceTopologyColumns(schema, field.type, offset, &layout);
      if (field.type == kFieldTimeAndCategory) {
        layout.time = FieldSlot{offset, 6};
        offset += kTopologySize;
      } else if (field.type == kFieldTimeAndCategories) {
        layout.time = FieldSlot{offset, 8};
        offset += kWideTopologySize;
      } else if (field.type == kFieldIntervalPacked) {
        // Only interval tables' readers read it, through Field(): `time` is
        // the start's first 48 bits, as the 9-byte topology's.
        layout.time = FieldSlot{offset, 6};
        offset += kPackedIntervalSize;
      } else if (field.type == kFieldInterval) {
        layout.time = FieldSlot{offset, 8};
        offset += kIntervalSize;
      } else if (field.type == kFieldU32 || field.type == kFieldU64) {
        size_t width = field.type == kFieldU32 ? 4 : 8;
        PlaceColumn(field.name, FieldSlot{offset, width}, &layout);
        offset += width;
      } else {
        return Status(ErrorCode::kBundleUnsupported,
                      "the " + schema.name + " table's field \"" + field.name + "\" has type " +
                          std::to_string(field.type) + ", which this version does not read");
      }
    }
  } else {
    // Instruments 8 has no descriptor: the topology the schema names, then
    // the other columns.
    if (schema.topology == kPackedIntervalTopology) {
      layout.time = FieldSlot{0, 6};
      PlaceTopologyColumns(schema, kFieldIntervalPacked, 0, &layout);
      offset = kPackedIntervalSize;
    } else {
      layout.time = FieldSlot{0, 6};
      PlaceTopologyColumns(schema, kFieldTimeAndCategory, 0, &layout);
      offset = kTopologySize;
    }
    for (const StoreColumn& column : schema.columns) {
      if (!column.topology_field.empty()) continue;
      size_t width = column.engineering_type == "XRTimeSampleWeightTypeID" ? 8 : 4;
      PlaceColumn(column.mnemonic, FieldSlot{offset, width}, &layout);
      offset += width;
    }
  }
  if (offset != row_size) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the " + schema.name + " table's fields take " + std::to_string(offset) +
                      " bytes, but its rows are " + std::to_string(row_size) +
                      " bytes: a row layout this version does not know");
  }
  if (layout.time.width == 0) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the " + schema.name + " table's rows have no time topology");
  }
  return layout;
}

namespace {

struct BulkStoreHeader {
  uint32_t data_start;
  uint32_t row_size;
};

// The header of a bulkstore of `size` bytes, from its first bytes.
Result<BulkStoreHeader> ReadHeader(ByteSpan head, uint64_t size) {
  if (head.size() < kHeaderSize) {
    // Often a file left empty by an interrupted copy of the bundle.
    return Status(ErrorCode::kBundleCorrupt, "a bulkstore of " + std::to_string(head.size()) +
                                                 " bytes is shorter than its " +
                                                 std::to_string(kHeaderSize) + "-byte header")
        .WithOffset(head.size());
  }
  ByteReader reader(head);
  auto magic = reader.ReadU32Le();
  if (!magic.ok()) return magic.status();
  if (*magic != kBulkStoreMagic) {
    return Status(ErrorCode::kBundleCorrupt, "bulkstore has no 0x12340A0A magic").WithOffset(0);
  }
  RETURN_IF_ERROR(reader.Seek(kDataStartOffset));
  auto data_start = reader.ReadU32Le();
  if (!data_start.ok()) return data_start.status();
  auto row_size = reader.ReadU32Le();
  if (!row_size.ok()) return row_size.status();
  if (*row_size == 0 || *row_size > kMaxRowSize) {
    return Status(ErrorCode::kBundleCorrupt,
                  "bulkstore rows of " + std::to_string(*row_size) + " bytes")
        .WithOffset(kRowSizeOffset);
  }
  if (*data_start > size) {
    return Status(ErrorCode::kBundleCorrupt, "bulkstore rows start past its end")
        .WithOffset(kDataStartOffset);
  }
  return BulkStoreHeader{*data_start, *row_size};
}

bool AllZero(ByteSpan bytes) {
  return std::all_of(bytes.data(), bytes.data() + bytes.size(), [](uint8_t b) { return b == 0; });
}

}  // namespace

Result<BulkStore> BulkStore::Open(SharedBytes bytes) {
  BulkStoreHeader header;
  ASSIGN_OR_RETURN(header, ReadHeader(ByteSpan(bytes->data(), bytes->size()), bytes->size()));
  uint64_t row_count = (bytes->size() - header.data_start) / header.row_size;
  return BulkStore(std::move(bytes), header.data_start, header.row_size, row_count);
}

void BulkStoreRowCounter::Feed(ByteSpan piece) {
  uint64_t piece_start = size_;
  size_ += piece.size();
  size_t used = 0;
  if (head_.size() < kHeaderSize) {
    used = std::min(piece.size(), kHeaderSize - head_.size());
    head_.insert(head_.end(), piece.data(), piece.data() + used);
    if (head_.size() < kHeaderSize) return;
    // The header may claim rows that start inside it.
    CountRows(ByteSpan(head_.data(), head_.size()), 0);
  }
  CountRows(piece.subspan(used), piece_start + used);
}

void BulkStoreRowCounter::CountRows(ByteSpan bytes, uint64_t position) {
  if (row_size_ == 0) {
    // The size is checked at Finish, once it is known.
    auto header = ReadHeader(ByteSpan(head_.data(), head_.size()), UINT64_MAX);
    if (!header.ok()) return;
    data_start_ = header->data_start;
    row_size_ = header->row_size;
    if (visit_) row_.assign(row_size_ + sizeof(uint64_t), 0);
  }
  if (position + bytes.size() <= data_start_) return;
  if (position < data_start_) {
    bytes = bytes.subspan(static_cast<size_t>(data_start_ - position));
    position = data_start_;
  }
  bool visiting = visit_ && visit_error_.ok();
  while (!bytes.empty()) {
    size_t take = std::min<uint64_t>(bytes.size(), row_size_ - row_filled_);
    ByteSpan part = bytes.first(take);
    row_has_data_ = row_has_data_ || !AllZero(part);
    if (visiting) std::memcpy(row_.data() + row_filled_, part.data(), take);
    row_filled_ += take;
    bytes = bytes.subspan(take);
    if (row_filled_ == row_size_) {
      if (row_has_data_) {
        ++rows_;
        if (visiting) {
          visit_error_ = visit_(row_index_, ByteSpan(row_.data(), row_.size()));
          visiting = visit_error_.ok();
        }
      }
      ++row_index_;
      row_filled_ = 0;
      row_has_data_ = false;
    }
  }
}

Result<uint64_t> BulkStoreRowCounter::Finish() const {
  RETURN_IF_ERROR(ReadHeader(ByteSpan(head_.data(), head_.size()), size_).status());
  return rows_;
}

ByteSpan BulkStore::Row(uint64_t row) const {
  return ByteSpan(bytes_->data() + row_offset(row), row_size_);
}

ByteSpan BulkStore::RowOnward(uint64_t row) const {
  uint64_t offset = row_offset(row);
  return ByteSpan(bytes_->data() + offset, bytes_->size() - offset);
}

bool BulkStore::IsPadding(uint64_t row) const {
  return AllZero(Row(row));
}

uint64_t BulkStore::CountEvents() const {
  uint64_t events = 0;
  for (uint64_t i = 0; i < row_count_; ++i) events += IsPadding(i) ? 0 : 1;
  return events;
}

}  // namespace instrumentscope::trace_bundle
