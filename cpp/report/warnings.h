// One warning per kind, whatever found it: when several parts of a recording
// share one fate (three tables left out, two symbol files matched by name),
// one line says it of each in turn, so that the command line, the page and
// the summary list each kind once.
#ifndef INSTRUMENTSCOPE_REPORT_WARNINGS_H_
#define INSTRUMENTSCOPE_REPORT_WARNINGS_H_

#include "model/profile.h"

namespace instrumentscope {

// Joins the warnings of each code into the first of them, in the order the
// codes first appeared: "run 3 left out: …; run 4 left out: …".
void OneWarningPerKind(ProfileGroup* group);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_REPORT_WARNINGS_H_
