// Import options as the JS API and the CLI spell them: a JSON object
// {"name": …, "run": N, "limits": {"maxSamples": N, …}}. Every limit of
// limits.h has its camelCase name here; an unknown one is an error, so a
// misspelt limit is never silently ignored.
#ifndef INSTRUMENTSCOPE_IMPORT_OPTIONS_H_
#define INSTRUMENTSCOPE_IMPORT_OPTIONS_H_

#include <string_view>

#include "base/status.h"
#include "formats/importer.h"

namespace instrumentscope {

Status ReadImportOptions(std::string_view json, ImportOptions* options);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_IMPORT_OPTIONS_H_
