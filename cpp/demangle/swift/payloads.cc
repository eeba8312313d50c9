#include "demangle/swift/payloads.h"

#include <iterator>

namespace instrumentscope::demangle::swift {
namespace {

struct ValueWitnessEntry {
  std::string_view code;
  std::string_view name;
};

constexpr ValueWitnessEntry kValueWitnesses[] = {
    {"al", "allocateBuffer"},
    {"ca", "assignWithCopy"},
    {"ta", "assignWithTake"},
    {"de", "deallocateBuffer"},
    {"xx", "destroy"},
    {"XX", "destroyBuffer"},
    {"Xx", "destroyArray"},
    {"CP", "initializeBufferWithCopyOfBuffer"},
    {"Cp", "initializeBufferWithCopy"},
    {"cp", "initializeWithCopy"},
    {"Tk", "initializeBufferWithTake"},
    {"tk", "initializeWithTake"},
    {"pr", "projectBuffer"},
    {"TK", "initializeBufferWithTakeOfBuffer"},
    {"Cc", "initializeArrayWithCopy"},
    {"Tt", "initializeArrayWithTakeFrontToBack"},
    {"tT", "initializeArrayWithTakeBackToFront"},
    {"xs", "storeExtraInhabitant"},
    {"xg", "getExtraInhabitantIndex"},
    {"ug", "getEnumTag"},
    {"up", "destructiveProjectEnumData"},
    {"ui", "destructiveInjectEnumTag"},
    {"et", "getEnumTagSinglePayload"},
    {"st", "storeEnumTagSinglePayload"},
};

}  // namespace

int ValueWitnessFromCode(std::string_view code) {
  for (size_t i = 0; i < std::size(kValueWitnesses); ++i) {
    if (kValueWitnesses[i].code == code) return static_cast<int>(i);
  }
  return -1;
}

std::string_view ValueWitnessName(uint64_t index) {
  return index < std::size(kValueWitnesses) ? kValueWitnesses[index].name : std::string_view();
}

}  // namespace instrumentscope::demangle::swift
