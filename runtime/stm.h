/* The STM's interface to the rest of the runtime (internal). */
#ifndef TM_STM_H
#define TM_STM_H

#include "gc_internal.h"
#include "thread.h"
#include "tx.h"

/* Per-thread counters (tm_thread.tx_stats), summed by tm_stm_get_stats;
 * the *_NS ones count TSC ticks (tm_ticks), converted when summed. */
enum {
    TM_STAT_STARTED, TM_STAT_COMMITTED, TM_STAT_ABORTED, TM_STAT_INEVITABLE,
    TM_STAT_COMMIT_NS, TM_STAT_SYNC_NS, TM_STAT_WAIT_NS, TM_STAT_PAGES_PRIVATISED,
    TM_STAT_READER_WAITS, TM_STAT_RESHARE_ON_DEMAND, TM_STAT_ABORTED_NS,
    /* the contention manager (contention.c) */
    TM_STAT_SERIALISED,      /* transactions run holding the token */
    TM_STAT_SOLO_SERIALISED, /* of those, solo */
    TM_STAT_TOKEN_WAITS,     /* times a thread slept waiting for the token */
    TM_STAT_TOKEN_WAIT_NS,
    TM_STAT_CM_SERIALISE,    /* a thread became serialised */
    TM_STAT_CM_TRIALS,       /* a serialised thread tried parallel again */
    TM_STAT_CM_PARALLEL,     /* a trial ended in parallel mode */
    TM_STAT_CM_COSTLY_COMMITS, /* commits that cost more than their transaction's run, outside SERIAL */
    TM_STAT_LENGTH_CUTS,     /* per-yield-point lengths shortened */
    TM_STAT_RESHARE_FOR_SOLO, /* other segments' private pages re-shared for a solo transaction */
    TM_STAT_SOLO,            /* transactions run solo (tm_become_solo) */
    TM_STAT_CM_DRAFTED,      /* commits of a transaction that won a write-write conflict, outside SERIAL */
    TM_STAT_SEGMENT_KEPT,    /* commits that kept their segment for the next transaction while others waited */
    TM_STAT_SOLO_WENT_ON,    /* yield points a solo transaction went on past (tm_solo_may_go_on) */
    TM_STAT_PRIVATISE_CALLS, /* privatisations (runs of pages, one mmap each) */
    TM_STAT_ABORT_CAUSE,   /* + enum tm_abort_cause */
    TM_STAT_COUNT = TM_STAT_ABORT_CAUSE + TM_ABORT_CAUSES
};

_Static_assert(TM_STAT_COUNT <= sizeof(((tm_thread *)0)->tx_stats) / sizeof(uint64_t),
               "tm_thread.tx_stats is too small");

void tm_stm_init(void);

/* Threads waiting for a segment, transactions waiting to become inevitable
 * (both served in arrival order): for tests and statistics. */
int tm_stm_segment_waiters(void);
int tm_stm_inevitable_waiters(void);

/* Tests: a hook a thread calls in the STM's wait loop (sync_wait), without
 * the lock, before it waits and after each wake-up, to force an
 * interleaving (it may wait for another thread there). NULL: none. */
enum { TM_WAIT_HOOK_BEFORE, TM_WAIT_HOOK_WOKEN };
void tm_stm_set_wait_hook(void (*hook)(int when));

#endif
