// How much of a profile group is named: the frames samples reach, those left
// unnamed (an address, or "image+0x…") and the images they lie in, the
// bodies the linker folded (each with the functions it may be), and a
// SYMBOLS_MISSING warning when unnamed frames make up much of a profile.
// Runs last, after symbolication, so it reports what the user will see.
#ifndef INSTRUMENTSCOPE_REPORT_NAMING_H_
#define INSTRUMENTSCOPE_REPORT_NAMING_H_

#include <string>

#include "model/profile.h"

namespace instrumentscope {

// Unnamed frames carry a profile's samples in proportion to their share of
// each sample's stack: a sample of 40 frames, 2 of them unnamed, counts 5% of
// its weight. Past this share of a profile's weight (of its flame graph's
// area), SYMBOLS_MISSING is raised: one unnamed frame near the root of every
// stack is not, a wall of addresses is. Only frames a symbol file could name
// count: those in a known image, or any in an input of bare addresses; not
// those outside every image an input names (JIT-compiled code, a loader's).
inline constexpr double kSymbolsMissingShare = 0.05;

// Fills group->naming and, past kSymbolsMissingShare in some profile, adds a
// SYMBOLS_MISSING warning naming the images, most samples first, and what
// would name them.
void ReportNaming(ProfileGroup* group);

// What the naming report says, as the CLI and the page show it: "883 of 993
// sampled frames named (88.9%); 34 are code the linker folded from several
// functions (<deduplicated_symbol>, as Instruments shows it)". Empty when the
// samples reach no frame (a recording of intervals alone).
std::string NamingText(const NamingReport& naming);

// What symbolication did: "named 40 of 52 unnamed frames from App.dSYM".
std::string SymbolicationText(const SymbolicationReport& report);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_REPORT_NAMING_H_
