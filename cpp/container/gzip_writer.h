// Streaming gzip compression (RFC 1952) through zlib, for outputs the user
// names "….json.gz": the writers' pieces go in, compressed pieces go on to
// another sink, and neither side is ever held whole.
#ifndef INSTRUMENTSCOPE_CONTAINER_GZIP_WRITER_H_
#define INSTRUMENTSCOPE_CONTAINER_GZIP_WRITER_H_

#include <zlib.h>

#include <memory>
#include <string_view>

#include "base/piece_writer.h"

namespace instrumentscope {

class GzipWriter {
 public:
  explicit GzipWriter(JsonSink out);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;

  // A sink for a writer; it stops when the next sink does.
  JsonSink sink() {
    return [this](std::string_view piece) { return Deflate(piece, Z_NO_FLUSH); };
  }
  // Ends the stream. Returns false when the next sink stopped it.
  bool Finish() { return Deflate({}, Z_FINISH); }

 private:
  bool Deflate(std::string_view piece, int flush);

  JsonSink out_;
  z_stream stream_{};
  bool ok_ = true;
  std::unique_ptr<unsigned char[]> buffer_;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_CONTAINER_GZIP_WRITER_H_
