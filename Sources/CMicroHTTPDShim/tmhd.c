// See include/tmhd.h for why this shim exists and what it promises.
#define _GNU_SOURCE
#include "tmhd.h"

#include <errno.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

// Rule: a layout Swift reads without the C type is pinned here. TrellisHeaders reads a request's
// fields in place as (name, value) tuples of C string pointers, laid out as `const char *[2]`.
_Static_assert(sizeof(tmhd_header) == 2 * sizeof(const char *), "tmhd_header is two pointers");
_Static_assert(offsetof(tmhd_header, name) == 0 && offsetof(tmhd_header, value) == sizeof(const char *),
               "tmhd_header is its name, then its value");

// Header fields handed over without a heap allocation; more are collected on the heap.
#define TMHD_INLINE_HEADERS 64
// Bytes of an oversized body without Content-Length read (and dropped) to reach its end.
#define TMHD_MAX_DRAIN (1u << 20)

static int tmhd_reserve(const tmhd_budget *budget, size_t bytes, int force) {
    return budget->reserve == NULL || budget->reserve(budget->context, bytes, force);
}

static void tmhd_release(const tmhd_budget *budget, size_t bytes) {
    if (budget->release != NULL && bytes > 0) {
        budget->release(budget->context, bytes);
    }
}

// How often the watcher looks for connections past their deadline and at freed memory.
#define TMHD_WATCH_INTERVAL_MS 250
// The body gate (tmhd_gate_*): a body past TMHD_GATE_FROM bytes is read on only while it holds one
// of its worker thread's places, for at most gate_hold_ms (TMHD_GATE_HOLD_MS unless set).
#define TMHD_GATE_FROM (64u << 10)
#define TMHD_GATE_HOLD_MS 1000u
#define TMHD_GATE_PLACES_PER_THREAD 2u
// Freed memory malloc may keep for the next requests while some are in flight, and when none is.
#define TMHD_KEEP_FREE_BUSY (8u << 20)
#define TMHD_KEEP_FREE_IDLE (1u << 20)

// One per open connection (its socket_context): from MHD_CONNECTION_NOTIFY_STARTED to
// MHD_CONNECTION_NOTIFY_CLOSED, listed in the server's `links` under `links_mutex`.
typedef struct tmhd_link {
    struct tmhd_link *prev;
    struct tmhd_link *next;
    int fd;
    // Monotonic milliseconds by which the current phase must end: the next request head
    // complete (--header-timeout), the body received (--body-timeout), the answer taken by the
    // client (--send-timeout); 0 while the handler computes (or when there is no deadline).
    atomic_uint_least64_t deadline;
    // Set once the watcher has shut the socket down (under links_mutex).
    int shut;
    // Where the request target's C string ends, as the URI callback saw it.
    const char *target_end;
    // The raw target has whitespace or a control, or a bad absolute-form authority.
    int target_invalid;
} tmhd_link;

// Handler calls tracked by the heartbeat at once: one per worker thread (with one thread per
// connection, the first TMHD_MAX_BUSY_SLOTS calls in progress).
#define TMHD_MAX_BUSY_SLOTS 256

struct tmhd_server {
    struct MHD_Daemon *daemon;
    tmhd_options options;
    atomic_uint open_connections;
    atomic_uint in_flight;
    // Requests completed so far; the watcher trims only after some completed since it last did.
    atomic_uint_least64_t completed;
    pthread_mutex_t links_mutex;
    pthread_cond_t watcher_wake;
    tmhd_link *links;
    // The heartbeat: per slot, the monotonic milliseconds its handler call began (0: free).
    atomic_uint_least64_t busy_since[TMHD_MAX_BUSY_SLOTS];
    unsigned int busy_slots;
    // The body gates, one per worker thread (none with one thread per connection), under
    // gate_mutex; gates_taken counts those a thread has made its own. gate_open lets every body
    // through while the server stops.
    pthread_mutex_t gate_mutex;
    struct tmhd_gate *gates;
    unsigned int gate_count;
    atomic_uint gates_taken;
    int gate_open;
    int stopping;
    int watching;
    pthread_t watcher;
};

// The URI callback's answer for a target whose path holds %00: the request's first *req_cls.
// Static, so nothing leaks when libmicrohttpd refuses the request before the access handler.
static char tmhd_nul_in_path;

// One per request: lives from the first access-handler call to MHD_OPTION_NOTIFY_COMPLETED.
struct tmhd_exchange {
    struct MHD_Connection *connection;
    tmhd_server *server;
    uint8_t *body;
    size_t length;
    size_t capacity;
    tmhd_rejection rejection;
    size_t drained;
    int responded;
    // The Content-Length, when the body has one (it is then at most max_body_bytes).
    int has_declared_length;
    size_t declared_length;
    // Where the body stands at the gate (tmhd_gate_state); changed under gate_mutex once past NONE.
    atomic_int gate;
    struct tmhd_gate *gate_of;
    uint64_t gate_since;
    struct tmhd_exchange *gate_prev;
    struct tmhd_exchange *gate_next;
};

typedef enum {
    TMHD_GATE_NONE = 0,    // not at the gate yet (a small body, or not past TMHD_GATE_FROM)
    TMHD_GATE_HOLDING = 1, // read on, holding a place
    TMHD_GATE_WAITING = 2, // its connection suspended until a place is free
    TMHD_GATE_PASSED = 3,  // place given back (body complete or dropped) or its hold ran out: read on
} tmhd_gate_state;

// One worker thread's gate: the exchanges holding its places (listed by gate_prev and gate_next)
// and those waiting for one, first come first (by gate_next), their connections suspended.
typedef struct tmhd_gate {
    unsigned int held;
    tmhd_exchange *holders;
    tmhd_exchange *first_waiting;
    tmhd_exchange *last_waiting;
} tmhd_gate;

// The gate of the worker thread running this call (libmicrohttpd keeps a connection on one thread).
static _Thread_local tmhd_gate *tmhd_thread_gate;

static const uint8_t tmhd_empty_body[TMHD_BODY_PADDING];

int tmhd_listen(const char *host, uint16_t port, uint16_t *bound_port) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);
    struct addrinfo *results = NULL;
    int rc = getaddrinfo(host, service, &hints, &results);
    if (rc != 0) {
        errno = EADDRNOTAVAIL;
        return -1;
    }
    int fd = -1;
    int saved_errno = EADDRNOTAVAIL;
    for (struct addrinfo *ai = results; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved_errno = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1024) == 0) {
            break;
        }
        saved_errno = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(results);
    if (fd < 0) {
        errno = saved_errno;
        return -1;
    }
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) == 0) {
        if (address.ss_family == AF_INET) {
            *bound_port = ntohs(((struct sockaddr_in *)&address)->sin_port);
        } else if (address.ss_family == AF_INET6) {
            *bound_port = ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
        }
    }
    return fd;
}

typedef struct {
    tmhd_header *items;
    size_t count;
    size_t capacity;
} tmhd_header_list;

static enum MHD_Result tmhd_collect_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                           const char *value) {
    (void)kind;
    tmhd_header_list *list = cls;
    if (list->count == list->capacity) {
        return MHD_NO;
    }
    list->items[list->count].name = key;
    list->items[list->count].value = value ? value : "";
    list->count += 1;
    return MHD_YES;
}

static uint64_t tmhd_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

static tmhd_link *tmhd_link_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

// Takes a free heartbeat slot (its value the call's start, never 0); busy_slots when none is free.
static unsigned int tmhd_claim_busy_slot(tmhd_server *server, uint64_t started) {
    for (unsigned int i = 0; i < server->busy_slots; i++) {
        uint_least64_t expected = 0;
        if (atomic_compare_exchange_strong_explicit(&server->busy_since[i], &expected, started ? started : 1,
                                                    memory_order_acq_rel, memory_order_relaxed)) {
            return i;
        }
    }
    return server->busy_slots;
}

uint64_t tmhd_longest_busy_ms(const tmhd_server *server) {
    tmhd_server *mutable_server = (tmhd_server *)server;
    uint64_t now = tmhd_now_ms();
    uint64_t longest = 0;
    for (unsigned int i = 0; i < server->busy_slots; i++) {
        uint64_t since = atomic_load_explicit(&mutable_server->busy_since[i], memory_order_acquire);
        if (since != 0 && now > since && now - since > longest) {
            longest = now - since;
        }
    }
    return longest;
}

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

// Rule: an absolute-form target (RFC 9112 §3.2.2) is served as its path ("/" when it has none).
static const char *tmhd_origin_path(const char *url) {
    size_t prefix = tmhd_absolute_prefix(url);
    if (prefix == 0) {
        return url;
    }
    const char *slash = strchr(url + prefix, '/');
    return slash != NULL ? slash : "/";
}

static void tmhd_start_deadline(tmhd_link *link, unsigned int seconds);
static void tmhd_free_body(tmhd_exchange *exchange);

// The body gate. Why: libmicrohttpd reads every connection's upload a buffer at a time in turn,
// so N large bodies sent at once all grow together and are all held whole at the same moment
// (32 concurrent 1 MiB bodies: 32 MiB). Past TMHD_GATE_FROM bytes a body is read on only while
// it holds a place; the others wait suspended, first come first, and read nothing meanwhile.
// A place is given back when the body is complete or dropped, or after its hold (1 s),
// whatever the client's pace: a slow sender then goes on without a place (bounded by the
// budget and --body-timeout as before), so no client can keep the others waiting for long.

// Under gate_mutex: `exchange` takes a place at `gate`.
static void tmhd_gate_hold(tmhd_gate *gate, tmhd_exchange *exchange) {
    atomic_store_explicit(&exchange->gate, TMHD_GATE_HOLDING, memory_order_relaxed);
    exchange->gate_since = tmhd_now_ms();
    exchange->gate_prev = NULL;
    exchange->gate_next = gate->holders;
    if (gate->holders != NULL) {
        gate->holders->gate_prev = exchange;
    }
    gate->holders = exchange;
    gate->held++;
}

// Under gate_mutex: the bodies waiting at `gate` take its free places, in order, and are read on:
// their connections resume, with a fresh --body-timeout (the wait was the server's, not theirs).
static void tmhd_gate_pass_on(tmhd_server *server, tmhd_gate *gate) {
    while (gate->first_waiting != NULL && (server->gate_open || gate->held < TMHD_GATE_PLACES_PER_THREAD)) {
        tmhd_exchange *next = gate->first_waiting;
        gate->first_waiting = next->gate_next;
        if (gate->first_waiting == NULL) {
            gate->last_waiting = NULL;
        }
        tmhd_gate_hold(gate, next);
        tmhd_link *link = tmhd_link_of(next->connection);
        if (link != NULL) {
            tmhd_start_deadline(link, server->options.body_timeout);
        }
        MHD_resume_connection(next->connection);
    }
}

// Under gate_mutex: a holder gives its place back.
static void tmhd_gate_leave(tmhd_server *server, tmhd_exchange *exchange) {
    tmhd_gate *gate = exchange->gate_of;
    if (exchange->gate_prev != NULL) {
        exchange->gate_prev->gate_next = exchange->gate_next;
    } else {
        gate->holders = exchange->gate_next;
    }
    if (exchange->gate_next != NULL) {
        exchange->gate_next->gate_prev = exchange->gate_prev;
    }
    gate->held--;
    atomic_store_explicit(&exchange->gate, TMHD_GATE_PASSED, memory_order_relaxed);
    tmhd_gate_pass_on(server, gate);
}

// Rule: a body past TMHD_GATE_FROM bytes goes on being read only with a place of its thread's
// gate. 1: read on now; 0: its connection is suspended (in the mutex, so that no one resumes it
// before) until a place frees.
static int tmhd_gate_enter(tmhd_exchange *exchange) {
    tmhd_server *server = exchange->server;
    if (tmhd_thread_gate == NULL) {
        unsigned int taken = atomic_fetch_add_explicit(&server->gates_taken, 1, memory_order_relaxed);
        if (taken < server->gate_count) {
            tmhd_thread_gate = &server->gates[taken];
        }
    }
    tmhd_gate *gate = tmhd_thread_gate;
    if (gate == NULL) {
        atomic_store_explicit(&exchange->gate, TMHD_GATE_PASSED, memory_order_relaxed);
        return 1;
    }
    exchange->gate_of = gate;
    pthread_mutex_lock(&server->gate_mutex);
    if (server->gate_open || gate->held < TMHD_GATE_PLACES_PER_THREAD) {
        tmhd_gate_hold(gate, exchange);
        pthread_mutex_unlock(&server->gate_mutex);
        return 1;
    }
    atomic_store_explicit(&exchange->gate, TMHD_GATE_WAITING, memory_order_relaxed);
    exchange->gate_next = NULL;
    if (gate->last_waiting != NULL) {
        gate->last_waiting->gate_next = exchange;
    } else {
        gate->first_waiting = exchange;
    }
    gate->last_waiting = exchange;
    tmhd_link *link = tmhd_link_of(exchange->connection);
    if (link != NULL) {
        atomic_store_explicit(&link->deadline, 0, memory_order_relaxed);
    }
    MHD_suspend_connection(exchange->connection);
    pthread_mutex_unlock(&server->gate_mutex);
    return 0;
}

// The body is complete or dropped: its place (if it holds one) goes to the next waiting body.
static void tmhd_gate_release(tmhd_exchange *exchange) {
    tmhd_server *server = exchange->server;
    int state = atomic_load_explicit(&exchange->gate, memory_order_relaxed);
    if (state == TMHD_GATE_NONE || state == TMHD_GATE_PASSED) {
        return;
    }
    pthread_mutex_lock(&server->gate_mutex);
    state = atomic_load_explicit(&exchange->gate, memory_order_relaxed);
    if (state == TMHD_GATE_HOLDING) {
        tmhd_gate_leave(server, exchange);
    } else if (state == TMHD_GATE_WAITING) {
        // Only when libmicrohttpd ends a suspended connection itself (it does not while running).
        tmhd_gate *gate = exchange->gate_of;
        tmhd_exchange **at = &gate->first_waiting;
        tmhd_exchange *before = NULL;
        while (*at != NULL && *at != exchange) {
            before = *at;
            at = &(*at)->gate_next;
        }
        if (*at == exchange) {
            *at = exchange->gate_next;
            if (gate->last_waiting == exchange) {
                gate->last_waiting = before;
            }
        }
        atomic_store_explicit(&exchange->gate, TMHD_GATE_PASSED, memory_order_relaxed);
    }
    pthread_mutex_unlock(&server->gate_mutex);
}

// The watcher: places held past their hold are given back (those bodies read on without).
static void tmhd_gate_expire(tmhd_server *server) {
    uint64_t now = tmhd_now_ms();
    uint64_t hold = server->options.gate_hold_ms ? server->options.gate_hold_ms : TMHD_GATE_HOLD_MS;
    pthread_mutex_lock(&server->gate_mutex);
    for (unsigned int i = 0; i < server->gate_count; i++) {
        tmhd_exchange *exchange = server->gates[i].holders;
        while (exchange != NULL) {
            tmhd_exchange *next = exchange->gate_next;
            if (now - exchange->gate_since >= hold) {
                tmhd_gate_leave(server, exchange);
            }
            exchange = next;
        }
    }
    pthread_mutex_unlock(&server->gate_mutex);
}

// Stopping: every waiting body is let through (libmicrohttpd must not stop with suspended connections).
static void tmhd_gate_open(tmhd_server *server) {
    pthread_mutex_lock(&server->gate_mutex);
    server->gate_open = 1;
    for (unsigned int i = 0; i < server->gate_count; i++) {
        tmhd_gate_pass_on(server, &server->gates[i]);
    }
    pthread_mutex_unlock(&server->gate_mutex);
}

static enum MHD_Result tmhd_dispatch(tmhd_exchange *exchange, const char *url, const char *method) {
    // Rule: every header field reaches the handler, however many libmicrohttpd accepted
    // (its per-connection memory bounds them), so none is silently dropped.
    tmhd_header inline_items[TMHD_INLINE_HEADERS];
    tmhd_header_list headers = {inline_items, 0, TMHD_INLINE_HEADERS};
    int total = MHD_get_connection_values(exchange->connection, MHD_HEADER_KIND, NULL, NULL);
    if (total > TMHD_INLINE_HEADERS) {
        headers.items = malloc((size_t)total * sizeof *headers.items);
        if (headers.items == NULL) {
            return MHD_NO;
        }
        headers.capacity = (size_t)total;
    }
    MHD_get_connection_values(exchange->connection, MHD_HEADER_KIND, tmhd_collect_header, &headers);
    tmhd_request request = {
        .method = method,
        .path = tmhd_origin_path(url),
        .headers = headers.items,
        .header_count = headers.count,
        .body = exchange->body ? exchange->body : tmhd_empty_body,
        .body_length = exchange->length,
        .rejection = exchange->rejection,
    };
    tmhd_server *server = exchange->server;
    tmhd_options *options = &server->options;
    tmhd_gate_release(exchange);
    // Rule: the body has arrived: no deadline while the handler computes (--request-timeout
    // bounds that), the send deadline starts when the answer is queued.
    tmhd_link *link = tmhd_link_of(exchange->connection);
    if (link != NULL) {
        atomic_store_explicit(&link->deadline, 0, memory_order_relaxed);
    }
    // Rule: the heartbeat: a worker holds a slot with its start time while in the handler.
    uint64_t started = tmhd_now_ms();
    unsigned int slot = tmhd_claim_busy_slot(server, started);
    options->handler(options->context, &request, exchange);
    if (slot < server->busy_slots) {
        atomic_store_explicit(&server->busy_since[slot], 0, memory_order_release);
    }
    if (headers.items != inline_items) {
        free(headers.items);
    }
    // Rule: a body is held only while its handler runs, not while the answer drains.
    tmhd_free_body(exchange);
    if (!exchange->responded) {
        static const tmhd_header fallback[] = {{"Content-Type", "text/plain"}};
        static const char text[] = "internal error\n";
        return tmhd_respond(exchange, 500, fallback, 1, (const uint8_t *)text, sizeof text - 1, TMHD_BODY_COPY,
                            sizeof text - 1, 1) == 0
                   ? MHD_YES
                   : MHD_NO;
    }
    return MHD_YES;
}

typedef struct {
    tmhd_facts *facts;
    const char *first_content_length;
} tmhd_framing;

// The current phase of `link` must end `seconds` from now (0: no deadline).
static void tmhd_start_deadline(tmhd_link *link, unsigned int seconds) {
    atomic_store_explicit(&link->deadline, seconds ? tmhd_now_ms() + (uint64_t)seconds * 1000u : 0,
                          memory_order_relaxed);
}

// Rule: the next request head is due --header-timeout seconds from now (0: never).
static void tmhd_start_header_deadline(tmhd_server *server, tmhd_link *link) {
    tmhd_start_deadline(link, server->options.header_timeout);
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

// Sees the raw target before libmicrohttpd unescapes it; the answer becomes the first *req_cls.
static void *tmhd_uri_seen(void *cls, const char *uri, struct MHD_Connection *connection) {
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

// The facts of a complete request head, for the policy.
static void tmhd_gather_facts(tmhd_server *server, struct MHD_Connection *connection, void *first_context,
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

// Rule: the body accumulates across calls under max_body_bytes, plus zeroed padding after it.
// 1 when appended, 0 past max_body_bytes, -1 when memory (the budget or malloc) runs out.
static int tmhd_append(tmhd_exchange *exchange, const char *data, size_t size) {
    size_t limit = exchange->server->options.max_body_bytes;
    if (size > limit || exchange->length > limit - size) {
        return 0;
    }
    size_t needed = exchange->length + size;
    if (needed + TMHD_BODY_PADDING > exchange->capacity) {
        size_t capacity = exchange->capacity ? exchange->capacity * 2 : 4096;
        while (capacity < needed + TMHD_BODY_PADDING) {
            capacity *= 2;
        }
        if (capacity > limit + TMHD_BODY_PADDING) {
            capacity = limit + TMHD_BODY_PADDING;
        }
        // A declared length is the most a body grows to (one past it is refused by libmicrohttpd).
        if (exchange->has_declared_length && needed <= exchange->declared_length &&
            capacity > exchange->declared_length + TMHD_BODY_PADDING) {
            capacity = exchange->declared_length + TMHD_BODY_PADDING;
        }
        // Rule: a body's buffer grows only within the memory budget.
        const tmhd_budget *budget = &exchange->server->options.budget;
        if (!tmhd_reserve(budget, capacity - exchange->capacity, 0)) {
            return -1;
        }
        uint8_t *grown = realloc(exchange->body, capacity);
        if (grown == NULL) {
            tmhd_release(budget, capacity - exchange->capacity);
            return -1;
        }
        exchange->body = grown;
        exchange->capacity = capacity;
    }
    memcpy(exchange->body + exchange->length, data, size);
    exchange->length = needed;
    memset(exchange->body + needed, 0, TMHD_BODY_PADDING);
    return 1;
}

static void tmhd_free_body(tmhd_exchange *exchange) {
    tmhd_gate_release(exchange);
    free(exchange->body);
    tmhd_release(&exchange->server->options.budget, exchange->capacity);
    exchange->body = NULL;
    exchange->length = 0;
    exchange->capacity = 0;
}

// libmicrohttpd 0.9.75 misses a client's close that arrives together with the last bytes it
// reads (with epoll and with poll alike; its own bare servers show it too): the connection then
// sits in CLOSE-WAIT, holding the request, until the idle timeout. With a Content-Length, it has
// passed every byte it holds to the handler, so when the body is still short and the socket
// reads end-of-stream, the rest can never come.
static int tmhd_client_closed(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) {
        return 0;
    }
    char byte;
    return recv(info->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

static enum MHD_Result tmhd_access(void *cls, struct MHD_Connection *connection, const char *url,
                                   const char *method, const char *version,
                                   const char *upload_data, size_t *upload_data_size,
                                   void **req_cls) {
    tmhd_server *server = cls;
    tmhd_exchange *exchange = *req_cls == &tmhd_nul_in_path ? NULL : *req_cls;
    if (exchange == NULL) {
        // Rule: the head is complete: its deadline gives way to the body's (--body-timeout),
        // however slowly the body trickles.
        tmhd_link *link = tmhd_link_of(connection);
        if (link != NULL) {
            tmhd_start_deadline(link, server->options.body_timeout);
        }
        tmhd_facts facts;
        tmhd_gather_facts(server, connection, *req_cls, version, &facts);
        exchange = calloc(1, sizeof *exchange);
        if (exchange == NULL) {
            return MHD_NO;
        }
        exchange->connection = connection;
        exchange->server = server;
        atomic_fetch_add_explicit(&server->in_flight, 1, memory_order_relaxed);
        *req_cls = exchange;
        // Rule: the policy decides from the head's facts, before any of the body is read.
        exchange->rejection = server->options.policy(server->options.context, &facts);
        if (exchange->rejection != TMHD_REJECT_NONE) {
            return tmhd_dispatch(exchange, url, method);
        }
        if (facts.content_lengths > 0) {
            exchange->has_declared_length = 1;
            exchange->declared_length = (size_t)facts.declared_length;
        }
        return MHD_YES;
    }
    if (exchange->responded) {
        // An early answer (413/503) was queued: libmicrohttpd closes the connection after it.
        return MHD_NO;
    }
    if (*upload_data_size > 0) {
        if (exchange->rejection == TMHD_REJECT_BODY_TOO_LARGE || exchange->rejection == TMHD_REJECT_MEMORY) {
            // libmicrohttpd 0.9.75 can queue a response only before the body or after all of
            // it: drain a bounded amount to answer 413 or 503, and cut the connection past that.
            // A declared body that memory ran out for is drained to its end (at most
            // max_body_bytes, held nowhere), so that its client is told to retry, not reset.
            size_t allowance = exchange->rejection == TMHD_REJECT_MEMORY && exchange->has_declared_length
                                   ? exchange->declared_length
                                   : TMHD_MAX_DRAIN;
            exchange->drained += *upload_data_size;
            *upload_data_size = 0;
            return exchange->drained > allowance ? MHD_NO : MHD_YES;
        }
        int appended = tmhd_append(exchange, upload_data, *upload_data_size);
        if (appended != 1) {
            // Rule: a body without Content-Length is refused once the bytes received pass the
            // cap, any body once memory runs out; what was received is dropped at once.
            tmhd_free_body(exchange);
            exchange->rejection = appended == 0 ? TMHD_REJECT_BODY_TOO_LARGE : TMHD_REJECT_MEMORY;
        }
        *upload_data_size = 0;
        // Rule: an upload its client abandoned is dropped at once (freeing its body), not
        // when the idle timeout ends the connection.
        if (exchange->has_declared_length && exchange->length < exchange->declared_length &&
            tmhd_client_closed(connection)) {
            return MHD_NO;
        }
        // Rule: a large body still arriving waits at the gate for a place (a complete one doesn't).
        if (appended == 1 && exchange->length >= TMHD_GATE_FROM &&
            atomic_load_explicit(&exchange->gate, memory_order_relaxed) == TMHD_GATE_NONE &&
            !(exchange->has_declared_length && exchange->length == exchange->declared_length)) {
            tmhd_gate_enter(exchange);
        }
        return MHD_YES;
    }
    return tmhd_dispatch(exchange, url, method);
}

// An answer's memory and the budget it counts against, freed together once libmicrohttpd is done.
typedef struct {
    void *body;
    size_t held_bytes;
    const tmhd_budget *budget;
} tmhd_held_body;

static void tmhd_free_held(void *cls) {
    tmhd_held_body *held = cls;
    free(held->body);
    tmhd_release(held->budget, held->held_bytes);
    free(held);
}

int tmhd_respond(tmhd_exchange *exchange, unsigned int status, const tmhd_header *headers,
                 size_t header_count, const uint8_t *body, size_t body_length,
                 tmhd_body_ownership ownership, size_t held_bytes, int close_connection) {
    // Rule: an answer counts against the memory budget until it is sent or abandoned; a taken
    // body's reservation comes with it, a copy's is taken here.
    const tmhd_budget *budget = &exchange->server->options.budget;
    void *owned = (void *)body;
    if (ownership == TMHD_BODY_COPY) {
        owned = malloc(body_length ? body_length : 1);
        if (owned == NULL) {
            return -1;
        }
        if (body_length) {
            memcpy(owned, body, body_length);
        }
        held_bytes = body_length;
        tmhd_reserve(budget, held_bytes, 1);
    } else if (owned == NULL) {
        return -1;
    }
    tmhd_held_body *held = malloc(sizeof *held);
    if (held == NULL) {
        free(owned);
        tmhd_release(budget, held_bytes);
        return -1;
    }
    *held = (tmhd_held_body){owned, held_bytes, budget};
    struct MHD_Response *response =
        MHD_create_response_from_buffer_with_free_callback_cls(body_length, owned, tmhd_free_held, held);
    if (response == NULL) {
        tmhd_free_held(held);
        return -1;
    }
    for (size_t i = 0; i < header_count; i++) {
        MHD_add_response_header(response, headers[i].name, headers[i].value);
    }
    if (close_connection || exchange->rejection != TMHD_REJECT_NONE) {
        MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    }
    enum MHD_Result queued = MHD_queue_response(exchange->connection, status, response);
    MHD_destroy_response(response);
    exchange->responded = 1;
    // Rule: the client has --send-timeout to take the answer, however slowly it reads.
    tmhd_link *link = tmhd_link_of(exchange->connection);
    if (link != NULL && queued == MHD_YES) {
        tmhd_start_deadline(link, exchange->server->options.send_timeout);
    }
    return queued == MHD_YES ? 0 : -1;
}

static void tmhd_completed(void *cls, struct MHD_Connection *connection, void **req_cls,
                           enum MHD_RequestTerminationCode code) {
    (void)code;
    tmhd_server *server = cls;
    // Rule: keep-alive: the next head is due --header-timeout after this answer's end.
    tmhd_link *link = tmhd_link_of(connection);
    if (link != NULL) {
        tmhd_start_header_deadline(server, link);
    }
    tmhd_exchange *exchange = *req_cls;
    if (exchange == NULL || *req_cls == &tmhd_nul_in_path) {
        *req_cls = NULL;
        return;
    }
    tmhd_free_body(exchange);
    free(exchange);
    *req_cls = NULL;
    atomic_fetch_sub_explicit(&server->in_flight, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&server->completed, 1, memory_order_relaxed);
}

static void tmhd_connection_changed(void *cls, struct MHD_Connection *connection, void **socket_context,
                                    enum MHD_ConnectionNotificationCode code) {
    tmhd_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        atomic_fetch_add_explicit(&server->open_connections, 1, memory_order_relaxed);
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        tmhd_link *link = calloc(1, sizeof *link);
        if (link == NULL) {
            // Rule: a connection the shim cannot track (no deadline, no NUL check) is refused.
            if (info != NULL) {
                shutdown(info->connect_fd, SHUT_RDWR);
            }
            return;
        }
        link->fd = info != NULL ? info->connect_fd : -1;
        tmhd_start_header_deadline(server, link);
        pthread_mutex_lock(&server->links_mutex);
        link->next = server->links;
        if (server->links != NULL) {
            server->links->prev = link;
        }
        server->links = link;
        pthread_mutex_unlock(&server->links_mutex);
        *socket_context = link;
    } else {
        atomic_fetch_sub_explicit(&server->open_connections, 1, memory_order_relaxed);
        tmhd_link *link = *socket_context;
        if (link == NULL) {
            return;
        }
        // libmicrohttpd 0.9.75 sends this notification before it closes the socket (in
        // MHD_cleanup_connections and on internal_add_connection's failure path alike), so
        // while a link is listed under links_mutex its fd is still this connection's.
        pthread_mutex_lock(&server->links_mutex);
        if (link->prev != NULL) {
            link->prev->next = link->next;
        } else {
            server->links = link->next;
        }
        if (link->next != NULL) {
            link->next->prev = link->prev;
        }
        pthread_mutex_unlock(&server->links_mutex);
        free(link);
        *socket_context = NULL;
    }
}

// Rule: a connection past its deadline (head, body or answer not through in time) is shut down,
// however slowly it trickles (each byte restarts libmicrohttpd's idle timeout, not these).
// Only listed links are touched, under the mutex their close notification takes, so a reused
// fd number is never shut down; libmicrohttpd then sees the end of stream and closes it.
// What the watcher knows of completed requests: the count it saw last round and at its last trim.
typedef struct {
    uint64_t seen;
    uint64_t trimmed_at;
} tmhd_trim_state;

// Rule: memory that requests freed stays with malloc for the next ones (no fresh mapping and
// page faults for every large body, tape and answer) while requests are in flight, up to
// TMHD_KEEP_FREE_BUSY free bytes; once the server is idle for a whole round (the last
// requests' frees are done) all but TMHD_KEEP_FREE_IDLE goes back. malloc_trim gives back the
// free pages of every arena, however fragmented.
static void tmhd_give_back_memory(tmhd_server *server, tmhd_trim_state *state) {
    uint64_t completed = atomic_load_explicit(&server->completed, memory_order_relaxed);
    int idle = atomic_load_explicit(&server->in_flight, memory_order_relaxed) == 0;
    int settled = completed == state->seen;
    state->seen = completed;
    if (completed == state->trimmed_at || (idle && !settled)) {
        return;
    }
    if (mallinfo2().fordblks > (idle ? TMHD_KEEP_FREE_IDLE : TMHD_KEEP_FREE_BUSY)) {
        malloc_trim(0);
        state->trimmed_at = completed;
    }
}

static void *tmhd_watch(void *argument) {
    tmhd_server *server = argument;
    tmhd_trim_state trim = {0, 0};
    pthread_mutex_lock(&server->links_mutex);
    while (!server->stopping) {
        uint64_t now = tmhd_now_ms();
        for (tmhd_link *link = server->links; link != NULL; link = link->next) {
            uint64_t deadline = atomic_load_explicit(&link->deadline, memory_order_relaxed);
            if (deadline != 0 && now >= deadline && !link->shut && link->fd >= 0) {
                shutdown(link->fd, SHUT_RDWR);
                link->shut = 1;
            }
        }
        // Trimming may take a while: connections open and close meanwhile.
        pthread_mutex_unlock(&server->links_mutex);
        tmhd_gate_expire(server);
        if (!server->options.leave_memory) {
            tmhd_give_back_memory(server, &trim);
        }
        pthread_mutex_lock(&server->links_mutex);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += TMHD_WATCH_INTERVAL_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&server->watcher_wake, &server->links_mutex, &until);
    }
    pthread_mutex_unlock(&server->links_mutex);
    return NULL;
}

// Blocks up to glibc's largest fixed threshold (32 MiB on 64-bit) come from malloc's arenas and
// are reused by the next requests; the watcher gives free memory back (tmhd_give_back_memory).
#define TMHD_MMAP_THRESHOLD (32u << 20)
// A free shrinks an arena's top once it passes this: malloc_trim can't shrink a thread arena's
// top, so this bounds what each keeps; smaller (4 MiB) brought the page faults back at 1 MiB.
#define TMHD_TRIM_THRESHOLD (8u << 20)

static void tmhd_free(tmhd_server *server) {
    pthread_mutex_destroy(&server->gate_mutex);
    free(server->gates);
    pthread_cond_destroy(&server->watcher_wake);
    pthread_mutex_destroy(&server->links_mutex);
    free(server);
}

tmhd_server *tmhd_start(const tmhd_options *options) {
    // Rule: memory held for large requests is reused while the server is busy and goes back to
    // the system soon after (the watcher). Fixed thresholds turn off glibc's own adjustments,
    // which keep freed memory in arenas indefinitely (mallopt is process-wide: the server owns
    // this process).
    mallopt(M_MMAP_THRESHOLD, (int)TMHD_MMAP_THRESHOLD);
    mallopt(M_TRIM_THRESHOLD, (int)TMHD_TRIM_THRESHOLD);
    tmhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        return NULL;
    }
    server->options = *options;
    server->busy_slots = options->threads > 0 && options->threads < TMHD_MAX_BUSY_SLOTS ? options->threads
                                                                                         : TMHD_MAX_BUSY_SLOTS;
    pthread_condattr_t condition;
    pthread_condattr_init(&condition);
    pthread_condattr_setclock(&condition, CLOCK_MONOTONIC);
    pthread_cond_init(&server->watcher_wake, &condition);
    pthread_condattr_destroy(&condition);
    pthread_mutex_init(&server->links_mutex, NULL);
    pthread_mutex_init(&server->gate_mutex, NULL);
    // One gate per worker thread; none with a thread per connection (the threads read apart).
    if (options->threads > 0) {
        server->gates = calloc(options->threads, sizeof *server->gates);
        if (server->gates == NULL) {
            tmhd_free(server);
            return NULL;
        }
        server->gate_count = options->threads;
    }
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
    if (options->threads == 0) {
        flags |= MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    } else {
        flags |= MHD_USE_EPOLL;
    }
    // libmicrohttpd's own limit stays a little above ours: it is the backstop that drops.
    unsigned int backstop = options->max_connections + options->max_connections / 8 + 16;
    struct MHD_OptionItem items[] = {
        {MHD_OPTION_LISTEN_SOCKET, options->listen_fd, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)backstop, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)options->connection_timeout, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)options->connection_memory_limit, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)tmhd_completed, server},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)tmhd_connection_changed, server},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)tmhd_uri_seen, server},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)options->max_connections_per_ip, NULL},
        // Rule: Host and the target are checked here (RFC 9112 §3.2): libmicrohttpd's strict
        // mode would answer a missing Host itself, with its head written twice.
        {MHD_OPTION_STRICT_FOR_CLIENT, 0, NULL},
        {options->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
         (intptr_t)options->threads, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    server->daemon = MHD_start_daemon(flags, 0, NULL, NULL, tmhd_access, server, MHD_OPTION_ARRAY,
                                      items, MHD_OPTION_END);
    if (server->daemon == NULL) {
        int saved = errno;
        tmhd_free(server);
        errno = saved;
        return NULL;
    }
    int failed = pthread_create(&server->watcher, NULL, tmhd_watch, server);
    if (failed) {
        MHD_stop_daemon(server->daemon);
        tmhd_free(server);
        errno = failed;
        return NULL;
    }
    server->watching = 1;
    return server;
}

void tmhd_quiesce(tmhd_server *server) {
    MHD_socket fd = MHD_quiesce_daemon(server->daemon);
    if (fd != MHD_INVALID_SOCKET) {
        close(fd);
    }
}

unsigned int tmhd_requests_in_flight(const tmhd_server *server) {
    return atomic_load_explicit(&((tmhd_server *)server)->in_flight, memory_order_relaxed);
}

void tmhd_stop(tmhd_server *server) {
    if (server->watching) {
        pthread_mutex_lock(&server->links_mutex);
        server->stopping = 1;
        pthread_cond_signal(&server->watcher_wake);
        pthread_mutex_unlock(&server->links_mutex);
        pthread_join(server->watcher, NULL);
    }
    tmhd_gate_open(server);
    MHD_stop_daemon(server->daemon);
    tmhd_free(server);
}
