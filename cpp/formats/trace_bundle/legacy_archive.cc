#include "formats/trace_bundle/legacy_archive.h"

#include <string>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr uint32_t kRecordFileMagic = 0x12340A0A;
constexpr size_t kDataStartOffset = 0x0C;
constexpr size_t kRecordSizeOffset = 0x10;

Status Corrupt(const std::string& what) {
  return Status(ErrorCode::kBundleCorrupt, what);
}

}  // namespace

const TypedValue* PropertiesOf(const TypedStream& stream, const TypedObject& object) {
  std::vector<const TypedValue*> values = stream.Values(object);
  return values.empty() ? nullptr : values[0];
}

const TypedValue* PropertiesOf(const TypedStream& stream, const TypedValue* value) {
  if (!value || value->kind != TypedValue::Kind::kObject) return nullptr;
  return PropertiesOf(stream, stream.objects()[value->index]);
}

std::optional<int64_t> NumberAt(const TypedStream& stream, const TypedValue* dictionary,
                                std::string_view key) {
  if (!dictionary) return std::nullopt;
  const TypedValue* value = stream.Lookup(*dictionary, key);
  return value ? stream.Number(*value) : std::nullopt;
}

Result<IdMap> ReadIdMap(const TypedStream& stream, const TypedValue* substitutions,
                        const Limits& limits, std::string_view what) {
  const TypedValue* properties = PropertiesOf(stream, substitutions);
  const TypedValue* table = properties ? stream.Lookup(*properties, "id_map_nsdata") : nullptr;
  std::optional<std::string> bytes = table ? stream.Data(*table) : std::nullopt;
  std::string name = "the " + std::string(what);
  if (!bytes) return Corrupt("the archive holds no " + std::string(what) + " (id_map_nsdata)");
  IdMap map;
  auto parsed = TypedStream::Parse(
      ByteSpan(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()), limits);
  if (!parsed.ok()) {
    const Status& status = parsed.status();
    return Status(
        status.code(),
        name + " (id_map_nsdata): " + status.message() +
            (status.offset() ? " (at its byte " + std::to_string(*status.offset()) + ")" : ""));
  }
  map.stream = parsed.take();
  std::vector<const TypedValue*> values = TypedStream::Values(map.stream.groups());
  if (values.empty() || values[0]->kind != TypedValue::Kind::kInteger || values[0]->integer < 0 ||
      static_cast<uint64_t>(values[0]->integer) * 2 != values.size() - 1) {
    return Corrupt(name + " (id_map_nsdata) is not a count and its pairs");
  }
  for (size_t i = 1; i + 1 < values.size(); i += 2) {
    const TypedValue& id = *values[i + 1];
    if (id.kind != TypedValue::Kind::kInteger || id.integer < 0 || id.integer > UINT32_MAX) {
      return Corrupt(std::string(what) + " entry " + std::to_string(i / 2) + " has no 32-bit id");
    }
    map.entries.emplace_back(values[i], static_cast<uint32_t>(id.integer));
  }
  return map;
}

Result<RawBacktrace> ReadRawBacktrace(const TypedStream& stream, const TypedValue& object,
                                      uint32_t id, const Limits& limits) {
  std::string which = "backtrace " + std::to_string(id);
  if (object.kind != TypedValue::Kind::kObject) return Corrupt(which + " is not an object");
  std::vector<const TypedValue*> fields = stream.Values(stream.objects()[object.index]);
  if (fields.size() < 2 || fields[0]->kind != TypedValue::Kind::kInteger ||
      fields[1]->kind != TypedValue::Kind::kInteger) {
    return Corrupt(which + " has no pid and frame count");
  }
  RawBacktrace backtrace;
  backtrace.pid = fields[0]->integer;
  int64_t frames = fields[1]->integer;
  if (frames <= 0) return backtrace;
  if (fields.size() < 3 || fields[2]->kind != TypedValue::Kind::kList ||
      fields[2]->list.size() != static_cast<uint64_t>(frames)) {
    return Corrupt(which + " claims " + std::to_string(frames) + " frames but does not hold them");
  }
  if (static_cast<uint64_t>(frames) > limits.max_frames_per_stack) {
    return Status(ErrorCode::kLimitExceeded, "a backtrace of " + std::to_string(frames) +
                                                 " frames (limits.maxFramesPerStack)");
  }
  for (const TypedValue& address : fields[2]->list) {
    if (address.kind != TypedValue::Kind::kInteger) return Corrupt(which + " holds a non-address");
    backtrace.addresses.push_back(static_cast<uint64_t>(address.integer));
  }
  return backtrace;
}

Result<const TypedValue*> DescriptorProperties(const TypedStream& stream,
                                               const TypedObject& descriptor,
                                               std::string_view archive) {
  const TypedValue* properties = PropertiesOf(stream, descriptor);
  if (!properties || !stream.Dictionary(*properties)) {
    return Corrupt(std::string(archive) + "'s XREventDescriptor holds no properties");
  }
  return properties;
}

Result<BacktraceTable> ReadBacktraceTable(const TypedStream& stream,
                                          const TypedValue* substitutions, const Limits& limits) {
  IdMap map;
  ASSIGN_OR_RETURN(map, ReadIdMap(stream, substitutions, limits, "backtrace table"));
  BacktraceTable table;
  for (const auto& [object, id] : map.entries) {
    RawBacktrace backtrace;
    ASSIGN_OR_RETURN(backtrace, ReadRawBacktrace(map.stream, *object, id, limits));
    if (!table.emplace(id, std::move(backtrace)).second) {
      return Corrupt("the backtrace table holds id " + std::to_string(id) + " twice");
    }
  }
  return table;
}

Result<RecordFileLayout> ReadRecordFileHeader(ByteSpan data, uint32_t record_size, uint64_t records,
                                              std::string_view described_by) {
  ByteReader header(data);
  uint32_t magic;
  RecordFileLayout layout;
  ASSIGN_OR_RETURN(magic, header.ReadU32Le());
  if (magic != kRecordFileMagic) {
    return Corrupt("the file does not start with the record file magic 0x12340a0a").WithOffset(0);
  }
  RETURN_IF_ERROR(header.Seek(kDataStartOffset));
  ASSIGN_OR_RETURN(layout.data_start, header.ReadU32Le());
  RETURN_IF_ERROR(header.Seek(kRecordSizeOffset));
  ASSIGN_OR_RETURN(layout.record_size, header.ReadU32Le());
  if (layout.record_size != record_size) {
    return Corrupt("the records are " + std::to_string(layout.record_size) + " bytes, " +
                   std::string(described_by) + " says " + std::to_string(record_size))
        .WithOffset(kRecordSizeOffset);
  }
  // The records follow the header page, one after another across pages.
  auto needed = CheckedMul<uint64_t>(layout.record_size, records);
  if (layout.data_start > data.size() || !needed || *needed > data.size() - layout.data_start) {
    return Corrupt(std::string(described_by) + " counts " + std::to_string(records) +
                   " records of " + std::to_string(layout.record_size) + " bytes after a " +
                   std::to_string(layout.data_start) + "-byte header, more than the file's " +
                   std::to_string(data.size()) + " bytes hold")
        .WithOffset(layout.data_start);
  }
  return layout;
}

}  // namespace instrumentscope::trace_bundle
