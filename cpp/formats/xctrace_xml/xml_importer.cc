#include "formats/xctrace_xml/xml_importer.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "base/threads.h"
#include "formats/xctrace_xml/document_reader.h"
#include "formats/xctrace_xml/labels.h"
#include "formats/xctrace_xml/table_schema.h"
#include "formats/xctrace_xml/xml_parse.h"
#include "model/profile_builder.h"
#include "tables/samples.h"

namespace instrumentscope::xctrace_xml {
namespace {

Status NoSampleTableError(const std::vector<TableSummary>& tables, std::optional<uint32_t> run) {
  std::string message = "this export holds no CPU samples";
  if (tables.empty()) {
    message += ": it has no <node> tables at all.";
  } else {
    constexpr size_t kListed = 10;
    std::vector<std::string> listed;
    for (size_t i = 0; i < tables.size() && i < kListed; ++i) {
      const TableSummary& table = tables[i];
      listed.push_back(table.schema + " (run " + std::to_string(table.run) + ", " +
                       Plural(table.rows, "row") + ")");
    }
    if (tables.size() > kListed) {
      listed.push_back("and " + std::to_string(tables.size() - kListed) + " more");
    }
    message += "; its tables are: " + JoinList(listed) + ".";
  }
  uint32_t export_run = run.value_or(tables.empty() ? 1 : tables.front().run);
  message +=
      " Export the Time Profiler's table instead:\n  " + ExportCommand(export_run, "time-profile");
  return Status(ErrorCode::kXmlNoSampleTable, message);
}

class XmlImporter final : public StreamImporter {
 public:
  XmlImporter(ProfileBuilder& builder, const ImportOptions& options)
      : builder_(builder),
        options_(options),
        reader_(builder, options),
        parse_(StartXmlParse(options.limits, reader_, ThreadsWanted(options.threads))) {
    builder.NoteThreads(parse_->threads());
  }

  Status Feed(ByteSpan bytes) override { return parse_->Feed(bytes); }
  Status Finish() override;

 private:
  ProfileBuilder& builder_;
  const ImportOptions& options_;
  DocumentReader reader_;
  std::unique_ptr<XmlParse> parse_;
};

Status XmlImporter::Finish() {
  RETURN_IF_ERROR(parse_->Finish());
  RETURN_IF_ERROR(reader_.Finish());

  if (reader_.is_table_of_contents()) return reader_.table_of_contents().Error();
  const std::vector<TableSummary>& tables = reader_.tables();
  for (const TableSummary& table : tables) builder_.AddTable(table);
  const std::set<uint32_t>& runs_seen = reader_.runs();
  if (options_.run && !runs_seen.count(*options_.run)) {
    std::string runs = JoinList(runs_seen, ", ", [](uint32_t run) { return std::to_string(run); });
    return Status(ErrorCode::kRunNotFound, "this export has no run " +
                                               std::to_string(*options_.run) + "; it has run" +
                                               (runs_seen.size() == 1 ? " " : "s ") + runs);
  }
  auto in_run = [this](const TableSummary& table) {
    return !options_.run || *options_.run == table.run;
  };
  bool any_sample_table = std::any_of(tables.begin(), tables.end(), [&](const auto& table) {
    return table.has_cpu_samples && in_run(table);
  });
  // Only read when ImportOptions::intervals is on.
  const std::set<uint32_t>& interval_runs = reader_.runs_with_interval_tables();
  bool any_interval_table =
      options_.run ? interval_runs.count(*options_.run) > 0 : !interval_runs.empty();
  if (!any_sample_table && !any_interval_table) return NoSampleTableError(tables, options_.run);
  if (builder_.total_samples() == 0 && builder_.total_intervals() == 0) {
    // Nothing read: the first table left out says why.
    if (reader_.first_left_out()) return *reader_.first_left_out();
    return Status(ErrorCode::kXmlNoSamples,
                  any_sample_table
                      ? "the CPU sample tables in this export have no rows with samples"
                      : "the interval and event tables in this export have no rows");
  }
  tables::WarnOfRowsWithout(builder_, reader_.rows().rows_without_weight(),
                            reader_.rows().rows_without_thread());
  return OkStatus();
}

}  // namespace

SniffMatch Sniff(ByteSpan prefix) {
  std::string_view text = prefix.as_chars();
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::string_view start = TrimWhitespace(text);
  if (start.empty() || start.front() != '<') return SniffMatch::kNo;
  if (text.find("<trace-query-result") != std::string_view::npos ||
      text.find("<trace-toc") != std::string_view::npos) {
    return SniffMatch::kYes;
  }
  return start.substr(0, 5) == "<?xml" ? SniffMatch::kMaybe : SniffMatch::kNo;
}

std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options) {
  return std::make_unique<XmlImporter>(builder, options);
}

}  // namespace instrumentscope::xctrace_xml
