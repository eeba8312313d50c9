// An export's bytes cut into slices, each to be parsed on whichever thread is
// free: a slice ends just before a "<row" start tag once it holds at least
// `slice_bytes`, so that the next can be parsed inside <trace-query-result>
// <node> alone. The bytes cannot tell a tag from text inside a comment or a
// CDATA section; the parse of each slice tells (SaxParser::BetweenRows), and a
// slice that does not end between rows is read on one thread from there on.
// So is one cut at `most_bytes` for want of a row: memory stays bounded.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SLICES_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SLICES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/byte_span.h"

namespace instrumentscope::xctrace_xml {

struct Slice {
  uint64_t index = 0;
  uint64_t offset = 0;  // of its first byte in the document
  std::vector<uint8_t> bytes;
  bool last = false;  // ends the document
};

class SliceCutter {
 public:
  SliceCutter(size_t slice_bytes, size_t most_bytes)
      : slice_bytes_(slice_bytes), most_bytes_(most_bytes) {
    current_.bytes.reserve(slice_bytes_ + kSearchPiece);  // as Cut reserves each next slice
  }

  // The next bytes of the document; appends the slices they complete.
  void Add(ByteSpan bytes, std::vector<Slice>& slices);
  // The bytes left, as the last slice.
  Slice Finish();

 private:
  // Bytes taken at a time once a slice holds `slice_bytes`: at most what a
  // cut leaves to copy into the next slice.
  static constexpr size_t kSearchPiece = 16 << 10;

  // Where the slice being filled can end, or 0 while it cannot yet.
  size_t FindCut();
  void Cut(size_t at, std::vector<Slice>& slices);

  const size_t slice_bytes_;
  const size_t most_bytes_;
  Slice current_;
  size_t search_from_ = 0;  // bytes of current_ already searched for a cut
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SLICES_H_
