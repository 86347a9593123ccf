// `make shim-sanitize-test`: the body gate's scheduler (Sources/CMicroHTTPDShim/tmhd_gate.c) driven
// without a daemon, clock or socket, as ConnectionPolicy is tested on facts: each transition is
// given a time and its moves (connections to resume, waits refused) are checked. Built with
// AddressSanitizer and UBSan; any failure or report ends the process non-zero.
#include "tmhd_gate.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(condition)                                                                 \
    do {                                                                                 \
        if (!(condition)) {                                                              \
            fprintf(stderr, "gate_test.c:%d: %s: failed: %s\n", __LINE__, __func__, #condition); \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

static const tmhd_gate_limits limits = {
    .places = 2, .queue = 3, .hold_ms = 1000, .idle_ms = 250, .wait_ms = 1000};

static unsigned count(const tmhd_gate_entry *list) {
    unsigned n = 0;
    for (; list != NULL; list = list->moved) {
        n++;
    }
    return n;
}

// Two bodies take the two places at once; the next ones wait in order; past the queue one is refused.
static void test_places_then_queue_then_full(void) {
    tmhd_gate gate = {0};
    tmhd_gate_entry e[6];
    memset(e, 0, sizeof e);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[0], 0, 0) == TMHD_GATE_READ_ON);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[1], 0, 0) == TMHD_GATE_READ_ON);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[2], 1, 0) == TMHD_GATE_SUSPEND);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[3], 2, 0) == TMHD_GATE_SUSPEND);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[4], 3, 0) == TMHD_GATE_SUSPEND);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[5], 4, 0) == TMHD_GATE_FULL);
    CHECK(e[5].state == TMHD_GATE_PASSED);
    CHECK(gate.held == 2 && gate.waiting == 3);
    // A finished body's place goes to the first that waits, and only to it.
    tmhd_gate_moves moves = {0};
    tmhd_gate_depart(&gate, &limits, &e[0], 10, &moves);
    CHECK(moves.resume == &e[2] && count(moves.resume) == 1 && moves.refuse == NULL);
    CHECK(moves.waits_ended == 1 && moves.waited_ms == 9);
    CHECK(e[0].state == TMHD_GATE_PASSED && e[2].state == TMHD_GATE_HOLDING);
    // With a place free again and no one waiting ahead, a newcomer takes a place; while some wait, it waits.
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[5], 11, 0) == TMHD_GATE_SUSPEND);
    CHECK(gate.waiting == 3);
}

// A place is given back after the hold, or once its holder sends nothing for idle_ms; bytes keep it.
static void test_hold_and_idle_give_places_back(void) {
    tmhd_gate gate = {0};
    tmhd_gate_entry e[4];
    memset(e, 0, sizeof e);
    tmhd_gate_arrive(&gate, &limits, &e[0], 0, 0);
    tmhd_gate_arrive(&gate, &limits, &e[1], 0, 0);
    tmhd_gate_arrive(&gate, &limits, &e[2], 0, 0);
    tmhd_gate_arrive(&gate, &limits, &e[3], 0, 0);
    // e[0] keeps sending; e[1] sends nothing.
    tmhd_gate_read(&e[0], 200);
    tmhd_gate_moves moves = {0};
    tmhd_gate_tick(&gate, &limits, 240, &moves);
    CHECK(moves.resume == NULL && gate.held == 2);
    tmhd_gate_read(&e[0], 245);
    tmhd_gate_tick(&gate, &limits, 250, &moves);
    CHECK(e[1].state == TMHD_GATE_PASSED && e[0].state == TMHD_GATE_HOLDING);
    CHECK(moves.resume == &e[2] && count(moves.resume) == 1);
    // The sender loses its place after the hold however it sends.
    memset(&moves, 0, sizeof moves);
    tmhd_gate_read(&e[0], 990);
    tmhd_gate_read(&e[2], 990);
    tmhd_gate_tick(&gate, &limits, 1000, &moves);
    CHECK(e[0].state == TMHD_GATE_PASSED && e[2].state == TMHD_GATE_HOLDING);
    CHECK(moves.resume == &e[3]);
    // A passed body's later reads change nothing.
    tmhd_gate_read(&e[1], 1100);
    CHECK(e[1].state == TMHD_GATE_PASSED && gate.held == 2);
}

// A wait runs out after wait_ms, or at the body's deadline when that is sooner: it is refused.
static void test_waits_run_out(void) {
    tmhd_gate gate = {0};
    tmhd_gate_entry e[5];
    memset(e, 0, sizeof e);
    tmhd_gate_arrive(&gate, &limits, &e[0], 0, 0);
    tmhd_gate_arrive(&gate, &limits, &e[1], 0, 0);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[2], 100, 0) == TMHD_GATE_SUSPEND);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[3], 100, 600) == TMHD_GATE_SUSPEND);
    CHECK(e[2].wait_until == 1100 && e[3].wait_until == 600);
    // The holders keep sending, so only the waits' clocks matter.
    tmhd_gate_read(&e[0], 590);
    tmhd_gate_read(&e[1], 590);
    tmhd_gate_moves moves = {0};
    tmhd_gate_tick(&gate, &limits, 599, &moves);
    CHECK(moves.refuse == NULL && gate.waiting == 2);
    tmhd_gate_tick(&gate, &limits, 600, &moves);
    CHECK(moves.refuse == &e[3] && count(moves.refuse) == 1 && e[3].state == TMHD_GATE_PASSED);
    CHECK(moves.waits_ended == 1 && moves.waited_ms == 500 && gate.waiting == 1);
    memset(&moves, 0, sizeof moves);
    tmhd_gate_read(&e[0], 1090);
    tmhd_gate_read(&e[1], 1090);
    // Holds ran out at 1000: both places go back and e[2] takes one before its wait runs out.
    tmhd_gate_tick(&gate, &limits, 1095, &moves);
    CHECK(moves.resume == &e[2] && moves.refuse == NULL && e[2].state == TMHD_GATE_HOLDING);
}

// A waiting body whose connection ends leaves the queue and takes no place.
static void test_waiting_body_departs(void) {
    tmhd_gate gate = {0};
    tmhd_gate_entry e[5];
    memset(e, 0, sizeof e);
    for (int i = 0; i < 5; i++) {
        tmhd_gate_arrive(&gate, &limits, &e[i], 0, 0);
    }
    tmhd_gate_moves moves = {0};
    tmhd_gate_depart(&gate, &limits, &e[3], 5, &moves);
    CHECK(moves.resume == NULL && gate.waiting == 2 && e[3].state == TMHD_GATE_PASSED);
    CHECK(e[2].next == &e[4] && e[4].prev == &e[2] && gate.last_waiting == &e[4]);
    tmhd_gate_depart(&gate, &limits, &e[4], 6, &moves);
    CHECK(gate.last_waiting == &e[2] && gate.first_waiting == &e[2]);
    // Departing twice, or before arriving, is nothing.
    tmhd_gate_depart(&gate, &limits, &e[4], 7, &moves);
    tmhd_gate_entry never = {0};
    tmhd_gate_depart(&gate, &limits, &never, 7, &moves);
    CHECK(gate.waiting == 1 && gate.held == 2 && moves.resume == NULL);
    tmhd_gate_depart(&gate, &limits, &e[1], 8, &moves);
    CHECK(moves.resume == &e[2] && gate.waiting == 0 && gate.first_waiting == NULL && gate.last_waiting == NULL);
}

// Stopping: every waiting body resumes, in order, and every later one reads on.
static void test_open(void) {
    tmhd_gate gate = {0};
    tmhd_gate_entry e[6];
    memset(e, 0, sizeof e);
    for (int i = 0; i < 5; i++) {
        tmhd_gate_arrive(&gate, &limits, &e[i], 0, 0);
    }
    tmhd_gate_moves moves = {0};
    tmhd_gate_open(&gate, 10, &moves);
    CHECK(count(moves.resume) == 3 && moves.resume == &e[2] && moves.resume->moved == &e[3]);
    CHECK(gate.waiting == 0 && gate.held == 5);
    CHECK(tmhd_gate_arrive(&gate, &limits, &e[5], 11, 0) == TMHD_GATE_READ_ON);
}

// Many bodies through one gate: at no time more than `places` hold one or more than `queue` wait.
static void test_bounds_hold_under_churn(void) {
    enum { N = 200 };
    static tmhd_gate_entry e[N];
    memset(e, 0, sizeof e);
    tmhd_gate gate = {0};
    unsigned refused_at_once = 0, refused_later = 0, resumed = 0;
    uint64_t now = 0;
    for (int i = 0; i < N; i++) {
        now += 100;
        if (tmhd_gate_arrive(&gate, &limits, &e[i], now, i % 7 == 0 ? now + 100 : 0) == TMHD_GATE_FULL) {
            refused_at_once++;
        }
        if (i % 3 == 0) {
            tmhd_gate_read(&e[i], now);
        }
        tmhd_gate_moves moves = {0};
        tmhd_gate_tick(&gate, &limits, now, &moves);
        refused_later += count(moves.refuse);
        resumed += count(moves.resume);
        CHECK(gate.held <= limits.places && gate.waiting <= limits.queue);
    }
    CHECK(refused_at_once > 0 && refused_later > 0 && resumed > 0);
}

int main(void) {
    test_places_then_queue_then_full();
    test_hold_and_idle_give_places_back();
    test_waits_run_out();
    test_waiting_body_departs();
    test_open();
    test_bounds_hold_under_churn();
    if (failures > 0) {
        fprintf(stderr, "gate test: %d failures\n", failures);
        return 1;
    }
    printf("gate test: every transition as expected\n");
    return 0;
}
