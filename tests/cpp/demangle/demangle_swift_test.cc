// The Swift demangler against the shared corpus of reference outputs, facts from Instruments
// recordings, focused cases per construct, and hostile input.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "demangle/swift/arena.h"
#include "demangle/swift/node.h"
#include "demangle/swift/print_options.h"
#include "demangle/swift/printer.h"
#include "demangle/swift/punycode.h"
#include "demangle/swift/swift_demangle.h"
#include "test_support.h"

namespace instrumentscope {
namespace {

using demangle::DemangleSwift;
using demangle::Style;

struct Row {
  std::string mangled;
  std::string expected;
  std::string source;
};

std::vector<Row> ReadRows(const std::string& path) {
  std::vector<uint8_t> bytes = testing::ReadFile(path);
  std::istringstream lines(std::string(bytes.begin(), bytes.end()));
  std::vector<Row> rows;
  std::string line;
  std::getline(lines, line);  // The header.
  while (std::getline(lines, line)) {
    Row row;
    std::istringstream fields(line);
    std::getline(fields, row.mangled, '\t');
    std::getline(fields, row.expected, '\t');
    std::getline(fields, row.source, '\t');
    rows.push_back(row);
  }
  return rows;
}

bool IsOldMangling(const Row& row) {
  return row.source.find("scheme=pre-swift4-_T") != std::string::npos;
}

std::string Show(const std::optional<std::string>& text) {
  return text ? *text : "<nullopt>";
}

// Checks every row not in `known_differences` and reports each mismatch with its row.
void CheckRows(const std::vector<Row>& rows, Style style,
               const std::map<std::string, std::string>& known_differences) {
  size_t passed = 0;
  for (const Row& row : rows) {
    if (known_differences.count(row.mangled)) continue;
    std::optional<std::string> got = DemangleSwift(row.mangled, style);
    INFO("mangled:  " << row.mangled << "\nexpected: " << row.expected
                      << "\ngot:      " << Show(got) << "\nsource:   " << row.source);
    CHECK(got == std::optional<std::string>(row.expected));
    if (got == std::optional<std::string>(row.expected)) ++passed;
  }
  WARN("passed " << passed << " of " << rows.size() << " rows");
}

// The rows of `file` whose scheme is (`old`) or is not the pre-Swift-4 one.
std::vector<Row> RowsOfScheme(const std::string& file, bool old) {
  std::vector<Row> rows;
  for (const Row& row : ReadRows(file)) {
    if (IsOldMangling(row) == old) rows.push_back(row);
  }
  return rows;
}

TEST_CASE("Swift 4+ rows of swift-full print as swift-demangle does", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-full.tsv");
  if (!path) return;
  std::vector<Row> rows = RowsOfScheme(*path, /*old=*/false);
  REQUIRE(rows.size() > 250);
  // Manglings whose reference output this demangler cannot reproduce, with the reason.
  const std::map<std::string, std::string> kKnownDifferences = {};
  CheckRows(rows, Style::kFull, kKnownDifferences);
}

TEST_CASE("pre-Swift-4 rows of swift-full print as swift-demangle does", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-full.tsv");
  if (!path) return;
  std::vector<Row> rows = RowsOfScheme(*path, /*old=*/true);
  REQUIRE(rows.size() > 200);
  // Manglings whose reference output this demangler cannot reproduce, with the reason.
  const std::map<std::string, std::string> kKnownDifferences = {};
  CheckRows(rows, Style::kFull, kKnownDifferences);
}

TEST_CASE("Swift 4+ rows of swift-simplified print in the Instruments style", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-simplified.tsv");
  if (!path) return;
  std::vector<Row> rows = RowsOfScheme(*path, /*old=*/false);
  REQUIRE(rows.size() >= 10);
  CheckRows(rows, Style::kInstruments, {});
}

TEST_CASE("pre-Swift-4 rows of swift-simplified print in the Instruments style", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-simplified.tsv");
  if (!path) return;
  std::vector<Row> rows = RowsOfScheme(*path, /*old=*/true);
  REQUIRE(rows.size() > 170);
  // Manglings whose reference output this demangler cannot reproduce, with the reason.
  const std::map<std::string, std::string> kKnownDifferences = {};
  CheckRows(rows, Style::kInstruments, kKnownDifferences);
}

TEST_CASE("every name of swift-other-styles demangles in both styles", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-other-styles.tsv");
  if (!path) return;
  for (const Row& row : ReadRows(*path)) {
    INFO(row.mangled);
    CHECK(DemangleSwift(row.mangled, Style::kFull));
    CHECK(DemangleSwift(row.mangled, Style::kInstruments));
  }
}

TEST_CASE("names as an Instruments 26 recording shows them", "[swift]") {
  CHECK(DemangleSwift("$s15perftestexample13CPUStressWorkO13expensiveLoop14iterationCountySi_tFZ",
                      Style::kInstruments) ==
        "static CPUStressWork.expensiveLoop(iterationCount:)");
  CHECK(DemangleSwift("$s15perftestexample0A3AppV5$mainyyFZ", Style::kInstruments) ==
        "static perftestexampleApp.$main()");
  CHECK(DemangleSwift("$s15perftestexample13CPUStressViewV9startWorkyyFyycfU_",
                      Style::kInstruments) == "closure #1 in CPUStressView.startWork()");
  CHECK(DemangleSwift("$s15perftestexample13CPUStressViewV9startWorkyyFyycfU_", Style::kFull) ==
        "closure #1 () -> () in perftestexample.CPUStressView.startWork() -> ()");
}

TEST_CASE("prefixes: Swift schemes read, others refused", "[swift]") {
  for (const char* name : {"$s4main3fooyyF", "_$s4main3fooyyF", "$S4main3fooyyF", "_$S4main3fooyyF",
                           "$e4main3fooyyF", "_$e4main3fooyyF", "__$s4main3fooyyF"}) {
    INFO(name);
    CHECK(DemangleSwift(name, Style::kFull) == "main.foo() -> ()");
  }
  CHECK(DemangleSwift("_T04main3fooyyF", Style::kFull) == "main.foo() -> ()");
  CHECK(DemangleSwift("async_MainTu", Style::kFull) ==
        "async function pointer to async main entry point");
  // The pre-Swift-4 mangling, with or without the extra underscore of a Mach-O symbol.
  for (const char* name : {"_TtSi", "__TtSi"}) {
    INFO(name);
    CHECK(DemangleSwift(name, Style::kFull) == "Swift.Int");
  }
  for (const char* name : {"", "main", "_Z3foov", "$s", "$sX", "$s4mai", "_R4main", "_T", "_Tt"}) {
    INFO(name);
    CHECK_FALSE(DemangleSwift(name, Style::kFull));
  }
}

TEST_CASE("punycode identifiers decode to UTF-8", "[swift]") {
  using demangle::swift::DecodePunycode;
  std::string out;
  CHECK(DecodePunycode("vergenza_JFa", out));
  CHECK(out ==
        "verg\xC3\xBC"
        "enza");
  out.clear();
  // Non-identifier ASCII characters travel as code points 0xD800 + c: the backquotes here; the
  // blank is a no-break space.
  CHECK(DecodePunycode("foospace_liaADEDGcja", out));
  CHECK(out == "`foo\xC2\xA0space`");
  for (const char* bad : {"abc_9", "a_zzzzzzzzzzzzzzzzzzzzzzzzzz", "_Z", "\xC3\xBC_a"}) {
    INFO(bad);
    out.clear();
    CHECK_FALSE(DecodePunycode(bad, out));
  }
  CHECK_FALSE(DecodePunycode(std::string(5000, 'a'), out));
  CHECK(DemangleSwift("$s8mangling0022egbpdajGbuEbxfgehfvwxnyyF", Style::kInstruments) ==
        "\xD9\x84\xD9\x8A\xD9\x87\xD9\x85\xD8\xA7\xD8\xA8\xD8\xAA\xD9\x83\xD9\x84\xD9\x85\xD9\x88"
        "\xD8\xB4\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A\xD8\x9F()");
}

TEST_CASE("substitutions refer back to earlier names and types", "[swift]") {
  // AA: the identifier "main" again, here the class's name.
  CHECK(DemangleSwift("$s4mainAAC3fooyyF", Style::kFull) == "main.main.foo() -> ()");
  // A and a number: repeated substitution; S and a number: repeated standard types.
  CHECK(DemangleSwift("$s4main3fooyyAA1SV_A2DtF", Style::kFull) ==
        "main.foo(main.S, main.S, main.S) -> ()");
  CHECK(DemangleSwift("$s4main3fooyS2i_SitF", Style::kFull) ==
        "main.foo(Swift.Int, Swift.Int) -> Swift.Int");
  // Word substitutions: "0B" is the second word seen ("main", "expensive"), "Loop" new text.
  CHECK(DemangleSwift("$s4main9expensiveV0B4LoopyyF", Style::kInstruments) ==
        "expensive.expensiveLoop()");
  // Indexes past those defined fail instead of reading out of bounds.
  for (const char* name : {"$s4mainAZ", "$s4mainA5_", "$s4main0C3fooyyF", "$sS9999i"}) {
    INFO(name);
    CHECK_FALSE(DemangleSwift(name, Style::kFull));
  }
}

TEST_CASE("sugar, generics, async, throws and ownership", "[swift]") {
  CHECK(DemangleSwift("$s4main3fooyySaySiG_SDySSSiGSiSgtF", Style::kFull) ==
        "main.foo([Swift.Int], [Swift.String : Swift.Int], Swift.Int?) -> ()");
  CHECK(DemangleSwift("$s4main3fooyxxYaKSQRzlF", Style::kFull) ==
        "main.foo<A where A: Swift.Equatable>(A) async throws -> A");
  CHECK(DemangleSwift("$s4main3fooyxxYaKSQRzlF", Style::kInstruments) == "foo<A>(_:)");
  CHECK(DemangleSwift("$s4main3fooyySizF", Style::kFull) == "main.foo(inout Swift.Int) -> ()");
  CHECK(DemangleSwift("$s4main3fooyySSnF", Style::kFull) == "main.foo(__owned Swift.String) -> ()");
  CHECK(DemangleSwift("$s4main3fooyyxRi_zlF", Style::kFull) ==
        "main.foo<A where A: ~Swift.Copyable>(A) -> ()");
}

TEST_CASE("suffix families: thunks, specializations, async parts", "[swift]") {
  const std::vector<std::pair<std::string, std::string>> kCases = {
      {"$s4main3fooyyFTm", "merged main.foo() -> ()"},
      {"$s4main3fooyyxlFSi_Tg5", "generic specialization <Swift.Int> of main.foo<A>(A) -> ()"},
      {"$s4main3fooyyxlFSi_Ti5", "inlined generic function <Swift.Int> of main.foo<A>(A) -> ()"},
      {"$s4main3fooyySiFTf4d_n",
       "function signature specialization <Arg[0] = Dead> of main.foo(Swift.Int) -> ()"},
      {"$s4main3fooyySiFTf4g_n",
       "function signature specialization <Arg[0] = Owned To Guaranteed> of main.foo(Swift.Int) "
       "-> ()"},
      {"$s4main3fooyySiFTA", "partial apply forwarder for main.foo(Swift.Int) -> ()"},
      {"$s4main3fooyySiFTa", "partial apply ObjC forwarder for main.foo(Swift.Int) -> ()"},
      {"$sSiSbIegyd_SiSbIegnr_TR",
       "reabstraction thunk helper from @escaping @callee_guaranteed (@unowned Swift.Int) -> "
       "(@unowned Swift.Bool) to @escaping @callee_guaranteed (@in_guaranteed Swift.Int) -> "
       "(@out Swift.Bool)"},
      {"$s4main3fooyyYaFTQ0_", "(1) await resume partial function for main.foo() async -> ()"},
      {"$s4main3fooyyYaFTY1_", "(2) suspend resume partial function for main.foo() async -> ()"},
      {"$s4main3fooyyYaFTu", "async function pointer to main.foo() async -> ()"},
      {"$s4main1SVAA1PA2aDP3baryyFTW",
       "protocol witness for main.P.bar() -> () in conformance main.S : main.P in main"},
      {"$s4main1CC3baryyFTj", "dispatch thunk of main.C.bar() -> ()"},
      {"$s4main1CC3baryyFTq", "method descriptor for main.C.bar() -> ()"},
      {"$s4main1CC3baryyFTo", "@objc main.C.bar() -> ()"},
      {"$s4main1CC3baryyFTO", "@nonobjc main.C.bar() -> ()"},
      {"$s4main1CC3baryyFTc", "curry thunk of main.C.bar() -> ()"},
      {"$s4main1CC3baryyFTD", "dynamic main.C.bar() -> ()"},
      {"$s4main3fooyyF.cold.1", "main.foo() -> () with unmangled suffix \".cold.1\""},
  };
  for (const auto& [mangled, expected] : kCases) {
    INFO(mangled);
    CHECK(DemangleSwift(mangled, Style::kFull) == expected);
  }
  CHECK(DemangleSwift("$s4main3fooyyxlFSi_Tg5", Style::kInstruments) == "specialized foo<A>(_:)");
  CHECK(DemangleSwift("$s4main3fooyySiFTA", Style::kInstruments) == "partial apply for foo(_:)");
  CHECK(DemangleSwift("$sSiSbIegyd_SiSbIegnr_TR", Style::kInstruments) ==
        "thunk for @escaping @callee_guaranteed (@unowned Int) -> (@unowned Bool)");
  CHECK(DemangleSwift("$s4main3fooyyYaFTQ0_", Style::kInstruments) == "foo()");
  CHECK(DemangleSwift("$s4main3fooyyFTm", Style::kInstruments) == "foo()");
  CHECK(DemangleSwift("$s4main3fooyyF.cold.1", Style::kInstruments) == "foo()");
}

TEST_CASE("suffix families: metadata, witnesses, outlined operations", "[swift]") {
  const std::vector<std::pair<std::string, std::string>> kCases = {
      {"$s4main1SVWOy", "outlined copy of main.S"},
      {"$s4main1SVWOe", "outlined consume of main.S"},
      {"$s4main1SVWOh", "outlined destroy of main.S"},
      {"$s4main1SVWOb", "outlined init with take of main.S"},
      {"$s4main1SVwxx", "destroy value witness for main.S"},
      {"$s4main1SVwcp", "initializeWithCopy value witness for main.S"},
      {"$s4main1SVMa", "type metadata accessor for main.S"},
      {"$s4main1SVMn", "nominal type descriptor for main.S"},
      {"$s4main1SVN", "type metadata for main.S"},
      {"$s4main1SVAA1PAAMc", "protocol conformance descriptor for main.S : main.P in main"},
      {"$s4main1SVAA1PAAWP", "protocol witness table for main.S : main.P in main"},
      {"$s4main1CC1xSivg", "main.C.x.getter : Swift.Int"},
      {"$s4main1CC1xSivM", "main.C.x.modify : Swift.Int"},
      {"$s4main1CCyS2icig", "main.C.subscript.getter : (Swift.Int) -> Swift.Int"},
      {"$s4main1CCfD", "main.C.__deallocating_deinit"},
  };
  for (const auto& [mangled, expected] : kCases) {
    INFO(mangled);
    CHECK(DemangleSwift(mangled, Style::kFull) == expected);
  }
  CHECK(DemangleSwift("$s4main1SVwxx", Style::kInstruments) == "destroy for S");
  CHECK(DemangleSwift("$s4main1SVAA1PAAWP", Style::kInstruments) == "protocol witness table for S");
  CHECK(DemangleSwift("$s4main1CC1xSivg", Style::kInstruments) == "C.x.getter");
}

// The contract with other parsers (the pre-Swift-4 one): a tree built by hand prints.
TEST_CASE("a node tree built with NodeFactory prints", "[swift]") {
  using namespace demangle::swift;
  Arena arena;
  NodeFactory factory(arena);
  auto make = [&](NodeKind kind, std::initializer_list<Node*> children) {
    Node* node = factory.Create(kind);
    for (Node* child : children) REQUIRE(factory.AddChild(node, child));
    return node;
  };
  Node* module = factory.CreateText(NodeKind::kModule, "foo");
  Node* bar = make(NodeKind::kClass, {module, factory.CreateText(NodeKind::kIdentifier, "bar")});
  Node* zim_type =
      make(NodeKind::kType,
           {make(NodeKind::kClass, {module, factory.CreateText(NodeKind::kIdentifier, "zim")})});
  Node* element = make(NodeKind::kTupleElement,
                       {factory.CreateText(NodeKind::kTupleElementName, "zim"), zim_type});
  Node* arguments =
      make(NodeKind::kArgumentTuple, {make(NodeKind::kType, {make(NodeKind::kTuple, {element})})});
  Node* result =
      make(NodeKind::kReturnType, {make(NodeKind::kType, {factory.Create(NodeKind::kTuple)})});
  Node* function =
      make(NodeKind::kFunction,
           {bar, factory.CreateText(NodeKind::kIdentifier, "bas"),
            make(NodeKind::kType, {make(NodeKind::kFunctionType, {arguments, result})})});
  Node* global = make(NodeKind::kGlobal, {function});
  REQUIRE(factory.ok());
  CHECK(Printer(kFullOptions, 0).PrintRoot(global) == "foo.bar.bas(zim: foo.zim) -> ()");
  CHECK(Printer(kSimplifiedOptions, 0).PrintRoot(global) == "bar.bas(zim:)");
  CHECK(DumpTree(zim_type) == "Type\n  Class\n    Module \"foo\"\n    Identifier \"zim\"\n");
}

TEST_CASE("hostile input ends without crashing", "[swift]") {
  // Over the length limit.
  std::string huge = "$s" + std::string(1 << 20, 'a');
  CHECK_FALSE(DemangleSwift(huge, Style::kFull));
  // 10,000 nested arrays and tuples: refused at the tree height limit.
  std::string arrays = "$s";
  for (int i = 0; i < 10000; ++i) arrays += "Say";
  arrays += "Si";
  for (int i = 0; i < 10000; ++i) arrays += "G";
  arrays += "D";
  CHECK_FALSE(DemangleSwift(arrays, Style::kFull));
  std::string tuples = "$sSi";
  for (int i = 0; i < 10000; ++i) tuples += "_t";
  tuples += "D";
  CHECK_FALSE(DemangleSwift(tuples, Style::kInstruments));
  // Only openers, never closed.
  CHECK_FALSE(DemangleSwift("$s" + std::string(30000, 'y'), Style::kFull));
  CHECK_FALSE(DemangleSwift("$s" + std::string(30000, 'A'), Style::kFull));
  // Each dictionary level uses the one before twice: the printed text doubles per level, and
  // the output limit ends it.
  std::string doubling = "$s4main1AV";
  for (int level = 0; level < 60; ++level) {
    int previous = 2 + level;  // main, A, main.A, then one per dictionary.
    std::string index = previous < 26    ? std::string(1, static_cast<char>('A' + previous))
                        : previous == 26 ? "A_"
                                         : "A" + std::to_string(previous - 27) + "_";
    doubling += "SDy" + index + index + "G";
  }
  doubling += "D";
  CHECK_FALSE(DemangleSwift(doubling, Style::kFull));
  // Huge repeat counts and numbers.
  CHECK_FALSE(DemangleSwift("$sS999999999999i", Style::kFull));
  CHECK_FALSE(DemangleSwift("$s4main99999999999999999999fooyyF", Style::kFull));
  CHECK_FALSE(DemangleSwift("$sBi99999999999_", Style::kFull));
  // Symbolic references are refused.
  CHECK_FALSE(DemangleSwift(std::string("$s\x01\x02\x03\x04N", 7), Style::kFull));
}

TEST_CASE("every prefix of the corpus names ends without crashing", "[swift]") {
  auto path = testing::CorpusFileOrSkip("demangle/swift-full.tsv");
  if (!path) return;
  size_t demangled = 0;
  for (const Row& row : ReadRows(*path)) {
    for (size_t length = 0; length <= row.mangled.size(); ++length) {
      std::string_view prefix(row.mangled.data(), length);
      if (DemangleSwift(prefix, Style::kFull)) ++demangled;
      DemangleSwift(prefix, Style::kInstruments);
    }
  }
  CHECK(demangled > 0);
}

}  // namespace
}  // namespace instrumentscope
