// Tables shared by the parsers and the printer for payloads that are numbers standing for names.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_PAYLOADS_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_PAYLOADS_H_

#include <cstdint>
#include <string_view>

namespace instrumentscope::demangle::swift {

// The value witness a two-letter code names ("cp"), as the index payload of a ValueWitness's
// first child; -1 for an unknown code.
int ValueWitnessFromCode(std::string_view code);
// "initializeWithCopy"; empty for an index that names no witness.
std::string_view ValueWitnessName(uint64_t index);

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_PAYLOADS_H_
