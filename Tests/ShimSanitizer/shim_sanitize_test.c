// `make shim-sanitize-test`: the C shim (Sources/CMicroHTTPDShim/tmhd.c) on its own, built with
// clang -fsanitize=address,undefined (LeakSanitizer comes with AddressSanitizer on Linux) and
// driven over loopback sockets: normal, keep-alive, chunked, oversized (declared and chunked),
// endless and abandoned uploads, ambiguous framing, heads that are not strict and NUL in the
// target, a handler that never answers, more connections than the limit, many header fields and
// a long query, a connection trickling its head past the header deadline, in all three threading
// modes (worker pool, one worker, thread per connection); then stop. With worker threads, the body
// gate: many large bodies at once are all answered while only the gate's places grow, a place held
// by a stalled body is given back after its hold, and the server stops with bodies waiting. Any sanitizer report
// ends the process non-zero (UBSan does not recover; LeakSanitizer checks at exit), and so does
// any answer other than the one expected. Not a SwiftPM target: the Makefile compiles it.
#define _GNU_SOURCE
#include "tmhd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_BODY 4096

static int failures;
static atomic_uint handled;
// Every body and answer is accounted here; all of it is given back once the server stops.
static atomic_size_t budget_in_use;
static const size_t budget_limit = 64u << 20;
static unsigned current_max_connections;
static size_t current_max_body;

static int budget_reserve(void *context, size_t bytes, int force) {
    (void)context;
    size_t used = atomic_load(&budget_in_use);
    do {
        if (!force && used + bytes > budget_limit) {
            return 0;
        }
    } while (!atomic_compare_exchange_weak(&budget_in_use, &used, used + bytes));
    return 1;
}

static void budget_release(void *context, size_t bytes) {
    (void)context;
    atomic_fetch_sub(&budget_in_use, bytes);
}

// The server's policy (HTTPServer's ConnectionPolicy), restated for the shim alone.
static tmhd_rejection policy(void *context, const tmhd_facts *facts) {
    (void)context;
    if (facts->open_connections > current_max_connections) {
        return TMHD_REJECT_OVERLOADED;
    }
    if (facts->nul_in_target) {
        return TMHD_REJECT_NUL_IN_TARGET;
    }
    if (facts->malformed_head) {
        return TMHD_REJECT_MALFORMED_HEAD;
    }
    if (facts->transfer_encodings > 1 || (facts->transfer_encodings == 1 && !facts->chunked)) {
        return TMHD_REJECT_TRANSFER_ENCODING;
    }
    if (facts->conflicting_lengths || (facts->transfer_encodings && facts->content_lengths)) {
        return TMHD_REJECT_AMBIGUOUS_LENGTH;
    }
    if (facts->content_lengths && (facts->length_overflows || facts->declared_length > current_max_body)) {
        return TMHD_REJECT_BODY_TOO_LARGE;
    }
    return TMHD_REJECT_NONE;
}

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "FAIL: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
    failures += 1;
}

// The handler: answers "<method> <path> <length> <checksum> <headers> <padding-ok>",
// 503/413/400 for rejections (overload, body too large, framing), nothing at all for /silent (the shim must answer 500 itself), and a
// malloc'd body handed over with TMHD_BODY_TAKE, with its budget reservation, for /take.
static void handler(void *context, const tmhd_request *request, tmhd_exchange *exchange) {
    (void)context;
    atomic_fetch_add(&handled, 1);
    if (request->rejection != TMHD_REJECT_NONE) {
        unsigned status = request->rejection == TMHD_REJECT_OVERLOADED ||
                                  request->rejection == TMHD_REJECT_BODY_DELAYED
                              ? 503
                          : request->rejection == TMHD_REJECT_BODY_TOO_LARGE ? 413
                                                                             : 400;
        static const tmhd_header headers[] = {{"Content-Type", "text/plain"}};
        static const char rejected[] = "rejected";
        tmhd_respond(exchange, status, headers, 1, (const uint8_t *)rejected, sizeof rejected - 1, TMHD_BODY_COPY,
                     sizeof rejected - 1, 0);
        return;
    }
    if (strcmp(request->path, "/silent") == 0) {
        return;
    }
    unsigned checksum = 0;
    for (size_t i = 0; i < request->body_length; i++) {
        checksum = checksum * 31 + request->body[i];
    }
    int padded = 1;
    for (size_t i = 0; i < TMHD_BODY_PADDING; i++) {
        padded &= request->body[request->body_length + i] == 0;
    }
    size_t header_bytes = 0;
    for (size_t i = 0; i < request->header_count; i++) {
        header_bytes += strlen(request->headers[i].name) + strlen(request->headers[i].value);
    }
    char text[4096];
    int n = snprintf(text, sizeof text, "%s %s %zu %u %zu/%zu %d", request->method, request->path,
                     request->body_length, checksum, request->header_count, header_bytes,
                     padded);
    static const tmhd_header headers[] = {{"Content-Type", "text/plain"}, {"X-Shim-Test", "yes"}};
    if (strcmp(request->path, "/take") == 0) {
        // A taken body comes with its reservation, made while it was written.
        uint8_t *body = malloc((size_t)n);
        memcpy(body, text, (size_t)n);
        budget_reserve(NULL, (size_t)n, 1);
        tmhd_respond(exchange, 200, headers, 2, body, (size_t)n, TMHD_BODY_TAKE, (size_t)n, 0);
    } else {
        tmhd_respond(exchange, 200, headers, 2, (const uint8_t *)text, (size_t)n, TMHD_BODY_COPY, (size_t)n, 0);
    }
}

static int dial(uint16_t port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct timeval timeout = {.tv_sec = 10, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        fail("connect: %s", strerror(errno));
    }
    return fd;
}

// Sends everything it can; returns 0 once the peer stops taking bytes.
static int send_all(int fd, const void *bytes, size_t length) {
    const char *cursor = bytes;
    while (length > 0) {
        ssize_t n = send(fd, cursor, length, MSG_NOSIGNAL);
        if (n <= 0) {
            return 0;
        }
        cursor += n;
        length -= (size_t)n;
    }
    return 1;
}

// Reads one response into `reply` (head and a Content-Length body), or whatever arrives
// before the peer closes. Returns the status code, 0 when nothing came back.
static int read_response(int fd, char *reply, size_t capacity) {
    size_t length = 0;
    reply[0] = '\0';
    while (length + 1 < capacity) {
        ssize_t n = recv(fd, reply + length, capacity - 1 - length, 0);
        if (n <= 0) {
            break;
        }
        length += (size_t)n;
        reply[length] = '\0';
        char *end = strstr(reply, "\r\n\r\n");
        if (end != NULL) {
            char *field = strcasestr(reply, "\r\nContent-Length:");
            size_t body = field != NULL && field < end ? strtoul(field + 17, NULL, 10) : 0;
            if (length >= (size_t)(end + 4 - reply) + body) {
                break;
            }
        }
    }
    int status = 0;
    if (sscanf(reply, "HTTP/1.1 %d", &status) != 1) {
        return 0;
    }
    return status;
}

static int request(uint16_t port, const char *raw, size_t length, char *reply, size_t capacity) {
    int fd = dial(port);
    send_all(fd, raw, length);
    int status = read_response(fd, reply, capacity);
    close(fd);
    return status;
}

static void expect(int condition, const char *what, const char *reply) {
    if (!condition) {
        fail("%s; got: %.300s", what, reply);
    }
}

static void run_cases(uint16_t port) {
    char reply[65536];
    char raw[16384];

    // A plain GET: empty body, still padded.
    const char *get = "GET /plain?a=1&b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    int status = request(port, get, strlen(get), reply, sizeof reply);
    expect(status == 200 && strstr(reply, "GET /plain 0 0 ") && strstr(reply, " 1") &&
               strstr(reply, "X-Shim-Test: yes"),
           "plain GET", reply);

    // A body with Content-Length, answered with a body the shim takes ownership of.
    char body[3000];
    memset(body, 'b', sizeof body);
    int n = snprintf(raw, sizeof raw, "POST /take HTTP/1.1\r\nHost: x\r\nContent-Length: %zu\r\n\r\n", sizeof body);
    memcpy(raw + n, body, sizeof body);
    status = request(port, raw, (size_t)n + sizeof body, reply, sizeof reply);
    expect(status == 200 && strstr(reply, "POST /take 3000 ") && reply[strlen(reply) - 1] == '1',
           "POST with Content-Length", reply);

    // Keep-alive: three requests on one connection, the last one chunked.
    int fd = dial(port);
    for (int i = 0; i < 2; i++) {
        const char *again = "POST /again HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello";
        send_all(fd, again, strlen(again));
        status = read_response(fd, reply, sizeof reply);
        expect(status == 200 && strstr(reply, "POST /again 5 "), "keep-alive request", reply);
    }
    const char *chunked = "POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                          "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n";
    send_all(fd, chunked, strlen(chunked));
    status = read_response(fd, reply, sizeof reply);
    expect(status == 200 && strstr(reply, "POST /chunked 11 "), "chunked body", reply);
    close(fd);

    // Declared too large: answered before the body is sent.
    n = snprintf(raw, sizeof raw, "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", MAX_BODY + 1);
    status = request(port, raw, (size_t)n, reply, sizeof reply);
    expect(status == 413, "declared oversized body", reply);
    n = snprintf(raw, sizeof raw, "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n");
    status = request(port, raw, (size_t)n, reply, sizeof reply);
    expect(status == 413, "Content-Length past 2^64", reply);

    // Chunked past the limit, then ended: drained and answered 413.
    fd = dial(port);
    const char *head = "POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    send_all(fd, head, strlen(head));
    char chunk[1100];
    n = snprintf(chunk, sizeof chunk, "400\r\n");
    memset(chunk + n, 'c', 0x400);
    memcpy(chunk + n + 0x400, "\r\n", 2);
    for (int i = 0; i < 8; i++) {
        send_all(fd, chunk, (size_t)n + 0x400 + 2);
    }
    send_all(fd, "0\r\n\r\n", 5);
    status = read_response(fd, reply, sizeof reply);
    expect(status == 413, "chunked body past the limit", reply);
    close(fd);

    // Chunked without end: the connection is cut once 1 MiB past the limit was drained.
    fd = dial(port);
    send_all(fd, head, strlen(head));
    int open = 1;
    for (int i = 0; i < 4096 && open; i++) {
        open = send_all(fd, chunk, (size_t)n + 0x400 + 2);
    }
    status = read_response(fd, reply, sizeof reply);
    expect(!open || status == 413 || status == 0, "endless chunked body", reply);
    close(fd);

    // Uploads abandoned halfway: the exchange must still be freed.
    for (int i = 0; i < 3; i++) {
        fd = dial(port);
        n = snprintf(raw, sizeof raw, "POST /gone HTTP/1.1\r\nHost: x\r\nContent-Length: 4000\r\n\r\n");
        memset(raw + n, 'g', 1000);
        send_all(fd, raw, (size_t)n + 1000 * (size_t)i);
        close(fd);
    }
    fd = dial(port);
    const char *cut = "POST /gone HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc";
    send_all(fd, cut, strlen(cut));
    close(fd);

    // Framing libmicrohttpd would not delimit exactly: refused before the body.
    const char *framings[] = {
        "POST /te HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc",
        "POST /te HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        "POST /cl HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
    };
    for (size_t i = 0; i < sizeof framings / sizeof *framings; i++) {
        status = request(port, framings[i], strlen(framings[i]), reply, sizeof reply);
        expect(status == 400, "ambiguous framing", reply);
    }

    // Heads libmicrohttpd reads loosely, and NUL in the target: refused before the body.
    static const char *const loose[] = {
        "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\nabc",
        "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\nContent-Length: 3\r\n\r\nabc",
        "GET /h HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n",
        "GET /%00h HTTP/1.1\r\nHost: x\r\n\r\n",
    };
    for (size_t i = 0; i < sizeof loose / sizeof *loose; i++) {
        status = request(port, loose[i], strlen(loose[i]), reply, sizeof reply);
        expect(status == 400, "loose head", reply);
    }
    const char nul[] = "GET /h\0x HTTP/1.1\r\nHost: x\r\n\r\n";
    status = request(port, nul, sizeof nul - 1, reply, sizeof reply);
    expect(status == 400, "raw NUL in the target", reply);

    // The handler does not answer: the shim answers 500 itself.
    const char *silent = "GET /silent HTTP/1.1\r\nHost: x\r\n\r\n";
    status = request(port, silent, strlen(silent), reply, sizeof reply);
    expect(status == 500, "handler without an answer", reply);

    // More header fields than the shim's inline list holds (64: the rest go through a heap list),
    // and a long query (which the shim does not keep).
    n = snprintf(raw, sizeof raw, "GET /many?");
    for (int i = 0; i < 300; i++) {
        n += snprintf(raw + n, sizeof raw - (size_t)n, "k%d=v%d&", i, i);
    }
    n += snprintf(raw + n, sizeof raw - (size_t)n, " HTTP/1.1\r\nHost: x\r\n");
    for (int i = 0; i < 100; i++) {
        n += snprintf(raw + n, sizeof raw - (size_t)n, "X-H%d: %d\r\n", i, i);
    }
    n += snprintf(raw + n, sizeof raw - (size_t)n, "\r\n");
    status = request(port, raw, (size_t)n, reply, sizeof reply);
    expect(status == 200 && strstr(reply, " 101/"), "101 header fields and a long query", reply);

    // Garbage instead of a request line.
    const char *garbage = "\x01\x02\x03 / HTTP/9\r\n\r\n";
    status = request(port, garbage, strlen(garbage), reply, sizeof reply);
    expect(status == 400 || status == 0, "garbage request line", reply);
}

// More connections than max_connections: the one past the limit gets 503.
static void run_overload(uint16_t port, unsigned limit) {
    int idle[16];
    for (unsigned i = 0; i < limit; i++) {
        idle[i] = dial(port);
        const char *partial = "GET /idle HTTP/1.1\r\nHost: x\r\n";
        send_all(idle[i], partial, strlen(partial));
    }
    usleep(200 * 1000);
    char reply[4096];
    const char *get = "GET /over HTTP/1.1\r\nHost: x\r\n\r\n";
    int status = request(port, get, strlen(get), reply, sizeof reply);
    expect(status == 503, "connection past the limit", reply);
    for (unsigned i = 0; i < limit; i++) {
        close(idle[i]);
    }
}

// A connection trickling its head a byte every 100 ms is shut down at the header deadline (1 s).
static void run_deadline(uint16_t port) {
    int fd = dial(port);
    const char *head = "GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ssssssssssssssssssssssssssssssssssss";
    int closed = 0;
    for (size_t i = 0; i < strlen(head) && !closed; i++) {
        send_all(fd, head + i, 1);
        struct pollfd ready = {.fd = fd, .events = POLLIN};
        if (poll(&ready, 1, 100) == 1) {
            char byte;
            closed = recv(fd, &byte, 1, MSG_DONTWAIT) <= 0;
        }
    }
    expect(closed, "a trickling head closed at the header deadline", "(still open after 4 s)");
    close(fd);
}

static tmhd_server *start_with(unsigned threads, unsigned max_connections, size_t max_body, tmhd_gate_options gate,
                               unsigned connection_timeout, uint16_t *port) {
    int listen_fd = tmhd_listen("127.0.0.1", 0, port);
    if (listen_fd < 0) {
        fail("tmhd_listen: %s", strerror(errno));
        return NULL;
    }
    current_max_connections = max_connections;
    current_max_body = max_body;
    tmhd_options options = {
        .listen_fd = listen_fd,
        .threads = threads,
        .max_body_bytes = max_body,
        .gate = gate,
        .max_connections = max_connections,
        .connection_timeout = connection_timeout,
        .header_timeout = 1,
        .connection_memory_limit = 32 * 1024,
        .budget = {NULL, budget_reserve, budget_release},
        .policy = policy,
        .handler = handler,
        .context = NULL,
    };
    tmhd_server *server = tmhd_start(&options);
    if (server == NULL) {
        fail("tmhd_start: %s", strerror(errno));
        close(listen_fd);
    }
    return server;
}

static tmhd_server *start(unsigned threads, unsigned max_connections, uint16_t *port) {
    return start_with(threads, max_connections, MAX_BODY, (tmhd_gate_options){0}, 5, port);
}

// Large bodies for the gate: `count` connections, each with the head of a `declared`-byte POST.
#define GATE_BODY (1u << 20)
#define GATE_CONNECTIONS_MAX 32

typedef struct {
    int fd;
    size_t sent;
    size_t target;
} upload;

static void begin_uploads(uint16_t port, upload *uploads, unsigned count, size_t declared) {
    for (unsigned i = 0; i < count; i++) {
        uploads[i].fd = dial(port);
        char head[128];
        int n = snprintf(head, sizeof head, "POST /gate HTTP/1.1\r\nHost: x\r\nContent-Length: %zu\r\n\r\n", declared);
        send_all(uploads[i].fd, head, (size_t)n);
        uploads[i].sent = 0;
    }
}

// Sends each upload's bytes (all 'g') up to its target without blocking, for up to `seconds`;
// returns 1 once every target is reached. A suspended connection's socket fills and waits.
static int push_uploads(upload *uploads, unsigned count, double seconds) {
    static char chunk[64 << 10];
    memset(chunk, 'g', sizeof chunk);
    struct timeval start, now;
    gettimeofday(&start, NULL);
    for (;;) {
        int done = 1;
        for (unsigned i = 0; i < count; i++) {
            while (uploads[i].sent < uploads[i].target) {
                size_t left = uploads[i].target - uploads[i].sent;
                ssize_t n = send(uploads[i].fd, chunk, left < sizeof chunk ? left : sizeof chunk,
                                 MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n <= 0) {
                    break;
                }
                uploads[i].sent += (size_t)n;
            }
            done &= uploads[i].sent >= uploads[i].target;
        }
        if (done) {
            return 1;
        }
        gettimeofday(&now, NULL);
        if ((double)(now.tv_sec - start.tv_sec) + (double)(now.tv_usec - start.tv_usec) / 1e6 > seconds) {
            return 0;
        }
        usleep(2000);
    }
}

static void expect_uploads_answered(upload *uploads, unsigned count, size_t declared, const char *what) {
    char expected[64];
    snprintf(expected, sizeof expected, "POST /gate %zu ", declared);
    for (unsigned i = 0; i < count; i++) {
        char reply[4096];
        int status = read_response(uploads[i].fd, reply, sizeof reply);
        expect(status == 200 && strstr(reply, expected) != NULL, what, reply);
        close(uploads[i].fd);
    }
}

// Sends the rest of each upload and expects each refused with 503 (its body drained).
static void expect_uploads_refused(uint16_t port, upload *uploads, unsigned count, const char *what) {
    (void)port;
    for (unsigned i = 0; i < count; i++) {
        uploads[i].target = uploads[i].sent > 0 ? GATE_BODY / 4 : 0;
    }
    push_uploads(uploads, count, 5);
    for (unsigned i = 0; i < count; i++) {
        char reply[4096];
        int status = read_response(uploads[i].fd, reply, sizeof reply);
        expect(status == 503, what, reply);
        close(uploads[i].fd);
    }
}

// One worker thread, one place: the queue's bound and the wait's bound refuse bodies with 503
// (never a reset), the body's buffer stays at the threshold while it waits, and a holder that
// sends nothing gives its place back.
static void run_gate_refusals(void) {
    size_t declared = GATE_BODY / 4;
    size_t first = (64u << 10) + 100;
    uint16_t port = 0;
    upload uploads[4];
    // The queue: one holds the place (stalled), one waits; the next is refused at once.
    tmhd_gate_options one = {.places = 1, .queue = 1, .hold_ms = 600000, .idle_ms = 600000, .wait_ms = 600000};
    tmhd_server *server = start_with(1, 64, GATE_BODY, one, 60, &port);
    if (server == NULL) {
        return;
    }
    for (unsigned i = 0; i < 3; i++) {
        begin_uploads(port, &uploads[i], 1, declared);
        uploads[i].target = first;
        push_uploads(&uploads[i], 1, 3);
        usleep(100 * 1000);
    }
    // A waiting body keeps at most the threshold and its padding (no buffer doubled past it): the
    // holder's buffer (read on past the threshold, so doubled once) and the waiting one's.
    size_t held = atomic_load(&budget_in_use);
    if (held > 3 * ((64u << 10) + TMHD_BODY_PADDING)) {
        fail("gate: %zu bytes held by a stalled holder and one waiting body", held);
    }
    expect_uploads_refused(port, &uploads[2], 1, "gate: a body past a full queue refused with 503");
    for (unsigned i = 0; i < 2; i++) {
        uploads[i].target = declared;
    }
    push_uploads(uploads, 2, 5);
    expect_uploads_answered(uploads, 2, declared, "gate: the holder and the waiting body answered once complete");
    tmhd_stop(server);

    // The wait: the second body waits 300 ms for the stalled holder's place, then is refused.
    one = (tmhd_gate_options){.places = 1, .queue = 4, .hold_ms = 600000, .idle_ms = 600000, .wait_ms = 300};
    server = start_with(1, 64, GATE_BODY, one, 60, &port);
    if (server == NULL) {
        return;
    }
    for (unsigned i = 0; i < 2; i++) {
        begin_uploads(port, &uploads[i], 1, declared);
        uploads[i].target = first;
        push_uploads(&uploads[i], 1, 3);
    }
    usleep(800 * 1000);
    expect_uploads_refused(port, &uploads[1], 1, "gate: a body whose wait ran out refused with 503");
    uploads[0].target = declared;
    push_uploads(uploads, 1, 5);
    expect_uploads_answered(uploads, 1, declared, "gate: the stalled holder answered once complete");
    tmhd_stop(server);

    // Idle: a holder that sends nothing gives its place to a body sent whole behind it.
    one = (tmhd_gate_options){.places = 1, .queue = 4, .hold_ms = 600000, .idle_ms = 200, .wait_ms = 600000};
    server = start_with(1, 64, GATE_BODY, one, 60, &port);
    if (server == NULL) {
        return;
    }
    begin_uploads(port, &uploads[0], 1, declared);
    uploads[0].target = first;
    push_uploads(&uploads[0], 1, 3);
    usleep(100 * 1000);
    begin_uploads(port, &uploads[1], 1, declared);
    uploads[1].target = declared;
    push_uploads(&uploads[1], 1, 5);
    expect_uploads_answered(&uploads[1], 1, declared, "gate: a body behind an idle holder answered");
    uploads[0].target = declared;
    push_uploads(uploads, 1, 5);
    expect_uploads_answered(uploads, 1, declared, "gate: the idle holder answered once complete");
    tmhd_stop(server);
}

// The body gate with `threads` worker threads (two places each).
static void run_gate(unsigned threads) {
    unsigned places = threads * 2, count = places + 4;
    upload uploads[GATE_CONNECTIONS_MAX];
    uint16_t port = 0;
    // A hold, an idle limit and a wait far longer than the test: only a finished body frees a place.
    // An idle timeout far longer than the test too: stalled bodies are ended by nothing else.
    tmhd_gate_options patient = {.hold_ms = 600000, .idle_ms = 600000, .wait_ms = 600000};
    tmhd_server *server = start_with(threads, 64, GATE_BODY, patient, 60, &port);
    if (server == NULL) {
        return;
    }
    // Half of each body sent at once: the bodies holding a place are read to that point, the others
    // stop past 64 KiB (their sockets fill), so the memory held is about `places` halves, not `count`.
    begin_uploads(port, uploads, count, GATE_BODY);
    for (unsigned i = 0; i < count; i++) {
        uploads[i].target = GATE_BODY / 2;
    }
    push_uploads(uploads, count, 3);
    size_t held = 0;
    for (int round = 0; round < 200 && held < (size_t)places * (GATE_BODY / 2); round++) {
        usleep(10 * 1000);
        held = atomic_load(&budget_in_use);
    }
    usleep(300 * 1000);
    held = atomic_load(&budget_in_use);
    if (held >= (size_t)(places + 1) * GATE_BODY) {
        fail("gate: %zu bytes of bodies held with %u places (%u connections sent half of 1 MiB each)", held, places,
             count);
    }
    // The rest: as the first bodies end, the waiting ones take their places; every one is answered.
    for (unsigned i = 0; i < count; i++) {
        uploads[i].target = GATE_BODY;
    }
    expect(push_uploads(uploads, count, 20), "gate: every body sent in the end", "(a body never read on)");
    expect_uploads_answered(uploads, count, GATE_BODY, "gate: each of many large bodies answered");

    // Stop with bodies holding places and bodies waiting (suspended).
    begin_uploads(port, uploads, count, GATE_BODY);
    for (unsigned i = 0; i < count; i++) {
        uploads[i].target = 100u << 10;
    }
    push_uploads(uploads, count, 1);
    usleep(200 * 1000);
    tmhd_quiesce(server);
    tmhd_stop(server);
    for (unsigned i = 0; i < count; i++) {
        close(uploads[i].fd);
    }

    // A short hold: bodies that stall keep a place only that long, so one sent whole behind them
    // is read and answered while they still hang (the hold, not their pace, frees the places).
    server = start_with(threads, 64, GATE_BODY, (tmhd_gate_options){.hold_ms = 200, .idle_ms = 600000, .wait_ms = 600000},
                        60, &port);
    if (server == NULL) {
        return;
    }
    unsigned stalled = places * 4 < GATE_CONNECTIONS_MAX ? places * 4 : GATE_CONNECTIONS_MAX - 1;
    size_t declared = 96u << 10;
    begin_uploads(port, uploads, stalled, declared);
    for (unsigned i = 0; i < stalled; i++) {
        uploads[i].target = 80u << 10;
    }
    push_uploads(uploads, stalled, 3);
    usleep(100 * 1000);
    upload *last = &uploads[stalled];
    begin_uploads(port, last, 1, declared);
    last->target = declared;
    push_uploads(last, 1, 3);
    expect_uploads_answered(last, 1, declared, "gate: a body behind stalled ones answered once their holds end");
    for (unsigned i = 0; i < stalled; i++) {
        uploads[i].target = declared;
    }
    push_uploads(uploads, stalled, 5);
    expect_uploads_answered(uploads, stalled, declared, "gate: the stalled bodies answered once complete");
    tmhd_stop(server);
    if (threads == 1) {
        run_gate_refusals();
    }
}

static void run_server(unsigned threads) {
    uint16_t port = 0;
    tmhd_server *server = start(threads, 64, &port);
    if (server == NULL) {
        return;
    }
    run_cases(port);
    run_deadline(port);

    // Stop with a connection open and an upload in flight.
    int fd = dial(port);
    const char *late = "POST /late HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc";
    send_all(fd, late, strlen(late));
    usleep(100 * 1000);
    tmhd_quiesce(server);
    tmhd_stop(server);
    close(fd);

    unsigned limit = 4;
    server = start(threads, limit, &port);
    if (server == NULL) {
        return;
    }
    run_overload(port, limit);
    tmhd_stop(server);
    if (threads > 0) {
        run_gate(threads);
    }
    printf("threads=%u: %u requests handled\n", threads, atomic_load(&handled));
}

int main(void) {
    run_server(2);
    run_server(1);
    run_server(0);
    if (atomic_load(&budget_in_use) != 0) {
        fail("%zu budget bytes still in use after every server stopped", atomic_load(&budget_in_use));
    }
    if (failures > 0) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("shim sanitize test: all cases answered as expected\n");
    return 0;
}
