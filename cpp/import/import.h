// The entry point of the core: feed an input's bytes in order, get a
// ProfileGroup. Content decides everything: gzip is unwrapped when the bytes
// say gzip, and the format is the registry's best sniffer match.
#ifndef INSTRUMENTSCOPE_IMPORT_IMPORT_H_
#define INSTRUMENTSCOPE_IMPORT_IMPORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "container/file_tree.h"
#include "formats/importer.h"
#include "model/profile.h"
#include "model/profile_builder.h"
#include "symbolication/symbol_files.h"

namespace instrumentscope {

class GzipDecoder;

// Stages reported to progress callbacks.
enum class ImportStage : uint8_t { kDetecting, kParsing, kBuilding, kSymbolicating, kDone };
const char* ImportStageName(ImportStage stage);

struct ImportProgress {
  ImportStage stage = ImportStage::kDetecting;
  uint64_t bytes_read = 0;  // input bytes fed so far
  uint64_t samples = 0;     // samples decoded so far
};

class Import {
 public:
  explicit Import(ImportOptions options);
  ~Import();
  Import(const Import&) = delete;
  Import& operator=(const Import&) = delete;

  // Errors are sticky: after one, every call returns it.
  Status Feed(ByteSpan bytes);
  // Instead of Feed: the files of a folder (a .trace bundle), one by one.
  // Files that WantedFiles() declines may be added with no bytes.
  Status AddFile(std::string_view path, std::vector<uint8_t> bytes);
  // For all the paths of a folder, whether each is read.
  static std::vector<bool> WantedFiles(const std::vector<std::string>& paths);
  // The user's own binaries and dSYMs (SymbolFiles::Add), any time before
  // Finish(), which then names the frames the input left unnamed.
  Status AddSymbolFile(std::string path, std::vector<uint8_t> bytes,
                       std::optional<uint64_t> load_address = std::nullopt);
  Result<ProfileGroup> Finish();
  ImportProgress progress() const;

  // What a file is, by its first bytes (kSniffBytes suffice): a recording
  // (a zipped bundle, an export, plain or gzip-compressed, a Deep Copy), a
  // symbol file (a Mach-O binary or dSYM, 32- or 64-bit, thin or universal),
  // or neither. A zip is a recording: whether it holds a bundle or symbols,
  // only its names say.
  enum class FileRole : uint8_t { kRecording, kSymbols, kUnknown };
  static FileRole RoleOf(ByteSpan prefix);

 private:
  Status FeedDecoded(ByteSpan bytes);
  Status StartContainer();
  Status StartFormat();
  Status UnknownFormatError(ByteSpan prefix) const;
  Status Fail(Status status);
  Result<ProfileGroup> Build();

  ImportOptions options_;
  ProfileBuilder builder_;
  Status status_;
  ImportStage stage_ = ImportStage::kDetecting;
  uint64_t bytes_read_ = 0;
  bool finished_ = false;
  std::vector<uint8_t> raw_prefix_;  // input held until the container is known
  bool container_known_ = false;
  std::unique_ptr<GzipDecoder> gzip_;
  std::vector<uint8_t> decoded_prefix_;  // content held until the format is known
  std::unique_ptr<StreamImporter> importer_;
  std::unique_ptr<FolderTree> folder_;
  SymbolFiles symbol_files_;
};

// The version written into every output's "exporter" field.
const char* Version();

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_IMPORT_IMPORT_H_
