#include "firefox/processed_format.h"

namespace instrumentscope::firefox {

const char* CategoryName(Category category) {
  switch (category) {
    case Category::kOther: return "Other";
    case Category::kUser: return "User";
    case Category::kSystem: return "System";
    case Category::kKernel: return "Kernel";
    case Category::kIntervals: return "Intervals";
  }
  return "Other";
}

// The profiler's CategoryColor names.
const char* CategoryColor(Category category) {
  switch (category) {
    case Category::kOther: return "grey";
    case Category::kUser: return "blue";
    case Category::kSystem: return "yellow";
    case Category::kKernel: return "orange";
    case Category::kIntervals: return "green";
  }
  return "grey";
}

}  // namespace instrumentscope::firefox
