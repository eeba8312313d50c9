// A hash map from 64-bit keys to 32-bit ids, with open addressing in one flat
// array: no allocation per entry and one probe in the common case. Interning
// stacks and frames looks up every frame of every distinct stack, millions of
// times; std::unordered_map spends most of that time allocating and chasing
// nodes, more so in WebAssembly.
#ifndef INSTRUMENTSCOPE_BASE_INTEGER_MAP_H_
#define INSTRUMENTSCOPE_BASE_INTEGER_MAP_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace instrumentscope {

class IntegerMap {
 public:
  // Values are ids below kNoValue, which marks an empty slot.
  static constexpr uint32_t kNoValue = UINT32_MAX;

  size_t size() const { return size_; }

  // The value of `key`, or kNoValue.
  uint32_t Find(uint64_t key) const {
    if (slots_.empty()) return kNoValue;
    for (size_t i = SlotOf(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.value == kNoValue) return kNoValue;
      if (slot.key == key) return slot.value;
    }
  }

  // Inserts `key` with `value` unless it is there. Returns the value stored
  // and whether it was inserted.
  std::pair<uint32_t, bool> Insert(uint64_t key, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    for (size_t i = SlotOf(key);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.value == kNoValue) {
        slot = Slot{key, value};
        ++size_;
        return {value, true};
      }
      if (slot.key == key) return {slot.value, false};
    }
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t value = kNoValue;
  };

  size_t SlotOf(uint64_t key) const {
    // Fibonacci hashing: the high bits of the product are well mixed.
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    size_t capacity = old.empty() ? 16 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t bits = capacity; bits > 1; bits >>= 1) --shift_;
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.value != kNoValue) Insert(slot.key, slot.value);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_INTEGER_MAP_H_
