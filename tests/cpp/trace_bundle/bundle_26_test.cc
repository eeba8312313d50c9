// An Instruments 26 bundle (mperf's example.trace.zip: a SwiftUI app in the
// iOS 26.0 simulator): system libraries placed from the shared cache's image
// lists, Swift names demangled as Instruments shows them, and what stays
// unnamed reported, with the bundle whole and without its symbols.
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "import/import.h"
#include "test_support.h"
#include "zip_writer.h"

namespace instrumentscope {
namespace {

using testing::StackText;

constexpr const char* kBundle = "benjaminRomano__mperf/src/test/resources/example.trace.zip";

const Profile& MainThread(const ProfileGroup& group) {
  const Profile& profile = group.profiles[group.active_profile_index];
  REQUIRE(profile.thread_name == "Main Thread 0x76a8");
  return profile;
}

// Whether `stack` holds `frames` in this order, others between them allowed.
bool HoldsInOrder(const std::string& stack, const std::vector<std::string>& frames) {
  size_t at = 0;
  for (const std::string& frame : frames) {
    at = stack.find(";" + frame + ";", at);
    if (at == std::string::npos) return false;
    at += frame.size() + 1;
  }
  return true;
}

std::vector<std::string> Warnings(const ProfileGroup& group, const std::string& code) {
  std::vector<std::string> messages;
  for (const Warning& warning : group.warnings) {
    if (warning.code == code) messages.push_back(warning.message);
  }
  return messages;
}

// The bundle imported whole; nullopt, the test skipped, without the corpus.
std::optional<ProfileGroup> ImportBundle(ImportOptions options = {}) {
  auto path = testing::CorpusFileOrSkip(kBundle);
  if (!path) return std::nullopt;
  auto group = testing::ImportPath(*path, options);
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  return group.take();
}

// The bundle without the files whose paths hold `left_out`, as a copy may lose them.
std::optional<ProfileGroup> ImportBundleWithout(const std::string& left_out) {
  auto path = testing::CorpusFileOrSkip(kBundle);
  if (!path) return std::nullopt;
  auto group = testing::ImportBytes(testing::ZipWithout(*path, left_out));
  INFO(group.status().ToString());
  REQUIRE(group.ok());
  return group.take();
}

TEST_CASE(
    "Instruments 26: system libraries from the shared cache, Swift named as Instruments names it") {
  auto group = ImportBundle();
  if (!group) return;
  const Profile& main = MainThread(*group);
  CHECK(main.sample_count == 1978);

  // The CPU-heavy work, from the process's start down through the run loop.
  const std::vector<std::string> work = {
      "start",
      "static perftestexampleApp.$main()",
      "UIApplicationMain",
      "GSEventRunModal",
      "__CFRunLoopRun",
      "closure #1 in CPUStressView.startWork()",
  };
  uint64_t in_work = 0;
  for (size_t i = 0; i < main.samples.size(); ++i) {
    if (main.samples[i] == kEmptyStack) continue;
    std::string stack = ";" + StackText(*group, main.samples[i]) + ";";
    if (HoldsInOrder(stack, work) &&
        stack.find(";static CPUStressWork.expensiveLoop(iterationCount:);") != std::string::npos) {
      ++in_work;
    }
  }
  CHECK(in_work > 1000);

  // No Swift mangling is left, and Instruments' own names for the others.
  bool swift_mangled = false;
  for (const Frame& frame : group->frames) {
    swift_mangled = swift_mangled || frame.name.find("$s") == 0 || frame.name.find("_$s") == 0 ||
                    frame.name.find("$$_$s") != std::string::npos;
  }
  CHECK_FALSE(swift_mangled);

  // Of the 993 frames samples reach, 76 stay unnamed: 72 functions the
  // archives hold without a name (Instruments had none either) and 4 frames
  // outside every listed image.
  CHECK(group->naming.sampled_frames == 993);
  CHECK(group->naming.unnamed_frames == 76);
  REQUIRE_FALSE(group->naming.images.empty());
  const UnnamedImage& outside = group->naming.images.front();
  CHECK(outside.image == kNoImage);
  CHECK(outside.frames == 4);
  CHECK(outside.samples == 1978);
  bool uikit = false;
  for (const UnnamedImage& image : group->naming.images) {
    if (image.image == kNoImage) continue;
    const CodeImage& code = group->images[image.image];
    REQUIRE(code.uuid);
    if (code.path.find("/UIKitCore.framework/UIKitCore") != std::string::npos) {
      uikit = true;
      CHECK(image.frames == 24);
      CHECK(*code.load_address == 0x185156000);
    }
  }
  CHECK(uikit);
  // They make up 2.6% of the main thread's flame graph (the loader's frames,
  // which no symbol file could name, not counted): below SYMBOLS_MISSING's 5%.
  CHECK(Warnings(*group, "SYMBOLS_MISSING").empty());
  CHECK(Warnings(*group, "FORM_TEMPLATE_DAMAGED").empty());
}

// Samples of `profile` whose stacks hold a frame named `name`.
uint64_t SamplesThrough(const ProfileGroup& group, const Profile& profile,
                        const std::string& name) {
  uint64_t samples = 0;
  for (size_t i = 0; i < profile.samples.size(); ++i) {
    if (profile.samples[i] == kEmptyStack) continue;
    std::string stack = ";" + StackText(group, profile.samples[i]) + ";";
    if (stack.find(";" + name + ";") != std::string::npos) ++samples;
  }
  return samples;
}

TEST_CASE(
    "Instruments 26: folded code, dyld stubs and C++ templates named as Instruments names them") {
  auto group = ImportBundle();
  if (!group) return;
  const Profile& main = MainThread(*group);

  // Code the linker folded from identical functions is <deduplicated_symbol>,
  // as Instruments shows it: no one of its functions is the frame's name.
  // Before, the lookup took the last function the archive listed there.
  CHECK(SamplesThrough(*group, main, "<deduplicated_symbol>") > 72);
  for (const char* guess :
       {"partial apply for closure #1 in LayoutComputer.withMutableEngine<A, B>(type:do:)",
        "closure #1 in closure #1 in closure #1 in closure #1 in "
        "_UIHostingView.beginTransaction()",
        "protocol witness for Layout.sizeThatFits(proposal:subviews:cache:) in conformance "
        "_VStackLayout",
        "argb32_image_mark_image", "_swift_displayCrashMessage"}) {
    INFO(guess);
    CHECK(SamplesThrough(*group, main, guess) == 0);
  }
  // The report keeps what each body may be: 34 bodies in 8 images, the
  // busiest first, its functions demangled as every frame.
  REQUIRE(group->naming.folded.size() == 34);
  const FoldedFrame& busiest = group->naming.folded.front();
  CHECK(busiest.samples == 72);
  const Frame& layout = group->frames[group->naming.folded[1].frame];
  CHECK(layout.name == "<deduplicated_symbol>");
  CHECK_THAT(layout.file, Catch::EndsWith("/SwiftUICore"));
  CHECK(layout.folded ==
        std::vector<std::string>{
            "partial apply for closure #1 in ViewGraphRootValueUpdater.updateGraph<A>(body:)",
            "partial apply for closure #1 in LayoutComputer.withMutableEngine<A, B>(type:do:)"});
  CHECK(group->naming.sampled_frames == 993);
  CHECK(group->naming.unnamed_frames == 76);

  // dyld stubs without Mach-O's underscore; a C function whose own name
  // starts with one keeps it.
  std::set<std::string> stubs;
  bool spaced_templates = false;
  for (const Frame& frame : group->frames) {
    if (frame.name.rfind("DYLD-STUB$$", 0) == 0) stubs.insert(frame.name);
    spaced_templates = spaced_templates || frame.name.find("> >") != std::string::npos;
  }
  for (const char* stub : {"DYLD-STUB$$memcpy", "DYLD-STUB$$free", "DYLD-STUB$$sin",
                           "DYLD-STUB$$_platform_bzero", "DYLD-STUB$$IndexingIterator.next()"}) {
    INFO(stub);
    CHECK(stubs.count(stub));
  }
  for (const std::string& stub : stubs) {
    INFO(stub);
    CHECK((stub.rfind("DYLD-STUB$$_", 0) != 0 || stub == "DYLD-STUB$$_platform_bzero"));
  }
  // C++ as current LLVM prints it: nested templates close with ">>".
  CHECK_FALSE(spaced_templates);
  CHECK(SamplesThrough(*group, main,
                       "swift::metadataimpl::ValueWitnesses<swift::metadataimpl::NativeBox<"
                       "unsigned long long, 8ul, 8ul, 8ul>>::initializeWithTake(swift::"
                       "OpaqueValue*, swift::OpaqueValue*, swift::TargetMetadata<swift::"
                       "InProcess> const*)") > 0);
}

TEST_CASE("Instruments 26 in full: a folded body lists the functions it may be") {
  ImportOptions options;
  options.demangle = demangle::Style::kFull;
  auto group = ImportBundle(options);
  if (!group) return;
  std::set<std::string> names;
  for (const FoldedFrame& folded : group->naming.folded) {
    names.insert(group->frames[folded.frame].name);
  }
  CHECK(
      names.count("<deduplicated_symbol> (one of 2: rgba32_image_mark_image | "
                  "argb32_image_mark_image)"));
  // 440 functions share one four-byte body of libswiftCore: the first three, then "…".
  bool long_list = false;
  for (const std::string& name : names) {
    const std::string ellipsis = " | \xE2\x80\xA6)";
    long_list =
        long_list || (name.rfind("<deduplicated_symbol> (one of 440: ", 0) == 0 &&
                      name.size() > ellipsis.size() &&
                      name.compare(name.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0);
  }
  CHECK(long_list);
}

TEST_CASE("Instruments 26 without its form.template: the warning says what that costs, no more") {
  auto group = ImportBundleWithout("form.template");
  if (!group) return;
  // The archives cannot be placed without its image lists; process-info
  // still names the process.
  CHECK(Warnings(*group, "NO_FORM_TEMPLATE") ==
        std::vector<std::string>{"the bundle has no form.template: frames show addresses, not "
                                 "symbols (the bundle's symbols/ are placed by its image lists); "
                                 "the instruments that recorded it are not known"});
  CHECK(MainThread(*group).process_name == "perftestexample");
  CHECK(group->instruments.empty());
}

TEST_CASE("Instruments 26 without its symbols: addresses, and SYMBOLS_MISSING naming the images") {
  auto group = ImportBundleWithout("/symbols/");
  if (!group) return;
  MainThread(*group);
  // Every frame but those the form.template names is unnamed.
  CHECK(group->naming.unnamed_frames * 10 > group->naming.sampled_frames * 9);
  std::vector<std::string> missing = Warnings(*group, "SYMBOLS_MISSING");
  REQUIRE(missing.size() == 1);
  CHECK_THAT(missing[0],
             Catch::Matches("unnamed frames make up (9[0-9]|100)% of the flame graph of "
                            ".* \\(and more than 5% of 3 other profiles\\): .*"));
  CHECK_THAT(missing[0], Catch::Contains("UIKitCore (UUID F3921C0A-1332-3779-97C7-62D9F3FA6B77)"));
  CHECK_THAT(missing[0], Catch::Contains("perftestexample.debug.dylib (UUID "));
  CHECK_THAT(missing[0], Catch::Contains("4 frames in 1978 samples outside every image the "
                                         "recording names"));
  CHECK_THAT(missing[0], Catch::Contains("DeviceSupport"));
}

}  // namespace
}  // namespace instrumentscope
