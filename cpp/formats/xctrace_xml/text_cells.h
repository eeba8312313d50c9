// The texts of cells as xctrace shows them, for the tables whose rows are read
// as intervals: an element's `fmt` attribute (`<thermal-state fmt="Nominal">`,
// `<narrative fmt="VSync Request 00:00.006.211">`), else its own text, and
// the number its text holds, if any (`<start-time fmt="00:00.006.211">
// 6211291</start-time>`); a message (`<os-log-metadata>`), the own texts of
// its pieces in order (`<narrative-text>bytes=</narrative-text><uint64
// fmt="1.000">1000</uint64>` is "bytes=1000"). Kept for one <node>, as the ids that point at them
// are, and only while CellValues is told to: CPU sample tables never pay for
// them.
//
// Not kept: the texts of the elements CellValues reads for their structure
// (threads, processes, frames, backtraces and their parts).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TEXT_CELLS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TEXT_CELLS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/xctrace_xml/elements.h"

namespace instrumentscope::xctrace_xml {

struct TextRecord {
  std::string text;               // the fmt, else the element's own text; a message, its pieces
  std::optional<int64_t> number;  // the element's text, when it is a decimal integer
  // A number's own digits (or numbers', with spaces between), when its fmt
  // shows them otherwise ("1.000", "(120.029), (214.575)").
  std::string own;
};

class TextCells {
 public:
  // An element starts; its fmt is kept until it ends (elements nest). A
  // composed one (a message) is the text of its pieces, its fmt only when
  // it has none: xctrace's fmt of a message joins the pieces with spaces and
  // shows numbers as the Mac's locale does ("bytes= 1.000").
  void Start(const Attributes& attributes, bool composed);
  // A piece of the composed element open innermost: a child's text, a
  // number's own digits.
  void AddPiece(const Value& child);
  // It ends: `text` followed its last tag inside.
  Value End(bool has_child, std::string_view text);

  const TextRecord& text(uint32_t index) const { return records_[index]; }
  // At the end of a <node>.
  void Clear();

 private:
  struct Open {
    std::string fmt;
    bool composed;
    std::string pieces;
  };
  std::vector<Open> open_;  // innermost last
  std::vector<TextRecord> records_;
};

// The number in a cell: a number, or a text that holds one.
std::optional<int64_t> CellNumber(const Value& value, const TextCells& texts);
// The text of a cell; empty for a value that has none.
std::string_view CellText(const Value& value, const TextCells& texts);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TEXT_CELLS_H_
