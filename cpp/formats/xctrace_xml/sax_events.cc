#include "formats/xctrace_xml/sax_events.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "formats/xctrace_xml/element_tracker.h"

namespace instrumentscope::xctrace_xml {
namespace {

enum EventKind : uint8_t { kStart, kEnd, kText, kRefLeaf };

// Every event starts with this; a start tag's name and its attributes (SAX2's
// five pointers each, the values pointing into the event) follow it, then the
// values' bytes; a text's bytes follow it; a ref leaf's name, its ref as a
// number.
struct EventHeader {
  uint8_t kind;
  uint32_t size;   // the whole event's bytes, a multiple of 8
  uint32_t count;  // attributes of a start tag, bytes of a text
  uint32_t line;
  uint64_t offset;
};
constexpr size_t kHeaderBytes = (sizeof(EventHeader) + 7) & ~size_t{7};
constexpr size_t kPointerBytes = sizeof(const xmlChar*);

constexpr size_t RoundUp8(size_t bytes) {
  return (bytes + 7) & ~size_t{7};
}

// An empty element's end is reported after its "/>".
constexpr uint64_t kEmptyElementEndBytes = 2;

// A ref written as plain decimal digits, as xctrace writes them, which
// std::to_chars writes back the same; nullopt for anything else.
std::optional<uint64_t> PlainDecimal(std::string_view text) {
  bool plain_shape = !text.empty() && text.size() <= 18 && (text[0] != '0' || text.size() == 1) &&
                     text.front() >= '0' && text.front() <= '9' && text.back() >= '0' &&
                     text.back() <= '9';
  return plain_shape ? ParseDecimal<uint64_t>(text) : std::nullopt;
}

}  // namespace

uint8_t* EventRecorder::ReserveInNewBlock(size_t bytes) {
  // Fresh memory: a block the other threads had last read costs more to write.
  EventBlock& block = blocks_.emplace_back(std::max(bytes, EventBlock::kBytes));
  block.used = bytes;
  return block.data();
}

uint8_t* EventRecorder::WriteHeader(uint8_t kind, size_t bytes, uint32_t count) {
  uint8_t* at = Reserve(bytes);
  if (!at) return nullptr;
  XmlLocation where = parser_->Where();
  EventHeader header{kind, static_cast<uint32_t>(bytes), count, where.line, where.offset};
  std::memcpy(at, &header, sizeof(header));
  return at + kHeaderBytes;
}

bool EventRecorder::RefLeaf(const xmlChar* localname, const Attributes& attributes) {
  if (attributes.size() != 1 || !attributes.NameIs(0, "ref") || !parser_->AtEmptyElementEnd()) {
    return false;
  }
  std::optional<uint64_t> ref = PlainDecimal(attributes.raw_value(0));
  if (!ref) return false;
  uint8_t* at = WriteHeader(kRefLeaf, kHeaderBytes + 2 * sizeof(uint64_t), 0);
  if (!at) return true;
  std::memcpy(at, &localname, kPointerBytes);
  std::memcpy(at + sizeof(uint64_t), &*ref, sizeof(uint64_t));
  // libxml2 reports the end next, once it has read the "/>".
  end_implied_ = true;
  return true;
}

void EventRecorder::Start(const xmlChar* localname, const Attributes& attributes) {
  if (end_implied_) failed_ = true;  // never so: libxml2 reports the end next
  if (RefLeaf(localname, attributes)) return;
  auto count = static_cast<size_t>(attributes.size());
  size_t values = 0;
  for (size_t i = 0; i < count; ++i) values += attributes.raw_value(static_cast<int>(i)).size();
  size_t pointers = kPointerBytes * (1 + 5 * count);
  uint8_t* at =
      WriteHeader(kStart, RoundUp8(kHeaderBytes + pointers + values), static_cast<uint32_t>(count));
  if (!at) return;
  std::memcpy(at, &localname, kPointerBytes);
  auto* raw = reinterpret_cast<const xmlChar**>(at + kPointerBytes);
  auto* value = reinterpret_cast<xmlChar*>(at + pointers);
  for (size_t i = 0; i < count; ++i) {
    std::string_view text = attributes.raw_value(static_cast<int>(i));
    std::memcpy(value, text.data(), text.size());
    const xmlChar** attribute = raw + 5 * i;
    attribute[0] = attributes.name(static_cast<int>(i));
    attribute[1] = nullptr;
    attribute[2] = nullptr;
    attribute[3] = value;
    attribute[4] = value + text.size();
    value += text.size();
  }
}

void EventRecorder::End() {
  if (end_implied_) {
    end_implied_ = false;
    return;
  }
  WriteHeader(kEnd, kHeaderBytes, 0);
}

void EventRecorder::Characters(const xmlChar* text, int length) {
  if (end_implied_) failed_ = true;  // never so: libxml2 reports the end next
  auto bytes = static_cast<size_t>(length);
  uint8_t* at = WriteHeader(kText, RoundUp8(kHeaderBytes + bytes), static_cast<uint32_t>(bytes));
  if (at) std::memcpy(at, text, bytes);
}

namespace {

const xmlChar kRefName[] = {'r', 'e', 'f', 0};

// As the start tag and end tag it stands for.
void ReplayRefLeaf(const uint8_t* body, ElementTracker& tracker, XmlLocation& where) {
  const xmlChar* name;
  uint64_t ref;
  std::memcpy(&name, body, kPointerBytes);
  std::memcpy(&ref, body + sizeof(uint64_t), sizeof(uint64_t));
  if (tracker.in_values()) {
    tracker.StartRef(name, ref);
  } else {
    // The attribute as written: the ref's plain digits.
    char digits[20];
    char* end = std::to_chars(digits, digits + sizeof(digits), ref).ptr;
    const auto* text = reinterpret_cast<const xmlChar*>(digits);
    const xmlChar* attribute[5] = {kRefName, nullptr, nullptr, text, text + (end - digits)};
    tracker.Start(name, Attributes(attribute, 1));
  }
  if (tracker.failed()) return;
  where.offset += kEmptyElementEndBytes;
  tracker.End();
}

void ReplayBlock(const EventBlock& block, const LocationShift& shift, ElementTracker& tracker,
                 XmlLocation& where) {
  const uint8_t* at = block.data();
  const uint8_t* end = at + block.used;
  while (at < end && !tracker.failed()) {
    EventHeader header;
    std::memcpy(&header, at, sizeof(header));
    where = {header.line + shift.lines, header.offset - shift.wrapper + shift.offset};
    const uint8_t* body = at + kHeaderBytes;
    if (header.kind == kStart) {
      const xmlChar* name;
      std::memcpy(&name, body, kPointerBytes);
      auto* raw = reinterpret_cast<const xmlChar**>(const_cast<uint8_t*>(body + kPointerBytes));
      tracker.Start(name, Attributes(raw, static_cast<int>(header.count)));
    } else if (header.kind == kEnd) {
      tracker.End();
    } else if (header.kind == kRefLeaf) {
      ReplayRefLeaf(body, tracker, where);
    } else {
      tracker.Characters(body, static_cast<int>(header.count));
    }
    at += header.size;
  }
}

}  // namespace

void ReplayEvents(const std::vector<EventBlock>& blocks, const LocationShift& shift,
                  ElementTracker& tracker, XmlLocation& where) {
  for (const EventBlock& block : blocks) {
    if (tracker.failed()) return;
    ReplayBlock(block, shift, tracker, where);
  }
}

}  // namespace instrumentscope::xctrace_xml
