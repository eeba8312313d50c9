// An export cut into slices (slices.h): each after the first starts at a
// "<row" start tag, none is shorter than asked but the last, none longer than
// the most, and together they are the document, however its bytes come.
#include "formats/xctrace_xml/slices.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace instrumentscope::xctrace_xml {
namespace {

ByteSpan BytesOf(const std::string& text) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

std::string TextOf(const Slice& slice) {
  return std::string(slice.bytes.begin(), slice.bytes.end());
}

// Rows of different lengths, a "<rows>" and a "<row-" that are not rows' tags.
std::string Document(int rows) {
  std::string text = "<?xml version=\"1.0\"?>\n<trace-query-result>\n<node><schema/>\n";
  for (int i = 0; i < rows; ++i) {
    text += i % 3 ? "<row>" : "<row\n  id=\"" + std::to_string(i) + "\">";
    text += std::string(static_cast<size_t>(i % 97), 'x');
    text += i % 5 ? "</row>\n" : "<rows/><row-x/></row>\n";
  }
  return text + "</node>\n</trace-query-result>\n";
}

std::vector<Slice> Cut(const std::string& text, size_t least, size_t most, size_t chunk) {
  SliceCutter cutter(least, most);
  std::vector<Slice> slices;
  for (size_t at = 0; at < text.size(); at += chunk) {
    cutter.Add(BytesOf(text.substr(at, chunk)), slices);
  }
  slices.push_back(cutter.Finish());
  return slices;
}

TEST_CASE("Slices start at rows, are as long as asked and join into the document") {
  std::string text = Document(20000);
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20, text.size()}) {
    for (size_t least : {size_t{100}, size_t{5000}, size_t{64} << 10}) {
      INFO("chunk " << chunk << ", least " << least);
      std::vector<Slice> slices = Cut(text, least, size_t{16} << 20, chunk);
      REQUIRE(slices.size() > 1);
      std::string joined;
      for (size_t i = 0; i < slices.size(); ++i) {
        const Slice& slice = slices[i];
        CHECK(slice.index == i);
        CHECK(slice.offset == joined.size());
        CHECK(slice.last == (i + 1 == slices.size()));
        std::string bytes = TextOf(slice);
        if (i > 0) {
          CHECK((bytes.rfind("<row>", 0) == 0 || bytes.rfind("<row\n", 0) == 0));
        }
        if (!slice.last) CHECK(bytes.size() >= least);
        joined += bytes;
      }
      CHECK(joined == text);
    }
  }
}

TEST_CASE("Bytes without a row are cut at the most a slice holds") {
  std::string text = "<trace-query-result><node>" + std::string(10000, 'y') + "<row/>";
  for (size_t chunk : {size_t{3}, size_t{1000}, text.size()}) {
    INFO("chunk " << chunk);
    std::vector<Slice> slices = Cut(text, 100, 4096, chunk);
    std::string joined;
    for (const Slice& slice : slices) {
      CHECK(slice.bytes.size() <= 4096);
      joined += TextOf(slice);
    }
    CHECK(slices[0].bytes.size() == 4096);
    CHECK(joined == text);
  }
}

}  // namespace
}  // namespace instrumentscope::xctrace_xml
