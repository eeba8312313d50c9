// Every warning an import can give, declared once: its code, what it means,
// and what the user can do about it. Importers and reports name a warning by
// its WarningCode; the summary, the CLI and the page show the code's name.
// The README's "Warnings" table and index.d.ts's WarningCode are checked
// against this list by the tests.
#ifndef INSTRUMENTSCOPE_MODEL_WARNING_CODES_H_
#define INSTRUMENTSCOPE_MODEL_WARNING_CODES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/profile.h"

namespace instrumentscope {

enum class WarningCode : uint8_t {
  kBundlePartUnreadable,
  kTableUnreadable,
  kThreadNamesUnreadable,
  kMessagesUnreadable,
  kLegacyRunUnreadable,
  kNoFormTemplate,
  kFormTemplateUnreadable,
  kFormTemplateDamaged,
  kInstrumentNotRead,
  kAllocationEventsNotRead,
  kIntervalsWithoutEnd,
  kIntervalsWithoutBegin,
  kRowsWithoutWeight,
  kRowsWithoutThread,
  kUnknownValues,
  kDuringViewsApproximate,
  kCountersUnnamed,
  kDeepCopyHiddenWeight,
  kSymbolsUnreadable,
  kSymbolsNotRead,
  kSymbolsMissing,
  kSymbolsMatchedByName,
  kSymbolsUnused,
};

struct WarningKind {
  WarningCode code;
  const char* name;     // TABLE_UNREADABLE
  const char* meaning;  // what the profile lacks, and why
  const char* remedy;   // what the user can do
};

// Every kind, in the order of WarningCode.
const std::vector<WarningKind>& WarningKinds();
const char* WarningCodeName(WarningCode code);

inline Warning MakeWarning(WarningCode code, std::string message) {
  return Warning{WarningCodeName(code), std::move(message)};
}

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_MODEL_WARNING_CODES_H_
