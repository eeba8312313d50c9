#include "base/status.h"

namespace instrumentscope {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case ErrorCode::kEmptyInput: return "EMPTY_INPUT";
    case ErrorCode::kUnknownFormat: return "UNKNOWN_FORMAT";
    case ErrorCode::kTruncated: return "TRUNCATED";
    case ErrorCode::kLimitExceeded: return "LIMIT_EXCEEDED";
    case ErrorCode::kBadSample: return "BAD_SAMPLE";
    case ErrorCode::kGzipCorrupt: return "GZIP_CORRUPT";
    case ErrorCode::kGzipTruncated: return "GZIP_TRUNCATED";
    case ErrorCode::kZipCorrupt: return "ZIP_CORRUPT";
    case ErrorCode::kZipUnsupported: return "ZIP_UNSUPPORTED";
    case ErrorCode::kInflateCorrupt: return "INFLATE_CORRUPT";
    case ErrorCode::kPlistCorrupt: return "PLIST_CORRUPT";
    case ErrorCode::kTypedStreamCorrupt: return "TYPEDSTREAM_CORRUPT";
    case ErrorCode::kKeyedArchiveCorrupt: return "KEYED_ARCHIVE_CORRUPT";
    case ErrorCode::kBundleCorrupt: return "BUNDLE_CORRUPT";
    case ErrorCode::kBundleNoSamples: return "BUNDLE_NO_SAMPLES";
    case ErrorCode::kBundleUnsupported: return "BUNDLE_UNSUPPORTED";
    case ErrorCode::kXmlSyntax: return "XML_SYNTAX";
    case ErrorCode::kXmlForbidden: return "XML_FORBIDDEN";
    case ErrorCode::kXmlNotXctrace: return "XML_NOT_XCTRACE";
    case ErrorCode::kXmlTableOfContents: return "XML_TABLE_OF_CONTENTS";
    case ErrorCode::kXmlNoSampleTable: return "XML_NO_SAMPLE_TABLE";
    case ErrorCode::kXmlNoSamples: return "XML_NO_SAMPLES";
    case ErrorCode::kXmlDanglingRef: return "XML_DANGLING_REF";
    case ErrorCode::kXmlDuplicateId: return "XML_DUPLICATE_ID";
    case ErrorCode::kXmlRefMismatch: return "XML_REF_MISMATCH";
    case ErrorCode::kXmlBadValue: return "XML_BAD_VALUE";
    case ErrorCode::kXmlBadStructure: return "XML_BAD_STRUCTURE";
    case ErrorCode::kMachOCorrupt: return "MACHO_CORRUPT";
    case ErrorCode::kMachOUnsupported: return "MACHO_UNSUPPORTED";
    case ErrorCode::kDeepCopyBadRow: return "DEEP_COPY_BAD_ROW";
    case ErrorCode::kDeepCopyNoSamples: return "DEEP_COPY_NO_SAMPLES";
    case ErrorCode::kRunNotFound: return "RUN_NOT_FOUND";
  }
  return "UNKNOWN";
}

Status& Status::WithPath(std::string path) {
  if (path_.empty()) path_ = std::move(path);
  return *this;
}

Status& Status::WithOffset(uint64_t offset) {
  if (!offset_) offset_ = offset;
  return *this;
}

Status& Status::WithLine(uint64_t line) {
  if (!line_) line_ = line;
  return *this;
}

Status& Status::WithOuterPath(const std::string& outer) {
  if (outer.empty()) return *this;
  path_ = path_.empty() ? outer : outer + "!" + path_;
  return *this;
}

Status& Status::WithPathPrefix(const std::string& prefix) {
  if (!path_.empty()) path_ = prefix + path_;
  return *this;
}

Status Status::Rebased(std::string path) const {
  Status rebased = *this;
  rebased.path_ = std::move(path);
  return rebased;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string text = std::string(ErrorCodeName(code_)) + ": " + message_;
  std::string where;
  auto append = [&where](const std::string& part) { where += where.empty() ? part : ", " + part; };
  if (!path_.empty()) append(path_);
  if (line_) append("line " + std::to_string(*line_));
  if (offset_) append("byte " + std::to_string(*offset_));
  if (!where.empty()) text += " (at " + where + ")";
  return text;
}

}  // namespace instrumentscope
