#include "container/gzip_writer.h"

namespace instrumentscope {
namespace {

// gzip's header and trailer around the deflate stream (15 bits of window, + 16).
constexpr int kGzipWindowBits = 16 + MAX_WBITS;
// Level 6, zlib's default: JSON of repeated numbers shrinks about tenfold.
constexpr int kLevel = Z_DEFAULT_COMPRESSION;
constexpr int kMemoryLevel = 8;

}  // namespace

GzipWriter::GzipWriter(JsonSink out)
    : out_(std::move(out)), buffer_(new unsigned char[kJsonPieceBytes]) {
  ok_ = deflateInit2(&stream_, kLevel, Z_DEFLATED, kGzipWindowBits, kMemoryLevel,
                     Z_DEFAULT_STRATEGY) == Z_OK;
}

GzipWriter::~GzipWriter() {
  deflateEnd(&stream_);
}

bool GzipWriter::Deflate(std::string_view piece, int flush) {
  if (!ok_) return false;
  // zlib's input is not const in its type but is only read.
  stream_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
  stream_.avail_in = static_cast<uInt>(piece.size());
  int result;
  do {
    stream_.next_out = buffer_.get();
    stream_.avail_out = static_cast<uInt>(kJsonPieceBytes);
    result = deflate(&stream_, flush);
    size_t made = kJsonPieceBytes - stream_.avail_out;
    if (made > 0) {
      ok_ = out_(std::string_view(reinterpret_cast<const char*>(buffer_.get()), made));
      if (!ok_) return false;
    }
  } while (stream_.avail_out == 0 || (flush == Z_FINISH && result == Z_OK));
  ok_ = result == Z_OK || result == Z_BUF_ERROR || result == Z_STREAM_END;
  return ok_;
}

}  // namespace instrumentscope
