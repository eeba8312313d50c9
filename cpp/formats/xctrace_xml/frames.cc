#include "formats/xctrace_xml/frames.h"

#include <utility>

#include "base/identifiers.h"
#include "base/text.h"

namespace instrumentscope::xctrace_xml {

void FrameCells::StartFrame(const Attributes& attributes) {
  frame_.name = attributes.Decoded("name");
  frame_.address = attributes.Decoded("addr");
  frame_.binary = -1;
  frame_.source = -1;
}

Value FrameCells::EndFrame() {
  FrameDesc desc;
  desc.name = frame_.name;
  if (desc.name.empty()) {
    desc.name =
        frame_.address.empty() ? std::string_view("<unknown>") : std::string_view(frame_.address);
  }
  if (frame_.binary >= 0) desc.image = binaries_[frame_.binary].image;
  // Unsymbolicated frames are named by their address, as "0x…".
  if (auto address = ParseHexAddress(frame_.address);
      address && (frame_.name.empty() || ParseHexAddress(frame_.name))) {
    desc.address = address;
    if (frame_.binary >= 0) {
      BinaryRecord& binary = binaries_[frame_.binary];
      if (binary.id == kNoImage) binary.id = builder_.InternImage(binary.code);
      desc.image_id = binary.id;
    }
  }
  if (frame_.source >= 0) {
    const SourceRecord& source = sources_[frame_.source];
    if (source.path >= 0) desc.source_file = paths_[source.path];
    desc.line = source.line;
  }
  return MakeValue(ValueClass::kFrame, builder_.InternFrame(desc));
}

void FrameCells::StartBinary(const Attributes& attributes) {
  binary_.name = attributes.Decoded("name");
  binary_.path = attributes.Decoded("path");
  binary_.uuid = attributes.Decoded("UUID");
  binary_.load_address = attributes.Decoded("load-addr");
  binary_.arch = attributes.Decoded("arch");
}

Value FrameCells::EndBinary() {
  std::string image = binary_.path.empty() ? binary_.name : binary_.path;
  CodeImage code{image, binary_.arch, ParseUuid(binary_.uuid),
                 ParseHexAddress(binary_.load_address)};
  binaries_.push_back(BinaryRecord{std::move(image), std::move(code)});
  return MakeValue(ValueClass::kBinary, static_cast<uint32_t>(binaries_.size() - 1));
}

void FrameCells::StartSource(const Attributes& attributes) {
  std::optional<std::string_view> line = attributes.Find("line");
  source_.line = line ? ParseDecimal<uint32_t>(DecodeAttribute(*line)) : std::nullopt;
  source_.path = -1;
}

Value FrameCells::EndSource() {
  sources_.push_back(source_);
  return MakeValue(ValueClass::kSource, static_cast<uint32_t>(sources_.size() - 1));
}

Value FrameCells::AddPath(std::string_view text) {
  paths_.emplace_back(TrimWhitespace(text));
  return MakeValue(ValueClass::kPath, static_cast<uint32_t>(paths_.size() - 1));
}

void FrameCells::Clear() {
  binaries_.clear();
  sources_.clear();
  paths_.clear();
}

}  // namespace instrumentscope::xctrace_xml
