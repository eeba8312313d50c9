// What form.template says of a run as a person reads it: Instruments' own
// summary lines ("Target Model: MacBook Pro", "Instruments: 11.4.1
// (11E503a)"), kept as lines (8.3.3 to 11.4.1) or as an XRRunInfo's fields
// (16.0, 26.0). They only inform: what does not read is left out.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SUMMARY_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SUMMARY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "container/keyed_archive.h"

namespace instrumentscope::trace_bundle {

// recordingInfoSummary: an array of strings, empty ones left out.
std::vector<std::string> SummaryLines(const KeyedArchive& archive, uint32_t lines);

// runInfo: an XRRunInfo's fields, put in the same lines as the summary's.
std::vector<std::string> RunInfoLines(const KeyedArchive& archive, uint32_t info);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_RUN_SUMMARY_H_
