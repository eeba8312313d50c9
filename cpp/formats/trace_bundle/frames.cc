#include "formats/trace_bundle/frames.h"

#include "base/identifiers.h"
#include "base/text.h"
#include "formats/trace_bundle/legacy_sampler.h"

namespace instrumentscope::trace_bundle {
namespace {

// The pid of the cache shared by processes without symbols.
constexpr int64_t kNoPid = INT64_MIN;

}  // namespace

ProcessSymbols FrameNamer::CoreSymbols(const RunDetails* details, int64_t pid) {
  ProcessSymbols found;
  if (!details) return found;
  auto table = details->symbols.find(pid);
  if (table != details->symbols.end()) found.symbols = &table->second;
  auto listed = details->images.find(pid);
  if (listed != details->images.end()) found.images = &listed->second;
  return found;
}

ProcessSymbols FrameNamer::LegacySymbols(uint32_t run, const RunDetails* details, int64_t pid) {
  ProcessSymbols found;
  if (details) {
    auto table = details->symbols.find(pid);
    if (table != details->symbols.end()) found.symbols = &table->second;
  }
  if (!found.symbols) {
    const std::map<int64_t, SymbolTable>& archived = SharedDataSymbols(run);
    auto table = archived.find(pid);
    if (table != archived.end()) found.symbols = &table->second;
  }
  return found;
}

FrameNamer::Process& FrameNamer::ProcessOf(uint32_t run, int64_t pid, ProcessSymbols symbols) {
  auto [process, inserted] =
      processes_.try_emplace(std::make_pair(run, symbols.empty() ? kNoPid : pid));
  if (inserted) process->second.symbols = symbols;
  return process->second;
}

std::set<std::string> FrameNamer::ArchivesReadHereToo(const FrameNamer& part) const {
  std::set<std::string> paths;
  for (const auto& [uuid, archive] : part.archives_) {
    if (archives_.count(uuid)) paths.insert(SymbolArchivePath(FormatUuid(uuid)));
  }
  return paths;
}

FrameId FrameNamer::Name(const ProcessSymbols& symbols, uint64_t address, bool caller) {
  // Instruments' own name for a slot it had no address for (corespace
  // stacks skip such slots).
  if (address == kUnknownAddress) {
    return builder_.InternFrame(FrameDesc{"<Unknown Address>", {}, {}, {}, {}, kNoImage});
  }
  std::optional<SymbolTable::Match> match;
  if (symbols.symbols) {
    match = symbols.symbols->Lookup(address);
    // A caller's return address can lie just past its function's end.
    if (!match && caller && address > 0) match = symbols.symbols->Lookup(address - 1);
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
  ArchiveMatch archived =
      symbols.images ? ArchiveFrame(*symbols.images, address, caller) : ArchiveMatch{};
  if (archived.function && !archived.function->name.empty()) {
    desc.name = archived.function->name;
    desc.image = archived.image->path;
    desc.folded = archived.function->folded;
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

FrameNamer::ArchiveMatch FrameNamer::ArchiveFrame(const std::vector<ProcessImage>& images,
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

const SymbolArchive* FrameNamer::Archive(const ImageUuid& uuid) {
  auto cached = archives_.find(uuid);
  if (cached != archives_.end()) return cached->second ? &*cached->second : nullptr;
  std::optional<SymbolArchive>& slot = archives_[uuid];
  std::string path = SymbolArchivePath(FormatUuid(uuid));
  if (!files_.Contains(path)) return nullptr;
  auto bytes = files_.Read(path);
  auto archive = bytes.ok() ? SymbolArchive::Parse(ByteSpan((*bytes)->data(), (*bytes)->size()))
                            : Result<SymbolArchive>(bytes.status());
  if (!archive.ok()) {
    // A limit reached is kept by left_out_ (ended()), and ends the import
    // once the table being read is.
    Status status = archive.status();
    left_out_.LeaveOut(WarningCode::kSymbolsUnreadable, "a symbol archive", status.WithPath(path),
                       "the names of its image's functions: their frames stay addresses",
                       PartRole::kDetails);
    return nullptr;
  }
  slot = std::move(*archive);
  return &*slot;
}

const std::map<int64_t, SymbolTable>& FrameNamer::SharedDataSymbols(uint32_t run) {
  auto [entry, inserted] = shared_data_.try_emplace(run);
  if (!inserted) return entry->second;
  auto zips = files_.layout().shared_data_zips.find(run);
  if (zips == files_.layout().shared_data_zips.end()) return entry->second;
  for (const std::string& path : zips->second) {
    std::string member_path;
    auto bytes = files_.ReadZipped(path, &member_path);
    auto tables = bytes.ok()
                      ? ReadArchivedSymbols(ByteSpan(bytes->data(), bytes->size()), files_.limits())
                      : Result<std::map<int64_t, SymbolTable>>(bytes.status());
    if (!tables.ok()) {
      Status status = tables.status();
      std::string number = std::to_string(run);
      // A limit reached is kept as left_out_.ended(), as for archives.
      left_out_.LeaveOut(
          WarningCode::kSymbolsUnreadable, "a symbols zip of run " + number,
          status.WithPath(member_path.empty() ? path : member_path),
          "the names of run " + number + "'s functions it holds: their frames stay addresses",
          PartRole::kDetails);
      continue;
    }
    for (auto& [pid, table] : *tables) entry->second.try_emplace(pid, std::move(table));
  }
  return entry->second;
}

}  // namespace instrumentscope::trace_bundle
