// The messages of a run's rows: os_log and signpost messages, narratives
// ("The system took 23.51 ms to create the process."), each a typed array of
// the run's typedArrayUniquer, (engineering type, value) pairs whose pieces,
// rendered by their type and concatenated, make the text. Engineering types
// are numbered per run by core/uniquing/EngineeringTypes.etypes, whose
// numbering differs between versions: pieces are read by the type's name.
// Reads no file: RunReferences (tables.h) hands it the run's arrays.
//
// Not rendered as Instruments would (no export to compare with): %{boolean}d
// shows 0 or 1, %f six decimals; a piece of a type not listed in messages.cc
// shows its value in decimal. See FORMAT.md, "Messages".
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_MESSAGES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_MESSAGES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "formats/trace_bundle/uniquer.h"

namespace instrumentscope::trace_bundle {

// A reference to no string, no typed array: the column is empty.
inline constexpr uint64_t kNoReference = 0xFFFFFFFF;

// The engineering types' names, by number: $top.root of EngineeringTypes.etypes,
// an NSArray of NSStrings.
Result<std::vector<std::string>> ReadEngineeringTypes(ByteSpan archive, const Limits& limits);

class MessageReader {
 public:
  MessageReader(const Uniquer& typed_arrays, const std::vector<std::string>& types,
                const std::vector<std::string>& strings)
      : typed_arrays_(typed_arrays), types_(types), strings_(strings) {}

  // The text of typed array `ref` ("" for kNoReference).
  Result<std::string> Text(uint64_t ref) const;

  // A typed value, as a weight of XRAnyTypeID is stored: the engineering
  // type and value of typed array `ref`'s first piece.
  struct TypedValue {
    std::string_view type;  // "XRTimeSampleWeightTypeID"
    uint64_t value = 0;
  };
  Result<TypedValue> Typed(uint64_t ref) const;

  // A message's opening words, its first piece when that is literal text
  // ("Blocked for "), else empty: what a narrative tells of, without making
  // every one of a long table text.
  Result<std::string_view> Opening(uint64_t ref) const;

  // Names the threads a narrative refers to ("made runnable by Main Thread
  // 0x20dfe6"), by thread reference; without it, a thread shows its reference.
  using ThreadNamer = std::function<Result<std::string>(uint64_t thread_ref)>;
  void SetThreadNamer(ThreadNamer namer) { thread_namer_ = std::move(namer); }

 private:
  Status Append(uint64_t ref, int depth, std::string* text) const;

  const Uniquer& typed_arrays_;
  const std::vector<std::string>& types_;
  const std::vector<std::string>& strings_;
  ThreadNamer thread_namer_;
};

// "23.51 ms", "2.00 s", "850 ns": a duration as narratives show one.
std::string NarrativeDuration(uint64_t nanoseconds);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_MESSAGES_H_
