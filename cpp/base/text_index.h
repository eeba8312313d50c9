// A hash map from byte strings to 32-bit ids, with open addressing in one flat
// array and the keys one after another in one buffer: no allocation per entry.
// Interning a bundle's frames inserts a hundred thousand keys or more;
// std::unordered_map<std::string, …> spent most of that allocating nodes and
// strings and rehashing them, more so in WebAssembly.
#ifndef INSTRUMENTSCOPE_BASE_TEXT_INDEX_H_
#define INSTRUMENTSCOPE_BASE_TEXT_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace instrumentscope {

class TextIndex {
 public:
  size_t size() const { return entries_.size(); }

  // Inserts `key` with `value` unless it is there. Returns the value stored
  // and whether it was inserted.
  std::pair<uint32_t, bool> Insert(std::string_view key, uint32_t value);
  // The value stored for `key`, if it is there.
  std::optional<uint32_t> Find(std::string_view key) const;

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint64_t hash = 0;
    uint32_t entry = kEmpty;  // in entries_
  };
  struct Entry {
    size_t offset;  // of the key in keys_
    size_t length;
    uint32_t value;
  };

  static uint64_t Hash(std::string_view key);
  std::string_view KeyOf(const Entry& entry) const {
    return std::string_view(keys_).substr(entry.offset, entry.length);
  }
  void Grow();

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  std::string keys_;
  size_t mask_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_TEXT_INDEX_H_
