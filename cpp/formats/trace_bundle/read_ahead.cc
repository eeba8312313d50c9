#include "formats/trace_bundle/read_ahead.h"

#include <utility>

namespace instrumentscope::trace_bundle {

ReadAhead::ReadAhead(Reader reader, Budget budget, std::unique_ptr<HelperThreads> helpers)
    : reader_(std::move(reader)), budget_(budget), helpers_(std::move(helpers)) {
  for (uint32_t i = 0; i < helpers_->count(); ++i) threads_.emplace_back([this] { Help(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  for (std::thread& thread : threads_) thread.join();
}

void ReadAhead::Plan(const std::vector<std::string>& paths) {
  if (threads_.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& path : paths) {
    if (members_.emplace(path, Member()).second) order_.push_back(path);
  }
  changed_.notify_all();
}

SharedBytes ReadAhead::Take(const std::string& path) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto member = members_.find(path);
  if (member == members_.end()) return nullptr;
  // Waiting for a read begun is never slower than reading again.
  while (member->second.state == State::kReading) changed_.wait(lock);
  SharedBytes bytes = std::move(member->second.bytes);
  if (bytes) held_bytes_ -= bytes->size();
  // A member still planned is left out of the helpers' order when they reach it.
  members_.erase(member);
  changed_.notify_all();
  return bytes;
}

std::map<std::string, ReadAhead::Member>::iterator ReadAhead::NextToRead() {
  while (!order_.empty()) {
    auto member = members_.find(order_.front());
    if (member != members_.end() && member->second.state == State::kPlanned) break;
    order_.pop_front();  // taken before any helper reached it
  }
  bool room = held_bytes_ < budget_.held_bytes && total_bytes_ < budget_.total_bytes;
  if (order_.empty() || !room) return members_.end();
  auto member = members_.find(order_.front());
  order_.pop_front();
  return member;
}

void ReadAhead::Help() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    auto member = NextToRead();
    if (member == members_.end()) {
      changed_.wait(lock);
      continue;
    }
    member->second.state = State::kReading;
    std::string path = member->first;
    lock.unlock();
    auto read = reader_(path, budget_.member_bytes);
    lock.lock();
    // The map's nodes stay where they are: `member` is still this path's.
    if (read.ok()) {
      member->second.bytes = read.take();
      held_bytes_ += member->second.bytes->size();
      total_bytes_ += member->second.bytes->size();
      member->second.state = State::kRead;
    } else {
      member->second.state = State::kInPlace;
    }
    changed_.notify_all();
  }
}

}  // namespace instrumentscope::trace_bundle
