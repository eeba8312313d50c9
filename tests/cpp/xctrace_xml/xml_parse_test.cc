// The export parsed on several threads (xml_parse.h): cut into slices at
// rows, each parsed by libxml2 on whichever thread is free, read in order by
// one. The goldens and the malformed inputs are also imported at 1, 2 and 4
// threads (golden_test, malformed_test); these are the cases of its own:
// events larger than a block, cuts the bytes cannot tell from a row (inside a
// comment or CDATA), slices with no row to cut at, another encoding than
// UTF-8, errors met while the caller still feeds, and an import dropped
// halfway.
#include <catch2/catch.hpp>
#include <cstring>
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

TEST_CASE("Several threads give the one thread's output, whatever the chunks", "[threads]") {
  // 20,000 rows, 2 MB: four slices.
  std::string xml = Export(20000, "work");
  auto one = ImportText(xml, Threads(1));
  INFO(one.status().ToString());
  REQUIRE(one.ok());
  CHECK(one->profiles.at(0).samples.size() == 20000);
  for (uint32_t threads : {2, 4}) {
    for (size_t chunk : {size_t{1} << 20, size_t{4096}, size_t{7}}) {
      auto many = ImportText(xml, Threads(threads), chunk);
      REQUIRE(many.ok());
      CHECK(Json(*many) == Json(*one));
    }
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
  // 100,000 rows, 10 MB: many more slices than are let in flight.
  std::string xml = Export(100000, "work");
  // Row 15,000 names a backtrace no row defined.
  std::string row = "<row><sample-time>15000000000</sample-time>";
  size_t at = xml.find(row);
  REQUIRE(at != std::string::npos);
  size_t ref = xml.find("<backtrace ref=\"20\"/>", at);
  xml.replace(ref, 21, "<backtrace ref=\"99\"/>");

  auto one = ImportText(xml, Threads(1), 4096);
  REQUIRE_FALSE(one.ok());
  CHECK(std::string(ErrorCodeName(one.status().code())) == "XML_DANGLING_REF");
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

TEST_CASE("An import dropped halfway stops its threads", "[threads]") {
  std::string xml = Export(20000, "work");
  for (size_t dropped_at : {size_t{0}, size_t{100}, xml.size() / 2, xml.size() - 10}) {
    ProfileBuilder builder;
    ImportOptions options = Threads(2);
    auto importer = xctrace_xml::CreateImporter(builder, options);
    CHECK(importer->Feed(ByteSpan(reinterpret_cast<const uint8_t*>(xml.data()), dropped_at)).ok());
    importer.reset();  // joins the reading thread, or the test hangs here
  }
}

// `xml` imported on 1, 2 and 4 threads: the same profile, or the same error.
void CheckSameOnAnyThreads(const std::string& xml) {
  auto one = ImportText(xml, Threads(1));
  for (uint32_t threads : {2, 4}) {
    INFO("threads " << threads);
    auto many = ImportText(xml, Threads(threads));
    REQUIRE(many.ok() == one.ok());
    if (one.ok()) {
      CHECK(Json(*many) == Json(*one));
    } else {
      CHECK(many.status().ToString() == one.status().ToString());
    }
  }
}

// `xml` with `inserted` put before its row number `row` (0-based).
std::string InsertBeforeRow(std::string xml, int row, const std::string& inserted) {
  size_t at = 0;
  for (int i = 0; i <= row; ++i) at = xml.find("<row>", at + 1);
  return xml.insert(at, inserted);
}

TEST_CASE("An empty element with a ref is read as its start and end tags, located alike",
          "[threads]") {
  std::string xml = Export(20000, "work");
  size_t row = xml.find("<row><sample-time>15000000000</sample-time>");
  REQUIRE(row != std::string::npos);
  size_t weight = xml.find("<weight ref=\"9\"/>", row);
  auto with_weight = [&](const std::string& cell) {
    return std::string(xml).replace(weight, std::strlen("<weight ref=\"9\"/>"), cell);
  };
  // Row 15,000's weight refs a thread: an error where that element ends, past its "/>".
  std::string thread_as_weight = with_weight("<thread ref=\"2\"/>");
  auto one = ImportText(thread_as_weight, Threads(1));
  REQUIRE_FALSE(one.ok());
  CHECK(one.status().offset() == weight + std::strlen("<thread ref=\"2\"/>"));
  CheckSameOnAnyThreads(thread_as_weight);
  // A ref to no id, where the element starts.
  CheckSameOnAnyThreads(with_weight("<weight ref=\"99\"/>"));
  // Refs written otherwise than as plain digits, and one outside a row.
  CheckSameOnAnyThreads(with_weight("<weight ref=\"09\"/>"));
  CheckSameOnAnyThreads(with_weight("<weight ref=\" 9\" />"));
  CheckSameOnAnyThreads(with_weight("<weight ref=\"x\"/>"));
  CheckSameOnAnyThreads(InsertBeforeRow(xml, 15000, "<annotation ref=\"4\"/>"));
}

TEST_CASE("A row tag inside a comment or CDATA is no place to cut", "[threads]") {
  // 200 KB of "<row>" inside a comment, then inside a CDATA section in a
  // frame's text, where the first cut is looked for (past 512 KB).
  std::string rows_in_text;
  while (rows_in_text.size() < (200 << 10)) rows_in_text += "<row> not a row </row>\n";
  std::string xml = Export(20000, "work");
  CheckSameOnAnyThreads(InsertBeforeRow(xml, 4000, "<!-- " + rows_in_text + " -->\n"));
  CheckSameOnAnyThreads(
      InsertBeforeRow(xml, 4000, "<!-- " + rows_in_text + " -->\n<row><sample-time>1</"));
}

TEST_CASE("A stretch without rows is cut by size and read on one thread", "[threads]") {
  // 17 MB of comment: past the most a slice may hold.
  std::string xml =
      InsertBeforeRow(Export(20000, "work"), 100, "<!--" + std::string(17 << 20, '.') + "-->\n");
  CheckSameOnAnyThreads(xml);
}

TEST_CASE("Malformed XML in any slice fails as on one thread, on the same lines", "[threads]") {
  std::string xml = Export(20000, "work");
  // A row left open deep in the document: libxml2 names the row's line.
  size_t row = xml.find("</row>", xml.size() / 2);
  CheckSameOnAnyThreads(std::string(xml).erase(row, 6));
  // The document cut short, and ended twice.
  CheckSameOnAnyThreads(xml.substr(0, xml.size() - 30));
  CheckSameOnAnyThreads(xml + "<trace-query-result/>");
  // An element never closed from the first slice on, found at the end.
  CheckSameOnAnyThreads(InsertBeforeRow(xml, 10, "<unclosed>"));
}

TEST_CASE("Another encoding than UTF-8 is read on one thread, as it is on one", "[threads]") {
  // ISO-8859-1's é, in the first row and in a comment far past the first slice.
  std::string xml = InsertBeforeRow(Export(20000, "caf\xe9"), 15000, "<!-- caf\xe9 -->");
  xml.replace(0, std::string("<?xml version=\"1.0\"?>").size(),
              "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>");
  CheckSameOnAnyThreads(xml);
  auto one = ImportText(xml, Threads(2));
  REQUIRE(one.ok());
  CHECK(Json(*one).find("caf\xc3\xa9") != std::string::npos);
}

}  // namespace
}  // namespace instrumentscope
