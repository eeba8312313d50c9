#include "import/import.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "container/gzip.h"
#include "formats/registry.h"
#include "report/naming.h"
#include "report/warnings.h"
#include "symbolication/demangle_frames.h"
#include "symbolication/macho/macho.h"
#include "symbolication/symbolicate.h"

#ifndef INSTRUMENTSCOPE_VERSION
#error "INSTRUMENTSCOPE_VERSION must be defined by the build (from package.json)"
#endif

namespace instrumentscope {

const char* Version() {
  return INSTRUMENTSCOPE_VERSION;
}

const char* ImportStageName(ImportStage stage) {
  switch (stage) {
    case ImportStage::kDetecting: return "detecting";
    case ImportStage::kParsing: return "parsing";
    case ImportStage::kBuilding: return "building";
    case ImportStage::kSymbolicating: return "symbolicating";
    case ImportStage::kDone: return "done";
  }
  return "unknown";
}

Import::Import(ImportOptions options)
    : options_(std::move(options)),
      builder_(options_.limits.max_samples, options_.limits.max_stack_nodes),
      symbol_files_(options_.limits) {
  builder_.SetMakeViews(options_.intervals);
}

Import::~Import() = default;

ImportProgress Import::progress() const {
  return ImportProgress{stage_, bytes_read_, builder_.total_samples()};
}

Status Import::Fail(Status status) {
  if (!status.ok() && status_.ok()) status_ = status;
  return status;
}

std::vector<bool> Import::WantedFiles(const std::vector<std::string>& paths) {
  return WantedFolderFiles(paths);
}

Status Import::AddFile(std::string_view path, std::vector<uint8_t> bytes) {
  if (!status_.ok()) return status_;
  if (finished_) return Status(ErrorCode::kInvalidArgument, "AddFile() after Finish()");
  if (bytes_read_ > 0 && !folder_) {
    return Status(ErrorCode::kInvalidArgument,
                  "AddFile() after Feed(): one input is one or the other");
  }
  if (!folder_) folder_ = std::make_unique<FolderTree>(options_.limits);
  bytes_read_ += bytes.size();
  folder_->Add(path, std::move(bytes));
  return OkStatus();
}

Status Import::Feed(ByteSpan bytes) {
  if (!status_.ok()) return status_;
  if (finished_) return Status(ErrorCode::kInvalidArgument, "Feed() after Finish()");
  if (folder_) {
    return Status(ErrorCode::kInvalidArgument,
                  "Feed() after AddFile(): one input is one or the other");
  }
  bytes_read_ += bytes.size();
  if (!container_known_) {
    raw_prefix_.insert(raw_prefix_.end(), bytes.data(), bytes.data() + bytes.size());
    if (raw_prefix_.size() < kSniffBytes) return OkStatus();
    return Fail(StartContainer());
  }
  if (gzip_) return Fail(gzip_->Feed(bytes));
  return Fail(FeedDecoded(bytes));
}

Status Import::StartContainer() {
  container_known_ = true;
  std::vector<uint8_t> prefix = std::move(raw_prefix_);
  raw_prefix_ = {};
  ByteSpan bytes(prefix.data(), prefix.size());
  if (!LooksLikeGzip(bytes)) return FeedDecoded(bytes);
  RETURN_IF_ERROR(CheckGzipHeader(bytes));
  gzip_ = std::make_unique<GzipDecoder>(options_.limits,
                                        [this](ByteSpan decoded) { return FeedDecoded(decoded); });
  return gzip_->Feed(bytes);
}

Status Import::FeedDecoded(ByteSpan bytes) {
  if (importer_) return importer_->Feed(bytes);
  decoded_prefix_.insert(decoded_prefix_.end(), bytes.data(), bytes.data() + bytes.size());
  if (decoded_prefix_.size() < kSniffBytes) return OkStatus();
  return StartFormat();
}

Status Import::StartFormat() {
  std::vector<uint8_t> prefix = std::move(decoded_prefix_);
  decoded_prefix_ = {};
  ByteSpan bytes(prefix.data(), prefix.size());
  const FormatDescriptor* format = DetectFormat(bytes.first(std::min(bytes.size(), kSniffBytes)));
  if (!format) return UnknownFormatError(bytes);
  importer_ = format->create(builder_, options_);
  stage_ = ImportStage::kParsing;
  return importer_->Feed(bytes);
}

Import::FileRole Import::RoleOf(ByteSpan prefix) {
  if (macho::LooksLikeMachO(prefix)) return FileRole::kSymbols;
  if (LooksLikeGzip(prefix) || DetectFormat(prefix.first(std::min(prefix.size(), kSniffBytes)))) {
    return FileRole::kRecording;
  }
  return FileRole::kUnknown;
}

Status Import::UnknownFormatError(ByteSpan prefix) const {
  std::string start;
  for (size_t i = 0; i < std::min<size_t>(prefix.size(), 8); ++i) {
    char hex[4];
    std::snprintf(hex, sizeof(hex), "%02x ", prefix[i]);
    start += hex;
  }
  std::string_view text = prefix.as_chars();
  std::string guess;
  if (macho::LooksLikeMachO(prefix)) {
    guess =
        " That is a Mach-O binary, a symbol file: give it with the recording it names "
        "(--symbols on the command line, options.symbols, or dropped beside the recording).";
  } else if (text.substr(0, 8) == "bplist00") {
    guess = " That is a binary property list, such as a .trace bundle's form.template.";
  } else if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") {
    guess = " That is UTF-16 text: save it as UTF-8.";
  }
  std::string what = gzip_ ? "the decompressed input" : "the input";
  return Status(ErrorCode::kUnknownFormat,
                what +
                    " is not a format instrumentscope reads (a zipped .trace bundle, xctrace "
                    "export XML, plain or gzip-compressed, or an Instruments Deep Copy); it "
                    "starts with bytes " +
                    start + "(" + std::to_string(prefix.size()) + " bytes seen)." + guess)
      .WithOffset(0);
}

Status Import::AddSymbolFile(std::string path, std::vector<uint8_t> bytes,
                             std::optional<uint64_t> load_address) {
  if (finished_) return Status(ErrorCode::kInvalidArgument, "AddSymbolFile() after Finish()");
  return symbol_files_.Add(std::move(path), std::move(bytes), load_address);
}

Result<ProfileGroup> Import::Finish() {
  if (!status_.ok()) return status_;
  if (finished_) return Status(ErrorCode::kInvalidArgument, "Finish() called twice");
  finished_ = true;
  if (folder_) {
    stage_ = ImportStage::kParsing;
    RETURN_IF_ERROR(Fail(ImportFolder(*folder_, builder_, options_)));
    folder_.reset();  // the bundle's bytes are no longer needed while the profiles are built
    return Build();
  }
  if (bytes_read_ == 0) return Fail(Status(ErrorCode::kEmptyInput, "the input is empty"));
  if (!container_known_) RETURN_IF_ERROR(Fail(StartContainer()));
  if (gzip_) RETURN_IF_ERROR(Fail(gzip_->Finish()));
  if (!importer_) {
    if (decoded_prefix_.empty()) {
      return Fail(Status(ErrorCode::kEmptyInput, "the gzip stream decompresses to nothing"));
    }
    RETURN_IF_ERROR(Fail(StartFormat()));
  }
  RETURN_IF_ERROR(Fail(importer_->Finish()));
  importer_.reset();  // its parser and id tables are no longer needed while the profiles are built
  return Build();
}

Result<ProfileGroup> Import::Build() {
  stage_ = ImportStage::kBuilding;
  Result<ProfileGroup> group =
      std::move(builder_).Build(options_.name, std::string("instrumentscope@") + Version());
  if (!group.ok()) return Fail(group.status());
  if (symbol_files_.given() && symbol_files_.empty()) {
    return Fail(Status(ErrorCode::kUnknownFormat,
                       "none of the symbol files holds a Mach-O image: give the app's .dSYM, "
                       "or its binary"));
  }
  if (!symbol_files_.empty()) {
    stage_ = ImportStage::kSymbolicating;
    RETURN_IF_ERROR(Fail(Symbolicate(symbol_files_, &*group, options_.symbol_lines,
                                     options_.limits.max_stack_nodes)));
  }
  if (options_.demangle) DemangleFrameNames(&*group, *options_.demangle);
  ReportNaming(&*group);
  OneWarningPerKind(&*group);
  stage_ = ImportStage::kDone;
  return group;
}

}  // namespace instrumentscope
