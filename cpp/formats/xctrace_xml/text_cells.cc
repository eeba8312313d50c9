#include "formats/xctrace_xml/text_cells.h"

#include <algorithm>
#include <utility>

#include "base/text.h"

namespace instrumentscope::xctrace_xml {
namespace {

// Digits, perhaps after a minus: a number of any size.
bool IsDecimal(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Decimals with spaces between ("120029 214575"): a cell of counts, whose
// fmt shows them otherwise ("(120.029), (214.575)").
bool IsDecimalList(std::string_view text) {
  return text.find(' ') != std::string_view::npos &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || (c >= '0' && c <= '9'); });
}

}  // namespace

void TextCells::Start(const Attributes& attributes, bool composed) {
  open_.push_back(Open{attributes.Decoded("fmt"), composed, std::string()});
}

void TextCells::AddPiece(const Value& child) {
  if (open_.empty() || !open_.back().composed || child.value_class != ValueClass::kText) return;
  const TextRecord& piece = records_[child.index];
  open_.back().pieces += piece.own.empty() ? piece.text : piece.own;
}

Value TextCells::End(bool has_child, std::string_view text) {
  TextRecord record;
  if (!open_.empty()) {
    Open& open = open_.back();
    record.text =
        open.composed && !open.pieces.empty() ? std::move(open.pieces) : std::move(open.fmt);
    open_.pop_back();
  }
  if (!has_child) {
    record.number = ParseDecimal<int64_t>(text);
    std::string_view own = TrimWhitespace(text);
    if (record.text.empty()) {
      record.text = std::string(own);
    } else if ((IsDecimal(own) || IsDecimalList(own)) && record.text != own) {
      record.own = std::string(own);
    }
  }
  records_.push_back(std::move(record));
  return MakeValue(ValueClass::kText, static_cast<uint32_t>(records_.size() - 1));
}

void TextCells::Clear() {
  open_.clear();
  records_.clear();
  records_.shrink_to_fit();
}

std::optional<int64_t> CellNumber(const Value& value, const TextCells& texts) {
  if (value.value_class == ValueClass::kNumber) return value.number();
  if (value.value_class == ValueClass::kText) return texts.text(value.index).number;
  return std::nullopt;
}

std::string_view CellText(const Value& value, const TextCells& texts) {
  if (value.value_class == ValueClass::kText) return texts.text(value.index).text;
  return {};
}

}  // namespace instrumentscope::xctrace_xml
