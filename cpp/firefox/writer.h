// Writes a ProfileGroup as a Firefox Profiler file (processed format, see
// processed_format.h), streaming like the speedscope writer: every thread on
// one timeline with its samples, stacks and weights, intervals as markers on
// their process's main thread, frames with their binaries as libraries.
#ifndef INSTRUMENTSCOPE_FIREFOX_WRITER_H_
#define INSTRUMENTSCOPE_FIREFOX_WRITER_H_

#include <ostream>

#include "base/piece_writer.h"
#include "model/profile.h"

namespace instrumentscope::firefox {

// Returns false when the sink stopped it.
bool WriteFirefoxJson(const ProfileGroup& group, const JsonSink& sink);
void WriteFirefoxJson(const ProfileGroup& group, std::ostream& out);

}  // namespace instrumentscope::firefox

#endif  // INSTRUMENTSCOPE_FIREFOX_WRITER_H_
