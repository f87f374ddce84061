/* Object monitors (paper 002): every object can be locked, re-entrantly,
 * and waited on, with no extra space: the lock lives in the high 24 bits of
 * the header's flags word.
 *
 *   flags bit 31        shape: 0 thin, 1 fat
 *   thin: bits 16..30   owner's thread index (tm_thread.index; 0 = unlocked)
 *         bits 8..15    nesting count minus one
 *   fat:  bits 8..30    index of the fat lock in the fat-lock table
 *
 * Uncontended locking is one compare-and-swap of 0 -> my_index; nested locking
 * and unlocking are plain stores by the owner (only the owner writes a thin
 * word). Contention, wait/notify and count overflow inflate the lock to a fat
 * lock (owner, count, entry queue, wait set, parked on futexes). Entering is
 * a queue, not a race: an unlock hands the monitor to the first thread
 * queued, which owns it before it runs again. In the GIL build a fat lock
 * stays fat; in the STM build (where fat-lock operations run inevitable) an
 * idle fat lock deflates back to thin at its owner's last exit.
 *
 * Every call is made by an attached thread that owns a segment (holds the
 * GIL; in the STM build, runs a transaction). Calls that may block hand the
 * segment back while they wait (the hooks of tm_monitor_set_blocking_hooks)
 * and take it again before returning. While blocked, objects may move: the
 * caller keeps its references (o too) in roots and re-reads them afterwards.
 * The monitor never touches o after blocking: a contended thin lock is
 * inflated before the contender blocks, and fat locks do not move.
 *
 * Header words are written only by the segment's owner: under the GIL one
 * thread at a time, so a contender may inflate a thin lock on its owner's
 * behalf. In the STM build the lock word is transactional data: thin enter
 * and exit are transactional writes of it; a contender inflates inevitable
 * (a transaction of the owner's that wrote the word aborts), and the
 * blocking hooks' end must leave the new transaction inevitable.
 *
 * A thread that ends while it holds a monitor leaves it held; its index is
 * reused by a later thread, which then appears to own that monitor. */
#ifndef TM_MONITOR_H
#define TM_MONITOR_H

#include "object.h"

#include <stdbool.h>
#include <stdint.h>

#define TM_LOCK_FAT_BIT 0x80000000u
#define TM_LOCK_OWNER_SHIFT 16
#define TM_LOCK_OWNER_MASK 0x7fff0000u
#define TM_LOCK_COUNT_SHIFT 8
#define TM_LOCK_COUNT_MASK 0x0000ff00u
#define TM_LOCK_FIELD_MASK 0xffffff00u

/* Timeouts are in nanoseconds: negative waits forever, 0 only tries. */
#define TM_MONITOR_FOREVER (-1)

/* Lock o's monitor (re-entrant); blocks while another thread owns it. */
void tm_monitor_enter(object_t *o);
/* The same with a timeout; returns whether the monitor was acquired. */
bool tm_monitor_enter_timed(object_t *o, int64_t timeout_ns);
/* The same, and an interrupt of the target thread (park.h) also ends the
 * wait: returns 1 when acquired, 0 at the timeout, TM_MONITOR_INTERRUPTED. */
int tm_monitor_enter_interruptible(object_t *o, int64_t timeout_ns);
/* Unlock one level. Returns false, changing nothing, if the calling thread
 * does not own o's monitor. */
bool tm_monitor_exit(object_t *o);

/* The calling thread's nesting count on o's monitor: 0 if it does not own it. */
uint64_t tm_monitor_count(object_t *o);
/* The thread index of o's owner, 0 if unlocked. */
unsigned tm_monitor_owner(object_t *o);
/* Unlock every level (the caller must own o's monitor) and return how many
 * there were; tm_monitor_enter_count takes them back (Condition.wait's
 * release/restore). */
uint64_t tm_monitor_exit_all(object_t *o);
void tm_monitor_enter_count(object_t *o, uint64_t count);

enum tm_monitor_wait_result {
    TM_MONITOR_NOT_OWNER = -1,  /* the caller does not own o's monitor: nothing done */
    TM_MONITOR_TIMED_OUT = 0,
    TM_MONITOR_NOTIFIED = 1,
    TM_MONITOR_INTERRUPTED = 2, /* the interrupt target's wait ended by tm_interrupt (park.h) */
};
/* Release o's monitor completely, wait to be notified (or the timeout, or
 * an interrupt if the caller is the interrupt target), then re-acquire it
 * with the same count. Waiters are notified in the order they began
 * waiting. */
int tm_monitor_wait(object_t *o, int64_t timeout_ns);
/* Wake up to n waiters of o's monitor (UINT64_MAX: all). Returns how many
 * were woken, or -1 if the caller does not own the monitor. The woken
 * threads queue to enter the monitor again, behind those already queued. */
int64_t tm_monitor_notify(object_t *o, uint64_t n);

/* How a blocking monitor call hands back its segment and takes it again.
 * The defaults commit the transaction (GIL: release it) and start a new one;
 * a language with its own per-thread state to save installs its own pair.
 * Between the two calls no GC object may be touched. */
void tm_monitor_set_blocking_hooks(void (*begin)(void), void (*end)(void));

/* Counters for tests and statistics (summed over all threads). */
typedef struct tm_monitor_stats {
    uint64_t inflations;        /* thin -> fat, any cause */
    uint64_t contended_enters;  /* enters that found another owner */
    uint64_t fat_locks;         /* fat locks ever made (never freed; STM: deflated ones are reused) */
    uint64_t deflations;        /* STM: fat -> thin */
} tm_monitor_stats;
void tm_monitor_get_stats(tm_monitor_stats *out);

/* In a forked child (the caller is its only thread): o's monitor becomes
 * free, with nobody queued or waiting (they were other threads, gone). */
void tm_monitor_fork_reset(object_t *o);

#endif
