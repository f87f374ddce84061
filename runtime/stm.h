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
    TM_STAT_READER_WAITS, TM_STAT_RESHARE_ON_DEMAND,
    TM_STAT_ABORT_CAUSE,   /* + enum tm_abort_cause */
    TM_STAT_COUNT = TM_STAT_ABORT_CAUSE + TM_ABORT_CAUSES
};

_Static_assert(TM_STAT_COUNT <= sizeof(((tm_thread *)0)->tx_stats) / sizeof(uint64_t),
               "tm_thread.tx_stats is too small");

void tm_stm_init(void);
void tm_stm_retire_thread_stats(void);
/* Attached threads changed: spin less while they outnumber the CPUs. */
void tm_stm_adjust_spinning(int threads);
/* Park every other transaction at a safe point (may abort the caller). */
void tm_stop_world(void);
void tm_resume_world(void);
/* Calls fn for every segment running a transaction (world stopped). */
void tm_foreach_transaction(void (*fn)(tm_segstate *ss, void *ctx), void *ctx);
/* Re-share private pages no running transaction needs (world stopped). */
void tm_reshare_pages(void);
/* Throw away what the segment's transaction allocated since its start. */
void tm_discard_young(tm_segstate *ss);

#endif
