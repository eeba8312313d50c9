// instrumentscope-native: the core built natively, for debugging, sanitizer
// runs and benchmarks. The CLI people use is the npm package's, which runs
// the same core as WebAssembly.
//
//   instrumentscope-native INPUT [-o OUT] [--run N] [--folded] [--list]
//                          [--symbols FILE[@LOADADDR]]... [--no-demangle]
//                          [--merge-consecutive] [--format speedscope|firefox]
//                          [--threads N]

#include <malloc.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "base/identifiers.h"
#include "base/json.h"
#include "base/text.h"
#include "container/gzip_writer.h"
#include "firefox/writer.h"
#include "import/import.h"
#include "report/summary.h"
#include "speedscope/folded_stacks.h"
#include "speedscope/writer.h"

namespace {

constexpr size_t kChunkBytes = 1 << 20;

int Usage() {
  std::fprintf(stderr,
               "usage: instrumentscope-native INPUT [-o OUT] [--run N] [--folded] [--list]\n"
               "                              [--symbols FILE[@LOADADDR]]... [--no-demangle]\n"
               "                              [--merge-consecutive] [--format speedscope|firefox]\n"
               "                              [--threads N]\n");
  return 2;
}

// What the command line asks for.
struct CommandLine {
  std::string input_path;
  std::string output_path;  // empty for stdout
  bool folded = false;
  bool list = false;
  bool firefox = false;  // the Firefox Profiler's format, not speedscope's
  std::vector<std::string> symbol_files;
  instrumentscope::ImportOptions options;
  instrumentscope::speedscope::WriteOptions write;
};

// nullopt when the arguments are not the usage's.
std::optional<CommandLine> ParseCommandLine(int argc, char** argv) {
  CommandLine command;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "-o" || arg == "--output") && i + 1 < argc) {
      command.output_path = argv[++i];
    } else if (arg == "--run" && i + 1 < argc) {
      char* end = nullptr;
      unsigned long run = std::strtoul(argv[++i], &end, 10);
      if (!end || *end || run == 0 || run > UINT32_MAX) return std::nullopt;
      command.options.run = static_cast<uint32_t>(run);
    } else if (arg == "--threads" && i + 1 < argc) {
      char* end = nullptr;
      unsigned long threads = std::strtoul(argv[++i], &end, 10);
      if (!end || *end || threads == 0 || threads > 1024) return std::nullopt;
      command.options.threads = static_cast<uint32_t>(threads);
    } else if (arg == "--folded") {
      command.folded = true;
    } else if (arg == "--list") {
      command.list = true;
    } else if (arg == "--merge-consecutive") {
      command.write.merge_consecutive = true;
    } else if (arg == "--format" && i + 1 < argc) {
      std::string format = argv[++i];
      if (format != "speedscope" && format != "firefox") return std::nullopt;
      command.firefox = format == "firefox";
    } else if (arg == "--no-demangle") {
      command.options.demangle = std::nullopt;
    } else if (arg == "--symbols" && i + 1 < argc) {
      command.symbol_files.push_back(argv[++i]);
    } else if (!arg.empty() && arg[0] != '-' && command.input_path.empty()) {
      command.input_path = arg;
    } else {
      return std::nullopt;
    }
  }
  if (command.input_path.empty()) return std::nullopt;

  // "x.trace/" is the folder x.trace, and names the profiles so.
  std::string& input_path = command.input_path;
  while (input_path.size() > 1 && input_path.back() == '/') input_path.pop_back();
  command.options.name = std::string(instrumentscope::BaseName(input_path));
  return command;
}

// Reads the file at `path` whole into `bytes`. Returns false, having said
// why, when it cannot be read.
bool ReadWholeFile(const std::string& path, std::vector<uint8_t>* bytes) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  bool read = file != nullptr;
  bytes->clear();
  uint8_t buffer[1 << 16];
  size_t count = 0;
  while (read && (count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    bytes->insert(bytes->end(), buffer, buffer + count);
  }
  if (read) read = !std::ferror(file);
  if (!read) {
    std::fprintf(stderr, "instrumentscope: cannot read %s: %s\n", path.c_str(),
                 std::strerror(errno));
  }
  if (file) std::fclose(file);
  return read;
}

// Reads `symbol_file` (FILE or FILE@LOADADDR) into `import`. Returns the exit
// status: 0 when the file was added, else having said why.
int AddSymbolFile(instrumentscope::Import& import, std::string symbol_file) {
  // FILE@0x… places a file for exports of bare addresses.
  std::optional<uint64_t> load_address;
  std::error_code error;
  size_t at = symbol_file.rfind('@');
  if (at != std::string::npos && !std::filesystem::exists(symbol_file, error)) {
    load_address = instrumentscope::ParseAddress(std::string_view(symbol_file).substr(at + 1));
    if (!load_address) {
      std::fprintf(stderr,
                   "instrumentscope: --symbols %s: no such file, and \"%s\" is no load address\n",
                   symbol_file.c_str(), symbol_file.c_str() + at + 1);
      return 2;
    }
    symbol_file.resize(at);
  }
  std::vector<uint8_t> bytes;
  if (!ReadWholeFile(symbol_file, &bytes)) return 1;
  instrumentscope::Status status = import.AddSymbolFile(
      std::string(instrumentscope::BaseName(symbol_file)), std::move(bytes), load_address);
  if (!status.ok()) {
    std::fprintf(stderr, "instrumentscope: --symbols %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}

// A .trace folder: its files, with bytes for those the importer reads.
// Returns false, having said why, when the folder cannot be listed; `status`
// is the import's own verdict.
bool FeedFolder(instrumentscope::Import& import, const std::string& folder,
                instrumentscope::Status* status) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<std::string> paths;
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(folder, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file()) continue;
    paths.push_back(fs::relative(it->path(), folder).generic_string());
    files.push_back(it->path());
  }
  std::vector<bool> wanted = instrumentscope::Import::WantedFiles(paths);
  for (size_t i = 0; i < paths.size() && status->ok() && !error; ++i) {
    std::vector<uint8_t> bytes;
    if (wanted[i] && !ReadWholeFile(files[i].string(), &bytes)) return false;
    *status = import.AddFile(paths[i], std::move(bytes));
  }
  if (error) {
    std::fprintf(stderr, "instrumentscope: cannot read %s: %s\n", folder.c_str(),
                 error.message().c_str());
    return false;
  }
  return true;
}

// A file (zipped bundle, export, Deep Copy), fed in chunks. Returns false,
// having said why, when it cannot be opened; `status` is the import's verdict.
bool FeedFile(instrumentscope::Import& import, const std::string& path,
              instrumentscope::Status* status) {
  std::FILE* input = std::fopen(path.c_str(), "rb");
  if (!input) {
    std::fprintf(stderr, "instrumentscope: cannot open %s: %s\n", path.c_str(),
                 std::strerror(errno));
    return false;
  }
  std::vector<uint8_t> buffer(kChunkBytes);
  size_t count;
  while (status->ok() && (count = std::fread(buffer.data(), 1, buffer.size(), input)) > 0) {
    *status = import.Feed(instrumentscope::ByteSpan(buffer.data(), count));
  }
  std::fclose(input);
  return true;
}

// The profiles in the format the command line asks for.
void WriteProfiles(const instrumentscope::ProfileGroup& group, const CommandLine& command,
                   const instrumentscope::JsonSink& sink) {
  if (command.firefox) {
    instrumentscope::firefox::WriteFirefoxJson(group, sink);
  } else {
    instrumentscope::speedscope::WriteJson(group, sink, command.write);
  }
}

// Writes the profiles (or their summary, or folded stacks) where the command
// line says; a name ending ".gz" is compressed. Returns the exit status.
int WriteOutput(const instrumentscope::ProfileGroup& group, const CommandLine& command) {
  std::ofstream file;
  if (!command.output_path.empty()) {
    file.open(command.output_path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "instrumentscope: cannot write %s\n", command.output_path.c_str());
      return 1;
    }
  }
  std::ostream& out = command.output_path.empty() ? std::cout : file;
  if (command.list) {
    out << instrumentscope::DumpJson(
               instrumentscope::Summary(group, instrumentscope::SummaryFrames::kOmit), 2)
        << "\n";
  } else if (command.folded) {
    out << instrumentscope::speedscope::FoldedStacks(group);
  } else if (instrumentscope::EndsWith(command.output_path, ".gz")) {
    instrumentscope::GzipWriter gzip([&out](std::string_view piece) {
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      return static_cast<bool>(out);
    });
    WriteProfiles(group, command, gzip.sink());
    gzip.Finish();
  } else {
    WriteProfiles(group, command, [&out](std::string_view piece) {
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      return static_cast<bool>(out);
    });
  }
  out.flush();
  return out ? 0 : 1;
}

// An import holds its tables, then its samples, then its profiles and their
// JSON, each freed as the next is made. glibc returns large freed blocks to
// the system at once and faults fresh pages in for the next: on a virtual
// machine a page fault costs microseconds, and the largest corpus bundle took
// 50k of them (a sixth of its time). Kept, freed memory is reused: 31k.
void ReuseFreedMemory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  ReuseFreedMemory();
  std::optional<CommandLine> command = ParseCommandLine(argc, argv);
  if (!command) return Usage();

  instrumentscope::Import import(command->options);
  for (const std::string& symbol_file : command->symbol_files) {
    if (int exit_status = AddSymbolFile(import, symbol_file)) return exit_status;
  }
  const std::string& input_path = command->input_path;
  instrumentscope::Status status;
  std::error_code error;
  bool readable = std::filesystem::is_directory(input_path, error)
                      ? FeedFolder(import, input_path, &status)
                      : FeedFile(import, input_path, &status);
  if (!readable) return 1;
  auto group = status.ok() ? import.Finish()
                           : instrumentscope::Result<instrumentscope::ProfileGroup>(status);
  if (!group.ok()) {
    std::fprintf(stderr, "instrumentscope: %s: %s\n", input_path.c_str(),
                 group.status().ToString().c_str());
    return 1;
  }

  for (const instrumentscope::Warning& warning : group->warnings) {
    std::fprintf(stderr, "instrumentscope: warning: %s\n", warning.message.c_str());
  }
  return WriteOutput(*group, *command);
}
