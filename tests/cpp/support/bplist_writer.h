// Writes binary plists and NSKeyedArchiver graphs for tests. Objects are added
// one by one and refer to each other by index: any number is allowed, so a
// test can build cycles, dangling references and shared offsets on purpose.
#ifndef INSTRUMENTSCOPE_TESTS_CPP_BPLIST_WRITER_H_
#define INSTRUMENTSCOPE_TESTS_CPP_BPLIST_WRITER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace instrumentscope::testing {

inline void AppendBigEndian(std::vector<uint8_t>& out, uint64_t value, size_t width) {
  for (size_t i = width; i-- > 0;) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

class BplistWriter {
 public:
  explicit BplistWriter(size_t ref_size = 1) : ref_size_(ref_size) {}

  uint32_t Null() { return Raw({0x00}); }
  uint32_t Fill() { return Raw({0x0F}); }
  uint32_t Bool(bool value) { return Raw({static_cast<uint8_t>(value ? 0x09 : 0x08)}); }
  // `width` 0 picks the smallest that holds `value`, as Apple's writer does.
  uint32_t Int(int64_t value, size_t width = 0) { return Raw(IntBytes(value, width)); }
  uint32_t Real(double value) { return Raw(Tagged(0x23, &value, sizeof(value))); }
  uint32_t Real32(float value) { return Raw(Tagged(0x22, &value, sizeof(value))); }
  uint32_t Date(double seconds) { return Raw(Tagged(0x33, &seconds, sizeof(seconds))); }
  uint32_t Data(const std::vector<uint8_t>& bytes) {
    std::vector<uint8_t> object = Marker(0x4, bytes.size());
    object.insert(object.end(), bytes.begin(), bytes.end());
    return Raw(object);
  }
  uint32_t Ascii(std::string_view text) {
    std::vector<uint8_t> object = Marker(0x5, text.size());
    object.insert(object.end(), text.begin(), text.end());
    return Raw(object);
  }
  uint32_t Utf16(std::u16string_view text) {
    std::vector<uint8_t> object = Marker(0x6, text.size());
    for (char16_t unit : text) AppendBigEndian(object, unit, 2);
    return Raw(object);
  }
  uint32_t Uid(uint64_t value, size_t width = 1) {
    std::vector<uint8_t> object = {static_cast<uint8_t>(0x80 | (width - 1))};
    AppendBigEndian(object, value, width);
    return Raw(object);
  }
  uint32_t Array(const std::vector<uint32_t>& elements) { return Container(0xA, elements); }
  uint32_t Set(const std::vector<uint32_t>& elements) { return Container(0xC, elements); }
  uint32_t Dict(const std::vector<std::pair<uint32_t, uint32_t>>& entries) {
    std::vector<uint8_t> object = Marker(0xD, entries.size());
    for (const auto& entry : entries) AppendBigEndian(object, entry.first, ref_size_);
    for (const auto& entry : entries) AppendBigEndian(object, entry.second, ref_size_);
    return Raw(object);
  }
  // A dictionary with ASCII keys.
  uint32_t StringDict(const std::vector<std::pair<std::string, uint32_t>>& entries) {
    std::vector<std::pair<uint32_t, uint32_t>> refs;
    for (const auto& [key, value] : entries) refs.emplace_back(Ascii(key), value);
    return Dict(refs);
  }
  // An object's bytes exactly as given.
  uint32_t Raw(std::vector<uint8_t> bytes) {
    objects_.push_back(std::move(bytes));
    alias_of_.push_back(kNoAlias);
    return static_cast<uint32_t>(objects_.size() - 1);
  }
  // A second offset table entry for the bytes of `object`.
  uint32_t Alias(uint32_t object) {
    objects_.emplace_back();
    alias_of_.push_back(object);
    return static_cast<uint32_t>(objects_.size() - 1);
  }

  // `offset_size` 0 picks the smallest that holds every offset.
  std::vector<uint8_t> Build(uint32_t top, size_t offset_size = 0) const {
    std::vector<uint8_t> out = {'b', 'p', 'l', 'i', 's', 't', '0', '0'};
    std::vector<uint64_t> offsets;
    for (size_t i = 0; i < objects_.size(); ++i) {
      if (alias_of_[i] != kNoAlias) {
        offsets.push_back(offsets[alias_of_[i]]);
        continue;
      }
      offsets.push_back(out.size());
      out.insert(out.end(), objects_[i].begin(), objects_[i].end());
    }
    const uint64_t table_offset = out.size();
    if (offset_size == 0) offset_size = WidthFor(table_offset);
    for (uint64_t offset : offsets) AppendBigEndian(out, offset, offset_size);
    out.insert(out.end(), 5, 0);  // unused
    out.push_back(0);             // sort version
    out.push_back(static_cast<uint8_t>(offset_size));
    out.push_back(static_cast<uint8_t>(ref_size_));
    AppendBigEndian(out, objects_.size(), 8);
    AppendBigEndian(out, top, 8);
    AppendBigEndian(out, table_offset, 8);
    return out;
  }

  size_t size() const { return objects_.size(); }

  static std::vector<uint8_t> IntBytes(int64_t value, size_t width = 0) {
    if (width == 0) width = value < 0 ? 8 : WidthFor(static_cast<uint64_t>(value));
    uint8_t log2_width = width == 1 ? 0 : width == 2 ? 1 : width == 4 ? 2 : 3;
    std::vector<uint8_t> bytes = {static_cast<uint8_t>(0x10 | log2_width)};
    AppendBigEndian(bytes, static_cast<uint64_t>(value), width);
    return bytes;
  }

 private:
  static constexpr uint32_t kNoAlias = UINT32_MAX;

  static size_t WidthFor(uint64_t value) {
    return value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFFFFFF ? 4 : 8;
  }

  static std::vector<uint8_t> Tagged(uint8_t marker, const void* value, size_t size) {
    uint64_t bits = 0;
    if (size == 4) {
      uint32_t narrow;
      std::memcpy(&narrow, value, 4);
      bits = narrow;
    } else {
      std::memcpy(&bits, value, 8);
    }
    std::vector<uint8_t> bytes = {marker};
    AppendBigEndian(bytes, bits, size);
    return bytes;
  }

  // A type nibble and a count, the count after it as an integer from 15 on.
  static std::vector<uint8_t> Marker(uint8_t type, uint64_t count) {
    if (count < 15) return {static_cast<uint8_t>(type << 4 | count)};
    std::vector<uint8_t> bytes = {static_cast<uint8_t>(type << 4 | 0x0F)};
    std::vector<uint8_t> count_bytes = IntBytes(static_cast<int64_t>(count));
    bytes.insert(bytes.end(), count_bytes.begin(), count_bytes.end());
    return bytes;
  }

  uint32_t Container(uint8_t type, const std::vector<uint32_t>& elements) {
    std::vector<uint8_t> object = Marker(type, elements.size());
    for (uint32_t element : elements) AppendBigEndian(object, element, ref_size_);
    return Raw(object);
  }

  size_t ref_size_;
  std::vector<std::vector<uint8_t>> objects_;
  std::vector<uint32_t> alias_of_;
};

// NSKeyedArchiver graphs: $objects entries are added in order, and a UID of
// an entry's index refers to it. Entry 0 is "$null".
class KeyedArchiveWriter {
 public:
  KeyedArchiveWriter() { Add(plist_.Ascii("$null")); }

  // Adds the plist object `value` to $objects; returns its index there.
  uint32_t Add(uint32_t value) {
    objects_.push_back(value);
    return static_cast<uint32_t>(objects_.size() - 1);
  }
  // The index the next Add will return.
  uint32_t size() const { return static_cast<uint32_t>(objects_.size()); }
  // A plist UID referring to $objects[index].
  uint32_t Ref(uint64_t index) { return plist_.Uid(index, index <= 0xFF ? 1 : 4); }
  uint32_t Class(const std::string& name) {
    return Add(plist_.StringDict(
        {{"$classname", plist_.Ascii(name)},
         {"$classes", plist_.Array({plist_.Ascii(name), plist_.Ascii("NSObject")})}}));
  }
  // An archived object of `class_index` with `fields` (plist values).
  uint32_t Instance(uint32_t class_index, std::vector<std::pair<std::string, uint32_t>> fields) {
    fields.emplace_back("$class", Ref(class_index));
    return Add(plist_.StringDict(fields));
  }
  void SetTop(const std::string& key, uint32_t value) { top_.emplace_back(key, value); }

  // The root's entries, for a test to change before BuildWithRoot.
  std::vector<std::pair<std::string, uint32_t>> Root() {
    return {{"$version", plist_.Int(100000)},
            {"$archiver", plist_.Ascii("NSKeyedArchiver")},
            {"$top", plist_.StringDict(top_)},
            {"$objects", plist_.Array(objects_)}};
  }
  std::vector<uint8_t> BuildWithRoot(const std::vector<std::pair<std::string, uint32_t>>& root) {
    return plist_.Build(plist_.StringDict(root));
  }
  std::vector<uint8_t> Build() { return BuildWithRoot(Root()); }

  BplistWriter& plist() { return plist_; }

 private:
  BplistWriter plist_{2};
  std::vector<uint32_t> objects_;
  std::vector<std::pair<std::string, uint32_t>> top_;
};

}  // namespace instrumentscope::testing

#endif  // INSTRUMENTSCOPE_TESTS_CPP_BPLIST_WRITER_H_
