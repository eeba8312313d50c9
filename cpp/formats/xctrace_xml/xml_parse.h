// How an export's bytes reach the ElementTracker: through libxml2 on the calling
// thread, or cut into slices parsed on several threads at once and read in
// order (xml_parse.cc). Both report the same events and errors, located
// alike; the threaded parse may report an error a Feed later than where the
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

// On up to `threads` threads, as many as are free (HelperThreads).
std::unique_ptr<XmlParse> StartXmlParse(const Limits& limits, DocumentReader& reader,
                                        uint32_t threads);

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_PARSE_H_
