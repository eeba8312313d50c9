// What every input format implements: a streaming importer that is fed the
// input's bytes in order and hands frames, stacks and samples to the shared
// ProfileBuilder. Formats that need random access buffer what they need. A
// format whose input can also be a folder (a .trace bundle) says which of a
// folder's files it reads, and imports them.
#ifndef INSTRUMENTSCOPE_FORMATS_IMPORTER_H_
#define INSTRUMENTSCOPE_FORMATS_IMPORTER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "demangle/style.h"

namespace instrumentscope {

class FileTree;
class ProfileBuilder;

struct ImportOptions {
  std::string name;             // the input's file name, for the output's name
  std::optional<uint32_t> run;  // import only this run
  Limits limits;
  // Frames named from the user's symbol files: one per function, at its
  // first line (the default), or one per source line executing (the leaf's
  // line, each caller's call site), which splits a function by its lines.
  bool symbol_lines = false;
  // How frame names are demangled; nullopt keeps them as the input spells them.
  std::optional<demangle::Style> demangle = demangle::Style::kInstruments;
  // Whether tables of intervals and events (signposts, hangs, thermal states,
  // page faults) are read, and the views of threads together and of samples
  // during intervals are made. Off: CPU samples alone, one profile per thread.
  bool intervals = true;
  // Threads the import may use, this one included; 0 is one per core
  // (base/threads.h).
  uint32_t threads = 0;
};

class StreamImporter {
 public:
  virtual ~StreamImporter() = default;
  virtual Status Feed(ByteSpan bytes) = 0;
  // Called once after the last Feed; the builder then holds everything.
  virtual Status Finish() = 0;
};

// How sure a sniffer is that a prefix of the input is its format.
enum class SniffMatch : uint8_t { kNo, kMaybe, kYes };

struct FormatDescriptor {
  const char* name;  // e.g. "xctrace-xml"
  // Looks at up to kSniffBytes from the start of the (decompressed) input.
  SniffMatch (*sniff)(ByteSpan prefix);
  std::unique_ptr<StreamImporter> (*create)(ProfileBuilder& builder, const ImportOptions& options);
  // For formats read from folders too, else null. For all of a folder's
  // paths ('/'-separated), whether each is worth reading: the others may be
  // handed over without their bytes.
  std::vector<bool> (*wanted_files)(const std::vector<std::string>& paths) = nullptr;
  // Imports a folder's files (those not wanted may be empty).
  Status (*import_files)(const FileTree& files, ProfileBuilder& builder,
                         const ImportOptions& options) = nullptr;
};

// Enough bytes for every sniffer to decide.
inline constexpr size_t kSniffBytes = 4096;

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_FORMATS_IMPORTER_H_
