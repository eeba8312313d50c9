#include "formats/deep_copy/deep_copy_importer.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/checked_math.h"
#include "base/identifiers.h"
#include "base/text.h"
#include "formats/deep_copy/weight.h"
#include "formats/names.h"
#include "model/profile_builder.h"

namespace instrumentscope::deep_copy {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    cells.push_back(line.substr(start, tab == std::string_view::npos ? tab : tab - start));
    if (tab == std::string_view::npos) return cells;
    start = tab + 1;
  }
}

// Which cells of a row hold what, from the header line:
//   "Running Time\tSelf (ms)\t\tSymbol Name"    7.x Time Profiler
//   "Bytes Used\tCount\t\tSymbol Name"          7.x Allocations (no self column)
//   "Weight\tSelf Weight\t\tSymbol Name"        13.x
//   "Weight\tSelf Weight\tSymbol Names"         16.x
struct Header {
  size_t total_column = 0;
  std::optional<size_t> self_column;
  size_t symbol_column = 0;
  // Copies: the header line is gone when the rows are read.
  std::optional<std::string> total_unit;
  std::optional<std::string> self_unit;
};

std::optional<Header> ReadHeader(std::string_view line) {
  std::vector<std::string_view> cells = SplitTabs(line);
  Header header;
  bool has_symbol = false;
  for (size_t i = 1; i < cells.size() && !has_symbol; ++i) {
    std::string_view cell = TrimWhitespace(cells[i]);
    if (cell == "Symbol Name" || cell == "Symbol Names") {
      header.symbol_column = i;
      has_symbol = true;
    } else if (StartsWith(cell, "Self") && !header.self_column) {
      header.self_column = i;
      if (auto unit = HeaderUnit(cell)) header.self_unit = std::string(*unit);
    }
  }
  if (!has_symbol || TrimWhitespace(cells[0]).empty()) return std::nullopt;
  if (auto unit = HeaderUnit(TrimWhitespace(cells[0]))) header.total_unit = std::string(*unit);
  return header;
}

std::string_view FirstLine(std::string_view text) {
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
    text.remove_prefix(kByteOrderMark.size());
  }
  text = text.substr(0, text.find('\n'));
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

// All of `text` as an unsigned number in `base` (no sign, no prefix).
std::optional<uint64_t> WholeNumber(std::string_view text, int base) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "example_app (40414)": a process row, which Instruments puts at the top of
// a call tree when it separates by process.
struct ProcessRow {
  std::string_view name;
  int64_t pid;
};

std::optional<ProcessRow> ReadProcessRow(std::string_view text) {
  if (text.size() < 4 || text.back() != ')') return std::nullopt;
  size_t open = text.rfind('(');
  if (open == std::string_view::npos || open == 0 || text[open - 1] != ' ') return std::nullopt;
  std::string_view digits = text.substr(open + 1, text.size() - open - 2);
  if (digits.size() > 10) return std::nullopt;
  auto pid = WholeNumber(digits, 10);
  if (!pid) return std::nullopt;
  return ProcessRow{TrimWhitespace(text.substr(0, open)), static_cast<int64_t>(*pid)};
}

// "Main Thread  0x3c1feee", "Thread (0x13e4cf3)": a thread row, at the top of
// a call tree separated by thread, or under its process row.
struct ThreadRow {
  std::string label;  // as the other importers name threads: "Main Thread 0x3c1feee"
  uint64_t tid;
};

std::optional<ThreadRow> ReadThreadRow(std::string_view text) {
  std::string_view id = text;
  if (!id.empty() && id.back() == ')') {
    size_t open = id.rfind('(');
    if (open == std::string_view::npos) return std::nullopt;
    id = id.substr(open + 1, id.size() - open - 2);
  }
  size_t space = id.find_last_of(" (");
  id = id.substr(space == std::string_view::npos ? 0 : space + 1);
  if (id.substr(0, 2) != "0x") return std::nullopt;
  auto tid = WholeNumber(id.substr(2), 16);
  if (!tid) return std::nullopt;
  // A bare address is an unsymbolicated frame, not a thread.
  std::string_view name =
      TrimWhitespace(text.substr(0, static_cast<size_t>(id.data() - text.data())));
  if (!name.empty() && name.back() == '(') name = TrimWhitespace(name.substr(0, name.size() - 1));
  if (name.empty()) return std::nullopt;
  return ThreadRow{ThreadLabel(name, *tid), *tid};
}

class DeepCopyImporter final : public StreamImporter {
 public:
  DeepCopyImporter(ProfileBuilder& builder, const ImportOptions& options)
      : builder_(builder), limits_(options.limits) {}

  Status Feed(ByteSpan bytes) override {
    std::string_view text = bytes.as_chars();
    while (!text.empty()) {
      size_t newline = text.find('\n');
      std::string_view piece = text.substr(0, newline);
      if (pending_.size() + piece.size() > limits_.max_text_line_bytes) {
        return Status(ErrorCode::kLimitExceeded, "a line longer than " +
                                                     std::to_string(limits_.max_text_line_bytes) +
                                                     " bytes (limits.maxTextLineBytes)")
            .WithLine(line_number_ + 1)
            .WithOffset(line_offset_);
      }
      if (newline == std::string_view::npos) {
        pending_.append(piece);
        return OkStatus();
      }
      text.remove_prefix(newline + 1);
      if (pending_.empty()) {
        RETURN_IF_ERROR(EndLine(piece));
      } else {
        pending_.append(piece);
        std::string line = std::move(pending_);
        pending_.clear();
        RETURN_IF_ERROR(EndLine(line));
      }
    }
    return OkStatus();
  }

  Status Finish() override {
    if (!pending_.empty()) {
      std::string line = std::move(pending_);
      pending_.clear();
      RETURN_IF_ERROR(EndLine(line));
    }
    while (!open_.empty()) RETURN_IF_ERROR(CloseRow());
    if (rows_ == 0) {
      return Status(ErrorCode::kDeepCopyNoSamples,
                    "the Deep Copy has a header line but no rows; select the call tree's rows in "
                    "Instruments before Edit > Deep Copy");
    }
    if (builder_.total_samples() == 0) {
      return Status(ErrorCode::kDeepCopyNoSamples,
                    "none of the Deep Copy's " + std::to_string(rows_) +
                        " rows is a call with weight; expand the process and thread rows in "
                        "Instruments before Edit > Deep Copy");
    }
    if (hidden_rows_ > 0) {
      builder_.AddWarning(
          WarningCode::kDeepCopyHiddenWeight,
          std::to_string(hidden_rows_) +
              " row(s) weigh more than their self weight and the rows below them together, "
              "beyond what rounding explains (the first, line " +
              std::to_string(first_hidden_line_) + ", by " + first_hidden_amount_ +
              "): the copy left out rows below them, such as those of collapsed calls. That "
              "weight is counted as the row's own.");
    }
    // The first rows may have been zeros of no unit ("-"): the unit is the one
    // the copy's weights turned out to have.
    builder_.SetTimelineUnit(Timeline(), UnitOf(dimension_.value_or(Dimension::kCount)));
    builder_.AddTable(TableSummary{1, std::string(kTable), rows_, true});
    return OkStatus();
  }

 private:
  static constexpr std::string_view kTable = "Deep Copy";

  // A row whose rows below are still being read.
  struct OpenRow {
    enum class Kind : uint8_t { kProcess, kThread, kCall } kind;
    ProfileBuilder::ThreadId thread;
    StackId stack;     // kEmptyStack for process and thread rows
    std::string name;  // a process row's without its pid
    int64_t pid = -1;  // a process row's
    Weight total;
    std::optional<Weight> self;
    int64_t below = 0;            // the total weight of the rows directly below
    double below_rounding = 0.0;  // and how much their rounding may hide
    uint64_t line = 0;
  };

  // A row's total weight, and its self weight when the copy has that column.
  struct RowWeights {
    Weight total;
    std::optional<Weight> self;
  };

  Status EndLine(std::string_view line) {
    ++line_number_;
    uint64_t offset = line_offset_;
    line_offset_ += line.size() + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Status status = ReadLine(line);
    if (!status.ok()) status.WithLine(line_number_).WithOffset(offset);
    return status;
  }

  Status ReadLine(std::string_view line) {
    if (!header_) {
      if (line.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
        line.remove_prefix(kByteOrderMark.size());
      }
      header_ = ReadHeader(line);
      if (!header_) {
        return Status(ErrorCode::kDeepCopyBadRow,
                      "the first line is no Deep Copy header (tab-separated columns ending in "
                      "\"Symbol Name\")");
      }
      return OkStatus();
    }
    if (TrimWhitespace(line).empty()) return OkStatus();
    return ReadRow(line);
  }

  Status ReadRow(std::string_view line) {
    std::vector<std::string_view> cells = SplitTabs(line);
    if (cells.size() <= header_->symbol_column) {
      return Status(ErrorCode::kDeepCopyBadRow, "the row has " + std::to_string(cells.size()) +
                                                    " tab-separated cells; the header has " +
                                                    std::to_string(header_->symbol_column + 1));
    }
    std::string_view symbol = cells[header_->symbol_column];
    size_t indent = symbol.find_first_not_of(' ');
    std::string_view name = TrimWhitespace(symbol);
    if (name.empty()) return Status(ErrorCode::kDeepCopyBadRow, "the row has no symbol name");

    auto weights = ReadWeights(cells);
    RETURN_IF_ERROR(weights.status());
    RETURN_IF_ERROR(CloseRowsNotAbove(indent));
    ++rows_;
    return PushRow(name, *weights);
  }

  Result<RowWeights> ReadWeights(const std::vector<std::string_view>& cells) {
    auto total = ParseWeight(cells[header_->total_column], header_->total_unit);
    RETURN_IF_ERROR(total.status());
    RETURN_IF_ERROR(CheckDimension(*total));
    RowWeights weights{*total, std::nullopt};
    if (header_->self_column) {  // before the symbol column, so in the row
      auto self = ParseWeight(cells[*header_->self_column], header_->self_unit);
      RETURN_IF_ERROR(self.status());
      RETURN_IF_ERROR(CheckDimension(*self));
      weights.self = *self;
    }
    return weights;
  }

  // Closes the open rows that a row indented by `indent` is not below: those
  // as deep as it or deeper.
  Status CloseRowsNotAbove(size_t indent) {
    // Depth is the indentation beyond the first row's (16.x indents every row).
    if (!base_indent_) base_indent_ = indent;
    if (indent < *base_indent_) {
      return Status(ErrorCode::kDeepCopyBadRow, "the row is indented by " + std::to_string(indent) +
                                                    " spaces, less than the first row's " +
                                                    std::to_string(*base_indent_));
    }
    size_t depth = indent - *base_indent_;
    if (depth > open_.size()) {
      return Status(ErrorCode::kDeepCopyBadRow,
                    "the row is indented " + std::to_string(depth + 1 - open_.size()) +
                        " levels below the row above it; a call is one level below its caller");
    }
    while (open_.size() > depth) RETURN_IF_ERROR(CloseRow());
    if (depth > limits_.max_frames_per_stack) {
      return Status(ErrorCode::kLimitExceeded,
                    "a call " + std::to_string(depth) + " levels deep (limits.maxFramesPerStack)");
    }
    return OkStatus();
  }

  // Opens the row under the innermost open row, adding its total to that row's weight below.
  Status PushRow(std::string_view name, const RowWeights& weights) {
    OpenRow* parent = open_.empty() ? nullptr : &open_.back();
    if (parent) {
      auto below = CheckedAdd(parent->below, weights.total.value);
      if (!below) return Status(ErrorCode::kDeepCopyBadRow, "the weights add up past 2^63");
      parent->below = *below;
      parent->below_rounding += weights.total.rounding;
    }
    OpenRow row = NewRow(name, parent);
    row.total = weights.total;
    row.self = weights.self;
    row.line = line_number_;
    open_.push_back(std::move(row));
    return OkStatus();
  }

  // A process, thread or call row, by its name and the row it is under.
  OpenRow NewRow(std::string_view name, const OpenRow* parent) {
    OpenRow row;
    row.name = std::string(name);
    bool under_call = parent && parent->kind == OpenRow::Kind::kCall;
    std::optional<ProcessRow> process = under_call || parent ? std::nullopt : ReadProcessRow(name);
    std::optional<ThreadRow> thread;
    if (!under_call && !process && (!parent || parent->kind == OpenRow::Kind::kProcess)) {
      thread = ReadThreadRow(name);
    }
    if (process) {
      row.kind = OpenRow::Kind::kProcess;
      row.name = std::string(process->name);
      row.pid = process->pid;
      row.thread = builder_.InternThread(Timeline(), ThreadDesc{"", 0, row.name, row.pid});
      row.stack = kEmptyStack;
    } else if (thread) {
      ThreadDesc desc{thread->label, thread->tid, "", -1};
      if (parent) desc = ThreadDesc{thread->label, thread->tid, parent->name, parent->pid};
      row.kind = OpenRow::Kind::kThread;
      row.thread = builder_.InternThread(Timeline(), desc);
      row.stack = kEmptyStack;
    } else {
      row.kind = OpenRow::Kind::kCall;
      row.thread = parent ? parent->thread : builder_.InternThread(Timeline(), ThreadDesc{});
      // A row Instruments could not name shows its address: an unnamed frame.
      FrameId frame = builder_.InternFrame(
          FrameDesc{name, {}, {}, std::nullopt, ParseHexAddress(name), kNoImage});
      row.stack = builder_.InternStack(parent ? parent->stack : kEmptyStack, frame);
    }
    return row;
  }

  // All weights of a copy measure one thing.
  Status CheckDimension(const Weight& weight) {
    if (!weight.dimension) return OkStatus();
    if (!dimension_) {
      dimension_ = weight.dimension;
      return OkStatus();
    }
    if (*weight.dimension == *dimension_) return OkStatus();
    return Status(ErrorCode::kDeepCopyBadRow,
                  std::string("the row's weight is ") + DimensionName(*weight.dimension) +
                      ", the rows above measure " + DimensionName(*dimension_));
  }

  static ValueUnit UnitOf(Dimension dimension) {
    return dimension == Dimension::kTime    ? ValueUnit::kNanoseconds
           : dimension == Dimension::kBytes ? ValueUnit::kBytes
                                            : ValueUnit::kNone;
  }

  // The one timeline, created at the first row; Finish() sets its unit.
  ProfileBuilder::TimelineId Timeline() {
    if (!timeline_) {
      timeline_ = builder_.AddTimeline(1, std::string(kTable), ValueUnit::kNone,
                                       ProfileBuilder::TimeAxis::kOrderOnly);
    }
    return *timeline_;
  }

  // A row's own weight is its self weight when the copy has that column and
  // it agrees with the total: rounded totals make total minus the rows below
  // inexact. Beyond rounding, the rows below are incomplete, and what they
  // miss is counted as the row's own. Without a self column, total minus the
  // rows below it is all there is.
  Status CloseRow() {
    OpenRow row = std::move(open_.back());
    open_.pop_back();
    if (row.kind != OpenRow::Kind::kCall) return OkStatus();
    int64_t residual = row.total.value - row.below;
    double rounding = row.total.rounding + row.below_rounding;
    int64_t own = 0;
    if (row.self) {
      own = row.self->value;
      rounding += row.self->rounding;
      if (residual > own && static_cast<double>(residual - own) > rounding) {
        if (hidden_rows_++ == 0) {
          first_hidden_line_ = row.line;
          first_hidden_amount_ = std::to_string(residual - own) + " " + BaseUnitName();
        }
        own = residual;
      }
    } else if (static_cast<double>(residual) > rounding) {
      own = residual;
    }
    if (own <= 0) return OkStatus();
    int64_t& cursor = Cursor(row.thread);
    Status added = builder_.AddSample(row.thread, cursor, own, row.stack);
    if (!added.ok()) return added.WithLine(row.line);
    cursor += own;  // AddSample checked that this does not overflow
    return OkStatus();
  }

  int64_t& Cursor(ProfileBuilder::ThreadId thread) {
    if (thread >= cursors_.size()) cursors_.resize(thread + 1, 0);
    return cursors_[thread];
  }

  const char* BaseUnitName() const {
    switch (dimension_.value_or(Dimension::kCount)) {
      case Dimension::kTime: return "ns";
      case Dimension::kBytes: return "bytes";
      case Dimension::kCycles: return "cycles";
      case Dimension::kCount: return "";
    }
    return "";
  }

  ProfileBuilder& builder_;
  const Limits limits_;
  std::string pending_;  // the start of a line that the next bytes continue
  uint64_t line_number_ = 0;
  uint64_t line_offset_ = 0;
  std::optional<Header> header_;
  std::optional<size_t> base_indent_;
  std::optional<Dimension> dimension_;
  std::optional<ProfileBuilder::TimelineId> timeline_;
  std::vector<OpenRow> open_;
  std::vector<int64_t> cursors_;  // per thread: the sum of its samples' weights
  uint64_t rows_ = 0;
  uint64_t hidden_rows_ = 0;
  uint64_t first_hidden_line_ = 0;
  std::string first_hidden_amount_;
};

}  // namespace

SniffMatch Sniff(ByteSpan prefix) {
  return ReadHeader(FirstLine(prefix.as_chars())) ? SniffMatch::kYes : SniffMatch::kNo;
}

std::unique_ptr<StreamImporter> CreateImporter(ProfileBuilder& builder,
                                               const ImportOptions& options) {
  return std::make_unique<DeepCopyImporter>(builder, options);
}

}  // namespace instrumentscope::deep_copy
