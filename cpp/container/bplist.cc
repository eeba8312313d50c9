#include "container/bplist.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/byte_reader.h"
#include "base/checked_math.h"

namespace instrumentscope {
namespace {

constexpr std::string_view kMagic = "bplist00";
constexpr size_t kTrailerSize = 32;

struct Trailer {
  uint8_t offset_size = 0;
  uint8_t ref_size = 0;
  uint64_t num_objects = 0;
  uint64_t top_object = 0;
  uint64_t offset_table_offset = 0;
};

Status Corrupt(const std::string& message, uint64_t offset) {
  return Status(ErrorCode::kPlistCorrupt, message).WithOffset(offset);
}

bool IsIntSize(uint8_t size) {
  return size == 1 || size == 2 || size == 4 || size == 8;
}

std::string Hex(uint8_t byte) {
  char text[5];
  std::snprintf(text, sizeof(text), "0x%02X", byte);
  return text;
}

// Checks the header and the trailer, and that the offset table lies between
// the objects and the trailer, before anything else is read.
Result<Trailer> ReadTrailer(ByteSpan bytes, const Limits& limits) {
  if (bytes.size() < kMagic.size() + kTrailerSize) {
    return Corrupt("a binary plist of " + std::to_string(bytes.size()) +
                       " bytes is too short for its header and trailer",
                   bytes.size());
  }
  std::string_view header = bytes.first(kMagic.size()).as_chars();
  if (header != kMagic) {
    if (header.substr(0, 6) == kMagic.substr(0, 6)) {
      return Corrupt("binary plist version \"" + std::string(header.substr(6)) +
                         "\" is not supported (only 00)",
                     6);
    }
    return Corrupt("not a binary plist (no bplist00 header)", 0);
  }
  const size_t trailer_start = bytes.size() - kTrailerSize;
  ByteReader reader(bytes);
  RETURN_IF_ERROR(reader.Seek(trailer_start + 6));  // after 5 unused bytes and the sort version
  Trailer trailer;
  ASSIGN_OR_RETURN(trailer.offset_size, reader.ReadU8());
  ASSIGN_OR_RETURN(trailer.ref_size, reader.ReadU8());
  ASSIGN_OR_RETURN(trailer.num_objects, reader.ReadU64Be());
  ASSIGN_OR_RETURN(trailer.top_object, reader.ReadU64Be());
  ASSIGN_OR_RETURN(trailer.offset_table_offset, reader.ReadU64Be());

  if (!IsIntSize(trailer.offset_size)) {
    return Corrupt("offset size " + std::to_string(trailer.offset_size) + " is not 1, 2, 4 or 8",
                   trailer_start + 6);
  }
  if (!IsIntSize(trailer.ref_size)) {
    return Corrupt(
        "object reference size " + std::to_string(trailer.ref_size) + " is not 1, 2, 4 or 8",
        trailer_start + 7);
  }
  if (trailer.num_objects == 0) return Corrupt("the trailer lists no objects", trailer_start + 8);
  // Objects lie between the header and the offset table, so it starts after
  // at least one object byte.
  if (trailer.offset_table_offset <= kMagic.size() || trailer.offset_table_offset > trailer_start) {
    return Corrupt("the offset table's offset " + std::to_string(trailer.offset_table_offset) +
                       " is not between the header and the trailer (byte " +
                       std::to_string(trailer_start) + ")",
                   trailer_start + 24);
  }
  auto table_size = CheckedMul<uint64_t>(trailer.num_objects, trailer.offset_size);
  auto table_end =
      table_size ? CheckedAdd<uint64_t>(trailer.offset_table_offset, *table_size) : std::nullopt;
  if (!table_end || *table_end > trailer_start) {
    return Corrupt("the offset table of " + std::to_string(trailer.num_objects) + " entries of " +
                       std::to_string(trailer.offset_size) + " bytes at byte " +
                       std::to_string(trailer.offset_table_offset) + " runs into the trailer",
                   trailer_start + 8);
  }
  if (trailer.num_objects > limits.max_plist_objects) {
    return Status(ErrorCode::kLimitExceeded,
                  "a binary plist of " + std::to_string(trailer.num_objects) +
                      " objects exceeds the limit of " + std::to_string(limits.max_plist_objects) +
                      " (limits.maxPlistObjects)")
        .WithOffset(trailer_start + 8);
  }
  if (trailer.top_object >= trailer.num_objects) {
    return Corrupt("the top object " + std::to_string(trailer.top_object) + " is not among the " +
                       std::to_string(trailer.num_objects) + " objects",
                   trailer_start + 16);
  }
  return trailer;
}

void AppendUtf8(uint32_t code_point, std::vector<char>& out) {
  auto put = [&out](uint32_t byte) { out.push_back(static_cast<char>(byte)); };
  if (code_point < 0x80) {
    put(code_point);
  } else if (code_point < 0x800) {
    put(0xC0 | code_point >> 6);
    put(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    put(0xE0 | code_point >> 12);
    put(0x80 | (code_point >> 6 & 0x3F));
    put(0x80 | (code_point & 0x3F));
  } else {
    put(0xF0 | code_point >> 18);
    put(0x80 | (code_point >> 12 & 0x3F));
    put(0x80 | (code_point >> 6 & 0x3F));
    put(0x80 | (code_point & 0x3F));
  }
}

// UTF-16BE to UTF-8; a surrogate without its partner becomes U+FFFD.
void AppendUtf16BeAsUtf8(ByteSpan units, std::vector<char>& out) {
  constexpr uint32_t kReplacement = 0xFFFD;
  const size_t count = units.size() / 2;
  auto unit_at = [&units](size_t i) -> uint32_t { return units[2 * i] << 8 | units[2 * i + 1]; };
  for (size_t i = 0; i < count; ++i) {
    uint32_t unit = unit_at(i);
    if (unit < 0xD800 || unit > 0xDFFF) {
      AppendUtf8(unit, out);
    } else if (unit <= 0xDBFF && i + 1 < count && unit_at(i + 1) >= 0xDC00 &&
               unit_at(i + 1) <= 0xDFFF) {
      AppendUtf8(0x10000 + ((unit - 0xD800) << 10) + (unit_at(i + 1) - 0xDC00), out);
      ++i;
    } else {
      AppendUtf8(kReplacement, out);
    }
  }
}

}  // namespace

const char* PlistTypeName(PlistType type) {
  switch (type) {
    case PlistType::kNull: return "null";
    case PlistType::kBool: return "boolean";
    case PlistType::kInteger: return "integer";
    case PlistType::kReal: return "real";
    case PlistType::kDate: return "date";
    case PlistType::kData: return "data";
    case PlistType::kString: return "string";
    case PlistType::kUid: return "UID";
    case PlistType::kArray: return "array";
    case PlistType::kSet: return "set";
    case PlistType::kDictionary: return "dictionary";
  }
  return "unknown";
}

// Decodes the objects one by one, in the offset table's order.
class PlistParser {
 public:
  PlistParser(ByteSpan bytes, const Trailer& trailer, uint32_t max_depth)
      : bytes_(bytes),
        trailer_(trailer),
        object_data_(bytes.first(trailer.offset_table_offset)),
        max_depth_(max_depth) {}

  Result<Plist> Parse() {
    plist_.objects_.resize(trailer_.num_objects);
    ByteReader table(bytes_);
    RETURN_IF_ERROR(table.Seek(trailer_.offset_table_offset));
    for (index_ = 0; index_ < trailer_.num_objects; ++index_) {
      uint64_t entry_offset = table.absolute_offset();
      ASSIGN_OR_RETURN(uint64_t offset, table.ReadUIntBe(trailer_.offset_size));
      if (offset < kMagic.size() || offset >= object_data_.size()) {
        return Error("its offset " + std::to_string(offset) +
                         " is outside the object data (bytes 8 to " +
                         std::to_string(object_data_.size()) + ")",
                     entry_offset);
      }
      RETURN_IF_ERROR(ParseObject(offset));
    }
    // The arenas have stopped growing: now views into them stay valid.
    for (const Pending& pending : pending_refs_) {
      plist_.objects_[pending.object].children =
          ObjectRefs(plist_.refs_.data() + pending.start, pending.size);
    }
    for (const Pending& pending : pending_text_) {
      plist_.objects_[pending.object].string =
          std::string_view(plist_.text_.data() + pending.start, pending.size);
    }
    RETURN_IF_ERROR(CheckNesting());
    plist_.root_ = static_cast<uint32_t>(trailer_.top_object);
    return std::move(plist_);
  }

 private:
  // A part of an arena that belongs to one object.
  struct Pending {
    uint32_t object;
    size_t start;
    size_t size;
  };

  Status Error(const std::string& message, uint64_t offset) const {
    return Corrupt("object " + std::to_string(index_) + ": " + message, offset);
  }

  // The trailer was sound, so a read past the object data is damage, not truncation.
  template <typename T>
  Result<T> InObjectData(Result<T> read) const {
    if (read.ok()) return read;
    return Error("it runs past the end of the object data (byte " +
                     std::to_string(object_data_.size()) + ")",
                 read.status().offset().value_or(0));
  }

  Status ParseObject(uint64_t offset) {
    PlistObject& object = plist_.objects_[index_];
    ByteReader reader(object_data_);
    RETURN_IF_ERROR(reader.Seek(offset));
    ASSIGN_OR_RETURN(uint8_t marker, reader.ReadU8());
    const uint8_t low = marker & 0x0F;
    switch (marker >> 4) {
      case 0x0:
        if (marker == 0x08 || marker == 0x09) {
          object.type = PlistType::kBool;
          object.boolean = marker == 0x09;
          return OkStatus();
        }
        if (marker == 0x00 || marker == 0x0F) return OkStatus();  // null, or fill read as null
        break;
      case 0x1: {
        object.type = PlistType::kInteger;
        ASSIGN_OR_RETURN(object.integer, ReadInteger(reader, marker));
        return OkStatus();
      }
      case 0x2: {
        if (low != 2 && low != 3) break;
        object.type = PlistType::kReal;
        ASSIGN_OR_RETURN(object.real, ReadReal(reader, low == 2 ? 4 : 8));
        return OkStatus();
      }
      case 0x3: {
        if (marker != 0x33) break;
        object.type = PlistType::kDate;
        ASSIGN_OR_RETURN(object.real, ReadReal(reader, 8));
        return OkStatus();
      }
      case 0x4: {
        object.type = PlistType::kData;
        ASSIGN_OR_RETURN(uint64_t count, ReadCount(reader, low));
        ASSIGN_OR_RETURN(object.data, ReadPayload(reader, count, 1));
        return OkStatus();
      }
      case 0x5: {
        object.type = PlistType::kString;
        ASSIGN_OR_RETURN(uint64_t count, ReadCount(reader, low));
        uint64_t start = reader.absolute_offset();
        ASSIGN_OR_RETURN(ByteSpan text, ReadPayload(reader, count, 1));
        for (size_t i = 0; i < text.size(); ++i) {
          if (text[i] >= 0x80) {
            return Error("its ASCII string holds byte " + Hex(text[i]), start + i);
          }
        }
        object.string = text.as_chars();
        return OkStatus();
      }
      case 0x6: {
        object.type = PlistType::kString;
        ASSIGN_OR_RETURN(uint64_t count, ReadCount(reader, low));
        ASSIGN_OR_RETURN(ByteSpan units, ReadPayload(reader, count, 2));
        size_t start = plist_.text_.size();
        AppendUtf16BeAsUtf8(units, plist_.text_);
        pending_text_.push_back({index_, start, plist_.text_.size() - start});
        return OkStatus();
      }
      case 0x8: {
        if (low > 7) break;
        object.type = PlistType::kUid;
        ASSIGN_OR_RETURN(object.uid, InObjectData(reader.ReadUIntBe(low + 1)));
        return OkStatus();
      }
      case 0xA:
      case 0xC: {
        object.type = marker >> 4 == 0xA ? PlistType::kArray : PlistType::kSet;
        ASSIGN_OR_RETURN(uint64_t count, ReadCount(reader, low));
        return ReadRefs(reader, count);
      }
      case 0xD: {
        object.type = PlistType::kDictionary;
        ASSIGN_OR_RETURN(uint64_t count, ReadCount(reader, low));
        return ReadRefs(reader, 2 * count);  // keys, then values; count < 2^63
      }
    }
    return Error("unknown object marker " + Hex(marker), offset);
  }

  // The integer after `marker`: 1, 2 or 4 bytes unsigned, 8 bytes signed, and
  // of 16 bytes (written only for values above INT64_MAX) the low 8.
  Result<int64_t> ReadInteger(ByteReader& reader, uint8_t marker) {
    const uint8_t log2_width = marker & 0x0F;
    if (marker >> 4 != 0x1 || log2_width > 4) {
      return Error("marker " + Hex(marker) + " is not an integer of 1 to 16 bytes",
                   reader.absolute_offset() - 1);
    }
    size_t width = size_t{1} << log2_width;
    if (width == 16) {
      RETURN_IF_ERROR(InObjectData(reader.ReadBytes(8)).status());
      width = 8;
    }
    ASSIGN_OR_RETURN(uint64_t value, InObjectData(reader.ReadUIntBe(width)));
    return static_cast<int64_t>(value);
  }

  Result<double> ReadReal(ByteReader& reader, size_t width) {
    ASSIGN_OR_RETURN(uint64_t bits, InObjectData(reader.ReadUIntBe(width)));
    if (width == 4) {
      uint32_t narrow = static_cast<uint32_t>(bits);
      float value;
      std::memcpy(&value, &narrow, sizeof(value));
      return static_cast<double>(value);
    }
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }

  // A count in the marker's low nibble, or after it as an integer object when
  // the nibble is 0xF.
  Result<uint64_t> ReadCount(ByteReader& reader, uint8_t low) {
    if (low != 0x0F) return low;
    uint64_t start = reader.absolute_offset();
    ASSIGN_OR_RETURN(uint8_t marker, InObjectData(reader.ReadU8()));
    ASSIGN_OR_RETURN(int64_t count, ReadInteger(reader, marker));
    if (count < 0) return Error("its count " + std::to_string(count) + " is negative", start);
    return static_cast<uint64_t>(count);
  }

  // The `count` units of `unit_size` bytes after the marker. Their total over
  // all objects cannot exceed the file, which objects sharing one offset
  // could otherwise multiply.
  Result<ByteSpan> ReadPayload(ByteReader& reader, uint64_t count, uint64_t unit_size) {
    auto size = CheckedMul(count, unit_size);
    auto total = size ? CheckedAdd(payload_total_, *size) : std::nullopt;
    if (!total || *total > bytes_.size()) {
      return Error("its contents of " + std::to_string(count) + " × " + std::to_string(unit_size) +
                       " bytes make all objects' contents larger than the file (" +
                       std::to_string(bytes_.size()) + " bytes)",
                   reader.absolute_offset());
    }
    payload_total_ = *total;
    return InObjectData(reader.ReadBytes(*size));
  }

  Status ReadRefs(ByteReader& reader, uint64_t count) {
    uint64_t position = reader.absolute_offset();
    ASSIGN_OR_RETURN(ByteSpan bytes, ReadPayload(reader, count, trailer_.ref_size));
    ByteReader refs(bytes, position);
    size_t start = plist_.refs_.size();
    while (refs.remaining() > 0) {
      uint64_t ref_offset = refs.absolute_offset();
      ASSIGN_OR_RETURN(uint64_t ref, refs.ReadUIntBe(trailer_.ref_size));
      if (ref >= trailer_.num_objects) {
        return Error("it refers to object " + std::to_string(ref) + " of only " +
                         std::to_string(trailer_.num_objects),
                     ref_offset);
      }
      plist_.refs_.push_back(static_cast<uint32_t>(ref));
    }
    pending_refs_.push_back({index_, start, plist_.refs_.size() - start});
    return OkStatus();
  }

  // Containers hold their children by index, so the input can make one
  // contain itself. Refused here, with nesting deeper than the limit, so
  // that whatever walks a Plist may recurse. Shared children are measured
  // once: the walk is linear in the references.
  Status CheckNesting() const {
    // Per object, 1 + the containers nested in it (itself included); 0 while
    // not measured yet, kOnPath while being measured: met again, a cycle.
    constexpr uint32_t kOnPath = UINT32_MAX;
    std::vector<uint32_t> measured(plist_.objects_.size(), 0);
    struct Step {
      uint32_t object;
      uint32_t next_child;
    };
    std::vector<Step> path;
    for (uint32_t start = 0; start < plist_.objects_.size(); ++start) {
      if (measured[start] != 0) continue;
      path.push_back({start, 0});
      measured[start] = kOnPath;
      while (!path.empty()) {
        Step& step = path.back();
        const PlistObject& object = plist_.objects_[step.object];
        if (step.next_child == object.children.size()) {
          uint32_t nesting = 0;
          for (uint32_t child : object.children) nesting = std::max(nesting, measured[child] - 1);
          if (IsContainer(object.type)) ++nesting;
          if (nesting > max_depth_) {
            return Status(ErrorCode::kLimitExceeded,
                          "object " + std::to_string(step.object) + " nests containers " +
                              std::to_string(nesting) + " deep, more than " +
                              std::to_string(max_depth_) + " (limits.maxPlistDepth)")
                .WithOffset(ObjectOffset(step.object));
          }
          measured[step.object] = nesting + 1;
          path.pop_back();
          continue;
        }
        uint32_t child = object.children[step.next_child++];
        if (measured[child] == kOnPath) {
          return Corrupt(
              "object " + std::to_string(child) + " contains itself" +
                  (child == step.object ? std::string()
                                        : " (through object " + std::to_string(step.object) + ")"),
              ObjectOffset(child));
        }
        if (measured[child] == 0) {
          measured[child] = kOnPath;
          path.push_back({child, 0});
        }
      }
    }
    return OkStatus();
  }

  static bool IsContainer(PlistType type) {
    return type == PlistType::kArray || type == PlistType::kSet || type == PlistType::kDictionary;
  }

  // Where an object starts; the table was read whole already.
  uint64_t ObjectOffset(uint32_t object) const {
    ByteReader table(bytes_);
    uint64_t entry = trailer_.offset_table_offset + uint64_t{object} * trailer_.offset_size;
    if (!table.Seek(entry).ok()) return entry;
    auto offset = table.ReadUIntBe(trailer_.offset_size);
    return offset.ok() ? *offset : entry;
  }

  const ByteSpan bytes_;
  const Trailer trailer_;
  const ByteSpan object_data_;  // from the start to the offset table: no object reaches beyond
  const uint32_t max_depth_;
  Plist plist_;
  uint32_t index_ = 0;  // the object being parsed
  uint64_t payload_total_ = 0;
  std::vector<Pending> pending_refs_;
  std::vector<Pending> pending_text_;
};

Result<Plist> Plist::Parse(ByteSpan bytes, const Limits& limits) {
  ASSIGN_OR_RETURN(Trailer trailer, ReadTrailer(bytes, limits));
  return PlistParser(bytes, trailer, limits.max_plist_depth).Parse();
}

std::optional<uint32_t> Plist::DictValueIndex(const PlistObject& dict, std::string_view key) const {
  if (dict.type != PlistType::kDictionary) return std::nullopt;
  const size_t count = dict.children.size() / 2;
  for (size_t i = 0; i < count; ++i) {
    const PlistObject& candidate = objects_[dict.children[i]];
    if (candidate.type == PlistType::kString && candidate.string == key) {
      return dict.children[count + i];
    }
  }
  return std::nullopt;
}

const PlistObject* Plist::DictValue(const PlistObject& dict, std::string_view key) const {
  std::optional<uint32_t> index = DictValueIndex(dict, key);
  return index ? &objects_[*index] : nullptr;
}

}  // namespace instrumentscope
