// SaxParser's events written into blocks of memory as libxml2 reports them,
// and read back, in order, into the Tokenizer: how the parse crosses from
// libxml2's thread to the importer's. A block holds its events' bytes whole:
// names are libxml2's dictionary pointers (the dictionary lives as long as
// the parser and never moves a name), attribute values and text are copied.
// Each event keeps the line and offset it was reported at, for the errors.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_

#include <libxml/xmlstring.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "base/bounded_queue.h"
#include "base/status.h"
#include "formats/xctrace_xml/elements.h"
#include "formats/xctrace_xml/sax_parser.h"

namespace instrumentscope::xctrace_xml {

class Tokenizer;

struct EventBlock {
  // The size blocks are made; one event larger than that gets a block of its own size.
  static constexpr size_t kBytes = 64 << 10;

  EventBlock() : words(kBytes / sizeof(uint64_t)) {}
  uint8_t* data() { return reinterpret_cast<uint8_t*>(words.data()); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(words.data()); }
  size_t capacity() const { return words.size() * sizeof(uint64_t); }

  std::vector<uint64_t> words;  // 8-byte aligned, as the events' pointers need
  size_t used = 0;
  // libxml2's error (or a DOCTYPE), after the last event: the parse stopped there.
  std::optional<Status> error;
  XmlLocation error_where;
};

using EventQueue = BoundedQueue<EventBlock>;

// SaxParser's Handler on libxml2's thread: fills blocks taken from `empty`
// and hands them to `full`. It stops the parse when a queue is cancelled or
// the reading side says it `stopped`.
class EventRecorder {
 public:
  EventRecorder(EventQueue& full, EventQueue& empty, const std::atomic<bool>& stopped)
      : full_(full), empty_(empty), reader_stopped_(stopped) {}
  // Where the parser is, recorded with each event.
  void set_parser(const SaxParser<EventRecorder>* parser) { parser_ = parser; }

  void Start(const xmlChar* localname, const Attributes& attributes);
  void End();
  void Characters(const xmlChar* text, int length);
  void Fail(Status status);
  bool failed() const { return stopped_ || reader_stopped_.load(std::memory_order_relaxed); }

  // Hands over the block being filled, with the error if there was one.
  void Flush();

 private:
  // Room for an event of `bytes` (a multiple of 8) in the block being
  // filled, or null once the parse is to stop.
  uint8_t* Reserve(size_t bytes) {
    if (block_ && block_->used + bytes <= block_->capacity()) {
      uint8_t* at = block_->data() + block_->used;
      block_->used += bytes;
      return at;
    }
    return ReserveInNextBlock(bytes);
  }
  uint8_t* ReserveInNextBlock(size_t bytes);
  uint8_t* WriteHeader(uint8_t kind, size_t bytes, uint32_t count);

  EventQueue& full_;
  EventQueue& empty_;
  const std::atomic<bool>& reader_stopped_;
  const SaxParser<EventRecorder>* parser_ = nullptr;
  std::optional<EventBlock> block_;
  bool stopped_ = false;
  std::optional<Status> error_;
  XmlLocation error_where_;
};

// Reports a block's events to the tokenizer, keeping `where` at the event
// being reported, until the tokenizer fails.
void ReplayEvents(const EventBlock& block, Tokenizer& tokenizer, XmlLocation& where);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_EVENTS_H_
