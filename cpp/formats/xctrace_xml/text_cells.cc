#include "formats/xctrace_xml/text_cells.h"

#include <utility>

#include "base/text.h"

namespace instrumentscope::xctrace_xml {

Value TextCells::End(bool has_child, std::string_view text) {
  TextRecord record;
  if (!fmts_.empty()) {
    record.text = std::move(fmts_.back());
    fmts_.pop_back();
  }
  if (!has_child) {
    record.number = ParseDecimal<int64_t>(text);
    if (record.text.empty()) record.text = std::string(TrimWhitespace(text));
  }
  records_.push_back(std::move(record));
  return MakeValue(ValueClass::kText, static_cast<uint32_t>(records_.size() - 1));
}

void TextCells::Clear() {
  fmts_.clear();
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
