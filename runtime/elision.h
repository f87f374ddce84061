/* Hardware-transactional elision of the GIL build's GIL (paper 001,
 * Figures 1 and 2; `tmpy-gil --tm=htm`, TMPY_TM=htm).
 *
 * With more than one attached thread, a thread runs from one yield point to
 * a later one as a hardware transaction that has read the GIL word (so it
 * aborts if anyone takes the GIL). Aborts are retried (3 transient, 16 while
 * the GIL is held) before the thread takes the GIL; a persistent abort takes
 * it at once. A transaction spans the number of yield points the length
 * policy (txlength.h) gives its starting yield point, and its first abort
 * counts against that yield point. With one thread, the thread simply holds
 * the GIL. Everything that needs the GIL inside a transaction (the GC's slow
 * paths) aborts it with TM_HTM_CODE_NEED_GIL (tm_htm_need_gil).
 *
 * The HTM is an interface (htm.h): Intel RTM, or a fake for tests. */
#ifndef TM_ELISION_H
#define TM_ELISION_H

#include "htm.h"
#include "txlength.h"

#include <stdbool.h>
#include <stdint.h>

#define TM_ELIDE_TRANSIENT_RETRY_MAX 3   /* section 5.1 */
#define TM_ELIDE_GIL_RETRY_MAX 16

enum { TM_ELIDE_OUT, TM_ELIDE_IN_TX, TM_ELIDE_HOLDS_GIL };

/* Counters, summed over threads (tx_stats slots of the GIL build). */
enum tm_elide_stat {
    TM_ELIDE_STARTED,            /* hardware transactions begun */
    TM_ELIDE_COMMITTED,
    TM_ELIDE_ABORT_CONFLICT,     /* aborts by cause */
    TM_ELIDE_ABORT_CAPACITY,
    TM_ELIDE_ABORT_GIL_HELD,     /* explicit: the GIL word was set */
    TM_ELIDE_ABORT_NEED_GIL,     /* explicit: work that needs the GIL */
    TM_ELIDE_ABORT_EXPLICIT,     /* explicit, another code */
    TM_ELIDE_ABORT_OTHER,        /* no cause bit (interrupts, system calls, ...) */
    TM_ELIDE_RETRIES_TRANSIENT,  /* retries after a transient abort */
    TM_ELIDE_RETRIES_GIL,        /* retries after the GIL was seen held */
    TM_ELIDE_SPINS,              /* waits for the GIL to be released (Figure 1, lines 6-8, 24) */
    TM_ELIDE_GIL_ALONE,          /* the GIL taken with one thread attached */
    TM_ELIDE_GIL_SPIN_TIMEOUT,   /* fallbacks: the GIL stayed held through a spin */
    TM_ELIDE_GIL_RETRIES_OUT,    /*   GIL conflicts exhausted their retries */
    TM_ELIDE_GIL_PERSISTENT,     /*   a persistent abort */
    TM_ELIDE_GIL_TRANSIENT_OUT,  /*   transient aborts exhausted their retries */
    TM_ELIDE_NEED_GIL_IN_FAKE,   /* the fake went on where the hardware would abort for the GIL */
    TM_ELIDE_LENGTH_CUTS,        /* per-yield-point lengths shortened */
    TM_ELIDE_STATS
};

typedef struct tm_elision_stats {
    uint64_t c[TM_ELIDE_STATS];
    uint64_t gil_fallbacks;      /* the four fallback counters summed */
} tm_elision_stats;

/* Which HTM runs (NULL: elision is off). */
extern const tm_htm_ops *tm_elision_htm;
/* Read by tm_start_transaction / tm_commit_transaction (tx.h). */
extern bool tm_elision_on;
/* Rounds of waiting for the GIL to be released before taking it (Figure 1,
 * line 41's "a while"; tests lengthen it). */
extern int tm_elision_spin_rounds;
/* The per-yield-point lengths. */
extern tm_txlen_policy tm_elision_policy;

/* Turn elision on with this HTM (before threads start). */
void tm_elision_enable(const tm_htm_ops *htm, const tm_txlen_params *params);

/* Figure 1 (a transaction or the GIL, from yield point `site`; 0: not at a
 * yield point), Figure 2's transaction_end and transaction_yield. */
void tm_elision_begin(uintptr_t site);
void tm_elision_end(void);
void tm_elision_yield(uintptr_t site);

/* Make sure this thread holds the GIL (at exit: no other thread runs
 * again). In a hardware transaction this aborts it, and the thread comes
 * back here holding the GIL; the fake's transaction already runs alone. */
void tm_elision_hold_gil(void);

void tm_elision_get_stats(tm_elision_stats *out);

/* GIL fallbacks over time: window k covers multi-thread begins
 * [W(2^k - 1), W(2^(k+1) - 1)), W = TM_ELIDE_WINDOW. */
#define TM_ELIDE_WINDOW 256
#define TM_ELIDE_WINDOWS 40
typedef struct tm_elision_window { uint64_t begins, fallbacks; } tm_elision_window;
/* Copies the windows; returns how many have begins. */
int tm_elision_windows(tm_elision_window out[TM_ELIDE_WINDOWS]);

#endif
