// See include/tjson.h for why this shim exists.
#include "tjson.h"

#include <simdjson.h>

#include <array>
#include <cstring>
#include <new>
#include <string>
#include <vector>

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

// The last document's widened copy (below), when it needed one: tjson_byte_counts reads the structural index
// over it, and where it inserted ".0" (offsets in the copy, ascending) maps its offsets back to the input's.
struct last_input {
    std::string widened;
    std::vector<size_t> insertions;

    void forget() {
        std::string().swap(widened);
        std::vector<size_t>().swap(insertions);
    }
};

last_input &thread_input() {
    thread_local last_input input;
    return input;
}

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
bool widen_big_integers(const uint8_t *bytes, size_t length, std::string &out, std::vector<size_t> &insertions) {
    bool widened = false;
    out.clear();
    insertions.clear();
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
                insertions.push_back(out.size());
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

// Gives back a large document's structural index: it is needed only while parsing (and by tjson_byte_counts),
// so its pages go back to the system (the allocation stays for the next document, which faults them in again)
// instead of staying resident beside the tape for the rest of the request.
void release_index(simdjson::dom::parser &parser, size_t length) {
    if (length > (1u << 20) && parser.implementation) {
        release_pages(parser.implementation->structural_indexes.get(),
                      (size_t(parser.implementation->n_structural_indexes) + 1) * sizeof(uint32_t));
    }
}

} // namespace

extern "C" tjson_status tjson_parse(const uint8_t *bytes, size_t length, int padded, int keep_index,
                                    tjson_document *document, const char **message) {
    simdjson::dom::parser &parser = thread_parser();
    last_input &input = thread_input();
    input.forget();
    simdjson::dom::element root;
    simdjson::error_code error =
        parser.parse(bytes, length, padded == 0).get(root);
    if (error == simdjson::NUMBER_ERROR) {
        // Rare: retried on a copy only when the document has an integer beyond 64 bits. The
        // copy's allocation may fail: that is a capacity error, never an exception through C.
        try {
            if (widen_big_integers(bytes, length, input.widened, input.insertions)) {
                error = parser.parse(input.widened.data(), input.widened.size(), true).get(root);
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
    if (keep_index == 0) {
        release_index(parser, length);
        input.forget();
    }
    document->tape = parser.doc.tape.get();
    document->strings = parser.doc.string_buf.get();
    return TJSON_OK;
}

extern "C" void tjson_byte_counts(const uint8_t *input_bytes, size_t input_length, const size_t *starts,
                                  const size_t *ends, size_t count, size_t *byte_counts) {
    simdjson::dom::parser &parser = thread_parser();
    last_input &input = thread_input();
    const bool widened = !input.insertions.empty();
    const uint8_t *bytes = widened ? reinterpret_cast<const uint8_t *>(input.widened.data()) : input_bytes;
    const size_t length = widened ? input.widened.size() : input_length;
    for (size_t k = 0; k < count; k++) byte_counts[k] = 0;
    if (!parser.implementation) return;
    const uint32_t *index = parser.implementation->structural_indexes.get();
    size_t n = parser.implementation->n_structural_indexes;
    // Where a value starts and ends in the bytes parsed, less the ".0" a widened copy inserted before it.
    size_t inserted = 0;
    auto original = [&](size_t offset) {
        while (inserted < input.insertions.size() && input.insertions[inserted] < offset) inserted++;
        return offset - 2 * inserted;
    };
    // Tape words per token: none for a separator, two for a number, one for any other token.
    static const std::array<uint8_t, 256> words = [] {
        std::array<uint8_t, 256> table{};
        table.fill(1);
        table[','] = table[':'] = 0;
        table['-'] = 2;
        for (int c = '0'; c <= '9'; c++) table[c] = 2;
        return table;
    }();
    size_t s = 0, tape = 1;
    for (size_t k = 0; k < count; k++) {
        while (s < n && tape < starts[k]) tape += words[bytes[index[s++]]];
        while (s < n && words[bytes[index[s]]] == 0) s++;
        if (s >= n) break;
        size_t start = original(index[s]);
        size_t last = s;
        while (s < n && tape < ends[k]) {
            last = s;
            tape += words[bytes[index[s++]]];
        }
        // A value ends with its closing bracket, or a scalar where the next token starts, less the whitespace before it.
        size_t at = index[last];
        size_t end = at + 1;
        if (bytes[at] != '}' && bytes[at] != ']') {
            end = last + 1 < n ? index[last + 1] : length;
            while (end > at + 1 && (bytes[end - 1] == ' ' || bytes[end - 1] == '\t' || bytes[end - 1] == '\n' ||
                                    bytes[end - 1] == '\r')) {
                end--;
            }
        }
        byte_counts[k] = original(end) - start;
    }
    release_index(parser, length);
    input.forget();
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
