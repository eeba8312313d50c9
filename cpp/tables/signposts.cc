#include "tables/signposts.h"

#include "base/identifiers.h"

namespace instrumentscope::tables {
namespace {

constexpr std::string_view kDash = " \xE2\x80\x94 ";  // " — "

}  // namespace

EventRole SignpostRole(std::string_view event_type) {
  if (event_type == "Begin") return EventRole::kBegin;
  if (event_type == "End") return EventRole::kEnd;
  return EventRole::kPoint;
}

std::string SignpostSourceName(std::string_view subsystem, std::string_view category) {
  std::string parts(subsystem);
  bool poi = category == "PointsOfInterest";
  if (!poi && !category.empty()) parts += (parts.empty() ? "" : " / ") + std::string(category);
  std::string name = poi ? "Points of Interest" : "Signposts";
  return parts.empty() ? name : name + std::string(kDash) + parts;
}

std::string SignpostIdText(uint64_t identifier) {
  return identifier == kExclusiveSignpostId ? std::string() : HexAddress(identifier);
}

std::string SignpostLabel(std::string_view name, std::string_view id, std::string_view message) {
  std::string label(name);
  if (!id.empty()) label += std::string(kDash) + "id " + std::string(id);
  if (!message.empty()) label += ": " + std::string(message);
  return label;
}

}  // namespace instrumentscope::tables
