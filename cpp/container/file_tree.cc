#include "container/file_tree.h"

#include <algorithm>

namespace instrumentscope {
namespace {

constexpr std::string_view kNestedSeparator = "!/";

std::string NormalizePath(std::string_view path) {
  std::string normalized(path);
  std::replace(normalized.begin(), normalized.end(), '\\', '/');
  size_t start = 0;
  while (true) {
    if (normalized.compare(start, 2, "./") == 0) {
      start += 2;
    } else if (normalized.compare(start, 1, "/") == 0) {
      start += 1;
    } else {
      break;
    }
  }
  return normalized.substr(start);
}

}  // namespace

bool IsJunkPath(std::string_view path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    std::string_view part = path.substr(start, end == std::string_view::npos ? end : end - start);
    if (part == "__MACOSX" || part == ".DS_Store" || part == ".idea" || part == ".git" ||
        part.substr(0, 2) == "._") {
      return true;
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

bool FileTree::Contains(std::string_view path) const {
  const auto& all = paths();
  return std::binary_search(all.begin(), all.end(), path,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

Result<SharedBytes> FileTree::Read(std::string_view path) const {
  size_t separator = path.find(kNestedSeparator);
  // A folder may be named "wow!": a file's own path is never a nested one.
  if (separator == std::string_view::npos || Contains(path)) return ReadFile(path);

  // "outer.zip!/inner": open each level's zip in turn.
  std::string outer(path.substr(0, separator));
  SharedBytes bytes;
  ASSIGN_OR_RETURN(bytes, ReadFile(outer));
  std::string_view rest = path.substr(separator + kNestedSeparator.size());
  // Zips inside zips inside zips…: a limit, so a crafted archive cannot recurse.
  for (uint64_t level = 1;; ++level) {
    if (level > limits_.max_zip_nesting) {
      return Status(ErrorCode::kLimitExceeded, "zips nested more than " +
                                                   std::to_string(limits_.max_zip_nesting) +
                                                   " deep (limits.maxZipNesting)")
          .WithPath(std::string(path));
    }
    std::unique_ptr<ZipTree> inner;
    auto opened = ZipTree::Open(bytes, limits_);
    if (!opened.ok()) return opened.status().WithOuterPath(outer);
    inner = opened.take();
    size_t next = rest.find(kNestedSeparator);
    std::string_view member = rest.substr(0, next);
    auto read = static_cast<const FileTree&>(*inner).ReadFile(member);
    if (!read.ok()) return read.status().WithOuterPath(outer);
    bytes = read.take();
    if (next == std::string_view::npos) return bytes;
    outer += std::string(kNestedSeparator) + std::string(member);
    rest = rest.substr(next + kNestedSeparator.size());
  }
}

void FolderTree::Add(std::string_view path, std::vector<uint8_t> bytes) {
  std::string normalized = NormalizePath(path);
  auto shared = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  auto [entry, inserted] = files_.insert_or_assign(normalized, std::move(shared));
  if (inserted) {
    paths_.insert(std::upper_bound(paths_.begin(), paths_.end(), entry->first), entry->first);
  }
}

Result<SharedBytes> FolderTree::ReadFile(std::string_view path) const {
  auto entry = files_.find(path);
  if (entry == files_.end()) {
    return Status(ErrorCode::kBundleCorrupt, "the folder has no file " + std::string(path))
        .WithPath(std::string(path));
  }
  return entry->second;
}

ZipTree::ZipTree(SharedBytes archive, ZipArchive zip, const Limits& limits)
    : FileTree(limits), archive_(std::move(archive)), zip_(std::move(zip)) {
  const auto& entries = zip_.entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].is_directory) continue;
    // A name twice in one archive: the later entry wins, as when unzipping.
    entry_by_path_[NormalizePath(entries[i].name)] = i;
  }
  for (const auto& [path, index] : entry_by_path_) paths_.push_back(path);
}

Result<std::unique_ptr<ZipTree>> ZipTree::Open(SharedBytes archive, const Limits& limits) {
  ByteSpan bytes(archive->data(), archive->size());
  auto zip = ZipArchive::Open(bytes, limits);
  if (!zip.ok()) return zip.status();
  return std::unique_ptr<ZipTree>(new ZipTree(std::move(archive), zip.take(), limits));
}

Result<SharedBytes> ZipTree::ReadFile(std::string_view path) const {
  auto entry = entry_by_path_.find(path);
  if (entry == entry_by_path_.end()) {
    return Status(ErrorCode::kBundleCorrupt, "the zip archive has no member " + std::string(path))
        .WithPath(std::string(path));
  }
  auto bytes = zip_.Extract(zip_.entries()[entry->second]);
  if (!bytes.ok()) return bytes.status();
  return std::make_shared<const std::vector<uint8_t>>(bytes.take());
}

SubTree::SubTree(const FileTree& base, std::string prefix, const Limits& limits)
    : FileTree(limits), base_(base), prefix_(std::move(prefix)) {
  if (!prefix_.empty() && prefix_.back() != '/') prefix_ += '/';
  for (const std::string& path : base_.paths()) {
    if (path.compare(0, prefix_.size(), prefix_) == 0)
      paths_.push_back(path.substr(prefix_.size()));
  }
}

Result<SharedBytes> SubTree::ReadFile(std::string_view path) const {
  auto bytes = base_.Read(prefix_ + std::string(path));
  if (!bytes.ok()) {
    // Errors name paths inside this tree, like every path it hands out.
    const std::string& full = bytes.status().path();
    if (full.compare(0, prefix_.size(), prefix_) == 0) {
      return bytes.status().Rebased(full.substr(prefix_.size()));
    }
  }
  return bytes;
}

}  // namespace instrumentscope
