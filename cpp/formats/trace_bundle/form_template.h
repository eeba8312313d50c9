// form.template: the NSKeyedArchiver at a bundle's root. From it come the
// instruments recorded, the runs and the selected one, and per run the thread
// names, process names and (up to Instruments 11) the symbols of every
// process. See FORMAT.md for the classes and keys, with the versions seen.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FORM_TEMPLATE_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FORM_TEMPLATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "formats/trace_bundle/image_list.h"
#include "formats/trace_bundle/symbols.h"

namespace instrumentscope::trace_bundle {

struct RunDetails {
  std::map<uint64_t, std::string> thread_names;  // tid → "Main Thread  0x3c1feee"
  // Process names by pid, from two places; threads.cc decides which wins.
  std::map<int64_t, std::string> process_names;      // processDatas: "simple"
  std::map<int64_t, std::string> thread_exec_names;  // the first XRThread's execName
  std::map<int64_t, SymbolTable> symbols;            // pid → its symbols (up to Instruments 11)
  // pid → its images, placing symbols/stores/*.symbolsarchive (Instruments
  // 12+), its shared cache's among them (26)
  std::map<int64_t, std::vector<ProcessImage>> images;
  // When it started, nanoseconds since 1970 (startTime; 7.3.1 to 26.0).
  std::optional<int64_t> start_time;
  // What Instruments says of it (recordingInfoSummary; 8.3.3 to 11.4.1),
  // or those lines made of its XRRunInfo's fields (16.0, 26.0): "Target
  // Model: MacBook Pro", "Instruments: 11.4.1 (11E503a)", …
  std::vector<std::string> summary_lines;
};

struct FormTemplate {
  // "com.apple.xray.instrument-type.coresampler2", …
  std::vector<std::string> instrument_types;
  std::optional<uint32_t> selected_run;
  std::map<uint32_t, RunDetails> runs;
  // Parts that could not be read; the rest is still used.
  std::vector<std::string> problems;
};

// Fails only when the file is no keyed archive at all; damaged parts become
// `problems`, so that a bundle with a partly unreadable template still imports.
Result<FormTemplate> ReadFormTemplate(ByteSpan bytes, const Limits& limits);

// "coresampler2" for "com.apple.xray.instrument-type.coresampler2".
std::string_view InstrumentTypeSuffix(std::string_view type);
// "Time Profiler" for "com.apple.xray.instrument-type.coresampler2", and so on.
std::string InstrumentName(std::string_view type);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FORM_TEMPLATE_H_
