// The pieces of the bundle importer, each on its own: file trees, the array
// uniquer, stores and row layouts, symbol tables and archives, form.template.
#include <algorithm>
#include <catch2/catch.hpp>

#include "base/identifiers.h"
#include "base/text.h"
#include "container/file_tree.h"
#include "formats/trace_bundle/bundle_importer.h"
#include "formats/trace_bundle/form_template.h"
#include "formats/trace_bundle/store.h"
#include "formats/trace_bundle/symbol_archive.h"
#include "formats/trace_bundle/symbols.h"
#include "formats/trace_bundle/uniquer.h"
#include "test_support.h"

namespace instrumentscope::trace_bundle {
namespace {

using testing::CorpusFileOrSkip;
using testing::ReadFile;

SharedBytes Bytes(std::vector<uint8_t> bytes) {
  return std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

void PutU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void PutU64(std::vector<uint8_t>& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// An index and data file holding `arrays`, in blocks of `block_size` bytes.
std::pair<std::vector<uint8_t>, std::vector<uint8_t>> MakeUniquer(
    const std::vector<std::vector<uint64_t>>& arrays, uint32_t block_size) {
  std::vector<uint8_t> index, data;
  for (uint32_t word : {0x01234567u, 0xA337Eu, 1u, 0u, 1u, 0u, 0u, block_size}) PutU32(index, word);
  for (uint32_t word : {0x01234567u, 0xA337Eu, 1u, 0u, 1u, 0u, 0u, 0u}) PutU32(data, word);
  PutU64(index, 0);  // entry 0 is always empty
  for (const auto& array : arrays) {
    size_t size = 4 + 8 * array.size();
    size_t in_block = data.size() % block_size;
    if (in_block + size > block_size) data.resize(data.size() + block_size - in_block, 0);
    PutU32(index, static_cast<uint32_t>(data.size() % block_size));
    PutU32(index, static_cast<uint32_t>(data.size() / block_size));
    PutU32(data, static_cast<uint32_t>(array.size()));
    for (uint64_t value : array) PutU64(data, value);
  }
  return {index, data};
}

TEST_CASE("The uniquer finds arrays through its index, across blocks of any size") {
  std::vector<std::vector<uint64_t>> arrays = {
      {42, 0}, {7}, {0x1000, 0x2000, 0x3000}, {1ull << 63}};
  for (uint32_t block_size : {64u, 1u << 20}) {
    auto [index, data] = MakeUniquer(arrays, block_size);
    auto uniquer = Uniquer::Open(Bytes(index), Bytes(data), "data");
    REQUIRE(uniquer.ok());
    REQUIRE(uniquer->size() == arrays.size());
    for (size_t i = 0; i < arrays.size(); ++i) CHECK(*uniquer->Array(i) == arrays[i]);
    CHECK(uniquer->Array(4).status().code() == ErrorCode::kBundleCorrupt);
    // A backtrace's parts are appended one after another.
    std::vector<uint64_t> joined = {99};
    REQUIRE(uniquer->AppendArray(2, &joined).ok());
    REQUIRE(uniquer->AppendArray(0, &joined).ok());
    CHECK(joined == std::vector<uint64_t>{99, 0x1000, 0x2000, 0x3000, 42, 0});
    CHECK(uniquer->AppendArray(2, &joined, 2).code() == ErrorCode::kLimitExceeded);
    CHECK(joined.size() == 6);
    // Without the index, a scan of the data finds the same arrays.
    auto scanned = Uniquer::Open(nullptr, Bytes(data), "data");
    REQUIRE(scanned.ok());
    REQUIRE(scanned->size() == arrays.size());
    CHECK(*scanned->Array(2) == arrays[2]);
  }
}

TEST_CASE("An empty array in the uniquer's index appends nothing") {
  auto [index, data] = MakeUniquer({{}, {5}}, 64);
  auto uniquer = Uniquer::Open(Bytes(index), Bytes(data), "data");
  REQUIRE(uniquer.ok());
  CHECK(uniquer->Array(0)->empty());
  std::vector<uint64_t> appended;
  REQUIRE(uniquer->AppendArray(0, &appended).ok());
  CHECK(appended.empty());
  CHECK(*uniquer->Array(1) == std::vector<uint64_t>{5});
}

TEST_CASE("A damaged uniquer fails with what and where") {
  auto [index, data] = MakeUniquer({{1, 2}}, 64);
  std::vector<uint8_t> bad_magic = index;
  bad_magic[0] ^= 1;
  CHECK(Uniquer::Open(Bytes(bad_magic), Bytes(data), "d").status().code() ==
        ErrorCode::kBundleCorrupt);
  std::vector<uint8_t> past_end = index;
  past_end[40 + 4] = 9;  // block 9 of a one-block file
  auto opened = Uniquer::Open(Bytes(past_end), Bytes(data), "d");
  CHECK(opened.status().code() == ErrorCode::kBundleCorrupt);
  CHECK(*opened.status().offset() == 40);
  std::vector<uint8_t> big_count = data;
  big_count[32] = 0xFF;  // the first array claims 255 elements
  auto uniquer = Uniquer::Open(Bytes(index), Bytes(big_count), "d");
  REQUIRE(uniquer.ok());
  CHECK(uniquer->Array(0).status().code() == ErrorCode::kBundleCorrupt);
  std::vector<uint8_t> zero_block = index;
  zero_block[28] = zero_block[29] = zero_block[30] = zero_block[31] = 0;
  CHECK(Uniquer::Open(Bytes(zero_block), Bytes(data), "d").status().code() ==
        ErrorCode::kBundleCorrupt);
}

const char* kSchema =
    "<schema name=\"time-profile\" topology=\"XRT50_C22_TypeID\">"
    "<column engineeringType=\"XRSampleTimestampTypeID\" mnemonic=\"time\" "
    "topologyField=\"XRTraceRelativeTimestampFieldID\"/>"
    "<column engineeringType=\"XRThreadTypeID\" mnemonic=\"thread\" "
    "topologyField=\"XRCategory1FieldID\"/>"
    "<column engineeringType=\"XRProcessTypeID\" mnemonic=\"process\"/>"
    "<column engineeringType=\"XRTimeSampleWeightTypeID\" mnemonic=\"weight\"/>"
    "<column engineeringType=\"XRBacktraceTypeID\" mnemonic=\"stack\"/></schema>";

TEST_CASE("Row layouts come from the descriptor, or from the schema without one") {
  auto schema = ParseStoreSchema(ByteSpan(std::string_view(kSchema)));
  REQUIRE(schema.ok());
  CHECK(schema->name == "time-profile");
  REQUIRE(schema->columns.size() == 5);
  CHECK(schema->columns[4].mnemonic == "stack");

  // Instruments 8: 9-byte topology, u32 process, u64 weight, u32 stack.
  auto plain = LayoutRow(*schema, std::nullopt, 25);
  REQUIRE(plain.ok());
  CHECK(plain->time.offset == 0);
  CHECK(plain->time.width == 6);
  // The thread is the topology's 22 bits after the time's 50.
  CHECK(plain->Field("time").bits == 50);
  CHECK(plain->Field("thread").offset == 6);
  CHECK(plain->Field("thread").shift == 2);
  CHECK(plain->Field("thread").bits == 22);
  CHECK(plain->Field("process").offset == 9);
  CHECK(plain->Field("weight").offset == 13);
  CHECK(plain->Field("weight").width == 8);
  CHECK(plain->Field("stack").offset == 21);
  CHECK(plain->Field("core").width == 0);
  CHECK(LayoutRow(*schema, std::nullopt, 33).status().code() == ErrorCode::kBundleUnsupported);

  // A descriptor reorders: weight first.
  StoreDescriptor descriptor;
  descriptor.fields = {{"topology", 0, 4}, {"weight", 1, 2}, {"stack", 2, 1}, {"process", 3, 1}};
  auto described = LayoutRow(*schema, descriptor, 25);
  REQUIRE(described.ok());
  CHECK(described->Field("weight").offset == 9);
  CHECK(described->Field("process").offset == 21);
  CHECK(described->Field("thread").offset == 6);
  descriptor.fields[1].type = 6;  // an interval topology: not in sample tables yet
  CHECK(LayoutRow(*schema, descriptor, 25).status().code() == ErrorCode::kBundleUnsupported);

  // Instruments 16: a 16-byte topology (u64 time, u32 thread, u32 category 2).
  StoreDescriptor wide;
  wide.fields = {{"topology", 0, 7}, {"process", 1, 1}, {"weight", 2, 2}, {"stack", 3, 1}};
  auto modern = LayoutRow(*schema, wide, 32);
  REQUIRE(modern.ok());
  CHECK(modern->time.width == 8);
  CHECK(modern->Field("thread").offset == 8);
  CHECK(modern->Field("thread").width == 4);
  CHECK(modern->Field("thread").shift == 0);
  CHECK(modern->Field("process").offset == 16);
  CHECK(modern->Field("weight").offset == 20);
  CHECK(modern->Field("stack").offset == 28);
  CHECK(LayoutRow(*schema, wide, 33).status().code() == ErrorCode::kBundleUnsupported);

  CHECK(ParseStoreSchema(ByteSpan(std::string_view("<schema"))).status().code() ==
        ErrorCode::kBundleCorrupt);
  CHECK(ParseStoreSchema(ByteSpan(std::string_view("<table/>"))).status().code() ==
        ErrorCode::kBundleCorrupt);
}

TEST_CASE("Instruments 8 interval tables: the schema's 18-byte topology, then the columns") {
  // life-cycle-period as 8.3.3 writes it: no descriptor, rows of 30 bytes.
  const char* life_cycle =
      "<schema name=\"life-cycle-period\" topology=\"XRTD50_CC22_TypeID\">"
      "<column engineeringType=\"XRLayoutIDTypeID\" mnemonic=\"layout-qualifier\"/>"
      "<column engineeringType=\"XRStartTimeTypeID\" mnemonic=\"start\" "
      "topologyField=\"XRTraceRelativeTimestampFieldID\"/>"
      "<column engineeringType=\"XRDurationTypeID\" mnemonic=\"duration\" "
      "topologyField=\"XRDurationFieldID\"/>"
      "<column engineeringType=\"XRPrototypeStringTypeID\" mnemonic=\"group\" "
      "topologyField=\"XRCategory1FieldID\"/>"
      "<column engineeringType=\"XRLayoutIDTypeID\" mnemonic=\"lane\" "
      "topologyField=\"XRCategory2FieldID\"/>"
      "<column engineeringType=\"XRApplicationPeriodTypeID\" mnemonic=\"period\"/>"
      "<column engineeringType=\"XRNarrativeEntryTypeID\" mnemonic=\"narrative\"/></schema>";
  auto schema = ParseStoreSchema(ByteSpan(std::string_view(life_cycle)));
  REQUIRE(schema.ok());
  CHECK(schema->topology == "XRTD50_CC22_TypeID");
  auto layout = LayoutRow(*schema, std::nullopt, 30);
  REQUIRE(layout.ok());
  BitSlot start = layout->Field("start"), duration = layout->Field("duration");
  CHECK(start.offset == 0);
  CHECK(start.bits == 50);
  CHECK(duration.offset == 6);
  CHECK(duration.shift == 2);
  CHECK(duration.bits == 50);
  CHECK(layout->Field("group").offset == 12);
  CHECK(layout->Field("group").shift == 4);
  CHECK(layout->Field("layout-qualifier").offset == 18);
  CHECK(layout->Field("period").offset == 22);
  CHECK(layout->Field("narrative").offset == 26);
  // The 9-byte topology would leave 21 bytes of fields in a 30-byte row.
  CHECK(LayoutRow(*schema, std::nullopt, 21).status().code() == ErrorCode::kBundleUnsupported);
}

TEST_CASE("Bulkstores: rows after the header, padding skipped, damage refused") {
  std::vector<uint8_t> store;
  for (uint32_t word : {0x12340A0Au, 3u, 40u, 64u, 8u}) PutU32(store, word);
  store.resize(64, 0);
  PutU64(store, 0x1122334455667788);
  PutU64(store, 0);  // padding
  PutU64(store, 5);
  store.push_back(1);  // a partial row is no row
  auto rows = BulkStore::Open(Bytes(store));
  REQUIRE(rows.ok());
  CHECK(rows->row_size() == 8);
  CHECK(rows->row_count() == 3);
  CHECK(rows->row_offset(2) == 80);
  CHECK_FALSE(rows->IsPadding(0));
  CHECK(rows->IsPadding(1));

  std::vector<uint8_t> zero_rows = store;
  zero_rows[16] = 0;
  CHECK(BulkStore::Open(Bytes(zero_rows)).status().code() == ErrorCode::kBundleCorrupt);
  std::vector<uint8_t> late_start = store;
  late_start[13] = 0x10;  // rows from byte 4160 of a 89-byte file
  CHECK(BulkStore::Open(Bytes(late_start)).status().code() == ErrorCode::kBundleCorrupt);
  CHECK(BulkStore::Open(Bytes({1, 2})).status().code() == ErrorCode::kBundleCorrupt);
}

// Counts the store's rows as a counter fed in pieces of `piece` bytes.
Result<uint64_t> CountInPieces(const std::vector<uint8_t>& store, size_t piece) {
  BulkStoreRowCounter counter;
  for (size_t at = 0; at < store.size(); at += piece) {
    counter.Feed(ByteSpan(store.data() + at, std::min(piece, store.size() - at)));
  }
  CHECK(counter.size() == store.size());
  return counter.Finish();
}

TEST_CASE("A bulkstore's rows are counted in pieces as BulkStore reads them whole") {
  std::vector<uint8_t> store;
  for (uint32_t word : {0x12340A0Au, 3u, 40u, 64u, 12u}) PutU32(store, word);
  store.resize(64, 0);
  for (uint64_t row = 0; row < 40; ++row) {
    PutU32(store, 0);
    PutU64(store, row % 3 == 0 ? 0 : row << 40);  // every third row is padding
  }
  store.push_back(7);  // a partial row is no row
  auto whole = BulkStore::Open(Bytes(store));
  REQUIRE(whole.ok());
  uint64_t expected = 0;
  for (uint64_t i = 0; i < whole->row_count(); ++i) expected += whole->IsPadding(i) ? 0 : 1;
  REQUIRE(expected == 26);
  for (size_t piece : {size_t{1}, size_t{5}, size_t{19}, size_t{20}, size_t{64}, store.size()}) {
    INFO("pieces of " << piece);
    auto counted = CountInPieces(store, piece);
    REQUIRE(counted.ok());
    CHECK(*counted == expected);
  }

  // Rows that start inside the header are counted from there.
  std::vector<uint8_t> early = store;
  early[12] = 4;
  auto early_whole = BulkStore::Open(Bytes(early));
  REQUIRE(early_whole.ok());
  expected = 0;
  for (uint64_t i = 0; i < early_whole->row_count(); ++i) {
    expected += early_whole->IsPadding(i) ? 0 : 1;
  }
  CHECK(*CountInPieces(early, 3) == expected);

  // Damage gives BulkStore::Open's error.
  std::vector<uint8_t> late_start = store;
  late_start[13] = 0x10;
  std::vector<uint8_t> no_magic = store;
  no_magic[0] = 0;
  for (const std::vector<uint8_t>& damaged :
       {late_start, no_magic, std::vector<uint8_t>{1, 2}, std::vector<uint8_t>{}}) {
    Status open = BulkStore::Open(Bytes(damaged)).status();
    REQUIRE_FALSE(open.ok());
    CHECK(CountInPieces(damaged, 7).status().ToString() == open.ToString());
  }
}

TEST_CASE("A bulkstore's rows are visited in pieces as BulkStore reads them whole") {
  std::vector<uint8_t> store;
  for (uint32_t word : {0x12340A0Au, 3u, 40u, 64u, 12u}) PutU32(store, word);
  store.resize(64, 0);
  for (uint64_t row = 0; row < 40; ++row) {
    PutU32(store, static_cast<uint32_t>(row));
    PutU64(store, row % 3 == 0 ? 0 : row << 40);
    if (row % 3 == 0) std::fill(store.end() - 12, store.end(), 0);  // every third row is padding
  }
  auto whole = BulkStore::Open(Bytes(store));
  REQUIRE(whole.ok());
  for (size_t piece : {size_t{1}, size_t{7}, size_t{12}, size_t{64}, store.size()}) {
    INFO("pieces of " << piece);
    std::vector<uint64_t> visited;
    BulkStoreRowCounter counter([&](uint64_t row, ByteSpan bytes) -> Status {
      // The row's own bytes, then 8 of zeros a field may be read into.
      REQUIRE(bytes.size() == 12 + 8);
      ByteSpan expected = whole->Row(row);
      CHECK(std::equal(expected.data(), expected.data() + 12, bytes.data()));
      CHECK(std::all_of(bytes.data() + 12, bytes.data() + bytes.size(),
                        [](uint8_t byte) { return byte == 0; }));
      visited.push_back(row);
      // The visitor's error stops the visits, not the count.
      return visited.size() == 20 ? Status(ErrorCode::kBadSample, "enough") : OkStatus();
    });
    for (size_t at = 0; at < store.size(); at += piece) {
      counter.Feed(ByteSpan(store.data() + at, std::min(piece, store.size() - at)));
    }
    CHECK(counter.row_size() == 12);
    CHECK(counter.row_offset(2) == 88);
    REQUIRE(counter.Finish().ok());
    CHECK(*counter.Finish() == 26);
    CHECK(counter.visit_error().message() == "enough");
    REQUIRE(visited.size() == 20);
    for (uint64_t row : visited) CHECK_FALSE(whole->IsPadding(row));
    CHECK(visited.front() == 1);
    CHECK(visited.back() == 29);
  }
}

TEST_CASE("Symbols: the recorded address first, then the function's range") {
  SymbolTable table;
  table.Add(Symbol{"outer", "/bin/app", "/src/app.c", 0x1000, 0x100, {{0x1010, 12}, {0x1020, 0}}});
  table.Add(Symbol{"inner", "/bin/app", "", 0x1000, 0x10, {}});
  table.Add(Symbol{"", "/bin/app", "", 0x2000, 0x10, {}});
  auto exact = table.Lookup(0x1010);
  REQUIRE(exact);
  CHECK(exact->symbol->name == "outer");
  CHECK(exact->line == 12u);
  CHECK_FALSE(table.Lookup(0x1020)->line);               // line 0: unknown
  CHECK(table.Lookup(0x1008)->symbol->name == "outer");  // the first added wins
  CHECK(table.Lookup(0x10FF)->symbol->name == "outer");
  CHECK_FALSE(table.Lookup(0x1100));
  CHECK_FALSE(table.Lookup(0xFFF));
  CHECK(table.Lookup(0x2001)->symbol->name.empty());
}

// A version 7 symbol archive of `functions` then `inlines`, each record the
// fields start, size, flags, display name, linkage name, first child (and,
// for inlines, three of the call site), names indexes into `strings`.
std::vector<uint8_t> ArchiveBytes(const std::string& strings,
                                  const std::vector<std::vector<uint32_t>>& functions,
                                  const std::vector<std::vector<uint32_t>>& inlines = {}) {
  std::vector<uint8_t> out(0x60, 0);
  auto put = [&out](size_t at, uint32_t value) {
    for (int i = 0; i < 4; ++i) out[at + i] = static_cast<uint8_t>(value >> (8 * i));
  };
  put(0, 7);
  put(0x10, static_cast<uint32_t>(functions.size()));
  put(0x14, static_cast<uint32_t>(inlines.size()));
  for (size_t i = 0; i < 16; ++i) out[0x34 + i] = static_cast<uint8_t>(0xA0 + i);
  put(0x54, static_cast<uint32_t>(strings.size()));
  for (const auto* records : {&functions, &inlines}) {
    for (const std::vector<uint32_t>& record : *records) {
      for (uint32_t field : record) PutU32(out, field);
    }
  }
  out.insert(out.end(), strings.begin(), strings.end());
  put(4, static_cast<uint32_t>(out.size()));
  return out;
}

// One function (0x100, 0x80 bytes) with two inlined calls, the second
// holding a third; names by display or mangled.
std::vector<uint8_t> MakeArchive() {
  return ArchiveBytes(std::string("MACH_HEADER\0_outer\0__ZN1a5innerEv\0_leaf\0", 40),
                      {{0x100, 0x80, 0, 13, 12, 0}},  // "outer"
                      {
                          {0x110, 0x10, 0, 0, 19, 0xFFFFFFFF, 0, 0, 0},            // a::inner()
                          {0x140, 0x20, 0x40000000, 0, 19, 2, 0, 0, 0},            // its sibling
                          {0x148, 0x04, 0x40000000, 35, 34, 0xFFFFFFFF, 0, 0, 0},  // "leaf"
                      });
}

TEST_CASE("Symbol archives: functions, inlined calls, names as stored, damage") {
  std::vector<uint8_t> bytes = MakeArchive();
  auto archive = SymbolArchive::Parse(ByteSpan(bytes.data(), bytes.size()));
  REQUIRE(archive.ok());
  CHECK(FormatUuid(archive->uuid()) == "A0A1A2A3-A4A5-A6A7-A8A9-AAABACADAEAF");
  CHECK(archive->Lookup(0x100)->name == "outer");
  CHECK(archive->Lookup(0x115)->name == "__ZN1a5innerEv");  // demangled later
  CHECK(archive->Lookup(0x120)->name == "outer");
  CHECK(archive->Lookup(0x142)->name == "__ZN1a5innerEv");
  CHECK(archive->Lookup(0x149)->name == "leaf");
  CHECK(archive->Lookup(0x17F)->name == "outer");
  CHECK(archive->Lookup(0x17F)->start == 0x100);
  CHECK_FALSE(archive->Lookup(0x180));  // past the function: unresolved
  CHECK_FALSE(archive->Lookup(0xFF));

  auto damaged = [&](size_t at, uint32_t value) {
    std::vector<uint8_t> copy = bytes;
    for (int i = 0; i < 4; ++i) copy[at + i] = static_cast<uint8_t>(value >> (8 * i));
    return SymbolArchive::Parse(ByteSpan(copy.data(), copy.size())).status();
  };
  CHECK(damaged(0, 8).code() == ErrorCode::kBundleUnsupported);
  // A version not seen is named, with the bytes that say so.
  CHECK_THAT(damaged(0, 8).message(), Catch::Contains("version 8") &&
                                          Catch::Contains(": 08 00 00 00 ") &&
                                          Catch::EndsWith(" …"));
  Status wrong_size = damaged(4, 12);
  CHECK(wrong_size.code() == ErrorCode::kBundleCorrupt);
  CHECK(*wrong_size.offset() == 4);
  CHECK(damaged(0x10, 1000).code() == ErrorCode::kBundleCorrupt);      // tables overrun the strings
  CHECK(damaged(0x54, 0xFFFFFF).code() == ErrorCode::kBundleCorrupt);  // string table too large
  CHECK(damaged(0x60 + 12, 5000).code() == ErrorCode::kBundleCorrupt);  // name beyond the strings
  // A cycle of inlined calls ends.
  std::vector<uint8_t> cyclic = bytes;
  // "leaf"'s first child: record 1, which holds it.
  const size_t leaf_child = 0x60 + 24 + 36 + 36 + 20;
  cyclic[leaf_child] = 1;
  for (size_t i = 1; i < 4; ++i) cyclic[leaf_child + i] = 0;
  auto looped = SymbolArchive::Parse(ByteSpan(cyclic.data(), cyclic.size()));
  REQUIRE(looped.ok());
  CHECK(looped->Lookup(0x149).has_value());
}

TEST_CASE("Symbol archives: a function Instruments could not name is known by its start") {
  // As Instruments 26 stores stripped code: the function's runtime address
  // as both names (flags 0x11420401).
  std::vector<uint8_t> out = ArchiveBytes(std::string("MACH_HEADER\0"
                                                      "0x1851eb834\0",
                                                      24),
                                          {{0x95834, 0x20, 0x11420401, 12, 12, 0xFFFFFFFF}});
  auto archive = SymbolArchive::Parse(ByteSpan(out.data(), out.size()));
  REQUIRE(archive.ok());
  auto function = archive->Lookup(0x95840);
  REQUIRE(function);
  CHECK(function->name.empty());
  CHECK(function->start == 0x95834);
  CHECK_FALSE(archive->Lookup(0x95854));
}

TEST_CASE("Symbol archives: folded bodies keep their functions; stubs lose Mach-O's underscore") {
  // As Instruments 26 stores code the linker folded: the body, named
  // <deduplicated_symbol> (flags 0x800), then each function folded into it
  // at the same start and size (flags with 0x800); and a dyld stub, named by
  // its target's linkage name.
  const std::string strings = std::string(
      "MACH_HEADER\0"                  // 0
      "<deduplicated_symbol>\0"        // 12
      "rgba32_image_mark_image\0"      // 34
      "_rgba32_image_mark_image\0"     // 58
      "argb32_image_mark_image\0"      // 83
      "_argb32_image_mark_image\0"     // 107
      "DYLD-STUB$$_memcpy\0"           // 132
      "DYLD-STUB$$__platform_bzero\0"  // 151
      "after\0",                       // 179
      185);
  // start, size, flags, display name, linkage name, first child
  std::vector<uint8_t> out =
      ArchiveBytes(strings, {
                                {0x3251f4, 0x3b0, 0x800, 12, 12, 0xFFFFFFFF},
                                {0x3251f4, 0x3b0, 0x034a4c01, 34, 58, 0xFFFFFFFF},
                                {0x3251f4, 0x3b0, 0x034a4c01, 83, 107, 0xFFFFFFFF},
                                {0x3255a4, 0x10, 0x3484502, 0, 132, 0xFFFFFFFF},
                                {0x3255b4, 0x10, 0x3484502, 0, 151, 0xFFFFFFFF},
                                {0x3255c4, 0x10, 0x334a4401, 179, 179, 0xFFFFFFFF},
                            });
  auto archive = SymbolArchive::Parse(ByteSpan(out.data(), out.size()));
  REQUIRE(archive.ok());

  // Any address of the body is the body, whose functions are its detail: no
  // one of them is the frame's name.
  for (uint64_t offset : {0x3251f4u, 0x325400u, 0x3255a3u}) {
    auto body = archive->Lookup(offset);
    REQUIRE(body);
    CHECK(body->name == kFoldedBodyName);
    CHECK(body->start == 0x3251f4);
    REQUIRE(body->folded);
    CHECK(*body->folded ==
          std::vector<std::string>{"rgba32_image_mark_image", "argb32_image_mark_image"});
  }
  CHECK(archive->Lookup(0x3255a4)->name == "DYLD-STUB$$memcpy");
  // A C function whose own name starts with one underscore keeps it.
  CHECK(archive->Lookup(0x3255b4)->name == "DYLD-STUB$$_platform_bzero");
  CHECK(archive->Lookup(0x3255c4)->name == "after");
  CHECK_FALSE(archive->Lookup(0x3255c4)->folded);

  // Functions flagged as folded with no body before them stay themselves.
  std::vector<uint8_t> orphan = out;
  orphan[0x60 + 12] = 34;  // the body's display name: no longer <deduplicated_symbol>
  auto alone = SymbolArchive::Parse(ByteSpan(orphan.data(), orphan.size()));
  REQUIRE(alone.ok());
  CHECK_FALSE(alone->Lookup(0x325400)->folded);
  CHECK(alone->Lookup(0x325400)->name != kFoldedBodyName);
}

TEST_CASE("File trees: folders, junk, roots one level down, zips inside zips") {
  Limits limits;
  FolderTree folder(limits);
  folder.Add("./x.trace\\form.template", {1});
  folder.Add("/x.trace/corespace/run1/core/a", {2});
  folder.Add("__MACOSX/x.trace/._form.template", {3});
  CHECK(folder.paths() == std::vector<std::string>{"__MACOSX/x.trace/._form.template",
                                                   "x.trace/corespace/run1/core/a",
                                                   "x.trace/form.template"});
  CHECK(IsJunkPath("__MACOSX/x.trace/._form.template"));
  CHECK(IsJunkPath("x.trace/.DS_Store"));
  CHECK_FALSE(IsJunkPath("x.trace/form.template"));
  SubTree bundle(folder, "x.trace", limits);
  CHECK(bundle.Contains("form.template"));
  CHECK(**bundle.Read("corespace/run1/core/a") == std::vector<uint8_t>{2});
  auto missing = bundle.Read("nothing");
  CHECK(missing.status().code() == ErrorCode::kBundleCorrupt);
  CHECK(missing.status().path() == "nothing");

  // A folder named "wow!" is a folder, not a zip to look into.
  FolderTree exclaimed(limits);
  exclaimed.Add("wow!/form.template", {5});
  CHECK(**exclaimed.Read("wow!/form.template") == std::vector<uint8_t>{5});

  const std::vector<std::string> paths = {
      "x.trace/form.template",
      "corespace/run12/core/stores/indexed-store-3/bulkstore_descriptor",
      "t/corespace/run1/core/uniquing/arrayUniquer/integeruniquer.data",
      "t/corespace/currentRun/core/uniquing/arrayUniquer/integeruniquer.data",
      "t/instrument_data/A/run_data/1.run.zip",  // no legacy samples of run 1 with id A
      "__MACOSX/t/._form.template",
      // A legacy run brings in its run archive and its run's shared_data zips.
      "t/Trace2.run/B-sampler.data",
      "t/instrument_data/B/run_data/2.run.zip",
      "t/shared_data/2.run/C.zip",
      "t/shared_data/3.run/D.zip",
      "t/Trace2.run/RunIssues.storedata",
  };
  CHECK(WantedFiles(paths) ==
        std::vector<bool>{true, true, true, false, false, false, true, true, true, false, false});

  auto path = CorpusFileOrSkip(
      "axe-org__TraceUtility/TestBlock/Instruments.trace/instrument_data/"
      "20202640-0B46-4698-ADAD-DF54B3ABE816/run_data/2.run.zip");
  if (!path) return;
  FolderTree run_data(limits);
  run_data.Add("2.run.zip", ReadFile(*path));
  auto inner = ZipTree::Open(*run_data.Read("2.run.zip"), limits);
  REQUIRE(inner.ok());
  REQUIRE((*inner)->paths().size() == 1);
  std::string member = (*inner)->paths()[0];
  auto nested = run_data.Read("2.run.zip!/" + member);
  REQUIRE(nested.ok());
  CHECK((*nested)->size() > 100);
  auto absent = run_data.Read("2.run.zip!/no/such/member");
  CHECK(absent.status().path() == "2.run.zip!no/such/member");
}

TEST_CASE("form.template of Instruments 8.3.3: runs, threads, processes, symbols") {
  auto path = CorpusFileOrSkip(
      "jlfwong__speedscope/sample/profiles/Instruments/8.3.3/simple-time-profile.trace.zip");
  if (!path) return;
  auto archive = ZipTree::Open(Bytes(ReadFile(*path)), Limits{});
  REQUIRE(archive.ok());
  auto bytes = (*archive)->Read("simple-time-profile.trace/form.template");
  REQUIRE(bytes.ok());
  auto form = ReadFormTemplate(ByteSpan((*bytes)->data(), (*bytes)->size()), Limits{});
  REQUIRE(form.ok());
  CHECK(form->problems.empty());
  CHECK(form->instrument_types ==
        std::vector<std::string>{"com.apple.xray.instrument-type.coresampler2"});
  CHECK(InstrumentName(form->instrument_types[0]) == "Time Profiler");
  CHECK(form->selected_run == 1u);
  REQUIRE(form->runs.count(1));
  const RunDetails& run = form->runs.at(1);
  CHECK(run.thread_names.at(0x3c1feee) == "Main Thread  0x3c1feee");
  CHECK(run.process_names.at(26200) == "simple");
  REQUIRE(run.symbols.count(26200));
  CHECK(run.symbols.at(26200).size() == 39);  // 130 references to 39 symbols
  auto match = run.symbols.at(26200).Lookup(0x111208099);
  REQUIRE(match);
  CHECK(match->symbol->name ==
        "ImageLoaderMachO::setupLazyPointerHandler(ImageLoader::LinkContext const&)");
  CHECK(match->symbol->binary_path == "/usr/lib/dyld");
  CHECK(match->symbol->source_file.empty());  // dyld's "C\x02" is no path

  CHECK(ReadFormTemplate(ByteSpan(std::string_view("bplist00")), Limits{}).status().code() ==
        ErrorCode::kPlistCorrupt);
}

}  // namespace
}  // namespace instrumentscope::trace_bundle
