#include "formats/trace_bundle/form_template.h"

#include <cstring>
#include <iterator>
#include <set>
#include <string_view>

#include "base/identifiers.h"
#include "base/text.h"
#include "container/keyed_archive.h"
#include "formats/trace_bundle/run_summary.h"

namespace instrumentscope::trace_bundle {
namespace {

constexpr std::string_view kInstrumentTypePrefix = "com.apple.xray.instrument-type.";

// The pid of a symbol store's key, "<device UUID>.<pid>" (0: the kernel).
std::optional<int64_t> ProcessKeyPid(std::string_view key) {
  size_t dot = key.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == key.size() || key.size() - dot > 10) {
    return std::nullopt;
  }
  int64_t pid = 0;
  for (char digit : key.substr(dot + 1)) {
    if (digit < '0' || digit > '9') return std::nullopt;
    pid = pid * 10 + (digit - '0');
  }
  return pid;
}

std::string Key(int64_t index) {
  return "$" + std::to_string(index);
}

// Reads one part of the template; a failure is recorded, not fatal.
class Reader {
 public:
  Reader(const KeyedArchive& archive, FormTemplate* form) : archive_(archive), form_(*form) {
    // Reading visits each object a few times; a crafted archive whose objects
    // all share one huge dictionary would make that quadratic. The budget is
    // a multiple of the archive's size.
    uint64_t size = archive_.plist().size();
    for (uint32_t i = 0; i < archive_.plist().size(); ++i) {
      size += archive_.plist().object(i).children.size();
    }
    budget_ = 16 * size + (1 << 20);
  }

  void ReadInstruments();
  void ReadSelectedRun();
  void ReadRuns();
  // Before ReadImageLists, which places the shared caches' images.
  void ReadSharedCaches();
  void ReadImageLists();

 private:
  void Problem(const std::string& part, const Status& status) {
    form_.problems.push_back(part + ": " + status.message());
  }
  // Counts the work of looking into `object`; fails once the budget is spent.
  Status Charge(uint32_t object) const {
    work_ += archive_.Value(object).children.size() + 1;
    if (work_ <= budget_) return OkStatus();
    return Status(ErrorCode::kKeyedArchiveCorrupt,
                  "its objects refer to one another more often than an archive of its size can");
  }
  // The fields $0, $1, … of an archived object, by number, in one pass over
  // its keys (symbol objects have thousands); null where a number is missing.
  Result<std::vector<const PlistObject*>> NumberedFields(uint32_t object) const;
  Result<int64_t> IntegerOf(const std::vector<const PlistObject*>& fields, int64_t number) const;
  Result<std::optional<uint32_t>> ObjectOf(const std::vector<const PlistObject*>& fields,
                                           int64_t number) const;
  // XRIntKeyedDictionary: $0 = n, then ($1 key, $2 value), ($3, $4), …
  Result<std::vector<std::pair<int64_t, uint32_t>>> IntKeyedEntries(uint32_t dictionary) const;
  Status ReadRun(uint32_t run_dictionary, RunDetails* run) const;
  Status ReadThreads(uint32_t threads, RunDetails* run) const;
  Status ReadProcesses(uint32_t process_datas, RunDetails* run) const;
  Result<SymbolTable> ReadSymbols(uint32_t persistent_symbols) const;
  Result<Symbol> ReadSymbol(uint32_t symbol_data) const;
  // One image of a shared cache: a list of one, its addresses cache offsets.
  Result<ProcessImage> ReadCacheImage(uint32_t list_object) const;
  // A process's images, its shared cache's placed among them.
  Result<std::vector<ProcessImage>> ReadProcessImages(uint32_t persistent_symbols,
                                                      const std::string& part);

  const KeyedArchive& archive_;
  FormTemplate& form_;
  uint64_t budget_ = 0;
  mutable uint64_t work_ = 0;
  std::map<ImageUuid, SharedCacheImages> shared_caches_;
};

void Reader::ReadInstruments() {
  // The instruments sit in $top under "$1", "$3"… or in stubInfoByUUID,
  // depending on the version; every one is a string naming its type.
  std::set<std::string_view> seen;
  for (uint32_t object = 0; object < archive_.size(); ++object) {
    if (Status charged = Charge(object); !charged.ok()) return Problem("the instruments", charged);
    // Plain strings and NSStrings ({"NS.string": …}).
    const PlistObject& value = archive_.Value(object);
    const PlistObject* string =
        value.type == PlistType::kString ? &value : archive_.plist().DictValue(value, "NS.string");
    if (!string || string->type != PlistType::kString) continue;
    std::string_view text = string->string;
    if (text.substr(0, kInstrumentTypePrefix.size()) == kInstrumentTypePrefix &&
        seen.insert(text).second) {
      form_.instrument_types.emplace_back(text);
    }
  }
}

void Reader::ReadSelectedRun() {
  auto owner = archive_.Top("com.apple.xray.owner.template");
  if (!owner.ok()) return;  // absent in some versions (10.0): no selection
  auto entries = archive_.DictionaryEntries(*owner);
  if (!entries.ok()) return Problem("the selected run", entries.status());
  for (const auto& [key, value] : *entries) {
    auto name = archive_.String(key);
    if (!name.ok() || *name != "_selectedRunNumber") continue;
    auto run = archive_.Integer(value);
    if (run.ok() && *run > 0 && *run <= UINT32_MAX)
      form_.selected_run = static_cast<uint32_t>(*run);
  }
}

void Reader::ReadRuns() {
  // com.apple.xray.run.data: an XRRunListData whose $1 maps run numbers to
  // per-run dictionaries (with other keys beside them).
  auto run_list = archive_.Top("com.apple.xray.run.data");
  if (!run_list.ok()) return Problem("the run list", run_list.status());
  auto runs = archive_.Field(*run_list, "$1");
  if (!runs.ok()) return Problem("the run list", runs.status());
  auto entries = archive_.DictionaryEntries(*runs);
  if (!entries.ok()) return Problem("the run list", entries.status());
  for (const auto& [key, value] : *entries) {
    auto number = archive_.Integer(key);
    if (!number.ok() || *number <= 0 || *number > UINT32_MAX) continue;
    RunDetails run;
    Status status = ReadRun(value, &run);
    if (!status.ok()) Problem("run " + std::to_string(*number), status);
    form_.runs[static_cast<uint32_t>(*number)] = std::move(run);
  }
}

Result<std::vector<const PlistObject*>> Reader::NumberedFields(uint32_t object) const {
  RETURN_IF_ERROR(Charge(object));
  const PlistObject& dictionary = archive_.Value(object);
  if (dictionary.type != PlistType::kDictionary) {
    return Status(ErrorCode::kKeyedArchiveCorrupt, "object " + std::to_string(object) + " is a " +
                                                       PlistTypeName(dictionary.type) +
                                                       ", not an archived object");
  }
  size_t count = dictionary.children.size() / 2;
  std::vector<const PlistObject*> fields;
  for (size_t i = 0; i < count; ++i) {
    std::string_view key = archive_.plist().object(dictionary.children[i]).string;
    if (key.size() < 2 || key.size() > 10 || key[0] != '$') continue;
    uint64_t number = 0;
    bool digits = true;
    for (char c : key.substr(1)) {
      digits = digits && c >= '0' && c <= '9';
      number = number * 10 + static_cast<uint64_t>(c - '0');
    }
    if (!digits || number >= count) continue;  // "$class", or a number no key count allows
    if (number >= fields.size()) fields.resize(number + 1, nullptr);
    fields[number] = &archive_.plist().object(dictionary.children[count + i]);
  }
  return fields;
}

Result<int64_t> Reader::IntegerOf(const std::vector<const PlistObject*>& fields,
                                  int64_t number) const {
  const PlistObject* value =
      number >= 0 && static_cast<size_t>(number) < fields.size() ? fields[number] : nullptr;
  if (value && value->type == PlistType::kInteger) return value->integer;
  if (value && value->type == PlistType::kUid && value->uid < archive_.size()) {
    return archive_.Integer(static_cast<uint32_t>(value->uid));
  }
  return Status(ErrorCode::kKeyedArchiveCorrupt, "field " + Key(number) + " is not an integer");
}

Result<std::optional<uint32_t>> Reader::ObjectOf(const std::vector<const PlistObject*>& fields,
                                                 int64_t number) const {
  const PlistObject* value =
      number >= 0 && static_cast<size_t>(number) < fields.size() ? fields[number] : nullptr;
  if (!value || value->type != PlistType::kUid || value->uid >= archive_.size()) {
    return Status(ErrorCode::kKeyedArchiveCorrupt, "field " + Key(number) + " is no reference");
  }
  uint32_t object = static_cast<uint32_t>(value->uid);
  if (archive_.IsNull(object)) return std::optional<uint32_t>();
  return std::optional<uint32_t>(object);
}

Result<std::vector<std::pair<int64_t, uint32_t>>> Reader::IntKeyedEntries(
    uint32_t dictionary) const {
  std::vector<const PlistObject*> fields;
  ASSIGN_OR_RETURN(fields, NumberedFields(dictionary));
  int64_t count;
  ASSIGN_OR_RETURN(count, IntegerOf(fields, 0));
  if (count < 0 || static_cast<uint64_t>(count) * 2 >= fields.size() + 1) {
    return Status(ErrorCode::kKeyedArchiveCorrupt,
                  "an XRIntKeyedDictionary claims " + std::to_string(count) + " entries");
  }
  std::vector<std::pair<int64_t, uint32_t>> entries;
  for (int64_t i = 0; i < count; ++i) {
    int64_t key;
    std::optional<uint32_t> value;
    ASSIGN_OR_RETURN(key, IntegerOf(fields, 2 * i + 1));
    ASSIGN_OR_RETURN(value, ObjectOf(fields, 2 * i + 2));
    if (value) entries.emplace_back(key, *value);
  }
  return entries;
}

Status Reader::ReadRun(uint32_t run_dictionary, RunDetails* run) const {
  RETURN_IF_ERROR(Charge(run_dictionary));
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  ASSIGN_OR_RETURN(entries, archive_.DictionaryEntries(run_dictionary));
  std::optional<uint32_t> threads, processes, symbols, run_info;
  for (const auto& [key, value] : entries) {
    auto name = archive_.String(key);
    if (!name.ok()) continue;
    if (*name == "threadsByTID") threads = value;
    if (*name == "processDatas") processes = value;
    if (*name == "symbolsByPid") symbols = value;
    if (*name == "startTime") {
      if (auto start = archive_.Integer(value); start.ok() && *start > 0) run->start_time = *start;
    }
    if (*name == "recordingInfoSummary" && !archive_.IsNull(value)) {
      run->summary_lines = SummaryLines(archive_, value);
    }
    if (*name == "runInfo" && !archive_.IsNull(value)) run_info = value;
  }
  if (run_info && run->summary_lines.empty())
    run->summary_lines = RunInfoLines(archive_, *run_info);
  if (processes && !archive_.IsNull(*processes)) RETURN_IF_ERROR(ReadProcesses(*processes, run));
  if (threads && !archive_.IsNull(*threads)) RETURN_IF_ERROR(ReadThreads(*threads, run));
  if (symbols && !archive_.IsNull(*symbols)) {
    std::vector<std::pair<int64_t, uint32_t>> by_pid;
    ASSIGN_OR_RETURN(by_pid, IntKeyedEntries(*symbols));
    for (const auto& [pid, persistent_symbols] : by_pid) {
      auto table = ReadSymbols(persistent_symbols);
      if (!table.ok()) {
        return Status(table.status().code(), "the symbols of pid " + std::to_string(pid) + ": " +
                                                 table.status().message());
      }
      run->symbols[pid] = table.take();
    }
  }
  return OkStatus();
}

Status Reader::ReadThreads(uint32_t threads, RunDetails* run) const {
  // tid → XRThread; its $4 dictionary holds overrideName, execName and pid.
  std::vector<std::pair<int64_t, uint32_t>> by_tid;
  ASSIGN_OR_RETURN(by_tid, IntKeyedEntries(threads));
  for (const auto& [tid, thread] : by_tid) {
    RETURN_IF_ERROR(Charge(thread));
    auto details = archive_.OptionalField(thread, "$4");
    if (!details.ok() || !*details) continue;
    RETURN_IF_ERROR(Charge(**details));
    auto entries = archive_.DictionaryEntries(**details);
    if (!entries.ok()) continue;
    std::optional<std::string> exec_name;
    std::optional<int64_t> pid;
    for (const auto& [key, value] : *entries) {
      auto name = archive_.String(key);
      if (!name.ok()) continue;
      if (*name == "overrideName") {
        if (auto text = archive_.String(value); text.ok() && !text->empty()) {
          run->thread_names[static_cast<uint64_t>(tid)] = std::string(*text);
        }
      } else if (*name == "execName") {
        if (auto text = archive_.String(value); text.ok()) exec_name = std::string(*text);
      } else if (*name == "pid") {
        if (auto number = archive_.Integer(value); number.ok()) pid = *number;
      }
    }
    if (pid && exec_name && !exec_name->empty())
      run->thread_exec_names.try_emplace(*pid, *exec_name);
  }
  return OkStatus();
}

Status Reader::ReadProcesses(uint32_t process_datas, RunDetails* run) const {
  // An array of dictionaries with _pid and _execname (a path).
  std::vector<uint32_t> processes;
  ASSIGN_OR_RETURN(processes, archive_.ArrayElements(process_datas));
  for (uint32_t process : processes) {
    RETURN_IF_ERROR(Charge(process));
    auto entries = archive_.DictionaryEntries(process);
    if (!entries.ok()) continue;
    std::optional<int64_t> pid;
    std::string name;
    for (const auto& [key, value] : *entries) {
      auto key_name = archive_.String(key);
      if (!key_name.ok()) continue;
      if (*key_name == "_pid") {
        if (auto number = archive_.Integer(value); number.ok()) pid = *number;
      } else if (*key_name == "_execname") {
        if (auto text = archive_.String(value); text.ok()) name = std::string(BaseName(*text));
      }
    }
    if (pid && !name.empty()) run->process_names[*pid] = name;
  }
  return OkStatus();
}

Result<SymbolTable> Reader::ReadSymbols(uint32_t persistent_symbols) const {
  // PFTPersistentSymbols: $4 = n, then the PFTSymbolData objects $5 … $(4+n).
  std::vector<const PlistObject*> fields;
  ASSIGN_OR_RETURN(fields, NumberedFields(persistent_symbols));
  int64_t count;
  ASSIGN_OR_RETURN(count, IntegerOf(fields, 4));
  if (count < 0 || static_cast<uint64_t>(count) + 5 > fields.size()) {
    return Status(ErrorCode::kKeyedArchiveCorrupt,
                  "PFTPersistentSymbols claims " + std::to_string(count) + " symbols");
  }
  SymbolTable table;
  // An archive stores a repeated object once; so is it read once.
  std::set<uint32_t> read;
  for (int64_t i = 0; i < count; ++i) {
    std::optional<uint32_t> symbol_data;
    ASSIGN_OR_RETURN(symbol_data, ObjectOf(fields, 5 + i));
    if (!symbol_data || !read.insert(*symbol_data).second) continue;
    Symbol symbol;
    ASSIGN_OR_RETURN(symbol, ReadSymbol(*symbol_data));
    table.Add(std::move(symbol));
  }
  return table;
}

Result<Symbol> Reader::ReadSymbol(uint32_t symbol_data) const {
  // PFTSymbolData: $0 name, $1 source path, $2 PFTOwnerData ($0 binary name,
  // $1 binary path), $4 = k, then k (address, line) pairs from $5, then the
  // start address and the size.
  std::vector<const PlistObject*> fields;
  ASSIGN_OR_RETURN(fields, NumberedFields(symbol_data));
  Symbol symbol;
  std::optional<uint32_t> name, source, owner;
  ASSIGN_OR_RETURN(name, ObjectOf(fields, 0));
  ASSIGN_OR_RETURN(source, ObjectOf(fields, 1));
  ASSIGN_OR_RETURN(owner, ObjectOf(fields, 2));
  if (name) {
    std::string_view text;
    ASSIGN_OR_RETURN(text, archive_.String(*name));
    symbol.name = std::string(text);
  }
  // Some binaries carry junk here (dyld's is "C\x02"): only paths count.
  if (source) {
    if (auto text = archive_.String(*source); text.ok() && !text->empty() && text->front() == '/') {
      symbol.source_file = std::string(*text);
    }
  }
  if (owner) {
    RETURN_IF_ERROR(Charge(*owner));
    auto path = archive_.StringField(*owner, "$1");
    auto binary_name = archive_.StringField(*owner, "$0");
    if (path.ok() && !path->empty()) {
      symbol.binary_path = std::string(*path);
    } else if (binary_name.ok()) {
      symbol.binary_path = std::string(*binary_name);
    }
  }
  int64_t pairs;
  ASSIGN_OR_RETURN(pairs, IntegerOf(fields, 4));
  if (pairs < 0 || static_cast<uint64_t>(pairs) > fields.size() ||
      static_cast<uint64_t>(pairs) * 2 + 7 > fields.size()) {
    return Status(ErrorCode::kKeyedArchiveCorrupt,
                  "PFTSymbolData claims " + std::to_string(pairs) + " address/line pairs");
  }
  for (int64_t i = 0; i < pairs; ++i) {
    int64_t address, line;
    ASSIGN_OR_RETURN(address, IntegerOf(fields, 5 + 2 * i));
    ASSIGN_OR_RETURN(line, IntegerOf(fields, 6 + 2 * i));
    // Plist integers are signed: addresses at or above 2^63 arrive negative.
    uint32_t valid_line = line > 0 && line <= UINT32_MAX ? static_cast<uint32_t>(line) : 0;
    symbol.lines.emplace_back(static_cast<uint64_t>(address), valid_line);
  }
  int64_t start, size;
  ASSIGN_OR_RETURN(start, IntegerOf(fields, 5 + 2 * pairs));
  ASSIGN_OR_RETURN(size, IntegerOf(fields, 6 + 2 * pairs));
  symbol.start = static_cast<uint64_t>(start);
  symbol.size = size > 0 ? static_cast<uint64_t>(size) : 0;
  return symbol;
}

}  // namespace

void Reader::ReadSharedCaches() {
  // Instruments 26: a dictionary of shared-cache UUID (NSUUID) → dictionary
  // of image key (its offset in the cache) → a one-image list whose segment
  // addresses are offsets from the cache's start.
  auto caches = archive_.Top("com.apple.xray.symbolstore.sharedcache.signatures");
  if (!caches.ok()) return;  // older bundles: shared-cache images are in each process's list
  auto entries = archive_.DictionaryEntries(*caches);
  if (!entries.ok()) return Problem("the shared-cache image lists", entries.status());
  for (const auto& [uuid_object, images] : *entries) {
    if (Status charged = Charge(images); !charged.ok())
      return Problem("the shared-cache image lists", charged);
    auto uuid_bytes = archive_.RawField(uuid_object, "NS.uuidbytes");
    if (!uuid_bytes.ok() || (*uuid_bytes)->type != PlistType::kData ||
        (*uuid_bytes)->data.size() != sizeof(ImageUuid)) {
      Problem("the shared-cache image lists",
              Status(ErrorCode::kKeyedArchiveCorrupt, "a shared cache is keyed by no UUID"));
      continue;
    }
    ImageUuid uuid;
    std::memcpy(uuid.data(), (*uuid_bytes)->data.data(), uuid.size());
    std::string part = "the image lists of shared cache " + FormatUuid(uuid);
    auto listed = archive_.DictionaryEntries(images);
    if (!listed.ok()) {
      Problem(part, listed.status());
      continue;
    }
    // One problem for the cache, however many of its entries fail alike.
    SharedCacheImages& cache = shared_caches_[uuid];
    size_t unread = 0;
    Status first_failure;
    for (const auto& [key, list] : *listed) {
      auto offset = archive_.Integer(key);
      auto image = offset.ok() ? ReadCacheImage(list) : Result<ProcessImage>(offset.status());
      if (image.ok()) {
        cache[static_cast<uint64_t>(*offset)] = std::move(*image);
      } else if (unread++ == 0) {
        first_failure = image.status();
      }
    }
    if (unread > 0) {
      Problem(part, Status(first_failure.code(),
                           std::to_string(unread) + " of " + std::to_string(listed->size()) +
                               " images unreadable, the first: " + first_failure.message()));
    }
  }
}

Result<ProcessImage> Reader::ReadCacheImage(uint32_t list_object) const {
  ByteSpan blob;
  ASSIGN_OR_RETURN(blob, archive_.DataBytes(list_object));
  ImageList list;
  ASSIGN_OR_RETURN(list, ParseImageList(blob));
  if (list.images.size() != 1) {
    return Status(ErrorCode::kKeyedArchiveCorrupt,
                  "an entry lists " + std::to_string(list.images.size()) + " images, not one");
  }
  return std::move(list.images.front());
}

void Reader::ReadImageLists() {
  // Instruments 12 and later: symbolstores maps run numbers to dictionaries
  // of "<device UUID>.<pid>" → PFTPersistentSymbols, whose signature data is
  // the process's image list.
  auto stores = archive_.Top("com.apple.xray.symbolstoremanager.symbolstores");
  if (!stores.ok()) return;  // older bundles keep symbols in the run data
  auto runs = archive_.DictionaryEntries(*stores);
  if (!runs.ok()) return Problem("the image lists", runs.status());
  for (const auto& [run_key, processes] : *runs) {
    auto run = archive_.Integer(run_key);
    if (!run.ok() || *run <= 0 || *run > UINT32_MAX) continue;
    auto entries = archive_.DictionaryEntries(processes);
    if (!entries.ok()) {
      Problem("the image lists of run " + std::to_string(*run), entries.status());
      continue;
    }
    for (const auto& [key, symbols] : *entries) {
      if (Status charged = Charge(symbols); !charged.ok())
        return Problem("the image lists", charged);
      auto name = archive_.String(key);
      std::optional<int64_t> pid = name.ok() ? ProcessKeyPid(*name) : std::nullopt;
      if (!pid) continue;
      std::string part = "the image list of pid " + std::to_string(*pid);
      auto images = ReadProcessImages(symbols, part);
      if (!images.ok()) {
        Problem(part, images.status());
        continue;
      }
      form_.runs[static_cast<uint32_t>(*run)].images[*pid] = std::move(*images);
    }
  }
}

Result<std::vector<ProcessImage>> Reader::ReadProcessImages(uint32_t persistent_symbols,
                                                            const std::string& part) {
  uint32_t signature;
  ASSIGN_OR_RETURN(signature,
                   archive_.Field(persistent_symbols, "com.apple.xray.symbolstore.signature"));
  ByteSpan blob;
  ASSIGN_OR_RETURN(blob, archive_.DataBytes(signature));
  ImageList list;
  ASSIGN_OR_RETURN(list, ParseImageList(blob));
  if (!list.unread_trailer.empty()) {
    Problem(part, Status(ErrorCode::kBundleUnsupported,
                         list.unread_trailer + "; frames in system libraries stay addresses"));
  }
  if (!list.shared_cache) return std::move(list.images);
  auto cache = shared_caches_.find(list.shared_cache->uuid);
  if (cache == shared_caches_.end()) {
    Problem(part, Status(ErrorCode::kBundleUnsupported,
                         "the process maps shared cache " + FormatUuid(list.shared_cache->uuid) +
                             ", whose images form.template does not list; frames in system "
                             "libraries stay addresses"));
    return std::move(list.images);
  }
  // The keys of the cache's images this process loaded (Instruments 26);
  // none listed: all of them.
  std::vector<uint64_t> loaded;
  auto loaded_set = archive_.OptionalField(persistent_symbols, "dsc_load_addresses");
  if (loaded_set.ok() && *loaded_set) {
    std::vector<uint32_t> elements;
    ASSIGN_OR_RETURN(elements, archive_.ArrayElements(**loaded_set));
    for (uint32_t element : elements) {
      auto key = archive_.Integer(element);
      if (key.ok()) loaded.push_back(static_cast<uint64_t>(*key));
    }
  }
  std::vector<ProcessImage> placed =
      PlaceSharedCache(cache->second, list.shared_cache->base, loaded);
  size_t expected = loaded.empty() ? cache->second.size() : loaded.size();
  if (placed.size() < expected || placed.empty()) {
    Problem(part, Status(ErrorCode::kKeyedArchiveCorrupt,
                         "only " + std::to_string(placed.size()) + " of the " +
                             std::to_string(expected) + " shared-cache images the process " +
                             "loaded are listed; frames in the others stay addresses"));
  }
  list.images.insert(list.images.end(), std::make_move_iterator(placed.begin()),
                     std::make_move_iterator(placed.end()));
  return std::move(list.images);
}

Result<FormTemplate> ReadFormTemplate(ByteSpan bytes, const Limits& limits) {
  auto archive = KeyedArchive::Parse(bytes, limits);
  if (!archive.ok()) return archive.status();
  FormTemplate form;
  Reader reader(*archive, &form);
  reader.ReadInstruments();
  reader.ReadSelectedRun();
  reader.ReadRuns();
  reader.ReadSharedCaches();
  reader.ReadImageLists();
  return form;
}

std::string_view InstrumentTypeSuffix(std::string_view type) {
  if (type.substr(0, kInstrumentTypePrefix.size()) == kInstrumentTypePrefix) {
    type.remove_prefix(kInstrumentTypePrefix.size());
  }
  return type;
}

std::string InstrumentName(std::string_view type) {
  static const std::map<std::string_view, const char*> names = {
      {"coresampler2", "Time Profiler"},
      {"coresampler", "Time Profiler (the format of Instruments 9.2 and older)"},
      {"sampler", "Sampler"},
      {"oa", "Allocations"},
      {"vmtrack", "VM Tracker"},
      {"homeleaks", "Leaks"},
      {"poi", "Points of Interest"},
      {"UIAutomation", "Automation"},
      {"device-thermal-state", "Thermal State"},
  };
  std::string_view suffix = InstrumentTypeSuffix(type);
  auto entry = names.find(suffix);
  return entry == names.end() ? std::string(suffix) : std::string(entry->second);
}

}  // namespace instrumentscope::trace_bundle
