/* The transaction and barrier API the interpreter is written against
 * (paper 004, Listing 1). This is the GIL configuration: the STM halves
 * compile to nothing, a transaction is holding the GIL (the one thread
 * segment), and commit is releasing it after a minor collection. */
#ifndef TM_TX_H
#define TM_TX_H

#include "gc.h"
#include "thread.h"

#if defined(TM_STM) && TM_STM
#error "the STM configuration of runtime/ is not built yet (see the STM issue); build without TM_STM"
#endif

/* Read barrier: the STM records the read in the segment's read markers. */
static inline void tm_read(object_t *o) { (void)o; }

/* Write barrier, before any store into an object (references or not). The
 * GC half remembers old objects that may now point to young ones. */
static inline void tm_write(object_t *o)
{
    if (__builtin_expect(o->h.flags & TM_GCFLAG_WRITE_BARRIER, 0))
        tm_write_slowpath(o);
}

static inline void tm_start_transaction(void) { tm_segment_acquire(); }
static inline void tm_commit_transaction(void) { tm_segment_release(); }
/* Nothing can abort under the GIL, so every transaction is inevitable. */
static inline void tm_become_inevitable(void) {}
static inline bool tm_is_inevitable(void) { return true; }

/* A yield point: let a waiting thread run. */
static inline void tm_yield(void)
{
    if (__builtin_expect(tm_segment_waiters != 0, 0)) {
        tm_commit_transaction();
        tm_start_transaction();
    }
}

#endif
