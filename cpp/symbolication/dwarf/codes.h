// The numbers of the DWARF 5 standard that more than one part of the DWARF
// reader uses: DIE tags, attributes and forms, and the sizes of 32-bit DWARF
// (64-bit DWARF is not read). Codes that one file alone reads (unit types,
// range list entries, line program opcodes) stay in that file.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_DWARF_CODES_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_DWARF_CODES_H_

#include <cstdint>

namespace instrumentscope::dwarf {

inline constexpr uint64_t kTagInlinedSubroutine = 0x1D;
inline constexpr uint64_t kTagSubprogram = 0x2E;

inline constexpr uint64_t kAtName = 0x03;
inline constexpr uint64_t kAtStmtList = 0x10;
inline constexpr uint64_t kAtLowPc = 0x11;
inline constexpr uint64_t kAtHighPc = 0x12;
inline constexpr uint64_t kAtCompDir = 0x1B;
inline constexpr uint64_t kAtAbstractOrigin = 0x31;
inline constexpr uint64_t kAtDeclFile = 0x3A;
inline constexpr uint64_t kAtDeclLine = 0x3B;
inline constexpr uint64_t kAtSpecification = 0x47;
inline constexpr uint64_t kAtRanges = 0x55;
inline constexpr uint64_t kAtCallColumn = 0x57;
inline constexpr uint64_t kAtCallFile = 0x58;
inline constexpr uint64_t kAtCallLine = 0x59;
inline constexpr uint64_t kAtLinkageName = 0x6E;
inline constexpr uint64_t kAtStrOffsetsBase = 0x72;
inline constexpr uint64_t kAtAddrBase = 0x73;
inline constexpr uint64_t kAtRnglistsBase = 0x74;
inline constexpr uint64_t kAtMipsLinkageName = 0x2007;  // what older compilers wrote

inline constexpr uint64_t kFormAddr = 0x01;
inline constexpr uint64_t kFormBlock2 = 0x03;
inline constexpr uint64_t kFormBlock4 = 0x04;
inline constexpr uint64_t kFormData2 = 0x05;
inline constexpr uint64_t kFormData4 = 0x06;
inline constexpr uint64_t kFormData8 = 0x07;
inline constexpr uint64_t kFormString = 0x08;
inline constexpr uint64_t kFormBlock = 0x09;
inline constexpr uint64_t kFormBlock1 = 0x0A;
inline constexpr uint64_t kFormData1 = 0x0B;
inline constexpr uint64_t kFormFlag = 0x0C;
inline constexpr uint64_t kFormSdata = 0x0D;
inline constexpr uint64_t kFormStrp = 0x0E;
inline constexpr uint64_t kFormUdata = 0x0F;
inline constexpr uint64_t kFormRefAddr = 0x10;
inline constexpr uint64_t kFormRef1 = 0x11;
inline constexpr uint64_t kFormRef2 = 0x12;
inline constexpr uint64_t kFormRef4 = 0x13;
inline constexpr uint64_t kFormRef8 = 0x14;
inline constexpr uint64_t kFormRefUdata = 0x15;
inline constexpr uint64_t kFormIndirect = 0x16;
inline constexpr uint64_t kFormSecOffset = 0x17;
inline constexpr uint64_t kFormExprloc = 0x18;
inline constexpr uint64_t kFormFlagPresent = 0x19;
inline constexpr uint64_t kFormStrx = 0x1A;
inline constexpr uint64_t kFormAddrx = 0x1B;
inline constexpr uint64_t kFormRefSup4 = 0x1C;
inline constexpr uint64_t kFormStrpSup = 0x1D;
inline constexpr uint64_t kFormData16 = 0x1E;
inline constexpr uint64_t kFormLineStrp = 0x1F;
inline constexpr uint64_t kFormRefSig8 = 0x20;
inline constexpr uint64_t kFormImplicitConst = 0x21;
inline constexpr uint64_t kFormLoclistx = 0x22;
inline constexpr uint64_t kFormRnglistx = 0x23;
inline constexpr uint64_t kFormRefSup8 = 0x24;
inline constexpr uint64_t kFormStrx1 = 0x25;
inline constexpr uint64_t kFormStrx2 = 0x26;
inline constexpr uint64_t kFormStrx3 = 0x27;
inline constexpr uint64_t kFormStrx4 = 0x28;
inline constexpr uint64_t kFormAddrx1 = 0x29;
inline constexpr uint64_t kFormAddrx2 = 0x2A;
inline constexpr uint64_t kFormAddrx3 = 0x2B;
inline constexpr uint64_t kFormAddrx4 = 0x2C;

// DWARF 32-bit offsets; 0xFFFFFFFF announces 64-bit DWARF, which is refused.
inline constexpr uint32_t kOffsetSize = 4;
inline constexpr uint32_t kDwarf64Escape = 0xFFFFFFFF;
inline constexpr uint32_t kReservedLengths = 0xFFFFFFF0;

// An index into .debug_addr, .debug_str_offsets or .debug_rnglists beyond
// this is past any section, and times 8 cannot overflow.
inline constexpr uint64_t kMaxIndex = uint64_t{1} << 56;

}  // namespace instrumentscope::dwarf

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_DWARF_CODES_H_
