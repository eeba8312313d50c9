// The images of a process (Instruments 12 and later): image-list blobs, their
// shared-cache trailer, and the shared cache's own image lists as
// form.template keeps them (Instruments 26), placed at the cache's base.
#include "formats/trace_bundle/image_list.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "bplist_writer.h"
#include "formats/trace_bundle/form_template.h"

namespace instrumentscope::trace_bundle {
namespace {

using testing::BplistWriter;
using testing::KeyedArchiveWriter;

void PutU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void PutU64(std::vector<uint8_t>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

struct TestImage {
  uint8_t uuid_byte;  // all 16 bytes of its UUID
  std::string path;
  uint64_t text;  // __TEXT's address
  uint64_t unload = 0x7FFFFFFFFFFFFFFF;
};

// An image list (magic 0xFF01FF02, version 1) as Instruments 16 and 26 write it.
std::vector<uint8_t> ImageListBlob(const std::vector<TestImage>& images, uint32_t version = 1) {
  std::vector<uint8_t> blob;
  for (uint32_t word : {0xFF01FF02u, version, 49230u, 0u, 0x2000u}) PutU32(blob, word);
  PutU32(blob, static_cast<uint32_t>(images.size()));
  for (const TestImage& image : images) {
    for (int i = 0; i < 16; ++i) blob.push_back(image.uuid_byte);
    PutU32(blob, 0);
    PutU32(blob, 0x202411);
    PutU64(blob, 0);
    PutU64(blob, image.unload);
    PutU32(blob, 0x0100000C);
    PutU32(blob, 0);
    PutU32(blob, 2);  // segments
    PutU32(blob, static_cast<uint32_t>(image.path.size() + 2));
    blob.insert(blob.end(), image.path.begin(), image.path.end());
    blob.insert(blob.end(), 2, 0);
    for (const char* segment : {"__PAGEZERO", "__TEXT"}) {
      std::string name(segment);
      name.resize(16, '\0');
      blob.insert(blob.end(), name.begin(), name.end());
      PutU64(blob, segment[2] == 'P' ? 0 : image.text);
      PutU64(blob, 0x4000);
    }
  }
  return blob;
}

// The trailer naming a shared cache (its UUID's 16 bytes) mapped at `base`.
void AppendTrailer(std::vector<uint8_t>& blob, const std::vector<uint8_t>& uuid, uint64_t base,
                   uint32_t version = 4) {
  PutU32(blob, 0x00C0FFEE);
  PutU32(blob, version);
  blob.insert(blob.end(), uuid.begin(), uuid.end());
  PutU64(blob, base);
}

TEST_CASE("Image lists place each image's __TEXT, and refuse damage") {
  std::vector<uint8_t> blob = ImageListBlob(
      {{0x11, "/usr/bin/app", 0x102C04000}, {0x22, "/usr/lib/dyld", 0x102CA4000, 0x1E31CD734323}});
  auto list = ParseImageList(ByteSpan(blob.data(), blob.size()));
  REQUIRE(list.ok());
  const std::vector<ProcessImage>& images = list->images;
  REQUIRE(images.size() == 2);
  CHECK(images[0].path == "/usr/bin/app");
  CHECK(images[0].text_start == 0x102C04000);
  CHECK(images[0].text_size == 0x4000);
  CHECK_FALSE(images[0].unloaded);
  CHECK(images[1].unloaded);
  CHECK(images[1].uuid[0] == 0x22);
  CHECK_FALSE(list->shared_cache);
  CHECK(list->unread_trailer.empty());

  SECTION("a trailer naming the shared cache and its base") {
    std::vector<uint8_t> trailed = blob;
    AppendTrailer(trailed, std::vector<uint8_t>(16, 0x88), 0x180000000);
    auto read = ParseImageList(ByteSpan(trailed.data(), trailed.size()));
    REQUIRE(read.ok());
    REQUIRE(read->shared_cache);
    CHECK(read->shared_cache->uuid[15] == 0x88);
    CHECK(read->shared_cache->base == 0x180000000);
    // Another trailer version is named with its bytes, and the images still read.
    trailed[blob.size() + 4] = 5;
    read = ParseImageList(ByteSpan(trailed.data(), trailed.size()));
    REQUIRE(read.ok());
    CHECK_FALSE(read->shared_cache);
    CHECK(read->images.size() == 2);
    CHECK(read->unread_trailer.find("ee ff c0 00 05 00 00 00") != std::string::npos);
  }
  SECTION("the kernel's placeholder trailer names no cache") {
    std::vector<uint8_t> trailed = blob;
    std::vector<uint8_t> placeholder;
    for (uint8_t i = 0; i < 16; ++i) placeholder.push_back(i);
    AppendTrailer(trailed, placeholder, 0);
    auto read = ParseImageList(ByteSpan(trailed.data(), trailed.size()));
    REQUIRE(read.ok());
    CHECK_FALSE(read->shared_cache);
  }

  std::vector<uint8_t> new_version = ImageListBlob({{0x11, "/usr/bin/app", 0x1000}}, 2);
  auto refused = ParseImageList(ByteSpan(new_version.data(), new_version.size()));
  CHECK(refused.status().code() == ErrorCode::kBundleUnsupported);
  CHECK(refused.status().message().find("version 2") != std::string::npos);
  std::vector<uint8_t> bad_magic = blob;
  bad_magic[0] = 0;
  CHECK(ParseImageList(ByteSpan(bad_magic.data(), bad_magic.size())).status().code() ==
        ErrorCode::kBundleCorrupt);
  std::vector<uint8_t> too_many = blob;
  too_many[0x14] = 0xFF;
  CHECK(ParseImageList(ByteSpan(too_many.data(), too_many.size())).status().code() ==
        ErrorCode::kBundleCorrupt);
  std::vector<uint8_t> cut(blob.begin(), blob.end() - 10);
  CHECK_FALSE(ParseImageList(ByteSpan(cut.data(), cut.size())).ok());
}

TEST_CASE("Shared-cache images are placed at the process's cache base") {
  SharedCacheImages cache;
  cache[0x70000] = ProcessImage{{1}, "/usr/lib/libobjc.A.dylib", 0x70000, 0x3D288, false};
  cache[0xAE000] = ProcessImage{{2}, "/usr/lib/system/libdyld.dylib", 0xAE000, 0x2BB29, false};
  std::vector<ProcessImage> all = PlaceSharedCache(cache, 0x180000000, {});
  REQUIRE(all.size() == 2);
  CHECK(all[0].text_start == 0x180070000);
  CHECK(all[1].text_start == 0x1800AE000);
  // Only the images the process lists, when it lists them; unknown keys are passed over.
  std::vector<ProcessImage> loaded = PlaceSharedCache(cache, 0x180000000, {0xAE000, 0x1234});
  REQUIRE(loaded.size() == 1);
  CHECK(loaded[0].path == "/usr/lib/system/libdyld.dylib");
  // A base that would overflow places nothing.
  CHECK(PlaceSharedCache(cache, ~uint64_t{0} - 0x1000, {}).empty());
}

// A form.template as Instruments 26 writes one: a process of pid 42 in run 1
// mapping a shared cache whose image lists sit beside the processes'.
struct Form26 {
  KeyedArchiveWriter writer;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> cache_images;  // key, list
  std::vector<uint64_t> loaded;                                         // dsc_load_addresses
  std::vector<uint8_t> process_list;
  bool list_cache = true;  // whether form.template has the cache's image lists

  std::vector<uint8_t> Build() {
    BplistWriter& plist = writer.plist();
    uint32_t dictionary = writer.Class("NSMutableDictionary");
    uint32_t data = writer.Class("NSMutableData");
    uint32_t set = writer.Class("NSMutableSet");
    auto dict = [&](const std::vector<std::pair<uint32_t, uint32_t>>& entries) {
      std::vector<uint32_t> keys, values;
      for (const auto& [key, value] : entries) {
        keys.push_back(writer.Ref(key));
        values.push_back(writer.Ref(value));
      }
      return writer.Instance(dictionary,
                             {{"NS.keys", plist.Array(keys)}, {"NS.objects", plist.Array(values)}});
    };
    auto bytes = [&](const std::vector<uint8_t>& blob) {
      return writer.Instance(data, {{"NS.data", plist.Data(blob)}});
    };
    std::vector<uint32_t> loaded_refs;
    for (uint64_t key : loaded) {
      loaded_refs.push_back(writer.Ref(writer.Add(plist.Int(static_cast<int64_t>(key)))));
    }
    uint32_t symbols = writer.Instance(
        writer.Class("PFTPersistentSymbols"),
        {{"com.apple.xray.symbolstore.signature", writer.Ref(bytes(process_list))},
         {"dsc_load_addresses",
          writer.Ref(writer.Instance(set, {{"NS.objects", plist.Array(loaded_refs)}}))}});
    uint32_t processes = dict({{writer.Add(plist.Ascii("DEVICE.42")), symbols}});
    writer.SetTop("com.apple.xray.symbolstoremanager.symbolstores",
                  writer.Ref(dict({{writer.Add(plist.Int(1)), processes}})));
    std::vector<std::pair<uint32_t, uint32_t>> images;
    for (const auto& [key, list] : cache_images) {
      images.emplace_back(writer.Add(plist.Int(static_cast<int64_t>(key))), bytes(list));
    }
    uint32_t uuid = writer.Instance(writer.Class("NSUUID"),
                                    {{"NS.uuidbytes", plist.Data(std::vector<uint8_t>(16, 0x88))}});
    if (list_cache) {
      writer.SetTop("com.apple.xray.symbolstore.sharedcache.signatures",
                    writer.Ref(dict({{uuid, dict(images)}})));
    }
    return writer.Build();
  }
};

// The problems with the image lists: the test's form.template has no run
// list, which is a problem of its own.
std::vector<std::string> ImageProblems(const FormTemplate& form) {
  std::vector<std::string> problems;
  for (const std::string& problem : form.problems) {
    if (problem.rfind("the run list", 0) != 0) problems.push_back(problem);
  }
  return problems;
}

TEST_CASE("form.template of Instruments 26: a process's images and its shared cache's") {
  Form26 form;
  form.process_list = ImageListBlob({{0x11, "/app/perftestexample", 0x100B10000}});
  AppendTrailer(form.process_list, std::vector<uint8_t>(16, 0x88), 0x180000000);
  form.cache_images = {{0x70000, ImageListBlob({{0x21, "/usr/lib/libobjc.A.dylib", 0x70000}})},
                       {0xAE000, ImageListBlob({{0x22, "/usr/lib/libdyld.dylib", 0xAE000}})},
                       {0xDA000, ImageListBlob({{0x23, "/usr/lib/liboah.dylib", 0xDA000}})}};
  form.loaded = {0x70000, 0xAE000};

  SECTION("the loaded cache images join the process's, at the cache's base") {
    std::vector<uint8_t> bytes = form.Build();
    auto read = ReadFormTemplate(ByteSpan(bytes.data(), bytes.size()), Limits{});
    REQUIRE(read.ok());
    CHECK(ImageProblems(*read).empty());
    const std::vector<ProcessImage>& images = read->runs.at(1).images.at(42);
    REQUIRE(images.size() == 3);
    CHECK(images[0].text_start == 0x100B10000);
    CHECK(images[1].path == "/usr/lib/libobjc.A.dylib");
    CHECK(images[1].text_start == 0x180070000);
    CHECK(images[2].text_start == 0x1800AE000);
  }
  SECTION("damaged cache entries cost only themselves, in one problem") {
    form.cache_images.push_back({0xF0000, {1, 2, 3, 4}});
    form.cache_images.push_back({0xF4000, {5, 6, 7, 8}});
    std::vector<uint8_t> bytes = form.Build();
    auto read = ReadFormTemplate(ByteSpan(bytes.data(), bytes.size()), Limits{});
    REQUIRE(read.ok());
    REQUIRE(ImageProblems(*read).size() == 1);
    CHECK_THAT(ImageProblems(*read)[0],
               Catch::StartsWith("the image lists of shared cache 88888888-8888-8888-8888-"
                                 "888888888888: 2 of 5 images unreadable, the first: "));
    CHECK(read->runs.at(1).images.at(42).size() == 3);
  }
  SECTION("a cache form.template does not list leaves the process its own images") {
    form.list_cache = false;
    std::vector<uint8_t> bytes = form.Build();
    auto read = ReadFormTemplate(ByteSpan(bytes.data(), bytes.size()), Limits{});
    REQUIRE(read.ok());
    REQUIRE(ImageProblems(*read).size() == 1);
    CHECK_THAT(ImageProblems(*read)[0],
               Catch::Contains("maps shared cache 88888888-") &&
                   Catch::Contains("frames in system libraries stay addresses"));
    CHECK(read->runs.at(1).images.at(42).size() == 1);
  }
  SECTION("loaded cache images the cache's lists lack are said to stay addresses") {
    form.loaded.push_back(0x200000);
    std::vector<uint8_t> bytes = form.Build();
    auto read = ReadFormTemplate(ByteSpan(bytes.data(), bytes.size()), Limits{});
    REQUIRE(read.ok());
    REQUIRE(ImageProblems(*read).size() == 1);
    CHECK_THAT(ImageProblems(*read)[0],
               Catch::EndsWith("only 2 of the 3 shared-cache images the process loaded are "
                               "listed; frames in the others stay addresses"));
    CHECK(read->runs.at(1).images.at(42).size() == 3);
  }
}

}  // namespace
}  // namespace instrumentscope::trace_bundle
