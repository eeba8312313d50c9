#include "formats/trace_bundle/diagnostics.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "base/text.h"
#include "formats/trace_bundle/row_decoder.h"
#include "formats/trace_bundle/tables.h"
#include "tables/catalogue.h"

namespace instrumentscope::trace_bundle {
namespace {

// A bundle whose CPU samples are in a table of another kind: which columns
// stop it, and the command that exports the table instead.
Status UndecodedSamplesError(std::string_view kind, const std::vector<Table>& tables) {
  const Table* first = nullptr;
  std::set<uint32_t> runs;
  for (const Table& table : tables) {
    if (table.name() != kind) continue;
    if (!first) first = &table;
    runs.insert(table.run());
  }
  std::vector<std::string> unknown_columns;
  for (const StoreColumn& column : first->schema.columns) {
    if (RowDecoder::SampleColumnType(column.engineering_type)) continue;
    unknown_columns.push_back(column.mnemonic + " (" + column.engineering_type + ")");
  }
  std::string unknown = JoinList(unknown_columns);
  return Status(ErrorCode::kBundleUnsupported,
                "this recording's CPU samples are in " + std::string(kind) + " tables (" +
                    std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs") +
                    "), which this version does not decode from bundles yet" +
                    (unknown.empty()
                         ? std::string()
                         : ": their columns " + unknown + " are references it cannot follow") +
                    ". On a Mac, export them: xctrace export --input YOUR.trace --xpath "
                    "'/trace-toc/run[" +
                    std::to_string(*runs.begin()) + "]/data/table[@schema=\"" + std::string(kind) +
                    "\"]' --output profile.xml")
      .WithPath(first->store.SchemaPath());
}

}  // namespace

Status LeftOutParts::LeaveOut(WarningCode code, const std::string& part, const Status& error,
                              const std::string& lost, PartRole role) {
  const std::string& path = error.path();
  std::string what = std::string(ErrorCodeName(error.code())) + ": " + error.message();
  std::string where;
  if (error.line()) where += "line " + std::to_string(*error.line());
  if (error.offset())
    where += (where.empty() ? "" : ", ") + ("byte " + std::to_string(*error.offset()));
  if (!where.empty()) what += " (at " + where + ")";
  // A file lost in a copy, not one nested in a zip of the bundle.
  bool missing = !path.empty() && path.find("!/") == std::string::npos && !files_.Contains(path);
  std::string message;
  if (path.empty()) {
    message = part + " left out (" + lost + "): " + what;
  } else if (missing) {
    message = part + " left out: " + root_ + path + " is missing (" + lost + ")";
  } else {
    message = part + " left out: " + root_ + path + " is damaged (" + lost + "): " + what;
  }
  return Record(error, code, std::move(message), role);
}

Status LeftOutParts::Record(const Status& error, WarningCode code, std::string message,
                            PartRole role) {
  if (error.code() == ErrorCode::kLimitExceeded) {
    if (!ended_) ended_ = error;
    return error;
  }
  builder_.AddWarning(code, std::move(message));
  if (role == PartRole::kSamples && !first_) first_ = error;
  return OkStatus();
}

std::string ItsSamples(std::optional<uint64_t> count) {
  if (!count) return "its samples";
  return "its " + Thousands(*count) + (*count == 1 ? " sample" : " samples");
}

Status NoSamplesError(const FormTemplate* form, const BundleLayout& layout,
                      const std::vector<Table>& tables) {
  std::vector<std::string> instruments;
  bool legacy = layout.has_sampler_files;
  bool allocations = false;
  if (form) {
    for (const std::string& type : form->instrument_types) {
      instruments.push_back(InstrumentName(type));
      legacy = legacy || EndsWith(type, ".coresampler") || EndsWith(type, ".sampler");
      allocations = allocations || EndsWith(type, ".oa");
    }
  }
  if (allocations && layout.allocation_runs.empty()) {
    return Status(ErrorCode::kBundleNoSamples,
                  "this recording's Allocations events (" + AllocationEventsPath("<N>", "<pid>") +
                      ") are not in this copy of it (its instruments: " + JoinList(instruments) +
                      "); copy the whole .trace folder, or export a Deep Copy of its call tree");
  }
  if (legacy) {
    return Status(ErrorCode::kBundleNoSamples,
                  "this recording's legacy Time Profiler samples (" + SamplerPath("<N>", "<UUID>") +
                      ") cannot be read without their run archives (" +
                      RunArchivePath("<UUID>", "<N>") +
                      "), which hold their backtraces; copy the whole .trace folder, or export a "
                      "Deep Copy of its call tree");
  }
  // The sample tables of other kinds, which this version cannot decode yet.
  for (std::string_view kind : tables::CpuSampleSchemas(false)) {
    if (tables::FindTable(kind)->from_bundles) continue;
    bool present = std::any_of(tables.begin(), tables.end(),
                               [kind](const Table& table) { return table.name() == kind; });
    if (present) return UndecodedSamplesError(kind, tables);
  }
  std::set<std::string> names;
  for (const Table& table : tables) names.insert(table.name());
  std::vector<std::string> table_list(names.begin(), names.end());
  std::string message = "this recording holds no CPU samples (no time-profile table)";
  message += instruments.empty() ? "" : "; its instruments: " + JoinList(instruments);
  message += table_list.empty() ? "; it has no tables" : "; its tables: " + JoinList(table_list);
  message +=
      ". Record with the Time Profiler instrument to profile CPU use, or Allocations for memory.";
  return Status(ErrorCode::kBundleNoSamples, message);
}

}  // namespace instrumentscope::trace_bundle
