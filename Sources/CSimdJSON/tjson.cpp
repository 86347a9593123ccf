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
    document->tape = parser.doc.tape.get();
    document->strings = parser.doc.string_buf.get();
    return TJSON_OK;
}

extern "C" void tjson_trim(size_t keep_bytes) {
    simdjson::dom::parser &parser = thread_parser();
    // parser.allocate shrinks only the parser's own buffers: the document's tape (8 bytes per
    // input byte) and string buffer keep the largest size ever parsed, so a fresh parser
    // replaces both.
    if (parser.capacity() > keep_bytes || parser.doc.capacity() > keep_bytes) {
        parser = simdjson::dom::parser();
        (void)parser.allocate(keep_bytes, TJSON_MAX_DEPTH);
    }
}

extern "C" size_t tjson_capacity(void) {
    simdjson::dom::parser &parser = thread_parser();
    return parser.capacity() > parser.doc.capacity() ? parser.capacity() : parser.doc.capacity();
}
