// The watcher thread: every TMHD_WATCH_INTERVAL_MS it ends the phases past their deadline, runs
// the body gates' clock, and gives memory that requests freed back to the system.
#define _GNU_SOURCE
#include "tmhd_internal.h"

#include <malloc.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

// Bytes that arrived on `fd` and that no one has read yet (0 when it cannot tell).
static int tmhd_unread_bytes(int fd) {
    int unread = 0;
    return ioctl(fd, FIONREAD, &unread) == 0 ? unread : 0;
}

// Rule: a connection past its deadline (head, body or answer not through in time) is shut down,
// however slowly it trickles (each byte restarts libmicrohttpd's idle timeout, not these). Only
// listed links are touched, under the mutex their close notification takes, so a reused fd number
// is never shut down; libmicrohttpd then sees the end of stream and closes it.
// Rule: a body whose deadline passes while bytes of it wait unread (its worker was busy computing
// others, or it waited at the gate) is late through the server's fault: it is refused with a 503
// the client can retry, not reset, and gets a fresh --body-timeout to send what is drained, again
// each time the server is still behind, up to TMHD_OVERDUE_EXTENSIONS times.
static void tmhd_end_overdue_phases(tmhd_server *server, uint64_t now) {
    for (tmhd_link *link = server->links; link != NULL; link = link->next) {
        uint64_t deadline = atomic_load_explicit(&link->deadline, memory_order_relaxed);
        if (deadline == 0 || now < deadline || link->shut || link->fd < 0) {
            continue;
        }
        if (atomic_load_explicit(&link->phase, memory_order_relaxed) == TMHD_PHASE_BODY &&
            atomic_load_explicit(&link->overdue, memory_order_relaxed) < TMHD_OVERDUE_EXTENSIONS &&
            tmhd_unread_bytes(link->fd) > 0) {
            atomic_fetch_add_explicit(&link->overdue, 1, memory_order_relaxed);
            tmhd_start_phase(link, TMHD_PHASE_BODY, server->options.body_timeout);
            continue;
        }
        shutdown(link->fd, SHUT_RDWR);
        link->shut = 1;
    }
}

// The gates' clock: holds and waits that ran out (tmhd_gate_tick), applied under the gates' mutex.
static void tmhd_tick_gates(tmhd_server *server, uint64_t now) {
    pthread_mutex_lock(&server->gate_mutex);
    for (unsigned int i = 0; i < server->gate_count; i++) {
        tmhd_gate_moves moves = {0};
        tmhd_gate_tick(&server->gates[i], &server->gate_limits, now, &moves);
        tmhd_gate_apply(server, &moves);
    }
    pthread_mutex_unlock(&server->gate_mutex);
}

// What the watcher knows of completed requests: the count it saw last round and at its last trim.
typedef struct {
    uint64_t seen;
    uint64_t trimmed_at;
} tmhd_trim_state;

// Rule: memory that requests freed stays with malloc for the next ones (no fresh mapping and
// page faults for every large body, tape and answer) while requests are in flight, up to
// keep_free_busy free bytes; once the server is idle for a whole round (the last requests' frees
// are done) all but keep_free_idle goes back. malloc_trim gives back the free pages of every
// arena, however fragmented.
static void tmhd_give_back_memory(tmhd_server *server, tmhd_trim_state *state) {
    uint64_t completed = atomic_load_explicit(&server->completed, memory_order_relaxed);
    int idle = atomic_load_explicit(&server->in_flight, memory_order_relaxed) == 0;
    int settled = completed == state->seen;
    state->seen = completed;
    if (completed == state->trimmed_at || (idle && !settled)) {
        return;
    }
    if (mallinfo2().fordblks > (idle ? server->options.keep_free_idle : server->options.keep_free_busy)) {
        malloc_trim(0);
        state->trimmed_at = completed;
    }
}

static void *tmhd_watch(void *argument) {
    tmhd_server *server = argument;
    tmhd_trim_state trim = {0, 0};
    pthread_mutex_lock(&server->links_mutex);
    while (!server->stopping) {
        // The gates first: a wait that ran out at its deadline is refused before the deadline's rule
        // looks at its connection.
        uint64_t now = tmhd_now_ms();
        pthread_mutex_unlock(&server->links_mutex);
        tmhd_tick_gates(server, now);
        pthread_mutex_lock(&server->links_mutex);
        tmhd_end_overdue_phases(server, now);
        // Trimming may take a while: connections open and close meanwhile.
        pthread_mutex_unlock(&server->links_mutex);
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

int tmhd_watch_start(tmhd_server *server) {
    int failed = pthread_create(&server->watcher, NULL, tmhd_watch, server);
    server->watching = !failed;
    return failed;
}

void tmhd_watch_stop(tmhd_server *server) {
    if (!server->watching) {
        return;
    }
    pthread_mutex_lock(&server->links_mutex);
    server->stopping = 1;
    pthread_cond_signal(&server->watcher_wake);
    pthread_mutex_unlock(&server->links_mutex);
    pthread_join(server->watcher, NULL);
    server->watching = 0;
}
