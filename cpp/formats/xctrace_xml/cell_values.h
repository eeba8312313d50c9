// The elements inside a <row> that is read, each made a Value as it ends and
// handed to the element around it: numbers (element text), threads and
// processes (ThreadCells), frames (FrameCells) and stacks (StackCells);
// while a table read as intervals is, every other element as its text
// (TextCells). xctrace never nests an element in another of its kind, so one draft per
// kind suffices; nesting one is an error.
//
// Not read: numbers in elements that have children, or that are not decimal
// integers (those are values no column can use).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_CELL_VALUES_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_CELL_VALUES_H_

#include <cstdint>
#include <string_view>

#include "base/limits.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/frames.h"
#include "formats/xctrace_xml/stacks.h"
#include "formats/xctrace_xml/text_cells.h"
#include "formats/xctrace_xml/threads.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class CellValues {
 public:
  CellValues(ProfileBuilder& builder, const Limits& limits, FirstError& error)
      : error_(error), frames_(builder), stacks_(builder, limits.max_frames_per_stack, error) {}

  // An element starts that is no ref.
  void Start(const OpenElement& open, const Attributes& attributes);
  // The value of an element that is no ref, as it ends; `text` followed its
  // last tag inside.
  Value Complete(const OpenElement& open, std::string_view text);
  // `child`'s value, for the element around it (not the <row>).
  void Deliver(const OpenElement& child, const OpenElement& parent, const Value& value);

  ThreadCells& threads() { return threads_; }
  const TextCells& texts() const { return texts_; }
  // Whether the elements no other kind reads become texts (kText) rather
  // than numbers or opaque values: for the rows of interval tables only.
  void KeepTexts(bool keep) { keep_texts_ = keep; }
  // At the end of a <node>.
  void Clear();

 private:
  static uint32_t Bit(Element element) { return uint32_t{1} << static_cast<uint32_t>(element); }
  // Sets the error when an element of the same kind is already open.
  bool Nested(const OpenElement& open);

  FirstError& error_;
  uint32_t drafting_ = 0;  // Bit() of each kind with an element open
  ThreadCells threads_;
  FrameCells frames_;
  StackCells stacks_;
  TextCells texts_;
  bool keep_texts_ = false;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_CELL_VALUES_H_
