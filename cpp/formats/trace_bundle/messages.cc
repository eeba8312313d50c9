#include "formats/trace_bundle/messages.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <set>
#include <string_view>

#include "container/keyed_archive.h"

namespace instrumentscope::trace_bundle {
namespace {

// A message nests others (a region's start message holds the signpost's);
// deeper is damage.
constexpr int kMaxNesting = 4;
// %f arguments are stored biased (inferred: 2,264 of 8,373 values of 26.2's
// are whole numbers with this bias, none with 2^63).
constexpr uint64_t kFixedDecimalBias = 0x7FFFFFFFFFFFFFFF;

// Pieces whose value is a string index.
bool IsStringType(std::string_view type) {
  static const std::set<std::string_view> kTypes = {"XRNarrativeTextTypeID",
                                                    "XRPrototypeStringTypeID",
                                                    "XRSignpostNameTypeID",
                                                    "XROSLogFormatStringTypeID",
                                                    "XROSLogSubsystemTypeID",
                                                    "XROSLogCategoryTypeID",
                                                    "XROSLogEventTypeID",
                                                    "XRApplicationPeriodTypeID",
                                                    "XRThermalStateTypeID",
                                                    "XRPrototypeEventTypeID",
                                                    "XRPrototypeShortStringTypeID",
                                                    "XRPrototypeMediumLengthStringTypeID",
                                                    "XRPrototypeWordStringTypeID",
                                                    "XRPrototypeStateStringTypeID",
                                                    "XRRawStringTypeID",
                                                    "XRHangTypeTypeID",
                                                    "XRFormattedLabelTypeID",
                                                    "XRFilePathTypeID",
                                                    "XRRegionOfInterestClassTypeID",
                                                    "XRRegionOfInterestKindTypeID",
                                                    "XRRegionOfInterestScopeTypeID",
                                                    "XREventConceptTypeID",
                                                    "XRThreadStateTypeID",
                                                    "XRCPUStateTypeID",
                                                    "XRSystemCallNameTypeID",
                                                    "XRVMOperationNameTypeID",
                                                    "XRSchedulingEventTypeID"};
  return kTypes.count(type) > 0;
}

// Pieces that are messages themselves.
bool IsMessageType(std::string_view type) {
  return type == "XROSLogMetadataTypeID" || type == "XRNarrativeEntryTypeID" ||
         type == "XRAnyTypeID" || type == "XRPrototypeMetadataTypeID";
}

std::string Printed(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Printed(const char* format, ...) {
  char buffer[64];
  va_list args;
  va_start(args, format);
  int length = std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  return length < 0 ? std::string()
                    : std::string(buffer, std::min<size_t>(length, sizeof buffer - 1));
}

}  // namespace

Result<std::vector<std::string>> ReadEngineeringTypes(ByteSpan bytes, const Limits& limits) {
  auto archive = KeyedArchive::Parse(bytes, limits);
  if (!archive.ok()) return archive.status();
  uint32_t root;
  ASSIGN_OR_RETURN(root, archive->Top("root"));
  std::vector<uint32_t> elements;
  ASSIGN_OR_RETURN(elements, archive->ArrayElements(root));
  std::vector<std::string> types;
  types.reserve(elements.size());
  for (uint32_t element : elements) {
    std::string_view name;
    ASSIGN_OR_RETURN(name, archive->String(element));
    types.emplace_back(name);
  }
  return types;
}

Result<std::string> MessageReader::Text(uint64_t ref) const {
  std::string text;
  RETURN_IF_ERROR(Append(ref, 0, &text));
  return text;
}

Result<MessageReader::TypedValue> MessageReader::Typed(uint64_t ref) const {
  std::vector<uint64_t> pieces;
  ASSIGN_OR_RETURN(pieces, typed_arrays_.Head(ref, 2));
  if (pieces.size() < 2) {
    return Status(ErrorCode::kBundleCorrupt,
                  "typed value " + std::to_string(ref) + " holds no type and value");
  }
  if (pieces[0] >= types_.size()) {
    return Status(ErrorCode::kBundleCorrupt,
                  "typed value " + std::to_string(ref) + " is of engineering type " +
                      std::to_string(pieces[0]) + ", which EngineeringTypes.etypes lacks");
  }
  return TypedValue{types_[pieces[0]], pieces[1]};
}

Result<std::string_view> MessageReader::Opening(uint64_t ref) const {
  if (ref == kNoReference) return std::string_view();
  std::vector<uint64_t> pieces;
  ASSIGN_OR_RETURN(pieces, typed_arrays_.Head(ref, 2));
  if (pieces.size() < 2 || pieces[0] >= types_.size() ||
      types_[pieces[0]] != "XRNarrativeTextTypeID") {
    return std::string_view();
  }
  if (pieces[1] >= strings_.size()) {
    return Status(ErrorCode::kBundleCorrupt, "message " + std::to_string(ref) +
                                                 " refers to string " + std::to_string(pieces[1]) +
                                                 ", past the run's strings");
  }
  return std::string_view(strings_[pieces[1]]);
}

Status MessageReader::Append(uint64_t ref, int depth, std::string* text) const {
  if (ref == kNoReference) return OkStatus();
  if (depth >= kMaxNesting) {
    return Status(ErrorCode::kBundleCorrupt, "message " + std::to_string(ref) +
                                                 " nests more than " + std::to_string(kMaxNesting) +
                                                 " deep");
  }
  std::vector<uint64_t> pieces;
  ASSIGN_OR_RETURN(pieces, typed_arrays_.Array(ref));
  for (size_t i = 0; i + 1 < pieces.size(); i += 2) {
    uint64_t type_id = pieces[i], value = pieces[i + 1];
    if (type_id >= types_.size()) {
      return Status(ErrorCode::kBundleCorrupt,
                    "message " + std::to_string(ref) + " has a piece of engineering type " +
                        std::to_string(type_id) + ", which EngineeringTypes.etypes lacks");
    }
    const std::string& type = types_[type_id];
    if (IsStringType(type)) {
      if (value == kNoReference) continue;
      if (value >= strings_.size()) {
        return Status(ErrorCode::kBundleCorrupt, "message " + std::to_string(ref) +
                                                     " refers to string " + std::to_string(value) +
                                                     ", past the run's strings");
      }
      *text += strings_[value];
    } else if (IsMessageType(type)) {
      RETURN_IF_ERROR(Append(value, depth + 1, text));
    } else if (type == "XRPrototypeValueTypeID") {
      *text += std::to_string(static_cast<int64_t>(value));
    } else if (type == "XRPrototypeFixedDecimalValueTypeID") {
      // Two's complement of the biased value: exact for what %f held.
      auto fixed = static_cast<int64_t>(value - kFixedDecimalBias);
      *text += Printed("%.6f", static_cast<double>(fixed) / 1e9);
    } else if (type == "XRUnsignedIntegerHexLowercaseTypeID") {
      *text += Printed("%" PRIx64, value);
    } else if (type == "XRVirtualMemoryAddressTypeID" || type == "XRTextSegmentAddressTypeID") {
      *text += Printed("0x%" PRIx64, value);
    } else if (type == "XRDurationTypeID" || type == "XRDurationWaitingTypeID" ||
               type == "XRDurationOnCPUTypeID") {
      *text += NarrativeDuration(value);
    } else if (type == "XRCPUCoreTypeID") {
      *text += "CPU " + std::to_string(value);
    } else if (type == "XRThreadTypeID" && thread_namer_) {
      std::string name;
      ASSIGN_OR_RETURN(name, thread_namer_(value));
      *text += name;
    } else {
      *text += std::to_string(value);
    }
  }
  return OkStatus();
}

std::string NarrativeDuration(uint64_t ns) {
  auto value = static_cast<double>(ns);
  if (ns >= 1000000000) return Printed("%.2f s", value / 1e9);
  if (ns >= 1000000) return Printed("%.2f ms", value / 1e6);
  if (ns >= 1000) return Printed("%.2f \xC2\xB5s", value / 1e3);
  return std::to_string(ns) + " ns";
}

}  // namespace instrumentscope::trace_bundle
