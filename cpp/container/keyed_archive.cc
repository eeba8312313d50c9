#include "container/keyed_archive.h"

#include <algorithm>
#include <cstdio>

namespace instrumentscope {
namespace {

constexpr std::string_view kNull = "$null";
// Describe stays readable, and bounded, on long containers and on graphs that
// share objects widely.
constexpr size_t kMaxDescribedElements = 16;
constexpr size_t kMaxDescribedStringBytes = 80;
constexpr size_t kMaxDescribeBytes = 1 << 20;

Status Corrupt(std::string message) {
  return Status(ErrorCode::kKeyedArchiveCorrupt, std::move(message));
}

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string FieldName(std::string_view key) {
  return "field " + Quoted(key);
}

// "a real", "an integer"
std::string WithArticle(PlistType type) {
  std::string name = PlistTypeName(type);
  return (std::string_view("aeiou").find(name[0]) == std::string_view::npos ? "a " : "an ") + name;
}

std::string FormatReal(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

// At most kMaxDescribedStringBytes, cut at a UTF-8 character boundary.
std::string ShortQuoted(std::string_view text) {
  if (text.size() <= kMaxDescribedStringBytes) return Quoted(text);
  size_t cut = kMaxDescribedStringBytes;
  while (cut > 0 && (static_cast<uint8_t>(text[cut]) & 0xC0) == 0x80) --cut;
  return Quoted(text.substr(0, cut)) + "…";
}

}  // namespace

Result<KeyedArchive> KeyedArchive::Parse(ByteSpan bytes, const Limits& limits) {
  ASSIGN_OR_RETURN(Plist plist, Plist::Parse(bytes, limits));
  KeyedArchive archive(std::move(plist));
  RETURN_IF_ERROR(archive.Validate());
  return archive;
}

Status KeyedArchive::Validate() {
  const PlistObject& root = plist_.object(plist_.root());
  if (root.type != PlistType::kDictionary) {
    return Corrupt("the archive's root is " + WithArticle(root.type) + ", not a dictionary");
  }
  const PlistObject* archiver = plist_.DictValue(root, "$archiver");
  if (!archiver || archiver->type != PlistType::kString || archiver->string != "NSKeyedArchiver") {
    std::string found = !archiver                              ? "missing"
                        : archiver->type == PlistType::kString ? Quoted(archiver->string)
                                                               : WithArticle(archiver->type);
    return Corrupt("$archiver is " + found + ", not \"NSKeyedArchiver\"");
  }
  const PlistObject* version = plist_.DictValue(root, "$version");
  if (!version || version->type != PlistType::kInteger) {
    return Corrupt("$version is missing or not an integer");
  }
  version_ = version->integer;

  std::optional<uint32_t> objects = plist_.DictValueIndex(root, "$objects");
  if (!objects || plist_.object(*objects).type != PlistType::kArray) {
    return Corrupt("$objects is missing or not an array");
  }
  objects_ = *objects;
  std::optional<uint32_t> top = plist_.DictValueIndex(root, "$top");
  if (!top || plist_.object(*top).type != PlistType::kDictionary) {
    return Corrupt("$top is missing or not a dictionary");
  }
  top_ = *top;

  // Checked once here, so that following any UID later stays in range.
  for (size_t i = 0; i < plist_.size(); ++i) {
    const PlistObject& value = plist_.object(static_cast<uint32_t>(i));
    if (value.type == PlistType::kUid && value.uid >= size()) {
      return Corrupt("a UID refers to object " + std::to_string(value.uid) + ", but $objects has " +
                     std::to_string(size()));
    }
  }
  return OkStatus();
}

std::vector<std::string_view> KeyedArchive::TopKeys() const {
  const PlistObject& top = plist_.object(top_);
  std::vector<std::string_view> keys;
  for (size_t i = 0; i < top.children.size() / 2; ++i) {
    const PlistObject& key = plist_.object(top.children[i]);
    if (key.type == PlistType::kString) keys.push_back(key.string);
  }
  return keys;
}

Result<uint32_t> KeyedArchive::Top(std::string_view key) const {
  const PlistObject* value = plist_.DictValue(plist_.object(top_), key);
  if (!value) return Corrupt("$top has no key " + Quoted(key));
  if (value->type != PlistType::kUid) {
    return Corrupt("$top[" + Quoted(key) + "] is " + WithArticle(value->type) +
                   ", not a reference");
  }
  return static_cast<uint32_t>(value->uid);
}

const PlistObject& KeyedArchive::Value(uint32_t object) const {
  return plist_.object(plist_.object(objects_).children[object]);
}

bool KeyedArchive::IsNull(uint32_t object) const {
  const PlistObject& value = Value(object);
  return value.type == PlistType::kString && value.string == kNull;
}

Result<std::string_view> KeyedArchive::ClassName(uint32_t object) const {
  const PlistObject* class_ref = plist_.DictValue(Value(object), "$class");
  if (!class_ref || class_ref->type != PlistType::kUid) {
    return Corrupt("object " + std::to_string(object) + " has no $class");
  }
  const PlistObject* name = plist_.DictValue(Value(class_ref->uid), "$classname");
  if (!name || name->type != PlistType::kString) {
    return Corrupt("object " + std::to_string(object) + "'s class, object " +
                   std::to_string(class_ref->uid) + ", has no $classname");
  }
  return name->string;
}

std::string KeyedArchive::Label(uint32_t object) const {
  auto class_name = ClassName(object);
  std::string kind = class_name.ok() ? std::string(*class_name) : PlistTypeName(Value(object).type);
  return "object " + std::to_string(object) + " (" + kind + ")";
}

Result<const PlistObject*> KeyedArchive::FindField(uint32_t object, std::string_view key) const {
  const PlistObject& fields = Value(object);
  if (fields.type != PlistType::kDictionary) return Corrupt(Label(object) + " has no fields");
  return plist_.DictValue(fields, key);
}

Result<const PlistObject*> KeyedArchive::RawField(uint32_t object, std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* value, FindField(object, key));
  if (!value) return Corrupt(Label(object) + " has no " + FieldName(key));
  return value;
}

Result<uint32_t> KeyedArchive::Reference(const PlistObject& value, uint32_t object,
                                         std::string_view key) const {
  if (value.type != PlistType::kUid) {
    return Corrupt(FieldName(key) + " of " + Label(object) + " holds " + WithArticle(value.type) +
                   " where a reference belongs");
  }
  return static_cast<uint32_t>(value.uid);
}

Result<uint32_t> KeyedArchive::Field(uint32_t object, std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* value, RawField(object, key));
  return Reference(*value, object, key);
}

Result<std::optional<uint32_t>> KeyedArchive::OptionalField(uint32_t object,
                                                            std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* value, FindField(object, key));
  if (!value) return std::optional<uint32_t>();
  ASSIGN_OR_RETURN(uint32_t target, Reference(*value, object, key));
  if (IsNull(target)) return std::optional<uint32_t>();
  return std::optional<uint32_t>(target);
}

Result<int64_t> KeyedArchive::IntegerField(uint32_t object, std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* value, RawField(object, key));
  if (value->type == PlistType::kInteger) return value->integer;
  if (value->type == PlistType::kUid) return Integer(static_cast<uint32_t>(value->uid));
  return Corrupt(FieldName(key) + " of " + Label(object) + " is " + WithArticle(value->type) +
                 ", not an integer");
}

Result<std::string_view> KeyedArchive::StringField(uint32_t object, std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* value, RawField(object, key));
  if (value->type == PlistType::kString) return value->string;
  if (value->type == PlistType::kUid) return String(static_cast<uint32_t>(value->uid));
  return Corrupt(FieldName(key) + " of " + Label(object) + " is " + WithArticle(value->type) +
                 ", not a string");
}

Result<int64_t> KeyedArchive::Integer(uint32_t object) const {
  const PlistObject& value = Value(object);
  if (value.type != PlistType::kInteger) return Corrupt(Label(object) + " is not an integer");
  return value.integer;
}

Result<std::string_view> KeyedArchive::String(uint32_t object) const {
  const PlistObject& value = Value(object);
  if (value.type == PlistType::kString) return value.string;
  // NSString archives its text inline.
  const PlistObject* text = plist_.DictValue(value, "NS.string");
  if (text && text->type == PlistType::kString) return text->string;
  return Corrupt(Label(object) + " is not a string");
}

Result<ByteSpan> KeyedArchive::DataBytes(uint32_t object) const {
  const PlistObject& value = Value(object);
  if (value.type == PlistType::kData) return value.data;
  // NSData archives its bytes inline.
  const PlistObject* data = plist_.DictValue(value, "NS.data");
  if (data && data->type == PlistType::kData) return data->data;
  return Corrupt(Label(object) + " is not data");
}

Result<std::vector<uint32_t>> KeyedArchive::References(uint32_t object,
                                                       std::string_view key) const {
  ASSIGN_OR_RETURN(const PlistObject* array, RawField(object, key));
  if (array->type != PlistType::kArray) {
    return Corrupt(FieldName(key) + " of " + Label(object) + " is " + WithArticle(array->type) +
                   ", not an array");
  }
  std::vector<uint32_t> targets;
  targets.reserve(array->children.size());
  for (uint32_t child : array->children) {
    ASSIGN_OR_RETURN(uint32_t target, Reference(plist_.object(child), object, key));
    targets.push_back(target);
  }
  return targets;
}

Result<std::vector<uint32_t>> KeyedArchive::ArrayElements(uint32_t object) const {
  return References(object, "NS.objects");
}

Result<std::vector<std::pair<uint32_t, uint32_t>>> KeyedArchive::DictionaryEntries(
    uint32_t object) const {
  ASSIGN_OR_RETURN(std::vector<uint32_t> keys, References(object, "NS.keys"));
  ASSIGN_OR_RETURN(std::vector<uint32_t> values, References(object, "NS.objects"));
  if (keys.size() != values.size()) {
    return Corrupt(Label(object) + " has " + std::to_string(keys.size()) + " keys but " +
                   std::to_string(values.size()) + " values");
  }
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  entries.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) entries.emplace_back(keys[i], values[i]);
  return entries;
}

std::string KeyedArchive::Describe(uint32_t object, int max_depth) const {
  std::string out;
  std::vector<uint32_t> path;
  DescribeObject(object, max_depth, 0, path, out);
  if (out.size() >= kMaxDescribeBytes) out += "\n…";
  return out;
}

void KeyedArchive::DescribeObject(uint32_t object, int depth, int indent,
                                  std::vector<uint32_t>& path, std::string& out) const {
  if (out.size() >= kMaxDescribeBytes) return;
  out += "#" + std::to_string(object) + " ";
  if (std::find(path.begin(), path.end(), object) != path.end()) {
    out += "…cycle…";
    return;
  }
  const PlistObject& value = Value(object);
  auto class_name = ClassName(object);
  path.push_back(object);
  if (!class_name.ok()) {
    DescribeValue(value, depth, indent, path, out);
  } else if (depth <= 0) {
    out += std::string(*class_name) + " …";
  } else {
    out += *class_name;
    const size_t count = value.children.size() / 2;
    for (size_t i = 0; i < count; ++i) {
      const PlistObject& key = plist_.object(value.children[i]);
      if (key.string == "$class") continue;
      out += "\n" + std::string(indent + 2, ' ') + std::string(key.string) + ": ";
      DescribeValue(plist_.object(value.children[count + i]), depth - 1, indent + 2, path, out);
    }
  }
  path.pop_back();
}

void KeyedArchive::DescribeValue(const PlistObject& value, int depth, int indent,
                                 std::vector<uint32_t>& path, std::string& out) const {
  if (out.size() >= kMaxDescribeBytes) return;
  switch (value.type) {
    case PlistType::kNull: out += "null"; return;
    case PlistType::kBool: out += value.boolean ? "true" : "false"; return;
    case PlistType::kInteger: out += std::to_string(value.integer); return;
    case PlistType::kReal: out += FormatReal(value.real); return;
    case PlistType::kDate: out += "date " + FormatReal(value.real); return;
    case PlistType::kData: out += "<" + std::to_string(value.data.size()) + " bytes>"; return;
    case PlistType::kString: out += ShortQuoted(value.string); return;
    case PlistType::kUid:
      DescribeObject(static_cast<uint32_t>(value.uid), depth, indent, path, out);
      return;
    case PlistType::kArray:
    case PlistType::kSet:
    case PlistType::kDictionary: break;
  }
  // Inline containers count as a level too, as nested as the plist allows.
  const bool is_dictionary = value.type == PlistType::kDictionary;
  const size_t count = is_dictionary ? value.children.size() / 2 : value.children.size();
  out += std::string(PlistTypeName(value.type)) + " of " + std::to_string(count);
  if (depth <= 0) {
    if (count > 0) out += " …";
    return;
  }
  const std::string margin = "\n" + std::string(indent + 2, ' ');
  for (size_t i = 0; i < std::min(count, kMaxDescribedElements); ++i) {
    out += margin;
    if (is_dictionary) {
      DescribeValue(plist_.object(value.children[i]), 0, indent + 2, path, out);
      out += ": ";
    } else {
      out += "[" + std::to_string(i) + "] ";
    }
    DescribeValue(plist_.object(value.children[is_dictionary ? count + i : i]), depth - 1,
                  indent + 2, path, out);
  }
  if (count > kMaxDescribedElements) {
    out += margin + "… " + std::to_string(count - kMaxDescribedElements) + " more";
  }
}

}  // namespace instrumentscope
