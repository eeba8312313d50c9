// The stacks in rows, interned in the ProfileBuilder as they end, leaf first:
// a <backtrace> of <frame>s (from FrameCells), or of <text-addresses> with
// only the leaf named (by the backtrace's fmt); a <tagged-backtrace> (the
// <backtrace> inside it); a <kperf-bt> (its <text-addresses>, led by its
// <text-address> program counter). Address lists are kept for one <node>, as
// the ids that point at them are.
//
// Not read: a <tagged-backtrace>'s tag, a <kperf-bt>'s fmt and <process>.
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_STACKS_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_STACKS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/xctrace_xml/elements.h"
#include "model/profile_builder.h"

namespace instrumentscope::xctrace_xml {

class StackCells {
 public:
  StackCells(ProfileBuilder& builder, uint32_t max_frames_per_stack, FirstError& error)
      : builder_(builder), max_frames_per_stack_(max_frames_per_stack), error_(error) {}

  void StartBacktrace(const Attributes& attributes);
  void AddBacktraceFrame(FrameId frame);
  void AddBacktraceAddresses(uint32_t addresses);
  Value EndBacktrace();

  void StartTagged() { tagged_stack_ = kEmptyStack; }
  void SetTaggedStack(StackId stack) { tagged_stack_ = stack; }
  Value EndTagged() const { return MakeValue(ValueClass::kStack, tagged_stack_); }

  void StartKperf();
  void AddKperfAddresses(uint32_t addresses);
  void SetKperfPc(uint64_t pc) { kperf_.pc = pc; }
  Value EndKperf();

  // A <text-addresses>: decimal addresses, kept for the stacks that name it.
  Value ParseAddresses(std::string_view text);

  // At the end of a <node>.
  void Clear();

 private:
  struct AddressFragment {
    size_t offset;
    size_t count;
  };

  void AppendAddresses(uint32_t addresses, std::vector<uint64_t>* to);
  // Sets the error when a stack grows past the limit.
  void CheckLength(size_t frames);
  Value AddressesToStack(const std::vector<uint64_t>& addresses, std::string_view leaf_name);

  ProfileBuilder& builder_;
  const uint32_t max_frames_per_stack_;
  FirstError& error_;
  struct {
    std::string fmt;
    std::vector<FrameId> frames;
    std::vector<uint64_t> addresses;
  } backtrace_;
  StackId tagged_stack_ = kEmptyStack;
  struct {
    std::vector<uint64_t> addresses;
    std::optional<uint64_t> pc;
  } kperf_;
  std::vector<uint64_t> address_pool_;
  std::vector<AddressFragment> fragments_;
  std::vector<FrameId> frame_scratch_;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_STACKS_H_
