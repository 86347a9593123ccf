// See tmhd_gate.h: the body gate's scheduler, plain data and transitions.
#include "tmhd_gate.h"

// Appends `entry` to a moves list kept with its last entry.
static void tmhd_gate_push(tmhd_gate_entry **first, tmhd_gate_entry **last, tmhd_gate_entry *entry) {
    entry->moved = NULL;
    if (*last != NULL) {
        (*last)->moved = entry;
    } else {
        *first = entry;
    }
    *last = entry;
}

static void tmhd_gate_unlink_holder(tmhd_gate *gate, tmhd_gate_entry *entry) {
    if (entry->prev != NULL) {
        entry->prev->next = entry->next;
    } else {
        gate->holders = entry->next;
    }
    if (entry->next != NULL) {
        entry->next->prev = entry->prev;
    }
    entry->prev = entry->next = NULL;
    gate->held--;
}

static void tmhd_gate_unlink_waiting(tmhd_gate *gate, tmhd_gate_entry *entry, uint64_t now, tmhd_gate_moves *moves) {
    if (entry->prev != NULL) {
        entry->prev->next = entry->next;
    } else {
        gate->first_waiting = entry->next;
    }
    if (entry->next != NULL) {
        entry->next->prev = entry->prev;
    } else {
        gate->last_waiting = entry->prev;
    }
    entry->prev = entry->next = NULL;
    gate->waiting--;
    if (moves != NULL) {
        moves->waits_ended++;
        moves->waited_ms += now > entry->since ? now - entry->since : 0;
    }
}

static void tmhd_gate_hold(tmhd_gate *gate, tmhd_gate_entry *entry, uint64_t now) {
    entry->state = TMHD_GATE_HOLDING;
    entry->since = now;
    entry->last_read = now;
    entry->prev = NULL;
    entry->next = gate->holders;
    if (gate->holders != NULL) {
        gate->holders->prev = entry;
    }
    gate->holders = entry;
    gate->held++;
}

// Rule: free places go to the waiting bodies in the order they came; each is resumed.
static void tmhd_gate_pass_on(tmhd_gate *gate, const tmhd_gate_limits *limits, uint64_t now,
                              tmhd_gate_moves *moves) {
    while (gate->first_waiting != NULL && (gate->open || gate->held < limits->places)) {
        tmhd_gate_entry *next = gate->first_waiting;
        tmhd_gate_unlink_waiting(gate, next, now, moves);
        tmhd_gate_hold(gate, next, now);
        tmhd_gate_push(&moves->resume, &moves->resume_last, next);
    }
}

tmhd_gate_verdict tmhd_gate_arrive(tmhd_gate *gate, const tmhd_gate_limits *limits, tmhd_gate_entry *entry,
                                   uint64_t now, uint64_t deadline) {
    // Rule: a place is taken at once when one is free and no one waits before it.
    if (gate->open || (gate->held < limits->places && gate->first_waiting == NULL)) {
        tmhd_gate_hold(gate, entry, now);
        return TMHD_GATE_READ_ON;
    }
    // Rule: the queue is bounded; past it a body is refused at once (503, retry).
    if (gate->waiting >= limits->queue) {
        entry->state = TMHD_GATE_PASSED;
        return TMHD_GATE_FULL;
    }
    // Rule: a body waits at most wait_ms, and never past its own deadline.
    entry->state = TMHD_GATE_WAITING;
    entry->since = now;
    entry->wait_until = now + limits->wait_ms;
    if (deadline != 0 && deadline < entry->wait_until) {
        entry->wait_until = deadline;
    }
    entry->next = NULL;
    entry->prev = gate->last_waiting;
    if (gate->last_waiting != NULL) {
        gate->last_waiting->next = entry;
    } else {
        gate->first_waiting = entry;
    }
    gate->last_waiting = entry;
    gate->waiting++;
    return TMHD_GATE_SUSPEND;
}

void tmhd_gate_read(tmhd_gate_entry *entry, uint64_t now) {
    if (entry->state == TMHD_GATE_HOLDING) {
        entry->last_read = now;
    }
}

void tmhd_gate_depart(tmhd_gate *gate, const tmhd_gate_limits *limits, tmhd_gate_entry *entry, uint64_t now,
                      tmhd_gate_moves *moves) {
    if (entry->state == TMHD_GATE_HOLDING) {
        tmhd_gate_unlink_holder(gate, entry);
        entry->state = TMHD_GATE_PASSED;
        tmhd_gate_pass_on(gate, limits, now, moves);
    } else if (entry->state == TMHD_GATE_WAITING) {
        tmhd_gate_unlink_waiting(gate, entry, now, moves);
        entry->state = TMHD_GATE_PASSED;
    }
}

void tmhd_gate_tick(tmhd_gate *gate, const tmhd_gate_limits *limits, uint64_t now, tmhd_gate_moves *moves) {
    // Rule: a place is given back after hold_ms whatever the holder's pace, and once its holder
    // has sent nothing for idle_ms; that body then reads on without a place.
    tmhd_gate_entry *entry = gate->holders;
    while (entry != NULL) {
        tmhd_gate_entry *next = entry->next;
        if (now - entry->since >= limits->hold_ms || now - entry->last_read >= limits->idle_ms) {
            tmhd_gate_unlink_holder(gate, entry);
            entry->state = TMHD_GATE_PASSED;
        }
        entry = next;
    }
    tmhd_gate_pass_on(gate, limits, now, moves);
    // Rule: a body still waiting when its wait runs out is refused (its client is told to retry).
    entry = gate->first_waiting;
    while (entry != NULL) {
        tmhd_gate_entry *next = entry->next;
        if (now >= entry->wait_until) {
            tmhd_gate_unlink_waiting(gate, entry, now, moves);
            entry->state = TMHD_GATE_PASSED;
            tmhd_gate_push(&moves->refuse, &moves->refuse_last, entry);
        }
        entry = next;
    }
}

void tmhd_gate_open(tmhd_gate *gate, uint64_t now, tmhd_gate_moves *moves) {
    static const tmhd_gate_limits unused = {0, 0, 0, 0, 0};
    gate->open = 1;
    tmhd_gate_pass_on(gate, &unused, now, moves);
}
