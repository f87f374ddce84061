/* Threads attached to the runtime, their thread indexes and shadow stacks.
 * The GC reads the shadow stacks as roots; segment ownership (the GIL, or
 * the STM's segment pool) is the transaction layer's: see tx.h. */
#ifndef TM_THREAD_H
#define TM_THREAD_H

#include "list.h"
#include "object.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define TM_TX_STATS 40

typedef struct tm_thread {
    object_t **ss_top;               /* next free shadow-stack slot */
    object_t **ss_base, **ss_limit;
    int segment;                     /* segment owned now, 0 if none */
    bool attached;
    uint16_t index;                  /* 1..TM_MAX_THREAD_INDEX, unique among attached threads */
    /* STM */
    void *abort_jmp[5];              /* __builtin_setjmp buffer of the running transaction */
    object_t **ss_at_start;          /* shadow-stack depth at transaction start */
    object_t **undo_base, **undo_top;  /* references the client keeps to undo an abort (C memory);
                                          every one is old: major collections mark them */
    int last_segment;                /* preferred at the next start */
    uint64_t slice_start_ns;         /* STM: when it last took a segment through the queue (time slices) */
    uint64_t tx_stats[TM_TX_STATS];  /* per-thread counters, summed by tm_stm_get_stats */
    int last_abort_cause;            /* enum tm_abort_cause of the last abort */
    uint16_t last_conflict_tid;      /* type id of the object its conflict was on (0: none) */
    uintptr_t last_conflict_site;    /* where the other side was: the write or commit that won (0: unknown) */
    uintptr_t lost_at_site;          /* where this thread was when it lost a write lock (0: elsewhere);
                                        the embedder clears it after reading */
    uint64_t last_abort_ticks;       /* how long its last aborted transaction had run */
    uint64_t tx_start_ticks;         /* when the running transaction started */
    int wait_for_seg;                /* after losing a conflict: the winner's segment... */
    uint64_t wait_for_start;         /* ...and its transaction, which we let finish first */
    /* STM contention manager (contention.h) */
    uint8_t cm_mode;                 /* TM_CM_PARALLEL, _SERIAL, _TRIAL */
    bool cm_token;                   /* holds the token */
    uint32_t cm_conflicts;           /* conflict aborts since its last commit */
    uint32_t cm_commits;             /* commits in this mode (SERIAL: toward a trial; TRIAL: toward PARALLEL) */
    uint32_t cm_probation;           /* serialised commits before its next trial */
    bool cm_drafted;                 /* won a write-write conflict since its last commit (another thread's atomic store) */
    /* STM transaction lengths per yield point (txlength.h, tm_stm_tx_length) */
    uintptr_t tx_site;               /* the yield point the running transaction started at (0: none) */
    bool tx_site_aborted;            /* its first abort has been counted against the site */
    uint64_t acquisitions;           /* GIL build: times this thread took the segment */
    /* GIL build, HTM elision of the GIL (elision.c); tx_stats holds its counters */
    uint8_t elide_state;             /* TM_ELIDE_OUT, _IN_TX (a hardware transaction), _HOLDS_GIL */
    int32_t elide_countdown;         /* yield points left in this transaction */
    uintptr_t elide_site;            /* the yield point it started at */
    tm_list remembered;              /* under elision: old objects its write barrier remembered (one list
                                        per thread, so concurrent transactions do not conflict on one) */
    bool count_dead;                 /* its collections count dead containers (tm_gc_count_dead_start) */
    uint64_t dead_found;             /* ...into this */
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

/* Calls fn on every attached thread, under the registry lock. */
void tm_threads_foreach(void (*fn)(tm_thread *t, void *ctx), void *ctx);
int tm_thread_count(void);
/* Around a park that only another running thread can end (a monitor entry
 * or wait without a timeout: not a sleep, I/O or a timed wait), holding no
 * segment. A transaction may run solo (tx.h) while every other attached
 * thread is in such a park: none of them can want a segment before the
 * solo one lets it go (a woken one waits for its commit). */
void tm_thread_passive_begin(void);
void tm_thread_passive_end(void);
/* This thread is the only one attached, or every other one is passive. */
bool tm_threads_all_others_passive(void);
/* sum[i] = tx_stats[i] summed over every thread attached now or before
 * (a thread's counters are kept when it detaches). */
void tm_threads_sum_tx_stats(uint64_t sum[TM_TX_STATS]);
/* Moves every thread's `remembered` list (and those of threads that
 * detached since) onto `into`. */
void tm_threads_drain_remembered(tm_list *into);

#endif
