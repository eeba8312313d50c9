// The intervals of one table of an export, held until they can be handed to
// the ProfileBuilder: when the table ends, or, for the tables that repeat one
// another's signposts, when the document does (IntervalRows decides which of
// those a run keeps). Sources are made here, by name and process, so that a
// table left out leaves no empty source behind.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_INTERVALS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_INTERVALS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class TableIntervals {
 public:
  TableIntervals(uint32_t run, std::string schema, ProfileBuilder::DuringViews during,
                 std::string during_name)
      : run_(run),
        schema_(std::move(schema)),
        during_(during),
        during_name_(std::move(during_name)) {}

  uint32_t run() const { return run_; }
  const std::string& schema() const { return schema_; }
  bool empty() const { return intervals_.empty(); }

  // The source of `name` and process (pid -1: none), made the first time.
  size_t Source(const std::string& name, const std::string& process_name, int64_t pid);
  void Add(size_t source, int64_t start, int64_t end, std::string name, std::string label);

  // Hands sources and intervals to the builder.
  Status Commit(ProfileBuilder& builder) &&;

 private:
  struct PendingSource {
    std::string name;
    std::string process_name;
    int64_t pid;
  };
  struct PendingInterval {
    size_t source;
    int64_t start;
    int64_t end;
    std::string name;
    std::string label;
  };

  uint32_t run_;
  std::string schema_;
  ProfileBuilder::DuringViews during_;
  std::string during_name_;
  std::vector<PendingSource> sources_;
  std::map<std::pair<std::string, int64_t>, size_t> source_index_;
  std::vector<PendingInterval> intervals_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_TABLE_INTERVALS_H_
