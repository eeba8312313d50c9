#include "formats/xctrace_xml/stacks.h"

#include "base/identifiers.h"
#include "base/text.h"
#include "formats/xctrace_xml/labels.h"

namespace instrumentscope::xctrace_xml {

void StackCells::StartBacktrace(const Attributes& attributes) {
  backtrace_.fmt = attributes.Decoded("fmt");
  backtrace_.frames.clear();
  backtrace_.addresses.clear();
}

void StackCells::AddBacktraceFrame(FrameId frame) {
  backtrace_.frames.push_back(frame);
  CheckLength(backtrace_.frames.size());
}

void StackCells::AddBacktraceAddresses(uint32_t addresses) {
  AppendAddresses(addresses, &backtrace_.addresses);
}

Value StackCells::EndBacktrace() {
  if (!backtrace_.frames.empty()) {
    return MakeValue(ValueClass::kStack, builder_.InternFrames(kEmptyStack, backtrace_.frames));
  }
  // Xcode 14.0 and older: addresses only, with the leaf's symbol in the fmt.
  return AddressesToStack(backtrace_.addresses, BacktraceLeafName(backtrace_.fmt));
}

void StackCells::StartKperf() {
  kperf_.addresses.clear();
  kperf_.pc.reset();
}

void StackCells::AddKperfAddresses(uint32_t addresses) {
  AppendAddresses(addresses, &kperf_.addresses);
}

Value StackCells::EndKperf() {
  // The program counter leads, unless the address list already starts with it.
  if (kperf_.pc && (kperf_.addresses.empty() || kperf_.addresses.front() != *kperf_.pc)) {
    kperf_.addresses.insert(kperf_.addresses.begin(), *kperf_.pc);
  }
  return AddressesToStack(kperf_.addresses, {});
}

Value StackCells::ParseAddresses(std::string_view text) {
  AddressFragment fragment{address_pool_.size(), 0};
  while (true) {
    text = TrimWhitespace(text);
    if (text.empty()) break;
    size_t end = text.find_first_of(" \t\n\r");
    std::string_view token = text.substr(0, end);
    auto address = ParseDecimal<uint64_t>(token);
    if (!address) {
      error_.Set(Status(ErrorCode::kXmlBadValue, "<text-addresses> holds \"" + std::string(token) +
                                                     "\", not a decimal address"));
      return Value{};
    }
    address_pool_.push_back(*address);
    ++fragment.count;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end);
  }
  fragments_.push_back(fragment);
  return MakeValue(ValueClass::kAddresses, static_cast<uint32_t>(fragments_.size() - 1));
}

void StackCells::Clear() {
  address_pool_.clear();
  fragments_.clear();
}

void StackCells::AppendAddresses(uint32_t addresses, std::vector<uint64_t>* to) {
  const AddressFragment& fragment = fragments_[addresses];
  auto begin = address_pool_.begin() + static_cast<ptrdiff_t>(fragment.offset);
  to->insert(to->end(), begin, begin + static_cast<ptrdiff_t>(fragment.count));
  CheckLength(to->size());
}

void StackCells::CheckLength(size_t frames) {
  if (frames <= max_frames_per_stack_) return;
  error_.Set(Status(ErrorCode::kLimitExceeded, "a backtrace has more than " +
                                                   std::to_string(max_frames_per_stack_) +
                                                   " frames (limits.maxFramesPerStack)"));
}

Value StackCells::AddressesToStack(const std::vector<uint64_t>& addresses,
                                   std::string_view leaf_name) {
  frame_scratch_.clear();
  for (uint64_t address : addresses) {
    if (address == 0) continue;  // a zero ends the list; it is no code address
    std::string name =
        frame_scratch_.empty() && !leaf_name.empty() ? std::string(leaf_name) : HexAddress(address);
    FrameDesc desc;
    desc.name = name;
    if (ParseHexAddress(name)) desc.address = address;  // not the fmt's leaf symbol
    frame_scratch_.push_back(builder_.InternFrame(desc));
  }
  return MakeValue(ValueClass::kStack, builder_.InternFrames(kEmptyStack, frame_scratch_));
}

}  // namespace instrumentscope::xctrace_xml
