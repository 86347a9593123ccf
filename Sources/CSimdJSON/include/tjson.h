// CSimdJSON: a C API over Debian's simdjson, so Swift can parse JSON at simdjson's speed.
//
// Why it exists: simdjson is C++, which this project keeps out of Swift's sight. The shim parses
// into one reusable parser per thread and hands back simdjson's tape: a flat array of 64-bit
// words in document order (the format is documented in simdjson's doc/tape.md), which the
// static inline functions below navigate without recursion and without allocating. Every
// public symbol is prefixed `tjson_`.
#ifndef TJSON_H
#define TJSON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Readable bytes that must follow the input for an in-place parse.
#define TJSON_PADDING 64
/// Deepest nesting of arrays and objects the parser accepts.
#define TJSON_MAX_DEPTH 1024

typedef struct {
    const uint64_t *tape;
    const uint8_t *strings;
} tjson_document;

typedef enum {
    TJSON_OK = 0,
    /// Nested deeper than TJSON_MAX_DEPTH.
    TJSON_TOO_DEEP = 1,
    /// Not valid JSON (syntax, UTF-8, numbers, ...): see the message.
    TJSON_INVALID = 2,
    /// Out of memory or larger than simdjson can handle.
    TJSON_CAPACITY = 3,
} tjson_status;

/// Parses `length` bytes with this thread's parser. With `padded`, TJSON_PADDING readable bytes
/// follow the input and it is parsed in place; otherwise it is copied first. The document stays
/// valid until this thread's next parse. `*message` receives simdjson's static error text. With
/// `keep_index`, simdjson's structural index (the offset of every token) stays resident for
/// tjson_byte_counts, even after a large document.
tjson_status tjson_parse(const uint8_t *bytes, size_t length, int padded, int keep_index,
                         tjson_document *document, const char **message);

/// The bytes each of `count` values of this thread's last document was written with: `starts[k]` is a
/// value's tape index and `ends[k]` the index just past it, ascending and not nested in each other.
/// One pass over the structural index from the first value to the last, stepping through the tape in
/// step (each token is one tape value, a number two tape words); parsed with `keep_index`. Afterwards
/// a large document's structural index goes back to the system, as tjson_parse does without `keep_index`.
/// `bytes` and `length` are the input that was parsed.
void tjson_byte_counts(const uint8_t *bytes, size_t length, const size_t *starts, const size_t *ends, size_t count,
                       size_t *byte_counts);

/// Frees this thread's parser memory (the parser's and the document's) if either grew past
/// `keep_bytes` of input capacity. Invalidates this thread's last document.
void tjson_trim(size_t keep_bytes);

/// The input capacity this thread's parser and document hold now, in bytes.
size_t tjson_capacity(void);

/// Tape element types, as simdjson writes them.
typedef enum {
    TJSON_ROOT = 'r',
    TJSON_OBJECT = '{',
    TJSON_OBJECT_END = '}',
    TJSON_ARRAY = '[',
    TJSON_ARRAY_END = ']',
    TJSON_STRING = '"',
    TJSON_INT64 = 'l',
    TJSON_UINT64 = 'u',
    TJSON_DOUBLE = 'd',
    TJSON_TRUE = 't',
    TJSON_FALSE = 'f',
    TJSON_NULL = 'n',
} tjson_type;

static inline tjson_type tjson_type_at(tjson_document document, size_t index) {
    return (tjson_type)(document.tape[index] >> 56);
}

static inline uint64_t tjson_payload(tjson_document document, size_t index) {
    return document.tape[index] & 0x00FFFFFFFFFFFFFFull;
}

/// The index just past the value at `index` (skips whole arrays and objects in O(1)).
static inline size_t tjson_after(tjson_document document, size_t index) {
    switch (tjson_type_at(document, index)) {
    case TJSON_OBJECT:
    case TJSON_ARRAY:
        return (size_t)(tjson_payload(document, index) & 0xFFFFFFFFu);
    case TJSON_INT64:
    case TJSON_UINT64:
    case TJSON_DOUBLE:
        return index + 2;
    default:
        return index + 1;
    }
}

/// Elements of an array or members of an object, saturated at 0xFFFFFF.
static inline size_t tjson_count(tjson_document document, size_t index) {
    return (size_t)((tjson_payload(document, index) >> 32) & 0xFFFFFFu);
}

static inline const uint8_t *tjson_string(tjson_document document, size_t index, size_t *length) {
    const uint8_t *start = document.strings + tjson_payload(document, index);
    uint32_t n;
    memcpy(&n, start, sizeof n);
    *length = n;
    return start + sizeof n;
}

/// Member names a reader looks for: their UTF-8 one after the other, where each starts (`count` + 1 entries),
/// and for each key length below `lengths` the names of that length as bits.
typedef struct {
    const uint8_t *bytes;
    const size_t *starts;
    const uint32_t *by_length;
    size_t lengths;
} tjson_keys;

/// One pass over the members of the object at `index`: for each key that is one of `keys`' names, the tape
/// index of its value goes into found[name] (so the last of duplicate keys wins); other keys are skipped.
static inline void tjson_find_members(tjson_document document, size_t index, const tjson_keys *keys, int32_t *found) {
    size_t i = index + 1;
    while (tjson_type_at(document, i) != TJSON_OBJECT_END) {
        size_t length;
        const uint8_t *key = tjson_string(document, i, &length);
        if (length < keys->lengths) {
            unsigned candidates = keys->by_length[length];
            while (candidates != 0) {
                unsigned name = (unsigned)__builtin_ctz(candidates);
                if (length == 0 || memcmp(key, keys->bytes + keys->starts[name], length) == 0) {
                    found[name] = (int32_t)(i + 1);
                    break;
                }
                candidates &= candidates - 1;
            }
        }
        i = tjson_after(document, i + 1);
    }
}

static inline int64_t tjson_int64(tjson_document document, size_t index) {
    int64_t value;
    memcpy(&value, &document.tape[index + 1], sizeof value);
    return value;
}

static inline uint64_t tjson_uint64(tjson_document document, size_t index) {
    return document.tape[index + 1];
}

static inline double tjson_double(tjson_document document, size_t index) {
    double value;
    memcpy(&value, &document.tape[index + 1], sizeof value);
    return value;
}

#ifdef __cplusplus
}
#endif

#endif
