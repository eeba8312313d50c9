#include "fuzz/targets.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/limits.h"
#include "container/bplist.h"
#include "container/gzip.h"
#include "container/inflate.h"
#include "container/keyed_archive.h"
#include "container/typedstream.h"
#include "container/zip.h"
#include "demangle/demangle.h"
#include "firefox/writer.h"
#include "formats/deep_copy/deep_copy_importer.h"
#include "formats/trace_bundle/allocations.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/image_list.h"
#include "formats/trace_bundle/legacy_sampler.h"
#include "formats/trace_bundle/store.h"
#include "formats/trace_bundle/symbol_archive.h"
#include "formats/trace_bundle/uniquer.h"
#include "import/import.h"
#include "model/profile_builder.h"
#include "report/summary.h"
#include "speedscope/folded_stacks.h"
#include "speedscope/writer.h"
#include "symbolication/dwarf/debug_info.h"
#include "symbolication/macho/macho.h"
#include "symbolication/symbolicate.h"

namespace instrumentscope::fuzz {
namespace {

// A property two code paths must agree on broke: a finding like a crash.
[[noreturn]] void Disagree(const std::string& what) {
  std::fprintf(stderr, "fuzz: %s\n", what.c_str());
  std::abort();
}

// Limits small enough that libFuzzer's memory cap is never the one to stop an
// input, large enough for every seed to import.
Limits FuzzLimits() {
  Limits limits;
  limits.max_decompressed_bytes = 256u << 20;
  limits.max_member_bytes = 64u << 20;
  limits.max_samples = 2'000'000;
  limits.max_stack_nodes = 2'000'000;
  limits.max_xml_ids = 2'000'000;
  limits.max_xml_text_bytes = 1u << 20;
  limits.max_plist_objects = 1'000'000;
  limits.max_plist_depth = 64;
  return limits;
}

SharedBytes Share(ByteSpan bytes) {
  return std::make_shared<const std::vector<uint8_t>>(bytes.data(), bytes.data() + bytes.size());
}

void Zip(ByteSpan input) {
  auto archive = ZipArchive::Open(input, FuzzLimits());
  if (!archive.ok()) return;
  for (const ZipEntry& entry : archive->entries()) (void)archive->Extract(entry);
}

// Inflate and InflateStream give the same bytes, or the same error. Output
// stops at 1 MiB: the zero-filled streams of the seeds would otherwise expand
// to megabytes on every run.
void InflateBoth(ByteSpan input) {
  for (InflateFormat format : {InflateFormat::kRawDeflate, InflateFormat::kZlib}) {
    auto whole = Inflate(input, format, 1u << 20, 7);
    std::vector<uint8_t> streamed;
    Status status = InflateStream(input, format, 1u << 20, 7, [&](ByteSpan piece) {
      streamed.insert(streamed.end(), piece.data(), piece.data() + piece.size());
    });
    if (whole.ok() != status.ok()) Disagree("Inflate and InflateStream differ on success");
    if (whole.ok() && *whole != streamed) Disagree("InflateStream's bytes differ from Inflate's");
    if (!whole.ok() && whole.status().ToString() != status.ToString()) {
      Disagree("InflateStream's error differs from Inflate's");
    }
  }
}

// Fed in two pieces split where the first byte says.
void Gzip(ByteSpan input) {
  Limits limits = FuzzLimits();
  GzipDecoder decoder(limits, [](ByteSpan) { return OkStatus(); });
  size_t split = input.empty() ? 0 : input[0] % (input.size() + 1);
  if (!decoder.Feed(input.first(split)).ok()) return;
  if (!decoder.Feed(input.subspan(split)).ok()) return;
  (void)decoder.Finish();
}

// Walks the containers under `object` by recursion, each once: a parsed
// plist promises that this ends within limits.maxPlistDepth levels.
void Walk(const Plist& plist, uint32_t object, uint32_t level, uint32_t max_depth,
          std::vector<bool>& walked) {
  if (level > max_depth) Disagree("a parsed plist nests deeper than its limit, or in a cycle");
  if (walked[object]) return;
  for (uint32_t child : plist.object(object).children) {
    Walk(plist, child, level + 1, max_depth, walked);
  }
  walked[object] = true;
}

void BinaryPlist(ByteSpan input) {
  Limits limits = FuzzLimits();
  auto plist = Plist::Parse(input, limits);
  if (!plist.ok()) return;
  std::vector<bool> walked(plist->size());
  Walk(*plist, plist->root(), 0, limits.max_plist_depth, walked);
}

void KeyedArchiveTarget(ByteSpan input) {
  auto archive = KeyedArchive::Parse(input, FuzzLimits());
  if (!archive.ok()) return;
  for (std::string_view key : archive->TopKeys()) {
    auto top = archive->Top(key);
    if (top.ok()) (void)archive->Describe(*top, 6);
  }
}

// A typedstream, every value of every object asked for as each Foundation
// class, then read as a legacy run archive, as archived symbols and as an
// Allocations run's shared data.
void TypedStreamTarget(ByteSpan input) {
  auto stream = TypedStream::Parse(input, FuzzLimits());
  if (!stream.ok()) return;
  for (const TypedObject& object : stream->objects()) {
    for (const TypedValue* value : stream->Values(object)) {
      (void)stream->Number(*value);
      (void)stream->String(*value);
      (void)stream->Data(*value);
      (void)stream->Array(*value);
      (void)stream->Lookup(*value, "pid");
    }
  }
  (void)trace_bundle::ReadSamplerRun(*stream, FuzzLimits());
  (void)trace_bundle::ReadArchivedSymbols(*stream);
  (void)trace_bundle::ReadAllocationRun(*stream, FuzzLimits());
}

// An Allocations events file, read as if its shared data counted the records
// it holds after its header, and as many as fit in the whole file. Every
// event the reader gives keeps its promises: ids in order, an allocation
// paired with a later event, a free with an earlier one, no bytes for a free.
void AllocationEvents(ByteSpan input) {
  using trace_bundle::AllocationEventType;
  constexpr uint32_t kRecordSize = 56;
  uint32_t data_start = 0;
  if (input.size() >= 16) std::memcpy(&data_start, input.data() + 12, 4);
  trace_bundle::AllocationRun run;
  run.version = input.size() % 2 ? 2 : 3;
  run.record_size = kRecordSize;
  for (uint64_t count : {data_start < input.size() ? (input.size() - data_start) / kRecordSize : 0,
                         input.size() / kRecordSize}) {
    run.event_count = count;
    uint64_t next = 0;
    (void)trace_bundle::ReadAllocationEvents(
        input, run, [&](const trace_bundle::AllocationEvent& event) {
          if (event.id != next++) Disagree("Allocations events out of order");
          if (event.offset + kRecordSize > input.size()) Disagree("an event outside its file");
          bool allocation = event.type == static_cast<uint32_t>(AllocationEventType::kMalloc) ||
                            event.type == static_cast<uint32_t>(AllocationEventType::kVmAllocate);
          if (!allocation && event.size != 0) Disagree("a free or unread event with bytes");
          if (event.paired &&
              (allocation ? *event.paired <= event.id : *event.paired >= event.id)) {
            Disagree("an event paired against the order of time");
          }
          if (event.paired && *event.paired >= count) Disagree("an event paired outside the run");
          return OkStatus();
        });
  }
}

// A Mach-O, thin or universal (a binary, a dSYM's DWARF file): every image's
// DWARF read, and looked up at its symbols and inside their functions.
void MachO(ByteSpan input) {
  auto images = macho::ReadMachO(input);
  if (!images.ok()) return;
  for (const macho::Image& image : *images) {
    (void)image.text_address();
    (void)macho::ArchitectureName(image.cpu_type, image.cpu_subtype);
    auto debug_info = dwarf::DebugInfo::Read(image);
    if (!debug_info.ok()) continue;
    constexpr size_t kMaxLookups = 64;
    for (size_t i = 0; i < image.symbols.size() && i < kMaxLookups; ++i) {
      (void)debug_info->Lookup(image.symbols[i].address);
      (void)debug_info->Lookup(image.symbols[i].address + 6);
    }
  }
}

// A symbol file (Mach-O, or a zip of some) naming a small recording: a
// chain of frames at eight addresses across each image's __TEXT, in an image
// of the recording with its UUID and as bare addresses, every stack sampled
// (so each frame is a leaf once and a caller after).
void Symbolication(ByteSpan input) {
  constexpr uint64_t kUserLoad = 0x100000000;
  constexpr uint64_t kRecordedLoad = 0x200000000;
  SymbolFiles files(FuzzLimits());
  if (!files.Add("fuzz", std::vector<uint8_t>(input.data(), input.data() + input.size()), kUserLoad)
           .ok()) {
    return;
  }
  ProfileGroup group;
  Profile profile;
  auto add_frame = [&](uint64_t address, ImageId image) {
    Frame frame;
    frame.name = "frame";
    frame.address = address;
    frame.image = image;
    group.frames.push_back(frame);
    StackId parent =
        group.stacks.size() ? static_cast<StackId>(group.stacks.size() - 1) : kEmptyStack;
    group.stacks.parent.push_back(parent);
    group.stacks.frame.push_back(static_cast<FrameId>(group.frames.size() - 1));
    profile.samples.push_back(static_cast<StackId>(group.stacks.size() - 1));
    profile.weights.push_back(1);
  };
  for (size_t i = 0; i < files.images().size() && i < 4; ++i) {
    const SymbolImage& image = files.images()[i];
    group.images.push_back(CodeImage{"fuzz", image.arch(), image.uuid(), kRecordedLoad});
    for (uint64_t step = 0; step < 8; ++step) {
      uint64_t offset = image.text_size() / 8 * step + step;
      add_frame(kRecordedLoad + offset, static_cast<ImageId>(group.images.size() - 1));
      add_frame(kUserLoad + offset, kNoImage);
    }
  }
  group.profiles.push_back(std::move(profile));
  (void)Symbolicate(files, &group, /*lines=*/input.size() % 2 == 1, /*max_stack_nodes=*/100000);
}

void FormTemplate(ByteSpan input) {
  (void)trace_bundle::ReadFormTemplate(input, FuzzLimits());
}

// BulkStore over the whole and the row counter over pieces count alike.
void BulkStoreRows(ByteSpan input) {
  auto store = trace_bundle::BulkStore::Open(Share(input));
  trace_bundle::BulkStoreRowCounter counter;
  size_t piece = input.empty() ? 1 : input[input.size() - 1] % 64 + 1;
  for (size_t at = 0; at < input.size(); at += piece) {
    counter.Feed(input.subspan(at, std::min(piece, input.size() - at)));
  }
  auto counted = counter.Finish();
  if (store.ok() != counted.ok()) Disagree("BulkStore and the row counter differ on success");
  if (!store.ok()) {
    if (store.status().ToString() != counted.status().ToString()) {
      Disagree("the row counter's error differs from BulkStore's");
    }
    return;
  }
  uint64_t rows = 0;
  for (uint64_t i = 0; i < store->row_count(); ++i) rows += store->IsPadding(i) ? 0 : 1;
  if (rows != *counted) Disagree("the row counter's count differs from BulkStore's");
}

// An index and a data file: a 4-byte little-endian index length first.
void UniquerArrays(ByteSpan input) {
  if (input.size() < 4) return;
  uint32_t index_size;
  std::memcpy(&index_size, input.data(), 4);
  ByteSpan rest = input.subspan(4);
  index_size = static_cast<uint32_t>(std::min<size_t>(index_size, rest.size()));
  SharedBytes index = index_size ? Share(rest.first(index_size)) : nullptr;
  auto uniquer =
      trace_bundle::Uniquer::Open(index, Share(rest.subspan(index_size)), "integeruniquer.data");
  if (!uniquer.ok()) return;
  std::vector<uint64_t> elements;
  for (uint64_t ref = 0; ref < std::min<uint64_t>(uniquer->size(), 4096); ++ref) {
    elements.clear();
    (void)uniquer->AppendArray(ref, &elements, 16384);
    (void)uniquer->Head(ref, 2);
  }
}

void SymbolArchive(ByteSpan input) {
  auto archive = trace_bundle::SymbolArchive::Parse(input);
  if (archive.ok()) {
    for (uint64_t offset : {0ull, 0x1000ull, 0x4000ull, 0x100000ull}) (void)archive->Lookup(offset);
  }
  (void)trace_bundle::ParseImageList(input);
}

// A whole import and everything made from its result.
void ImportAll(ByteSpan input, size_t chunk) {
  ImportOptions options;
  options.name = "fuzz.trace";
  options.limits = FuzzLimits();
  Import import(options);
  for (size_t at = 0; at < input.size(); at += chunk) {
    if (!import.Feed(input.subspan(at, std::min(chunk, input.size() - at))).ok()) return;
  }
  auto group = import.Finish();
  if (!group.ok()) return;
  speedscope::WriteJson(*group, [](std::string_view) { return true; });
  firefox::WriteFirefoxJson(*group, [](std::string_view) { return true; });
  (void)speedscope::FoldedStacks(*group);
  (void)DumpJson(Summary(*group, SummaryFrames::kInclude));
}

// The folded stacks, or the error, of a whole import of `input` named `name`,
// fed `chunk` bytes at a time on up to `threads` threads.
Result<std::string> ImportFolded(ByteSpan input, const char* name, size_t chunk, uint32_t threads) {
  ImportOptions options;
  options.name = name;
  options.limits = FuzzLimits();
  options.threads = threads;
  Import import(options);
  for (size_t at = 0; at < input.size(); at += chunk) {
    RETURN_IF_ERROR(import.Feed(input.subspan(at, std::min(chunk, input.size() - at))));
  }
  auto group = import.Finish();
  RETURN_IF_ERROR(group.status());
  return speedscope::FoldedStacks(*group);
}

// One thread and two give the same stacks, or the same error at the same
// place: an export's slices, a bundle's members read ahead.
void CheckThreadsAgree(const std::string& target, ByteSpan input, const char* name, size_t chunk) {
  auto one = ImportFolded(input, name, chunk, 1);
  auto two = ImportFolded(input, name, chunk, 2);
  if (one.ok() != two.ok()) Disagree(target + ": one thread and two, one fails");
  if (!one.ok()) {
    if (one.status().ToString() != two.status().ToString()) {
      Disagree(target + ": one thread and two fail differently");
    }
  } else if (*one != *two) {
    Disagree(target + ": one thread and two give different stacks");
  }
}

// An XML export (or anything) fed in pieces of a size the input's length
// picks, on one thread and on two.
void XmlImport(ByteSpan input) {
  size_t chunk = 1 + input.size() % 4093;
  ImportAll(input, chunk);
  CheckThreadsAgree("xml", input, "fuzz.xml", chunk);
}

// The Deep Copy importer on its own, past the sniffer: the folded stacks, or
// the error, of `input` fed `chunk` bytes at a time.
Result<std::string> DeepCopyFolded(ByteSpan input, size_t chunk) {
  ImportOptions options;
  options.limits = FuzzLimits();
  ProfileBuilder builder(options.limits.max_samples, options.limits.max_stack_nodes);
  std::unique_ptr<StreamImporter> importer = deep_copy::CreateImporter(builder, options);
  for (size_t at = 0; at < input.size(); at += chunk) {
    RETURN_IF_ERROR(importer->Feed(input.subspan(at, std::min(chunk, input.size() - at))));
  }
  RETURN_IF_ERROR(importer->Finish());
  auto group = std::move(builder).Build("fuzz.txt", "fuzz");
  RETURN_IF_ERROR(group.status());
  return speedscope::FoldedStacks(*group);
}

// Deep Copy text (or anything) read whole and in small pieces gives the same
// profile, or the same error on the same line.
void DeepCopyText(ByteSpan input) {
  auto whole = DeepCopyFolded(input, std::max<size_t>(input.size(), 1));
  auto pieces = DeepCopyFolded(input, 1 + input.size() % 61);
  if (whole.ok() != pieces.ok()) Disagree("deep copy: whole and in pieces, one fails");
  if (!whole.ok()) {
    if (whole.status().ToString() != pieces.status().ToString()) {
      Disagree("deep copy: whole and in pieces fail differently");
    }
    return;
  }
  if (*whole != *pieces) Disagree("deep copy: whole and in pieces give different stacks");
}

// A symbol name of any scheme, in both styles: a value or nothing, in
// bounded time and memory, whatever the bytes.
void DemangleName(ByteSpan input) {
  std::string_view name = input.as_chars();
  for (demangle::Style style : {demangle::Style::kInstruments, demangle::Style::kFull}) {
    std::optional<std::string> readable = demangle::Demangle(name, style);
    if (readable && readable->empty()) Disagree("demangle: an empty name");
  }
}

// Any input imported whole; a zipped bundle (most of the seeds) on one
// thread and on two as well: exports are the xml target's.
void WholeImport(ByteSpan input) {
  size_t whole = std::max<size_t>(input.size(), 1);
  ImportAll(input, whole);
  if (LooksLikeZip(input)) CheckThreadsAgree("import", input, "fuzz.trace", whole);
}

}  // namespace

const std::vector<Target>& Targets() {
  static const std::vector<Target> targets = {
      {"zip", Zip},
      {"inflate", InflateBoth},
      {"gzip", Gzip},
      {"bplist", BinaryPlist},
      {"keyed_archive", KeyedArchiveTarget},
      {"form_template", FormTemplate},
      {"typedstream", TypedStreamTarget},
      {"allocation_events", AllocationEvents},
      {"macho", MachO},
      {"symbolication", Symbolication},
      {"bulkstore", BulkStoreRows},
      {"uniquer", UniquerArrays},
      {"symbol_archive", SymbolArchive},
      {"xml", XmlImport},
      {"deep_copy", DeepCopyText},
      {"demangle", DemangleName},
      {"import", WholeImport},
  };
  return targets;
}

const Target* FindTarget(std::string_view name) {
  for (const Target& target : Targets()) {
    if (name == target.name) return &target;
  }
  return nullptr;
}

}  // namespace instrumentscope::fuzz
