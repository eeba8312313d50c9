// What the archives of Instruments' legacy instruments (4.5 to 9.x: the
// legacy Time Profiler, Allocations) share: typedstreams of XR objects whose
// first value is a dictionary of properties; an XREventDescriptor whose
// substitutions map ids to archived objects (backtraces, category names) in a
// typedstream of their own (id_map_nsdata); raw backtraces; and the record
// files those ids appear in (Trace<N>.run/*-sampler.data, event_data_*.oa): a
// header page, then fixed-size records. See FORMAT.md, "Legacy sampler" and
// "Allocations".
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_ARCHIVE_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_ARCHIVE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "container/typedstream.h"

namespace instrumentscope::trace_bundle {

// An archived XR object's first value: the dictionary of its properties.
const TypedValue* PropertiesOf(const TypedStream& stream, const TypedObject& object);
// Of the object a value refers to; null when it refers to none.
const TypedValue* PropertiesOf(const TypedStream& stream, const TypedValue* value);
// The NSNumber at `key` of a dictionary (which may be null).
std::optional<int64_t> NumberAt(const TypedStream& stream, const TypedValue* dictionary,
                                std::string_view key);

// The objects an XRDescriptorSubstitutions maps ids to, from its
// id_map_nsdata: a typedstream of a count, then (object, id) pairs. The
// entries point into `stream`.
struct IdMap {
  TypedStream stream;
  std::vector<std::pair<const TypedValue*, uint32_t>> entries;
};
// `substitutions` is the descriptor's value (null: none); `what` names the
// map in errors ("backtrace table").
Result<IdMap> ReadIdMap(const TypedStream& stream, const TypedValue* substitutions,
                        const Limits& limits, std::string_view what);

// XRRawBacktrace (and 4.5's XRRawKernelUserBacktrace): pid, frame count, the
// addresses as "[nQ]", then (from version 1) the kernel frame count.
struct RawBacktrace {
  int64_t pid = -1;
  std::vector<uint64_t> addresses;  // leaf first
};
Result<RawBacktrace> ReadRawBacktrace(const TypedStream& stream, const TypedValue& object,
                                      uint32_t id, const Limits& limits);

// An XREventDescriptor's properties (an NSDictionary); `archive` names the
// archive that holds it in errors ("the run archive").
Result<const TypedValue*> DescriptorProperties(const TypedStream& stream,
                                               const TypedObject& descriptor,
                                               std::string_view archive);

// The backtraces a descriptor's `_substitutions` map ids to.
using BacktraceTable = std::unordered_map<uint32_t, RawBacktrace>;
Result<BacktraceTable> ReadBacktraceTable(const TypedStream& stream,
                                          const TypedValue* substitutions, const Limits& limits);

// A record file's header: magic 0x12340A0A @0, where the records start @0x0C
// (the header page's size), the record size @0x10. Checks that the records
// are `record_size` bytes and that `records` of them follow, as the archive
// `described_by` ("the run archive") says.
struct RecordFileLayout {
  uint32_t data_start = 0;
  uint32_t record_size = 0;
  uint64_t Offset(uint64_t record) const { return data_start + record * record_size; }
};
Result<RecordFileLayout> ReadRecordFileHeader(ByteSpan data, uint32_t record_size, uint64_t records,
                                              std::string_view described_by);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_LEGACY_ARCHIVE_H_
