#include "demangle/swift/arena.h"

#include <cstdint>
#include <cstdlib>

#include "demangle/swift/limits.h"

namespace instrumentscope::demangle::swift {

Arena::~Arena() {
  while (blocks_) {
    Block* previous = blocks_->previous;
    std::free(blocks_);
    blocks_ = previous;
  }
}

void* Arena::Allocate(size_t size, size_t align) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    uintptr_t start = (reinterpret_cast<uintptr_t>(cursor_) + align - 1) & ~(uintptr_t{align} - 1);
    if (start <= reinterpret_cast<uintptr_t>(end_) &&
        size <= reinterpret_cast<uintptr_t>(end_) - start) {
      cursor_ = reinterpret_cast<char*>(start + size);
      return reinterpret_cast<void*>(start);
    }
    if (attempt == 0 && !Grow(size + align)) return nullptr;
  }
  return nullptr;
}

bool Arena::Grow(size_t needed) {
  size_t bytes = next_block_size_;
  while (bytes < needed + sizeof(Block)) bytes *= 2;
  if (heap_bytes_ + bytes > kMaxArenaBytes) return false;
  void* memory = std::malloc(bytes);
  if (!memory) return false;
  Block* block = static_cast<Block*>(memory);
  block->previous = blocks_;
  blocks_ = block;
  heap_bytes_ += bytes;
  next_block_size_ = bytes * 2;
  cursor_ = static_cast<char*>(memory) + sizeof(Block);
  end_ = static_cast<char*>(memory) + bytes;
  return true;
}

}  // namespace instrumentscope::demangle::swift
