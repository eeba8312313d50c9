#include "formats/xctrace_xml/sax_events.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "formats/xctrace_xml/element_tracker.h"

namespace instrumentscope::xctrace_xml {
namespace {

enum EventKind : uint8_t { kStart, kEnd, kText };

// Every event starts with this; a start tag's name and its attributes (SAX2's
// five pointers each, the values pointing into the event) follow it, then the
// values' bytes; a text's bytes follow it.
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

void EventRecorder::Start(const xmlChar* localname, const Attributes& attributes) {
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
  WriteHeader(kEnd, kHeaderBytes, 0);
}

void EventRecorder::Characters(const xmlChar* text, int length) {
  auto bytes = static_cast<size_t>(length);
  uint8_t* at = WriteHeader(kText, RoundUp8(kHeaderBytes + bytes), static_cast<uint32_t>(bytes));
  if (at) std::memcpy(at, text, bytes);
}

namespace {

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
