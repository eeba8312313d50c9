// What a System Trace's thread narratives tell of, by their opening words,
// which both readers give (a bundle's first piece of text, an export's whole
// text): a span the thread spent off the CPU, and why, or something else
// ("Called read for 1.2 µs", "Ran for 40 µs on CPU 3"), which other tables
// show. Instruments writes them in English whatever the Mac's language.
#ifndef INSTRUMENTSCOPE_TABLES_NARRATIVES_H_
#define INSTRUMENTSCOPE_TABLES_NARRATIVES_H_

#include <optional>
#include <string_view>

namespace instrumentscope::tables {

// "Blocked", "Waiting for a CPU", "Preempted", "Interrupted" or "Idle" for a
// narrative of a span off the CPU; nullopt for another.
std::optional<std::string_view> OffCpuSpan(std::string_view narrative);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_NARRATIVES_H_
