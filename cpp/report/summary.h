// What an import found, as JSON: the tables in the input, one entry per
// profile (thread, process, run, table, sample counts) and warnings. The CLI's
// --list prints it; the wasm bindings send it, with the frames, to JavaScript.
#ifndef INSTRUMENTSCOPE_REPORT_SUMMARY_H_
#define INSTRUMENTSCOPE_REPORT_SUMMARY_H_

#include <nlohmann/json.hpp>

#include "model/profile.h"

namespace instrumentscope {

enum class SummaryFrames : bool { kOmit, kInclude };

nlohmann::json Summary(const ProfileGroup& group, SummaryFrames frames);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_REPORT_SUMMARY_H_
