#include "report/warnings.h"

#include <unordered_map>
#include <utility>
#include <vector>

namespace instrumentscope {

void OneWarningPerKind(ProfileGroup* group) {
  std::vector<Warning> merged;
  std::unordered_map<std::string, size_t> index;  // by code, in `merged`
  for (Warning& warning : group->warnings) {
    auto [entry, inserted] = index.try_emplace(warning.code, merged.size());
    if (inserted) {
      merged.push_back(std::move(warning));
    } else {
      merged[entry->second].message += "; " + warning.message;
    }
  }
  group->warnings = std::move(merged);
}

}  // namespace instrumentscope
