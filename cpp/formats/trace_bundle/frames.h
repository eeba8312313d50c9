// Frames for the addresses in bundle backtraces, for corespace and legacy
// runs alike. A frame is named from the symbols Instruments stored: per
// process in form.template (up to Instruments 11), in 4.5's shared_data/<N>.run
// zips, or in the symbol archives of symbols/stores/ placed by the process's
// image list (12 and later); else it is "image+0xoffset" inside a known image,
// else its address (kept, with its image, for symbolication from the user's
// files). One cache of frames per process of a run: unsymbolicated stacks
// repeat addresses in hundreds of thousands of distinct stacks. Archives and
// shared_data zips are read when first needed; a damaged one is a
// SYMBOLS_UNREADABLE warning saying its frames stay addresses (diagnostics.h).
#ifndef INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FRAMES_H_
#define INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FRAMES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/integer_map.h"
#include "formats/trace_bundle/bundle_files.h"
#include "formats/trace_bundle/diagnostics.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/symbol_archive.h"
#include "model/profile_builder.h"

namespace instrumentscope::trace_bundle {

// Backtrace slots Instruments filled without an address: corespace stacks
// skip both; legacy runs show the second as Instruments does.
inline constexpr uint64_t kNoAddress = UINT64_MAX;
inline constexpr uint64_t kUnknownAddress = UINT64_MAX - 1;

// What names one process's frames; either may be null.
struct ProcessSymbols {
  const SymbolTable* symbols = nullptr;               // up to Instruments 11, and 4.5's
  const std::vector<ProcessImage>* images = nullptr;  // Instruments 12 and later

  bool empty() const { return !symbols && !images; }
};

class FrameNamer {
 public:
  FrameNamer(BundleFiles& files, ProfileBuilder& builder, LeftOutParts& left_out)
      : files_(files), builder_(builder), left_out_(left_out) {}

  // The frames of one process of a run, by address.
  struct Process {
    ProcessSymbols symbols;
    // Leaves apart from callers, which are looked up inside their call.
    IntegerMap leaves;
    IntegerMap callers;
  };

  // The symbols of process `pid` of a corespace run: form.template's.
  static ProcessSymbols CoreSymbols(const RunDetails* details, int64_t pid);
  // Of a legacy run: form.template's, else its shared_data zips' (4.5).
  ProcessSymbols LegacySymbols(uint32_t run, const RunDetails* details, int64_t pid);
  // The cache of a process of `run`; processes without symbols share one.
  Process& ProcessOf(uint32_t run, int64_t pid, ProcessSymbols symbols);

  // Of the symbol archives `part` read (a helper's namer, tables_ahead.h),
  // the paths of those this namer has read too.
  std::set<std::string> ArchivesReadHereToo(const FrameNamer& part) const;
  // Takes the archives `part` read that this namer has not, as if read here.
  void TakeArchives(FrameNamer& part) { archives_.merge(part.archives_); }

  FrameId Frame(Process& process, uint64_t address, bool caller) {
    IntegerMap& named = caller ? process.callers : process.leaves;
    FrameId frame = named.Find(address);
    if (frame == IntegerMap::kNoValue) {
      frame = Name(process.symbols, address, caller);
      named.Insert(address, frame);
    }
    return frame;
  }

 private:
  // The image of the process at `address`, and the function the symbol
  // archives name there, if any.
  struct ArchiveMatch {
    const ProcessImage* image = nullptr;
    std::optional<SymbolArchive::Function> function;
  };

  FrameId Name(const ProcessSymbols& symbols, uint64_t address, bool caller);
  ArchiveMatch ArchiveFrame(const std::vector<ProcessImage>& images, uint64_t address, bool caller);
  const SymbolArchive* Archive(const ImageUuid& uuid);
  const std::map<int64_t, SymbolTable>& SharedDataSymbols(uint32_t run);

  BundleFiles& files_;
  ProfileBuilder& builder_;
  LeftOutParts& left_out_;
  std::map<std::pair<uint32_t, int64_t>, Process> processes_;       // by run, then pid
  std::map<ImageUuid, std::optional<SymbolArchive>> archives_;      // unreadable ones: nullopt
  std::map<uint32_t, std::map<int64_t, SymbolTable>> shared_data_;  // by run, then pid
};

}  // namespace instrumentscope::trace_bundle

#endif  // INSTRUMENTSCOPE_FORMATS_TRACE_BUNDLE_FRAMES_H_
