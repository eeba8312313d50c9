// The <frame>s of backtraces, with their <binary>, <source> and <path>,
// interned in the ProfileBuilder as they end. A frame named by its address
// ("0x…", or no name at all) keeps that address and its binary's image for
// symbolication. Records last for one <node>, as the ids that point at them do.
//
// Not read: any other attribute or child of these elements.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_FRAMES_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_FRAMES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/xctrace_xml/elements.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class FrameCells {
 public:
  explicit FrameCells(ProfileBuilder& builder) : builder_(builder) {}

  void StartFrame(const Attributes& attributes);
  void SetFrameBinary(uint32_t binary) { frame_.binary = binary; }
  void SetFrameSource(uint32_t source) { frame_.source = source; }
  Value EndFrame();

  void StartBinary(const Attributes& attributes);
  Value EndBinary();

  void StartSource(const Attributes& attributes);
  void SetSourcePath(uint32_t path) { source_.path = path; }
  Value EndSource();

  Value AddPath(std::string_view text);

  // At the end of a <node>.
  void Clear();

 private:
  struct BinaryRecord {
    std::string image;  // the binary's path, else its name
    CodeImage code;
    ImageId id = kNoImage;  // interned once an unnamed frame lies in it
  };
  struct SourceRecord {
    std::optional<uint32_t> line;
    int64_t path = -1;
  };

  ProfileBuilder& builder_;
  struct {
    std::string name;
    std::string address;
    int64_t binary = -1;
    int64_t source = -1;
  } frame_;
  struct {
    std::string name;
    std::string path;
    std::string uuid;
    std::string load_address;
    std::string arch;
  } binary_;
  SourceRecord source_;
  std::vector<BinaryRecord> binaries_;
  std::vector<SourceRecord> sources_;
  std::vector<std::string> paths_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_FRAMES_H_
