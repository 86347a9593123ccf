// The body gate's scheduler: which large bodies are read now, which wait, and which are refused.
//
// Why: libmicrohttpd reads every connection's upload a buffer at a time in turn, so N large bodies
// sent at once all grow together and are all held whole at the same moment. Past a threshold a
// body is read on only while it holds one of its worker thread's places; the others wait (their
// connections suspended, reading nothing), first come first, in a bounded queue for a bounded time.
//
// This file is plain data and transitions: no libmicrohttpd, no clock, no locks. Each transition
// takes the time it happens at and says what the caller must do to the connections: suspend one,
// or resume those listed in a tmhd_gate_moves (taken a place; or refused after waiting too long).
// The caller serialises the calls (tmhd.c holds one mutex for every gate) and applies the moves.
// Internal to the shim (tmhd_gate_test.c drives it without a daemon); not part of tmhd.h.
#ifndef TMHD_GATE_H
#define TMHD_GATE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    TMHD_GATE_NONE = 0,    // not at the gate (a small body, or not past the threshold yet)
    TMHD_GATE_HOLDING = 1, // read on, holding a place
    TMHD_GATE_WAITING = 2, // its connection suspended until a place is free or its wait runs out
    TMHD_GATE_PASSED = 3,  // through: place given back (complete, dropped, hold or idle ran out) or refused
} tmhd_gate_state;

// One body's place in a gate, embedded in the shim's per-request exchange.
typedef struct tmhd_gate_entry {
    tmhd_gate_state state;
    // Holding: when the place was taken. Waiting: when the wait began.
    uint64_t since;
    // Holding: when bytes last arrived.
    uint64_t last_read;
    // Waiting: the time by which it must have a place, else it is refused.
    uint64_t wait_until;
    // In its gate's holders or waiting list.
    struct tmhd_gate_entry *prev;
    struct tmhd_gate_entry *next;
    // In a tmhd_gate_moves list.
    struct tmhd_gate_entry *moved;
} tmhd_gate_entry;

// The gate's rules, in milliseconds and entries.
typedef struct {
    // Places per gate: bodies read on at once past the threshold.
    unsigned int places;
    // Bodies that may wait for a place; one more is refused at once.
    unsigned int queue;
    // A place is given back after this long, whatever the holder's pace.
    uint64_t hold_ms;
    // A place is given back once its holder has sent nothing for this long.
    uint64_t idle_ms;
    // A body waits at most this long (or until the caller's wait_until, if sooner), then is refused.
    uint64_t wait_ms;
} tmhd_gate_limits;

// One worker thread's gate.
typedef struct {
    unsigned int held;
    unsigned int waiting;
    tmhd_gate_entry *holders;
    tmhd_gate_entry *first_waiting;
    tmhd_gate_entry *last_waiting;
    // Every arrival reads on (the server is stopping: no connection may stay suspended).
    int open;
} tmhd_gate;

// What the caller must do after a transition: resume each listed connection. `resume` took a
// place (read on); `refuse` waited too long and is refused (its body freed, answered 503 once the
// rest of it is drained). Lists are linked by `moved`, in order; start from a zeroed value.
typedef struct {
    tmhd_gate_entry *resume;
    tmhd_gate_entry *resume_last;
    tmhd_gate_entry *refuse;
    tmhd_gate_entry *refuse_last;
    // Of the entries that left the queue in this transition: how many, and their total wait.
    unsigned int waits_ended;
    uint64_t waited_ms;
} tmhd_gate_moves;

typedef enum {
    TMHD_GATE_READ_ON = 0, // it holds a place (or the gate is open): read on now
    TMHD_GATE_SUSPEND = 1, // it waits: suspend its connection (it is in the queue)
    TMHD_GATE_FULL = 2,    // the queue is full: refuse it now (503), it is not in the gate
} tmhd_gate_verdict;

// A body reaches the threshold at `now`; `deadline` (0: none) is when its connection's body must
// be complete, so a wait never outlasts it.
tmhd_gate_verdict tmhd_gate_arrive(tmhd_gate *gate, const tmhd_gate_limits *limits, tmhd_gate_entry *entry,
                                   uint64_t now, uint64_t deadline);

// Bytes of a holder's body arrived at `now`.
void tmhd_gate_read(tmhd_gate_entry *entry, uint64_t now);

// The body is complete or dropped (or its connection ends) at `now`: it leaves the gate wherever it
// is, and its place, if it held one, goes to the next waiting body.
void tmhd_gate_depart(tmhd_gate *gate, const tmhd_gate_limits *limits, tmhd_gate_entry *entry, uint64_t now,
                      tmhd_gate_moves *moves);

// Time passes: holds that ran out and idle holders give their places back, free places go to the
// waiting bodies, first come first, and the waits that ran out of those still waiting are refused.
void tmhd_gate_tick(tmhd_gate *gate, const tmhd_gate_limits *limits, uint64_t now, tmhd_gate_moves *moves);

// The server stops: every waiting body reads on, and so does every later arrival.
void tmhd_gate_open(tmhd_gate *gate, uint64_t now, tmhd_gate_moves *moves);

#endif
