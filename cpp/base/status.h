// Errors as values: every failure in the core is a Status carrying a stable
// code, a short message, and where in the input it happened (a path inside the
// input, a byte offset, an XML line). Result<T> is a value or such a Status.
// The core never throws; the bindings turn a Status into a JS ImportError.
#ifndef INSTRUMENTSCOPE_BASE_STATUS_H_
#define INSTRUMENTSCOPE_BASE_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace instrumentscope {

// The stable names of these codes (ErrorCodeName) are part of the public API:
// the JS ImportError.code and the CLI's messages use them.
enum class ErrorCode : uint8_t {
  kOk,
  kInvalidArgument,      // an option or call was wrong, not the input
  kEmptyInput,           // zero bytes
  kUnknownFormat,        // the content matched no importer
  kTruncated,            // a read ran past the end of the data
  kLimitExceeded,        // an explicit limit (see limits.h) was reached
  kBadSample,            // a sample time or weight that is negative or overflows
  kGzipCorrupt,          // the gzip stream is damaged
  kGzipTruncated,        // the gzip stream ends early
  kZipCorrupt,           // a zip archive's structures are damaged
  kZipUnsupported,       // encryption or a compression method other than stored/deflate
  kInflateCorrupt,       // a zlib or deflate stream inside a container is damaged
  kPlistCorrupt,         // a binary property list is damaged
  kKeyedArchiveCorrupt,  // an NSKeyedArchiver graph is damaged or not what was expected
  kTypedStreamCorrupt,   // an NSArchiver typedstream is damaged
  kBundleCorrupt,        // a .trace bundle's own files (stores, uniquers) are damaged
  kBundleNoSamples,      // a .trace bundle without CPU samples
  kBundleUnsupported,    // a .trace bundle layout this version does not read
  kXmlSyntax,            // libxml2 rejected the XML
  kXmlForbidden,         // a DOCTYPE or entity declaration: never processed
  kXmlNotXctrace,        // well-formed XML, but not written by xctrace export
  kXmlTableOfContents,   // an `xctrace export --toc` file: no table data
  kXmlNoSampleTable,     // tables present, none with CPU samples
  kXmlNoSamples,         // a CPU sample table with no rows
  kXmlDanglingRef,       // ref="N" before (or without) any id="N"
  kXmlDuplicateId,       // id="N" defined twice in one <node>
  kXmlRefMismatch,       // ref="N" names an element of another kind
  kXmlBadValue,          // a value that is not what its column needs
  kXmlBadStructure,      // elements nested where xctrace never puts them
  kMachOCorrupt,         // a Mach-O file (a binary, a dSYM's DWARF file) is damaged
  kMachOUnsupported,     // a Mach-O this version does not read (32-bit only)
  kDeepCopyBadRow,       // a row of Deep Copy text that cannot be read
  kDeepCopyNoSamples,    // Deep Copy text whose rows carry no weight
  kRunNotFound,          // the requested run is not in the input
};

const char* ErrorCodeName(ErrorCode code);

class Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // Where inside the input: e.g. "export.xml.gz!" or "node[2]/row[15]/backtrace".
  const std::string& path() const { return path_; }
  const std::optional<uint64_t>& offset() const { return offset_; }
  const std::optional<uint64_t>& line() const { return line_; }

  // Location setters keep the first value set: the innermost layer knows best.
  Status& WithPath(std::string path);
  Status& WithOffset(uint64_t offset);
  Status& WithLine(uint64_t line);
  // Prepends an outer path, as "outer!inner" for nested containers.
  Status& WithOuterPath(const std::string& outer);
  // Prepends a folder: "x.trace/" + "corespace/…".
  Status& WithPathPrefix(const std::string& prefix);
  // The same error at another path (a folder's own path for a member's).
  Status Rebased(std::string path) const;

  // "XML_SYNTAX: message (at path, line 12, byte 345)"
  std::string ToString() const;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::string path_;
  std::optional<uint64_t> offset_;
  std::optional<uint64_t> line_;
};

inline Status OkStatus() {
  return Status();
}

template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  Status& status() { return status_; }
  T& value() { return *value_; }
  const T& value() const { return *value_; }
  T&& take() { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace instrumentscope

#define IS_CONCAT_INNER(a, b) a##b
#define IS_CONCAT(a, b) IS_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                      \
  do {                                             \
    ::instrumentscope::Status is_status_ = (expr); \
    if (!is_status_.ok()) return is_status_;       \
  } while (0)

#define ASSIGN_OR_RETURN_IMPL(result, lhs, expr) \
  auto result = (expr);                          \
  if (!result.ok()) return result.status();      \
  lhs = result.take()

#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(IS_CONCAT(is_result_, __LINE__), lhs, expr)

#endif  // INSTRUMENTSCOPE_BASE_STATUS_H_
