// The files of an input that is a tree rather than one stream: a zip archive
// or a folder handed over file by file. Paths are '/'-separated and relative
// to the tree's top; a member of a nested zip is "outer.zip!/inner/path".
#ifndef INSTRUMENTSCOPE_CONTAINER_FILE_TREE_H_
#define INSTRUMENTSCOPE_CONTAINER_FILE_TREE_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/byte_span.h"
#include "base/limits.h"
#include "base/status.h"
#include "container/zip.h"

namespace instrumentscope {

using SharedBytes = std::shared_ptr<const std::vector<uint8_t>>;

class FileTree {
 public:
  virtual ~FileTree() = default;
  // Every file's path, sorted; no directories.
  virtual const std::vector<std::string>& paths() const = 0;
  bool Contains(std::string_view path) const;
  // The bytes of `path`, reading through nested zips ("a.zip!/b").
  Result<SharedBytes> Read(std::string_view path) const;

 protected:
  explicit FileTree(const Limits& limits) : limits_(limits) {}
  virtual Result<SharedBytes> ReadFile(std::string_view path) const = 0;
  const Limits& limits_;
};

// A folder given as (path, bytes) pairs: the CLI's directories and folders
// dropped on the page.
class FolderTree final : public FileTree {
 public:
  explicit FolderTree(const Limits& limits) : FileTree(limits) {}
  // Backslashes become '/', and leading "./" and "/" are dropped.
  void Add(std::string_view path, std::vector<uint8_t> bytes);
  const std::vector<std::string>& paths() const override { return paths_; }

 protected:
  Result<SharedBytes> ReadFile(std::string_view path) const override;

 private:
  std::map<std::string, SharedBytes, std::less<>> files_;
  std::vector<std::string> paths_;
};

// A zip archive; members are inflated when read.
class ZipTree final : public FileTree {
 public:
  static Result<std::unique_ptr<ZipTree>> Open(SharedBytes archive, const Limits& limits);
  const std::vector<std::string>& paths() const override { return paths_; }

 protected:
  Result<SharedBytes> ReadFile(std::string_view path) const override;

 private:
  ZipTree(SharedBytes archive, ZipArchive zip, const Limits& limits);

  SharedBytes archive_;
  ZipArchive zip_;
  std::map<std::string, size_t, std::less<>> entry_by_path_;
  std::vector<std::string> paths_;
};

// The files below `prefix` of another tree, with the prefix taken off.
class SubTree final : public FileTree {
 public:
  SubTree(const FileTree& base, std::string prefix, const Limits& limits);
  const std::vector<std::string>& paths() const override { return paths_; }

 protected:
  Result<SharedBytes> ReadFile(std::string_view path) const override;

 private:
  const FileTree& base_;
  std::string prefix_;  // ends with '/', or is empty
  std::vector<std::string> paths_;
};

// Files that archivers and file managers add and no importer wants:
// __MACOSX/ resource forks, ._ AppleDouble files, .DS_Store, editor folders.
bool IsJunkPath(std::string_view path);

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_FILE_TREE_H_
