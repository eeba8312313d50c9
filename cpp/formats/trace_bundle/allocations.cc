#include "formats/trace_bundle/allocations.h"

#include <string_view>

#include "base/byte_reader.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr std::string_view kSharedDataClass = "XRObjectAllocRunSharedData";
constexpr std::string_view kEventsSuffix = ".oa";
// The record layout this reader knows [6.4 – 9.3.1].
constexpr uint32_t kRecordSize = 56;
constexpr size_t kTimeAt = 0, kAddressAt = 8, kSizeAt = 24, kTypeAt = 32, kThreadAt = 36,
                 kCategoryAt = 40, kBacktraceAt = 44, kFreedAllocationAt = 48, kFreeAt = 52;
constexpr int32_t kNoEvent = -1;

Status Corrupt(const std::string& what) {
  return Status(ErrorCode::kBundleCorrupt, what);
}

// The events file's name, among the shared data's values.
std::string EventsFile(const TypedStream& stream, const TypedObject& shared) {
  for (const TypedValue* value : stream.Values(shared)) {
    std::optional<std::string> text = stream.String(*value);
    if (text && text->size() > kEventsSuffix.size() &&
        text->compare(text->size() - kEventsSuffix.size(), kEventsSuffix.size(), kEventsSuffix) ==
            0) {
      return *text;
    }
  }
  return std::string();
}

Status ReadCategories(const TypedStream& stream, const TypedValue* substitutions,
                      const Limits& limits, AllocationRun* run) {
  IdMap map;
  ASSIGN_OR_RETURN(map, ReadIdMap(stream, substitutions, limits, "category table"));
  for (const auto& [object, id] : map.entries) {
    std::optional<std::string> name = map.stream.String(*object);
    if (!name) return Corrupt("category " + std::to_string(id) + " has no name");
    run->categories[id] = std::move(*name);
  }
  return OkStatus();
}

Status ReadDescriptor(const TypedStream& stream, const TypedObject& descriptor,
                      const Limits& limits, AllocationRun* run) {
  const TypedValue* properties;
  ASSIGN_OR_RETURN(properties, DescriptorProperties(stream, descriptor, "the shared data"));
  const TypedValue* props = stream.Lookup(*properties, "_props");
  auto count = NumberAt(stream, props, "next_event_id");
  auto size = NumberAt(stream, properties, "_maxEventSize");
  auto version = NumberAt(stream, properties, "_version");
  if (!count || *count < 0 || !size || !version) {
    return Corrupt("the shared data's XREventDescriptor gives no event count, size or version");
  }
  if (*size != kRecordSize) {
    return Status(ErrorCode::kBundleUnsupported,
                  "the Allocations events are " + std::to_string(*size) +
                      " bytes each, a layout this version does not know (it reads " +
                      std::to_string(kRecordSize) + "-byte events)");
  }
  run->event_count = static_cast<uint64_t>(*count);
  run->record_size = kRecordSize;
  run->version = *version;
  const TypedValue* categories = props ? stream.Lookup(*props, "category_substitutions") : nullptr;
  RETURN_IF_ERROR(ReadCategories(stream, categories, limits, run));
  ASSIGN_OR_RETURN(
      run->backtraces,
      ReadBacktraceTable(stream, stream.Lookup(*properties, "_substitutions"), limits));
  return OkStatus();
}

}  // namespace

Result<std::optional<AllocationRun>> ReadAllocationRun(const TypedStream& stream,
                                                       const Limits& limits) {
  std::vector<const TypedValue*> top = TypedStream::Values(stream.groups());
  if (top.empty() || top[0]->kind != TypedValue::Kind::kObject) {
    return std::optional<AllocationRun>();
  }
  const TypedObject& shared = stream.objects()[top[0]->index];
  if (stream.class_name(shared) != kSharedDataClass) return std::optional<AllocationRun>();
  AllocationRun run;
  run.events_file = EventsFile(stream, shared);
  if (run.events_file.empty()) return Corrupt("the shared data names no events file");
  const TypedObject* descriptor = nullptr;
  for (const TypedObject& object : stream.objects()) {
    if (stream.class_name(object) == "XREventDescriptor") {
      descriptor = &object;
      break;
    }
  }
  if (!descriptor) return Corrupt("the shared data holds no XREventDescriptor");
  RETURN_IF_ERROR(ReadDescriptor(stream, *descriptor, limits, &run));
  return std::optional<AllocationRun>(std::move(run));
}

Status ReadAllocationEvents(ByteSpan data, const AllocationRun& run,
                            const std::function<Status(const AllocationEvent&)>& visit) {
  RecordFileLayout file;
  ASSIGN_OR_RETURN(file,
                   ReadRecordFileHeader(data, run.record_size, run.event_count, "the shared data"));
  ByteReader reader(data);
  auto u32 = [&reader](uint64_t at) -> Result<uint32_t> {
    RETURN_IF_ERROR(reader.Seek(at));
    return reader.ReadU32Le();
  };
  auto u64 = [&reader](uint64_t at) -> Result<uint64_t> {
    RETURN_IF_ERROR(reader.Seek(at));
    return reader.ReadU64Le();
  };
  for (uint64_t i = 0; i < run.event_count; ++i) {
    uint64_t offset = file.Offset(i);  // within the file, checked above
    AllocationEvent event;
    event.id = i;
    event.offset = offset;
    uint64_t time;
    uint32_t freed_allocation, free;
    ASSIGN_OR_RETURN(time, u64(offset + kTimeAt));
    ASSIGN_OR_RETURN(event.address, u64(offset + kAddressAt));
    ASSIGN_OR_RETURN(event.size, u32(offset + kSizeAt));
    ASSIGN_OR_RETURN(event.type, u32(offset + kTypeAt));
    ASSIGN_OR_RETURN(event.thread, u32(offset + kThreadAt));
    ASSIGN_OR_RETURN(event.category, u32(offset + kCategoryAt));
    ASSIGN_OR_RETURN(event.backtrace, u32(offset + kBacktraceAt));
    ASSIGN_OR_RETURN(freed_allocation, u32(offset + kFreedAllocationAt));
    ASSIGN_OR_RETURN(free, u32(offset + kFreeAt));
    if (time > static_cast<uint64_t>(INT64_MAX)) {
      return Corrupt("event " + std::to_string(i) + " has the time " + std::to_string(time))
          .WithOffset(offset);
    }
    event.time = static_cast<int64_t>(time);
    bool allocation = event.type == static_cast<uint32_t>(AllocationEventType::kMalloc) ||
                      event.type == static_cast<uint32_t>(AllocationEventType::kVmAllocate);
    bool deallocation = event.type == static_cast<uint32_t>(AllocationEventType::kFree) ||
                        event.type == static_cast<uint32_t>(AllocationEventType::kVmDeallocate);
    if (!allocation) event.size = 0;  // a free's records its allocation's, encoded by version
    uint32_t paired = allocation ? free : deallocation ? freed_allocation : kNoEvent;
    if (paired != static_cast<uint32_t>(kNoEvent)) {
      // An allocation's free comes after it, a free's allocation before.
      if (paired >= run.event_count || (allocation ? paired <= i : paired >= i)) {
        return Corrupt("event " + std::to_string(i) + " is paired with event " +
                       std::to_string(paired) + " of " + std::to_string(run.event_count))
            .WithOffset(offset);
      }
      event.paired = paired;
    }
    Status visited = visit(event);
    if (!visited.ok()) return visited.WithOffset(offset);
  }
  return OkStatus();
}

}  // namespace instrumentscope::trace_bundle
