// How an export's bytes reach the Tokenizer: libxml2 and the Tokenizer (with
// the DocumentReader behind it) on the calling thread, or libxml2 there and
// the Tokenizer on a thread of its own, the two joined by a bounded queue of
// event blocks (sax_events.h), so that each has a core and memory stays
// bounded by the queue, not the file. Both report the same errors, located
// alike; the two-thread parse may report one a Feed later than where the
// document held it.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_PARSE_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_PARSE_H_

#include <memory>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"

namespace instrumentscope::xctrace_xml {

class DocumentReader;

class XmlParse {
 public:
  virtual ~XmlParse() = default;
  // The first error, located, once the parse cannot go on.
  virtual Status Feed(ByteSpan bytes) = 0;
  // After the last Feed: the reader has then seen the whole document.
  virtual Status Finish() = 0;
  virtual uint32_t threads() const = 0;
};

// On two threads when `threads` is more than one and a second is free.
std::unique_ptr<XmlParse> StartXmlParse(const Limits& limits, DocumentReader& reader,
                                        uint32_t threads);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_PARSE_H_
