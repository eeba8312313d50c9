#include "import/options.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace instrumentscope {
namespace {

// More threads than any machine has cores is a mistake.
constexpr uint64_t kMostThreads = 1024;

// Reads options.limits.<name> into `field`: a positive integer that fits it.
class LimitReader {
 public:
  explicit LimitReader(const nlohmann::json& limits) : limits_(limits) {}

  template <typename Field>
  Status Read(const char* name, Field* field) {
    names_.push_back(name);
    if (!limits_.contains(name)) return OkStatus();
    const nlohmann::json& value = limits_[name];
    if (!value.is_number_unsigned() || value.get<uint64_t>() == 0 ||
        value.get<uint64_t>() > std::numeric_limits<Field>::max()) {
      return Status(ErrorCode::kInvalidArgument,
                    std::string("options.limits.") + name + " must be a positive integer up to " +
                        std::to_string(std::numeric_limits<Field>::max()));
    }
    *field = value.get<Field>();
    return OkStatus();
  }

  // After every Read: a key that none of them took is a mistake.
  Status CheckAllRead() const {
    for (const auto& [key, value] : limits_.items()) {
      if (std::find(names_.begin(), names_.end(), key) != names_.end()) continue;
      std::string names;
      for (const std::string& name : names_) names += (names.empty() ? "" : ", ") + name;
      return Status(ErrorCode::kInvalidArgument,
                    "options.limits." + key + " is not a limit; the limits are " + names);
    }
    return OkStatus();
  }

 private:
  const nlohmann::json& limits_;
  std::vector<std::string> names_;
};

}  // namespace

Status ReadImportOptions(std::string_view text, ImportOptions* options) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) return Status(ErrorCode::kInvalidArgument, "options are not an object");
  if (json.contains("name") && json["name"].is_string()) options->name = json["name"];
  if (json.contains("run") && !json["run"].is_null()) {
    const nlohmann::json& run = json["run"];
    if (!run.is_number_unsigned() || run.get<uint64_t>() == 0 || run.get<uint64_t>() > UINT32_MAX) {
      return Status(ErrorCode::kInvalidArgument, "options.run must be a positive integer");
    }
    options->run = run.get<uint32_t>();
  }
  if (json.contains("symbolLines") && !json["symbolLines"].is_null()) {
    const nlohmann::json& lines = json["symbolLines"];
    if (lines != "function" && lines != "line") {
      return Status(ErrorCode::kInvalidArgument,
                    "options.symbolLines must be \"function\" or \"line\"");
    }
    options->symbol_lines = lines == "line";
  }
  if (json.contains("demangle") && !json["demangle"].is_null()) {
    const nlohmann::json& demangle = json["demangle"];
    if (demangle == false) {
      options->demangle = std::nullopt;
    } else if (demangle == true || demangle == "instruments") {
      options->demangle = demangle::Style::kInstruments;
    } else if (demangle == "full") {
      options->demangle = demangle::Style::kFull;
    } else {
      return Status(ErrorCode::kInvalidArgument,
                    "options.demangle must be true, false, \"instruments\" or \"full\"");
    }
  }
  if (json.contains("intervals") && !json["intervals"].is_null()) {
    if (!json["intervals"].is_boolean()) {
      return Status(ErrorCode::kInvalidArgument, "options.intervals must be true or false");
    }
    options->intervals = json["intervals"].get<bool>();
  }
  if (json.contains("threads") && !json["threads"].is_null()) {
    const nlohmann::json& threads = json["threads"];
    if (threads == false) {
      options->threads = 1;
    } else if (threads == true) {
      options->threads = 0;
    } else if (threads.is_number_unsigned() && threads.get<uint64_t>() > 0 &&
               threads.get<uint64_t>() <= kMostThreads) {
      options->threads = threads.get<uint32_t>();
    } else {
      return Status(ErrorCode::kInvalidArgument,
                    "options.threads must be true, false or a number of threads from 1 to " +
                        std::to_string(kMostThreads));
    }
  }
  if (!json.contains("limits") || json["limits"].is_null()) return OkStatus();
  const nlohmann::json& limits = json["limits"];
  if (!limits.is_object()) {
    return Status(ErrorCode::kInvalidArgument, "options.limits must be an object");
  }
  Limits& to = options->limits;
  LimitReader reader(limits);
  RETURN_IF_ERROR(reader.Read("maxDecompressedBytes", &to.max_decompressed_bytes));
  RETURN_IF_ERROR(reader.Read("maxMemberBytes", &to.max_member_bytes));
  RETURN_IF_ERROR(reader.Read("maxZipNesting", &to.max_zip_nesting));
  RETURN_IF_ERROR(reader.Read("maxZipEntries", &to.max_zip_entries));
  RETURN_IF_ERROR(reader.Read("maxPlistObjects", &to.max_plist_objects));
  RETURN_IF_ERROR(reader.Read("maxPlistDepth", &to.max_plist_depth));
  RETURN_IF_ERROR(reader.Read("maxXmlDepth", &to.max_xml_depth));
  RETURN_IF_ERROR(reader.Read("maxXmlElements", &to.max_xml_elements));
  RETURN_IF_ERROR(reader.Read("maxXmlIds", &to.max_xml_ids));
  RETURN_IF_ERROR(reader.Read("maxXmlTextBytes", &to.max_xml_text_bytes));
  RETURN_IF_ERROR(reader.Read("maxTextLineBytes", &to.max_text_line_bytes));
  RETURN_IF_ERROR(reader.Read("maxFramesPerStack", &to.max_frames_per_stack));
  RETURN_IF_ERROR(reader.Read("maxSamples", &to.max_samples));
  RETURN_IF_ERROR(reader.Read("maxStackNodes", &to.max_stack_nodes));
  return reader.CheckAllRead();
}

}  // namespace instrumentscope
