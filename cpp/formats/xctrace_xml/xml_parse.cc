#include "formats/xctrace_xml/xml_parse.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "base/threads.h"
#include "formats/xctrace_xml/sax_events.h"
#include "formats/xctrace_xml/sax_parser.h"
#include "formats/xctrace_xml/tokenizer.h"

namespace instrumentscope::xctrace_xml {
namespace {

class ParseHere final : public XmlParse {
 public:
  ParseHere(const Limits& limits, DocumentReader& reader)
      : tokenizer_(limits, reader, [this] { return parser_.Where(); }), parser_(tokenizer_) {}

  Status Feed(ByteSpan bytes) override {
    parser_.Feed(bytes);
    return tokenizer_.status();
  }
  Status Finish() override {
    parser_.Finish();
    return tokenizer_.status();
  }
  uint32_t threads() const override { return 1; }

 private:
  Tokenizer tokenizer_;
  SaxParser<Tokenizer> parser_;
};

class ParseInTwoThreads final : public XmlParse {
 public:
  // Blocks in flight: enough for neither thread to wait on the other's
  // unevenness, 2 MB in all.
  static constexpr size_t kBlocks = 8;

  ParseInTwoThreads(const Limits& limits, DocumentReader& reader,
                    std::unique_ptr<HelperThreads> helper)
      : helper_(std::move(helper)),
        tokenizer_(limits, reader, [this] { return where_; }),
        full_(kBlocks),
        empty_(kBlocks),
        recorder_(full_, empty_, reader_stopped_),
        parser_(recorder_) {
    recorder_.set_parser(&parser_);
    for (size_t i = 0; i < kBlocks; ++i) empty_.Push(EventBlock());
    reading_ = std::thread([this] { Read(); });
  }
  ~ParseInTwoThreads() override {
    if (!reading_.joinable()) return;
    full_.Cancel();
    empty_.Cancel();
    reading_.join();
  }

  Status Feed(ByteSpan bytes) override {
    parser_.Feed(bytes);
    return recorder_.failed() ? Join() : OkStatus();
  }
  Status Finish() override {
    parser_.Finish();
    return Join();
  }
  uint32_t threads() const override { return 2; }

 private:
  // The reading thread.
  void Read() {
    while (std::optional<EventBlock> block = full_.Pop()) {
      ReplayEvents(*block, tokenizer_, where_);
      if (tokenizer_.failed()) {
        reader_stopped_.store(true, std::memory_order_relaxed);
        full_.Cancel();
        empty_.Cancel();
        return;
      }
      block->used = 0;
      if (block->capacity() > EventBlock::kBytes) block->words.resize(EventBlock::kBytes / 8);
      empty_.Push(std::move(*block));
    }
  }

  // Waits for the reading thread to read all that was parsed.
  Status Join() {
    if (reading_.joinable()) {
      recorder_.Flush();
      full_.Close();
      reading_.join();
    }
    return tokenizer_.status();
  }

  std::unique_ptr<HelperThreads> helper_;  // given back after the thread is joined
  // Only the reading thread touches these until it is joined.
  Tokenizer tokenizer_;
  XmlLocation where_;

  EventQueue full_;
  EventQueue empty_;
  std::atomic<bool> reader_stopped_{false};
  EventRecorder recorder_;
  SaxParser<EventRecorder> parser_;
  std::thread reading_;
};

}  // namespace

std::unique_ptr<XmlParse> StartXmlParse(const Limits& limits, DocumentReader& reader,
                                        uint32_t threads) {
  auto helper = std::make_unique<HelperThreads>(std::min(threads, 2u));
  if (helper->count() == 0) return std::make_unique<ParseHere>(limits, reader);
  return std::make_unique<ParseInTwoThreads>(limits, reader, std::move(helper));
}

}  // namespace instrumentscope::xctrace_xml
