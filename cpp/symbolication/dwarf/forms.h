// Attribute values: reading one in any DWARF 2–5 form (DW_FORM_*), and what
// a value means as a constant, a section offset or a string. Reads every
// form of DWARF 5 but the GNU and vendor extensions; location lists and type
// signatures are stepped over, not followed.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FORMS_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FORMS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/byte_reader.h"
#include "base/byte_span.h"
#include "base/status.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

// An attribute as an abbreviation (or a line table's entry format) lists it.
struct AttributeSpec {
  uint64_t attribute = 0;
  uint64_t form = 0;
  int64_t implicit_const = 0;
};

struct AttributeValue {
  uint64_t attribute = 0;
  uint64_t form = 0;
  uint64_t value = 0;  // constants, offsets, indexes; references relative to their unit
  ByteSpan bytes;      // DW_FORM_string (without its NUL), blocks, data16
};

// Where a form is read: the section (for messages), the bytes the reader runs
// over (DW_FORM_string's text is found in them), and the unit's sizes.
struct FormSource {
  const Section* section;
  ByteSpan data;
  uint8_t address_size;
  uint16_t version;
};

// The value of `spec` at the reader's position, DW_FORM_indirect followed.
Status ReadForm(ByteReader& reader, const FormSource& source, const AttributeSpec& spec,
                AttributeValue& out);

// A DW_FORM_string value of `text` (line tables before version 5 name their
// files so).
AttributeValue InlineString(std::string_view text);

// DW_AT_decl_file and friends: LLVM's getAsUnsignedConstant.
std::optional<uint64_t> UnsignedConstant(const AttributeValue& value);

// An offset into another section (DW_AT_stmt_list, DW_AT_ranges, the bases).
std::optional<uint64_t> SectionOffset(const AttributeValue& value);

// The text of a string form: inline, in __debug_str or __debug_line_str, or
// by index through __debug_str_offsets from `str_offsets_base`. nullopt when
// it cannot be read (absent as LLVM treats it).
std::optional<std::string_view> StringValue(const Sections& sections,
                                            std::optional<uint64_t> str_offsets_base,
                                            const AttributeValue& value);

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_FORMS_H_
