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

__thread tm_thread tm_self;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static tm_thread *threads;
static int nthreads;

void tm_thread_attach(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(!me->attached);
    size_t bytes = TM_SHADOWSTACK_ENTRIES * sizeof(object_t *);
    /* A guard page above the shadow stack turns an overflow into a fault at
     * once instead of silent corruption. */
    char *m = mmap(NULL, bytes + TM_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED || mprotect(m + bytes, TM_PAGE_SIZE, PROT_NONE) != 0)
        tm_fatal("cannot allocate a shadow stack: %s", strerror(errno));
    me->ss_base = me->ss_top = (object_t **)m;
    me->ss_limit = me->ss_base + TM_SHADOWSTACK_ENTRIES;
    me->segment = 0;
    pthread_cond_init(&me->granted, NULL);
    me->attached = true;
    pthread_mutex_lock(&registry_lock);
    me->prev = NULL;
    me->next = threads;
    if (threads)
        threads->prev = me;
    threads = me;
    nthreads++;
    tm_stm_adjust_spinning(nthreads);
    pthread_mutex_unlock(&registry_lock);
    if (!TM_STM)
        tm_set_segment(1);   /* the one thread segment of the GIL build */
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
    nthreads--;
    tm_stm_adjust_spinning(nthreads);
    pthread_mutex_unlock(&registry_lock);
    tm_stm_retire_thread_stats();
    munmap(me->ss_base, TM_SHADOWSTACK_ENTRIES * sizeof(object_t *) + TM_PAGE_SIZE);
    pthread_cond_destroy(&me->granted);
    me->attached = false;
}

int tm_thread_count(void) { return nthreads; }

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
static pthread_mutex_t segment_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t segment_turn = PTHREAD_COND_INITIALIZER;
volatile int tm_segment_waiters;

void tm_segment_acquire(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->attached && me->segment == 0);
    uint64_t ticket = __atomic_fetch_add(&next_ticket, 1, __ATOMIC_ACQ_REL);
    if (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != ticket) {
        __atomic_add_fetch(&tm_segment_waiters, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_lock(&segment_lock);
        while (__atomic_load_n(&now_serving, __ATOMIC_ACQUIRE) != ticket)
            pthread_cond_wait(&segment_turn, &segment_lock);
        pthread_mutex_unlock(&segment_lock);
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
    if (__atomic_load_n(&next_ticket, __ATOMIC_ACQUIRE) != now_serving)
        pthread_cond_broadcast(&segment_turn);
    pthread_mutex_unlock(&segment_lock);
}

void tm_stm_get_stats(tm_stm_stats *out) { *out = (tm_stm_stats){0}; }
#endif
