/* HTM elision of the GIL (elision.h; paper 001, Figures 1 and 2). The GIL
 * itself is gil.c's (owning segment 1); `gil.acquired` is the word
 * transactions read, set while a thread holds the GIL under elision. */
#include "elision.h"
#include "fatal.h"
#include "gc_internal.h"
#include "thread.h"
#include "tx.h"

#include <sched.h>

#if !TM_STM
_Static_assert(TM_ELIDE_STATS <= TM_TX_STATS, "the elision's counters live in tx_stats");

const tm_htm_ops *tm_elision_htm;
bool tm_elision_on;
tm_txlen_policy tm_elision_policy;

/* Each on its own cache line: transactions read the GIL word and nothing
 * else here, so only taking the GIL aborts them. */
static struct { volatile int acquired; } gil __attribute__((aligned(64)));
static int running __attribute__((aligned(64)));   /* threads between begin and end */
static uint64_t multi_begins __attribute__((aligned(64)));
static tm_elision_window windows[TM_ELIDE_WINDOWS];

/* Rounds of waiting for the GIL word to clear before taking the GIL
 * (sched_yield every 64th: the holder may need this CPU). */
int tm_elision_spin_rounds = 4096;

#define STAT(name) (tm_self.tx_stats[TM_ELIDE_##name]++)

void tm_elision_enable(const tm_htm_ops *htm, const tm_txlen_params *params)
{
    tm_txlen_init(&tm_elision_policy, params);
    tm_elision_htm = htm;
    tm_gc_roots_all_threads = true;   /* transactions end with young objects alive */
    tm_elision_on = true;
}

static int window_of(uint64_t n)
{
    uint64_t x = n / TM_ELIDE_WINDOW + 1;
    int k = 63 - __builtin_clzll(x);
    return k < TM_ELIDE_WINDOWS ? k : TM_ELIDE_WINDOWS - 1;
}

int tm_elision_windows(tm_elision_window out[TM_ELIDE_WINDOWS])
{
    int used = 0;
    for (int k = 0; k < TM_ELIDE_WINDOWS; k++) {
        out[k].begins = __atomic_load_n(&windows[k].begins, __ATOMIC_RELAXED);
        out[k].fallbacks = __atomic_load_n(&windows[k].fallbacks, __ATOMIC_RELAXED);
        if (out[k].begins)
            used = k + 1;
    }
    return used;
}

static void set_count_bit(bool on)
{
    int r = __atomic_load_n(&tm_yield_request, __ATOMIC_RELAXED);
    if (on && !(r & TM_YIELD_COUNT))
        __atomic_or_fetch(&tm_yield_request, TM_YIELD_COUNT, __ATOMIC_RELEASE);
    else if (!on && (r & TM_YIELD_COUNT))
        __atomic_and_fetch(&tm_yield_request, ~TM_YIELD_COUNT, __ATOMIC_RELEASE);
}

static void gil_acquire(void)
{
    tm_thread *me = &tm_self;
    me->segment = 0;
    tm_segment_acquire();
    __atomic_store_n(&gil.acquired, 1, __ATOMIC_SEQ_CST);
    tm_elision_htm->gil_taken();   /* no transaction runs past this */
    me->elide_state = TM_ELIDE_HOLDS_GIL;
}

/* The GIL as a fallback of the multi-thread begin numbered n. */
static void fall_back(enum tm_elide_stat why, uint64_t n)
{
    gil_acquire();
    tm_self.tx_stats[why]++;
    __atomic_add_fetch(&windows[window_of(n)].fallbacks, 1, __ATOMIC_RELAXED);
}

static void gil_release(void)
{
    /* Collect while the word keeps every transaction out: the young objects
     * of every thread are this collection's (tm_gc_roots_all_threads). */
    tm_collect_minor();
    tm_gc_maybe_collect_major();
    __atomic_store_n(&gil.acquired, 0, __ATOMIC_RELEASE);
    tm_segment_pass_on();
}

/* Figure 1, lines 40-45: wait while the GIL is held; true if it stayed held
 * and we took it. */
static bool spin_and_gil_acquire(uint64_t n)
{
    STAT(SPINS);
    for (int i = 0; i < tm_elision_spin_rounds; i++) {
        if (!__atomic_load_n(&gil.acquired, __ATOMIC_ACQUIRE))
            return false;
        if ((i & 63) == 63)
            sched_yield();
        else
            __builtin_ia32_pause();
    }
    if (!__atomic_load_n(&gil.acquired, __ATOMIC_ACQUIRE))
        return false;
    fall_back(TM_ELIDE_GIL_SPIN_TIMEOUT, n);
    return true;
}

static void count_abort(unsigned st)
{
    if (st & TM_HTM_EXPLICIT) {
        unsigned code = TM_HTM_CODE(st);
        if (code == TM_HTM_CODE_GIL_HELD)
            STAT(ABORT_GIL_HELD);
        else if (code == TM_HTM_CODE_NEED_GIL)
            STAT(ABORT_NEED_GIL);
        else
            STAT(ABORT_EXPLICIT);
    } else if (st & TM_HTM_CAPACITY) {
        STAT(ABORT_CAPACITY);
    } else if (st & TM_HTM_CONFLICT) {
        STAT(ABORT_CONFLICT);
    } else {
        STAT(ABORT_OTHER);
    }
}

/* Figure 1. */
void tm_elision_begin(uintptr_t site)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->elide_state == TM_ELIDE_OUT && me->segment == 0);
    __atomic_add_fetch(&running, 1, __ATOMIC_RELAXED);
    if (tm_thread_count() <= 1) {   /* lines 2-3: no concurrency to gain */
        set_count_bit(false);
        gil_acquire();
        me->elide_countdown = 1;   /* a second thread makes the next yield point end this */
        STAT(GIL_ALONE);
        return;
    }
    set_count_bit(true);
    uint32_t length = tm_txlen_start(&tm_elision_policy, site);   /* line 5 */
    me->elide_countdown = (int32_t)length;
    me->elide_site = site;
    uint64_t n = __atomic_fetch_add(&multi_begins, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&windows[window_of(n)].begins, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&gil.acquired, __ATOMIC_ACQUIRE) && spin_and_gil_acquire(n))   /* lines 6-8 */
        return;
    int transient_left = TM_ELIDE_TRANSIENT_RETRY_MAX, gil_left = TM_ELIDE_GIL_RETRY_MAX;
    bool first = true;
    for (;;) {
        tm_htm_tx tx = {.length = length, .running = __atomic_load_n(&running, __ATOMIC_RELAXED)};
        STAT(STARTED);
        me->segment = 1;   /* written before the transaction: an abort keeps it */
        unsigned st = tm_elision_htm->begin(&tx);   /* line 13 */
        if (st == TM_HTM_STARTED) {
            if (!gil.acquired) {   /* line 14: the word joins the read set */
                me->elide_state = TM_ELIDE_IN_TX;
                return;
            }
            st = tm_elision_htm->abort(TM_HTM_CODE_GIL_HELD);   /* the hardware does not return here */
        }
        me->segment = 0;
        count_abort(st);
        if (first) {   /* lines 17-20 */
            first = false;
            if (tm_txlen_first_abort(&tm_elision_policy, site))
                STAT(LENGTH_CUTS);
        }
        /* Line 21; an abort on the GIL word counts as a GIL conflict even if
         * the GIL has been released since (it is not persistent). */
        if (__atomic_load_n(&gil.acquired, __ATOMIC_ACQUIRE) ||
            ((st & TM_HTM_EXPLICIT) && TM_HTM_CODE(st) == TM_HTM_CODE_GIL_HELD)) {
            if (--gil_left > 0) {   /* lines 22-25 */
                STAT(RETRIES_GIL);
                if (spin_and_gil_acquire(n))
                    return;
                continue;
            }
            fall_back(TM_ELIDE_GIL_RETRIES_OUT, n);   /* line 27 */
            return;
        }
        if (!(st & TM_HTM_RETRY)) {   /* lines 28-29: persistent */
            fall_back(TM_ELIDE_GIL_PERSISTENT, n);
            return;
        }
        if (--transient_left > 0) {   /* lines 31-34 */
            STAT(RETRIES_TRANSIENT);
            continue;
        }
        fall_back(TM_ELIDE_GIL_TRANSIENT_OUT, n);   /* line 35 */
        return;
    }
}

/* Figure 2, lines 1-4. */
void tm_elision_end(void)
{
    tm_thread *me = &tm_self;
    if (me->elide_state == TM_ELIDE_IN_TX) {
        tm_elision_htm->end();
        me->segment = 0;
        STAT(COMMITTED);
    } else {
        TM_ASSERT(me->elide_state == TM_ELIDE_HOLDS_GIL);
        gil_release();
    }
    me->elide_state = TM_ELIDE_OUT;
    __atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
}

/* Figure 2, lines 8-16, from a yield point whose fast path saw
 * tm_yield_request set. A thread holding the GIL also lets it go when a
 * waiter has waited a whole switch interval (TM_YIELD_DROP). */
void tm_elision_yield(uintptr_t site)
{
    tm_thread *me = &tm_self;
    int req = __atomic_load_n(&tm_yield_request, __ATOMIC_RELAXED);
    bool drop = me->elide_state == TM_ELIDE_HOLDS_GIL && (req & TM_YIELD_DROP);
    if (req & TM_YIELD_COUNT) {
        if (--me->elide_countdown > 0 && !drop)
            return;
    } else if (!drop) {
        return;
    }
    tm_elision_end();
    tm_elision_begin(site);
}

/* The GC's slow paths: the hardware aborts to run them under the GIL. The
 * fake's transaction runs alone, so it goes on (and says so in the
 * statistics). */
void tm_htm_need_gil(void)
{
    if (tm_self.elide_state != TM_ELIDE_IN_TX)
        return;
    if (tm_elision_htm->rolls_back)
        tm_elision_htm->abort(TM_HTM_CODE_NEED_GIL);
    STAT(NEED_GIL_IN_FAKE);
}

void tm_elision_hold_gil(void) { tm_htm_need_gil(); }

void tm_elision_get_stats(tm_elision_stats *out)
{
    uint64_t sum[TM_TX_STATS];
    tm_threads_sum_tx_stats(sum);
    for (int i = 0; i < TM_ELIDE_STATS; i++)
        out->c[i] = sum[i];
    out->gil_fallbacks = sum[TM_ELIDE_GIL_SPIN_TIMEOUT] + sum[TM_ELIDE_GIL_RETRIES_OUT] +
                         sum[TM_ELIDE_GIL_PERSISTENT] + sum[TM_ELIDE_GIL_TRANSIENT_OUT];
}
#else
/* The STM build has no GIL to elide. */
void tm_elision_get_stats(tm_elision_stats *out) { *out = (tm_elision_stats){{0}, 0}; }
int tm_elision_windows(tm_elision_window out[TM_ELIDE_WINDOWS]) { (void)out; return 0; }
#endif
