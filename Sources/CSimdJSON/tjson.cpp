// See include/tjson.h for why this shim exists.
#include "tjson.h"

#include <simdjson.h>

#include <cstring>
#include <new>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

// An in-place parse reads up to simdjson's padding past the input: the padding Swift promises must cover it.
static_assert(TJSON_PADDING >= simdjson::SIMDJSON_PADDING, "TJSON_PADDING is below simdjson's SIMDJSON_PADDING");

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

bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

// Gives back the whole pages inside [start, start + bytes) of a live allocation; its contents there read
// as zero afterwards (MADV_DONTNEED on private anonymous memory).
void release_pages(void *start, size_t bytes) {
    long page = sysconf(_SC_PAGESIZE);
    if (start == nullptr || page <= 0) return;
    uintptr_t first = (reinterpret_cast<uintptr_t>(start) + page - 1) & ~uintptr_t(page - 1);
    uintptr_t end = (reinterpret_cast<uintptr_t>(start) + bytes) & ~uintptr_t(page - 1);
    if (end > first) (void)madvise(reinterpret_cast<void *>(first), end - first, MADV_DONTNEED);
}

// A JSON integer literal too large for 64 bits, which simdjson 3.0 refuses (NUMBER_ERROR) although
// it is valid JSON: true for digits beyond INT64_MIN (negative) or UINT64_MAX (positive).
bool beyond_64_bits(const uint8_t *digits, size_t count, bool negative) {
    const char *limit = negative ? "9223372036854775808" : "18446744073709551615";
    size_t limit_count = negative ? 19 : 20;
    if (count != limit_count) {
        return count > limit_count;
    }
    return memcmp(digits, limit, count) > 0;
}

// Copies `bytes` with every integer literal beyond 64 bits written as a decimal ("…​.0"), so
// that simdjson reads it as a double, as JavaScript's JSON.parse does. Strings are copied as
// they are. False when there is no such literal (the document is invalid for another reason).
bool widen_big_integers(const uint8_t *bytes, size_t length, std::string &out) {
    bool widened = false;
    out.clear();
    out.reserve(length + 64);
    size_t i = 0;
    while (i < length) {
        uint8_t c = bytes[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < length && bytes[j] != '"') {
                j += bytes[j] == '\\' ? 2 : 1;
            }
            j = j < length ? j + 1 : length;
            out.append(reinterpret_cast<const char *>(bytes + i), j - i);
            i = j;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            // One whole number token: sign, integer digits, then any fraction and exponent, so
            // that digits after '.', 'e' or '-' are never taken for an integer of their own.
            size_t start = i;
            bool negative = c == '-';
            size_t digits = negative ? i + 1 : i;
            size_t j = digits;
            while (j < length && is_digit(bytes[j])) {
                j++;
            }
            size_t integer_end = j;
            bool fraction_or_exponent = false;
            if (j < length && bytes[j] == '.') {
                fraction_or_exponent = true;
                j++;
                while (j < length && is_digit(bytes[j])) {
                    j++;
                }
            }
            if (j < length && (bytes[j] == 'e' || bytes[j] == 'E')) {
                fraction_or_exponent = true;
                j++;
                if (j < length && (bytes[j] == '+' || bytes[j] == '-')) {
                    j++;
                }
                while (j < length && is_digit(bytes[j])) {
                    j++;
                }
            }
            out.append(reinterpret_cast<const char *>(bytes + start), j - start);
            if (!fraction_or_exponent && integer_end > digits && bytes[digits] != '0' &&
                beyond_64_bits(bytes + digits, integer_end - digits, negative)) {
                out.append(".0");
                widened = true;
            }
            i = j;
            continue;
        }
        out.push_back(static_cast<char>(c));
        i++;
    }
    return widened;
}

} // namespace

extern "C" tjson_status tjson_parse(const uint8_t *bytes, size_t length, int padded,
                                    tjson_document *document, const char **message) {
    simdjson::dom::parser &parser = thread_parser();
    simdjson::dom::element root;
    simdjson::error_code error =
        parser.parse(bytes, length, padded == 0).get(root);
    if (error == simdjson::NUMBER_ERROR) {
        // Rare: retried on a copy only when the document has an integer beyond 64 bits. The
        // copy's allocation may fail: that is a capacity error, never an exception through C.
        try {
            std::string widened;
            if (widen_big_integers(bytes, length, widened)) {
                error = parser.parse(widened.data(), widened.size(), true).get(root);
            }
        } catch (const std::bad_alloc &) {
            error = simdjson::MEMALLOC;
        }
    }
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
    // The structural index is only needed while parsing: after a large document its pages go back to
    // the system now (the allocation stays for the next document, which faults them in again) instead
    // of staying resident beside the tape for the rest of the request.
    if (length > (1u << 20) && parser.implementation) {
        release_pages(parser.implementation->structural_indexes.get(),
                      (size_t(parser.implementation->n_structural_indexes) + 1) * sizeof(uint32_t));
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
