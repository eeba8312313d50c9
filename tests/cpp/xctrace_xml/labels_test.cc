#include "formats/xctrace_xml/labels.h"

#include <catch2/catch.hpp>

#include "base/identifiers.h"
#include "formats/names.h"
#include "formats/xctrace_xml/table_schema.h"

namespace instrumentscope::xctrace_xml {
namespace {

TEST_CASE("Thread labels from every fmt spelling") {
  CHECK(ThreadLabel("Main Thread  0xe7716 (java, pid: 23369)", 0xe7716) == "Main Thread 0xe7716");
  CHECK(ThreadLabel("Main Thread 0x2b73e56 (test-simple, pid: 49230)", 0x2b73e56) ==
        "Main Thread 0x2b73e56");
  CHECK(ThreadLabel("Main Thread (0x13e4cf3) (a.out, pid: 34963)", 0x13e4cf3) ==
        "Main Thread 0x13e4cf3");
  CHECK(ThreadLabel("Java: C1 CompilerThread0  0xe788d (java, pid: 23369)", 0xe788d) ==
        "Java: C1 CompilerThread0 0xe788d");
  CHECK(ThreadLabel("0x6c58a (java, pid: 13748)", 0x6c58a) == "Thread 0x6c58a");
  CHECK(ThreadLabel("", 0x10) == "Thread 0x10");
  // A process name with parentheses and commas of its own.
  CHECK(ThreadLabel("worker  0x5 (My (odd), app, pid: 9)", 5) == "worker 0x5");
  CHECK(ThreadLabel("Main Thread  0x3c1feee", 0x3c1feee) == "Main Thread 0x3c1feee");
}

TEST_CASE("Process names and leaf symbols from fmt") {
  CHECK(ProcessName("java (23369)", 23369) == "java");
  CHECK(ProcessName("My App (beta) (12)", 12) == "My App (beta)");
  CHECK(ProcessName("kernel.release.t8103", -1) == "kernel.release.t8103");
  CHECK(BacktraceLeafName("mach_msg2_trap \xE2\x86\x90 (8 other frames)") == "mach_msg2_trap");
  CHECK(BacktraceLeafName("0x183492c5c \xE2\x86\x90 (15 other frames)") == "0x183492c5c");
  CHECK(BacktraceLeafName("start") == "start");
  CHECK(BacktraceLeafName("").empty());
  CHECK(HexAddress(0x1834a4734) == "0x1834a4734");
}

TEST_CASE("Runs come from the node's xpath") {
  CHECK(RunFromXpath("//trace-toc[1]/run[3]/data[1]/table[4]") == 3);
  CHECK(RunFromXpath("//trace-toc[1]/run[12]/data[1]/table[4]") == 12);
  CHECK(RunFromXpath("") == 1);
  CHECK(RunFromXpath("/run[x]") == 1);
  CHECK(RunFromXpath("/run[0]") == 1);
  CHECK(RunFromXpath("/run[99999999999]") == 1);
  CHECK(ExportCommand(2, "time-profile") ==
        "xctrace export --input YOUR.trace --xpath "
        "'/trace-toc/run[2]/data/table[@schema=\"time-profile\"]' --output time-profile.xml");
}

}  // namespace
}  // namespace instrumentscope::xctrace_xml
