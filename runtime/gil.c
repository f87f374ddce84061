/* The GIL build's transactions (tx.h): owning segment 1 is holding the GIL.
 * tm_start_transaction() acquires it; tm_commit_transaction() runs a minor
 * collection and hands it to the longest waiting thread. The STM build's
 * transactions are in stm.c. */
#include "fatal.h"
#include "gc_internal.h"
#include "thread.h"
#include "tx.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#if !TM_STM
/* The GIL: ownership of segment 1, in ticket order. A thread takes its
 * ticket with one atomic add before it can block anywhere, so a thread that
 * releases and re-acquires at once always queues behind every waiter. */
static uint64_t next_ticket, now_serving;
static pthread_mutex_t segment_lock;
static pthread_cond_t segment_turn;
static pthread_once_t segment_once = PTHREAD_ONCE_INIT;
volatile int tm_segment_waiters;
volatile int tm_yield_request;
static uint64_t switch_interval_ns = 5000000;

void tm_set_switch_interval_ns(uint64_t ns) { __atomic_store_n(&switch_interval_ns, ns, __ATOMIC_RELAXED); }
uint64_t tm_get_switch_interval_ns(void) { return __atomic_load_n(&switch_interval_ns, __ATOMIC_RELAXED); }

/* The handoff condition waits on CLOCK_MONOTONIC (the interval is a duration). */
static void segment_init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&segment_turn, &a);
    pthread_condattr_destroy(&a);
    pthread_mutex_init(&segment_lock, NULL);
}

/* Wait for our ticket. Each switch interval that passes with the segment
 * still in the same hands asks the holder to let go at its next yield point
 * (as CPython's eval breaker does); the ticket order then makes the holder
 * queue behind us, so no thread starves. */
static void segment_wait_turn(uint64_t ticket)
{
    pthread_mutex_lock(&segment_lock);
    while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != ticket) {
        uint64_t serving = now_serving;
        uint64_t ns = tm_get_switch_interval_ns();
        if (ns < 1000)
            ns = 1000;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += (time_t)(ns / 1000000000u);
        ts.tv_nsec += (long)(ns % 1000000000u);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        int rc = 0;
        while (rc == 0 && __atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) == serving)
            rc = pthread_cond_timedwait(&segment_turn, &segment_lock, &ts);
        if (rc == ETIMEDOUT && __atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) == serving)
            __atomic_or_fetch(&tm_yield_request, TM_YIELD_DROP, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&segment_lock);
}

void tm_segment_acquire(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->attached && me->segment == 0);
    pthread_once(&segment_once, segment_init);
    uint64_t ticket = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_ACQ_REL);
    if (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != ticket) {
        __atomic_add_fetch(&tm_segment_waiters, 1, __ATOMIC_SEQ_CST);
        segment_wait_turn(ticket);
        __atomic_sub_fetch(&tm_segment_waiters, 1, __ATOMIC_SEQ_CST);
    }
    me->segment = 1;
    me->acquisitions++;
    tm_segstates[1].thread = me;
}

void tm_segment_release(void)
{
    TM_ASSERT(tm_self.segment == 1);
    tm_collect_minor();   /* nothing young outlives the segment */
    tm_gc_maybe_collect_major();
    tm_segment_pass_on();
}

void tm_segment_pass_on(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->segment == 1);
    me->segment = 0;
    pthread_mutex_lock(&segment_lock);
    __atomic_add_fetch(&now_serving, 1, __ATOMIC_ACQ_REL);
    /* Under the lock, so a waiter's request for this holder is not left for the next. */
    __atomic_and_fetch(&tm_yield_request, ~TM_YIELD_DROP, __ATOMIC_RELEASE);
    if (__atomic_load_n(&next_ticket, __ATOMIC_ACQUIRE) != now_serving)
        pthread_cond_broadcast(&segment_turn);
    pthread_mutex_unlock(&segment_lock);
}

void tm_yield_slow(uintptr_t site)
{
    if (tm_elision_on) {
        tm_elision_yield(site);
    } else if (__atomic_load_n(&tm_yield_request, __ATOMIC_ACQUIRE) & TM_YIELD_DROP) {
        tm_commit_transaction();
        tm_start_transaction();
    }
}
#endif
