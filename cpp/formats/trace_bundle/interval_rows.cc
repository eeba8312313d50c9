#include "formats/trace_bundle/interval_rows.h"

#include <memory>
#include <string>

#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/row_decoder.h"
#include "formats/trace_bundle/tables.h"
#include "tables/consumers.h"

namespace instrumentscope::trace_bundle {
namespace {

using tables::TypedRow;

// Every row of `rows` through the entry's consumer, counted into `events`
// as they pass; the first row that cannot be read or makes no interval fails
// the table, located in its bulkstore.
Result<tables::IntervalTable> ConsumeRows(BundleContext& bundle, const Table& table,
                                          const tables::TableEntry& entry, const TableRows& rows,
                                          uint64_t* events) {
  RowDecoder decoder(bundle, table, entry, rows.layout());
  if (!decoder.missing().empty()) {
    return Status(ErrorCode::kBundleUnsupported, decoder.missing()).WithPath(rows.path());
  }
  std::unique_ptr<tables::IntervalConsumer> consumer =
      tables::MakeConsumer(entry, table.run(), decoder.roles(), decoder);
  tables::RowObserver* observer = bundle.row_observer;
  if (observer) observer->StartTable(entry, table.run(), decoder.roles());
  TypedRow typed;
  for (uint64_t i = 0; i < rows.size(); ++i) {
    if (rows.IsPadding(i)) continue;
    ++*events;
    Status status = decoder.Decode(rows.row(i), &typed);
    if (status.ok() && observer) observer->Row(typed, decoder);
    if (status.ok()) {
      status = consumer->Add(typed);
      if (!status.ok()) status = Status(ErrorCode::kBundleCorrupt, "a row " + status.message());
    }
    if (!status.ok()) return rows.InRow(status, i);
  }
  return consumer->Finish();
}

}  // namespace

Status ReadIntervalTable(BundleContext& bundle, const Table& table, const tables::TableEntry& entry,
                         tables::TableCommitter& committer, IntervalTableRead* result) {
  Status status = [&]() -> Status {
    auto rows = ReadRows(bundle.files, table);
    if (!rows.ok()) return rows.status();
    auto intervals = ConsumeRows(bundle, table, entry, *rows, &result->rows);
    if (!intervals.ok()) {
      // Listed with all its rows, not those read before the one that failed.
      result->rows = rows->CountEvents();
      return intervals.status();
    }
    return committer.Commit(intervals.take());
  }();
  if (status.ok()) {
    result->read = true;
    return OkStatus();
  }
  result->left_out = true;
  std::string number = std::to_string(table.run());
  return bundle.left_out.LeaveOut(WarningCode::kTableUnreadable,
                                  "the " + table.name() + " table of run " + number, status,
                                  std::string(entry.lost), PartRole::kDetails);
}

}  // namespace instrumentscope::trace_bundle
