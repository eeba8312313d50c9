// A table of contents, as `xctrace export --toc` writes it: the runs of a
// recording and the schemas of the tables each holds, read only to say which
// CPU sample tables there are and how to export one. It holds no rows, so
// importing it always fails with that advice.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_OF_CONTENTS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_OF_CONTENTS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"
#include "formats/xctrace_xml/elements.h"

namespace instrumentscope::xctrace_xml {

class TableOfContents {
 public:
  // An element inside <trace-toc> starts; `depth` elements are open around it
  // (1 for the root's children).
  void Start(Element element, size_t depth, const Attributes& attributes);
  // XML_TABLE_OF_CONTENTS, naming each run's CPU sample tables and the
  // command that exports the first.
  Status Error() const;

 private:
  struct Run {
    std::string number;
    std::vector<std::string> schemas;
  };
  std::vector<Run> runs_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_OF_CONTENTS_H_
