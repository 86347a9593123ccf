// See include/tjson.h for why this shim exists.
#include "tjson.h"

#include <simdjson.h>

namespace {

// One parser per worker thread, reused across requests, with the depth limit set explicitly.
simdjson::dom::parser &thread_parser() {
    thread_local simdjson::dom::parser parser = [] {
        simdjson::dom::parser p;
        (void)p.allocate(4096, TJSON_MAX_DEPTH);
        return p;
    }();
    return parser;
}

} // namespace

extern "C" tjson_status tjson_parse(const uint8_t *bytes, size_t length, int padded,
                                    tjson_document *document, const char **message) {
    simdjson::dom::parser &parser = thread_parser();
    simdjson::dom::element root;
    simdjson::error_code error =
        parser.parse(bytes, length, padded == 0).get(root);
    *message = simdjson::error_message(error);
    switch (error) {
    case simdjson::SUCCESS:
        break;
    case simdjson::DEPTH_ERROR:
        return TJSON_TOO_DEEP;
    case simdjson::MEMALLOC:
    case simdjson::CAPACITY:
        return TJSON_CAPACITY;
    default:
        return TJSON_INVALID;
    }
    // The structural index is only needed while parsing: after a large document, give it back now
    // instead of holding it beside the tape for the rest of the request.
    if (length > (1u << 20)) {
        (void)parser.allocate(4096, TJSON_MAX_DEPTH);
    }
    document->tape = parser.doc.tape.get();
    document->strings = parser.doc.string_buf.get();
    return TJSON_OK;
}

extern "C" void tjson_trim(size_t keep_bytes) {
    simdjson::dom::parser &parser = thread_parser();
    // The parser's structural index and the document's tape and strings are sized separately.
    if (parser.capacity() > keep_bytes) {
        (void)parser.allocate(keep_bytes, TJSON_MAX_DEPTH);
    }
    if (parser.doc.capacity() > keep_bytes) {
        (void)parser.doc.allocate(keep_bytes);
    }
}
