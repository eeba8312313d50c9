// The export parsed on two threads (xml_parse.h): libxml2 on the caller's,
// the importer on its own, joined by blocks of events. The goldens and the
// malformed inputs are also imported at 1, 2 and 4 threads (golden_test,
// malformed_test); these are the cases the two-thread parse has of its own:
// events larger than a block, an error met by the reading thread while the
// caller still feeds, and an import dropped halfway.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "formats/xctrace_xml/xml_importer.h"
#include "model/profile_builder.h"
#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::ImportText;

const char* kSchema =
    "<schema name=\"time-profile\">"
    "<col><mnemonic>time</mnemonic><engineering-type>sample-time</engineering-type></col>"
    "<col><mnemonic>thread</mnemonic><engineering-type>thread</engineering-type></col>"
    "<col><mnemonic>weight</mnemonic><engineering-type>weight</engineering-type></col>"
    "<col><mnemonic>stack</mnemonic><engineering-type>backtrace</engineering-type></col>"
    "</schema>\n";

// `rows` samples of one thread, each a stack of two frames; the leaf's name
// is `leaf_name`, repeated by ref after the first row.
std::string Export(int rows, const std::string& leaf_name) {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<trace-query-result>\n"
      "<node xpath='//trace-toc[1]/run[1]/data[1]/table[1]'>";
  xml += kSchema;
  for (int row = 0; row < rows; ++row) {
    xml += "<row><sample-time>" + std::to_string(uint64_t{1000000} * row) + "</sample-time>";
    if (row == 0) {
      xml +=
          "<thread id=\"2\" fmt=\"Main Thread 0x10 (app, pid: 7)\"><tid id=\"3\">16</tid>"
          "<process id=\"4\" fmt=\"app (7)\"><pid id=\"5\">7</pid></process></thread>"
          "<weight id=\"9\">1000000</weight>"
          "<backtrace id=\"20\"><frame id=\"21\" name=\"" +
          leaf_name +
          "\" addr=\"0x1005\"/>"
          "<frame id=\"22\" name=\"main\" addr=\"0x1100\"/></backtrace>";
    } else {
      xml += "<thread ref=\"2\"/><weight ref=\"9\"/><backtrace ref=\"20\"/>";
    }
    xml += "</row>\n";
  }
  return xml + "</node>\n</trace-query-result>\n";
}

std::string Json(const ProfileGroup& group) {
  std::ostringstream out;
  speedscope::WriteJson(group, out);
  return out.str();
}

ImportOptions Threads(uint32_t threads) {
  ImportOptions options;
  options.threads = threads;
  return options;
}

TEST_CASE("Two threads give the one thread's output, whatever the chunks", "[threads]") {
  // 20,000 rows: a few MB of events, many blocks.
  std::string xml = Export(20000, "work");
  auto one = ImportText(xml, Threads(1));
  INFO(one.status().ToString());
  REQUIRE(one.ok());
  CHECK(one->profiles.at(0).samples.size() == 20000);
  for (size_t chunk : {size_t{1} << 20, size_t{4096}, size_t{7}}) {
    auto two = ImportText(xml, Threads(2), chunk);
    REQUIRE(two.ok());
    CHECK(Json(*two) == Json(*one));
  }
}

TEST_CASE("An attribute larger than an event block crosses whole", "[threads]") {
  // 300 KB of name: more than a block holds.
  std::string name(300 << 10, 'f');
  name.replace(0, 4, "huge");
  auto two = ImportText(Export(3, name), Threads(2));
  REQUIRE(two.ok());
  auto one = ImportText(Export(3, name), Threads(1));
  REQUIRE(one.ok());
  CHECK(Json(*two) == Json(*one));
  CHECK(Json(*two).find(name) != std::string::npos);
}

TEST_CASE("An error the reading thread meets ends the feeding with that error, located",
          "[threads]") {
  std::string xml = Export(20000, "work");
  // Row 15,000 names a backtrace no row defined.
  std::string row = "<row><sample-time>15000000000</sample-time>";
  size_t at = xml.find(row);
  REQUIRE(at != std::string::npos);
  size_t ref = xml.find("<backtrace ref=\"20\"/>", at);
  xml.replace(ref, 21, "<backtrace ref=\"99\"/>");

  auto one = ImportText(xml, Threads(1), 4096);
  REQUIRE_FALSE(one.ok());
  CHECK(ErrorCodeName(one.status().code()) == "XML_DANGLING_REF");
  auto two = ImportText(xml, Threads(2), 4096);
  REQUIRE_FALSE(two.ok());
  CHECK(two.status().ToString() == one.status().ToString());

  // Fed by hand: once the error is known, every later Feed returns it, and
  // the rest of the document is not parsed.
  ProfileBuilder builder;
  ImportOptions options = Threads(2);
  auto importer = xctrace_xml::CreateImporter(builder, options);
  Status first;
  size_t fed = 0;
  while (fed < xml.size() && first.ok()) {
    size_t piece = std::min<size_t>(4096, xml.size() - fed);
    first = importer->Feed(ByteSpan(reinterpret_cast<const uint8_t*>(xml.data()) + fed, piece));
    fed += piece;
  }
  CHECK(first.ToString() == one.status().ToString());
  CHECK(fed < xml.size());
  CHECK(importer->Feed(ByteSpan()).ToString() == first.ToString());
  CHECK(importer->Finish().ToString() == first.ToString());
}

TEST_CASE("An import dropped halfway stops its reading thread", "[threads]") {
  std::string xml = Export(20000, "work");
  for (size_t dropped_at : {size_t{0}, size_t{100}, xml.size() / 2, xml.size() - 10}) {
    ProfileBuilder builder;
    ImportOptions options = Threads(2);
    auto importer = xctrace_xml::CreateImporter(builder, options);
    CHECK(importer->Feed(ByteSpan(reinterpret_cast<const uint8_t*>(xml.data()), dropped_at)).ok());
    importer.reset();  // joins the reading thread, or the test hangs here
  }
}

}  // namespace
}  // namespace instrumentscope
