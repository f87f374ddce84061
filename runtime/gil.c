/* The GIL build's transactions (tx.h): owning segment 1 is holding the GIL.
 * tm_start_transaction() acquires it; tm_commit_transaction() runs a minor
 * collection and hands it to the longest waiting thread. The STM build's
 * transactions are in stm.c. */
#include "fatal.h"
#include "gc_internal.h"
#include "thread.h"
#include "tx.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if !TM_STM
/* The GIL: a flag under a mutex; a release wakes one waiter. A thread that
 * finds the segment free takes it even if others are still asleep waiting
 * for it (CPython's GIL does the same): a thread already running need not
 * wait for a sleeping one to be scheduled. Waking the longest waiter
 * instead (strict FIFO, as before) made every handoff a context switch and
 * let threads woken by notify_all() run in turn only to wait again:
 * a Condition bounded buffer with 16 threads ran 5-30x slower than CPython.
 *
 * Two rules keep every thread moving:
 * - A thread that let the segment go while others waited does not get it
 *   back before one of them has had it (it queues behind them), so a
 *   release followed at once by an acquire is a real handoff (tm_yield,
 *   a thin-lock contender handing the segment to the owner).
 * - A waiter that has waited a whole switch interval with the segment
 *   still in the same hands sets TM_YIELD_DROP in tm_yield_request; the
 *   holder lets go at its next yield point (as CPython's eval breaker does). */
static pthread_mutex_t gil_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gil_freed;
static pthread_once_t gil_once = PTHREAD_ONCE_INIT;
/* Under gil_mutex: */
static bool gil_held;
static uint64_t gil_acquisitions;
static tm_thread *last_releaser;        /* released at acquisition count released_at, */
static uint64_t released_at;            /* with waiters queued */
volatile int tm_segment_waiters;
struct tm_yield_word tm_yield_word;
static uint64_t switch_interval_ns = 5000000;

void tm_set_switch_interval_ns(uint64_t ns) { __atomic_store_n(&switch_interval_ns, ns, __ATOMIC_RELAXED); }
uint64_t tm_get_switch_interval_ns(void) { return __atomic_load_n(&switch_interval_ns, __ATOMIC_RELAXED); }

/* The condition waits on CLOCK_MONOTONIC (the interval is a duration). */
static void gil_init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&gil_freed, &a);
    pthread_condattr_destroy(&a);
}

static struct timespec interval_from_now(void)
{
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
    return ts;
}

/* Under gil_mutex: may `me` take the segment now? `others` is how many
 * other threads wait for it. */
static bool may_take(tm_thread *me, int others)
{
    if (gil_held)
        return false;
    return !(me == last_releaser && gil_acquisitions == released_at && others > 0);
}

void tm_segment_acquire(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->attached && me->segment == 0);
    pthread_once(&gil_once, gil_init);
    pthread_mutex_lock(&gil_mutex);
    if (!may_take(me, tm_segment_waiters)) {
        int others = __atomic_add_fetch(&tm_segment_waiters, 1, __ATOMIC_SEQ_CST) - 1;
        while (!may_take(me, others)) {
            uint64_t seen = gil_acquisitions;
            struct timespec ts = interval_from_now();
            int rc = 0;
            while (rc == 0 && !may_take(me, others) && gil_acquisitions == seen) {
                rc = pthread_cond_timedwait(&gil_freed, &gil_mutex, &ts);
                others = tm_segment_waiters - 1;
            }
            if (rc == ETIMEDOUT && gil_held && gil_acquisitions == seen)
                __atomic_or_fetch(&tm_yield_request, TM_YIELD_DROP, __ATOMIC_RELEASE);
        }
        __atomic_sub_fetch(&tm_segment_waiters, 1, __ATOMIC_SEQ_CST);
    }
    gil_held = true;
    gil_acquisitions++;
    /* The new holder gets a whole interval before anyone asks it to go. */
    if (__atomic_load_n(&tm_yield_request, __ATOMIC_RELAXED) & TM_YIELD_DROP)
        __atomic_and_fetch(&tm_yield_request, ~TM_YIELD_DROP, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&gil_mutex);
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
    pthread_mutex_lock(&gil_mutex);
    gil_held = false;
    if (tm_segment_waiters) {
        last_releaser = me;
        released_at = gil_acquisitions;
        pthread_cond_signal(&gil_freed);   /* one: the others sleep on */
    }
    pthread_mutex_unlock(&gil_mutex);
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
/* fork() (fork.c): the caller holds the GIL; the threads that waited for
 * it do not exist in the child (one may even have held the mutex). */
void tm_gil_fork_child(void)
{
    pthread_mutex_init(&gil_mutex, NULL);
    pthread_once(&gil_once, gil_init);
    gil_init();   /* a new condition variable: the old one's waiters are gone */
    tm_segment_waiters = 0;
    last_releaser = NULL;
    __atomic_and_fetch(&tm_yield_request, ~TM_YIELD_DROP, __ATOMIC_RELEASE);   /* asked by a waiter */
}

#endif
