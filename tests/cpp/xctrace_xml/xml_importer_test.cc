// The xctrace XML importer on small hand-written exports, each showing one
// rule of the format. Real exports are covered by corpus_test and golden_test.
#include <catch2/catch.hpp>
#include <sstream>

#include "speedscope/writer.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using testing::ImportText;
using testing::StackText;

const char* kTimeProfileSchema =
    "<schema name=\"time-profile\">"
    "<col><mnemonic>time</mnemonic><name>Sample Time</name>"
    "<engineering-type>sample-time</engineering-type></col>"
    "<col><mnemonic>thread</mnemonic><name>Thread</name><engineering-type>thread</"
    "engineering-type></col>"
    "<col><mnemonic>process</mnemonic><name>Process</name><engineering-type>process</"
    "engineering-type></col>"
    "<col><mnemonic>weight</mnemonic><name>Weight</name><engineering-type>weight</"
    "engineering-type></col>"
    "<col><mnemonic>stack</mnemonic><name>Backtrace</name><engineering-type>backtrace</"
    "engineering-type></col>"
    "</schema>\n";

std::string Node(int run, const std::string& schema, const std::string& rows) {
  return "<node xpath='//trace-toc[1]/run[" + std::to_string(run) + "]/data[1]/table[1]'>" +
         schema + rows + "</node>\n";
}

std::string Export(const std::string& nodes) {
  return "<?xml version=\"1.0\"?>\n<trace-query-result>\n" + nodes + "</trace-query-result>\n";
}

// The first row of a node: defines thread 2 (tid 0x10 in "app", pid 7) and
// weight 9 (1 ms).
std::string FirstRow(const std::string& time, const std::string& stack) {
  return "<row><sample-time id=\"1\" fmt=\"x\">" + time +
         "</sample-time><thread id=\"2\" fmt=\"Main Thread 0x10 (app, pid: 7)\">"
         "<tid id=\"3\" fmt=\"0x10\">16</tid><process id=\"4\" fmt=\"app (7)\"><pid "
         "id=\"5\">7</pid>"
         "</process></thread><process ref=\"4\"/><weight id=\"9\" fmt=\"1.00 "
         "ms\">1000000</weight>" +
         stack + "</row>\n";
}

std::string Row(const std::string& time, const std::string& stack) {
  return "<row><sample-time>" + time +
         "</sample-time><thread ref=\"2\"/><process ref=\"4\"/><weight ref=\"9\"/>" + stack +
         "</row>\n";
}

const char* kMainStack =
    "<backtrace id=\"20\"><frame id=\"21\" name=\"work\" addr=\"0x1005\">"
    "<binary id=\"22\" name=\"app\" path=\"/bin/app\"/><source line=\"12\"><path "
    "id=\"23\">/src/app.c"
    "</path></source></frame><frame id=\"24\" name=\"main\" addr=\"0x1100\"><binary ref=\"22\"/>"
    "<source line=\"30\"><path ref=\"23\"/></source></frame></backtrace>";

TEST_CASE("A time-profile export becomes one profile per thread") {
  std::string xml =
      Export(Node(1, kTimeProfileSchema,
                  FirstRow("1000000", kMainStack) + Row("2000000", "<backtrace ref=\"20\"/>") +
                      Row("5000000", "<sentinel/>")));
  ImportOptions options;
  options.name = "trace.xml";
  auto group = ImportText(xml, options);
  REQUIRE(group.ok());
  REQUIRE(group->profiles.size() == 1);
  const Profile& profile = group->profiles[0];
  CHECK(profile.name == "Main Thread 0x10 — app (pid 7)");
  CHECK(profile.unit == ValueUnit::kNanoseconds);
  CHECK(profile.weights.ToVector() ==
        std::vector<int64_t>{1000000, 1000000, 1000000, 2000000, 1000000});
  CHECK(profile.samples[0] == kEmptyStack);
  CHECK(StackText(*group, profile.samples[1]) == "main;work");
  CHECK(profile.samples[2] == profile.samples[1]);
  CHECK(profile.samples[4] == kEmptyStack);  // the <sentinel/> backtrace
  CHECK(profile.sample_count == 3);
  CHECK(profile.end_value == 6000000);
  REQUIRE(group->frames.size() == 2);
  CHECK(group->frames[0].name == "work");
  CHECK(group->frames[0].file == "/src/app.c");
  CHECK(group->frames[0].line == 12u);
  CHECK(group->name == "trace.xml");
  REQUIRE(group->tables.size() == 1);
  CHECK(group->tables[0].rows == 3);
}

TEST_CASE("The result does not depend on how the input is chunked") {
  std::string xml =
      Export(Node(1, kTimeProfileSchema,
                  FirstRow("1000000", kMainStack) + Row("2000000", "<backtrace ref=\"20\"/>")));
  auto whole = ImportText(xml, {}, 1 << 20);
  auto bytewise = ImportText(xml, {}, 1);
  REQUIRE(whole.ok());
  REQUIRE(bytewise.ok());
  std::ostringstream a, b;
  speedscope::WriteJson(*whole, a);
  speedscope::WriteJson(*bytewise, b);
  CHECK(a.str() == b.str());
}

TEST_CASE("Ids are scoped to their node, and nodes of several runs are kept apart") {
  std::string run1 = Node(1, kTimeProfileSchema, FirstRow("1000000", kMainStack));
  std::string run2 = Node(2, kTimeProfileSchema, FirstRow("3000000", kMainStack));
  auto group = ImportText(Export(run1 + run2));
  REQUIRE(group.ok());
  REQUIRE(group->profiles.size() == 2);
  CHECK(group->profiles[0].name == "Main Thread 0x10 — app (pid 7) — run 1");
  CHECK(group->profiles[1].name == "Main Thread 0x10 — app (pid 7) — run 2");
  CHECK(group->frames.size() == 2);  // the same frames, interned once

  ImportOptions only_run2;
  only_run2.run = 2;
  auto selected = ImportText(Export(run1 + run2), only_run2);
  REQUIRE(selected.ok());
  REQUIRE(selected->profiles.size() == 1);
  CHECK(selected->profiles[0].run == 2);
  CHECK(selected->profiles[0].name == "Main Thread 0x10 — app (pid 7)");

  ImportOptions missing_run;
  missing_run.run = 5;
  auto missing = ImportText(Export(run1 + run2), missing_run);
  CHECK(missing.status().code() == ErrorCode::kRunNotFound);
  CHECK(missing.status().message() == "this export has no run 5; it has runs 1, 2");

  // A ref into another node's ids names nothing.
  std::string leaking =
      Node(2, kTimeProfileSchema, "<row><sample-time>5</sample-time><thread ref=\"2\"/></row>");
  auto dangling = ImportText(Export(run1 + leaking));
  CHECK(dangling.status().code() == ErrorCode::kXmlDanglingRef);
  CHECK(dangling.status().path() == "trace-query-result/node[2]/row[1]/thread");
}

TEST_CASE("A frame without a name is named by its address") {
  std::string stack =
      "<backtrace id=\"20\"><frame id=\"21\" addr=\"0x100000000000abcdef\"/><frame id=\"22\"/>"
      "</backtrace>";
  auto group = ImportText(Export(Node(1, kTimeProfileSchema, FirstRow("0", stack))));
  REQUIRE(group.ok());
  CHECK(StackText(*group, group->profiles[0].samples[0]) == "<unknown>;0x100000000000abcdef");
}

TEST_CASE("Elements named like schema parts inside rows are only cells") {
  std::string schema = kTimeProfileSchema;
  schema.replace(schema.find("<col><mnemonic>thread"), 0,
                 "<col><mnemonic>misc</mnemonic><engineering-type>col</engineering-type></col>");
  std::string row =
      "<row><sample-time>0</sample-time><col><thread id=\"70\" fmt=\"W 0x9\"><tid>9</tid>"
      "<mnemonic>weight</mnemonic></thread></col><thread id=\"2\" fmt=\"T 0x1\"><tid>1</tid>"
      "</thread><sentinel/><weight>5</weight><backtrace><frame name=\"f\"/></backtrace></row>";
  auto group = ImportText(Export(Node(1, schema, row)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  CHECK(group->profiles[0].name == "T 0x1");
  CHECK(group->profiles[0].weights.ToVector() == std::vector<int64_t>{5});
}

TEST_CASE("Escaped characters in names arrive decoded") {
  std::string stack =
      "<backtrace id=\"20\"><frame id=\"21\" name=\"operator&amp;&amp;(A&#38;, B&lt;C&gt;)\" "
      "addr=\"0x1\"/><frame id=\"22\" name=\"caf&#xE9; &quot;x&quot;\" addr=\"0x2\"/></backtrace>";
  auto group = ImportText(Export(Node(1, kTimeProfileSchema, FirstRow("0", stack))));
  REQUIRE(group.ok());
  CHECK(group->frames[0].name == "operator&&(A&, B<C>)");
  CHECK(group->frames[1].name == "caf\xC3\xA9 \"x\"");
}

TEST_CASE("Xcode 14.0 and older: text-addresses with the leaf named by the fmt") {
  std::string stack =
      "<backtrace id=\"20\" fmt=\"mach_msg2_trap \xE2\x86\x90 (3 other frames)\">"
      "<process ref=\"4\"/><text-addresses id=\"21\" fmt=\"frag 1\">6497650484 "
      "6498149058</text-addresses>"
      "<process ref=\"4\"/><text-addresses id=\"22\" fmt=\"frag 2\">6498149514 0</text-addresses>"
      "</backtrace>";
  std::string again =
      "<backtrace id=\"30\" fmt=\"0x183492c5c \xE2\x86\x90 (2 other frames)\"><text-addresses "
      "id=\"31\">6497578076</text-addresses><text-addresses ref=\"22\"/></backtrace>";
  auto group =
      ImportText(Export(Node(1, kTimeProfileSchema, FirstRow("0", stack) + Row("1000000", again))));
  REQUIRE(group.ok());
  const Profile& profile = group->profiles[0];
  CHECK(StackText(*group, profile.samples[0]) == "0x18351e48a;0x18351e2c2;mach_msg2_trap");
  CHECK(StackText(*group, profile.samples[1]) == "0x18351e48a;0x183492c5c");
  CHECK(group->frames[0].file.empty());
}

TEST_CASE("Xcode 26: tagged backtraces") {
  std::string stack =
      "<tagged-backtrace id=\"20\" fmt=\"c \xE2\x86\x90 (1 other frames)\"><backtrace id=\"21\">"
      "<frame id=\"22\" name=\"c\" addr=\"0x1\"/><frame id=\"23\" name=\"main\" addr=\"0x2\"/>"
      "</backtrace><uint64 id=\"24\" fmt=\"0\">0</uint64></tagged-backtrace>";
  std::string schema = kTimeProfileSchema;
  schema.replace(schema.find("backtrace</engineering"), 9, "tagged-backtrace");
  auto group = ImportText(Export(
      Node(1, schema, FirstRow("0", stack) + Row("1000000", "<tagged-backtrace ref=\"20\"/>"))));
  REQUIRE(group.ok());
  CHECK(StackText(*group, group->profiles[0].samples[0]) == "main;c");
  CHECK(group->profiles[0].samples[1] == group->profiles[0].samples[0]);
}

TEST_CASE("time-sample: kernel frames above user frames, one count per row") {
  std::string schema =
      "<schema name=\"time-sample\"><col><mnemonic>time</mnemonic>"
      "<engineering-type>sample-time</engineering-type></col><col><mnemonic>thread</mnemonic>"
      "<engineering-type>thread</engineering-type></col><col><mnemonic>cp-kernel-callstack"
      "</mnemonic><engineering-type>kperf-bt</engineering-type></col><col><mnemonic>"
      "cp-user-callstack</mnemonic><engineering-type>kperf-bt</engineering-type></col></schema>";
  std::string row =
      "<row><sample-time>10</sample-time><thread id=\"1\" fmt=\"T 0x5 (p, pid: 3)\"><tid>5</tid>"
      "<process id=\"2\" fmt=\"p (3)\"><pid>3</pid></process></thread>"
      "<kperf-bt id=\"3\"><text-addresses>4096</text-addresses><text-address>4095</text-address>"
      "</kperf-bt><kperf-bt id=\"4\"><text-addresses>16 32 48</text-addresses>"
      "<text-address>16</text-address><process ref=\"2\"/></kperf-bt></row>"
      "<row><sample-time>20</sample-time><thread ref=\"1\"/><sentinel/><kperf-bt ref=\"4\"/></row>";
  auto group = ImportText(Export(Node(1, schema, row)));
  REQUIRE(group.ok());
  const Profile& profile = group->profiles[0];
  CHECK(profile.unit == ValueUnit::kNone);
  CHECK(profile.weights.ToVector() == std::vector<int64_t>{1, 1});
  CHECK(StackText(*group, profile.samples[0]) == "0x30;0x20;0x10;0x1000;0xfff");
  CHECK(StackText(*group, profile.samples[1]) == "0x30;0x20;0x10");
  CHECK(profile.name == "T 0x5 — p (pid 3)");
}

TEST_CASE("counters-profile: the weight cell's element decides the unit") {
  std::string schema =
      "<schema name=\"counters-profile\"><col><mnemonic>time</mnemonic>"
      "<engineering-type>sample-time</engineering-type></col><col><mnemonic>thread</mnemonic>"
      "<engineering-type>thread</engineering-type></col><col><mnemonic>stack</mnemonic>"
      "<engineering-type>backtrace</engineering-type></col><col><mnemonic>weight</mnemonic>"
      "<engineering-type>any</engineering-type></col></schema>";
  auto rows = [](const std::string& weight) {
    return "<row><sample-time>100</sample-time><thread fmt=\"T 0x1\"><tid>1</tid></thread>"
           "<backtrace><frame name=\"f\"/></backtrace>" +
           weight +
           "</row>"
           "<row><sample-time>900</sample-time><thread fmt=\"T 0x1\"><tid>1</tid></thread>"
           "<sentinel/><sentinel/></row>";
  };
  auto events = ImportText(Export(Node(1, schema, rows("<pmc-event>1000000</pmc-event>"))));
  REQUIRE(events.ok());
  CHECK(events->profiles[0].unit == ValueUnit::kNone);
  CHECK(events->profiles[0].weights.ToVector() == std::vector<int64_t>{1000000});
  REQUIRE(events->warnings.size() == 1);
  CHECK(events->warnings[0].code == "ROWS_WITHOUT_WEIGHT");

  auto time = ImportText(Export(Node(1, schema, rows("<weight>50</weight>"))));
  REQUIRE(time.ok());
  CHECK(time->profiles[0].unit == ValueUnit::kNanoseconds);
  CHECK(time->profiles[0].weights.ToVector() == std::vector<int64_t>{100, 50});
}

Status ImportError(const std::string& xml) {
  return ImportText(xml).status();
}

TEST_CASE("DTDs and entities are refused before anything is expanded or loaded") {
  std::string laughs =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
      "<!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
      "<!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
      "<!ENTITY lol9 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n]>\n"
      "<trace-query-result>&lol9;</trace-query-result>\n";
  Status status = ImportError(laughs);
  CHECK(status.code() == ErrorCode::kXmlForbidden);
  CHECK(status.line() == 2u);

  std::string external =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
      "<trace-query-result>&x;</trace-query-result>\n";
  CHECK(ImportError(external).code() == ErrorCode::kXmlForbidden);
  std::string external_dtd =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/x.dtd\">\n"
      "<trace-query-result/>\n";
  CHECK(ImportError(external_dtd).code() == ErrorCode::kXmlForbidden);
  // Without a DTD, an entity reference is simply undeclared.
  CHECK(ImportError("<?xml version=\"1.0\"?><trace-query-result>&x;</trace-query-result>").code() ==
        ErrorCode::kXmlSyntax);
}

TEST_CASE("Errors name the place in the export") {
  std::string rows = FirstRow("0", kMainStack) + Row("1", "<frame ref=\"99\"/>");
  Status status = ImportError(Export(Node(1, kTimeProfileSchema, rows)));
  CHECK(status.code() == ErrorCode::kXmlDanglingRef);
  CHECK(status.path() == "trace-query-result/node[1]/row[2]/frame");
  CHECK(status.line() == 5u);
  CHECK(status.offset().has_value());

  std::string mismatch = FirstRow("0", kMainStack) + Row("1", "<backtrace ref=\"22\"/>");
  status = ImportError(Export(Node(1, kTimeProfileSchema, mismatch)));
  CHECK(status.code() == ErrorCode::kXmlRefMismatch);
  CHECK(status.message() == "<backtrace ref=\"22\"/> names a <binary>, not a <backtrace>");
  // Any kind: a <sample-time ref> may only name a <sample-time>.
  std::string other_kind =
      FirstRow("0", kMainStack) + "<row><sample-time ref=\"9\"/><thread ref=\"2\"/></row>";
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, other_kind))).code() ==
        ErrorCode::kXmlRefMismatch);
  std::string ref_with_content =
      FirstRow("0", kMainStack) + Row("1", "<backtrace ref=\"20\"><frame ref=\"21\"/></backtrace>");
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, ref_with_content))).code() ==
        ErrorCode::kXmlBadStructure);

  std::string duplicate =
      FirstRow("0", kMainStack) + "<row><sample-time id=\"1\">5</sample-time></row>";
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, duplicate))).code() ==
        ErrorCode::kXmlDuplicateId);

  std::string not_a_time = "<row><sample-time>soon</sample-time></row>";
  status = ImportError(Export(Node(1, kTimeProfileSchema, not_a_time)));
  CHECK(status.code() == ErrorCode::kXmlBadValue);
  CHECK(status.message() ==
        "row 1 of time-profile has a sample time <sample-time> that holds an element without a "
        "usable value, not an integer");

  std::string extra_cell = Row("1", "<sentinel/><sentinel/>");
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, FirstRow("0", kMainStack) + extra_cell)))
            .code() == ErrorCode::kXmlBadStructure);
  CHECK(ImportError(Export("<node><row/></node>")).code() == ErrorCode::kXmlBadStructure);
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, kTimeProfileSchema))).code() ==
        ErrorCode::kXmlBadStructure);
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, "<row><thread fmt=\"T\"/></row>"))).code() ==
        ErrorCode::kXmlBadValue);
  std::string nested_frame = "<backtrace><frame name=\"a\"><frame name=\"b\"/></frame></backtrace>";
  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, FirstRow("0", nested_frame)))).code() ==
        ErrorCode::kXmlBadStructure);
  status = ImportError(Export(Node(1, kTimeProfileSchema, FirstRow("-5", kMainStack))));
  CHECK(status.code() == ErrorCode::kBadSample);
  CHECK(status.message() == "row 1 of time-profile has a sample time before the run, -5 ns");
}

TEST_CASE("A sample table with a row it cannot read is left out; the others import") {
  std::string damaged = FirstRow("0", kMainStack) + Row("soon", "<backtrace ref=\"20\"/>");
  std::string whole = FirstRow("0", kMainStack) + Row("1000000", "<backtrace ref=\"20\"/>");
  auto group =
      ImportText(Export(Node(1, kTimeProfileSchema, damaged) + Node(2, kTimeProfileSchema, whole)));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  std::vector<std::string> left_out = testing::WarningMessages(*group, "TABLE_UNREADABLE");
  REQUIRE(left_out.size() == 1);
  CHECK(left_out[0].find("the time-profile table of run 1 left out (its samples): XML_BAD_VALUE: "
                         "row 2 of time-profile has a sample time") == 0);
  uint64_t samples = 0;
  for (const Profile& profile : group->profiles) {
    if (profile.kind == ProfileKind::kThread) {
      CHECK(profile.run == 2);
      samples += profile.sample_count;
    }
  }
  CHECK(samples == 2);
}

TEST_CASE("A sample table past limits.maxSamples ends the import where it passes the limit") {
  // The table's samples are held until it ends; they count against the limit as they are read.
  std::string rows = FirstRow("0", kMainStack);
  for (int i = 1; i < 6; ++i) rows += Row(std::to_string(i * 1000000), "<backtrace ref=\"20\"/>");
  ImportOptions options;
  options.limits.max_samples = 3;
  auto result = ImportText(Export(Node(1, kTimeProfileSchema, rows)), options);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == ErrorCode::kLimitExceeded);
  CHECK(result.status().message() == "more than 3 samples (limits.maxSamples)");
  CHECK(result.status().line() == 7u);  // the fourth <row>, after the schema on line 3

  options.limits.max_samples = 6;
  CHECK(ImportText(Export(Node(1, kTimeProfileSchema, rows)), options).ok());
}

TEST_CASE("Exports without CPU samples say what they hold and what to run") {
  Status status = ImportError(Export(""));
  CHECK(status.code() == ErrorCode::kXmlNoSampleTable);
  CHECK(status.message().find("no <node> tables") != std::string::npos);

  std::string thermal =
      "<node xpath='//trace-toc[1]/run[2]/data[1]/table[31]'><schema name=\"device-thermal-state\">"
      "<col><mnemonic>start</mnemonic><engineering-type>start-time</engineering-type></col>"
      "</schema><row><start-time>0</start-time></row><row><start-time>5</start-time></row></node>";
  status = ImportError(Export(thermal));
  CHECK(status.code() == ErrorCode::kXmlNoSampleTable);
  CHECK(status.message() ==
        "this export holds no CPU samples; its tables are: device-thermal-state (run 2, 2 rows). "
        "Export the Time Profiler's table instead:\n  xctrace export --input YOUR.trace --xpath "
        "'/trace-toc/run[2]/data/table[@schema=\"time-profile\"]' --output time-profile.xml");

  CHECK(ImportError(Export(Node(1, kTimeProfileSchema, ""))).code() == ErrorCode::kXmlNoSamples);
  CHECK(ImportError("<?xml version=\"1.0\"?><svg/>").code() == ErrorCode::kXmlNotXctrace);
}

TEST_CASE("Malformed and truncated XML fails with libxml2's reason and the line") {
  std::string xml = Export(Node(1, kTimeProfileSchema, FirstRow("0", kMainStack)));
  Status truncated = ImportError(xml.substr(0, xml.size() / 2));
  CHECK(truncated.code() == ErrorCode::kXmlSyntax);
  CHECK(truncated.line().has_value());

  Status mismatched = ImportError("<?xml version=\"1.0\"?>\n<trace-query-result>\n<node></row>");
  CHECK(mismatched.code() == ErrorCode::kXmlSyntax);
  CHECK(mismatched.message().find("mismatch") != std::string::npos);
  CHECK(mismatched.line() == 3u);

  std::string deep = "<?xml version=\"1.0\"?><trace-query-result>";
  for (int i = 0; i < 200000; ++i) deep += "<a>";
  CHECK(ImportError(deep).code() == ErrorCode::kLimitExceeded);
  // Also inside the rows of a table that is not read.
  std::string skipped =
      "<?xml version=\"1.0\"?><trace-query-result><node><schema name=\"x\"/><row>";
  for (int i = 0; i < 300; ++i) skipped += "<a>";
  CHECK(ImportError(skipped).code() == ErrorCode::kLimitExceeded);
}

}  // namespace
}  // namespace instrumentscope
