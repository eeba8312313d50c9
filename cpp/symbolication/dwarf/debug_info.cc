#include "symbolication/dwarf/debug_info.h"

#include <utility>

#include "symbolication/dwarf/lookup.h"
#include "symbolication/dwarf/sections.h"

namespace instrumentscope::dwarf {

DebugInfo::DebugInfo(std::unique_ptr<AddressLookup> lookup) : lookup_(std::move(lookup)) {}
DebugInfo::DebugInfo(DebugInfo&&) noexcept = default;
DebugInfo& DebugInfo::operator=(DebugInfo&&) noexcept = default;
DebugInfo::~DebugInfo() = default;

Result<DebugInfo> DebugInfo::Read(const macho::Image& image) {
  Sections sections;
  ASSIGN_OR_RETURN(sections, FindSections(image));
  bool has_debug_info = sections.debug_info.present;
  if (has_debug_info && !sections.debug_abbrev.present) {
    return Status(ErrorCode::kMachOCorrupt, "__debug_info without __debug_abbrev")
        .WithOffset(sections.debug_info.file_offset);
  }
  auto lookup = std::make_unique<AddressLookup>(std::move(sections));
  if (has_debug_info) RETURN_IF_ERROR(lookup->ReadUnits());
  return DebugInfo(std::move(lookup));
}

bool DebugInfo::has_units() const {
  return lookup_->has_units();
}

Result<std::vector<SourceFrame>> DebugInfo::Lookup(uint64_t address) {
  return lookup_->Lookup(address);
}

}  // namespace instrumentscope::dwarf
