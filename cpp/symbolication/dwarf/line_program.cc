#include "symbolication/dwarf/line_program.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_reader.h"
#include "symbolication/dwarf/codes.h"
#include "symbolication/dwarf/forms.h"
#include "symbolication/dwarf/units.h"

namespace instrumentscope::dwarf {
namespace {

constexpr uint64_t kLnctPath = 1;
constexpr uint64_t kLnctDirectoryIndex = 2;

constexpr uint8_t kLnsCopy = 1;
constexpr uint8_t kLnsAdvancePc = 2;
constexpr uint8_t kLnsAdvanceLine = 3;
constexpr uint8_t kLnsSetFile = 4;
constexpr uint8_t kLnsSetColumn = 5;
constexpr uint8_t kLnsNegateStmt = 6;
constexpr uint8_t kLnsSetBasicBlock = 7;
constexpr uint8_t kLnsConstAddPc = 8;
constexpr uint8_t kLnsFixedAdvancePc = 9;
constexpr uint8_t kLnsSetPrologueEnd = 10;
constexpr uint8_t kLnsSetEpilogueBegin = 11;
constexpr uint8_t kLnsSetIsa = 12;
constexpr uint8_t kLneEndSequence = 1;
constexpr uint8_t kLneSetAddress = 2;
constexpr uint8_t kLneDefineFile = 3;

// The header fields the program's opcodes depend on.
struct ProgramHeader {
  uint8_t min_instruction_length = 0;
  int8_t line_base = 0;
  uint8_t line_range = 0;
  uint8_t opcode_base = 0;
  std::vector<uint8_t> standard_lengths;  // ULEB128 operands of opcodes 1 to opcode_base − 1
};

Status ReadProgramHeader(ByteReader& header, uint16_t version, ProgramHeader& out) {
  ASSIGN_OR_RETURN(out.min_instruction_length, header.ReadU8());
  if (version >= 4) RETURN_IF_ERROR(header.Skip(1));  // maximum_operations_per_instruction
  RETURN_IF_ERROR(header.Skip(1));  // default_is_stmt: all rows count, as for LLVM
  ASSIGN_OR_RETURN(uint8_t line_base_byte, header.ReadU8());
  out.line_base = static_cast<int8_t>(line_base_byte);
  ASSIGN_OR_RETURN(out.line_range, header.ReadU8());
  ASSIGN_OR_RETURN(out.opcode_base, header.ReadU8());
  for (int opcode = 1; opcode < out.opcode_base; ++opcode) {
    ASSIGN_OR_RETURN(uint8_t length_of_opcode, header.ReadU8());
    out.standard_lengths.push_back(length_of_opcode);
  }
  return OkStatus();
}

// A directory or file entry's fields, as DW_LNCT_* (content, form) pairs.
Status ReadEntryFormat(const Section& debug_line, ByteReader& reader,
                       std::vector<AttributeSpec>& format) {
  uint8_t count;
  ASSIGN_OR_RETURN(count, reader.ReadU8());
  for (uint8_t i = 0; i < count; ++i) {
    AttributeSpec spec;
    ASSIGN_OR_RETURN(spec.attribute, ReadUleb128(reader));
    ASSIGN_OR_RETURN(spec.form, ReadUleb128(reader));
    if (spec.form == kFormImplicitConst) {
      return CorruptHere(debug_line, "a line table entry format uses DW_FORM_implicit_const",
                         reader);
    }
    format.push_back(spec);
  }
  return OkStatus();
}

// Version 5's directories or files: an entry format, a count, the entries.
Status ReadEntries(const Section& debug_line, ByteReader& reader, const Unit& unit,
                   ByteSpan table_bytes, bool directories, LineTable& table) {
  std::vector<AttributeSpec> format;
  RETURN_IF_ERROR(ReadEntryFormat(debug_line, reader, format));
  uint64_t count;
  ASSIGN_OR_RETURN(count, ReadUleb128(reader));
  // Each entry takes a byte at least, unless it has no fields at all.
  if (count > reader.remaining() || (format.empty() && count > 0)) {
    return CorruptHere(debug_line,
                       "a line table header claims " + std::to_string(count) + " entries", reader);
  }
  FormSource source{&debug_line, table_bytes, unit.address_size, unit.version};
  for (uint64_t i = 0; i < count; ++i) {
    FileEntry entry;
    for (const AttributeSpec& spec : format) {
      AttributeValue value;
      RETURN_IF_ERROR(ReadForm(reader, source, spec, value));
      if (spec.attribute == kLnctPath) entry.name = value;
      if (spec.attribute == kLnctDirectoryIndex) {
        entry.directory = UnsignedConstant(value).value_or(0);
      }
    }
    if (directories) {
      table.directories.push_back(entry.name);
    } else {
      table.files.push_back(entry);
    }
  }
  return OkStatus();
}

// Versions 2–4: include_directories, then file_names (name, directory index,
// modification time, length), each list ended by an empty name.
Status ReadLegacyEntries(ByteReader& header, ByteSpan header_bytes, LineTable& table) {
  for (;;) {
    ASSIGN_OR_RETURN(std::string_view directory, ReadCString(header, header_bytes));
    if (directory.empty()) break;
    table.directories.push_back(InlineString(directory));
  }
  for (;;) {
    ASSIGN_OR_RETURN(std::string_view name, ReadCString(header, header_bytes));
    if (name.empty()) break;
    FileEntry entry;
    entry.name = InlineString(name);
    ASSIGN_OR_RETURN(entry.directory, ReadUleb128(header));
    RETURN_IF_ERROR(ReadUleb128(header).status());  // modification time
    RETURN_IF_ERROR(ReadUleb128(header).status());  // length
    table.files.push_back(entry);
  }
  return OkStatus();
}

// The line number state machine: its registers, and the rows and sequences
// it appends to the table.
class LineProgram {
 public:
  LineProgram(const Section& debug_line, ByteReader& reader, ByteSpan bytes,
              const ProgramHeader& header, LineTable& table)
      : debug_line_(debug_line), reader_(reader), bytes_(bytes), header_(header), table_(table) {}

  // From the reader's position to the table's end.
  Status Run();

 private:
  void Reset();
  void Append(bool end_sequence);
  Result<uint64_t> SpecialAdvance(uint8_t opcode) const;
  Status RunSpecial(uint8_t opcode);
  Status RunExtended();
  Status RunStandard(uint8_t opcode);

  const Section& debug_line_;
  ByteReader& reader_;
  ByteSpan bytes_;  // the table's, for DW_LNE_define_file's name
  const ProgramHeader& header_;
  LineTable& table_;
  LineRow row_;
  bool in_sequence_ = false;
  size_t sequence_start_ = 0;  // the row that began the sequence
};

Status LineProgram::Run() {
  Reset();
  while (reader_.remaining() > 0) {
    uint8_t opcode;
    ASSIGN_OR_RETURN(opcode, reader_.ReadU8());
    if (opcode != 0 && opcode >= header_.opcode_base) {
      RETURN_IF_ERROR(RunSpecial(opcode));
    } else if (opcode == 0) {
      RETURN_IF_ERROR(RunExtended());
    } else {
      RETURN_IF_ERROR(RunStandard(opcode));
    }
  }
  std::sort(table_.sequences.begin(), table_.sequences.end(),
            [](const LineSequence& a, const LineSequence& b) { return a.low < b.low; });
  return OkStatus();
}

void LineProgram::Reset() {
  row_ = LineRow();
  row_.line = 1;
  row_.file = 1;
}

void LineProgram::Append(bool end_sequence) {
  if (!in_sequence_) {
    in_sequence_ = true;
    sequence_start_ = table_.rows.size();
  }
  table_.rows.push_back(row_);
  if (end_sequence) {
    LineSequence sequence;
    sequence.low = table_.rows[sequence_start_].address;
    sequence.high = row_.address;
    sequence.first_row = sequence_start_;
    sequence.last_row = table_.rows.size();
    if (sequence.low < sequence.high) table_.sequences.push_back(sequence);
    in_sequence_ = false;
  }
}

Result<uint64_t> LineProgram::SpecialAdvance(uint8_t opcode) const {
  if (header_.line_range == 0) {
    return CorruptHere(debug_line_, "a special opcode in a line table whose line_range is 0",
                       reader_);
  }
  return uint64_t{static_cast<uint8_t>(opcode - header_.opcode_base)} / header_.line_range *
         header_.min_instruction_length;
}

// Opcodes from opcode_base up: advance the address and the line, append a row.
Status LineProgram::RunSpecial(uint8_t opcode) {
  uint64_t advance;
  ASSIGN_OR_RETURN(advance, SpecialAdvance(opcode));
  row_.address += advance;
  row_.line += static_cast<uint32_t>(
      header_.line_base +
      static_cast<int>(static_cast<uint8_t>(opcode - header_.opcode_base) % header_.line_range));
  Append(false);
  return OkStatus();
}

// Opcode 0: a ULEB128 length, which decides where the next opcode is, then
// the sub-opcode and its operands.
Status LineProgram::RunExtended() {
  uint64_t length;
  ASSIGN_OR_RETURN(length, ReadUleb128(reader_));
  if (length == 0 || length > reader_.remaining()) {
    return CorruptHere(debug_line_,
                       "an extended line opcode claims " + std::to_string(length) + " bytes",
                       reader_);
  }
  size_t end = reader_.position() + static_cast<size_t>(length);
  uint8_t sub_opcode;
  ASSIGN_OR_RETURN(sub_opcode, reader_.ReadU8());
  if (sub_opcode == kLneEndSequence) {
    Append(true);
    Reset();
  } else if (sub_opcode == kLneSetAddress) {
    size_t width = static_cast<size_t>(length - 1);
    if (width == 0 || width > 8) {
      return CorruptHere(debug_line_,
                         "DW_LNE_set_address with a " + std::to_string(width) + "-byte address",
                         reader_);
    }
    ASSIGN_OR_RETURN(row_.address, reader_.ReadUIntLe(width));
  } else if (sub_opcode == kLneDefineFile && table_.version <= 4) {
    FileEntry entry;
    ASSIGN_OR_RETURN(std::string_view name, ReadCString(reader_, bytes_));
    entry.name = InlineString(name);
    ASSIGN_OR_RETURN(entry.directory, ReadUleb128(reader_));
    table_.files.push_back(entry);
  }
  // Others (set_discriminator, vendor ones) change nothing read here.
  return reader_.Seek(end);
}

// Opcodes 1 to opcode_base − 1.
Status LineProgram::RunStandard(uint8_t opcode) {
  switch (opcode) {
    case kLnsCopy: Append(false); return OkStatus();
    case kLnsAdvancePc: {
      uint64_t operand;
      ASSIGN_OR_RETURN(operand, ReadUleb128(reader_));
      row_.address += operand * header_.min_instruction_length;
      return OkStatus();
    }
    case kLnsAdvanceLine: {
      int64_t delta;
      ASSIGN_OR_RETURN(delta, ReadSleb128(reader_));
      row_.line += static_cast<uint32_t>(delta);
      return OkStatus();
    }
    case kLnsSetFile: {
      uint64_t file;
      ASSIGN_OR_RETURN(file, ReadUleb128(reader_));
      row_.file = static_cast<uint16_t>(file);
      return OkStatus();
    }
    case kLnsSetColumn: {
      uint64_t column;
      ASSIGN_OR_RETURN(column, ReadUleb128(reader_));
      row_.column = static_cast<uint16_t>(column);
      return OkStatus();
    }
    case kLnsNegateStmt:
    case kLnsSetBasicBlock:
    case kLnsSetPrologueEnd:
    case kLnsSetEpilogueBegin: return OkStatus();
    case kLnsConstAddPc: {
      uint64_t advance;
      ASSIGN_OR_RETURN(advance, SpecialAdvance(255));
      row_.address += advance;
      return OkStatus();
    }
    case kLnsFixedAdvancePc: {
      uint16_t advance;
      ASSIGN_OR_RETURN(advance, reader_.ReadU16Le());
      row_.address += advance;
      return OkStatus();
    }
    case kLnsSetIsa: return ReadUleb128(reader_).status();
    default:
      // An opcode this reader does not know: the header says how many
      // ULEB128 operands to skip.
      for (uint8_t i = 0; i < header_.standard_lengths[opcode - 1]; ++i) {
        RETURN_IF_ERROR(ReadUleb128(reader_).status());
      }
      return OkStatus();
  }
}

}  // namespace

Status ReadLineProgram(const Section& debug_line, const Unit& unit, ByteSpan bytes, uint64_t offset,
                       LineTable& table) {
  ByteReader reader(bytes, debug_line.file_offset + offset);
  RETURN_IF_ERROR(reader.Skip(4));
  ASSIGN_OR_RETURN(table.version, reader.ReadU16Le());
  if (table.version < 2 || table.version > 5) {
    return Corrupt(debug_line,
                   "line table version " + std::to_string(table.version) + " is not 2 to 5",
                   offset + 4);
  }
  // DW_LNE_set_address's own length gives its address's size.
  if (table.version >= 5) RETURN_IF_ERROR(reader.Skip(2));  // address, segment selector sizes
  uint32_t header_length;
  ASSIGN_OR_RETURN(header_length, reader.ReadU32Le());
  if (header_length > reader.remaining()) {
    return Corrupt(
        debug_line,
        "line table header length " + std::to_string(header_length) + " runs past the table's end",
        reader.absolute_offset() - debug_line.file_offset - 4);
  }
  size_t program_start = reader.position() + header_length;
  ByteSpan header_bytes = bytes.first(program_start);
  ByteReader header(header_bytes, debug_line.file_offset + offset);
  RETURN_IF_ERROR(header.Seek(reader.position()));
  ProgramHeader program;
  RETURN_IF_ERROR(ReadProgramHeader(header, table.version, program));
  if (table.version >= 5) {
    RETURN_IF_ERROR(
        ReadEntries(debug_line, header, unit, header_bytes, /*directories=*/true, table));
    RETURN_IF_ERROR(
        ReadEntries(debug_line, header, unit, header_bytes, /*directories=*/false, table));
  } else {
    RETURN_IF_ERROR(ReadLegacyEntries(header, header_bytes, table));
  }
  RETURN_IF_ERROR(reader.Seek(program_start));
  return LineProgram(debug_line, reader, bytes, program, table).Run();
}

}  // namespace instrumentscope::dwarf
