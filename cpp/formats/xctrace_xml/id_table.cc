#include "formats/xctrace_xml/id_table.h"

#include <algorithm>

namespace instrumentscope::xctrace_xml {

const char* ValueClassName(ValueClass value_class) {
  switch (value_class) {
    case ValueClass::kUndefined: return "nothing";
    case ValueClass::kOpaque: return "an element without a usable value";
    case ValueClass::kNumber: return "a number";
    case ValueClass::kThread: return "a <thread>";
    case ValueClass::kProcess: return "a <process>";
    case ValueClass::kFrame: return "a <frame>";
    case ValueClass::kBinary: return "a <binary>";
    case ValueClass::kSource: return "a <source>";
    case ValueClass::kPath: return "a <path>";
    case ValueClass::kStack: return "a backtrace";
    case ValueClass::kAddresses: return "a <text-addresses>";
    case ValueClass::kText: return "a text";
  }
  return "unknown";
}

bool IdTable::Define(uint64_t id, const Value& value) {
  // Dense while ids stay within a few times the number already defined.
  uint64_t dense_span = std::max<uint64_t>(kMinDenseSpan, size_ * 4);
  if (id < dense_span) {
    // A page at a time: ids mostly come one after another.
    constexpr uint64_t kPage = decltype(dense_)::kPageSize;
    if (id >= dense_.size()) dense_.GrowTo((id / kPage + 1) * kPage);
    if (dense_[id].value_class != ValueClass::kUndefined) return false;
    if (!sparse_.empty() && sparse_.count(id)) return false;  // defined before the span grew
    dense_[id] = value;
  } else {
    if (id < dense_.size() && dense_[id].value_class != ValueClass::kUndefined) return false;
    if (!sparse_.try_emplace(id, value).second) return false;
  }
  ++size_;
  return true;
}

Value IdTable::Find(uint64_t id) const {
  if (id < dense_.size() && dense_[id].value_class != ValueClass::kUndefined) return dense_[id];
  auto entry = sparse_.find(id);
  return entry == sparse_.end() ? Value{} : entry->second;
}

void IdTable::Clear() {
  dense_.clear();
  sparse_.clear();
  size_ = 0;
}

}  // namespace instrumentscope::xctrace_xml
