#include "formats/trace_bundle/bundle_importer.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>

#include "base/byte_reader.h"
#include "base/checked_math.h"
#include "base/integer_map.h"
#include "base/text.h"
#include "container/inflate.h"
#include "container/keyed_archive.h"
#include "container/zip.h"
#include "formats/names.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/image_list.h"
#include "formats/trace_bundle/legacy_sampler.h"
#include "formats/trace_bundle/store.h"
#include "formats/trace_bundle/symbol_archive.h"
#include "formats/trace_bundle/uniquer.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr std::string_view kFormTemplate = "form.template";
constexpr std::string_view kRunPrefix = "corespace/run";
constexpr std::string_view kSampleTable = "time-profile";
constexpr std::string_view kThreadNameTable = "thread-name";
constexpr std::string_view kThreadInfoTable = "thread-info";    // Instruments 16
constexpr std::string_view kProcessInfoTable = "process-info";  // Instruments 16
// A name field's string index when the thread has no name.
constexpr uint64_t kNoString = 0xFFFFFFFF;
constexpr std::string_view kArrayUniquer = "core/uniquing/arrayUniquer/integeruniquer.";
constexpr std::string_view kStrings = "core/uniquing/strings";
constexpr std::string_view kSymbolStores = "symbols/stores/";
// Instruments 4.5–9.2: Trace<N>.run/<UUID>-sampler.data, described by
// instrument_data/<UUID>/run_data/<N>.run.zip.
constexpr std::string_view kSamplerSuffix = "-sampler.data";
constexpr std::string_view kSamplerTable = "sampler";
// Backtrace slots Instruments fills when it has no address (no caller known).
constexpr uint64_t kNoAddress = UINT64_MAX;
constexpr uint64_t kNoAddressEither = UINT64_MAX - 1;
// Stack references in rows: this one means "no backtrace".
constexpr uint64_t kNoStack = 0xFFFFFFFF;

// The folder holding the bundle: the top of the tree or one folder down.
Result<std::string> FindBundleRoot(const FileTree& files) {
  std::set<std::string> roots;
  for (const std::string& path : files.paths()) {
    if (IsJunkPath(path)) continue;
    for (std::string_view marker :
         {std::string_view("form.template"), std::string_view("corespace/")}) {
      size_t at = path.find(marker);
      if (at == std::string::npos) continue;
      std::string_view prefix = std::string_view(path).substr(0, at);
      // At the top ("") or one folder down ("x.trace/").
      if (prefix.empty() || (prefix.back() == '/' && prefix.find('/') == prefix.size() - 1)) {
        roots.insert(std::string(prefix));
      }
    }
  }
  if (roots.size() == 1) return *roots.begin();
  if (roots.empty()) {
    std::set<std::string> tops;
    for (const std::string& path : files.paths()) {
      if (!IsJunkPath(path)) tops.insert(path.substr(0, path.find('/')));
    }
    std::string listing;
    for (const std::string& top : tops) {
      if (listing.size() > 200) {
        listing += ", …";
        break;
      }
      listing += (listing.empty() ? "" : ", ") + top;
    }
    return Status(ErrorCode::kUnknownFormat,
                  "no Instruments .trace bundle here: neither a form.template nor a corespace/ "
                  "folder at the top or one folder down (found: " +
                      (listing.empty() ? std::string("nothing") : listing) + ")");
  }
  std::string listing;
  for (const std::string& root : roots) listing += (listing.empty() ? "" : ", ") + root;
  return Status(ErrorCode::kBundleUnsupported,
                "several .trace bundles in one input (" + listing + "); give them one at a time");
}

// corespace/run<N>/core/stores/<store>/schema.xml → run N, store folder.
struct StoreLocation {
  uint32_t run;
  std::string run_folder;  // "corespace/run1/"
  std::string folder;      // "corespace/run1/core/stores/indexed-store-12/"
};

// The N of "run<N>" or "Trace<N>.run": 1 or more, without leading zeros.
std::optional<uint32_t> RunNumber(std::string_view digits) {
  uint32_t run = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), run);
  if (digits.empty() || digits[0] == '0' || error != std::errc() ||
      end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return run;
}

std::vector<StoreLocation> FindStores(const FileTree& files) {
  std::vector<StoreLocation> stores;
  for (const std::string& path : files.paths()) {
    if (!StartsWith(path, kRunPrefix) || !EndsWith(path, "/schema.xml")) continue;
    size_t digits_end = path.find('/', kRunPrefix.size());
    std::string_view digits =
        std::string_view(path).substr(kRunPrefix.size(), digits_end - kRunPrefix.size());
    std::optional<uint32_t> run = RunNumber(digits);
    std::string folder = path.substr(0, path.size() - std::strlen("schema.xml"));
    if (!run || folder.find("/core/stores/") == std::string::npos) continue;
    stores.push_back(StoreLocation{*run, path.substr(0, digits_end + 1), folder});
  }
  std::stable_sort(stores.begin(), stores.end(),
                   [](const StoreLocation& a, const StoreLocation& b) { return a.run < b.run; });
  return stores;
}

// The name `key` has in `names`, or "".
template <typename Key>
std::string NameIn(const std::map<Key, std::string>& names, Key key) {
  auto named = names.find(key);
  return named == names.end() ? std::string() : named->second;
}

// A u8…u64 little-endian field of a row.
uint64_t ReadField(ByteSpan row, FieldSlot slot) {
  ByteReader reader(row);
  if (slot.width == 0 || !reader.Seek(slot.offset).ok()) return 0;
  auto value = reader.ReadUIntLe(slot.width);
  return value.ok() ? *value : 0;
}

class BundleReader {
 public:
  BundleReader(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options)
      : files_(files), builder_(builder), options_(options) {}

  Status Import();

 private:
  static constexpr int64_t kNoPid = INT64_MIN;
  // A process's frames by address: leaves apart from callers, which are
  // looked up inside their call.
  struct ProcessFrames {
    IntegerMap leaves;
    IntegerMap callers;
  };
  // The stack prefix of a stack's root-side part, below a leaf frame.
  struct RootPart {
    StackId stack;
    uint64_t addresses;  // in the part, for the depth limit
  };
  struct RunState {
    std::string folder;  // "corespace/run1/"
    std::optional<Uniquer> uniquer;
    std::map<uint64_t, std::string> thread_names;  // thread ref → name (thread-name, thread-info)
    std::map<int64_t, std::string> process_names;  // pid → name, from the process-info table
    // (timeline, thread ref, process ref) → builder thread
    std::map<std::tuple<ProfileBuilder::TimelineId, uint64_t, uint64_t>, ProfileBuilder::ThreadId>
        threads;
    std::unordered_map<uint64_t, StackId> stacks;       // stack ref → stack
    std::unordered_map<uint64_t, RootPart> root_parts;  // a stack's last part → its prefix
    // pid (kNoPid: no symbols) → its frames: unsymbolicated stacks repeat
    // addresses in hundreds of thousands of distinct stacks.
    std::unordered_map<int64_t, ProcessFrames> frames;
  };
  std::map<ImageUuid, std::optional<SymbolArchive>> archives_;           // unreadable ones: nullopt
  std::map<uint32_t, std::map<int64_t, SymbolTable>> archived_symbols_;  // by run, then pid
  struct Store {
    StoreLocation location;
    StoreSchema schema;
  };

  // Reads a bundle file, inflating it when it is a raw zlib stream (as
  // stores and uniquers are from Instruments 9.3 on), within the limits.
  Result<SharedBytes> ReadMember(const std::string& path);
  // Adds a member's expanded size to the bundle's, within its limit.
  Status CountMemberBytes(const std::string& path, uint64_t size);
  // The rows of a table that is listed, not read: inflated a piece at a time.
  Result<uint64_t> CountRows(const Store& store);
  Status ReadTemplate();
  Result<Store> OpenStore(const StoreLocation& location);
  Result<BulkStore> OpenRows(const Store& store, RowLayout* layout);
  Status ImportSamples(const Store& store);
  // The legacy Time Profiler's runs; adds the runs it imported.
  Status ImportLegacySamples(std::set<uint32_t>* runs_with_samples);
  Status ImportLegacyRun(uint32_t run, const std::string& sampler_path,
                         const std::string& archive_path);
  // The single file of a zip inside the bundle (the legacy run archives).
  Result<std::vector<uint8_t>> ReadZippedFile(const std::string& path, std::string* member_path);
  // Symbols of a legacy run that form.template lacks (Instruments 4.5), by pid.
  const std::map<int64_t, SymbolTable>& ArchivedSymbols(uint32_t run);
  Status ReadThreadNames(const Store& store, RunState* run);
  Status ReadThreadInfo(const Store& store, RunState* run);
  Status ReadProcessInfo(const Store& store, RunState* run);
  Result<std::vector<std::string>> RunStrings(const Store& store);
  // Calls `visit` with the layout and every row of a table that is no padding.
  Status VisitRows(const Store& store,
                   const std::function<void(const RowLayout&, ByteSpan)>& visit);
  Result<const Uniquer*> RunUniquer(uint32_t run);
  Result<ProfileBuilder::ThreadId> Thread(uint32_t run, uint64_t thread_ref,
                                          uint64_t thread_ref_step, uint64_t process_ref,
                                          ProfileBuilder::TimelineId timeline);
  Result<StackId> Stack(uint32_t run, uint64_t stack_ref);
  // The frame at `address` of a stack of the process with these symbols or
  // images (either may be null); a caller is looked up inside its call.
  FrameId NameFrame(const SymbolTable* symbols, const std::vector<ProcessImage>* images,
                    uint64_t address, bool caller);
  // The image of the process at `address`, and the function the symbol
  // archives (Instruments 12+) name there, if any.
  struct ArchiveMatch {
    const ProcessImage* image = nullptr;
    std::optional<SymbolArchive::Function> function;
  };
  ArchiveMatch ArchiveFrame(const std::vector<ProcessImage>& images, uint64_t address, bool caller);
  const SymbolArchive* Archive(const ImageUuid& uuid);
  Result<int64_t> ProcessId(uint32_t run, uint64_t process_ref);
  Status NoSamplesError(const std::vector<Store>& stores) const;
  const RunDetails* Details(uint32_t run) const;

  const FileTree& files_;
  ProfileBuilder& builder_;
  const ImportOptions& options_;
  std::optional<FormTemplate> form_;
  std::map<uint32_t, RunState> runs_;
  uint64_t member_bytes_ = 0;        // all members read so far, expanded
  std::vector<FrameId> frames_;      // scratch
  std::vector<uint64_t> addresses_;  // scratch
};

Result<SharedBytes> BundleReader::ReadMember(const std::string& path) {
  auto bytes = files_.Read(path);
  if (!bytes.ok()) return bytes.status().WithPath(path);
  SharedBytes member = bytes.take();
  if (LooksLikeZlib(ByteSpan(member->data(), member->size()))) {
    auto inflated = Inflate(ByteSpan(member->data(), member->size()), InflateFormat::kZlib,
                            options_.limits.max_member_bytes);
    if (!inflated.ok()) return inflated.status().WithPath(path);
    member = std::make_shared<const std::vector<uint8_t>>(inflated.take());
  }
  RETURN_IF_ERROR(CountMemberBytes(path, member->size()));
  return member;
}

Status BundleReader::CountMemberBytes(const std::string& path, uint64_t size) {
  member_bytes_ += size;
  if (member_bytes_ > options_.limits.max_decompressed_bytes) {
    return Status(ErrorCode::kLimitExceeded,
                  "the bundle's files expand to more than " +
                      std::to_string(options_.limits.max_decompressed_bytes) +
                      " bytes (limits.maxDecompressedBytes)")
        .WithPath(path);
  }
  return OkStatus();
}

Result<uint64_t> BundleReader::CountRows(const Store& store) {
  std::string path = store.location.folder + "bulkstore";
  auto bytes = files_.Read(path);
  if (!bytes.ok()) return bytes.status().WithPath(path);
  ByteSpan member((*bytes)->data(), (*bytes)->size());
  BulkStoreRowCounter counter;
  if (LooksLikeZlib(member)) {
    Status inflated = InflateStream(member, InflateFormat::kZlib, options_.limits.max_member_bytes,
                                    0, [&](ByteSpan piece) { counter.Feed(piece); });
    if (!inflated.ok()) return inflated.WithPath(path);
  } else {
    counter.Feed(member);
  }
  RETURN_IF_ERROR(CountMemberBytes(path, counter.size()));
  auto count = counter.Finish();
  if (!count.ok()) return count.status().WithPath(path);
  return count;
}

const RunDetails* BundleReader::Details(uint32_t run) const {
  if (!form_) return nullptr;
  auto entry = form_->runs.find(run);
  return entry == form_->runs.end() ? nullptr : &entry->second;
}

Status BundleReader::ReadTemplate() {
  if (!files_.Contains(kFormTemplate)) {
    builder_.AddWarning("NO_FORM_TEMPLATE",
                        "the bundle has no form.template: frames show addresses, not symbols, "
                        "and processes have no names");
    return OkStatus();
  }
  auto bytes = files_.Read(std::string(kFormTemplate));
  if (!bytes.ok()) return bytes.status();
  auto form = ReadFormTemplate(ByteSpan((*bytes)->data(), (*bytes)->size()), options_.limits);
  if (!form.ok()) {
    builder_.AddWarning("FORM_TEMPLATE_UNREADABLE", "form.template could not be read (" +
                                                        form.status().ToString() +
                                                        "): frames show addresses, not symbols");
    return OkStatus();
  }
  form_ = form.take();
  for (const std::string& type : form_->instrument_types)
    builder_.AddInstrument(InstrumentName(type));
  for (const std::string& problem : form_->problems) {
    builder_.AddWarning("FORM_TEMPLATE_DAMAGED", "form.template: " + problem);
  }
  return OkStatus();
}

Result<BundleReader::Store> BundleReader::OpenStore(const StoreLocation& location) {
  std::string path = location.folder + "schema.xml";
  SharedBytes bytes;
  ASSIGN_OR_RETURN(bytes, ReadMember(path));
  auto schema = ParseStoreSchema(ByteSpan(bytes->data(), bytes->size()));
  if (!schema.ok()) return schema.status().WithPath(path);
  return Store{location, schema.take()};
}

Result<BulkStore> BundleReader::OpenRows(const Store& store, RowLayout* layout) {
  std::string path = store.location.folder + "bulkstore";
  SharedBytes bytes;
  ASSIGN_OR_RETURN(bytes, ReadMember(path));
  auto rows = BulkStore::Open(bytes);
  if (!rows.ok()) return rows.status().WithPath(path);

  std::optional<StoreDescriptor> descriptor;
  std::string descriptor_path = store.location.folder + "bulkstore_descriptor";
  SharedBytes descriptor_bytes;  // the archive's strings point into it
  if (files_.Contains(descriptor_path)) {
    ASSIGN_OR_RETURN(descriptor_bytes, ReadMember(descriptor_path));
    auto archive = KeyedArchive::Parse(ByteSpan(descriptor_bytes->data(), descriptor_bytes->size()),
                                       options_.limits);
    if (!archive.ok()) return archive.status().WithPath(descriptor_path);
    auto read = ReadDescriptor(*archive);
    if (!read.ok()) return read.status().WithPath(descriptor_path);
    descriptor = read.take();
  }
  auto laid_out = LayoutRow(store.schema, descriptor, rows->row_size());
  if (!laid_out.ok()) return laid_out.status().WithPath(path);
  *layout = laid_out.take();
  return rows;
}

Result<const Uniquer*> BundleReader::RunUniquer(uint32_t run) {
  RunState& state = runs_[run];
  if (!state.uniquer) {
    std::string base = runs_[run].folder + std::string(kArrayUniquer);
    SharedBytes index, data;
    if (files_.Contains(base + "index")) {
      ASSIGN_OR_RETURN(index, ReadMember(base + "index"));
    }
    ASSIGN_OR_RETURN(data, ReadMember(base + "data"));
    auto uniquer = Uniquer::Open(index, data, base + "data");
    if (!uniquer.ok()) return uniquer.status().WithPath(base + "index");
    state.uniquer = uniquer.take();
  }
  return &*state.uniquer;
}

Result<int64_t> BundleReader::ProcessId(uint32_t run, uint64_t process_ref) {
  // A process record is [pid, name string]; the name is a placeholder ("TODO").
  const Uniquer* uniquer;
  ASSIGN_OR_RETURN(uniquer, RunUniquer(run));
  std::vector<uint64_t> record;
  ASSIGN_OR_RETURN(record, uniquer->Head(process_ref, 1));
  if (record.empty()) return int64_t{-1};
  return static_cast<int64_t>(record[0]);
}

Result<ProfileBuilder::ThreadId> BundleReader::Thread(uint32_t run, uint64_t thread_ref,
                                                      uint64_t thread_ref_step,
                                                      uint64_t process_ref,
                                                      ProfileBuilder::TimelineId timeline) {
  RunState& state = runs_[run];
  auto key = std::make_tuple(timeline, thread_ref, process_ref);
  auto cached = state.threads.find(key);
  if (cached != state.threads.end()) return cached->second;

  // A thread reference is a multiple of the index of its [tid, process] record.
  const Uniquer* uniquer;
  ASSIGN_OR_RETURN(uniquer, RunUniquer(run));
  if (thread_ref % thread_ref_step != 0) {
    return Status(ErrorCode::kBundleCorrupt, "thread reference " + std::to_string(thread_ref) +
                                                 " is no multiple of " +
                                                 std::to_string(thread_ref_step));
  }
  std::vector<uint64_t> record;
  ASSIGN_OR_RETURN(record, uniquer->Head(thread_ref / thread_ref_step, 2));
  if (record.empty()) {
    return Status(ErrorCode::kBundleCorrupt,
                  "the record of thread reference " + std::to_string(thread_ref) + " is empty");
  }
  uint64_t tid = record[0];
  int64_t pid;
  ASSIGN_OR_RETURN(pid, ProcessId(run, record.size() > 1 ? record[1] : process_ref));

  // Names from form.template first, else from the run's own tables.
  const RunDetails* details = Details(run);
  std::string name = details ? NameIn(details->thread_names, tid) : std::string();
  if (name.empty()) name = NameIn(state.thread_names, thread_ref);
  std::string process_name = details ? NameIn(details->process_names, pid) : std::string();
  if (process_name.empty()) process_name = NameIn(state.process_names, pid);
  ThreadDesc desc;
  std::string label = ThreadLabel(name, tid);
  desc.thread_name = label;
  desc.tid = tid;
  desc.process_name = process_name;
  desc.pid = pid;
  ProfileBuilder::ThreadId id = builder_.InternThread(timeline, desc);
  state.threads.emplace(key, id);
  return id;
}

Result<StackId> BundleReader::Stack(uint32_t run, uint64_t stack_ref) {
  if (stack_ref == kNoStack) return kEmptyStack;
  RunState& state = runs_[run];
  auto cached = state.stacks.find(stack_ref);
  if (cached != state.stacks.end()) return cached->second;

  // The row's stack is a node of parts, each (process ref << 32 | frames
  // ref); the frames arrays, concatenated, list addresses leaf first.
  const Uniquer* uniquer;
  ASSIGN_OR_RETURN(uniquer, RunUniquer(run));
  uint64_t max_frames = options_.limits.max_frames_per_stack;
  auto too_deep = [max_frames](const Status& status) {
    if (status.code() != ErrorCode::kLimitExceeded) return status;
    return Status(ErrorCode::kLimitExceeded, "a backtrace has more than " +
                                                 std::to_string(max_frames) +
                                                 " frames (limits.maxFramesPerStack)")
        .WithPath(status.path())
        .WithOffset(status.offset().value_or(0));
  };
  std::vector<uint64_t> parts;
  Status read = uniquer->AppendArray(stack_ref, &parts, max_frames);
  if (!read.ok()) return too_deep(read);
  if (parts.empty()) {
    state.stacks.emplace(stack_ref, kEmptyStack);
    return kEmptyStack;
  }
  // Symbols: in form.template up to Instruments 11, in symbols/ placed by
  // the process's image list from Instruments 12 on.
  const SymbolTable* symbols = nullptr;
  const std::vector<ProcessImage>* images = nullptr;
  int64_t frame_pid = kNoPid;
  uint64_t process_ref = parts.back() >> 32;
  if (Details(run)) {
    int64_t pid;
    ASSIGN_OR_RETURN(pid, ProcessId(run, process_ref));
    auto table = Details(run)->symbols.find(pid);
    if (table != Details(run)->symbols.end()) symbols = &table->second;
    auto listed = Details(run)->images.find(pid);
    if (listed != Details(run)->images.end()) images = &listed->second;
    if (symbols || images) frame_pid = pid;
  }
  ProcessFrames& known = state.frames[frame_pid];
  // Appends the frames of addresses_[first, addresses_.size()) (leaf first) to `frames`.
  auto append_frames = [&](size_t first, std::vector<FrameId>* frames) {
    for (size_t i = first; i < addresses_.size(); ++i) {
      uint64_t address = addresses_[i];
      if (address == kNoAddress || address == kNoAddressEither) continue;
      bool caller = !frames_.empty() || !frames->empty();
      IntegerMap& named = caller ? known.callers : known.leaves;
      FrameId frame = named.Find(address);
      if (frame == IntegerMap::kNoValue) {
        frame = NameFrame(symbols, images, address, caller);
        named.Insert(address, frame);
      }
      frames->push_back(frame);
    }
  };

  // The parts list addresses leaf first. The root-side part is shared by
  // many stacks (IvanCaldwell: 29k of them under 184k stacks): below a leaf
  // frame, its stack prefix is interned once and reused.
  addresses_.clear();
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    read = uniquer->AppendArray(parts[i] & 0xFFFFFFFF, &addresses_, max_frames - addresses_.size());
    if (!read.ok()) return too_deep(read);
  }
  frames_.clear();
  append_frames(0, &frames_);
  uint64_t root_part = parts.back() & 0xFFFFFFFF;
  RootPart* cached_root = nullptr;
  if (!frames_.empty()) {
    auto found = state.root_parts.find(parts.back());
    if (found != state.root_parts.end() &&
        found->second.addresses <= max_frames - addresses_.size()) {
      cached_root = &found->second;
    }
  }
  StackId root = kEmptyStack;
  if (cached_root) {
    root = cached_root->stack;
  } else {
    size_t leaf_side = addresses_.size();
    read = uniquer->AppendArray(root_part, &addresses_, max_frames - leaf_side);
    if (!read.ok()) return too_deep(read);
    std::vector<FrameId> root_frames;
    bool below_leaf = !frames_.empty();
    append_frames(leaf_side, &root_frames);
    root = builder_.InternFrames(kEmptyStack, root_frames);
    if (below_leaf) {
      state.root_parts.emplace(parts.back(), RootPart{root, addresses_.size() - leaf_side});
    } else {
      // No leaf above this part: its first frame is the leaf, and it is named as one.
      frames_.insert(frames_.end(), root_frames.begin(), root_frames.end());
      root = kEmptyStack;
    }
  }
  StackId stack = builder_.InternFrames(root, frames_);
  state.stacks.emplace(stack_ref, stack);
  return stack;
}

FrameId BundleReader::NameFrame(const SymbolTable* symbols, const std::vector<ProcessImage>* images,
                                uint64_t address, bool caller) {
  std::optional<SymbolTable::Match> match;
  if (symbols) {
    match = symbols->Lookup(address);
    // A caller's return address can lie just past its function's end.
    if (!match && caller && address > 0) match = symbols->Lookup(address - 1);
  }
  FrameDesc desc;
  if (match && !match->symbol->name.empty()) {
    desc.name = match->symbol->name;
    desc.image = match->symbol->binary_path;
    desc.source_file = match->symbol->source_file;
    if (!match->symbol->source_file.empty()) desc.line = match->line;
    return builder_.InternFrame(desc);
  }
  if (match) desc.image = match->symbol->binary_path;
  ArchiveMatch archived = images ? ArchiveFrame(*images, address, caller) : ArchiveMatch{};
  if (archived.function && !archived.function->name.empty()) {
    desc.name = archived.function->name;
    desc.image = archived.image->path;
    return builder_.InternFrame(desc);
  }
  // Unnamed: "image+0xoffset" inside a known image, else the address; kept
  // with its address for symbolication from the user's files. A function an
  // archive knows but could not name is one frame, at its start: its address
  // is start + 1, inside the function as a leaf and, less one, as a caller.
  std::string name = HexAddress(address);
  desc.address = address;
  if (archived.image) {
    const ProcessImage& image = *archived.image;
    uint64_t offset = address - image.text_start;
    if (archived.function) {
      offset = archived.function->start;
      desc.address = image.text_start + offset + 1;
    }
    name = std::string(BaseName(image.path)) + "+" + HexAddress(offset);
    desc.image = image.path;
    desc.image_id = builder_.InternImage(CodeImage{image.path, {}, image.uuid, image.text_start});
  }
  desc.name = name;
  return builder_.InternFrame(desc);
}

BundleReader::ArchiveMatch BundleReader::ArchiveFrame(const std::vector<ProcessImage>& images,
                                                      uint64_t address, bool caller) {
  // A caller is looked up at its return address − 1, inside the call.
  uint64_t lookup = caller && address > 0 ? address - 1 : address;
  for (const ProcessImage& candidate : images) {
    // Images unloaded before the end are left out, as Instruments does.
    if (candidate.unloaded || lookup < candidate.text_start ||
        lookup - candidate.text_start >= candidate.text_size) {
      continue;
    }
    const SymbolArchive* archive = Archive(candidate.uuid);
    return ArchiveMatch{&candidate,
                        archive ? archive->Lookup(lookup - candidate.text_start) : std::nullopt};
  }
  return ArchiveMatch{};
}

const SymbolArchive* BundleReader::Archive(const ImageUuid& uuid) {
  auto cached = archives_.find(uuid);
  if (cached != archives_.end()) return cached->second ? &*cached->second : nullptr;
  std::optional<SymbolArchive>& slot = archives_[uuid];
  std::string path = std::string(kSymbolStores) + FormatUuid(uuid) + ".symbolsarchive";
  if (!files_.Contains(path)) return nullptr;
  auto bytes = ReadMember(path);
  if (!bytes.ok()) {
    builder_.AddWarning("SYMBOLS_UNREADABLE", bytes.status().ToString());
    return nullptr;
  }
  auto archive = SymbolArchive::Parse(ByteSpan((*bytes)->data(), (*bytes)->size()));
  if (!archive.ok()) {
    builder_.AddWarning("SYMBOLS_UNREADABLE", archive.status().WithPath(path).ToString());
    return nullptr;
  }
  slot = std::move(*archive);
  return &*slot;
}

Result<std::vector<std::string>> ReadStrings(ByteSpan xml) {
  // An XML property list: <plist><array><string>…</string>…</array></plist>.
  if (xml.size() > INT32_MAX) {
    return Status(ErrorCode::kLimitExceeded, "the strings file is larger than 2 GiB");
  }
  std::unique_ptr<xmlDoc, void (*)(xmlDoc*)> doc(
      xmlReadMemory(reinterpret_cast<const char*>(xml.data()), static_cast<int>(xml.size()),
                    "strings", nullptr, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING),
      xmlFreeDoc);
  if (!doc) {
    return Status(ErrorCode::kBundleCorrupt, "the strings file is not an XML property list");
  }
  // A property list names Apple's DTD but declares nothing; declared
  // entities would only be a hazard.
  if (doc->intSubset && doc->intSubset->entities) {
    return Status(ErrorCode::kBundleCorrupt, "the strings file declares entities");
  }
  std::vector<std::string> strings;
  xmlNode* root = xmlDocGetRootElement(doc.get());
  for (xmlNode* array = root ? root->children : nullptr; array; array = array->next) {
    if (array->type != XML_ELEMENT_NODE) continue;
    for (xmlNode* item = array->children; item; item = item->next) {
      if (item->type != XML_ELEMENT_NODE) continue;
      xmlChar* text = xmlNodeGetContent(item);
      strings.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
      xmlFree(text);
    }
  }
  return strings;
}

// Adds which row an error concerns, keeping the location the error has.
Status InRow(const Status& status, const std::string& path, uint64_t row) {
  Status located(status.code(),
                 status.message() + " (row " + std::to_string(row) + " of " + path + ")");
  located.WithPath(status.path().empty() ? path : status.path());
  if (status.offset()) located.WithOffset(*status.offset());
  return located;
}

// The run's strings (core/uniquing/strings); none when the file is absent.
Result<std::vector<std::string>> BundleReader::RunStrings(const Store& store) {
  std::string strings_path = store.location.run_folder + std::string(kStrings);
  if (!files_.Contains(strings_path)) return std::vector<std::string>();
  SharedBytes strings_bytes;
  ASSIGN_OR_RETURN(strings_bytes, ReadMember(strings_path));
  auto strings = ReadStrings(ByteSpan(strings_bytes->data(), strings_bytes->size()));
  if (!strings.ok()) return strings.status().WithPath(strings_path);
  return strings;
}

Status BundleReader::VisitRows(const Store& store,
                               const std::function<void(const RowLayout&, ByteSpan)>& visit) {
  RowLayout layout;
  auto rows = OpenRows(store, &layout);
  if (!rows.ok()) return rows.status();
  for (uint64_t i = 0; i < rows->row_count(); ++i) {
    if (!rows->IsPadding(i)) visit(layout, rows->Row(i));
  }
  return OkStatus();
}

Status BundleReader::ReadThreadNames(const Store& store, RunState* run) {
  // Rows: the topology (time, thread ref), then name = string index << 32 |
  // thread ref / 4, indexing the strings in core/uniquing/strings.
  std::vector<std::string> strings;
  ASSIGN_OR_RETURN(strings, RunStrings(store));
  return VisitRows(store, [&](const RowLayout& layout, ByteSpan row) {
    uint64_t string_index = ReadField(row, layout.Column("name")) >> 32;
    if (string_index < strings.size() && !strings[string_index].empty()) {
      run->thread_names[ReadField(row, layout.thread)] = strings[string_index];
    }
  });
}

Status BundleReader::ReadThreadInfo(const Store& store, RunState* run) {
  // Rows (Instruments 16): the topology (time, pid), tid, process ref,
  // thread ref, name = string index << 32 | thread ref (string index
  // 0xFFFFFFFF: no name), main-thread flag. A thread can have several rows:
  // the last name given wins.
  std::vector<std::string> strings;
  ASSIGN_OR_RETURN(strings, RunStrings(store));
  return VisitRows(store, [&](const RowLayout& layout, ByteSpan row) {
    FieldSlot name = layout.Column("name");
    uint64_t string_index = name.width ? ReadField(row, name) >> 32 : kNoString;
    std::string label;
    if (string_index != kNoString && string_index < strings.size()) label = strings[string_index];
    if (label.empty() && ReadField(row, layout.Column("main-thread")) == 1) label = "Main Thread";
    FieldSlot thread = layout.Column("thread");
    if (!label.empty() && thread.width) run->thread_names[ReadField(row, thread)] = label;
  });
}

Status BundleReader::ReadProcessInfo(const Store& store, RunState* run) {
  // Rows (Instruments 16): the topology (time, pid), unique id, process ref,
  // process-name string index. A process that execs gets a new row: the last wins.
  std::vector<std::string> strings;
  ASSIGN_OR_RETURN(strings, RunStrings(store));
  return VisitRows(store, [&](const RowLayout& layout, ByteSpan row) {
    FieldSlot name = layout.Column("process-name");
    uint64_t string_index = name.width ? ReadField(row, name) : kNoString;
    // The topology's category 1 is the pid.
    auto pid = static_cast<int64_t>(ReadField(row, layout.thread));
    if (string_index < strings.size() && !strings[string_index].empty()) {
      run->process_names[pid] = strings[string_index];
    }
  });
}

Status BundleReader::ImportSamples(const Store& store) {
  uint32_t run = store.location.run;
  std::string path = store.location.folder + "bulkstore";
  RowLayout layout;
  auto rows = OpenRows(store, &layout);
  if (!rows.ok()) return rows.status();
  FieldSlot process = layout.Column("process");
  FieldSlot weight = layout.Column("weight");
  FieldSlot stack = layout.Column("stack");
  if (weight.width == 0 || stack.width == 0) {
    return Status(ErrorCode::kBundleUnsupported, "the time-profile rows have no weight or stack")
        .WithPath(path);
  }
  ProfileBuilder::TimelineId timeline =
      builder_.AddTimeline(run, std::string(kSampleTable), ValueUnit::kNanoseconds);
  uint64_t samples = 0;
  for (uint64_t i = 0; i < rows->row_count(); ++i) {
    if (rows->IsPadding(i)) continue;
    ByteSpan row = rows->Row(i);
    auto thread = Thread(run, ReadField(row, layout.thread), layout.thread_ref_step,
                         ReadField(row, process), timeline);
    if (!thread.ok()) return InRow(thread.status(), path, i);
    auto stack_id = Stack(run, ReadField(row, stack));
    if (!stack_id.ok()) return InRow(stack_id.status(), path, i);
    // Times and weights are at most 64 bits wide; above 2^63 they are damage.
    int64_t time = static_cast<int64_t>(ReadField(row, layout.time));
    int64_t sample_weight = static_cast<int64_t>(ReadField(row, weight));
    Status added = builder_.AddSample(*thread, time, sample_weight, *stack_id);
    if (!added.ok()) return added.WithPath(path).WithOffset(rows->row_offset(i));
    ++samples;
  }
  builder_.AddTable(TableSummary{run, std::string(kSampleTable), samples, true});
  return OkStatus();
}

// "Trace<N>.run/<UUID>-sampler.data" → (N, UUID).
std::optional<std::pair<uint32_t, std::string>> SamplerFile(std::string_view path) {
  constexpr std::string_view kTrace = "Trace";
  if (!StartsWith(path, kTrace) || !EndsWith(path, kSamplerSuffix)) return std::nullopt;
  size_t dot = path.find(".run/");
  if (dot == std::string_view::npos || dot == kTrace.size()) return std::nullopt;
  std::optional<uint32_t> run = RunNumber(path.substr(kTrace.size(), dot - kTrace.size()));
  std::string_view uuid = path.substr(dot + 5, path.size() - dot - 5 - kSamplerSuffix.size());
  if (!run || uuid.empty() || uuid.find('/') != std::string_view::npos) return std::nullopt;
  return std::make_pair(*run, std::string(uuid));
}

Status BundleReader::ImportLegacySamples(std::set<uint32_t>* runs_with_samples) {
  for (const std::string& path : files_.paths()) {
    auto sampler = SamplerFile(path);
    if (!sampler) continue;
    auto [run, uuid] = *sampler;
    if (options_.run && run != *options_.run) continue;
    std::string archive =
        "instrument_data/" + uuid + "/run_data/" + std::to_string(run) + ".run.zip";
    if (!files_.Contains(archive)) {
      builder_.AddWarning("LEGACY_RUN_UNREADABLE",
                          "run " + std::to_string(run) + " is left out: " + archive +
                              ", which holds the backtraces of " + path + ", is missing");
      continue;
    }
    RETURN_IF_ERROR(ImportLegacyRun(run, path, archive));
    runs_with_samples->insert(run);
  }
  return OkStatus();
}

Status BundleReader::ImportLegacyRun(uint32_t run, const std::string& sampler_path,
                                     const std::string& archive_path) {
  // The run archive is a zip of one typedstream.
  std::string member_path;
  std::vector<uint8_t> typedstream;
  ASSIGN_OR_RETURN(typedstream, ReadZippedFile(archive_path, &member_path));
  auto sampler_run =
      ReadSamplerRun(ByteSpan(typedstream.data(), typedstream.size()), options_.limits);
  if (!sampler_run.ok()) return sampler_run.status().WithPath(member_path);

  SharedBytes records;
  ASSIGN_OR_RETURN(records, ReadMember(sampler_path));
  // Each sample stands for the sampling interval (1 ms unless the run says).
  uint64_t interval_us = sampler_run->sample_interval_us.value_or(1000);
  auto interval_ns = CheckedMul<uint64_t>(interval_us, 1000);
  if (!interval_ns || *interval_ns > static_cast<uint64_t>(INT64_MAX)) {
    return Status(ErrorCode::kBundleCorrupt, "the run archive gives a sampling interval of " +
                                                 std::to_string(interval_us) + " µs")
        .WithPath(member_path);
  }
  int64_t weight = static_cast<int64_t>(*interval_ns);
  ProfileBuilder::TimelineId timeline =
      builder_.AddTimeline(run, std::string(kSamplerTable), ValueUnit::kNanoseconds);
  const RunDetails* details = Details(run);
  std::map<uint64_t, ProfileBuilder::ThreadId> threads;
  std::unordered_map<uint32_t, StackId> stacks;
  RunState& state = runs_[run];
  uint64_t samples = 0;
  std::vector<FrameId> frames;
  Status status = ReadSamplerRecords(
      ByteSpan(records->data(), records->size()), *sampler_run,
      [&](const SamplerRecord& record) -> Status {
        auto backtrace = sampler_run->backtraces.find(record.backtrace);
        if (backtrace == sampler_run->backtraces.end()) {
          return Status(ErrorCode::kBundleCorrupt,
                        "sample " + std::to_string(samples) + " names backtrace " +
                            std::to_string(record.backtrace) + ", which the run archive lacks");
        }
        auto known_thread = sampler_run->threads.find(record.tid);
        int64_t pid = backtrace->second.pid;
        auto thread = threads.find(record.tid);
        if (thread == threads.end()) {
          ThreadDesc desc;
          std::string name, process;
          if (known_thread != sampler_run->threads.end()) {
            name = known_thread->second.name;
            process = known_thread->second.process_name;
            if (known_thread->second.pid >= 0) pid = known_thread->second.pid;
          }
          if (process.empty() && details) process = NameIn(details->process_names, pid);
          std::string label = ThreadLabel(name, record.tid);
          desc.thread_name = label;
          desc.tid = record.tid;
          desc.process_name = process;
          desc.pid = pid;
          thread = threads.emplace(record.tid, builder_.InternThread(timeline, desc)).first;
        }
        auto stack = stacks.find(record.backtrace);
        if (stack == stacks.end()) {
          const SymbolTable* symbols = nullptr;
          if (details) {
            auto table = details->symbols.find(backtrace->second.pid);
            if (table != details->symbols.end()) symbols = &table->second;
          }
          if (!symbols) {
            const std::map<int64_t, SymbolTable>& archived = ArchivedSymbols(run);
            auto table = archived.find(backtrace->second.pid);
            if (table != archived.end()) symbols = &table->second;
          }
          ProcessFrames& known = state.frames[symbols ? backtrace->second.pid : kNoPid];
          frames.clear();
          for (uint64_t address : backtrace->second.addresses) {
            bool caller = !frames.empty();
            IntegerMap& named = caller ? known.callers : known.leaves;
            FrameId frame = named.Find(address);
            if (frame == IntegerMap::kNoValue) {
              // Instruments' own name for a slot it had no address for.
              frame = address == kNoAddressEither
                          ? builder_.InternFrame(
                                FrameDesc{"<Unknown Address>", {}, {}, {}, {}, kNoImage})
                          : NameFrame(symbols, nullptr, address, caller);
              named.Insert(address, frame);
            }
            frames.push_back(frame);
          }
          stack =
              stacks.emplace(record.backtrace, builder_.InternFrames(kEmptyStack, frames)).first;
        }
        if (record.timestamp > static_cast<uint64_t>(INT64_MAX)) {
          return Status(ErrorCode::kBadSample, "sample " + std::to_string(samples) +
                                                   " has the timestamp " +
                                                   std::to_string(record.timestamp));
        }
        RETURN_IF_ERROR(builder_.AddSample(thread->second, static_cast<int64_t>(record.timestamp),
                                           weight, stack->second));
        ++samples;
        return OkStatus();
      });
  if (!status.ok()) return status.WithPath(sampler_path);
  builder_.AddTable(TableSummary{run, std::string(kSamplerTable), samples, true});
  return OkStatus();
}

Result<std::vector<uint8_t>> BundleReader::ReadZippedFile(const std::string& path,
                                                          std::string* member_path) {
  SharedBytes zip_bytes;
  ASSIGN_OR_RETURN(zip_bytes, ReadMember(path));
  auto zip = ZipArchive::Open(ByteSpan(zip_bytes->data(), zip_bytes->size()), options_.limits);
  if (!zip.ok()) return zip.status().WithPath(path);
  for (const ZipEntry& entry : zip->entries()) {
    if (entry.is_directory || IsJunkPath(entry.name)) continue;
    *member_path = path + "!/" + entry.name;
    auto bytes = zip->Extract(entry);
    if (!bytes.ok()) return bytes.status().WithPath(*member_path);
    RETURN_IF_ERROR(CountMemberBytes(*member_path, bytes->size()));
    return bytes;
  }
  return Status(ErrorCode::kBundleCorrupt, "the zip holds no file").WithPath(path);
}

const std::map<int64_t, SymbolTable>& BundleReader::ArchivedSymbols(uint32_t run) {
  auto [entry, inserted] = archived_symbols_.try_emplace(run);
  if (!inserted) return entry->second;
  std::string folder = "shared_data/" + std::to_string(run) + ".run/";
  for (const std::string& path : files_.paths()) {
    if (!StartsWith(path, folder) || !EndsWith(path, ".zip")) continue;
    std::string member_path;
    auto bytes = ReadZippedFile(path, &member_path);
    auto tables = bytes.ok()
                      ? ReadArchivedSymbols(ByteSpan(bytes->data(), bytes->size()), options_.limits)
                      : Result<std::map<int64_t, SymbolTable>>(bytes.status());
    if (!tables.ok()) {
      Status status = tables.status();
      builder_.AddWarning("SYMBOLS_UNREADABLE", "run " + std::to_string(run) + ": " +
                                                    status.WithPath(member_path).ToString() +
                                                    ": frames are named by address");
      continue;
    }
    for (auto& [pid, table] : *tables) entry->second.try_emplace(pid, std::move(table));
  }
  return entry->second;
}

Status BundleReader::NoSamplesError(const std::vector<Store>& stores) const {
  std::vector<std::string> instruments;
  bool legacy = false;
  if (form_) {
    for (const std::string& type : form_->instrument_types) {
      instruments.push_back(InstrumentName(type));
      legacy = legacy || EndsWith(type, ".coresampler") || EndsWith(type, ".sampler");
    }
  }
  for (const std::string& path : files_.paths()) legacy = legacy || EndsWith(path, "-sampler.data");
  auto join = [](const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  };
  if (legacy) {
    return Status(ErrorCode::kBundleNoSamples,
                  "this recording's legacy Time Profiler samples (Trace<N>.run/<UUID>-"
                  "sampler.data) cannot be read without their run archives "
                  "(instrument_data/<UUID>/run_data/<N>.run.zip), which hold their backtraces; "
                  "copy the whole .trace folder, or export a Deep Copy of its call tree");
  }
  std::set<std::string> tables;
  for (const Store& store : stores) tables.insert(store.schema.name);
  // The columns a time-profile row has; others are what a sample table of
  // another kind adds, and what this version cannot decode from bundles yet.
  static const std::set<std::string> kKnownColumnTypes = {
      "XRSampleTimestampTypeID", "XRThreadTypeID",
      "XRProcessTypeID",         "XRCPUCoreTypeID",
      "XRThreadStateTypeID",     "XRTimeSampleWeightTypeID",
      "XRBacktraceTypeID",       "XRRecordedEventTimestampTypeID"};
  for (std::string_view other : {"cpu-profile", "counters-profile", "time-sample"}) {
    auto first = std::find_if(stores.begin(), stores.end(),
                              [other](const Store& store) { return store.schema.name == other; });
    if (first == stores.end()) continue;
    std::set<uint32_t> runs;
    for (const Store& store : stores) {
      if (store.schema.name == other) runs.insert(store.location.run);
    }
    std::string unknown;
    for (const StoreColumn& column : first->schema.columns) {
      if (kKnownColumnTypes.count(column.engineering_type)) continue;
      unknown +=
          (unknown.empty() ? "" : ", ") + column.mnemonic + " (" + column.engineering_type + ")";
    }
    return Status(ErrorCode::kBundleUnsupported,
                  "this recording's CPU samples are in " + std::string(other) + " tables (" +
                      std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs") +
                      "), which this version does not decode from bundles yet" +
                      (unknown.empty()
                           ? std::string()
                           : ": their columns " + unknown + " are references it cannot follow") +
                      ". On a Mac, export them: xctrace export --input YOUR.trace --xpath "
                      "'/trace-toc/run[" +
                      std::to_string(*runs.begin()) + "]/data/table[@schema=\"" +
                      std::string(other) + "\"]' --output profile.xml")
        .WithPath(first->location.folder + "schema.xml");
  }
  std::vector<std::string> table_list(tables.begin(), tables.end());
  std::string message = "this recording holds no CPU samples (no time-profile table)";
  message += instruments.empty() ? "" : "; its instruments: " + join(instruments);
  message += table_list.empty() ? "; it has no tables" : "; its tables: " + join(table_list);
  message += ". Record with the Time Profiler instrument to profile CPU use.";
  return Status(ErrorCode::kBundleNoSamples, message);
}

Status BundleReader::Import() {
  RETURN_IF_ERROR(ReadTemplate());
  std::vector<StoreLocation> locations = FindStores(files_);
  std::set<uint32_t> runs;
  for (const StoreLocation& location : locations) runs.insert(location.run);
  if (options_.run && !runs.count(*options_.run)) {
    std::string listing;
    for (uint32_t run : runs) listing += (listing.empty() ? "" : ", ") + std::to_string(run);
    return Status(ErrorCode::kRunNotFound,
                  "this recording has no run " + std::to_string(*options_.run) +
                      (runs.empty() ? "; it has no runs with data" : "; it has runs " + listing));
  }

  std::vector<Store> stores;
  for (const StoreLocation& location : locations) {
    if (options_.run && location.run != *options_.run) continue;
    runs_[location.run].folder = location.run_folder;
    Store store;
    ASSIGN_OR_RETURN(store, OpenStore(location));
    stores.push_back(std::move(store));
  }
  // Thread names first: samples take them as their threads appear.
  for (const Store& store : stores) {
    RunState* run = &runs_[store.location.run];
    Status status = OkStatus();
    if (store.schema.name == kThreadNameTable) status = ReadThreadNames(store, run);
    if (store.schema.name == kThreadInfoTable) status = ReadThreadInfo(store, run);
    if (store.schema.name == kProcessInfoTable) status = ReadProcessInfo(store, run);
    if (!status.ok()) builder_.AddWarning("THREAD_NAMES_UNREADABLE", status.ToString());
  }
  std::set<uint32_t> runs_with_samples;
  for (const Store& store : stores) {
    if (store.schema.name == kSampleTable) {
      RETURN_IF_ERROR(ImportSamples(store));
      runs_with_samples.insert(store.location.run);
      continue;
    }
    // Other tables are listed with their row counts; a damaged one only warns.
    auto count = CountRows(store);
    if (!count.ok()) builder_.AddWarning("TABLE_UNREADABLE", count.status().ToString());
    builder_.AddTable(
        TableSummary{store.location.run, store.schema.name, count.ok() ? *count : 0, false});
  }
  RETURN_IF_ERROR(ImportLegacySamples(&runs_with_samples));
  if (runs_with_samples.empty()) return NoSamplesError(stores);
  if (builder_.total_samples() == 0) {
    return Status(ErrorCode::kBundleNoSamples, "the recording's time-profile tables are empty");
  }
  // Instruments 12 and later keep symbols in symbols/stores/*.symbolsarchive.
  bool has_symbol_archives =
      std::any_of(files_.paths().begin(), files_.paths().end(),
                  [](const std::string& path) { return StartsWith(path, "symbols/stores/"); });
  bool has_image_lists =
      form_ && std::any_of(form_->runs.begin(), form_->runs.end(),
                           [](const auto& run) { return !run.second.images.empty(); });
  if (has_symbol_archives && !has_image_lists) {
    builder_.AddWarning(
        "SYMBOLS_NOT_READ",
        "this bundle's symbols (symbols/stores/*.symbolsarchive) cannot be placed "
        "without the image lists of its form.template: frames are named by address");
  }
  uint32_t preferred = *runs_with_samples.begin();
  if (form_ && form_->selected_run && runs_with_samples.count(*form_->selected_run)) {
    preferred = *form_->selected_run;
  }
  builder_.SetPreferredRun(preferred);
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

}  // namespace

SniffMatch Sniff(ByteSpan prefix) {
  return LooksLikeZip(prefix) ? SniffMatch::kYes : SniffMatch::kNo;
}

std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options) {
  return std::make_unique<ZipBundleImporter>(builder, options);
}

Status ImportBundle(const FileTree& files, ProfileBuilder& builder, const ImportOptions& options) {
  std::string root;
  ASSIGN_OR_RETURN(root, FindBundleRoot(files));
  SubTree bundle(files, root, options.limits);
  Status status = BundleReader(bundle, builder, options).Import();
  return status.WithPathPrefix(root);
}

namespace {

// The files a bundle's samples need, by their own path.
bool WantsOnItsOwn(std::string_view path) {
  if (IsJunkPath(path)) return false;
  if (EndsWith(path, kFormTemplate) || EndsWith(path, kSamplerSuffix)) return true;
  if (path.find(kSymbolStores) != std::string_view::npos && EndsWith(path, ".symbolsarchive")) {
    return true;
  }
  size_t run = path.find(kRunPrefix);
  if (run == std::string_view::npos) return false;
  std::string_view inside = path.substr(run);
  return (inside.find("/core/stores/") != std::string_view::npos &&
          (EndsWith(inside, "/schema.xml") || EndsWith(inside, "/bulkstore") ||
           EndsWith(inside, "/bulkstore_descriptor"))) ||
         inside.find("/core/uniquing/arrayUniquer/integeruniquer.") != std::string_view::npos ||
         EndsWith(inside, "/core/uniquing/strings");
}

}  // namespace

std::vector<bool> WantedFiles(const std::vector<std::string>& paths) {
  // A legacy run's sample file brings in its run archive, and its run's
  // shared_data zips (4.5's symbols); other bundles' archives stay unread.
  std::set<std::string> run_archives;
  std::set<std::string> symbol_folders;
  for (const std::string& path : paths) {
    if (IsJunkPath(path) || !EndsWith(path, kSamplerSuffix)) continue;
    size_t name = path.rfind('/');
    if (name == std::string::npos || name == 0) continue;
    size_t folder = path.rfind('/', name - 1);
    size_t start = folder == std::string::npos ? 0 : folder + 1;
    auto sampler = SamplerFile(std::string_view(path).substr(start));
    if (!sampler) continue;
    std::string prefix = path.substr(0, start);
    std::string run = std::to_string(sampler->first);
    run_archives.insert(prefix + "instrument_data/" + sampler->second + "/run_data/" + run +
                        ".run.zip");
    symbol_folders.insert(prefix + "shared_data/" + run + ".run/");
  }
  std::vector<bool> wanted;
  wanted.reserve(paths.size());
  for (const std::string& path : paths) {
    // shared_data/<N>.run/<UUID>.zip: its folder is the path up to its last '/'.
    bool symbols = EndsWith(path, ".zip") && !IsJunkPath(path) &&
                   symbol_folders.count(path.substr(0, path.rfind('/') + 1)) > 0;
    wanted.push_back(WantsOnItsOwn(path) || run_archives.count(path) || symbols);
  }
  return wanted;
}

}  // namespace instrumentscope::trace_bundle
