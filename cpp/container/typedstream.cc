#include "container/typedstream.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/byte_reader.h"

namespace instrumentscope {

namespace {

// Single-byte tags; any other byte is a small integer.
constexpr int8_t kTagInt16 = -127;
constexpr int8_t kTagInt32 = -126;
constexpr int8_t kTagReal = -125;
constexpr int8_t kTagNew = -124;
constexpr int8_t kTagNil = -123;
constexpr int8_t kTagEnd = -122;
constexpr int8_t kTagInt64 = -121;
// A reference to the n-th string or object is written as the integer n - 110.
constexpr int64_t kReferenceBase = -110;

bool IsIntegerType(char type) {
  return std::strchr("cCsSiIlLqQB", type) != nullptr && type != '\0';
}

}  // namespace

// The reading state; TypedStream keeps only the result.
class TypedStreamParser {
 public:
  TypedStreamParser(ByteSpan bytes, const Limits& limits, TypedStream* stream)
      : bytes_(bytes),
        reader_(bytes),
        limits_(limits),
        stream_(*stream),
        string_budget_(kStringBudgetPerByte * bytes.size() + kStringBudgetBase) {}

  Status Parse() {
    uint8_t version;
    ASSIGN_OR_RETURN(version, reader_.ReadU8());
    (void)version;
    std::string signature;
    ASSIGN_OR_RETURN(signature, RawString());
    if (signature != "streamtyped" && signature != "typedstream") {
      return Corrupt("does not start with a typedstream signature");
    }
    int64_t system_version;
    ASSIGN_OR_RETURN(system_version, Integer());
    (void)system_version;
    while (reader_.remaining() > 0) {
      TypedGroup group;
      ASSIGN_OR_RETURN(group, Group(0));
      stream_.groups_.push_back(std::move(group));
    }
    return OkStatus();
  }

 private:
  // What a back-reference can name, in the order they appeared.
  struct Slot {
    enum class Kind : uint8_t { kObject, kClass, kString } kind;
    uint32_t index;  // into objects_, classes_ or c_strings_
  };

  Status Corrupt(const std::string& what) const {
    return Status(ErrorCode::kTypedStreamCorrupt, "the typedstream archive " + what)
        .WithOffset(reader_.absolute_offset());
  }

  // A reference to a string costs one byte but copies (and, for a type
  // encoding, scans) the whole string: the bytes so reused are bounded by a
  // multiple of the stream's size.
  static constexpr uint64_t kStringBudgetPerByte = 16;
  static constexpr uint64_t kStringBudgetBase = 1 << 20;

  Status ChargeString(size_t size) {
    if (size > string_budget_) {
      return Corrupt("reuses its strings more than " + std::to_string(bytes_.size()) +
                     " bytes of archive can account for");
    }
    string_budget_ -= size;
    return OkStatus();
  }

  Status CountEntry() {
    if (++entries_ > limits_.max_plist_objects) {
      return Status(ErrorCode::kLimitExceeded, "a typedstream archive with more than " +
                                                   std::to_string(limits_.max_plist_objects) +
                                                   " objects and strings (limits.maxPlistObjects)")
          .WithOffset(reader_.absolute_offset());
    }
    return OkStatus();
  }

  Result<int8_t> Tag() {
    uint8_t byte;
    ASSIGN_OR_RETURN(byte, reader_.ReadU8());
    return static_cast<int8_t>(byte);
  }

  Result<int64_t> IntegerAfter(int8_t tag) {
    if (tag == kTagInt16) {
      uint16_t value;
      ASSIGN_OR_RETURN(value, reader_.ReadU16Le());
      return static_cast<int16_t>(value);
    }
    if (tag == kTagInt32) {
      uint32_t value;
      ASSIGN_OR_RETURN(value, reader_.ReadU32Le());
      return static_cast<int32_t>(value);
    }
    if (tag == kTagInt64) {
      uint64_t value;
      ASSIGN_OR_RETURN(value, reader_.ReadU64Le());
      return static_cast<int64_t>(value);
    }
    return tag;
  }

  Result<int64_t> Integer() {
    int8_t tag;
    ASSIGN_OR_RETURN(tag, Tag());
    return IntegerAfter(tag);
  }

  Result<std::string> RawString() {
    int64_t length;
    ASSIGN_OR_RETURN(length, Integer());
    if (length < 0 || static_cast<uint64_t>(length) > reader_.remaining()) {
      return Corrupt("has a string of " + std::to_string(length) + " bytes where " +
                     std::to_string(reader_.remaining()) + " remain");
    }
    ByteSpan bytes;
    ASSIGN_OR_RETURN(bytes, reader_.ReadBytes(static_cast<size_t>(length)));
    return std::string(bytes.as_chars());
  }

  Result<uint64_t> ReferenceAfter(int8_t tag, size_t table_size, const char* what) {
    int64_t value;
    ASSIGN_OR_RETURN(value, IntegerAfter(tag));
    if (value < kReferenceBase) {
      return Corrupt(std::string("refers to ") + what + " " + std::to_string(value) +
                     " below the first");
    }
    // value - kReferenceBase, computed without overflow.
    uint64_t index = static_cast<uint64_t>(value) + static_cast<uint64_t>(-kReferenceBase);
    if (index >= table_size) {
      return Corrupt(std::string("refers to ") + what + " " + std::to_string(index) + " of " +
                     std::to_string(table_size));
    }
    return index;
  }

  // A shared string (type encodings, class names): nullopt for nil.
  Result<std::optional<std::string>> SharedString() {
    int8_t tag;
    ASSIGN_OR_RETURN(tag, Tag());
    if (tag == kTagNil) return std::optional<std::string>();
    if (tag == kTagNew) {
      RETURN_IF_ERROR(CountEntry());
      std::string text;
      ASSIGN_OR_RETURN(text, RawString());
      shared_strings_.push_back(text);
      return std::optional<std::string>(std::move(text));
    }
    uint64_t index;
    ASSIGN_OR_RETURN(index, ReferenceAfter(tag, shared_strings_.size(), "string"));
    RETURN_IF_ERROR(ChargeString(shared_strings_[index].size()));
    return std::optional<std::string>(shared_strings_[index]);
  }

  Result<const Slot*> SlotAfter(int8_t tag, Slot::Kind kind, const char* what) {
    uint64_t index;
    ASSIGN_OR_RETURN(index, ReferenceAfter(tag, slots_.size(), what));
    const Slot& slot = slots_[index];
    if (slot.kind != kind)
      return Corrupt(std::string("refers to ") + what + " " + std::to_string(index) +
                     ", which is something else");
    return &slot;
  }

  // A class and its superclasses: nullopt for nil.
  Result<std::optional<uint32_t>> Class(uint32_t depth) {
    if (depth > limits_.max_plist_depth) return DepthError();
    int8_t tag;
    ASSIGN_OR_RETURN(tag, Tag());
    if (tag == kTagNil) return std::optional<uint32_t>();
    if (tag != kTagNew) {
      const Slot* slot;
      ASSIGN_OR_RETURN(slot, SlotAfter(tag, Slot::Kind::kClass, "class"));
      return std::optional<uint32_t>(slot->index);
    }
    RETURN_IF_ERROR(CountEntry());
    std::optional<std::string> name;
    ASSIGN_OR_RETURN(name, SharedString());
    if (!name) return Corrupt("has a class without a name");
    int64_t version;
    ASSIGN_OR_RETURN(version, Integer());
    uint32_t index = static_cast<uint32_t>(stream_.classes_.size());
    stream_.classes_.push_back(TypedClass{std::move(*name), version, std::nullopt});
    slots_.push_back(Slot{Slot::Kind::kClass, index});
    std::optional<uint32_t> superclass;
    ASSIGN_OR_RETURN(superclass, Class(depth + 1));
    stream_.classes_[index].superclass = superclass;
    return std::optional<uint32_t>(index);
  }

  // An object: a reference, nil, or a new one with its class and groups.
  Result<TypedValue> Object(uint32_t depth) {
    if (depth > limits_.max_plist_depth) return DepthError();
    TypedValue value;
    int8_t tag;
    ASSIGN_OR_RETURN(tag, Tag());
    if (tag == kTagNil) return value;
    value.kind = TypedValue::Kind::kObject;
    if (tag != kTagNew) {
      const Slot* slot;
      ASSIGN_OR_RETURN(slot, SlotAfter(tag, Slot::Kind::kObject, "object"));
      value.index = slot->index;
      return value;
    }
    RETURN_IF_ERROR(CountEntry());
    // The object takes its slot before its class does.
    uint32_t index = static_cast<uint32_t>(stream_.objects_.size());
    stream_.objects_.emplace_back();
    slots_.push_back(Slot{Slot::Kind::kObject, index});
    std::optional<uint32_t> class_index;
    ASSIGN_OR_RETURN(class_index, Class(depth + 1));
    if (!class_index) return Corrupt("has an object without a class");
    stream_.objects_[index].class_index = *class_index;
    for (;;) {
      if (reader_.remaining() == 0) return Corrupt("ends inside an object");
      if (static_cast<int8_t>(bytes_[reader_.position()]) == kTagEnd) break;
      TypedGroup group;
      ASSIGN_OR_RETURN(group, Group(depth + 1));
      stream_.objects_[index].groups.push_back(std::move(group));
    }
    RETURN_IF_ERROR(reader_.Skip(1));
    value.index = index;
    return value;
  }

  Result<TypedGroup> Group(uint32_t depth) {
    std::optional<std::string> types;
    ASSIGN_OR_RETURN(types, SharedString());
    if (!types || types->empty()) return Corrupt("has a group without a type encoding");
    TypedGroup group;
    group.types = std::move(*types);
    std::string_view rest = group.types;
    while (!rest.empty()) {
      TypedValue value;
      ASSIGN_OR_RETURN(value, Value(rest, depth));
      group.values.push_back(std::move(value));
    }
    return group;
  }

  // Reads the value of the first type in `types` and removes that type.
  Result<TypedValue> Value(std::string_view& types, uint32_t depth) {
    if (depth > limits_.max_plist_depth) return DepthError();
    RETURN_IF_ERROR(CountEntry());  // each value costs about 80 bytes
    char type = types.front();
    types.remove_prefix(1);
    TypedValue value;
    if (IsIntegerType(type)) {
      value.kind = TypedValue::Kind::kInteger;
      ASSIGN_OR_RETURN(value.integer, Integer());
      return value;
    }
    switch (type) {
      case 'f':
      case 'd': {
        int8_t tag;
        ASSIGN_OR_RETURN(tag, Tag());
        value.kind = TypedValue::Kind::kReal;
        if (tag != kTagReal) {
          int64_t integer;
          ASSIGN_OR_RETURN(integer, IntegerAfter(tag));
          value.real = static_cast<double>(integer);
        } else if (type == 'f') {
          uint32_t bits;
          ASSIGN_OR_RETURN(bits, reader_.ReadU32Le());
          float real;
          std::memcpy(&real, &bits, sizeof(real));
          value.real = real;
        } else {
          uint64_t bits;
          ASSIGN_OR_RETURN(bits, reader_.ReadU64Le());
          std::memcpy(&value.real, &bits, sizeof(value.real));
        }
        return value;
      }
      case '@': return Object(depth + 1);
      case '#': {
        std::optional<uint32_t> class_index;
        ASSIGN_OR_RETURN(class_index, Class(depth + 1));
        if (class_index) {
          value.kind = TypedValue::Kind::kClass;
          value.index = *class_index;
        }
        return value;
      }
      case '+': {
        value.kind = TypedValue::Kind::kBytes;
        ASSIGN_OR_RETURN(value.bytes, RawString());
        return value;
      }
      case '*':
      case '%':
      case ':': return CString();
      case '^': {
        if (types.empty()) return Corrupt("has a pointer type without a target");
        return Value(types, depth + 1);
      }
      case '[': return ArrayValue(types, depth);
      case '{': return StructValue(types, depth);
    }
    return Corrupt(std::string("has the type \"") + type + "\", which it cannot read");
  }

  Result<TypedValue> CString() {
    TypedValue value;
    int8_t tag;
    ASSIGN_OR_RETURN(tag, Tag());
    if (tag == kTagNil) return value;
    value.kind = TypedValue::Kind::kBytes;
    if (tag == kTagNew) {
      RETURN_IF_ERROR(CountEntry());
      std::optional<std::string> text;
      ASSIGN_OR_RETURN(text, SharedString());
      value.bytes = text.value_or("");
      slots_.push_back(Slot{Slot::Kind::kString, static_cast<uint32_t>(c_strings_.size())});
      c_strings_.push_back(value.bytes);
      return value;
    }
    const Slot* slot;
    ASSIGN_OR_RETURN(slot, SlotAfter(tag, Slot::Kind::kString, "C string"));
    RETURN_IF_ERROR(ChargeString(c_strings_[slot->index].size()));
    value.bytes = c_strings_[slot->index];
    return value;
  }

  // Removes from `types` the rest of a bracketed type whose opening bracket
  // was removed, and returns what was inside.
  Result<std::string_view> Bracketed(std::string_view& types, char open, char close) {
    int depth = 1;
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i] == open) ++depth;
      if (types[i] == close && --depth == 0) {
        std::string_view inside = types.substr(0, i);
        types.remove_prefix(i + 1);
        return inside;
      }
    }
    return Corrupt("has an unbalanced type encoding");
  }

  // A lower bound on the bytes a value of the first type of `types` takes, and
  // that type removed: 0 for types that hold nothing (an empty struct, an
  // array of none), at least 1 for any other.
  static uint64_t TakeMinimumBytes(std::string_view& types, uint32_t depth) {
    if (types.empty() || depth > 64) {
      types = {};
      return 0;
    }
    char type = types.front();
    types.remove_prefix(1);
    if (type == '^') return TakeMinimumBytes(types, depth + 1);
    if (type == '[') {
      uint64_t count = 0;
      while (!types.empty() && types.front() >= '0' && types.front() <= '9') {
        count =
            std::min<uint64_t>(count * 10 + static_cast<uint64_t>(types.front() - '0'), 1u << 30);
        types.remove_prefix(1);
      }
      uint64_t element = TakeMinimumBytes(types, depth + 1);
      if (!types.empty() && types.front() == ']') types.remove_prefix(1);
      return element == 0 ? 0 : count;
    }
    if (type == '{') {
      size_t name_end = types.find_first_of("={}");
      if (name_end != std::string_view::npos && types[name_end] == '=') {
        types.remove_prefix(name_end + 1);
      }
      uint64_t total = 0;
      while (!types.empty() && types.front() != '}') {
        total = std::min<uint64_t>(total + TakeMinimumBytes(types, depth + 1), 1u << 30);
      }
      if (!types.empty()) types.remove_prefix(1);
      return total;
    }
    return 1;
  }

  Result<TypedValue> ArrayValue(std::string_view& types, uint32_t depth) {
    std::string_view inside;
    ASSIGN_OR_RETURN(inside, Bracketed(types, '[', ']'));
    uint64_t count = 0;
    while (!inside.empty() && inside.front() >= '0' && inside.front() <= '9') {
      count = count * 10 + static_cast<uint64_t>(inside.front() - '0');
      if (count > reader_.remaining()) return Corrupt("has an array longer than its data");
      inside.remove_prefix(1);
    }
    if (inside.empty()) return Corrupt("has an array without an element type");
    // Elements that take no bytes would let a short stream claim any number of values.
    std::string_view element_type = inside;
    if (count > 0 && TakeMinimumBytes(element_type, 0) == 0) {
      return Corrupt("has an array of elements that hold nothing");
    }
    TypedValue value;
    if (inside == "c" || inside == "C") {  // bytes, written raw
      value.kind = TypedValue::Kind::kBytes;
      ByteSpan bytes;
      ASSIGN_OR_RETURN(bytes, reader_.ReadBytes(static_cast<size_t>(count)));
      value.bytes = std::string(bytes.as_chars());
      return value;
    }
    value.kind = TypedValue::Kind::kList;
    // Each element takes at least one byte, so `count` is bounded by the data.
    for (uint64_t i = 0; i < count; ++i) {
      std::string_view element = inside;
      TypedValue item;
      ASSIGN_OR_RETURN(item, Value(element, depth + 1));
      if (!element.empty()) return Corrupt("has an array of more than one type per element");
      value.list.push_back(std::move(item));
    }
    return value;
  }

  Result<TypedValue> StructValue(std::string_view& types, uint32_t depth) {
    std::string_view inside;
    ASSIGN_OR_RETURN(inside, Bracketed(types, '{', '}'));
    size_t equals = inside.find('=');
    if (equals != std::string_view::npos) inside.remove_prefix(equals + 1);
    TypedValue value;
    value.kind = TypedValue::Kind::kList;
    while (!inside.empty()) {
      TypedValue field;
      ASSIGN_OR_RETURN(field, Value(inside, depth + 1));
      value.list.push_back(std::move(field));
    }
    return value;
  }

  Status DepthError() const {
    return Status(ErrorCode::kLimitExceeded, "a typedstream archive nested more than " +
                                                 std::to_string(limits_.max_plist_depth) +
                                                 " deep (limits.maxPlistDepth)")
        .WithOffset(reader_.absolute_offset());
  }

  ByteSpan bytes_;
  ByteReader reader_;
  const Limits& limits_;
  TypedStream& stream_;
  std::vector<std::string> shared_strings_;
  std::vector<std::string> c_strings_;
  std::vector<Slot> slots_;
  uint64_t entries_ = 0;
  uint64_t string_budget_;
};

Result<TypedStream> TypedStream::Parse(ByteSpan bytes, const Limits& limits) {
  TypedStream stream;
  TypedStreamParser parser(bytes, limits, &stream);
  RETURN_IF_ERROR(parser.Parse());
  return stream;
}

std::vector<const TypedValue*> TypedStream::Values(const std::vector<TypedGroup>& groups) {
  std::vector<const TypedValue*> values;
  for (const TypedGroup& group : groups) {
    for (const TypedValue& value : group.values) values.push_back(&value);
  }
  return values;
}

const TypedObject* TypedStream::ObjectOf(const TypedValue& value) const {
  if (value.kind != TypedValue::Kind::kObject || value.index >= objects_.size()) return nullptr;
  return &objects_[value.index];
}

namespace {

bool IsOneOf(const std::string& name, std::initializer_list<std::string_view> names) {
  for (std::string_view candidate : names) {
    if (name == candidate) return true;
  }
  return false;
}

}  // namespace

std::optional<int64_t> TypedStream::Number(const TypedValue& value) const {
  const TypedObject* object = ObjectOf(value);
  if (!object || class_name(*object) != "NSNumber") return std::nullopt;
  // NSValue's group names the C type; the next holds the number.
  if (object->groups.size() < 2 || object->groups[1].values.size() != 1) return std::nullopt;
  const TypedValue& number = object->groups[1].values[0];
  if (number.kind == TypedValue::Kind::kInteger) return number.integer;
  // A real is a number here only when it is a whole one that fits.
  if (number.kind == TypedValue::Kind::kReal && std::isfinite(number.real) &&
      number.real == std::floor(number.real) && number.real >= -9223372036854775808.0 &&
      number.real < 9223372036854775808.0) {
    return static_cast<int64_t>(number.real);
  }
  return std::nullopt;
}

std::optional<std::string> TypedStream::String(const TypedValue& value) const {
  const TypedObject* object = ObjectOf(value);
  if (!object || !IsOneOf(class_name(*object), {"NSString", "NSMutableString"})) {
    return std::nullopt;
  }
  if (object->groups.empty() || object->groups[0].values.size() != 1 ||
      object->groups[0].values[0].kind != TypedValue::Kind::kBytes) {
    return std::nullopt;
  }
  return object->groups[0].values[0].bytes;
}

std::optional<std::string> TypedStream::Data(const TypedValue& value) const {
  const TypedObject* object = ObjectOf(value);
  if (!object || !IsOneOf(class_name(*object), {"NSData", "NSMutableData"})) return std::nullopt;
  // The length, then the bytes as "[Nc]".
  for (auto group = object->groups.rbegin(); group != object->groups.rend(); ++group) {
    for (const TypedValue& item : group->values) {
      if (item.kind == TypedValue::Kind::kBytes) return item.bytes;
    }
  }
  return std::string();
}

std::optional<std::vector<const TypedValue*>> TypedStream::Array(const TypedValue& value) const {
  const TypedObject* object = ObjectOf(value);
  if (!object || !IsOneOf(class_name(*object), {"NSArray", "NSMutableArray"})) return std::nullopt;
  std::vector<const TypedValue*> values = Values(*object);
  if (values.empty() || values[0]->kind != TypedValue::Kind::kInteger) return std::nullopt;
  int64_t count = values[0]->integer;
  if (count < 0 || static_cast<uint64_t>(count) != values.size() - 1) return std::nullopt;
  values.erase(values.begin());
  return values;
}

std::optional<std::vector<std::pair<const TypedValue*, const TypedValue*>>> TypedStream::Dictionary(
    const TypedValue& value) const {
  const TypedObject* object = ObjectOf(value);
  if (!object || !IsOneOf(class_name(*object), {"NSDictionary", "NSMutableDictionary"})) {
    return std::nullopt;
  }
  std::vector<const TypedValue*> values = Values(*object);
  if (values.empty() || values[0]->kind != TypedValue::Kind::kInteger) return std::nullopt;
  int64_t count = values[0]->integer;
  if (count < 0 || static_cast<uint64_t>(count) * 2 != values.size() - 1) return std::nullopt;
  std::vector<std::pair<const TypedValue*, const TypedValue*>> entries;
  for (size_t i = 0; i < static_cast<size_t>(count); ++i) {
    entries.emplace_back(values[1 + 2 * i], values[2 + 2 * i]);
  }
  return entries;
}

const TypedValue* TypedStream::Lookup(const TypedValue& dictionary, std::string_view key) const {
  auto entries = Dictionary(dictionary);
  if (!entries) return nullptr;
  for (const auto& [name, value] : *entries) {
    if (String(*name) == std::optional<std::string>(std::string(key))) return value;
  }
  return nullptr;
}

}  // namespace instrumentscope
