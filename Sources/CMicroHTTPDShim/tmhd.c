// See include/tmhd.h for why this shim exists and what it promises.
// This file is the daemon: start and stop, the access handler (bodies and the gate's verdicts),
// answers; the others are listed in tmhd_internal.h.
#define _GNU_SOURCE
#include "tmhd_internal.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <malloc.h>
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

uint64_t tmhd_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

tmhd_link *tmhd_link_of(struct MHD_Connection *connection) {
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

// The gate of the worker thread running this call (libmicrohttpd keeps a connection on one thread).
static _Thread_local tmhd_gate *tmhd_thread_gate;

static tmhd_exchange *tmhd_exchange_of(tmhd_gate_entry *entry) {
    return (tmhd_exchange *)(void *)((char *)entry - offsetof(tmhd_exchange, gate_entry));
}

void tmhd_gate_apply(tmhd_server *server, tmhd_gate_moves *moves) {
    // Each connection is left alone once resumed: its worker may finish and free its exchange.
    tmhd_gate_entry *next;
    // Rule: a body that took a place reads on (its deadline keeps running from its head).
    for (tmhd_gate_entry *entry = moves->resume; entry != NULL; entry = next) {
        next = entry->moved;
        MHD_resume_connection(tmhd_exchange_of(entry)->connection);
    }
    // Rule: a body whose wait ran out is refused: its buffer goes back at once (its connection is
    // suspended, so no worker touches the exchange), and the rest of it is drained for the 503.
    uint64_t refused = 0;
    for (tmhd_gate_entry *entry = moves->refuse; entry != NULL; entry = next) {
        next = entry->moved;
        tmhd_exchange *exchange = tmhd_exchange_of(entry);
        tmhd_drop_body(exchange);
        exchange->rejection = TMHD_REJECT_BODY_DELAYED;
        exchange->gate_of = NULL;
        refused++;
        MHD_resume_connection(exchange->connection);
    }
    if (moves->waits_ended > 0) {
        atomic_fetch_sub_explicit(&server->gate_waiting, moves->waits_ended, memory_order_relaxed);
        atomic_fetch_add_explicit(&server->gate_waits, moves->waits_ended, memory_order_relaxed);
        atomic_fetch_add_explicit(&server->gate_waited_ms, moves->waited_ms, memory_order_relaxed);
    }
    if (refused > 0) {
        atomic_fetch_add_explicit(&server->gate_refused, refused, memory_order_relaxed);
    }
}

// Rule: a body past gate_from bytes goes on being read only with a place of its thread's gate;
// waiting, its connection is suspended (in the mutex, so that no one resumes it before).
static tmhd_gate_verdict tmhd_gate_enter(tmhd_exchange *exchange, tmhd_link *link) {
    tmhd_server *server = exchange->server;
    if (tmhd_thread_gate == NULL) {
        unsigned int taken = atomic_fetch_add_explicit(&server->gates_taken, 1, memory_order_relaxed);
        if (taken < server->gate_count) {
            tmhd_thread_gate = &server->gates[taken];
        }
    }
    tmhd_gate *gate = tmhd_thread_gate;
    if (gate == NULL) {
        return TMHD_GATE_READ_ON;
    }
    uint64_t deadline = link != NULL ? atomic_load_explicit(&link->deadline, memory_order_relaxed) : 0;
    pthread_mutex_lock(&server->gate_mutex);
    tmhd_gate_verdict verdict =
        tmhd_gate_arrive(gate, &server->gate_limits, &exchange->gate_entry, tmhd_now_ms(), deadline);
    if (verdict == TMHD_GATE_SUSPEND) {
        exchange->gate_of = gate;
        atomic_fetch_add_explicit(&server->gate_waiting, 1, memory_order_relaxed);
        MHD_suspend_connection(exchange->connection);
    } else if (verdict == TMHD_GATE_READ_ON) {
        exchange->gate_of = gate;
    } else {
        atomic_fetch_add_explicit(&server->gate_refused, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&server->gate_mutex);
    return verdict;
}

// Bytes of a body holding a place arrived: it is still sending.
static void tmhd_gate_note_read(tmhd_exchange *exchange) {
    tmhd_server *server = exchange->server;
    pthread_mutex_lock(&server->gate_mutex);
    tmhd_gate_read(&exchange->gate_entry, tmhd_now_ms());
    pthread_mutex_unlock(&server->gate_mutex);
}

// The body is complete or dropped: it leaves its gate, and its place (if it holds one) goes to the
// next waiting body.
static void tmhd_gate_release(tmhd_exchange *exchange) {
    tmhd_gate *gate = exchange->gate_of;
    if (gate == NULL) {
        return;
    }
    tmhd_server *server = exchange->server;
    pthread_mutex_lock(&server->gate_mutex);
    tmhd_gate_moves moves = {0};
    tmhd_gate_depart(gate, &server->gate_limits, &exchange->gate_entry, tmhd_now_ms(), &moves);
    tmhd_gate_apply(server, &moves);
    exchange->gate_of = NULL;
    pthread_mutex_unlock(&server->gate_mutex);
}

void tmhd_gate_figures_of(const tmhd_server *server, tmhd_gate_figures *figures) {
    tmhd_server *s = (tmhd_server *)server;
    figures->waiting = atomic_load_explicit(&s->gate_waiting, memory_order_relaxed);
    figures->waits = atomic_load_explicit(&s->gate_waits, memory_order_relaxed);
    figures->waited_ms = atomic_load_explicit(&s->gate_waited_ms, memory_order_relaxed);
    figures->refused = atomic_load_explicit(&s->gate_refused, memory_order_relaxed);
}

static void tmhd_free_body(tmhd_exchange *exchange);
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
        tmhd_start_phase(link, TMHD_PHASE_COMPUTE, 0);
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

void tmhd_start_phase(tmhd_link *link, tmhd_phase phase, unsigned int seconds) {
    atomic_store_explicit(&link->phase, (int)phase, memory_order_relaxed);
    atomic_store_explicit(&link->deadline, seconds ? tmhd_now_ms() + (uint64_t)seconds * 1000u : 0,
                          memory_order_relaxed);
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
        // Rule: no buffer grows past what the gate admits: up to its threshold before the gate.
        size_t gate_from = exchange->server->gate_from;
        if (!exchange->gated && needed <= gate_from && capacity > gate_from + TMHD_BODY_PADDING) {
            capacity = gate_from + TMHD_BODY_PADDING;
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

void tmhd_drop_body(tmhd_exchange *exchange) {
    free(exchange->body);
    tmhd_release(&exchange->server->options.budget, exchange->capacity);
    exchange->body = NULL;
    exchange->length = 0;
    exchange->capacity = 0;
}

static void tmhd_free_body(tmhd_exchange *exchange) {
    tmhd_gate_release(exchange);
    tmhd_drop_body(exchange);
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

// Rule: a refused body's bytes are read and dropped, held nowhere, so that its client is answered
// (libmicrohttpd 0.9.75 can queue an answer only before the body or after all of it); past the
// allowance the connection is cut. A declared body refused for memory or for the server's delay
// is drained to its end (at most max_body_bytes), others TMHD_MAX_DRAIN bytes.
static enum MHD_Result tmhd_drain(tmhd_exchange *exchange, size_t bytes) {
    int to_its_end = exchange->has_declared_length && (exchange->rejection == TMHD_REJECT_MEMORY ||
                                                       exchange->rejection == TMHD_REJECT_BODY_DELAYED);
    size_t allowance = to_its_end ? exchange->declared_length : TMHD_MAX_DRAIN;
    exchange->drained += bytes;
    return exchange->drained > allowance ? MHD_NO : MHD_YES;
}

// The body is refused for `rejection` while it arrives: what was received is dropped at once.
static void tmhd_refuse_body(tmhd_exchange *exchange, tmhd_rejection rejection) {
    tmhd_free_body(exchange);
    exchange->rejection = rejection;
}

static enum MHD_Result tmhd_access(void *cls, struct MHD_Connection *connection, const char *url,
                                   const char *method, const char *version,
                                   const char *upload_data, size_t *upload_data_size,
                                   void **req_cls) {
    tmhd_server *server = cls;
    tmhd_exchange *exchange = *req_cls == &tmhd_nul_in_path ? NULL : *req_cls;
    tmhd_link *link = tmhd_link_of(connection);
    if (exchange == NULL) {
        // Rule: the head is complete: its deadline gives way to the body's (--body-timeout),
        // however slowly the body trickles.
        if (link != NULL) {
            atomic_store_explicit(&link->overdue, 0, memory_order_relaxed);
            tmhd_start_phase(link, TMHD_PHASE_BODY, server->options.body_timeout);
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
    size_t offered = *upload_data_size;
    if (offered == 0) {
        return tmhd_dispatch(exchange, url, method);
    }
    *upload_data_size = 0;
    // Rule: a body whose deadline passed with its bytes unread by the server is refused (503).
    if (exchange->rejection == TMHD_REJECT_NONE && link != NULL &&
        atomic_load_explicit(&link->overdue, memory_order_relaxed)) {
        tmhd_refuse_body(exchange, TMHD_REJECT_BODY_DELAYED);
    }
    if (exchange->rejection != TMHD_REJECT_NONE) {
        return tmhd_drain(exchange, offered);
    }
    // Rule: a body not yet at the gate is read up to the gate's threshold, and on past it only as
    // the gate allows (a body this call completes never waits).
    size_t take = offered;
    int completes = exchange->has_declared_length && exchange->length + offered >= exchange->declared_length;
    int reaches_gate = !exchange->gated && !completes && exchange->length + offered >= server->gate_from;
    if (reaches_gate) {
        take = server->gate_from > exchange->length ? server->gate_from - exchange->length : 0;
    }
    int appended = take > 0 ? tmhd_append(exchange, upload_data, take) : 1;
    if (appended == 1 && reaches_gate) {
        exchange->gated = 1;
        tmhd_gate_verdict verdict = tmhd_gate_enter(exchange, link);
        if (verdict == TMHD_GATE_SUSPEND) {
            // The rest stays in libmicrohttpd's buffer (and the socket) until the body has a place.
            *upload_data_size = offered - take;
            return MHD_YES;
        }
        if (verdict == TMHD_GATE_FULL) {
            tmhd_refuse_body(exchange, TMHD_REJECT_BODY_DELAYED);
            return tmhd_drain(exchange, offered - take);
        }
        if (offered > take) {
            appended = tmhd_append(exchange, upload_data + take, offered - take);
        }
    } else if (appended == 1 && exchange->gate_of != NULL) {
        tmhd_gate_note_read(exchange);
    }
    if (appended != 1) {
        // Rule: a body without Content-Length is refused once the bytes received pass the cap,
        // any body once memory runs out; what was received is dropped at once.
        tmhd_refuse_body(exchange, appended == 0 ? TMHD_REJECT_BODY_TOO_LARGE : TMHD_REJECT_MEMORY);
        return MHD_YES;
    }
    // Rule: an upload its client abandoned is dropped at once (freeing its body), not when the
    // idle timeout ends the connection.
    if (exchange->has_declared_length && exchange->length < exchange->declared_length &&
        tmhd_client_closed(connection)) {
        return MHD_NO;
    }
    return MHD_YES;
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
        tmhd_start_phase(link, TMHD_PHASE_SEND, exchange->server->options.send_timeout);
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
        tmhd_start_phase(link, TMHD_PHASE_HEAD, server->options.header_timeout);
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
        tmhd_start_phase(link, TMHD_PHASE_HEAD, server->options.header_timeout);
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

void tmhd_tune_malloc(size_t mmap_threshold, size_t trim_threshold) {
    mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
}

// The gate's rules from the options, a zero field taking its default (tmhd.h).
static void tmhd_set_gate_limits(tmhd_server *server, const tmhd_gate_options *gate) {
    server->gate_from = gate->from_bytes ? gate->from_bytes : (64u << 10);
    server->gate_limits = (tmhd_gate_limits){
        .places = gate->places ? gate->places : 2,
        .queue = gate->queue ? gate->queue : 64,
        .hold_ms = gate->hold_ms ? gate->hold_ms : 1000,
        .idle_ms = gate->idle_ms ? gate->idle_ms : 250,
        .wait_ms = gate->wait_ms ? gate->wait_ms : 1000,
    };
}

static void tmhd_free(tmhd_server *server) {
    pthread_mutex_destroy(&server->gate_mutex);
    free(server->gates);
    pthread_cond_destroy(&server->watcher_wake);
    pthread_mutex_destroy(&server->links_mutex);
    free(server);
}

tmhd_server *tmhd_start(const tmhd_options *options) {
    tmhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        return NULL;
    }
    server->options = *options;
    if (server->options.keep_free_busy == 0) {
        server->options.keep_free_busy = 8u << 20;
    }
    if (server->options.keep_free_idle == 0) {
        server->options.keep_free_idle = 1u << 20;
    }
    tmhd_set_gate_limits(server, &options->gate);
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
    int failed = tmhd_watch_start(server);
    if (failed) {
        MHD_stop_daemon(server->daemon);
        tmhd_free(server);
        errno = failed;
        return NULL;
    }
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
    tmhd_watch_stop(server);
    // Rule: libmicrohttpd must not stop with suspended connections: every waiting body reads on.
    pthread_mutex_lock(&server->gate_mutex);
    for (unsigned int i = 0; i < server->gate_count; i++) {
        tmhd_gate_moves moves = {0};
        tmhd_gate_open(&server->gates[i], tmhd_now_ms(), &moves);
        tmhd_gate_apply(server, &moves);
    }
    pthread_mutex_unlock(&server->gate_mutex);
    MHD_stop_daemon(server->daemon);
    tmhd_free(server);
}
