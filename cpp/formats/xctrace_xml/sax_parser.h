// libxml2's SAX2 push parser, fed an XML document's bytes in order and
// reporting each start tag, end tag, run of text and error to a Handler:
//   void Start(const xmlChar* localname, const Attributes& attributes);
//   void End();
//   void Characters(const xmlChar* text, int length);
//   void Fail(Status status);  // malformed XML or a DOCTYPE
//   bool failed() const;       // true stops the parse
// The Handler is a template parameter so that its work inlines into the
// callbacks, which run for every element.
//
// Not supported: DOCTYPEs (refused before anything is declared, so no entity
// is expanded or loaded and nothing touches the network), namespaces (names
// are matched by their local part).
#ifndef INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_PARSER_H_
#define INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_PARSER_H_

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "base/byte_span.h"
#include "base/status.h"
#include "formats/xctrace_xml/elements.h"

namespace instrumentscope::xctrace_xml {

// Where the parse is: what an error names.
struct XmlLocation {
  uint32_t line = 0;
  uint64_t offset = 0;  // bytes consumed
};

template <typename Handler>
class SaxParser {
 public:
  explicit SaxParser(Handler& handler) : handler_(handler) {}
  ~SaxParser() {
    if (parser_) xmlFreeParserCtxt(parser_);
  }
  SaxParser(const SaxParser&) = delete;
  SaxParser& operator=(const SaxParser&) = delete;

  // Bytes libxml2 reads as if the document held them, without reporting them
  // to the handler: the start tags a slice of a document is parsed inside.
  void FeedUnreported(ByteSpan bytes) {
    reporting_ = false;
    Feed(bytes);
    reporting_ = true;
  }
  // The line libxml2 counts the next bytes from.
  void SetLine(uint32_t line) {
    if (parser_ && parser_->input) parser_->input->line = static_cast<int>(line);
  }

  // The next bytes of the document; the first call creates the parser.
  void Feed(ByteSpan bytes) {
    if (handler_.failed()) return;
    if (!parser_) {
      Create(bytes);
    } else if (!bytes.empty()) {
      ParseChunk(bytes, false);
    }
  }
  // After the last Feed: the handler fails unless the document is complete.
  void Finish() {
    if (handler_.failed()) return;
    if (!parser_ && !Create(ByteSpan())) return;
    ParseChunk(ByteSpan(), true);
  }

  // Whether the bytes so far end between two rows of a <node>: the parse is in
  // the content of <trace-query-result><node>, with nothing left unread but
  // whitespace (which libxml2 holds until it sees the next tag), and reads
  // UTF-8 as it is. The next bytes can then be parsed inside those two tags
  // alone, as they would be here.
  bool BetweenRows() const {
    if (!parser_ || !parser_->input || parser_->instate != XML_PARSER_CONTENT) return false;
    if (parser_->nameNr != 2 || ElementNamed(parser_->nameTab[0]) != Element::kTraceQueryResult ||
        ElementNamed(parser_->nameTab[1]) != Element::kNode) {
      return false;
    }
    const xmlParserInput* input = parser_->input;
    if (input->buf && input->buf->encoder) return false;
    for (const xmlChar* at = input->cur; at < input->end; ++at) {
      if (*at != ' ' && *at != '\n' && *at != '\r' && *at != '\t') return false;
    }
    return true;
  }

  // In a Start callback: whether the start tag ends an empty element ("/>"),
  // whose end libxml2 reports next, once it has read those two bytes.
  bool AtEmptyElementEnd() const {
    const xmlParserInput* input = parser_ ? parser_->input : nullptr;
    return input && input->end - input->cur >= 2 && input->cur[0] == '/' && input->cur[1] == '>';
  }

  // Lines the bytes so far hold: those libxml2 counted, and those in what it holds unread.
  uint32_t LinesRead() const {
    if (!parser_ || !parser_->input) return 0;
    const xmlParserInput* input = parser_->input;
    auto lines = static_cast<uint32_t>(input->line - 1);
    for (const xmlChar* at = input->cur; at < input->end; ++at) lines += *at == '\n';
    return lines;
  }

  XmlLocation Where() const {
    const xmlParserInput* input = parser_ ? parser_->input : nullptr;
    if (!input) return {};
    // xmlByteConsumed's own arithmetic, inline: the two-thread parse asks at
    // every element. Input in another encoding than UTF-8 needs libxml2 to count.
    bool converted = input->buf && input->buf->encoder;
    uint64_t offset = converted ? static_cast<uint64_t>(xmlByteConsumed(parser_))
                                : static_cast<uint64_t>(input->consumed) +
                                      static_cast<uint64_t>(input->cur - input->base);
    return {static_cast<uint32_t>(input->line), offset};
  }

 private:
  bool Create(ByteSpan first_bytes) {
    // Only the callbacks set here run: no entity resolution, no DTD loading.
    xmlSAXHandler sax;
    std::memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = &SaxParser::OnStartElement;
    sax.endElementNs = &SaxParser::OnEndElement;
    sax.characters = &SaxParser::OnCharacters;
    sax.cdataBlock = &SaxParser::OnCharacters;
    sax.internalSubset = &SaxParser::OnDoctype;
    sax.serror = &SaxParser::OnXmlError;

    // Four bytes let libxml2 detect the encoding before the first chunk.
    size_t initial = std::min<size_t>(first_bytes.size(), 4);
    parser_ = xmlCreatePushParserCtxt(&sax, this, reinterpret_cast<const char*>(first_bytes.data()),
                                      static_cast<int>(initial), nullptr);
    if (!parser_) {
      handler_.Fail(Status(ErrorCode::kLimitExceeded, "could not allocate an XML parser"));
      return false;
    }
    // No XML_PARSE_NOENT (no entity substitution), no DTD loading, no network.
    xmlCtxtUseOptions(parser_, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    ParseChunk(first_bytes.subspan(initial), false);
    return true;
  }

  void ParseChunk(ByteSpan bytes, bool terminate) {
    // libxml2 copies each piece into its own input buffer before parsing it:
    // small pieces keep that buffer small, whatever the size of our chunks.
    static constexpr size_t kMaxPiece = 256 << 10;
    do {
      size_t piece = std::min(bytes.size(), kMaxPiece);
      bool last = terminate && piece == bytes.size();
      int result = xmlParseChunk(parser_, reinterpret_cast<const char*>(bytes.data()),
                                 static_cast<int>(piece), last ? 1 : 0);
      if (handler_.failed()) return;
      if (result != 0) {
        Fail(Status(ErrorCode::kXmlSyntax,
                    "the XML is malformed (libxml2 error " + std::to_string(result) + ")"));
        return;
      }
      bytes = bytes.subspan(piece);
    } while (!bytes.empty());
  }

  void Fail(Status status) {
    handler_.Fail(std::move(status));
    Stop();
  }
  // After every callback: the handler may have failed.
  void StopIfFailed() {
    if (handler_.failed()) Stop();
  }
  void Stop() {
    if (parser_) xmlStopParser(parser_);
  }

  static Element ElementNamed(const xmlChar* name) {
    return name ? ElementFromName(AsView(name)) : Element::kOther;
  }

  static SaxParser& Self(void* context) { return *static_cast<SaxParser*>(context); }

  static void OnStartElement(void* context, const xmlChar* localname, const xmlChar*,
                             const xmlChar*, int, const xmlChar**, int attribute_count, int,
                             const xmlChar** attributes) {
    SaxParser& self = Self(context);
    if (!self.reporting_) return;
    self.handler_.Start(localname, Attributes(attributes, attribute_count));
    self.StopIfFailed();
  }
  static void OnEndElement(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
    SaxParser& self = Self(context);
    if (!self.reporting_) return;
    self.handler_.End();
    self.StopIfFailed();
  }
  static void OnCharacters(void* context, const xmlChar* text, int length) {
    SaxParser& self = Self(context);
    if (!self.reporting_) return;
    self.handler_.Characters(text, length);
    self.StopIfFailed();
  }
  static void OnDoctype(void* context, const xmlChar*, const xmlChar*, const xmlChar*) {
    Self(context).Fail(
        Status(ErrorCode::kXmlForbidden,
               "the XML has a DOCTYPE, which xctrace exports never have; DTDs and entities are "
               "refused, not processed"));
  }
  static void OnXmlError(void* context, xmlErrorPtr error) {
    if (!error || error->level == XML_ERR_WARNING) return;
    SaxParser& self = Self(context);
    if (self.handler_.failed()) return;
    std::string message = error->message ? error->message : "malformed XML";
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    Status status(ErrorCode::kXmlSyntax, "the XML is malformed: " + message);
    if (error->line > 0) status.WithLine(static_cast<uint64_t>(error->line));
    self.Fail(std::move(status));
  }

  Handler& handler_;
  xmlParserCtxtPtr parser_ = nullptr;
  bool reporting_ = true;
};

}  // namespace instrumentscope::xctrace_xml

#endif  // INSTRUMENTSCOPE_FORMATS_XCTRACE_XML_SAX_PARSER_H_
