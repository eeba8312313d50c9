// What the bundle and export readers share about os_signpost: how a row's
// event type pairs, how sources are named and intervals labelled, as
// Instruments shows them.
#ifndef INSTRUMENTSCOPE_TABLES_SIGNPOSTS_H_
#define INSTRUMENTSCOPE_TABLES_SIGNPOSTS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "model/event_pairing.h"

namespace instrumentscope::tables {

// OS_SIGNPOST_ID_EXCLUSIVE: the signpost's name alone tells its intervals apart.
inline constexpr uint64_t kExclusiveSignpostId = 0xEEEEB0B5B2B2EEEE;

// "Begin" and "End" pair; "Event", and any other type (none seen), is a point in time.
EventRole SignpostRole(std::string_view event_type);

// "Points of Interest — com.example.app" for the PointsOfInterest category,
// "Signposts — com.example.app / Networking" for others.
std::string SignpostSourceName(std::string_view subsystem, std::string_view category);

// "0x1a"; empty for OS_SIGNPOST_ID_EXCLUSIVE, which Instruments does not show.
std::string SignpostIdText(uint64_t identifier);

// "Load feed — id 0x1a: 3 items": the id left out when empty, the message too.
std::string SignpostLabel(std::string_view name, std::string_view id, std::string_view message);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_SIGNPOSTS_H_
