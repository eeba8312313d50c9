// What the consumers share: their table, its entry and columns, and sources
// split as the entry says (per run, process or thread). Consumers that pair
// rows make their sources as the pairs are made, in that order.
#ifndef INSTRUMENTSCOPE_TABLES_CONSUMER_BASE_H_
#define INSTRUMENTSCOPE_TABLES_CONSUMER_BASE_H_

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tables/consumers.h"

namespace instrumentscope::tables {

class ConsumerBase : public IntervalConsumer {
 public:
  ConsumerBase(const TableEntry& entry, uint32_t run, RoleSet columns, RowContext& context);

  Result<IntervalTable> Finish() override { return std::move(table_); }

 protected:
  // The row's source: `name`, then the thread's name for tables split by
  // thread, and the row's process (else its thread's) unless split by run.
  size_t SourceOf(const TypedRow& row, const std::string& name) {
    return SourceOf(row[Role::kProcess], row[Role::kThread], name);
  }
  // The same, of a row's process and thread values (not present: none).
  size_t SourceOf(const Value& process, const Value& thread, const std::string& name);
  // "Display vsyncs — Built-In Display"; the name alone without a part.
  std::string Named(std::string_view part) const;

  const TableEntry& entry_;
  RoleSet columns_;
  RowContext& context_;
  IntervalTable table_;

 private:
  std::map<int64_t, std::string> process_names_;  // by pid
  std::map<uint64_t, std::string> thread_names_;  // by thread key
};

// Distinct strings, each kept once, by number: what consumers that hold
// rows until they pair them keep of their texts.
class Interner {
 public:
  // `field` (below kFields) names the column the text came from: a column
  // that repeats the text of its previous row finds it without hashing.
  static constexpr size_t kFields = 4;
  uint32_t Intern(std::string_view text, size_t field = 0) {
    std::optional<uint32_t>& last = last_[field];
    if (last && strings_[*last] == text) return *last;
    auto found = index_.find(text);
    if (found != index_.end()) {
      last = found->second;
    } else {
      last = static_cast<uint32_t>(strings_.size());
      index_.emplace(strings_.emplace_back(text), *last);
    }
    return *last;
  }
  const std::string& operator[](uint32_t number) const { return strings_[number]; }

 private:
  std::deque<std::string> strings_;  // a deque: the index's views stay valid
  std::unordered_map<std::string_view, uint32_t> index_;
  std::array<std::optional<uint32_t>, kFields> last_{};  // per field, its previous text
};

// A value kept past its row: its text, which the row's reader owns, left out.
inline Value Kept(Value value) {
  value.text = std::string_view();
  return value;
}

std::unique_ptr<IntervalConsumer> MakeSignpostEvents(const TableEntry& entry, uint32_t run,
                                                     RoleSet columns, RowContext& context);
std::unique_ptr<IntervalConsumer> MakeSignpostIntervals(const TableEntry& entry, uint32_t run,
                                                        RoleSet columns, RowContext& context);
std::unique_ptr<IntervalConsumer> MakeThreadStates(const TableEntry& entry, uint32_t run,
                                                   RoleSet columns, RowContext& context);
std::unique_ptr<IntervalConsumer> MakeCoreStates(const TableEntry& entry, uint32_t run,
                                                 RoleSet columns, RowContext& context);
std::unique_ptr<IntervalConsumer> MakeRunLoopEvents(const TableEntry& entry, uint32_t run,
                                                    RoleSet columns, RowContext& context);

}  // namespace instrumentscope::tables

#endif  // INSTRUMENTSCOPE_TABLES_CONSUMER_BASE_H_
