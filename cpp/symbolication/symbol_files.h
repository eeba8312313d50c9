// The user's own binaries and dSYMs: Mach-O files, thin or universal, alone or
// zipped (a zipped .dSYM bundle, a folder of them). Each architecture becomes
// a SymbolImage that answers "what was at this address" from its DWARF, else
// from its symbol table.
#ifndef INSTRUMENTSCOPE_SYMBOLICATION_SYMBOL_FILES_H_
#define INSTRUMENTSCOPE_SYMBOLICATION_SYMBOL_FILES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "model/profile.h"
#include "symbolication/dwarf/debug_info.h"
#include "symbolication/macho/macho.h"

namespace instrumentscope {

// One frame of what an address was executing, innermost (inlined) first.
struct SymbolizedFrame {
  std::string function;
  std::string file;              // the function's source file, else the binary's path
  std::optional<uint32_t> line;  // where the function starts in `file`
  // The line executing: the address's own, or for a frame that called an
  // inlined one, the call site. Empty where DWARF has no line.
  std::string source_file;
  std::optional<uint32_t> source_line;
};

class SymbolImage {
 public:
  SymbolImage(std::string path, macho::Image image);

  const std::string& path() const { return path_; }  // "App.dSYM/Contents/Resources/DWARF/App"
  const std::string& name() const { return name_; }  // "App": the binary it describes
  const std::string& arch() const { return arch_; }  // "arm64"
  const std::optional<ImageUuid>& uuid() const { return image_.uuid; }
  bool has_debug_info() const { return debug_info_.has_value(); }
  // Where __TEXT is linked and how much it spans.
  uint64_t text_address() const { return text_address_; }
  uint64_t text_size() const { return text_size_; }

  // Reads the DWARF sections' index; a file without them keeps its symbol table only.
  Status ReadDebugInfo();
  // The frames at `address`, in the image's linked address space; empty when
  // neither DWARF nor the symbol table places a function there.
  Result<std::vector<SymbolizedFrame>> Lookup(uint64_t address);

 private:
  std::optional<SymbolizedFrame> SymbolTableLookup(uint64_t address) const;

  std::string path_;
  std::string name_;
  std::string arch_;
  macho::Image image_;
  uint64_t text_address_ = 0;
  uint64_t text_size_ = 0;
  std::optional<dwarf::DebugInfo> debug_info_;
};

class SymbolFiles {
 public:
  explicit SymbolFiles(Limits limits = {}) : limits_(limits) {}
  SymbolFiles(const SymbolFiles&) = delete;
  SymbolFiles& operator=(const SymbolFiles&) = delete;

  // A Mach-O file or a zip holding some. `path` names it in messages and
  // gives the binary's name, which matches images when UUIDs do not. Files of
  // a folder ("App.dSYM/Contents/Info.plist": a path with a '/') that are
  // neither are passed over, as are a .dSYM's files outside
  // Contents/Resources/DWARF/.
  // `load_address` places it for traces that record bare addresses: where
  // its __TEXT was in memory (else where it was linked).
  Status Add(std::string path, std::vector<uint8_t> bytes,
             std::optional<uint64_t> load_address = std::nullopt);

  // Whether any file was given, and whether any held a Mach-O image.
  bool given() const { return files_given_ > 0; }
  bool empty() const { return images_.empty(); }
  std::vector<SymbolImage>& images() { return images_; }
  // The load address the user gave for an image's file, if any.
  std::optional<uint64_t> load_address(size_t image) const { return load_addresses_[image]; }

 private:
  Status AddMachO(const std::string& path, ByteSpan bytes, std::optional<uint64_t> load_address);

  Limits limits_;
  uint64_t files_given_ = 0;
  uint64_t decompressed_bytes_ = 0;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> files_;  // what the images refer into
  std::vector<SymbolImage> images_;
  std::vector<std::optional<uint64_t>> load_addresses_;  // per image
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_SYMBOLICATION_SYMBOL_FILES_H_
