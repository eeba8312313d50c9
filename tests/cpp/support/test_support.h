// Helpers shared by the native tests: files, the corpus, whole imports.
#ifndef INSTRUMENTSCOPE_TESTS_CPP_TEST_SUPPORT_H_
#define INSTRUMENTSCOPE_TESTS_CPP_TEST_SUPPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "formats/importer.h"
#include "model/profile.h"

namespace instrumentscope::testing {

std::string SourcePath(const std::string& relative);
// The shared corpus (../shared/corpus beside the checkout, or
// $INSTRUMENTSCOPE_CORPUS); nullopt when it is absent.
std::optional<std::string> CorpusDir();
// Reports a skip and returns nullopt when the corpus is absent.
std::optional<std::string> CorpusFileOrSkip(const std::string& relative);

std::vector<uint8_t> ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& contents);

// Feeds `bytes` to a full Import in chunks of `chunk` bytes.
Result<ProfileGroup> ImportBytes(const std::vector<uint8_t>& bytes, ImportOptions options = {},
                                 size_t chunk = 64 * 1024);
Result<ProfileGroup> ImportText(const std::string& text, ImportOptions options = {},
                                size_t chunk = 64 * 1024);

// Hands a folder's files to a full Import, as the CLI does.
Result<ProfileGroup> ImportFolder(const std::string& folder, ImportOptions options = {});
// A file or a folder, named by its last path component.
Result<ProfileGroup> ImportPath(const std::string& path, ImportOptions options = {});

// zlib's deflate with the given window bits: 16 + 15 gzip, 15 zlib, -15 raw.
std::vector<uint8_t> Deflate(const std::vector<uint8_t>& bytes, int window_bits, int level = 9,
                             const std::string& dictionary = "");
std::vector<uint8_t> Gzip(const std::vector<uint8_t>& bytes);

// A stack as "root;…;leaf" frame names.
std::string StackText(const ProfileGroup& group, StackId stack);
// A writable copy of a corpus folder in a temporary folder, removed with it:
// the corpus is read-only, its copy is damaged on purpose.
class ScratchCopy {
 public:
  explicit ScratchCopy(const std::string& folder);
  ~ScratchCopy();
  ScratchCopy(const ScratchCopy&) = delete;
  ScratchCopy& operator=(const ScratchCopy&) = delete;

  const std::string& path() const { return path_; }
  // The folder holding the copy: the bundle one folder down.
  const std::string& top() const { return top_; }
  std::string operator/(const std::string& relative) const { return path_ + "/" + relative; }

 private:
  std::string top_;
  std::string path_;
};

// The messages of a group's warnings with this code.
std::vector<std::string> WarningMessages(const ProfileGroup& group, const std::string& code);
// How many of a group's profiles are one thread's CPU samples.
size_t ThreadProfiles(const ProfileGroup& group);

}  // namespace instrumentscope::testing

#endif  // INSTRUMENTSCOPE_TESTS_CPP_TEST_SUPPORT_H_
