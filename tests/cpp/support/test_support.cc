#include "test_support.h"

#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "import/import.h"

namespace instrumentscope::testing {

std::string SourcePath(const std::string& relative) {
  return std::string(INSTRUMENTSCOPE_SOURCE_DIR) + "/" + relative;
}

std::optional<std::string> CorpusDir() {
  const char* override_dir = std::getenv("INSTRUMENTSCOPE_CORPUS");
  std::string dir = override_dir ? override_dir : SourcePath("../shared/corpus");
  struct stat info;
  if (stat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return std::nullopt;
  return dir;
}

std::optional<std::string> CorpusFileOrSkip(const std::string& relative) {
  auto dir = CorpusDir();
  if (!dir) {
    WARN("skipped: the shared corpus (../shared/corpus) is absent");
    return std::nullopt;
  }
  return *dir + "/" + relative;
}

std::vector<uint8_t> ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  INFO("reading " << path);
  REQUIRE(file.good());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

void WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream file(path, std::ios::binary);
  file << contents;
  INFO("writing " << path);
  REQUIRE(file.good());
}

Result<ProfileGroup> ImportBytes(const std::vector<uint8_t>& bytes, ImportOptions options,
                                 size_t chunk) {
  Import import(std::move(options));
  for (size_t offset = 0; offset < bytes.size(); offset += chunk) {
    size_t size = std::min(chunk, bytes.size() - offset);
    Status status = import.Feed(ByteSpan(bytes.data() + offset, size));
    if (!status.ok()) return status;
  }
  return import.Finish();
}

Result<ProfileGroup> ImportText(const std::string& text, ImportOptions options, size_t chunk) {
  return ImportBytes(std::vector<uint8_t>(text.begin(), text.end()), std::move(options), chunk);
}

Result<ProfileGroup> ImportFolder(const std::string& folder, ImportOptions options) {
  namespace fs = std::filesystem;
  Import import(std::move(options));
  std::vector<std::string> paths;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file())
      paths.push_back(fs::relative(entry.path(), folder).generic_string());
  }
  std::vector<bool> wanted = Import::WantedFiles(paths);
  for (size_t i = 0; i < paths.size(); ++i) {
    std::vector<uint8_t> bytes;
    if (wanted[i]) bytes = ReadFile(folder + "/" + paths[i]);
    Status status = import.AddFile(paths[i], std::move(bytes));
    if (!status.ok()) return status;
  }
  return import.Finish();
}

Result<ProfileGroup> ImportPath(const std::string& path, ImportOptions options) {
  options.name = std::filesystem::path(path).filename().string();
  if (std::filesystem::is_directory(path)) return ImportFolder(path, std::move(options));
  return ImportBytes(ReadFile(path), std::move(options));
}

std::vector<uint8_t> Deflate(const std::vector<uint8_t>& bytes, int window_bits, int level,
                             const std::string& dictionary) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  if (!dictionary.empty()) {
    REQUIRE(deflateSetDictionary(&stream, reinterpret_cast<const Bytef*>(dictionary.data()),
                                 static_cast<uInt>(dictionary.size())) == Z_OK);
  }
  std::vector<uint8_t> out(deflateBound(&stream, bytes.size()) + 64);
  stream.next_in = const_cast<Bytef*>(bytes.data());
  stream.avail_in = static_cast<uInt>(bytes.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::vector<uint8_t> Gzip(const std::vector<uint8_t>& bytes) {
  return Deflate(bytes, 16 + MAX_WBITS);
}

ScratchCopy::ScratchCopy(const std::string& folder) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "instrumentscope-scratch-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  top_ = pattern;
  path_ = top_ + "/" + fs::path(folder).filename().string();
  fs::copy(folder, path_, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(path_)) {
    fs::permissions(entry.path(), fs::perms::owner_all, fs::perm_options::add);
  }
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add);
}

ScratchCopy::~ScratchCopy() {
  std::filesystem::remove_all(top_);
}

std::vector<std::string> WarningMessages(const ProfileGroup& group, const std::string& code) {
  std::vector<std::string> messages;
  for (const Warning& warning : group.warnings) {
    if (warning.code == code) messages.push_back(warning.message);
  }
  return messages;
}

size_t ThreadProfiles(const ProfileGroup& group) {
  return static_cast<size_t>(
      std::count_if(group.profiles.begin(), group.profiles.end(),
                    [](const Profile& profile) { return profile.kind == ProfileKind::kThread; }));
}

std::string StackText(const ProfileGroup& group, StackId stack) {
  std::vector<std::string> names;
  for (StackId s = stack; s != kEmptyStack; s = group.stacks.parent[s]) {
    names.push_back(group.frames[group.stacks.frame[s]].name);
  }
  std::string text;
  for (size_t i = names.size(); i-- > 0;) text += names[i] + (i ? ";" : "");
  return text;
}

}  // namespace instrumentscope::testing
