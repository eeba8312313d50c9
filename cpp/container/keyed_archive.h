// NSKeyedArchiver object graphs, read from a binary plist: a root dictionary
// {"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {name: UID},
// "$objects": [...]} where $objects[0] is "$null" and an archived object is a
// dictionary of fields plus "$class", a UID of {"$classname": ..., ...}.
//
// Objects are named by their index in $objects. Every accessor takes one step
// through the graph, so a cycle in the input cannot trap a caller; every UID
// was checked against $objects when parsing. Fields hold either a UID of
// another object or an inline plist value (numbers often are inline).
//
// Strings, data and plist objects returned are views into the archive or into
// the parsed bytes, which must outlive the archive.
#ifndef INSTRUMENTSCOPE_CONTAINER_KEYED_ARCHIVE_H_
#define INSTRUMENTSCOPE_CONTAINER_KEYED_ARCHIVE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "container/bplist.h"

namespace instrumentscope {

class KeyedArchive {
 public:
  static Result<KeyedArchive> Parse(ByteSpan bytes, const Limits& limits);

  int64_t version() const { return version_; }  // 100000 in every archive seen
  // The number of objects. Methods taking an object index expect one below
  // it, as every index this archive hands out is.
  size_t size() const { return plist_.object(objects_).children.size(); }
  // The keys of $top, in the file's order.
  std::vector<std::string_view> TopKeys() const;
  // The object $top[key] refers to.
  Result<uint32_t> Top(std::string_view key) const;

  // The plist value of an object: strings and numbers are stored as such,
  // archived objects as dictionaries.
  const PlistObject& Value(uint32_t object) const;
  const Plist& plist() const { return plist_; }
  bool IsNull(uint32_t object) const;  // the "$null" object: a nil reference
  Result<std::string_view> ClassName(uint32_t object) const;

  // The field `key` as stored: a UID or an inline value.
  Result<const PlistObject*> RawField(uint32_t object, std::string_view key) const;
  // The object the field `key` refers to; an error when the field is missing
  // or inline.
  Result<uint32_t> Field(uint32_t object, std::string_view key) const;
  // As Field, but nullopt when the field is missing or refers to "$null".
  Result<std::optional<uint32_t>> OptionalField(uint32_t object, std::string_view key) const;
  // An integer or string field, inline or referred to.
  Result<int64_t> IntegerField(uint32_t object, std::string_view key) const;
  Result<std::string_view> StringField(uint32_t object, std::string_view key) const;

  Result<int64_t> Integer(uint32_t object) const;
  // A string object, or an NSString/NSMutableString ({"NS.string": ...}).
  Result<std::string_view> String(uint32_t object) const;
  // A data object, or an NSData/NSMutableData ({"NS.data": ...}).
  Result<ByteSpan> DataBytes(uint32_t object) const;
  // The elements of an NSArray, NSSet or their mutable kinds ("NS.objects").
  Result<std::vector<uint32_t>> ArrayElements(uint32_t object) const;
  // The (key, value) pairs of an NSDictionary or NSMutableDictionary
  // ("NS.keys" and "NS.objects").
  Result<std::vector<std::pair<uint32_t, uint32_t>>> DictionaryEntries(uint32_t object) const;

  // For tests and for investigating new archive classes: the object, its
  // class and its fields, indented, down to `max_depth` levels of fields and
  // elements. An object met again on its own path is marked "…cycle…":
  //   #2 Node
  //     self: #2 …cycle…
  //     next: #3 Node …
  std::string Describe(uint32_t object, int max_depth) const;

 private:
  explicit KeyedArchive(Plist plist) : plist_(std::move(plist)) {}

  Status Validate();
  // The field `key`, nullptr when missing; an error when `object` has no fields.
  Result<const PlistObject*> FindField(uint32_t object, std::string_view key) const;
  // "object 42 (XRRunListData)", to begin error messages.
  std::string Label(uint32_t object) const;
  // The object a field's UID refers to.
  Result<uint32_t> Reference(const PlistObject& value, uint32_t object, std::string_view key) const;
  Result<std::vector<uint32_t>> References(uint32_t object, std::string_view key) const;
  void DescribeValue(const PlistObject& value, int depth, int indent, std::vector<uint32_t>& path,
                     std::string& out) const;
  void DescribeObject(uint32_t object, int depth, int indent, std::vector<uint32_t>& path,
                      std::string& out) const;

  Plist plist_;
  uint32_t objects_ = 0;  // plist index of $objects
  uint32_t top_ = 0;      // plist index of $top
  int64_t version_ = 0;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_KEYED_ARCHIVE_H_
