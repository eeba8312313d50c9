#include "formats/trace_bundle/legacy_sampler.h"

#include <algorithm>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "container/typedstream.h"
#include "formats/trace_bundle/legacy_archive.h"

namespace instrumentscope::trace_bundle {
namespace {

// Largest record layout this reader accepts (Instruments' are 28 bytes).
constexpr uint32_t kMaxRecordSize = 4096;

enum FieldType : uint32_t { kU32 = 1, kU64 = 2, kBacktraceId = 3 };

Status Corrupt(const std::string& what) {
  return Status(ErrorCode::kBundleCorrupt, what);
}

Status ReadEventDescriptor(const TypedStream& stream, const TypedObject& descriptor,
                           const Limits& limits, SamplerRun* run) {
  const TypedValue* properties;
  ASSIGN_OR_RETURN(properties, DescriptorProperties(stream, descriptor, "the run archive"));
  const TypedValue* fields = stream.Lookup(*properties, "_fields");
  auto field_list = fields ? stream.Array(*fields) : std::nullopt;
  if (!field_list) return Corrupt("the run archive's XREventDescriptor lists no _fields");
  for (const TypedValue* field : *field_list) {
    const TypedObject* object =
        field->kind == TypedValue::Kind::kObject ? &stream.objects()[field->index] : nullptr;
    const TypedValue* field_properties = object ? PropertiesOf(stream, *object) : nullptr;
    auto name = field_properties ? stream.Lookup(*field_properties, "_name") : nullptr;
    auto index = NumberAt(stream, field_properties, "_index");
    auto type = NumberAt(stream, field_properties, "_type");
    auto name_text = name ? stream.String(*name) : std::nullopt;
    if (!name_text || !index || !type || *index < 0 || *type < 0) {
      return Corrupt("a record field of the run archive has no name, index or type");
    }
    run->fields.push_back(
        SamplerRun::Field{*name_text, static_cast<uint32_t>(*index), static_cast<uint32_t>(*type)});
  }
  std::sort(run->fields.begin(), run->fields.end(),
            [](const auto& a, const auto& b) { return a.index < b.index; });
  auto size = NumberAt(stream, properties, "_maxEventSize");
  const TypedValue* props = stream.Lookup(*properties, "_props");
  auto count = NumberAt(stream, props, "next_event_id");
  if (!size || *size <= 0 || *size > kMaxRecordSize || !count || *count < 0) {
    return Corrupt("the run archive gives no record size or record count");
  }
  run->record_size = static_cast<uint32_t>(*size);
  run->record_count = static_cast<uint64_t>(*count);
  if (auto interval =
          NumberAt(stream, stream.Lookup(*properties, "_publicProps"), "sampleRateMicros");
      interval && *interval > 0) {
    run->sample_interval_us = static_cast<uint64_t>(*interval);
  }
  ASSIGN_OR_RETURN(
      run->backtraces,
      ReadBacktraceTable(stream, stream.Lookup(*properties, "_substitutions"), limits));
  return OkStatus();
}

// XRThread: its tid, then among its values a dictionary of pid, overrideName
// and execName.
void ReadThread(const TypedStream& stream, const TypedObject& thread, SamplerRun* run) {
  std::vector<const TypedValue*> values = stream.Values(thread);
  if (values.empty() || values[0]->kind != TypedValue::Kind::kInteger) return;
  uint64_t tid = static_cast<uint64_t>(values[0]->integer);
  for (const TypedValue* value : values) {
    if (!stream.Dictionary(*value)) continue;
    SamplerRun::Thread details;
    const TypedValue* name = stream.Lookup(*value, "overrideName");
    const TypedValue* process = stream.Lookup(*value, "execName");
    details.name = name ? stream.String(*name).value_or("") : "";
    details.process_name = process ? stream.String(*process).value_or("") : "";
    details.pid = NumberAt(stream, value, "pid").value_or(-1);
    run->threads[tid] = std::move(details);
    return;
  }
}

}  // namespace

Result<SamplerRun> ReadSamplerRun(ByteSpan typedstream, const Limits& limits) {
  TypedStream stream;
  ASSIGN_OR_RETURN(stream, TypedStream::Parse(typedstream, limits));
  return ReadSamplerRun(stream, limits);
}

Result<SamplerRun> ReadSamplerRun(const TypedStream& stream, const Limits& limits) {
  SamplerRun run;
  bool has_descriptor = false;
  for (const TypedObject& object : stream.objects()) {
    const std::string& name = stream.class_name(object);
    if (name == "XREventDescriptor" && !has_descriptor) {
      RETURN_IF_ERROR(ReadEventDescriptor(stream, object, limits, &run));
      has_descriptor = true;
    } else if (name == "XRThread") {
      ReadThread(stream, object, &run);
    }
  }
  if (!has_descriptor) return Corrupt("the run archive holds no XREventDescriptor");
  // The fields must fill the record exactly, in the types this reader knows.
  uint32_t offset = 0;
  bool has_time = false, has_tid = false, has_backtrace = false;
  for (const SamplerRun::Field& field : run.fields) {
    if (field.type != kU32 && field.type != kU64 && field.type != kBacktraceId) {
      return Status(ErrorCode::kBundleUnsupported, "the sample record field \"" + field.name +
                                                       "\" has type " + std::to_string(field.type) +
                                                       ", which this version does not read");
    }
    offset += field.type == kU64 ? 8 : 4;
    has_time = has_time || (field.name == "timestamp" && field.type == kU64);
    has_tid = has_tid || (field.name == "tid" && field.type == kU64);
    has_backtrace = has_backtrace || (field.name == "backtrace" && field.type == kBacktraceId);
  }
  if (offset != run.record_size || !has_time || !has_tid || !has_backtrace) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the sample records' fields (" + std::to_string(run.fields.size()) + ", " +
                      std::to_string(offset) + " bytes of " + std::to_string(run.record_size) +
                      ") are not the timestamp, tid and backtrace this version reads");
  }
  return run;
}

Result<std::map<int64_t, SymbolTable>> ReadArchivedSymbols(ByteSpan typedstream,
                                                           const Limits& limits) {
  TypedStream stream;
  ASSIGN_OR_RETURN(stream, TypedStream::Parse(typedstream, limits));
  return ReadArchivedSymbols(stream);
}

Result<std::map<int64_t, SymbolTable>> ReadArchivedSymbols(const TypedStream& stream) {
  std::map<int64_t, SymbolTable> tables;
  auto text = [&stream](const TypedValue* value) {
    return value ? stream.String(*value).value_or("") : std::string();
  };
  for (const TypedObject& object : stream.objects()) {
    if (stream.class_name(object) != "PFTSymbolData") continue;
    // Version 5 [4.5]: name, source path, owner, flags, n, start,
    // n × (line, address), size. Version 6 [7.3.1 – 9.3.1]: name, source
    // path, owner, flags, n, n × (address, line), start, size, an array.
    std::vector<const TypedValue*> values = stream.Values(object);
    auto integer = [&values](size_t i) -> std::optional<int64_t> {
      if (i >= values.size() || values[i]->kind != TypedValue::Kind::kInteger) return std::nullopt;
      return values[i]->integer;
    };
    bool v6 = stream.classes()[object.class_index].version >= 6;
    auto pairs = integer(4);
    size_t lines_at = v6 ? 5 : 6;
    size_t start_at = v6 ? 5 + 2 * static_cast<size_t>(pairs.value_or(0)) : 5;
    size_t size_at = v6 ? start_at + 1 : values.size() - 1;
    if (!pairs || *pairs < 0 || values.size() != (v6 ? 8 : 7) + 2 * static_cast<uint64_t>(*pairs) ||
        !integer(start_at) || !integer(size_at)) {
      return Status(ErrorCode::kBundleCorrupt,
                    "a PFTSymbolData of version " +
                        std::to_string(stream.classes()[object.class_index].version) + " and " +
                        std::to_string(values.size()) +
                        " values is not name, file, owner, flags, count, start, lines and size");
    }
    Symbol symbol;
    symbol.name = text(values[0]);
    symbol.source_file = text(values[1]);
    int64_t pid = -1;
    if (values[2]->kind == TypedValue::Kind::kObject) {
      // PFTOwnerData: binary name, binary path, flags, pid, UUID.
      std::vector<const TypedValue*> owner = stream.Values(stream.objects()[values[2]->index]);
      if (owner.size() >= 2) symbol.binary_path = text(owner[1]);
      if (symbol.binary_path.empty() && !owner.empty()) symbol.binary_path = text(owner[0]);
      if (owner.size() >= 4 && owner[3]->kind == TypedValue::Kind::kInteger) {
        pid = owner[3]->integer;
      }
    }
    symbol.start = static_cast<uint64_t>(*integer(start_at));
    symbol.size = static_cast<uint64_t>(*integer(size_at));
    for (int64_t i = 0; i < *pairs; ++i) {
      size_t at = lines_at + 2 * static_cast<size_t>(i);
      auto line = integer(v6 ? at + 1 : at);
      auto address = integer(v6 ? at : at + 1);
      if (!line || !address) {
        return Status(ErrorCode::kBundleCorrupt, "a PFTSymbolData's address/line pair is no pair");
      }
      symbol.lines.emplace_back(static_cast<uint64_t>(*address), static_cast<uint32_t>(*line));
    }
    tables[pid].Add(std::move(symbol));
  }
  return tables;
}

Status ReadSamplerRecords(ByteSpan data, const SamplerRun& run,
                          const std::function<Status(const SamplerRecord&)>& visit) {
  RecordFileLayout file;
  ASSIGN_OR_RETURN(
      file, ReadRecordFileHeader(data, run.record_size, run.record_count, "the run archive"));
  // Where in a record the fields read are (ReadSamplerRun checked they exist).
  size_t timestamp_at = 0, tid_at = 0, backtrace_at = 0;
  size_t field_at = 0;
  for (const SamplerRun::Field& field : run.fields) {
    if (field.name == "timestamp") timestamp_at = field_at;
    if (field.name == "tid") tid_at = field_at;
    if (field.name == "backtrace") backtrace_at = field_at;
    field_at += field.type == kU64 ? 8 : 4;
  }
  ByteReader reader(data);
  for (uint64_t i = 0; i < run.record_count; ++i) {
    uint64_t offset = file.Offset(i);  // within the file, checked above
    SamplerRecord record;
    record.offset = offset;
    RETURN_IF_ERROR(reader.Seek(offset + timestamp_at));
    ASSIGN_OR_RETURN(record.timestamp, reader.ReadU64Le());
    RETURN_IF_ERROR(reader.Seek(offset + tid_at));
    ASSIGN_OR_RETURN(record.tid, reader.ReadU64Le());
    RETURN_IF_ERROR(reader.Seek(offset + backtrace_at));
    ASSIGN_OR_RETURN(record.backtrace, reader.ReadU32Le());
    Status visited = visit(record);
    if (!visited.ok()) return visited.WithOffset(offset);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
