#include "formats/xctrace_xml/slices.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace instrumentscope::xctrace_xml {
namespace {

bool EndsName(uint8_t c) {
  return c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

void SliceCutter::Add(ByteSpan bytes, std::vector<Slice>& slices) {
  while (!bytes.empty()) {
    std::vector<uint8_t>& held = current_.bytes;
    // Up to the least size, bytes are only held; past it, a piece at a time,
    // each searched for a cut, so that what follows a cut is a small copy.
    size_t room = held.size() < slice_bytes_ ? slice_bytes_ - held.size() : kSearchPiece;
    size_t take = std::min({bytes.size(), room, most_bytes_ - held.size()});
    held.insert(held.end(), bytes.data(), bytes.data() + take);
    bytes = bytes.subspan(take);
    if (size_t cut = FindCut()) {
      Cut(cut, slices);
    } else if (held.size() == most_bytes_) {
      Cut(most_bytes_, slices);
    }
  }
}

size_t SliceCutter::FindCut() {
  const std::vector<uint8_t>& held = current_.bytes;
  search_from_ = std::max(search_from_, slice_bytes_);
  while (search_from_ < held.size()) {
    const void* found = std::memchr(held.data() + search_from_, '<', held.size() - search_from_);
    if (!found) {
      search_from_ = held.size();
      return 0;
    }
    size_t at = static_cast<size_t>(static_cast<const uint8_t*>(found) - held.data());
    if (at + 4 >= held.size()) {  // "<row" and the byte after it are not all here yet
      search_from_ = at;
      return 0;
    }
    if (std::memcmp(held.data() + at + 1, "row", 3) == 0 && EndsName(held[at + 4])) return at;
    search_from_ = at + 1;
  }
  return 0;
}

void SliceCutter::Cut(size_t at, std::vector<Slice>& slices) {
  Slice next;
  next.index = current_.index + 1;
  next.offset = current_.offset + at;
  next.bytes.reserve(slice_bytes_ + kSearchPiece);
  next.bytes.assign(current_.bytes.begin() + static_cast<std::ptrdiff_t>(at), current_.bytes.end());
  current_.bytes.resize(at);
  slices.push_back(std::exchange(current_, std::move(next)));
  search_from_ = 0;
}

Slice SliceCutter::Finish() {
  Slice last = std::move(current_);
  last.last = true;
  return last;
}

}  // namespace instrumentscope::xctrace_xml
