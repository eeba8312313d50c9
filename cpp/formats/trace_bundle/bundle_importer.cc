#include "formats/trace_bundle/bundle_importer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include "base/text.h"
#include "base/threads.h"
#include "container/zip.h"
#include "formats/trace_bundle/allocation_runs.h"
#include "formats/trace_bundle/bundle_context.h"
#include "formats/trace_bundle/interval_rows.h"
#include "formats/trace_bundle/legacy_runs.h"
#include "formats/trace_bundle/sample_rows.h"
#include "formats/trace_bundle/tables_ahead.h"
#include "formats/trace_bundle/threads.h"
#include "model/profile_builder.h"
#include "tables/catalogue.h"
#include "tables/samples.h"
#include "tables/table_committer.h"

namespace instrumentscope::trace_bundle {
namespace {

// Processes a warning names by pid; the others are counted.
constexpr size_t kPidsListed = 5;

// Instruments whose recordings live only in their own run archives, which
// are not read: what each one's recording held that no profile shows.
struct UnreadInstrument {
  std::string_view type;  // after "com.apple.xray.instrument-type."
  const char* lost;
};
constexpr UnreadInstrument kUnreadInstruments[] = {
    {"vmtrack", "its snapshots of the process's VM regions are in no profile"},
    {"homeleaks", "the leaked blocks it found are in no profile"},
    {"UIAutomation", "its script's log is in no profile"},
};

// The catalogue's entry of a table a bundle's rows are read for, else null:
// a table only listed, with its row count.
const tables::TableEntry* EntryOf(const Table& table) {
  const tables::TableEntry* entry = tables::FindTable(table.name());
  return entry && entry->from_bundles ? entry : nullptr;
}

bool NamesThreadsOrProcesses(const tables::TableEntry& entry) {
  return entry.consumer == tables::Consumer::kThreadNames ||
         entry.consumer == tables::Consumer::kProcessNames;
}

// "indexed-store-17" of "corespace/run1/core/stores/indexed-store-17/".
std::string StoreName(const StoreFolder& store) {
  std::string_view folder(store.folder);
  folder.remove_suffix(1);
  return std::string(BaseName(folder));
}

// One import of one bundle, in the order its parts are read.
class BundleImport {
 public:
  // `root`: the bundle's folder in the input, for warnings.
  BundleImport(BundleFiles& files, ProfileBuilder& builder, const ImportOptions& options,
               std::string root)
      : bundle_(files, builder, options, std::move(root)) {}

  Status Run();
  void ShowRows(tables::RowObserver* observer) { bundle_.row_observer = observer; }

 private:
  Status ReadTemplate();
  // NO_FORM_TEMPLATE, once the tables are read: what is lost without it.
  void SayWhatNoTemplateCosts();
  Status CheckRunExists() const;
  Status OpenTables();
  // Intervals are read after names (they name processes), in the
  // catalogue's order, and only when ImportOptions::intervals asks.
  Status ReadIntervals(std::vector<IntervalTableRead>* reads);
  // Whether the table's rows are read as samples, after the other tables.
  bool ReadsSamples(const Table& table) const;
  // What the tables of samples read, planned for the helpers to read ahead
  // while the other tables are read.
  void PlanSampleReads();
  // The tables of CPU samples helpers can read whole (tables_ahead.h): each
  // the one table of its run read as samples.
  std::vector<SampleTablesAhead::Planned> TablesToReadAhead() const;
  // Those tables read on helpers, when there are two of them at least and
  // helpers to read them: else none.
  std::unique_ptr<SampleTablesAhead> ReadTablesAhead(
      const std::vector<SampleTablesAhead::Planned>& tables);
  Status ReadTables();
  // The limit a part reached where it could not end the import (a symbol
  // archive read while naming frames), once it can.
  Status Ended() const;
  Status Finish();

  BundleContext bundle_;
  std::vector<Table> tables_;
};

Status BundleImport::Run() {
  RETURN_IF_ERROR(ReadTemplate());
  RETURN_IF_ERROR(CheckRunExists());
  RETURN_IF_ERROR(OpenTables());
  RETURN_IF_ERROR(ReadTables());
  RETURN_IF_ERROR(ImportLegacyRuns(bundle_));
  RETURN_IF_ERROR(ImportAllocationRuns(bundle_));
  RETURN_IF_ERROR(Ended());
  return Finish();
}

Status BundleImport::ReadTemplate() {
  ProfileBuilder& builder = bundle_.builder;
  // Without one, what it would have named is said once the rest is read
  // (SayWhatNoTemplateCosts).
  if (!bundle_.files.Contains(kFormTemplate)) return OkStatus();
  auto bytes = bundle_.files.ReadAsStored(std::string(kFormTemplate));
  auto form = bytes.ok() ? ReadFormTemplate(ByteSpan((*bytes)->data(), (*bytes)->size()),
                                            bundle_.options.limits)
                         : Result<FormTemplate>(bytes.status());
  if (!form.ok()) {
    std::string message = "form.template could not be read (" +
                          bundle_.left_out.Located(form.status()).ToString() +
                          "): frames show addresses, not symbols";
    // A template that is there but cannot be read from the bundle is damage
    // like a store's; one that reads but does not parse only warns.
    if (!bytes.ok()) {
      return bundle_.left_out.Record(bytes.status(), WarningCode::kFormTemplateUnreadable, message,
                                     PartRole::kSamples);
    }
    builder.AddWarning(WarningCode::kFormTemplateUnreadable, message);
    return OkStatus();
  }
  bundle_.form = form.take();
  for (const std::string& type : bundle_.form->instrument_types) {
    builder.AddInstrument(InstrumentName(type));
    for (const UnreadInstrument& unread : kUnreadInstruments) {
      if (InstrumentTypeSuffix(type) != unread.type) continue;
      builder.AddWarning(
          WarningCode::kInstrumentNotRead,
          "the " + InstrumentName(type) + " instrument's recording is not read: " + unread.lost);
    }
  }
  for (const auto& [run, details] : bundle_.form->runs) {
    if (details.start_time || !details.summary_lines.empty()) {
      builder.AddRunInfo({run, details.start_time, details.summary_lines});
    }
  }
  for (const std::string& problem : bundle_.form->problems) {
    builder.AddWarning(WarningCode::kFormTemplateDamaged, "form.template: " + problem);
  }
  return OkStatus();
}

void BundleImport::SayWhatNoTemplateCosts() {
  ProfileBuilder& builder = bundle_.builder;
  std::vector<std::string> lost;
  if (builder.has_unnamed_frames()) {
    lost.push_back(bundle_.files.layout().has_symbol_archives
                       ? "frames show addresses, not symbols (the bundle's symbols/ are "
                         "placed by its image lists)"
                       : "frames show addresses, not symbols");
  }
  // Name tables (process-info) name processes without it.
  std::set<int64_t> unnamed = builder.UnnamedProcesses();
  if (!unnamed.empty()) {
    std::vector<int64_t> listed(unnamed.begin(), unnamed.end());
    if (listed.size() > kPidsListed) listed.resize(kPidsListed);
    std::string pids = JoinList(listed, ", ", [](int64_t pid) { return std::to_string(pid); });
    if (unnamed.size() > kPidsListed) pids += "…";
    lost.push_back(std::to_string(unnamed.size()) +
                   (unnamed.size() == 1 ? " process is" : " processes are") +
                   " named by pid alone (" + pids + ")");
  }
  lost.push_back("the instruments that recorded it are not known");
  builder.AddWarning(WarningCode::kNoFormTemplate,
                     "the bundle has no form.template: " + JoinList(lost, "; "));
}

Status BundleImport::CheckRunExists() const {
  const std::optional<uint32_t>& wanted = bundle_.options.run;
  const BundleLayout& layout = bundle_.files.layout();
  std::set<uint32_t> runs = layout.StoreRuns();
  for (const LegacyRunFiles& legacy : layout.legacy_runs) runs.insert(legacy.run);
  for (const AllocationRunFiles& allocations : layout.allocation_runs) runs.insert(allocations.run);
  if (!wanted || runs.count(*wanted)) return OkStatus();
  std::string listing = JoinList(runs, ", ", [](uint32_t run) { return std::to_string(run); });
  return Status(ErrorCode::kRunNotFound,
                "this recording has no run " + std::to_string(*wanted) +
                    (runs.empty() ? "; it has no runs with data" : "; it has runs " + listing));
}

Status BundleImport::OpenTables() {
  for (const StoreFolder& store : bundle_.files.layout().stores) {
    if (bundle_.options.run && store.run.number != *bundle_.options.run) continue;
    auto table = OpenTable(bundle_.files, store);
    if (!table.ok()) {
      std::string run = std::to_string(store.run.number);
      RETURN_IF_ERROR(bundle_.left_out.LeaveOut(
          WarningCode::kBundlePartUnreadable, "a table of run " + run, table.status(),
          "which table " + StoreName(store) + " is, and its rows: run " + run +
              "'s samples, if they are there",
          PartRole::kSamples));
      continue;
    }
    tables_.push_back(table.take());
  }
  return OkStatus();
}

Status BundleImport::ReadIntervals(std::vector<IntervalTableRead>* reads) {
  tables::TableCommitter committer(bundle_.builder);
  auto read = [&](const tables::TableEntry& entry) -> Status {
    for (size_t i = 0; i < tables_.size(); ++i) {
      if (tables_[i].name() != entry.schema) continue;
      // Listed as not read: a table of lower rank holds its signposts.
      if (committer.Repeats(entry, tables_[i].run())) continue;
      RETURN_IF_ERROR(ReadIntervalTable(bundle_, tables_[i], entry, committer, &(*reads)[i]));
    }
    return OkStatus();
  };
  // The tables that repeat one another first, so that their intervals come
  // first in the profile, as the catalogue lists them.
  for (const tables::TableEntry& entry : tables::Catalogue()) {
    if (entry.repeats_rank && entry.from_bundles) RETURN_IF_ERROR(read(entry));
  }
  RETURN_IF_ERROR(committer.CommitHeld());
  for (const tables::TableEntry& entry : tables::Catalogue()) {
    bool intervals = tables::MakesIntervals(entry.consumer) && entry.from_bundles;
    if (intervals && !entry.repeats_rank) RETURN_IF_ERROR(read(entry));
  }
  for (size_t i = 0; i < tables_.size(); ++i) {
    if (committer.LeftOut(tables_[i].run(), tables_[i].name())) (*reads)[i].read = false;
  }
  bundle_.runs_with_intervals = committer.runs_with_intervals();
  return OkStatus();
}

bool BundleImport::ReadsSamples(const Table& table) const {
  const tables::TableEntry* entry = EntryOf(table);
  return entry &&
         (entry->consumer == tables::Consumer::kCpuSamples ||
          (entry->consumer == tables::Consumer::kWeightedEvents && bundle_.options.intervals));
}

void BundleImport::PlanSampleReads() {
  BundleFiles& files = bundle_.files;
  std::vector<std::string> paths;
  auto plan = [&](std::string path) {
    if (files.Contains(path)) paths.push_back(std::move(path));
  };
  // In the order a table is read: its descriptor, its rows, and on its first
  // row its run's arrays.
  for (const Table& table : tables_) {
    if (!ReadsSamples(table)) continue;
    plan(table.store.DescriptorPath());
    plan(table.store.BulkStorePath());
    plan(table.store.run.UniquerDataPath());
    plan(table.store.run.UniquerIndexPath());
  }
  if (paths.empty()) return;
  uint32_t helpers = files.ReadAheadOn(ThreadsWanted(bundle_.options.threads));
  if (helpers == 0) return;
  bundle_.builder.NoteThreads(helpers + 1);
  files.PlanReads(paths);
}

std::vector<SampleTablesAhead::Planned> BundleImport::TablesToReadAhead() const {
  std::vector<SampleTablesAhead::Planned> tables;
  if (bundle_.row_observer) return tables;       // shown rows come in table order
  std::map<uint32_t, uint32_t> read_as_samples;  // by run
  for (const Table& table : tables_) {
    if (ReadsSamples(table)) ++read_as_samples[table.run()];
  }
  for (const Table& table : tables_) {
    const tables::TableEntry* entry = EntryOf(table);
    if (ReadsSamples(table) && entry->consumer == tables::Consumer::kCpuSamples &&
        read_as_samples[table.run()] == 1) {
      tables.push_back(SampleTablesAhead::Planned{&table, entry});
    }
  }
  return tables;
}

std::unique_ptr<SampleTablesAhead> BundleImport::ReadTablesAhead(
    const std::vector<SampleTablesAhead::Planned>& tables) {
  if (tables.size() < 2) return nullptr;
  auto helpers = std::make_unique<HelperThreads>(ThreadsWanted(bundle_.options.threads));
  if (helpers->count() == 0) return nullptr;
  bundle_.builder.NoteThreads(helpers->count() + 1);
  return std::make_unique<SampleTablesAhead>(bundle_, tables, std::move(helpers));
}

Status BundleImport::ReadTables() {
  // Whole tables read ahead take the helpers; else their members are read ahead.
  std::vector<SampleTablesAhead::Planned> ahead = TablesToReadAhead();
  if (ahead.size() < 2) PlanSampleReads();
  // Name tables first, as samples and intervals take their names; the row
  // counts they give are listed in table order.
  std::vector<std::optional<uint64_t>> name_rows(tables_.size());
  for (size_t i = 0; i < tables_.size(); ++i) {
    const tables::TableEntry* entry = EntryOf(tables_[i]);
    if (!entry || !NamesThreadsOrProcesses(*entry)) continue;
    uint64_t rows = 0;
    RETURN_IF_ERROR(ReadNameTable(bundle_, tables_[i], *entry, &rows));
    name_rows[i] = rows;
  }
  std::vector<IntervalTableRead> intervals(tables_.size());
  if (bundle_.options.intervals) RETURN_IF_ERROR(ReadIntervals(&intervals));
  for (size_t i = 0; i < tables_.size(); ++i) {
    // A table left out was counted as far as it could be: 0 rows when its
    // bulkstore cannot be read.
    if (intervals[i].read || intervals[i].left_out) name_rows[i] = intervals[i].rows;
  }
  // Begun once the runs' names are read, which the tables' parts copy.
  std::unique_ptr<SampleTablesAhead> tables_ahead = ReadTablesAhead(ahead);
  for (size_t i = 0; i < tables_.size(); ++i) {
    const Table& table = tables_[i];
    const tables::TableEntry* entry = EntryOf(table);
    if (ReadsSamples(table)) {
      // Each lists the table itself.
      RETURN_IF_ERROR(tables_ahead && tables_ahead->Plans(table)
                          ? tables_ahead->Read(table)
                          : ReadSampleTable(bundle_, table, *entry));
      RETURN_IF_ERROR(Ended());
      continue;
    }
    // Other tables are listed with their row counts; a damaged one only warns.
    uint64_t rows = name_rows[i].value_or(0);
    if (!name_rows[i]) {
      auto count = CountRows(bundle_.files, table);
      if (count.ok()) {
        rows = *count;
      } else {
        std::string run = std::to_string(table.run());
        RETURN_IF_ERROR(bundle_.left_out.LeaveOut(
            WarningCode::kTableUnreadable, "the " + table.name() + " table of run " + run,
            count.status(), "its row count: it is listed with 0 rows", PartRole::kDetails));
      }
    }
    TableSummary summary{table.run(), table.name(), rows, false};
    summary.has_intervals = intervals[i].read && rows > 0;
    bundle_.builder.AddTable(std::move(summary));
  }
  return OkStatus();
}

Status BundleImport::Ended() const {
  const std::optional<Status>& ended = bundle_.left_out.ended();
  return ended ? *ended : OkStatus();
}

Status BundleImport::Finish() {
  ProfileBuilder& builder = bundle_.builder;
  const std::set<uint32_t>& runs = bundle_.runs_with_samples;
  const std::set<uint32_t>& interval_runs = bundle_.runs_with_intervals;
  // Nothing with samples could be read: the first part that failed says why.
  if (builder.total_samples() == 0 && bundle_.left_out.first()) return *bundle_.left_out.first();
  if (runs.empty()) {
    Status none =
        NoSamplesError(bundle_.form ? &*bundle_.form : nullptr, bundle_.files.layout(), tables_);
    // Intervals alone are the recording only when it has no samples of a
    // kind this version cannot read: those it must say how to export.
    if (interval_runs.empty() || none.code() != ErrorCode::kBundleNoSamples) return none;
  }
  if (builder.total_samples() == 0 && interval_runs.empty()) {
    return Status(ErrorCode::kBundleNoSamples, "the recording's time-profile tables are empty");
  }
  const std::optional<FormTemplate>& form = bundle_.form;
  tables::WarnOfRowsWithout(builder, bundle_.sample_rows_without_weight,
                            bundle_.sample_rows_without_thread);
  if (!bundle_.files.Contains(kFormTemplate)) SayWhatNoTemplateCosts();
  bool has_image_lists =
      form && std::any_of(form->runs.begin(), form->runs.end(),
                          [](const auto& run) { return !run.second.images.empty(); });
  if (form && bundle_.files.layout().has_symbol_archives && !has_image_lists &&
      builder.total_samples() > 0) {
    builder.AddWarning(WarningCode::kSymbolsNotRead,
                       "this bundle's symbols (" + SymbolArchivePath("*") +
                           ") cannot be placed without the image lists of its form.template: "
                           "frames are named by address");
  }
  // A recording of intervals alone opens on them.
  const std::set<uint32_t>& shown = builder.total_samples() > 0 ? runs : interval_runs;
  uint32_t preferred = *shown.begin();
  if (form && form->selected_run && shown.count(*form->selected_run))
    preferred = *form->selected_run;
  builder.SetPreferredRun(preferred);
  return OkStatus();
}

// A zipped bundle: random access needs the whole archive, so it is held.
class ZipBundleImporter final : public StreamImporter {
 public:
  ZipBundleImporter(ProfileBuilder& builder, const ImportOptions& options)
      : builder_(builder), options_(options) {}

  Status Feed(ByteSpan bytes) override {
    archive_.insert(archive_.end(), bytes.data(), bytes.data() + bytes.size());
    return OkStatus();
  }

  Status Finish() override {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(std::move(archive_));
    auto tree = ZipTree::Open(bytes, options_.limits);
    if (!tree.ok()) return tree.status();
    return ImportBundle(**tree, builder_, options_);
  }

 private:
  ProfileBuilder& builder_;
  const ImportOptions& options_;
  std::vector<uint8_t> archive_;
};

Status Import(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options,
              tables::RowObserver* observer) {
  std::string root;
  ASSIGN_OR_RETURN(root, FindBundleRoot(files));
  SubTree tree(files, root, options.limits);
  BundleFiles bundle(tree, options.limits);
  BundleImport import(bundle, builder, options, root);
  import.ShowRows(observer);
  return import.Run().WithPathPrefix(root);
}

}  // namespace

SniffMatch Sniff(ByteSpan prefix) {
  return LooksLikeZip(prefix) ? SniffMatch::kYes : SniffMatch::kNo;
}

std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options) {
  return std::make_unique<ZipBundleImporter>(builder, options);
}

Status ImportBundle(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options) {
  return Import(files, builder, options, nullptr);
}

Status ImportBundleShowingRows(const FileTree& files, ProfileBuilder& builder,
                               const ImportOptions& options, tables::RowObserver& observer) {
  return Import(files, builder, options, &observer);
}

}  // namespace instrumentscope::trace_bundle
