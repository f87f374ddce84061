/* Threads attached to the runtime, their shadow stacks, and segment ownership.
 *
 * In the GIL build there is one thread segment (segment 1) and owning it is
 * holding the GIL: tm_start_transaction() acquires it, tm_commit_transaction()
 * runs a minor collection and hands it over. Handoff is in ticket order,
 * taken before the thread can block, so a waiting thread is never overtaken
 * by one that releases and re-acquires at once.
 *
 * In the STM build a transaction takes any free segment of N (preferring its
 * last one) and gives it back at commit: see stm.c. */
#ifndef TM_THREAD_H
#define TM_THREAD_H

#include "object.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct tm_thread {
    object_t **ss_top;               /* next free shadow-stack slot */
    object_t **ss_base, **ss_limit;
    int segment;                     /* segment owned now, 0 if none */
    bool attached;
    uint16_t index;                  /* 1..TM_MAX_THREAD_INDEX, unique among attached threads */
    /* STM */
    void *abort_jmp[5];              /* __builtin_setjmp buffer of the running transaction */
    object_t **ss_at_start;          /* shadow-stack depth at transaction start */
    int last_segment;                /* preferred at the next start */
    uint64_t tx_stats[24];           /* per-thread counters, summed by tm_stm_get_stats */
    int last_abort_cause;            /* enum tm_abort_cause of the last abort */
    int wait_for_seg;                /* after losing a conflict: the winner's segment... */
    uint64_t wait_for_start;         /* ...and its transaction, which we let finish first */
    uint64_t acquisitions;           /* GIL build: times this thread took the segment */
    /* Registry of attached threads */
    struct tm_thread *next, *prev;
} tm_thread;

extern __thread tm_thread tm_self;

/* Precise roots. Push every reference that must survive a call that can
 * allocate or collect; pop it back (it may have moved) in reverse order. */
#define TM_PUSH_ROOT(p) (*tm_self.ss_top++ = (object_t *)(p))
#define TM_POP_ROOT(p) ((p) = (__typeof__(p))*--tm_self.ss_top)
#define TM_SHADOWSTACK_DEPTH() ((size_t)(tm_self.ss_top - tm_self.ss_base))

#define TM_SHADOWSTACK_ENTRIES (1UL << 20)

/* Thread indexes fit the thin lock's 15-bit owner field (monitor.h); an
 * index is given back when its thread detaches and reused by a later one. */
#define TM_MAX_THREAD_INDEX 32767

/* Make the calling thread known to the runtime (allocates its shadow stack
 * and a thread index). Returns false, attaching nothing, when every index is
 * taken or memory is short. */
bool tm_thread_try_attach(void);
/* The same; running out is fatal. */
void tm_thread_attach(void);
/* The thread must not own a segment. */
void tm_thread_detach(void);
/* The attached thread with this index, NULL if none (racy unless the caller
 * knows the thread stays attached). */
tm_thread *tm_thread_by_index(unsigned index);

/* GIL build: threads waiting for the segment. */
extern volatile int tm_segment_waiters;
/* GIL build: set when a waiter has waited a whole switch interval without
 * the segment changing hands; yield points read it without a lock and hand
 * the segment on (tm_yield). */
extern volatile int tm_segment_drop_request;
/* The switch interval (default 5 ms, as CPython's). */
void tm_set_switch_interval_ns(uint64_t ns);
uint64_t tm_get_switch_interval_ns(void);

void tm_segment_acquire(void);
void tm_segment_release(void);

/* Calls fn on every attached thread, under the registry lock. */
void tm_threads_foreach(void (*fn)(tm_thread *t, void *ctx), void *ctx);
int tm_thread_count(void);

#endif
