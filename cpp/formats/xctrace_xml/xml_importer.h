// Reads XML written by `xctrace export` (Xcode 12.5 through 26): the CPU
// sample tables time-profile, cpu-profile, counters-profile and time-sample,
// with stacks as <backtrace>/<frame>, <text-addresses>, <tagged-backtrace> or
// <kperf-bt>; and, unless ImportOptions::intervals is off, the tables of
// intervals and events of tables/catalogue.h (vsyncs, thermal states, Points
// of Interest, signposts, hangs, life cycle periods, run loops), and page
// faults weighted by their durations (table_schema.h). Streams through libxml2's SAX2 push parser:
// memory grows with the number of distinct ids, not with the size of the file.
//
// Not read: other tables (listed in errors and summaries), row columns other
// than those the tables' readers name. DOCTYPEs are refused, so no entity is
// ever declared, expanded or loaded, and nothing touches the network.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_IMPORTER_H_

#include <memory>

#include "formats/importer.h"

namespace instrumentscope::xctrace_xml {

SniffMatch Sniff(ByteSpan prefix);
std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options);

inline const FormatDescriptor kFormat = {"xctrace-xml", &Sniff, &CreateImporter};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_XML_IMPORTER_H_
