#include "formats/xctrace_xml/xml_parse.h"

#include <libxml/parser.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "base/threads.h"
#include "formats/xctrace_xml/element_tracker.h"
#include "formats/xctrace_xml/sax_events.h"
#include "formats/xctrace_xml/sax_parser.h"
#include "formats/xctrace_xml/slices.h"

namespace instrumentscope::xctrace_xml {
namespace {

class ParseHere final : public XmlParse {
 public:
  ParseHere(const Limits& limits, DocumentReader& reader)
      : tracker_(limits, reader, [this] { return parser_.Where(); }), parser_(tracker_) {}

  Status Feed(ByteSpan bytes) override {
    parser_.Feed(bytes);
    return tracker_.status();
  }
  Status Finish() override {
    parser_.Finish();
    return tracker_.status();
  }
  uint32_t threads() const override { return 1; }

 private:
  ElementTracker tracker_;
  SaxParser<ElementTracker> parser_;
};

// What a slice after the first is parsed inside.
constexpr std::string_view kRootTag = "<trace-query-result>";
constexpr std::string_view kNodeTag = "<node>";

ByteSpan BytesOf(std::string_view text) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

// A slice parsed on whichever thread took it: its events, and how it ended.
struct ParsedSlice {
  explicit ParsedSlice(Slice from) : slice(std::move(from)), recorder(blocks), parser(recorder) {
    recorder.set_parser(&parser);
  }

  void Parse() {
    if (slice.index > 0) {
      parser.FeedUnreported(BytesOf(kRootTag));
      parser.FeedUnreported(BytesOf(kNodeTag));
      wrapper = kRootTag.size() + kNodeTag.size();
    }
    parser.Feed(ByteSpan(slice.bytes.data(), slice.bytes.size()));
    if (slice.last) parser.Finish();
    usable = !recorder.failed() && (slice.last || parser.BetweenRows());
    lines = parser.LinesRead();
  }

  Slice slice;
  std::vector<EventBlock> blocks;
  EventRecorder recorder;
  SaxParser<EventRecorder> parser;  // its dictionary holds the events' names
  uint64_t wrapper = 0;             // bytes of the start tags it was parsed inside
  bool usable = false;              // read from its events: no error, and ends between rows
  uint32_t lines = 0;               // lines the slice holds
};

// The export cut into slices (slices.h), parsed by libxml2 on every thread at
// once, and read in order by one thread at a time into the ElementTracker, from
// each slice's events. The calling thread cuts the slices; the helper threads
// read (first) or parse; the caller too when the slices in flight are as many
// as it may hold. A slice whose parse cannot be read as it is (an error, whose
// message names lines only the reader knows, or an end not between two rows)
// is parsed again by the reader on its own parser, set at the slice's lines
// inside the elements open there, which then parses the rest of the document
// too: the same events and errors as one thread's, located alike.
class ParseInSlices final : public XmlParse {
 public:
  static constexpr size_t kSliceBytes = 512 << 10;
  static constexpr size_t kMostSliceBytes = 16 << 20;

  ParseInSlices(const Limits& limits, DocumentReader& reader,
                std::unique_ptr<HelperThreads> helpers)
      : tracker_(limits, reader, [this] { return Where(); }),
        cutter_(kSliceBytes, kMostSliceBytes),
        helpers_(std::move(helpers)),
        most_in_flight_(2 * (helpers_->count() + 1) + 2) {
    for (uint32_t i = 0; i < helpers_->count(); ++i) threads_.emplace_back([this] { Help(); });
  }
  ~ParseInSlices() override { Stop(); }

  Status Feed(ByteSpan bytes) override {
    std::vector<Slice> slices;
    cutter_.Add(bytes, slices);
    for (Slice& slice : slices) Submit(std::move(slice));
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }
  Status Finish() override {
    Submit(cutter_.Finish());
    {
      std::unique_lock<std::mutex> lock(mutex_);
      while (next_read_ < submitted_ && failure_.ok()) WorkOrWait(lock);
    }
    Stop();
    return tracker_.status();
  }
  uint32_t threads() const override { return helpers_->count() + 1; }

 private:
  void Submit(Slice slice) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (submitted_ - next_read_ >= most_in_flight_ && failure_.ok()) WorkOrWait(lock);
    if (!failure_.ok()) return;
    to_parse_.push_back(std::make_unique<ParsedSlice>(std::move(slice)));
    ++submitted_;
    changed_.notify_all();
  }

  // A helper thread's life.
  void Help() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) WorkOrWait(lock);
  }

  // One step of the work there is, reading first (it is what the others
  // wait for), or a wait for some; `lock` is held around it, not during it.
  void WorkOrWait(std::unique_lock<std::mutex>& lock) {
    auto ready = parsed_.find(next_read_);
    if (!reading_ && failure_.ok() && ready != parsed_.end()) {
      std::unique_ptr<ParsedSlice> slice = std::move(ready->second);
      parsed_.erase(ready);
      reading_ = true;
      lock.unlock();
      Read(*slice);
      slice.reset();
      lock.lock();
      reading_ = false;
      ++next_read_;
      if (tracker_.failed()) failure_ = tracker_.status();
      changed_.notify_all();
      return;
    }
    if (!to_parse_.empty() && failure_.ok()) {
      std::unique_ptr<ParsedSlice> slice = std::move(to_parse_.front());
      to_parse_.pop_front();
      lock.unlock();
      // Once one thread reads the rest, the others' parses would go unread.
      if (!reading_alone_.load(std::memory_order_relaxed)) slice->Parse();
      lock.lock();
      parsed_[slice->slice.index] = std::move(slice);
      changed_.notify_all();
      return;
    }
    changed_.wait(lock);
  }

  // On the one thread reading.
  void Read(ParsedSlice& parsed) {
    const Slice& slice = parsed.slice;
    if (!alone_ && parsed.usable) {
      tracker_.ForgetNamePointers();
      LocationShift shift{next_line_ - 1, slice.offset, parsed.wrapper};
      ReplayEvents(parsed.blocks, shift, tracker_, where_);
      next_line_ += parsed.lines;
      return;
    }
    if (!alone_) ReadAloneFrom(slice);
    alone_->Feed(ByteSpan(slice.bytes.data(), slice.bytes.size()));
    if (slice.last) alone_->Finish();
  }

  // From `slice` on, libxml2 on the reading thread, reporting to the
  // tracker directly; after the first slice, inside the root and the
  // <node> open, each on the line it started on.
  void ReadAloneFrom(const Slice& slice) {
    reading_alone_.store(true, std::memory_order_relaxed);
    alone_ = std::make_unique<SaxParser<ElementTracker>>(tracker_);
    tracker_.ForgetNamePointers();
    alone_offset_ = slice.offset;
    if (slice.index == 0) return;
    alone_->FeedUnreported(ByteSpan());
    alone_->SetLine(tracker_.context_line(0));
    alone_->FeedUnreported(BytesOf(kRootTag));
    alone_->SetLine(tracker_.context_line(1));
    alone_->FeedUnreported(BytesOf(kNodeTag));
    alone_->SetLine(next_line_);
    alone_wrapper_ = kRootTag.size() + kNodeTag.size();
  }

  // Where the reading is, in the document's lines and bytes.
  XmlLocation Where() const {
    if (!alone_) return where_;
    XmlLocation local = alone_->Where();
    return {local.line, local.offset - alone_wrapper_ + alone_offset_};
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      changed_.notify_all();
    }
    for (std::thread& thread : threads_) thread.join();
    threads_.clear();
  }

  // The reading thread's, one thread at a time.
  ElementTracker tracker_;
  XmlLocation where_;
  uint32_t next_line_ = 1;  // the line the next slice starts on
  std::unique_ptr<SaxParser<ElementTracker>> alone_;
  uint64_t alone_offset_ = 0;
  uint64_t alone_wrapper_ = 0;

  // The calling thread's.
  SliceCutter cutter_;

  std::unique_ptr<HelperThreads> helpers_;
  const uint64_t most_in_flight_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<ParsedSlice>> to_parse_;
  std::map<uint64_t, std::unique_ptr<ParsedSlice>> parsed_;
  uint64_t submitted_ = 0;
  uint64_t next_read_ = 0;
  bool reading_ = false;
  bool stopping_ = false;
  Status failure_;  // the tracker's, once it failed
  std::atomic<bool> reading_alone_{false};
  std::vector<std::thread> threads_;
};

}  // namespace

std::unique_ptr<XmlParse> StartXmlParse(const Limits& limits, DocumentReader& reader,
                                        uint32_t threads) {
  auto helpers = std::make_unique<HelperThreads>(threads);
  if (helpers->count() == 0) return std::make_unique<ParseHere>(limits, reader);
  // libxml2's globals are set up once, before any thread parses.
  xmlInitParser();
  return std::make_unique<ParseInSlices>(limits, reader, std::move(helpers));
}

}  // namespace instrumentscope::xctrace_xml
