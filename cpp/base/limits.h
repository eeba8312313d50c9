// Explicit limits on what an import may consume. Each has a generous default,
// can be overridden through ImportOptions, and, when reached, fails the import
// with kLimitExceeded naming the limit.
#ifndef INSTRUMENTSCOPE_BASE_LIMITS_H_
#define INSTRUMENTSCOPE_BASE_LIMITS_H_

#include <cstdint>

namespace instrumentscope {

struct Limits {
  // Bytes produced by decompression in one import: a gzip stream's output, or
  // all the members of a bundle together (a zip bomb stops here).
  uint64_t max_decompressed_bytes = uint64_t{4} << 30;
  // Bytes one member of a bundle (a zip entry, a zlib file) may expand to:
  // members are held in memory whole.
  uint64_t max_member_bytes = uint64_t{1} << 30;
  // Zips inside zips (a bundle zipped with its folder, zipped again).
  uint32_t max_zip_nesting = 4;
  // Entries in one zip's central directory (bundles hold hundreds).
  uint64_t max_zip_entries = 1'000'000;
  // Objects in one binary plist: Instruments' largest hold hundreds of
  // thousands, and each costs the decoder about 80 bytes.
  uint64_t max_plist_objects = 10'000'000;
  // Arrays and dictionaries nested in one binary plist (Instruments' nest a
  // few deep; keyed archives nest through references, which do not count).
  uint32_t max_plist_depth = 512;
  // Nesting of XML elements (xctrace's go eight deep; libxml2's push parser
  // enforces no depth of its own).
  uint32_t max_xml_depth = 256;
  // Elements in one XML document: xctrace writes about 37 per KB, so this
  // is an export of some 27 GB.
  uint64_t max_xml_elements = 1'000'000'000;
  // Distinct id="N" values kept per XML <node>.
  uint64_t max_xml_ids = 100'000'000;
  // Characters of text inside one XML element.
  uint64_t max_xml_text_bytes = 64ull << 20;
  // Bytes in one line of Deep Copy text (a row holds one symbol name).
  uint64_t max_text_line_bytes = 16ull << 20;
  // Samples in one import: 50 million is about fourteen hours of one thread
  // sampled at 1 kHz, and keeps the result well inside wasm's 4 GB.
  uint64_t max_samples = 50'000'000;
  // Frames in one backtrace.
  uint32_t max_frames_per_stack = 16384;
  // Distinct stack prefixes kept (about 40 bytes each).
  uint64_t max_stack_nodes = 10'000'000;
};

}  // namespace instrumentscope

#endif  // INSTRUMENTSCOPE_BASE_LIMITS_H_
