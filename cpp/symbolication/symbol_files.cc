#include "symbolication/symbol_files.h"

#include <algorithm>

#include "base/checked_math.h"
#include "base/text.h"
#include "container/zip.h"

namespace instrumentscope {

namespace {

// "_main" → "main", "__ZN3app4stepEv" → "_ZN3app4stepEv": the name without
// Mach-O's extra underscore, still mangled (frame names are demangled later).
std::string ReadableSymbol(std::string_view stored) {
  if (!stored.empty() && stored.front() == '_') stored.remove_prefix(1);
  return std::string(stored);
}

}  // namespace

SymbolImage::SymbolImage(std::string path, macho::Image image)
    : path_(std::move(path)),
      name_(BaseName(path_)),
      arch_(macho::ArchitectureName(image.cpu_type, image.cpu_subtype)),
      image_(std::move(image)) {
  for (const macho::Segment& segment : image_.segments) {
    if (segment.name == "__TEXT") {
      text_address_ = segment.address;
      text_size_ = segment.size;
    }
  }
}

Status SymbolImage::ReadDebugInfo() {
  auto debug_info = dwarf::DebugInfo::Read(image_);
  if (!debug_info.ok()) return debug_info.status().WithPath(path_);
  if (debug_info->has_units()) debug_info_ = std::move(*debug_info);
  return Status();
}

Result<std::vector<SymbolizedFrame>> SymbolImage::Lookup(uint64_t address) {
  std::vector<SymbolizedFrame> frames;
  if (debug_info_) {
    auto found = debug_info_->Lookup(address);
    if (!found.ok()) return found.status().WithPath(path_);
    for (dwarf::SourceFrame& source : *found) {
      SymbolizedFrame frame;
      frame.function = std::move(source.function);
      // Where the function is declared; without that, its binary: a line of
      // one of its addresses would name the function differently per address.
      if (!source.function_file.empty()) {
        frame.file = std::move(source.function_file);
        if (source.function_line > 0) frame.line = source.function_line;
      } else {
        frame.file = path_;
      }
      if (!source.file.empty() && source.line > 0) {
        frame.source_file = std::move(source.file);
        frame.source_line = source.line;
      }
      frames.push_back(std::move(frame));
    }
    // DWARF may leave a function unnamed (or out): the symbol table still knows it.
    if (!frames.empty() && !frames.front().function.empty()) return frames;
    frames.clear();
  }
  if (auto symbol = SymbolTableLookup(address)) frames.push_back(std::move(*symbol));
  return frames;
}

std::optional<SymbolizedFrame> SymbolImage::SymbolTableLookup(uint64_t address) const {
  // Only code: the symbol must lie in the same __TEXT section as the address.
  const macho::Section* section = nullptr;
  for (const macho::Section& candidate : image_.sections) {
    if (candidate.segment == "__TEXT" && address >= candidate.address &&
        address - candidate.address < candidate.size) {
      section = &candidate;
    }
  }
  if (!section) return std::nullopt;
  const std::vector<macho::Symbol>& symbols = image_.symbols;
  auto after = std::upper_bound(
      symbols.begin(), symbols.end(), address,
      [](uint64_t wanted, const macho::Symbol& symbol) { return wanted < symbol.address; });
  if (after == symbols.begin()) return std::nullopt;
  const macho::Symbol& symbol = *(after - 1);
  if (symbol.address < section->address) return std::nullopt;
  // A function the symbol table lacks (a stripped static one) starts between
  // the symbol and the address: the symbol is not its name.
  const std::vector<uint64_t>& starts = image_.function_starts;
  auto start = std::upper_bound(starts.begin(), starts.end(), address);
  if (start != starts.begin() && *(start - 1) > symbol.address) return std::nullopt;
  SymbolizedFrame frame;
  frame.function = ReadableSymbol(symbol.name);
  frame.file = path_;
  return frame;
}

Status SymbolFiles::Add(std::string path, std::vector<uint8_t> bytes,
                        std::optional<uint64_t> load_address) {
  ++files_given_;
  // A dSYM folder's other files (Info.plist, relocation maps) hold no symbols.
  if (path.find(".dSYM/") != std::string::npos &&
      path.find("/Contents/Resources/DWARF/") == std::string::npos) {
    return Status();
  }
  ByteSpan file(bytes.data(), bytes.size());
  if (macho::LooksLikeMachO(file)) {
    // Kept: the images refer into it (a vector's move keeps its buffer).
    files_.push_back(std::make_unique<std::vector<uint8_t>>(std::move(bytes)));
    return AddMachO(path, file, load_address);
  }
  if (!LooksLikeZip(file)) {
    // A folder's other files (an .app's resources, an .xcarchive's plists).
    if (path.find('/') != std::string::npos) return Status();
    return Status(ErrorCode::kUnknownFormat,
                  "not a Mach-O file (an app's binary, a dSYM's DWARF file) or a zip of them")
        .WithPath(path);
  }
  // The zip itself is dropped once its Mach-O members are out.
  auto zip = ZipArchive::Open(file, limits_);
  if (!zip.ok()) return zip.status().WithPath(path);
  size_t images_before = images_.size();
  for (const ZipEntry& entry : zip->entries()) {
    if (entry.is_directory) continue;
    std::string member = path + "!" + entry.name;
    std::optional<uint64_t> total = CheckedAdd(decompressed_bytes_, entry.uncompressed_size);
    if (!total || *total > limits_.max_decompressed_bytes) {
      return Status(ErrorCode::kLimitExceeded, "the symbol files expand to more than " +
                                                   std::to_string(limits_.max_decompressed_bytes) +
                                                   " bytes (limits.maxDecompressedBytes)")
          .WithPath(member);
    }
    decompressed_bytes_ = *total;
    auto contents = zip->Extract(entry);
    if (!contents.ok()) return contents.status().WithPath(member);
    if (!macho::LooksLikeMachO(ByteSpan(contents->data(), contents->size()))) continue;
    files_.push_back(std::make_unique<std::vector<uint8_t>>(std::move(*contents)));
    RETURN_IF_ERROR(
        AddMachO(member, ByteSpan(files_.back()->data(), files_.back()->size()), load_address));
  }
  if (images_.size() == images_before) {
    return Status(ErrorCode::kUnknownFormat, "the zip holds no Mach-O file (binary or dSYM)")
        .WithPath(path);
  }
  return Status();
}

Status SymbolFiles::AddMachO(const std::string& path, ByteSpan bytes,
                             std::optional<uint64_t> load_address) {
  auto images = macho::ReadMachO(bytes);
  if (!images.ok()) return images.status().WithPath(path);
  for (macho::Image& image : *images) {
    SymbolImage symbol_image(path, std::move(image));
    RETURN_IF_ERROR(symbol_image.ReadDebugInfo());
    images_.push_back(std::move(symbol_image));
    load_addresses_.push_back(load_address);
  }
  return Status();
}

}  // namespace instrumentscope
