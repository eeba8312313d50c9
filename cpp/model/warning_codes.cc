#include "model/warning_codes.h"

namespace instrumentscope {
namespace {

const std::vector<WarningKind> kKinds = {
    {WarningCode::kBundlePartUnreadable, "BUNDLE_PART_UNREADABLE",
     "a store, table or run of a bundle could not be read (a file lost in a copy, or cut short): "
     "it is left out, naming the file and what was lost, and the rest imports",
     "copy the whole .trace bundle again"},
    {WarningCode::kTableUnreadable, "TABLE_UNREADABLE",
     "a table could not be read (damaged, or without a column it needs): its samples or intervals "
     "are left out, or it is listed with the rows that could be counted",
     "copy the whole bundle again, or export the table again with xctrace"},
    {WarningCode::kThreadNamesUnreadable, "THREAD_NAMES_UNREADABLE",
     "a table of thread or process names could not be read: threads are named by tid",
     "copy the whole bundle again"},
    {WarningCode::kMessagesUnreadable, "MESSAGES_UNREADABLE",
     "a run's signpost messages could not be read: signposts are labelled with their format "
     "strings",
     "copy the whole bundle again"},
    {WarningCode::kLegacyRunUnreadable, "LEGACY_RUN_UNREADABLE",
     "a run of the legacy Time Profiler has no run archive: the run is left out",
     "copy the whole bundle again"},
    {WarningCode::kNoFormTemplate, "NO_FORM_TEMPLATE",
     "the bundle has no form.template: the message says what that cost (frames left as "
     "addresses, processes named by pid, the instruments not known)",
     "copy the whole bundle again, or add symbol files"},
    {WarningCode::kFormTemplateUnreadable, "FORM_TEMPLATE_UNREADABLE",
     "form.template could not be read: frames show addresses, not symbols",
     "copy the whole bundle again, or add symbol files"},
    {WarningCode::kFormTemplateDamaged, "FORM_TEMPLATE_DAMAGED",
     "a part of form.template could not be read; the message names it and what it cost",
     "copy the whole bundle again"},
    {WarningCode::kInstrumentNotRead, "INSTRUMENT_NOT_READ",
     "an instrument's recording this version does not read (VM Tracker, Leaks, Automation): it is "
     "in no profile",
     "open the recording in Instruments for that instrument's data"},
    {WarningCode::kAllocationEventsNotRead, "ALLOCATION_EVENTS_NOT_READ",
     "Allocations events of kinds this version does not read are counted and left out", "none"},
    {WarningCode::kIntervalsWithoutEnd, "INTERVALS_WITHOUT_END",
     "intervals that began and never ended in the recording are drawn to the end of their run",
     "none: the recording stopped before they ended"},
    {WarningCode::kIntervalsWithoutBegin, "INTERVALS_WITHOUT_BEGIN",
     "intervals that ended without beginning in the recording are drawn from the start of their "
     "run",
     "none: they began before the recording did"},
    {WarningCode::kRowsWithoutWeight, "ROWS_WITHOUT_WEIGHT",
     "rows of a sample table without a weight are left out",
     "copy the whole bundle again, or export the table again with xctrace"},
    {WarningCode::kRowsWithoutThread, "ROWS_WITHOUT_THREAD",
     "rows of a table without a thread: samples are shown under \"Unknown Thread\", thread "
     "states are in no lane",
     "copy the whole bundle again, or export the table again with xctrace"},
    {WarningCode::kUnknownValues, "UNKNOWN_VALUES",
     "a bundle's rows name a state, system call or other value that is none of the run's "
     "strings: it is shown by its number (\"syscall 372\", \"state 14\")",
     "copy the whole bundle again (its corespace/run<N>/core/uniquing/strings)"},
    {WarningCode::kDuringViewsApproximate, "DURING_VIEWS_APPROXIMATE",
     "an export's hangs came after its events weighted by durations: views of those events during "
     "hangs count a run of one stack that crosses a hang's edge whole",
     "export the hang table before the others (its xpath first), or import the bundle"},
    {WarningCode::kCountersUnnamed, "COUNTERS_UNNAMED",
     "a CPU Counters table's counters are named by number (\"counter 1\"): which events each "
     "counts is in the recording's configuration, which is not read",
     "none: Instruments' CPU Counters inspector names them"},
    {WarningCode::kDeepCopyHiddenWeight, "DEEP_COPY_HIDDEN_WEIGHT",
     "a Deep Copy row weighs more than its callees: the excess is counted as its own; the message "
     "names the first such line",
     "copy the call tree again, expanded"},
    {WarningCode::kSymbolsUnreadable, "SYMBOLS_UNREADABLE",
     "a symbol archive of the bundle could not be read: its frames stay addresses",
     "copy the whole bundle again, or add symbol files"},
    {WarningCode::kSymbolsNotRead, "SYMBOLS_NOT_READ",
     "the bundle's symbols cannot be placed without the image lists of its form.template: frames "
     "are named by address",
     "add symbol files (dSYMs or binaries)"},
    {WarningCode::kSymbolsMissing, "SYMBOLS_MISSING",
     "frames of much of a profile stayed addresses: the message names their images, most samples "
     "first, and why each stayed unnamed",
     "add the named images' dSYMs or binaries"},
    {WarningCode::kSymbolsMatchedByName, "SYMBOLS_MATCHED_BY_NAME",
     "an image was named from a symbol file of the same name, not by UUID: if the file comes from "
     "another build, the names may be wrong",
     "add the symbol file of the recorded build"},
    {WarningCode::kSymbolsUnused, "SYMBOLS_UNUSED",
     "a symbol file given names no frame of the recording", "check that it is the right file"},
};

}  // namespace

const std::vector<WarningKind>& WarningKinds() {
  return kKinds;
}

const char* WarningCodeName(WarningCode code) {
  return kKinds[static_cast<size_t>(code)].name;
}

}  // namespace instrumentscope
