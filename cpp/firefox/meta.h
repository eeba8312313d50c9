// The Firefox Profiler file's `meta`: the format's version, categories and
// marker schemas, what the recording says of itself, and the threads the
// profiler opens with.
#ifndef INSTRUMENTSCOPE_FIREFOX_META_H_
#define INSTRUMENTSCOPE_FIREFOX_META_H_

#include <nlohmann/json.hpp>

#include "firefox/layout.h"
#include "model/profile.h"

namespace instrumentscope::firefox {

nlohmann::json MetaJson(const ProfileGroup& group, const FirefoxLayout& layout);

}  // namespace instrumentscope::firefox

#endif  // INSTRUMENTSCOPE_FIREFOX_META_H_
