#define _GNU_SOURCE
#include "thread.h"
#include "fatal.h"
#include "gc.h"
#include "gc_internal.h"
#include "stm.h"
#include "tx.h"
#include "segment.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

__thread tm_thread tm_self;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static tm_thread *threads;
static int nthreads;
/* Index -> thread; a free index is NULL. Written under registry_lock with
 * release stores, a thread once its index and shadow stack are set
 * (tm_thread_by_index reads without the lock). */
static tm_thread *by_index[TM_MAX_THREAD_INDEX + 1];
static unsigned index_hint = 1;

/* Gives me the lowest free index at or after the hint, wrapping, and
 * publishes it; false if none. Reusing from the hint on (not always the
 * lowest) spaces out the reuse of an index. */
static bool take_index(tm_thread *me)
{
    for (unsigned k = 0; k < TM_MAX_THREAD_INDEX; k++) {
        unsigned i = 1 + (index_hint - 1 + k) % TM_MAX_THREAD_INDEX;
        if (!by_index[i]) {
            me->index = (uint16_t)i;
            __atomic_store_n(&by_index[i], me, __ATOMIC_RELEASE);
            index_hint = i % TM_MAX_THREAD_INDEX + 1;
            return true;
        }
    }
    return false;
}

tm_thread *tm_thread_by_index(unsigned index)
{
    if (index == 0 || index > TM_MAX_THREAD_INDEX)
        return NULL;
    return __atomic_load_n(&by_index[index], __ATOMIC_ACQUIRE);
}

bool tm_thread_try_attach(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(!me->attached);
    size_t bytes = TM_SHADOWSTACK_ENTRIES * sizeof(object_t *);
    /* A guard page above the shadow stack turns an overflow into a fault at
     * once instead of silent corruption. */
    char *m = mmap(NULL, bytes + TM_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return false;
    if (mprotect(m + bytes, TM_PAGE_SIZE, PROT_NONE) != 0) {
        munmap(m, bytes + TM_PAGE_SIZE);
        return false;
    }
    me->ss_base = me->ss_top = (object_t **)m;
    me->ss_limit = me->ss_base + TM_SHADOWSTACK_ENTRIES;
    me->segment = 0;
    me->attached = true;
    pthread_mutex_lock(&registry_lock);
    if (!take_index(me)) {
        pthread_mutex_unlock(&registry_lock);
        me->attached = false;
        munmap(m, bytes + TM_PAGE_SIZE);
        return false;
    }
    me->prev = NULL;
    me->next = threads;
    if (threads)
        threads->prev = me;
    threads = me;
    __atomic_store_n(&nthreads, nthreads + 1, __ATOMIC_RELAXED);   /* read without the lock */
    tm_stm_adjust_spinning(nthreads);
    pthread_mutex_unlock(&registry_lock);
    if (!TM_STM)
        tm_set_segment(1);   /* the one thread segment of the GIL build */
    return true;
}

void tm_thread_attach(void)
{
    if (!tm_thread_try_attach())
        tm_fatal("cannot attach a thread: no shadow stack memory or no free thread index");
}

void tm_thread_detach(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->attached && me->segment == 0);
    pthread_mutex_lock(&registry_lock);
    if (me->prev)
        me->prev->next = me->next;
    else
        threads = me->next;
    if (me->next)
        me->next->prev = me->prev;
    __atomic_store_n(&nthreads, nthreads - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&by_index[me->index], NULL, __ATOMIC_RELEASE);
    me->index = 0;
    tm_stm_adjust_spinning(nthreads);
    pthread_mutex_unlock(&registry_lock);
    tm_stm_retire_thread_stats();
    munmap(me->ss_base, TM_SHADOWSTACK_ENTRIES * sizeof(object_t *) + TM_PAGE_SIZE);
    me->attached = false;
}

int tm_thread_count(void) { return __atomic_load_n(&nthreads, __ATOMIC_RELAXED); }

void tm_threads_foreach(void (*fn)(tm_thread *t, void *ctx), void *ctx)
{
    pthread_mutex_lock(&registry_lock);
    for (tm_thread *t = threads; t; t = t->next)
        fn(t, ctx);
    pthread_mutex_unlock(&registry_lock);
}

#if !TM_STM
/* The GIL: ownership of segment 1, in ticket order. A thread takes its
 * ticket with one atomic add before it can block anywhere, so a thread that
 * releases and re-acquires at once always queues behind every waiter. */
static uint64_t next_ticket, now_serving;
static pthread_mutex_t segment_lock;
static pthread_cond_t segment_turn;
static pthread_once_t segment_once = PTHREAD_ONCE_INIT;
volatile int tm_segment_waiters;
volatile int tm_segment_drop_request;
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
            __atomic_store_n(&tm_segment_drop_request, 1, __ATOMIC_RELEASE);
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
    tm_thread *me = &tm_self;
    TM_ASSERT(me->segment == 1);
    tm_collect_minor();   /* nothing young outlives the segment */
    tm_gc_maybe_collect_major();
    me->segment = 0;
    pthread_mutex_lock(&segment_lock);
    __atomic_add_fetch(&now_serving, 1, __ATOMIC_ACQ_REL);
    /* Under the lock, so a waiter's request for this holder is not left for the next. */
    __atomic_store_n(&tm_segment_drop_request, 0, __ATOMIC_RELEASE);
    if (__atomic_load_n(&next_ticket, __ATOMIC_ACQUIRE) != now_serving)
        pthread_cond_broadcast(&segment_turn);
    pthread_mutex_unlock(&segment_lock);
}

void tm_stm_get_stats(tm_stm_stats *out) { *out = (tm_stm_stats){0}; }
#endif
