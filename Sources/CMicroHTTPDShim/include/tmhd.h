// CMicroHTTPDShim: the only C code between Swift and libmicrohttpd.
//
// Why it exists: MHD_start_daemon is variadic, which Swift cannot call, and libmicrohttpd
// delivers a request body across several access-handler calls. This shim starts and stops
// the daemon from a plain options struct, reports the facts of each request head (open
// connections, framing and Host fields, strictness of the head, the target) to a policy
// callback that decides before the body is read, accumulates each body under a hard cap and a
// memory budget the caller keeps (large bodies a few per worker at a time: the body gate),
// closes connections that do not send a complete request head, their body or take their
// answer in time, keeps a heartbeat of the workers busy in the handler,
// hands exactly one complete request to one callback, and queues its answer: header fields as
// an array, a malloc'd body taken over with its budget reservation. Its header uses only plain
// C types; microhttpd.h stays inside the .c files, which are split by job (tmhd_internal.h lists
// them: the daemon, the request head, the body gate's scheduler, the watcher).
// Every public symbol is prefixed `tmhd_`.
#ifndef TMHD_H
#define TMHD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes of zeroed, readable padding that follow every request body the shim hands over,
/// so parsers that read past the end in wide chunks (simdjson needs 64) can parse in place.
#define TMHD_BODY_PADDING 64

/// Why a request is answered without its body: the numbers of Swift's HTTPRejection (TrellisHTTP),
/// which documents each reason; HTTPServer maps the two both ways in one place. The policy
/// callback decides all but two, which the shim also sets while a body arrives (BODY_TOO_LARGE
/// past max_body_bytes, MEMORY past the budget).
typedef enum {
    TMHD_REJECT_NONE = 0,
    TMHD_REJECT_BODY_TOO_LARGE = 1,
    TMHD_REJECT_OVERLOADED = 2,
    TMHD_REJECT_TRANSFER_ENCODING = 3,
    TMHD_REJECT_AMBIGUOUS_LENGTH = 4,
    TMHD_REJECT_MALFORMED_HEAD = 5,
    TMHD_REJECT_NUL_IN_TARGET = 6,
    TMHD_REJECT_MEMORY = 7,
    TMHD_REJECT_BAD_HOST = 8,
    TMHD_REJECT_BAD_TARGET = 9,
    /// The body could not be read in time through no fault of the client: it waited too long for a
    /// place at the body gate, the gate's queue was full, or its deadline passed with bytes the
    /// server had not yet read. Set by the shim only, while the body arrives (answered 503 + retry).
    TMHD_REJECT_BODY_DELAYED = 10,
} tmhd_rejection;

/// The memory budget, kept by the caller: the shim takes the bytes of request bodies (as their
/// buffers grow) and of queued answers (until sent or abandoned) from it, and gives them back.
typedef struct {
    void *context;
    /// Takes `bytes` when they fit under the budget and returns 1, else 0 (nothing taken); with
    /// `force` it takes them regardless (memory already allocated).
    int (*reserve)(void *context, size_t bytes, int force);
    void (*release)(void *context, size_t bytes);
} tmhd_budget;

/// What the shim found in a request head, reported to the policy before the body is read.
typedef struct {
    /// Connections open now, this one included.
    unsigned int open_connections;
    /// A field name that is not an RFC 9110 token, a control character other than HTAB in a
    /// value, or an obs-fold line.
    int malformed_head;
    /// A NUL in the request target, raw or as %00 in its path.
    int nul_in_target;
    /// Content-Length fields, and whether their values differ.
    unsigned int content_lengths;
    int conflicting_lengths;
    /// The Content-Length value, when there is one; `length_overflows` past 64 bits.
    unsigned long long declared_length;
    int length_overflows;
    /// Transfer-Encoding fields, and whether the last one is exactly `chunked`.
    unsigned int transfer_encodings;
    int chunked;
    /// Host fields, whether any value is not RFC 3986 `host [ ":" port ]` (userinfo, spaces...),
    /// and whether the request's version requires one (HTTP/1.1 and later).
    unsigned int host_fields;
    int host_invalid;
    int host_required;
    /// Whitespace or a control character in the raw target, or an absolute-form target
    /// (http:// or https://) whose authority is empty or not a valid host.
    int target_invalid;
} tmhd_facts;

/// Decides from the facts whether to answer before the body (a rejection) or to read it.
typedef tmhd_rejection (*tmhd_policy)(void *context, const tmhd_facts *facts);

/// One header field, both ways: a request's as received, a response's to send. Swift reads a
/// request's fields in place as pairs of C string pointers (tmhd.c pins that layout).
typedef struct {
    const char *name;
    const char *value;
} tmhd_header;

typedef struct {
    const char *method;
    /// The target's path; an absolute-form target (RFC 9112 §3.2.2) arrives as its path alone.
    const char *path;
    const tmhd_header *headers;
    size_t header_count;
    /// Valid only during the callback; followed by TMHD_BODY_PADDING zero bytes.
    const uint8_t *body;
    size_t body_length;
    tmhd_rejection rejection;
} tmhd_request;

/// Opaque handle for the exchange being answered; valid only during the callback.
typedef struct tmhd_exchange tmhd_exchange;

/// Called once per complete request, on one of libmicrohttpd's worker threads. It must call
/// tmhd_respond exactly once before returning (otherwise the shim answers 500).
typedef void (*tmhd_handler)(void *context, const tmhd_request *request, tmhd_exchange *exchange);

/// The body gate's rules (one gate per worker thread; none with one thread per connection). A body
/// past `from_bytes` is read on only while it holds one of its thread's `places`; the others wait,
/// their connections suspended, first come first, at most `queue` of them (one more is refused at
/// once) and each at most `wait_ms` (then refused): both get TMHD_REJECT_BODY_DELAYED. A place is
/// given back when its body is complete or dropped, after `hold_ms`, or once its holder has sent
/// nothing for `idle_ms`; that body then reads on without one. While a body waits it holds at most
/// `from_bytes` + TMHD_BODY_PADDING bytes (its connection buffers the rest). A zero field takes its
/// default: 64 KiB, 2 places, a queue of 64, 1000 ms, 250 ms, 1000 ms.
typedef struct {
    size_t from_bytes;
    unsigned int places;
    unsigned int queue;
    unsigned int hold_ms;
    unsigned int idle_ms;
    unsigned int wait_ms;
} tmhd_gate_options;

/// What the body gate has done so far, for the metrics.
typedef struct {
    /// Bodies waiting for a place now.
    unsigned int waiting;
    /// Waits ended (a place taken, refused, or the connection ended), and their total milliseconds.
    uint64_t waits;
    uint64_t waited_ms;
    /// Bodies refused: the queue was full, or the wait ran out.
    uint64_t refused;
} tmhd_gate_figures;

typedef struct {
    /// Listening socket from tmhd_listen.
    int listen_fd;
    /// Worker threads (each runs its own epoll loop); 0 selects one thread per connection.
    unsigned int threads;
    size_t max_body_bytes;
    unsigned int max_connections;
    /// Seconds a connection may sit idle before it is closed.
    unsigned int connection_timeout;
    /// Seconds a connection has to send a complete request head, counted from its accept and
    /// from the end of each answer (so an idle keep-alive connection closes after it too),
    /// however slowly it trickles; 0 turns the deadline off.
    unsigned int header_timeout;
    /// Seconds a request's body has to arrive, counted from the end of its head, however slowly
    /// it trickles; past it the connection is closed and its body buffer freed. 0: no deadline.
    unsigned int body_timeout;
    /// Seconds the client has to take an answer, counted from when it is queued; past it the
    /// connection is closed and the answer freed. 0: no deadline.
    unsigned int send_timeout;
    /// Open connections one client address may hold (more are closed at once); 0 = no limit.
    unsigned int max_connections_per_ip;
    /// Bytes of per-connection buffer memory libmicrohttpd may use for reading.
    size_t connection_memory_limit;
    /// 1: the watcher leaves malloc's free memory alone (another server in the process, the one
    /// doing the work, gives it back: malloc is process-wide).
    int leave_memory;
    /// The body gate: large bodies are read a few per worker thread at a time.
    tmhd_gate_options gate;
    /// Freed bytes malloc may keep for the next requests while some are in flight, and once the
    /// server is idle; past them the watcher gives free memory back (malloc_trim). 0: the
    /// defaults, 8 MiB and 1 MiB.
    size_t keep_free_busy;
    size_t keep_free_idle;
    /// Request bodies and queued answers are accounted here (reserve NULL: no budget).
    tmhd_budget budget;
    /// Called once per request head with its facts (it shares the handler's context).
    tmhd_policy policy;
    tmhd_handler handler;
    void *context;
} tmhd_options;

typedef struct tmhd_server tmhd_server;

/// Opens a listening TCP socket on host:port (port 0 picks a free one). Returns the fd, or -1
/// with errno set (EADDRINUSE when the port is taken); *bound_port receives the actual port.
int tmhd_listen(const char *host, uint16_t port, uint16_t *bound_port);

/// Sets malloc's process-wide thresholds (mallopt): blocks up to `mmap_threshold` come from its
/// arenas and are reused by the next requests, and a free shrinks an arena's top past
/// `trim_threshold`. Fixed values turn off glibc's own adjustments, which keep freed memory in
/// arenas indefinitely. For the process that owns malloc (the executable), once, before serving.
void tmhd_tune_malloc(size_t mmap_threshold, size_t trim_threshold);

/// Starts the daemon. Returns NULL (errno set when known) on failure.
tmhd_server *tmhd_start(const tmhd_options *options);

/// Stops accepting new connections; requests already received go on.
void tmhd_quiesce(tmhd_server *server);

/// Requests received and not yet completed (counting uploads in progress).
unsigned int tmhd_requests_in_flight(const tmhd_server *server);

/// The heartbeat: milliseconds the longest-running handler call in progress has run (each worker
/// busy in the handler holds one slot from entering it to leaving it), 0 when no worker is busy.
uint64_t tmhd_longest_busy_ms(const tmhd_server *server);

/// The body gate's figures so far.
void tmhd_gate_figures_of(const tmhd_server *server, tmhd_gate_figures *figures);

/// Closes every connection, joins the worker threads and frees the server.
void tmhd_stop(tmhd_server *server);

/// Body ownership passed to tmhd_respond.
typedef enum {
    /// The shim copies the bytes; the caller keeps them.
    TMHD_BODY_COPY = 0,
    /// The bytes were allocated with malloc; the shim frees them once sent (no copy).
    TMHD_BODY_TAKE = 1,
} tmhd_body_ownership;

/// Queues the response with `header_count` fields from `headers` (libmicrohttpd copies them).
/// With `close_connection`, and after any rejection, the connection closes after this response.
/// A copied body (TMHD_BODY_COPY) counts against the budget from here; a taken one comes with
/// `held_bytes` (at least body_length: its whole allocation) already reserved from the budget by
/// the caller while writing. Either is given back once the answer is sent or abandoned (at once
/// when it cannot be queued).
int tmhd_respond(tmhd_exchange *exchange, unsigned int status,
                 const tmhd_header *headers, size_t header_count,
                 const uint8_t *body, size_t body_length, tmhd_body_ownership ownership,
                 size_t held_bytes, int close_connection);

#ifdef __cplusplus
}
#endif

#endif
