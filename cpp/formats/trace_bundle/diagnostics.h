// What a bundle import says when parts of it cannot be read. A part that
// cannot be read (a store, table or run; a name table, a symbol archive, a
// uniquer index) is left out with one warning, its code the part's kind
// (BUNDLE_PART_UNREADABLE for stores, tables and runs, THREAD_NAMES_UNREADABLE,
// SYMBOLS_UNREADABLE, TABLE_UNREADABLE, LEGACY_RUN_UNREADABLE), naming the
// file, with the bundle's folder as errors name it, and what was lost; the
// rest imports. The first error of a part that may hold samples is the
// import's when nothing with samples could be read; a limit reached ends the
// import instead. And the error of a bundle that holds no samples this version
// reads, naming what it holds instead. Reads no file.
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_DIAGNOSTICS_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_DIAGNOSTICS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "formats/trace_bundle/bundle_files.h"
#include "formats/trace_bundle/form_template.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

struct Table;

// Whether the error of a part left out can be the import's.
enum class PartRole {
  kSamples,  // it may hold samples: its error is the import's when none can be read
  kDetails,  // names, symbols, a row count: only ever a warning
};

class LeftOutParts {
 public:
  // `root`: the bundle's folder in the input ("Rec.trace/", or ""), which
  // starts the paths of warnings as it starts those of errors.
  LeftOutParts(const BundleFiles& files, ProfileBuilder& builder, std::string root)
      : files_(files), builder_(builder), root_(std::move(root)) {}

  // `part` ("run 2", "the thread-name table of run 2") is left out for
  // `error`, losing `lost` ("its 48,067 samples"), with a warning `code`:
  //   run 2 left out: Rec.trace/corespace/run2/…/bulkstore is damaged (its
  //   samples): BUNDLE_CORRUPT: … (at byte 4096)
  // Returns `error` instead when it ends the import (a limit reached is no
  // damage), and keeps it as ended().
  Status LeaveOut(WarningCode code, const std::string& part, const Status& error,
                  const std::string& lost, PartRole role);
  // The same, with a message of the caller's (Located() spells its paths).
  Status Record(const Status& error, WarningCode code, std::string message, PartRole role);
  // `error` with the bundle's folder before its path.
  Status Located(const Status& error) const { return Status(error).WithPathPrefix(root_); }

  // The first error of a part that may hold samples.
  const std::optional<Status>& first() const { return first_; }
  const std::string& root() const { return root_; }
  // The limit that ended the import, when a part that could not return it reached one.
  const std::optional<Status>& ended() const { return ended_; }

 private:
  const BundleFiles& files_;
  ProfileBuilder& builder_;
  std::string root_;
  std::optional<Status> first_;
  std::optional<Status> ended_;
};

// "its 48,067 samples", "its 1 sample"; "its samples" when the count is unknown.
std::string ItsSamples(std::optional<uint64_t> count);

// The error of a bundle without samples to read: the instruments and tables
// it has, or how to export the sample tables this version cannot decode.
Status NoSamplesError(const FormTemplate* form, const BundleLayout& layout,
                      const std::vector<Table>& tables);

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_DIAGNOSTICS_H_
