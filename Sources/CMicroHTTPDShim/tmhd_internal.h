// What the shim's files share (not part of tmhd.h): the server, a connection's link, a request's
// exchange, and the functions each file offers the others.
//   tmhd.c        the daemon: start and stop, the access handler (bodies, the gate's verdicts), answers
//   tmhd_head.c   the request head: Host and target grammar, strictness, the facts for the policy
//   tmhd_gate.c   the body gate's scheduler (plain data, tested without a daemon)
//   tmhd_watch.c  the watcher thread: deadlines, the gate's clock, giving free memory back
#ifndef TMHD_INTERNAL_H
#define TMHD_INTERNAL_H

#include "tmhd.h"
#include "tmhd_gate.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>

// How often the watcher looks for connections past their deadline, at the gates and at freed memory.
#define TMHD_WATCH_INTERVAL_MS 250
// Deadlines a body may be given while its bytes wait unread by a busy server (then it is cut off).
#define TMHD_OVERDUE_EXTENSIONS 3

// What a connection is doing, for the watcher: which deadline runs.
typedef enum {
    TMHD_PHASE_HEAD = 0,    // receiving a request head (--header-timeout)
    TMHD_PHASE_BODY = 1,    // receiving a body (--body-timeout)
    TMHD_PHASE_COMPUTE = 2, // in the handler: no deadline
    TMHD_PHASE_SEND = 3,    // its answer being taken (--send-timeout)
} tmhd_phase;

// One per open connection (its socket_context): from MHD_CONNECTION_NOTIFY_STARTED to
// MHD_CONNECTION_NOTIFY_CLOSED, listed in the server's `links` under `links_mutex`.
typedef struct tmhd_link {
    struct tmhd_link *prev;
    struct tmhd_link *next;
    int fd;
    // Monotonic milliseconds by which the current phase must end (0: no deadline).
    atomic_uint_least64_t deadline;
    // The phase the deadline is for (tmhd_phase).
    atomic_int phase;
    // How many times the watcher found a body's deadline passed with bytes the server had not read
    // (and gave it another --body-timeout): once set, the body is refused (503) at its next bytes.
    // Cleared with each new head.
    atomic_int overdue;
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
    // The body gates, one per worker thread (none with one thread per connection), and their
    // rules, under gate_mutex; gates_taken counts those a thread has made its own.
    pthread_mutex_t gate_mutex;
    tmhd_gate *gates;
    unsigned int gate_count;
    atomic_uint gates_taken;
    tmhd_gate_limits gate_limits;
    size_t gate_from;
    // The gates' figures (tmhd_gate_figures), kept under gate_mutex, read with relaxed loads.
    atomic_uint gate_waiting;
    atomic_uint_least64_t gate_waits;
    atomic_uint_least64_t gate_waited_ms;
    atomic_uint_least64_t gate_refused;
    int stopping;
    int watching;
    pthread_t watcher;
};

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
    // The body has reached the gate's threshold (read by its worker thread only).
    int gated;
    // Its place at its worker thread's gate, changed under gate_mutex; `gate_of` is its gate while
    // it holds a place or waits (NULL before and after).
    tmhd_gate_entry gate_entry;
    tmhd_gate *gate_of;
};

// tmhd.c
uint64_t tmhd_now_ms(void);
tmhd_link *tmhd_link_of(struct MHD_Connection *connection);
// The current phase of `link` is `phase`, to end `seconds` from now (0: no deadline).
void tmhd_start_phase(tmhd_link *link, tmhd_phase phase, unsigned int seconds);
// Frees a request's body and gives its bytes back to the budget (the gate is not touched).
void tmhd_drop_body(tmhd_exchange *exchange);
// Under gate_mutex: applies a transition's moves (resumes connections, refuses the waits that ran
// out) and counts them in the figures.
void tmhd_gate_apply(tmhd_server *server, tmhd_gate_moves *moves);

// tmhd_head.c
// Rule: an absolute-form target (RFC 9112 §3.2.2) is served as its path ("/" when it has none).
const char *tmhd_origin_path(const char *url);
// The URI callback: sees the raw target before libmicrohttpd unescapes it.
void *tmhd_uri_seen(void *cls, const char *uri, struct MHD_Connection *connection);
// The facts of a complete request head, for the policy.
void tmhd_gather_facts(tmhd_server *server, struct MHD_Connection *connection, void *first_context,
                       const char *version, tmhd_facts *facts);
// The URI callback's answer for a target whose path holds %00: the request's first *req_cls.
extern char tmhd_nul_in_path;

// tmhd_watch.c
// Starts the watcher thread; 0 or an errno.
int tmhd_watch_start(tmhd_server *server);
void tmhd_watch_stop(tmhd_server *server);

#endif
