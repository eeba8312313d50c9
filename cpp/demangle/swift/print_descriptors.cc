// Symbols that name something about another entity or type: metadata, descriptors, witness
// tables, witnesses, outlined value operations, one-time initializers.
#include <array>

#include "demangle/swift/payloads.h"
#include "demangle/swift/printer.h"

namespace instrumentscope::demangle::swift {
namespace {

struct DescriptorEntry {
  NodeKind kind;
  std::string_view text;
};

// Kinds spelled as a text followed by their first child.
constexpr DescriptorEntry kDescriptors[] = {
    {NodeKind::kMethodLookupFunction, "method lookup function for "},
    {NodeKind::kObjCMetadataUpdateFunction, "ObjC metadata update function for "},
    {NodeKind::kObjCResilientClassStub, "ObjC resilient class stub for "},
    {NodeKind::kFullObjCResilientClassStub, "full ObjC resilient class stub for "},
    {NodeKind::kOutlinedRetain, "outlined retain of "},
    {NodeKind::kOutlinedRelease, "outlined release of "},
    {NodeKind::kOutlinedInitializeWithTake, "outlined init with take of "},
    {NodeKind::kOutlinedInitializeWithTakeNoValueWitness, "outlined init with take of "},
    {NodeKind::kOutlinedInitializeWithCopy, "outlined init with copy of "},
    {NodeKind::kOutlinedInitializeWithCopyNoValueWitness, "outlined init with copy of "},
    {NodeKind::kOutlinedAssignWithTake, "outlined assign with take of "},
    {NodeKind::kOutlinedAssignWithTakeNoValueWitness, "outlined assign with take of "},
    {NodeKind::kOutlinedAssignWithCopy, "outlined assign with copy of "},
    {NodeKind::kOutlinedAssignWithCopyNoValueWitness, "outlined assign with copy of "},
    {NodeKind::kOutlinedDestroy, "outlined destroy of "},
    {NodeKind::kOutlinedDestroyNoValueWitness, "outlined destroy of "},
    {NodeKind::kOutlinedEnumProjectDataForLoad, "outlined enum project data for load of "},
    {NodeKind::kOutlinedEnumTagStore, "outlined enum tag store of "},
    {NodeKind::kOutlinedEnumGetTag, "outlined enum get tag of "},
    {NodeKind::kProtocolSelfConformanceWitnessTable,
     "protocol self-conformance witness table for "},
    {NodeKind::kProtocolWitnessTableAccessor, "protocol witness table accessor for "},
    {NodeKind::kProtocolWitnessTable, "protocol witness table for "},
    {NodeKind::kProtocolWitnessTablePattern, "protocol witness table pattern for "},
    {NodeKind::kGenericProtocolWitnessTable, "generic protocol witness table for "},
    {NodeKind::kGenericProtocolWitnessTableInstantiationFunction,
     "instantiation function for generic protocol witness table for "},
    {NodeKind::kResilientProtocolWitnessTable, "resilient protocol witness table for "},
    {NodeKind::kProtocolSelfConformanceWitness, "protocol self-conformance witness for "},
    {NodeKind::kEnumCase, "enum case for "},
    {NodeKind::kGenericTypeMetadataPattern, "generic type metadata pattern for "},
    {NodeKind::kMetaclass, "metaclass for "},
    {NodeKind::kProtocolSelfConformanceDescriptor, "protocol self-conformance descriptor for "},
    {NodeKind::kProtocolConformanceDescriptor, "protocol conformance descriptor for "},
    {NodeKind::kProtocolConformanceDescriptorRecord,
     "protocol conformance descriptor runtime record for "},
    {NodeKind::kProtocolDescriptor, "protocol descriptor for "},
    {NodeKind::kProtocolDescriptorRecord, "protocol descriptor runtime record for "},
    {NodeKind::kProtocolRequirementsBaseDescriptor, "protocol requirements base descriptor for "},
    {NodeKind::kFullTypeMetadata, "full type metadata for "},
    {NodeKind::kTypeMetadata, "type metadata for "},
    {NodeKind::kTypeMetadataAccessFunction, "type metadata accessor for "},
    {NodeKind::kTypeMetadataInstantiationCache, "type metadata instantiation cache for "},
    {NodeKind::kTypeMetadataInstantiationFunction, "type metadata instantiation function for "},
    {NodeKind::kTypeMetadataSingletonInitializationCache,
     "type metadata singleton initialization cache for "},
    {NodeKind::kTypeMetadataCompletionFunction, "type metadata completion function for "},
    {NodeKind::kTypeMetadataDemanglingCache, "demangling cache variable for type metadata for "},
    {NodeKind::kTypeMetadataLazyCache, "lazy cache variable for type metadata for "},
    {NodeKind::kAssociatedTypeDescriptor, "associated type descriptor for "},
    {NodeKind::kDefaultAssociatedTypeMetadataAccessor,
     "default associated type metadata accessor for "},
    {NodeKind::kClassMetadataBaseOffset, "class metadata base offset for "},
    {NodeKind::kPropertyDescriptor, "property descriptor for "},
    {NodeKind::kNominalTypeDescriptor, "nominal type descriptor for "},
    {NodeKind::kNominalTypeDescriptorRecord, "nominal type descriptor runtime record for "},
    {NodeKind::kOpaqueTypeDescriptor, "opaque type descriptor for "},
    {NodeKind::kOpaqueTypeDescriptorRecord, "opaque type descriptor runtime record for "},
    {NodeKind::kOpaqueTypeDescriptorAccessor, "opaque type descriptor accessor for "},
    {NodeKind::kOpaqueTypeDescriptorAccessorImpl, "opaque type descriptor accessor impl for "},
    {NodeKind::kOpaqueTypeDescriptorAccessorKey, "opaque type descriptor accessor key for "},
    {NodeKind::kOpaqueTypeDescriptorAccessorVar, "opaque type descriptor accessor var for "},
    {NodeKind::kCoroutineContinuationPrototype, "coroutine continuation prototype for "},
    {NodeKind::kValueWitnessTable, "value witness table for "},
    {NodeKind::kReflectionMetadataBuiltinDescriptor, "reflection metadata builtin descriptor "},
    {NodeKind::kReflectionMetadataFieldDescriptor, "reflection metadata field descriptor "},
    {NodeKind::kReflectionMetadataAssocTypeDescriptor,
     "reflection metadata associated type descriptor "},
    {NodeKind::kReflectionMetadataSuperclassDescriptor,
     "reflection metadata superclass descriptor "},
    {NodeKind::kModuleDescriptor, "module descriptor "},
    {NodeKind::kAnonymousDescriptor, "anonymous descriptor "},
    {NodeKind::kExtensionDescriptor, "extension descriptor "},
    {NodeKind::kCanonicalSpecializedGenericMetaclass, "specialized generic metaclass for "},
    {NodeKind::kCanonicalSpecializedGenericTypeMetadataAccessFunction,
     "canonical specialized generic type metadata accessor for "},
    {NodeKind::kMetadataInstantiationCache, "metadata instantiation cache for "},
    {NodeKind::kNoncanonicalSpecializedGenericTypeMetadata,
     "noncanonical specialized generic type metadata for "},
    {NodeKind::kNoncanonicalSpecializedGenericTypeMetadataCache,
     "cache variable for noncanonical specialized generic type metadata for "},
    {NodeKind::kCanonicalPrespecializedGenericTypeCachingOnceToken,
     "flag for loading of canonical specialized generic type metadata for "},
};

constexpr std::array<std::string_view, kNodeKindCount> BuildDescriptors() {
  std::array<std::string_view, kNodeKindCount> table{};
  for (const DescriptorEntry& entry : kDescriptors)
    table[static_cast<size_t>(entry.kind)] = entry.text;
  return table;
}

constexpr std::array<std::string_view, kNodeKindCount> kDescriptorText = BuildDescriptors();

// Kinds spelled "<text>child0<middle>child1" (or "..child1<middle>child2" with `skip_first`).
struct PairEntry {
  NodeKind kind;
  std::string_view text;
  size_t first;
  std::string_view middle;
  size_t second;
};

constexpr PairEntry kPairs[] = {
    {NodeKind::kVTableThunk, "vtable thunk for ", 1, " dispatching to ", 0},
    {NodeKind::kProtocolWitness, "protocol witness for ", 1, " in conformance ", 0},
    {NodeKind::kCOMMethodWitness, "COM method witness for ", 1, " in conformance ", 0},
    {NodeKind::kLazyProtocolWitnessTableAccessor, "lazy protocol witness table accessor for type ",
     0, " and conformance ", 1},
    {NodeKind::kLazyProtocolWitnessTableCacheVariable,
     "lazy protocol witness table cache variable for type ", 0, " and conformance ", 1},
    {NodeKind::kAssociatedTypeMetadataAccessor, "associated type metadata accessor for ", 1, " in ",
     0},
    {NodeKind::kBaseConformanceDescriptor, "base conformance descriptor for ", 0, ": ", 1},
    {NodeKind::kBaseWitnessTableAccessor, "base witness table accessor for ", 1, " in ", 0},
};

}  // namespace

bool Printer::PrintDescriptorKind(const Node* node) {
  std::string_view text = kDescriptorText[static_cast<size_t>(node->kind())];
  if (!text.empty()) {
    out_ += text;
    Print(node->child(0));
    return true;
  }
  for (const PairEntry& pair : kPairs) {
    if (pair.kind != node->kind()) continue;
    out_ += pair.text;
    Print(node->child(pair.first));
    out_ += pair.middle;
    Print(node->child(pair.second));
    return true;
  }
  return false;
}

// One case per node kind: the table reads best in one place.
bool Printer::PrintWitnessKind(const Node* node) {
  switch (node->kind()) {
    case NodeKind::kValueWitness: {
      std::string_view name = ValueWitnessName(ChildOf(node, 0) ? node->child(0)->index() : ~0u);
      if (name.empty()) return Fail(), true;
      out_ += name;
      out_ += options_.shorten_value_witness ? " for " : " value witness for ";
      Print(node->child(1));
      return true;
    }
    case NodeKind::kFieldOffset:
      Print(node->child(0));
      out_ += "field offset for ";
      Print(node->child(1));
      return true;
    case NodeKind::kDirectness: out_ += node->index() == 0 ? "direct " : "indirect "; return true;
    case NodeKind::kAssociatedConformanceDescriptor:
    case NodeKind::kDefaultAssociatedConformanceAccessor:
      out_ += node->kind() == NodeKind::kAssociatedConformanceDescriptor
                  ? "associated conformance descriptor for "
                  : "default associated conformance accessor for ";
      Print(node->child(0));
      out_ += '.';
      Print(node->child(1));
      out_ += ": ";
      Print(node->child(2));
      return true;
    case NodeKind::kAssociatedTypeWitnessTableAccessor:
      out_ += "associated type witness table accessor for ";
      Print(node->child(1));
      out_ += " : ";
      Print(node->child(2));
      out_ += " in ";
      Print(node->child(0));
      return true;
    case NodeKind::kAssociatedTypeGenericParamRef:
      out_ += "generic parameter reference for associated type ";
      PrintChildren(node);
      return true;
    case NodeKind::kOutlinedCopy:
    case NodeKind::kOutlinedConsume:
      out_ +=
          node->kind() == NodeKind::kOutlinedCopy ? "outlined copy of " : "outlined consume of ";
      Print(node->child(0));
      if (node->num_children() > 1) Print(node->child(1));
      return true;
    case NodeKind::kGlobalVariableOnceToken:
    case NodeKind::kGlobalVariableOnceFunction:
      // The context is not printed, as the reference prints.
      out_ += node->kind() == NodeKind::kGlobalVariableOnceToken
                  ? "one-time initialization token for "
                  : "one-time initialization function for ";
      Print(node->child(1));
      return true;
    case NodeKind::kGlobalVariableOnceDeclList:
      if (node->num_children() == 1) {
        Print(node->child(0));
      } else {
        out_ += '(';
        PrintChildren(node, ", ");
        out_ += ')';
      }
      return true;
    case NodeKind::kObjCAsyncCompletionHandlerImpl:
    case NodeKind::kCheckedObjCAsyncCompletionHandlerImpl: {
      if (node->kind() == NodeKind::kCheckedObjCAsyncCompletionHandlerImpl) out_ += "checked ";
      out_ += "@objc completion handler block implementation for ";
      if (node->num_children() >= 4) Print(node->child(3));
      Print(node->child(0));
      out_ += " with result type ";
      Print(node->child(1));
      uint64_t flag = ChildOf(node, 2) ? node->child(2)->index() : 0;
      out_ += flag == 0   ? ""
              : flag == 1 ? " nonzero on error"
              : flag == 2 ? " zero on error"
                          : " <invalid error flag>";
      return true;
    }
    default: return false;
  }
}

}  // namespace instrumentscope::demangle::swift
