#include "symbolication/dwarf/forms.h"

#include <cstdio>
#include <string>

#include "base/checked_math.h"
#include "symbolication/dwarf/codes.h"

namespace instrumentscope::dwarf {
namespace {

// DW_FORM_indirect naming DW_FORM_indirect again.
constexpr int kMaxIndirections = 4;

// The width of a form whose value takes a fixed number of bytes in the DIE;
// nullopt for the others.
std::optional<size_t> FixedWidth(uint64_t form, const FormSource& source) {
  switch (form) {
    case kFormAddr: return source.address_size;
    case kFormData1:
    case kFormRef1:
    case kFormFlag:
    case kFormStrx1:
    case kFormAddrx1: return 1;
    case kFormData2:
    case kFormRef2:
    case kFormStrx2:
    case kFormAddrx2: return 2;
    case kFormStrx3:
    case kFormAddrx3: return 3;
    case kFormData4:
    case kFormRef4:
    case kFormStrx4:
    case kFormAddrx4:
    case kFormRefSup4:
    case kFormStrp:
    case kFormLineStrp:
    case kFormSecOffset:
    case kFormStrpSup: return kOffsetSize;
    case kFormData8:
    case kFormRef8:
    case kFormRefSig8:
    case kFormRefSup8: return 8;
    case kFormRefAddr:
      // DWARF 2 made it address-sized; later versions offset-sized.
      return source.version <= 2 ? source.address_size : kOffsetSize;
    default: return std::nullopt;
  }
}

// block1, block2, block4, block and exprloc: a length (by the form), then
// that many bytes.
Status ReadBlock(ByteReader& reader, const FormSource& source, AttributeValue& out) {
  uint64_t length;
  if (out.form == kFormBlock1) {
    ASSIGN_OR_RETURN(length, reader.ReadUIntLe(1));
  } else if (out.form == kFormBlock2) {
    ASSIGN_OR_RETURN(length, reader.ReadUIntLe(2));
  } else if (out.form == kFormBlock4) {
    ASSIGN_OR_RETURN(length, reader.ReadUIntLe(4));
  } else {
    ASSIGN_OR_RETURN(length, ReadUleb128(reader));
  }
  if (length > reader.remaining()) {
    return CorruptHere(*source.section,
                       "a block of " + std::to_string(length) + " bytes runs past its unit",
                       reader);
  }
  ASSIGN_OR_RETURN(out.bytes, reader.ReadBytes(static_cast<size_t>(length)));
  return OkStatus();
}

// The forms whose size is in their bytes (LEB128, strings, blocks), or that
// take none; an unknown form is corrupt.
Status ReadVariableForm(ByteReader& reader, const FormSource& source, const AttributeSpec& spec,
                        AttributeValue& out) {
  switch (out.form) {
    case kFormData16: {
      ASSIGN_OR_RETURN(out.bytes, reader.ReadBytes(16));
      return OkStatus();
    }
    case kFormSdata: {
      int64_t value;
      ASSIGN_OR_RETURN(value, ReadSleb128(reader));
      out.value = static_cast<uint64_t>(value);
      return OkStatus();
    }
    case kFormUdata:
    case kFormRefUdata:
    case kFormStrx:
    case kFormAddrx:
    case kFormLoclistx:
    case kFormRnglistx: {
      ASSIGN_OR_RETURN(out.value, ReadUleb128(reader));
      return OkStatus();
    }
    case kFormString: {
      ASSIGN_OR_RETURN(std::string_view text, ReadCString(reader, source.data));
      out.bytes = ByteSpan(text);
      return OkStatus();
    }
    case kFormFlagPresent: out.value = 1; return OkStatus();
    case kFormImplicitConst:
      out.value = static_cast<uint64_t>(spec.implicit_const);
      return OkStatus();
    case kFormBlock1:
    case kFormBlock2:
    case kFormBlock4:
    case kFormBlock:
    case kFormExprloc: return ReadBlock(reader, source, out);
    default: {
      char hex[24];
      std::snprintf(hex, sizeof(hex), "0x%llx", static_cast<unsigned long long>(out.form));
      return CorruptHere(*source.section, std::string("unknown attribute form ") + hex, reader);
    }
  }
}

}  // namespace

Status ReadForm(ByteReader& reader, const FormSource& source, const AttributeSpec& spec,
                AttributeValue& out) {
  out.attribute = spec.attribute;
  out.form = spec.form;
  out.value = 0;
  out.bytes = ByteSpan();
  for (int indirections = 0; out.form == kFormIndirect; ++indirections) {
    if (indirections == kMaxIndirections) {
      return CorruptHere(*source.section, "DW_FORM_indirect nests too deep", reader);
    }
    ASSIGN_OR_RETURN(out.form, ReadUleb128(reader));
    if (out.form == kFormImplicitConst) {
      return CorruptHere(*source.section, "DW_FORM_indirect names DW_FORM_implicit_const", reader);
    }
  }
  if (std::optional<size_t> width = FixedWidth(out.form, source)) {
    ASSIGN_OR_RETURN(out.value, reader.ReadUIntLe(*width));
    return OkStatus();
  }
  return ReadVariableForm(reader, source, spec, out);
}

AttributeValue InlineString(std::string_view text) {
  AttributeValue value;
  value.form = kFormString;
  value.bytes = ByteSpan(text);
  return value;
}

std::optional<uint64_t> UnsignedConstant(const AttributeValue& value) {
  switch (value.form) {
    case kFormData1:
    case kFormData2:
    case kFormData4:
    case kFormData8:
    case kFormUdata:
    case kFormFlag:
    case kFormFlagPresent: return value.value;
    case kFormImplicitConst: return value.value;
    default: return std::nullopt;
  }
}

std::optional<uint64_t> SectionOffset(const AttributeValue& value) {
  if (value.form == kFormSecOffset || value.form == kFormData4 || value.form == kFormData8) {
    return value.value;
  }
  return std::nullopt;
}

std::optional<std::string_view> StringValue(const Sections& sections,
                                            std::optional<uint64_t> str_offsets_base,
                                            const AttributeValue& value) {
  switch (value.form) {
    case kFormString: return value.bytes.as_chars();
    case kFormStrp: return StringAt(sections.debug_str, sections.debug_str_ends, value.value);
    case kFormLineStrp:
      return StringAt(sections.debug_line_str, sections.debug_line_str_ends, value.value);
    case kFormStrx:
    case kFormStrx1:
    case kFormStrx2:
    case kFormStrx3:
    case kFormStrx4: {
      if (!str_offsets_base || value.value > kMaxIndex) return std::nullopt;
      auto at = CheckedAdd(*str_offsets_base, value.value * kOffsetSize);
      if (!at) return std::nullopt;
      std::optional<uint64_t> offset = UIntAt(sections.debug_str_offsets, *at, kOffsetSize);
      if (!offset) return std::nullopt;
      return StringAt(sections.debug_str, sections.debug_str_ends, *offset);
    }
    default: return std::nullopt;
  }
}

}  // namespace instrumentscope::dwarf
