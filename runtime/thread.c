/* Attached threads: the registry, thread indexes, shadow stacks. */
#define _GNU_SOURCE
#include "thread.h"
#include "fatal.h"
#include "segment.h"

#include <sys/mman.h>

__thread tm_thread tm_self;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static tm_thread *threads;
static int nthreads;
/* Attached threads parked in a wait that only a running thread can end
 * (tm_thread_passive_begin): they let another one run solo. */
static int passive_waiters;
/* Index -> thread; a free index is NULL. Written under registry_lock with
 * release stores, a thread once its index and shadow stack are set
 * (tm_thread_by_index reads without the lock). */
static tm_thread *by_index[TM_MAX_THREAD_INDEX + 1];
static unsigned index_hint = 1;
/* tx_stats of the threads that detached, under registry_lock. */
static uint64_t detached_tx_stats[TM_TX_STATS];
/* `remembered` entries of the threads that detached, under registry_lock:
 * the next minor collection still owes them a trace. */
static tm_list detached_remembered;

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
    TM_ASSERT(me->attached && me->segment == 0 && !me->cm_token);   /* the token goes back at commit */
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
    for (int i = 0; i < TM_TX_STATS; i++)
        detached_tx_stats[i] += me->tx_stats[i];
    for (size_t i = 0; i < me->remembered.count; i++)
        tm_list_push(&detached_remembered, me->remembered.items[i]);
    pthread_mutex_unlock(&registry_lock);
    tm_list_free(&me->remembered);
    munmap(me->ss_base, TM_SHADOWSTACK_ENTRIES * sizeof(object_t *) + TM_PAGE_SIZE);
    me->attached = false;
}

int tm_thread_count(void) { return __atomic_load_n(&nthreads, __ATOMIC_RELAXED); }

void tm_thread_passive_begin(void) { __atomic_add_fetch(&passive_waiters, 1, __ATOMIC_ACQ_REL); }
void tm_thread_passive_end(void) { __atomic_sub_fetch(&passive_waiters, 1, __ATOMIC_ACQ_REL); }

bool tm_threads_all_others_passive(void)
{
    int n = __atomic_load_n(&nthreads, __ATOMIC_ACQUIRE);
    return n == 1 || n - 1 == __atomic_load_n(&passive_waiters, __ATOMIC_ACQUIRE);
}

void tm_threads_foreach(void (*fn)(tm_thread *t, void *ctx), void *ctx)
{
    pthread_mutex_lock(&registry_lock);
    for (tm_thread *t = threads; t; t = t->next)
        fn(t, ctx);
    pthread_mutex_unlock(&registry_lock);
}

void tm_threads_sum_tx_stats(uint64_t sum[TM_TX_STATS])
{
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < TM_TX_STATS; i++)
        sum[i] = detached_tx_stats[i];
    for (tm_thread *t = threads; t; t = t->next)
        for (int i = 0; i < TM_TX_STATS; i++)
            sum[i] += t->tx_stats[i];
    pthread_mutex_unlock(&registry_lock);
}

static void move_items(tm_list *from, tm_list *into)
{
    for (size_t i = 0; i < from->count; i++)
        tm_list_push(into, from->items[i]);
    from->count = 0;
}

void tm_threads_drain_remembered(tm_list *into)
{
    pthread_mutex_lock(&registry_lock);
    move_items(&detached_remembered, into);
    for (tm_thread *t = threads; t; t = t->next)
        move_items(&t->remembered, into);
    pthread_mutex_unlock(&registry_lock);
}

/* fork() (fork.c): no thread attaches or detaches while the process is
 * copied; the registry lock is held from prepare to the parent's or the
 * child's call. */
void tm_threads_fork_prepare(void) { pthread_mutex_lock(&registry_lock); }
void tm_threads_fork_parent(void) { pthread_mutex_unlock(&registry_lock); }

/* The child has one thread, the caller: the others' entries go as if they
 * had detached (their counters kept, their shadow stacks unmapped, their
 * indexes free). Their tm_thread records were their TLS, still mapped. */
void tm_threads_fork_child(void)
{
    pthread_mutex_init(&registry_lock, NULL);
    tm_thread *me = &tm_self;
    for (tm_thread *t = threads, *next; t; t = next) {
        next = t->next;
        if (t == me)
            continue;
        for (int i = 0; i < TM_TX_STATS; i++)
            detached_tx_stats[i] += t->tx_stats[i];
        for (size_t i = 0; i < t->remembered.count; i++)
            tm_list_push(&detached_remembered, t->remembered.items[i]);
        tm_list_free(&t->remembered);
        by_index[t->index] = NULL;
        munmap(t->ss_base, TM_SHADOWSTACK_ENTRIES * sizeof(object_t *) + TM_PAGE_SIZE);
        t->attached = false;
        t->segment = 0;
        t->cm_token = false;
    }
    me->prev = me->next = NULL;
    threads = me;
    nthreads = 1;
    passive_waiters = 0;   /* the others' parks are gone; the caller is not parked */
}
