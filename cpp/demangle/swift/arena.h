// A bump allocator for one demangling: what it hands out is freed at once when it goes out of
// scope. The first block lives inside the object, so short names never touch the heap. Allocation
// fails (nullptr) past kMaxArenaBytes.
#ifndef INSTRUMENTSCOPE_DEMANGLE_SWIFT_ARENA_H_
#define INSTRUMENTSCOPE_DEMANGLE_SWIFT_ARENA_H_

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace instrumentscope::demangle::swift {

class Arena {
 public:
  Arena() = default;
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* Allocate(size_t size, size_t align);

  template <typename T>
  T* AllocateArray(size_t count) {
    static_assert(std::is_trivially_destructible_v<T>, "the arena runs no destructors");
    if (count > kMaxCount / sizeof(T)) return nullptr;
    return static_cast<T*>(Allocate(count * sizeof(T), alignof(T)));
  }

 private:
  static constexpr size_t kMaxCount = size_t{1} << 30;
  struct Block {
    Block* previous;
  };
  bool Grow(size_t needed);

  alignas(alignof(std::max_align_t)) char inline_block_[4096];
  char* cursor_ = inline_block_;
  char* end_ = inline_block_ + sizeof(inline_block_);
  Block* blocks_ = nullptr;
  size_t heap_bytes_ = 0;
  size_t next_block_size_ = 16 * 1024;
};

// A growable array of trivially copyable values kept in an Arena; growing copies into a larger
// array and leaves the old one to the arena.
template <typename T>
class ArenaVector {
 public:
  bool PushBack(Arena& arena, T value) {
    if (size_ == capacity_ && !Grow(arena)) return false;
    data_[size_++] = value;
    return true;
  }
  T PopBack() { return data_[--size_]; }
  T& Back() { return data_[size_ - 1]; }
  T& operator[](size_t index) { return data_[index]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }

 private:
  bool Grow(Arena& arena) {
    size_t capacity = capacity_ == 0 ? 8 : capacity_ * 2;
    T* data = arena.AllocateArray<T>(capacity);
    if (!data) return false;
    if (size_ != 0) std::memcpy(data, data_, size_ * sizeof(T));
    data_ = data;
    capacity_ = capacity;
    return true;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace instrumentscope::demangle::swift

#endif  // INSTRUMENTSCOPE_DEMANGLE_SWIFT_ARENA_H_
