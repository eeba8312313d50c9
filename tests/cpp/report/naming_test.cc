// The naming report counts each unnamed image once per sample, however often
// its frames recur in the sample's stack and whatever lies between them.
#include "report/naming.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace instrumentscope {
namespace {

Frame Unnamed(uint64_t address, ImageId image) {
  Frame frame;
  frame.name = "0x" + std::to_string(address);
  frame.address = address;
  frame.image = image;
  return frame;
}

TEST_CASE("Unnamed frames' images are counted once per sample, across other images between") {
  ProfileGroup group;
  group.images = {CodeImage{"/usr/lib/A", "", std::nullopt, 0x1000},
                  CodeImage{"/usr/lib/B", "", std::nullopt, 0x9000}};
  Frame named;
  named.name = "main";
  // f0 and f2 in A, f1 in B, f3 named.
  group.frames = {Unnamed(0x1010, 0), Unnamed(0x9010, 1), Unnamed(0x1020, 0), named};
  // s0 = A; s1 = A B; s2 = A B A; s3 = A B A main; s4 = A A.
  group.stacks.parent = {kEmptyStack, 0, 1, 2, 0};
  group.stacks.frame = {0, 1, 2, 3, 2};
  Profile thread;
  thread.name = "Main Thread";
  for (StackId stack : {3u, 3u, 1u, 4u}) {
    thread.samples.push_back(stack);
    thread.weights.push_back(1);
  }
  group.profiles.push_back(std::move(thread));

  ReportNaming(&group);

  const NamingReport& naming = group.naming;
  CHECK(naming.sampled_frames == 4);
  CHECK(naming.unnamed_frames == 3);
  REQUIRE(naming.images.size() == 2);
  // Most samples first: A is in all four, B in the three through s1.
  CHECK(naming.images[0].image == 0);
  CHECK(naming.images[0].frames == 2);
  CHECK(naming.images[0].samples == 4);
  CHECK(naming.images[1].image == 1);
  CHECK(naming.images[1].frames == 1);
  CHECK(naming.images[1].samples == 3);
  REQUIRE(group.warnings.size() == 1);
  CHECK(group.warnings[0].code == "SYMBOLS_MISSING");
  CHECK(group.warnings[0].message.find("A: 2 frames in 4 samples; B: 1 frame in 3 samples") !=
        std::string::npos);
}

}  // namespace
}  // namespace instrumentscope
