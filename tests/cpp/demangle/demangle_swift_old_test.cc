// The pre-Swift-4 ("_T") Swift mangling: the trees its parser builds, C symbols that only look
// like it, focused cases, and hostile input. The corpus rows are checked in
// demangle_swift_test.cc.
#include <catch2/catch.hpp>
#include <string>

#include "demangle/swift/arena.h"
#include "demangle/swift/node.h"
#include "demangle/swift/old_parser.h"
#include "demangle/swift/swift_demangle.h"

namespace instrumentscope {
namespace {

using demangle::DemangleSwift;
using demangle::Style;

std::string OldTree(const std::string& mangled) {
  using namespace demangle::swift;
  Arena arena;
  NodeFactory factory(arena);
  return DumpTree(OldParser(mangled, arena, factory).ParseSymbol());
}

TEST_CASE("old manglings build the trees of the Swift 4+ parser", "[swift]") {
  CHECK(OldTree("_TtSi") == "Global\n  Structure\n    Module \"Swift\"\n    Identifier \"Int\"\n");
  CHECK(OldTree("_TWvdvC3foo3bar3basSi") ==
        "Global\n"
        "  FieldOffset\n"
        "    Directness 0\n"
        "    Variable\n"
        "      Class\n"
        "        Module \"foo\"\n"
        "        Identifier \"bar\"\n"
        "      Identifier \"bas\"\n"
        "      Type\n"
        "        Structure\n"
        "          Module \"Swift\"\n"
        "          Identifier \"Int\"\n");
  // 'f', a method's uncurried type, is a FunctionType; labels stay in the argument tuple.
  CHECK(OldTree("_TFC3foo3bar3basfT3zimCS_3zim_T_") ==
        "Global\n"
        "  Function\n"
        "    Class\n"
        "      Module \"foo\"\n"
        "      Identifier \"bar\"\n"
        "    Identifier \"bas\"\n"
        "    Type\n"
        "      FunctionType\n"
        "        ArgumentTuple\n"
        "          Type\n"
        "            Tuple\n"
        "              TupleElement\n"
        "                TupleElementName \"zim\"\n"
        "                Type\n"
        "                  Class\n"
        "                    Module \"foo\"\n"
        "                    Identifier \"zim\"\n"
        "        ReturnType\n"
        "          Type\n"
        "            Tuple\n");
  CHECK(DemangleSwift("_TFC3foo3bar3basfT3zimCS_3zim_T_", Style::kFull) ==
        "foo.bar.bas(zim: foo.zim) -> ()");
  CHECK(DemangleSwift("_TFC3foo3bar3basfT3zimCS_3zim_T_", Style::kInstruments) == "bar.bas(zim:)");
}

TEST_CASE("C symbols that start with _T are no old manglings", "[swift]") {
  for (const char* name :
       {// libtiff
        "_TIFFmalloc", "_TIFFfree", "_TIFFrealloc", "_TIFFmemcpy", "_TIFFmemset", "_TIFFClientOpen",
        "_TIFFReadDirectory", "_TIFFFillStriles", "_TIFFNoPostDecode", "_TIFFSwab16BitData",
        "_TIFFerrorHandler", "_TIFFDefaultStripSize", "_TIFFVSetField", "_TIFFsetByteArray",
        "_TIFFgetMode", "_TIFFCheckMalloc", "_TIFFMergeFields", "_TIFFFindFieldByName",
        "_TIFFUInt64ToDouble", "_TIFFMultiply32", "_TIFFFax3fillruns",
        // Apple's private C functions
        "_TSSetProcessAppearance", "_TSGetMainThread", "_TSMGetActiveDocument",
        "_TSMProcessRawKeyEvent", "_TCCAccessRequest", "_TCCAccessPreflight",
        "_TCCAccessCheckAuditToken", "_TCPReceive", "_TCPSend", "_TXNInitTextension",
        "_TECConvertText", "_TransformProcessType", "_TLSGetValue",
        // Tcl/Tk, and names that read as a short mangling followed by words
        "_Tcl_Init", "_Tcl_CreateInterp", "_Tk_Init", "_TtBootstrap", "_TtSignal", "_TMBoxFoo",
        "_TSSCopy", "_TSiStringFromInt", "_TtSiValue", "_TtxCallback", "_TwxxBuffer", "_TPAGetFoo",
        "_TPAsyncRead", "_TTRBlock", "_TTWork", "_TVMAllocate", "_TObjC", "_TNSLog", "_TQueueItem",
        "_T1Read", "_Tt3Foo"}) {
    INFO(name);
    CHECK_FALSE(DemangleSwift(name, Style::kFull));
    CHECK_FALSE(DemangleSwift(name, Style::kInstruments));
  }
}

TEST_CASE("old manglings: suffixes, runtime class names, refusals", "[swift]") {
  // The runtime name of a Swift class, as Objective-C sees it.
  CHECK(DemangleSwift("_TtC5MyApp11AppDelegate", Style::kFull) == "MyApp.AppDelegate");
  CHECK(DemangleSwift("_TtC5MyApp11AppDelegate", Style::kInstruments) == "AppDelegate");
  // Compiler-appended suffixes; a NUL ends the name.
  CHECK(DemangleSwift("_TF4main3fooFT_T_.cold.1", Style::kFull) ==
        "main.foo() -> () with unmangled suffix \".cold.1\"");
  CHECK(DemangleSwift("_TF4main3fooFT_T_.cold.1", Style::kInstruments) == "foo()");
  CHECK(DemangleSwift(std::string("_TtSi\0garbage", 13), Style::kFull) == "Swift.Int");
  // A bare nominal type is no symbol; neither is a forwarder without its function.
  CHECK_FALSE(DemangleSwift("_TC4main3Foo", Style::kFull));
  CHECK_FALSE(DemangleSwift("_TPA", Style::kFull));
  CHECK_FALSE(DemangleSwift("_TPA31", Style::kFull));
  // Substitutions past those defined, modules as types, truncated names.
  for (const char* name : {"_TtS_", "_TtS0_", "_TtSo", "_TtGSq", "_TF4main", "_TFC4main3Foo3bar",
                           "_TTSg5Si___", "_TwzzSi", "_TWvxvC3foo3bar3basSi"}) {
    INFO(name);
    CHECK_FALSE(DemangleSwift(name, Style::kFull));
  }
}

TEST_CASE("hostile old manglings end without crashing", "[swift]") {
  // Over the length limit.
  CHECK_FALSE(DemangleSwift("_TtS" + std::string(1 << 20, 'i'), Style::kFull));
  // 10,000 levels of nesting, each refused at the parser's depth limit.
  auto nested = [](const std::string& head, const std::string& open, const std::string& middle,
                   const std::string& close) {
    std::string name = head;
    for (int i = 0; i < 10000; ++i) name += open;
    name += middle;
    for (int i = 0; i < 10000; ++i) name += close;
    return name;
  };
  CHECK_FALSE(DemangleSwift(nested("_Tt", "GSq", "Si", "_"), Style::kFull));
  CHECK_FALSE(DemangleSwift(nested("_Tt", "T", "Si", "_"), Style::kInstruments));
  CHECK_FALSE(DemangleSwift(nested("_Tt", "R", "Si", ""), Style::kFull));
  CHECK_FALSE(DemangleSwift(nested("_Tt", "Q", "s3Foo", "3Bar"), Style::kFull));
  CHECK_FALSE(DemangleSwift(nested("_TF", "C", "4main", "3Foo") + "3barFT_T_", Style::kFull));
  CHECK_FALSE(DemangleSwift(nested("_T", "PA__T", "tSi", ""), Style::kFull));
  CHECK_FALSE(DemangleSwift(nested("_Tt", "FSi", "Si", ""), Style::kFull));
  // Only openers, never closed.
  CHECK_FALSE(DemangleSwift("_Tt" + std::string(60000, 'T'), Style::kFull));
  CHECK_FALSE(DemangleSwift("_TtuRx" + std::string(60000, 'W'), Style::kFull));
  // Many specializations: refused at the output limit.
  std::string specializations = "_TTS";
  for (int i = 0; i < 5000; ++i) specializations += "g5Si___TTS";
  specializations += "g5Si___TFSqcfT_GSqx_";
  CHECK_FALSE(DemangleSwift(specializations, Style::kFull));
  // Huge numbers: lengths, sizes, indexes.
  for (const char* name :
       {"_TF4main99999999999999999999fooFT_T_", "_TtBi99999999999_", "_TtS99999999999999999999_",
        "_Ttqd99999999999999999999__", "_TtBv99999999999Bi8_"}) {
    INFO(name);
    CHECK_FALSE(DemangleSwift(name, Style::kFull));
  }
  // A generic parameter count past every limit prints its first parameters only.
  std::optional<std::string> many = DemangleSwift("_Ttu99999999999999999999_rFxx", Style::kFull);
  REQUIRE(many);
  CHECK(many->size() < 2000);
}

}  // namespace
}  // namespace instrumentscope
