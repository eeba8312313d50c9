// SaxParser's events written into blocks of memory as libxml2 reports them,
// and read back, in order, into the ElementTracker: how a slice of an export
// parsed on one thread reaches the importer on another. The blocks hold the
// events' bytes whole: names are the parser's dictionary pointers (valid
// while that parser lives), attribute values and text are copied. Each event
// keeps the line and offset it was reported at, for the errors. An empty
// element whose one attribute is a ref= of plain digits (most elements of a
// row: <thread ref="2"/>) is one event, its ref read as a number, its end
// implied.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_

#include <libxml/xmlstring.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/status.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/sax_parser.h"

namespace instrumentscope::xctrace_xml {

class ElementTracker;

struct EventBlock {
  // The size blocks are made; one event larger than that gets a block of its own size.
  static constexpr size_t kBytes = 64 << 10;

  // Left uninitialized: an event's bytes are written before they are read.
  explicit EventBlock(size_t bytes) : words(new uint64_t[(bytes + 7) / 8]), size((bytes + 7) / 8) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(words.get()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words.get()); }
  size_t capacity() const { return size * sizeof(uint64_t); }

  std::unique_ptr<uint64_t[]> words;  // 8-byte aligned, as the events' pointers need
  size_t size;                        // in words
  size_t used = 0;                    // in bytes
};

// SaxParser's Handler that writes the events into `blocks`. An error only
// stops it: the slice is parsed again where its lines are known, to say it.
class EventRecorder {
 public:
  explicit EventRecorder(std::vector<EventBlock>& blocks) : blocks_(blocks) {}
  // Where the parser is, recorded with each event.
  void set_parser(const SaxParser<EventRecorder>* parser) { parser_ = parser; }

  void Start(const xmlChar* localname, const Attributes& attributes);
  void End();
  void Characters(const xmlChar* text, int length);
  void Fail(Status) { failed_ = true; }
  bool failed() const { return failed_; }

 private:
  // Room for an event of `bytes` (a multiple of 8).
  uint8_t* Reserve(size_t bytes) {
    if (!blocks_.empty() && blocks_.back().used + bytes <= blocks_.back().capacity()) {
      EventBlock& block = blocks_.back();
      uint8_t* at = block.data() + block.used;
      block.used += bytes;
      return at;
    }
    return ReserveInNewBlock(bytes);
  }
  uint8_t* ReserveInNewBlock(size_t bytes);
  uint8_t* WriteHeader(uint8_t kind, size_t bytes, uint32_t count);
  // Writes a start tag that is the whole of an empty element, <x ref="N"/>
  // with N plain digits, as one event; false for any other start tag.
  bool RefLeaf(const xmlChar* localname, const Attributes& attributes);

  std::vector<EventBlock>& blocks_;
  const SaxParser<EventRecorder>* parser_ = nullptr;
  bool failed_ = false;
  // After a RefLeaf event: its end tag is the next event, already implied.
  bool end_implied_ = false;
};

// Reports `blocks`' events to the tracker until it fails, keeping `where`
// at the event being reported: its line and offset as the slice's parser
// counted them, plus `shift`.
struct LocationShift {
  uint32_t lines = 0;
  uint64_t offset = 0;  // added after `wrapper` bytes are taken off
  uint64_t wrapper = 0;
};
void ReplayEvents(const std::vector<EventBlock>& blocks, const LocationShift& shift,
                  ElementTracker& tracker, XmlLocation& where);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_
