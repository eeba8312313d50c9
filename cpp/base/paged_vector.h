// A sequence stored in pages of a fixed number of elements. Growing it never
// copies what is stored, and it never holds more than one page of spare room:
// the peak memory of millions of samples or ids is what they take, not up to
// three times that while a vector reallocates.
#ifndef INSTRUMENTSCOPE_BASE_PAGED_VECTOR_H_
#define INSTRUMENTSCOPE_BASE_PAGED_VECTOR_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace instrumentscope {

template <typename T, size_t kPageElements = size_t{1} << 15>
class PagedVector {
 public:
  static constexpr size_t kPageSize = kPageElements;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](size_t index) { return pages_[index / kPageElements][index % kPageElements]; }
  const T& operator[](size_t index) const {
    return pages_[index / kPageElements][index % kPageElements];
  }
  T& back() { return (*this)[size_ - 1]; }
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(const T& value) {
    // The first page grows like a vector, so small sequences stay small; a
    // sequence that filled one takes whole pages, never copied as they fill.
    if (pages_.empty() || pages_.back().size() == kPageElements) {
      pages_.emplace_back();
      if (pages_.size() > 1) pages_.back().reserve(kPageElements);
    }
    pages_.back().push_back(value);
    ++size_;
  }

  // Appends value-initialized elements up to `size`; never shrinks.
  void GrowTo(size_t size) {
    while (size_ < size) {
      if (pages_.empty() || pages_.back().size() == kPageElements) {
        pages_.emplace_back();
        pages_.back().reserve(kPageElements);
      }
      std::vector<T>& page = pages_.back();
      size_t added = std::min(kPageElements - page.size(), size - size_);
      page.resize(page.size() + added);
      size_ += added;
    }
  }

  // Releases the memory, unlike std::vector::clear.
  void clear() {
    pages_ = {};
    size_ = 0;
  }

  template <typename Visit>
  void ForEach(Visit visit) const {
    for (const std::vector<T>& page : pages_) {
      for (const T& value : page) visit(value);
    }
  }

  // Calls visit(const T* data, size_t count) for each page, in order.
  template <typename Visit>
  void ForEachPage(Visit visit) const {
    for (const std::vector<T>& page : pages_) visit(page.data(), page.size());
  }

  std::vector<T> ToVector() const {
    std::vector<T> values;
    values.reserve(size_);
    for (const std::vector<T>& page : pages_) values.insert(values.end(), page.begin(), page.end());
    return values;
  }

 private:
  std::vector<std::vector<T>> pages_;
  size_t size_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_PAGED_VECTOR_H_
