/* The hardware-transaction interface the GIL elision (elision.c) is written
 * against: begin, end, abort, test. Two implementations:
 *
 *  - RTM (htm_rtm.c): Intel's xbegin / xend / xabort / xtest, used where the
 *    CPU has RTM (CPUID, and a test transaction that commits, since
 *    microcode can disable it while CPUID still says yes).
 *  - The fake (htm_fake.c, TMPY_HTM_FAKE): for tests on machines without
 *    RTM. It cannot roll memory back, so it decides every abort at begin,
 *    before anything runs speculatively, and runs the transactions it
 *    starts one at a time (a lock stands in for the hardware's isolation).
 *    A script (the abort statuses a test chooses, in order) or a conflict
 *    model (abort probability growing with the yield points a transaction
 *    spans and the threads running; capacity aborts past a footprint)
 *    decides what begin returns.
 *
 * Statuses use RTM's layout (the EAX value xbegin leaves), so the elision
 * reads both alike. */
#ifndef TM_HTM_H
#define TM_HTM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TM_HTM_STARTED 0xffffffffu   /* begin: running transactionally */
#define TM_HTM_EXPLICIT (1u << 0)     /* xabort; the code is in bits 24-31 */
#define TM_HTM_RETRY (1u << 1)        /* the hardware thinks a retry may succeed */
#define TM_HTM_CONFLICT (1u << 2)     /* another processor touched our read or write set */
#define TM_HTM_CAPACITY (1u << 3)     /* the footprint overflowed */
#define TM_HTM_DEBUG (1u << 4)
#define TM_HTM_NESTED (1u << 5)
#define TM_HTM_CODE(status) (((status) >> 24) & 0xffu)
#define TM_HTM_STATUS_EXPLICIT(code) (TM_HTM_EXPLICIT | ((unsigned)(code) << 24))

/* Explicit abort codes of the elision. */
#define TM_HTM_CODE_GIL_HELD 0xff   /* the GIL word was set when the transaction read it */
#define TM_HTM_CODE_NEED_GIL 0xfe   /* the transaction reached work that needs the GIL (GC, ...) */

/* What a transaction is about to be (for the fake's conflict model; the
 * hardware ignores it). */
typedef struct tm_htm_tx {
    uint32_t length;    /* yield points it will span */
    int running;        /* threads running transactions or holding the GIL, this one included */
} tm_htm_tx;

typedef struct tm_htm_ops {
    const char *name;
    /* TM_HTM_STARTED, or (after an abort, or at once for the fake) a status. */
    unsigned (*begin)(const tm_htm_tx *tx);
    void (*end)(void);
    /* Explicit abort with one of the codes above. The hardware rolls back to
     * begin, which returns the status, and this never returns; the fake ends
     * its transaction and returns the status. Only called where nothing has
     * run since begin (the check of the GIL word), so both are the same. */
    unsigned (*abort)(uint8_t code);
    /* Running in a transaction started by begin? */
    bool (*test)(void);
    /* The GIL word was just set: the hardware has aborted every transaction
     * that read it; the fake waits for its running transaction to end. */
    void (*gil_taken)(void);
    /* Whether an abort rolls memory back. The fake's does not: where the
     * hardware would abort to take the GIL mid-transaction, the fake's
     * transaction (running alone) goes on. */
    bool rolls_back;
} tm_htm_ops;

/* RTM (htm_rtm.c). */
extern const tm_htm_ops tm_htm_rtm;
/* CPUID says RTM and a test transaction commits. */
bool tm_htm_rtm_available(void);

/* The fake (htm_fake.c). */
extern const tm_htm_ops tm_htm_fake;
typedef struct tm_htm_model {
    double conflict;     /* chance of a conflict per yield point per other running thread */
    uint32_t capacity;   /* yield points a transaction may span before a capacity abort (0: no limit) */
    uint64_t seed;
} tm_htm_model;
/* Parse a TMPY_HTM_FAKE value: "model[:conflict=P,capacity=N,seed=S]" or
 * "script:LETTERS" (s started, c conflict with retry, k conflict without,
 * p capacity, e explicit, u unknown/zero status; the script repeats).
 * Returns 0, or -1 with one line in err. */
int tm_htm_fake_configure(const char *spec, char *err, size_t errlen);
/* Tests: begin returns these statuses in order, then TM_HTM_STARTED. */
void tm_htm_fake_script(const unsigned *statuses, size_t n);
/* Statuses of the script not consumed yet. */
size_t tm_htm_fake_script_left(void);
void tm_htm_fake_model(const tm_htm_model *m);

#endif
