// Apple binary property lists ("bplist00"), decoded defensively into a flat
// table of objects: containers hold the indices of their children, so reading
// a plist needs no pointers and no recursion. Every index in the table is
// checked while parsing, so lookups through a parsed Plist are always in
// range, and no container contains itself or nests beyond limits.maxPlistDepth.
#ifndef INSTRUMENTSCOPE_CONTAINER_BPLIST_H_
#define INSTRUMENTSCOPE_CONTAINER_BPLIST_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"

namespace instrumentscope {

enum class PlistType : uint8_t {
  kNull,  // also a fill byte (0x0F)
  kBool,
  kInteger,
  kReal,
  kDate,
  kData,
  kString,
  kUid,
  kArray,
  kSet,
  kDictionary,
};

// "integer", "dictionary"… for messages.
const char* PlistTypeName(PlistType type);

// The object indices a container refers to: a view into its Plist.
class ObjectRefs {
 public:
  ObjectRefs() = default;
  ObjectRefs(const uint32_t* data, size_t size) : data_(data), size_(size) {}

  const uint32_t* begin() const { return data_; }
  const uint32_t* end() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint32_t operator[](size_t index) const { return data_[index]; }

 private:
  const uint32_t* data_ = nullptr;
  size_t size_ = 0;
};

// One object; only the fields of its type are set. The views point into the
// parsed input (which must outlive the Plist) or into the Plist itself.
struct PlistObject {
  PlistType type = PlistType::kNull;
  bool boolean = false;
  // A 16-byte integer keeps its low 8 bytes: writers use that width only for
  // unsigned values above INT64_MAX, which read here as negative.
  int64_t integer = 0;
  double real = 0;  // kReal, and kDate: seconds since 2001-01-01 00:00 UTC
  uint64_t uid = 0;
  // UTF-8: ASCII strings point into the input, UTF-16 ones (converted, with
  // unpaired surrogates as U+FFFD) into the Plist.
  std::string_view string;
  ByteSpan data;
  // Arrays and sets: the elements. Dictionaries: n keys, then their n values.
  ObjectRefs children;
};

class Plist {
 public:
  // `bytes` must outlive the Plist: strings and data point into it.
  static Result<Plist> Parse(ByteSpan bytes, const Limits& limits);

  // Views point into the arenas, whose buffers a move keeps but a copy would not.
  Plist(Plist&&) = default;
  Plist& operator=(Plist&&) = default;
  Plist(const Plist&) = delete;
  Plist& operator=(const Plist&) = delete;

  uint32_t root() const { return root_; }
  size_t size() const { return objects_.size(); }
  // `index` < size(), as every index from this Plist is.
  const PlistObject& object(uint32_t index) const { return objects_[index]; }

  // The value of the string key `key` in `dict`, by index or as an object;
  // none when `dict` is not a dictionary or has no such key. A linear search:
  // plist dictionaries are small.
  std::optional<uint32_t> DictValueIndex(const PlistObject& dict, std::string_view key) const;
  const PlistObject* DictValue(const PlistObject& dict, std::string_view key) const;

 private:
  friend class PlistParser;
  Plist() = default;

  std::vector<PlistObject> objects_;
  std::vector<uint32_t> refs_;  // every container's children, one after another
  std::vector<char> text_;      // UTF-16 strings converted to UTF-8
  uint32_t root_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_BPLIST_H_
