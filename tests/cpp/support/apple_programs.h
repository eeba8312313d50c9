// Mach-O programs the tests build themselves: C compiled by clang for arm64 or
// x86_64 macOS, linked by ld64.lld (no SDK: undefined symbols are left to the
// loader), dSYMs by dsymutil, universal files by the tests' own writer; and
// the LLVM tools that check what the readers make of them.
#ifndef INSTRUMENTSCOPE_TESTS_CPP_APPLE_PROGRAMS_H_
#define INSTRUMENTSCOPE_TESTS_CPP_APPLE_PROGRAMS_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace instrumentscope::testing {

// A command's standard output and error; "FAILED: …" when it exits non-zero.
std::string Run(const std::string& command);
bool Failed(const std::string& output);

// Whether every tool is installed; warns which one is missing (the caller skips).
bool HaveTools(const std::vector<std::string>& tools);

// A fresh directory under the system's temporary directory, per process and `purpose`.
std::filesystem::path TempDir(const std::string& purpose);

struct ProgramBuild {
  std::string arch = "arm64";  // or "x86_64"
  std::string flags = "-g -O1";
};
// Compiles `source` (written to dir/<name>.c) and links it; returns the binary's path.
std::string BuildProgram(const std::filesystem::path& dir, const std::string& name,
                         const std::string& source, const ProgramBuild& build = {});
// dsymutil's bundle for `binary`: returns the path of the DWARF file inside
// (<binary>.dSYM/Contents/Resources/DWARF/<name>).
std::string BuildDsym(const std::string& binary);

// A universal file of (cpu type, thin file) slices, as lipo writes one: a
// big-endian header and table, each slice aligned to 2^14.
std::vector<uint8_t> Universal(
    const std::vector<std::pair<uint32_t, std::vector<uint8_t>>>& slices);

}  // namespace instrumentscope::testing

#endif  // INSTRUMENTSCOPE_TESTS_CPP_APPLE_PROGRAMS_H_
