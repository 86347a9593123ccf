// The request head: what the shim checks and reports of it before the body is read (see
// tmhd_internal.h). libmicrohttpd parses the head; these rules add what it lets through.
#define _GNU_SOURCE
#include "tmhd_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char tmhd_nul_in_path;

typedef struct {
    tmhd_facts *facts;
    const char *first_content_length;
} tmhd_framing;

// RFC 3986 §2.3 unreserved and §2.2 sub-delims: the characters of a reg-name besides pct-encoded.
static int tmhd_is_host_char(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != '\0' && strchr("-._~!$&'()*+,;=", c) != NULL);
}

static int tmhd_is_hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Rule: Host is `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP-literal in
// brackets (hex digits, ':', '.', or an IPvFuture's unreserved and sub-delims), or a reg-name or
// IPv4 address (unreserved, pct-encoded, sub-delims), then optional ':' and digits. No userinfo
// ('@'), no whitespace. An empty value is allowed (a target without authority).
static int tmhd_valid_host(const char *text, size_t length) {
    size_t i = 0;
    if (length > 0 && text[0] == '[') {
        size_t close = 1;
        while (close < length && text[close] != ']') {
            unsigned char c = (unsigned char)text[close];
            if (!(tmhd_is_host_char(c) || c == ':')) {
                return 0;
            }
            close++;
        }
        if (close == length || close == 1) {
            return 0;
        }
        i = close + 1;
    } else {
        while (i < length && text[i] != ':') {
            unsigned char c = (unsigned char)text[i];
            if (c == '%') {
                if (i + 2 >= length || !tmhd_is_hex((unsigned char)text[i + 1]) ||
                    !tmhd_is_hex((unsigned char)text[i + 2])) {
                    return 0;
                }
                i += 3;
                continue;
            }
            if (!tmhd_is_host_char(c)) {
                return 0;
            }
            i++;
        }
    }
    if (i == length) {
        return 1;
    }
    if (text[i] != ':') {
        return 0;
    }
    for (i += 1; i < length; i++) {
        if (text[i] < '0' || text[i] > '9') {
            return 0;
        }
    }
    return 1;
}

// The length of "http://" or "https://" (any case) at the start of a target, else 0.
static size_t tmhd_absolute_prefix(const char *target) {
    if (strncasecmp(target, "http://", 7) == 0) {
        return 7;
    }
    return strncasecmp(target, "https://", 8) == 0 ? 8 : 0;
}

const char *tmhd_origin_path(const char *url) {
    size_t prefix = tmhd_absolute_prefix(url);
    if (prefix == 0) {
        return url;
    }
    const char *slash = strchr(url + prefix, '/');
    return slash != NULL ? slash : "/";
}

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_"
// / "`" / "|" / "~" / DIGIT / ALPHA.
static int tmhd_is_tchar(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

typedef struct {
    // Where the previous line of the head ends (its terminating NUL), as an address.
    uintptr_t line_end;
    int malformed;
} tmhd_head_walk;

// libmicrohttpd 0.9.75 keeps the head in place in its connection memory: each line's CR LF (or
// bare LF) becomes NUL bytes, and the ':' after a field name too. What it loses on the way is
// recovered from that layout: it stops a value at a raw NUL (dropping the rest of the line),
// and it appends an obs-fold continuation line to the field *name*, copied into a new block,
// so that the value no longer follows its name. Both break the layout checked here.
static enum MHD_Result tmhd_inspect_head_field(void *cls, enum MHD_ValueKind kind, const char *key,
                                               size_t key_size, const char *value,
                                               size_t value_size) {
    (void)kind;
    tmhd_head_walk *walk = cls;
    value = value ? value : "";
    // Rule: a field name is a non-empty token (no whitespace before the colon, no controls).
    int ok = key_size > 0;
    for (size_t i = 0; ok && i < key_size; i++) {
        ok = tmhd_is_tchar((unsigned char)key[i]);
    }
    // Rule: a field value holds no control character other than HTAB (RFC 9110 §5.5).
    for (size_t i = 0; ok && i < value_size; i++) {
        unsigned char c = (unsigned char)value[i];
        ok = !((c < 0x20 && c != '\t') || c == 0x7f);
    }
    // Rule: each field line starts right after the previous line's CR LF or LF (now NULs).
    uintptr_t name = (uintptr_t)key;
    if (ok) {
        ok = name == walk->line_end + 1 || (name == walk->line_end + 2 && key[-1] == '\0');
    }
    // Rule: the value follows its own name, after the colon and optional SP/HTAB only.
    uintptr_t colon = name + key_size;
    if (ok) {
        ok = (uintptr_t)value > colon;
        for (const char *p = key + key_size + 1; ok && p < value; p++) {
            ok = *p == ' ' || *p == '\t';
        }
    }
    if (!ok) {
        walk->malformed = 1;
        return MHD_NO;
    }
    walk->line_end = (uintptr_t)value + value_size;
    return MHD_YES;
}

// Rule: a request head is strict, or refused with 400 (and the connection closed) before its
// body. libmicrohttpd 0.9.75 keeps "Transfer-Encoding : chunked" under the name
// "Transfer-Encoding " and glues obs-fold lines onto the name, so it frames such a request by
// Content-Length where a lenient proxy in front may honour the chunked coding: a desync.
static int tmhd_head_is_malformed(struct MHD_Connection *connection, const char *version) {
    tmhd_head_walk walk = {(uintptr_t)version + strlen(version), 0};
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, tmhd_inspect_head_field, &walk);
    // After the last line: its CR LF, or LF and the blank line's terminator, both NULs now.
    const char *end = (const char *)walk.line_end;
    return walk.malformed || end[1] != '\0';
}

// Rule: a request target with a NUL is refused: libmicrohttpd would end the path there and
// serve the route before it. %00 in the path is flagged by the URI callback; a raw NUL ends
// the target's C string before the space that libmicrohttpd turned into the NUL before the
// HTTP version.
static int tmhd_target_has_nul(struct MHD_Connection *connection, void *first_context, const char *version) {
    if (first_context == &tmhd_nul_in_path) {
        return 1;
    }
    tmhd_link *link = tmhd_link_of(connection);
    return link != NULL && link->target_end != NULL && link->target_end + 1 != version;
}

// Sees the raw target before libmicrohttpd unescapes it; the answer becomes the first *req_cls
// (&tmhd_nul_in_path: static, so nothing leaks when libmicrohttpd refuses the request before the
// access handler).
void *tmhd_uri_seen(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    tmhd_link *link = tmhd_link_of(connection);
    size_t length = strlen(uri);
    if (link != NULL) {
        link->target_end = uri + length;
        // Rule: a target has no whitespace or control (RFC 9112 §3.2, RFC 3986 §2); an
        // absolute-form one names a valid, non-empty host (RFC 9110 §4.2.1, no userinfo §4.2.4).
        int invalid = 0;
        for (size_t i = 0; i < length && !invalid; i++) {
            unsigned char c = (unsigned char)uri[i];
            invalid = c <= 0x20 || c == 0x7f;
        }
        size_t prefix = tmhd_absolute_prefix(uri);
        if (!invalid && prefix > 0) {
            size_t authority = strcspn(uri + prefix, "/?#");
            invalid = authority == 0 || !tmhd_valid_host(uri + prefix, authority);
        }
        link->target_invalid = invalid;
    }
    size_t path = strcspn(uri, "?");
    return memmem(uri, path, "%00", 3) != NULL ? &tmhd_nul_in_path : NULL;
}

static enum MHD_Result tmhd_inspect_framing(void *cls, enum MHD_ValueKind kind, const char *key,
                                            const char *value) {
    (void)kind;
    tmhd_framing *framing = cls;
    value = value ? value : "";
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (framing->facts->content_lengths++ == 0) {
            framing->first_content_length = value;
        } else if (strcmp(framing->first_content_length, value) != 0) {
            framing->facts->conflicting_lengths = 1;
        }
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        framing->facts->transfer_encodings += 1;
        framing->facts->chunked = strcasecmp(value, "chunked") == 0;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        framing->facts->host_fields += 1;
        // The value without its optional whitespace (RFC 9110 §5.5).
        size_t start = strspn(value, " \t");
        size_t end = strlen(value);
        while (end > start && (value[end - 1] == ' ' || value[end - 1] == '\t')) {
            end--;
        }
        if (!tmhd_valid_host(value + start, end - start)) {
            framing->facts->host_invalid = 1;
        }
    }
    return MHD_YES;
}

void tmhd_gather_facts(tmhd_server *server, struct MHD_Connection *connection, void *first_context,
                       const char *version, tmhd_facts *facts) {
    memset(facts, 0, sizeof *facts);
    facts->open_connections = atomic_load_explicit(&server->open_connections, memory_order_relaxed);
    facts->nul_in_target = tmhd_target_has_nul(connection, first_context, version);
    facts->malformed_head = !facts->nul_in_target && tmhd_head_is_malformed(connection, version);
    tmhd_link *link = tmhd_link_of(connection);
    facts->target_invalid = link != NULL && link->target_invalid;
    // HTTP/1.1 and later 1.x minors require Host; libmicrohttpd refuses other major versions.
    facts->host_required = strcmp(version, MHD_HTTP_VERSION_1_0) != 0;
    tmhd_framing framing = {facts, NULL};
    MHD_get_connection_values(connection, MHD_HEADER_KIND, tmhd_inspect_framing, &framing);
    if (framing.first_content_length != NULL) {
        char *end = NULL;
        errno = 0;
        facts->declared_length = strtoull(framing.first_content_length, &end, 10);
        facts->length_overflows = errno == ERANGE;
    }
}
