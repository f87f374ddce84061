/* Wake-ups deferred to the commit (issue 20): a thread that lets a waiter
 * go inside a transaction (a lock's release, a notify) writes the waiter's
 * state transactionally and asks for the waiter's wake-up here; the STM
 * build performs it after the transaction commits, and an abort drops it,
 * so nobody is woken for a release that never happened and no release
 * needs to become inevitable. The GIL build wakes at once (the GIL orders
 * the waiter's check before its park against the waker).
 *
 * A waiter's protocol, with every check of the shared state transactional:
 *   tm_wake_prepare();            in the transaction that saw it must wait
 *   commit (blocking hooks);      publishes its registration
 *   tm_wake_wait(deadline, ...);  no segment held
 *   start a transaction and check again (a wake-up may be spurious).
 * No lost wake-up: the waker's wake follows its commit, which serialises
 * after the waiter's (its write conflicts with the waiter's read), and so
 * after tm_wake_prepare cleared the word the wait sleeps on. A late wake
 * (for a wait that has ended since) only ends a later wait early, which
 * checks again. */
#ifndef TM_WAKE_H
#define TM_WAKE_H

#include <stdbool.h>
#include <stdint.h>

/* The calling thread will wait: clears its wake word. Call it inside the
 * transaction whose check decided to wait, before it commits. */
void tm_wake_prepare(void);
/* Sleep until a wake-up for the calling thread since tm_wake_prepare, the
 * deadline (park.h: CLOCK_MONOTONIC ns, TM_PARK_FOREVER), or, if
 * interruptible, an interrupt. Without a segment (the caller's blocking
 * hooks). Returns park.h's TM_PARK_*. A wait without a deadline is passive
 * (thread.h: only a running thread can end it). */
int tm_wake_wait(int64_t deadline, bool interruptible);
/* Wake thread `index` (tm_thread.index) once the running transaction
 * commits (STM), at once (GIL). */
void tm_wake_after_commit(unsigned index);

/* STM: the commit and the abort (stm.c) perform the wake-ups the
 * transaction asked for, or drop them. */
void tm_wakes_run(void);
void tm_wakes_drop(void);
/* Whether the running transaction asked for a wake-up: its commit hands
 * something on, so a solo transaction does not go on past a yield point
 * (tm_solo_may_go_on: the woken thread waits passive for that commit). */
bool tm_wakes_pending(void);
/* TMPY_TEST_WAKE_AT_ONCE=1 (tests, tm_cfg.wake_at_once): wake at once,
 * before the commit, which loses wake-ups (the woken thread checks before
 * the commit lands, and waits again). */

#endif
