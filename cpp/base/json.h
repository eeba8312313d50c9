// Serializing small JSON values with nlohmann_json. The core never throws, so
// invalid UTF-8 is replaced with U+FFFD instead of raising.
#ifndef INSTRUMENTSCOPE_BASE_JSON_H_
#define INSTRUMENTSCOPE_BASE_JSON_H_

#include <nlohmann/json.hpp>
#include <string>

namespace instrumentscope {

inline std::string DumpJson(const nlohmann::json& value, int indent = -1) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_JSON_H_
