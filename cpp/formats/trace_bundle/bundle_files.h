// The files of one bundle as the importer reads them: members inflated when
// they are raw zlib streams (every file under corespace/run<N>/core/ from
// Instruments 9.3 on), zips inside the bundle opened, and every byte read
// counted against limits.maxDecompressedBytes (and each member against
// limits.maxMemberBytes), in the order the import asks for them, whether or
// not a helper thread read them ahead (read_ahead.h). Knows no file's
// contents, and no path but those handed to it (bundle_layout.h has them).
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_FILES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_FILES_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/limits.h"
#include "base/status.h"
#include "container/file_tree.h"
#include "formats/trace_bundle/bundle_layout.h"
#include "formats/trace_bundle/read_ahead.h"

namespace instrumentscope::trace_bundle {

class BundleFiles {
 public:
  // `files` is the bundle, its root at the top.
  BundleFiles(const FileTree& files, const Limits& limits);
  ~BundleFiles();
  BundleFiles(const BundleFiles&) = delete;
  BundleFiles& operator=(const BundleFiles&) = delete;

  const BundleLayout& layout() const { return layout_; }
  const Limits& limits() const { return limits_; }
  bool Contains(std::string_view path) const { return files_.Contains(path); }

  // Reads the members planned ahead on up to `threads` - 1 helper threads
  // (base/threads.h), as many as are free; how many it got. Once only.
  uint32_t ReadAheadOn(uint32_t threads);
  // Members the import is about to read, in the order it will: read ahead,
  // when there are helpers, and taken by Read and ReadInPieces.
  void PlanReads(const std::vector<std::string>& paths);

  // A member read, and its size once inflated.
  struct MemberRead {
    std::string path;
    uint64_t size;
  };
  // The same files for a helper thread that reads a part of the import
  // (tables_ahead.h): within the same limits, each member it reads kept in
  // `reads` (which must outlive it) for the import to count when it takes
  // the part (CountRead).
  std::unique_ptr<BundleFiles> ForHelper(std::vector<MemberRead>* reads) const;
  // Whether members of `size` bytes more stay within limits.maxDecompressedBytes.
  bool HasRoomFor(uint64_t size) const {
    return size <= limits_.max_decompressed_bytes &&
           read_bytes_ <= limits_.max_decompressed_bytes - size;
  }
  // Counts a member a helper read (ForHelper) as if it were read here.
  Status CountRead(const MemberRead& read) { return Count(read.path, read.size); }

  // The file, inflated, counted.
  Result<SharedBytes> Read(const std::string& path);
  // The file as stored, not counted: form.template, a plain property list in
  // every version seen, whose reader bounds it by limits.maxPlistObjects.
  Result<SharedBytes> ReadAsStored(const std::string& path) const;
  // The file, inflated, handed to `piece` a part at a time, counted: for
  // files that are only summed up, never held whole.
  Status ReadInPieces(const std::string& path, const std::function<void(ByteSpan)>& piece);
  // The one file of a zip inside the bundle (a legacy run's archive, 4.5's
  // symbols), counted, and its path ("…/1.run.zip!/<member>").
  Result<std::vector<uint8_t>> ReadZipped(const std::string& path, std::string* member_path);

 private:
  // Adds a member's expanded size to the bundle's, within its limit.
  Status Count(const std::string& path, uint64_t size);

  const FileTree& files_;
  const Limits& limits_;
  BundleLayout layout_;
  uint64_t read_bytes_ = 0;                   // all members read so far, expanded
  std::vector<MemberRead>* reads_ = nullptr;  // a helper's (ForHelper)
  std::unique_ptr<ReadAhead> read_ahead_;
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_BUNDLE_FILES_H_
