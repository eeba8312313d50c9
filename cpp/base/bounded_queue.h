// A queue between threads that holds at most `capacity` items: Push waits
// while it is full, Pop while it is empty. Close lets the items already in it
// be taken and then ends Pop; Cancel ends both at once, items left unread.
#ifndef INSTRUMENTSCOPE_BASE_BOUNDED_QUEUE_H_
#define INSTRUMENTSCOPE_BASE_BOUNDED_QUEUE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace instrumentscope {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
  BoundedQueue(const BoundedQueue&) = delete;
  BoundedQueue& operator=(const BoundedQueue&) = delete;

  // False, and `item` dropped, when the queue is closed or cancelled.
  bool Push(T item) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [this] { return items_.size() < capacity_ || closed_ || cancelled_; });
    if (closed_ || cancelled_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  // Nothing once the queue is cancelled, or closed and emptied.
  std::optional<T> Pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait(lock, [this] { return !items_.empty() || closed_ || cancelled_; });
    if (cancelled_ || items_.empty()) return std::nullopt;
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }

  void Close() { End(closed_); }
  void Cancel() { End(cancelled_); }

 private:
  void End(bool& flag) {
    std::lock_guard<std::mutex> lock(mutex_);
    flag = true;
    not_full_.notify_all();
    not_empty_.notify_all();
  }

  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<T> items_;
  bool closed_ = false;
  bool cancelled_ = false;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_BOUNDED_QUEUE_H_
