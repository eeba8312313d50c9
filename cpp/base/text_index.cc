#include "base/text_index.h"

#include <cstring>
#include <utility>

namespace instrumentscope {
namespace {

constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;

uint64_t Mix(uint64_t hash, uint64_t word) {
  hash = (hash ^ word) * kMultiplier;
  return hash ^ (hash >> 29);
}

}  // namespace

uint64_t TextIndex::Hash(std::string_view key) {
  // Eight bytes at a time, then the rest; the length first, so that keys
  // ending in zero bytes differ from their prefixes.
  uint64_t hash = Mix(0, key.size());
  size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, key.data() + i, 8);
    hash = Mix(hash, word);
  }
  if (i < key.size()) {
    uint64_t word = 0;
    std::memcpy(&word, key.data() + i, key.size() - i);
    hash = Mix(hash, word);
  }
  return hash;
}

std::pair<uint32_t, bool> TextIndex::Insert(std::string_view key, uint32_t value) {
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  uint64_t hash = Hash(key);
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    Slot& slot = slots_[i];
    if (slot.entry == kEmpty) {
      slot = Slot{hash, static_cast<uint32_t>(entries_.size())};
      entries_.push_back(Entry{keys_.size(), key.size(), value});
      keys_.append(key);
      return {value, true};
    }
    const Entry& entry = entries_[slot.entry];
    if (slot.hash == hash && KeyOf(entry) == key) return {entry.value, false};
  }
}

std::optional<uint32_t> TextIndex::Find(std::string_view key) const {
  if (slots_.empty()) return std::nullopt;
  uint64_t hash = Hash(key);
  for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.entry == kEmpty) return std::nullopt;
    const Entry& entry = entries_[slot.entry];
    if (slot.hash == hash && KeyOf(entry) == key) return entry.value;
  }
}

void TextIndex::Grow() {
  std::vector<Slot> old = std::move(slots_);
  size_t capacity = old.empty() ? 16 : old.size() * 2;
  slots_.assign(capacity, Slot{});
  mask_ = capacity - 1;
  // Keys are not hashed again: each slot keeps its key's hash.
  for (const Slot& moved : old) {
    if (moved.entry == kEmpty) continue;
    size_t i = moved.hash & mask_;
    while (slots_[i].entry != kEmpty) i = (i + 1) & mask_;
    slots_[i] = moved;
  }
}

}  // namespace instrumentscope
