// Streaming output for the writers: text gathered into one buffer and handed
// to a sink a piece of about a megabyte at a time, never held whole.
#ifndef INSTRUMENTSCOPE_BASE_PIECE_WRITER_H_
#define INSTRUMENTSCOPE_BASE_PIECE_WRITER_H_

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/json.h"

namespace instrumentscope {

// Receives the output in order; returns false to stop the writer.
using JsonSink = std::function<bool(std::string_view piece)>;

inline constexpr size_t kJsonPieceBytes = 1 << 20;

// Once the sink says stop, everything else is dropped.
class PieceWriter {
 public:
  explicit PieceWriter(const JsonSink& sink) : sink_(sink), buffer_(new char[kJsonPieceBytes]) {}

  void Append(std::string_view text) {
    if (text.size() > kJsonPieceBytes - used_) {
      Flush();
      if (text.size() > kJsonPieceBytes) {  // a huge frame name: handed over whole
        ok_ = ok_ && sink_(text);
        return;
      }
    }
    std::memcpy(buffer_.get() + used_, text.data(), text.size());
    used_ += text.size();
  }
  void Append(char c) {
    if (used_ == kJsonPieceBytes) Flush();
    buffer_[used_++] = c;
  }
  // `text` as a JSON string, the bytes DumpJson writes: printable ASCII
  // without quotes or backslashes as it is (frame names, by the hundred
  // thousand), anything else through nlohmann_json's escaping.
  void AppendJsonString(std::string_view text) {
    bool plain = std::all_of(text.begin(), text.end(),
                             [](char c) { return c >= 0x20 && c < 0x7F && c != '"' && c != '\\'; });
    if (!plain) {
      Append(DumpJson(std::string(text)));
      return;
    }
    Append('"');
    Append(text);
    Append('"');
  }
  template <typename Integer>
  void AppendNumber(Integer value) {
    if (kJsonPieceBytes - used_ < kMaxDigits) Flush();
    char* end = std::to_chars(buffer_.get() + used_, buffer_.get() + kJsonPieceBytes, value).ptr;
    used_ = static_cast<size_t>(end - buffer_.get());
  }
  bool ok() const { return ok_; }
  bool Flush() {
    if (ok_ && used_ > 0) ok_ = sink_(std::string_view(buffer_.get(), used_));
    used_ = 0;
    return ok_;
  }

 private:
  static constexpr size_t kMaxDigits = 20;  // of a 64-bit integer with its sign
  const JsonSink& sink_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
  bool ok_ = true;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_PIECE_WRITER_H_
