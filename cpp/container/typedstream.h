// NSArchiver's "typedstream": the binary archive format of NeXTSTEP and early
// Cocoa, which Instruments 4.5 to 9.2 still wrote for the per-run archives of
// their legacy Time Profiler (instrument_data/<UUID>/run_data/<N>.run.zip).
//
// A stream is a sequence of groups; a group is an Objective-C type encoding
// ("i", "@", "[16C]", "{_NSRange=QQ}") and one value per type in it. Objects
// are a class chain and groups of their own, up to an end marker. Strings
// (type encodings, class names, C strings) and objects are written once and
// referred to by index afterwards. What Instruments' archives need is read:
// integers, reals, raw bytes ("+", "[Nc]"), C strings, objects, classes,
// arrays and structs. Everything is bounds-checked; nesting and the number of
// objects are limited.
#ifndef INSTRUMENTSCOPE_CONTAINER_TYPEDSTREAM_H_
#define INSTRUMENTSCOPE_CONTAINER_TYPEDSTREAM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"

namespace instrumentscope {

struct TypedValue {
  enum class Kind : uint8_t { kNil, kInteger, kReal, kBytes, kObject, kClass, kList };
  Kind kind = Kind::kNil;
  int64_t integer = 0;           // kInteger
  double real = 0;               // kReal
  std::string bytes;             // kBytes: "+", "[Nc]", C strings
  uint32_t index = 0;            // kObject: into objects(); kClass: into classes()
  std::vector<TypedValue> list;  // kList: "[N…]" arrays and structs
};

// A type encoding and its values.
struct TypedGroup {
  std::string types;
  std::vector<TypedValue> values;
};

struct TypedClass {
  std::string name;
  int64_t version = 0;
  std::optional<uint32_t> superclass;  // into classes()
};

struct TypedObject {
  uint32_t class_index = 0;  // into classes()
  std::vector<TypedGroup> groups;
};

class TypedStream {
 public:
  // Limits: max_plist_objects bounds values, objects, classes and strings
  // together (a value costs about 90 bytes decoded); max_plist_depth bounds
  // the nesting of objects, arrays and structs. Every value takes at least a
  // byte of the stream, and the strings copied by reference are bounded by a
  // multiple of its size.
  static Result<TypedStream> Parse(ByteSpan bytes, const Limits& limits);

  const std::vector<TypedGroup>& groups() const { return groups_; }
  const std::vector<TypedObject>& objects() const { return objects_; }
  const std::vector<TypedClass>& classes() const { return classes_; }
  const std::string& class_name(const TypedObject& object) const {
    return classes_[object.class_index].name;
  }
  // All values of some groups (the stream's own, an object's), in order.
  static std::vector<const TypedValue*> Values(const std::vector<TypedGroup>& groups);
  static std::vector<const TypedValue*> Values(const TypedObject& object) {
    return Values(object.groups);
  }

  // Foundation's archived classes, as Instruments wrote them. Each returns
  // nullopt when the object is not of the expected shape.
  // NSNumber → its integer value.
  std::optional<int64_t> Number(const TypedValue& value) const;
  // NSString / NSMutableString → its UTF-8 bytes.
  std::optional<std::string> String(const TypedValue& value) const;
  // NSData / NSMutableData → its bytes (empty when it holds none).
  std::optional<std::string> Data(const TypedValue& value) const;
  // NSArray / NSMutableArray → its elements.
  std::optional<std::vector<const TypedValue*>> Array(const TypedValue& value) const;
  // NSDictionary / NSMutableDictionary → its (key, value) pairs.
  std::optional<std::vector<std::pair<const TypedValue*, const TypedValue*>>> Dictionary(
      const TypedValue& value) const;
  // The value of the dictionary entry whose key is the NSString `key`.
  const TypedValue* Lookup(const TypedValue& dictionary, std::string_view key) const;

 private:
  friend class TypedStreamParser;
  const TypedObject* ObjectOf(const TypedValue& value) const;

  std::vector<TypedGroup> groups_;
  std::vector<TypedObject> objects_;
  std::vector<TypedClass> classes_;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_TYPEDSTREAM_H_
