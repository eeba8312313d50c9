// The values behind xctrace's id/ref deduplication: the first occurrence of an
// element carries id="N", later ones are <x ref="N"/>. Ids are scoped to one
// <node>. xctrace numbers them 1, 2, 3…, so a paged array holds them; ids far
// out of that pattern go to a hash map instead of growing the array.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ID_TABLE_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ID_TABLE_H_

#include <cstdint>
#include <unordered_map>

#include "base/paged_vector.h"

namespace instrumentscope::xctrace_xml {

enum class ValueClass : uint8_t {
  kUndefined,  // no element with this id yet
  kOpaque,     // defined, but nothing the importer reads
  kNumber,
  kThread,
  kProcess,
  kFrame,
  kBinary,
  kSource,
  kPath,
  kStack,
  kAddresses,
  kText,  // an element's text as xctrace shows it (interval tables only)
};

const char* ValueClassName(ValueClass value_class);

// 12 bytes, aligned to 4: a long export defines an id for nearly every row.
struct Value {
  ValueClass value_class = ValueClass::kUndefined;
  uint16_t element = 0;  // the importer's number for the defining element's name
  uint32_t index = 0;    // into the importer's table for the class; for kNumber, the low half
  uint32_t number_high = 0;

  int64_t number() const { return static_cast<int64_t>(uint64_t{number_high} << 32 | index); }
  void set_number(int64_t number) {
    index = static_cast<uint32_t>(static_cast<uint64_t>(number));
    number_high = static_cast<uint32_t>(static_cast<uint64_t>(number) >> 32);
  }
};
static_assert(sizeof(Value) == 12, "Value is stored once per id");

class IdTable {
 public:
  // Returns false when `id` is already defined.
  bool Define(uint64_t id, const Value& value);
  // A kUndefined value when `id` was never defined.
  Value Find(uint64_t id) const;
  uint64_t size() const { return size_; }
  // Forgets every id and releases the memory.
  void Clear();

 private:
  static constexpr uint64_t kMinDenseSpan = 1 << 20;
  PagedVector<Value> dense_;
  std::unordered_map<uint64_t, Value> sparse_;
  uint64_t size_ = 0;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_ID_TABLE_H_
