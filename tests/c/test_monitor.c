/* Object monitors (runtime/monitor.h), GIL build.
 *
 *  1. uncontended: the word goes back to exactly its GC bits (a young object,
 *     an old one with TM_GCFLAG_WRITE_BARRIER, one whose barrier flag is
 *     cleared while it is locked), a lock held across minor collections
 *     (the object moves with its lock word) and a major collection;
 *  2. nesting to 255, 256, 257 and 1000 levels and back: the count is exact
 *     at every level, the lock inflates exactly at the 257th, exit fails
 *     once the last level is gone; exit_all / enter_count, thin and fat;
 *  3. contention among 2, 4 and 8 threads holding the GIL and handing it
 *     over inside their critical sections (and outside), on a chain of
 *     objects each locked first while young: a per-object "inside" marker
 *     and an unchanged value across the critical section check mutual
 *     exclusion; the sum of the objects' values equals the increments made;
 *     nesting (sometimes past the thin limit), exit_all / enter_count;
 *  4. timed enter: try-only and a timeout against a holder, thin then fat
 *     (no inflation for try-only), a timed-out thread leaving the queue
 *     behind a queued one, and a timed enter that succeeds when the holder
 *     lets go; exit, wait and notify by a non-owner fail and change nothing;
 *     handoff: an unlock makes the first queued thread the owner (the
 *     unlocker cannot take it back), then the next; fairness: a thread that
 *     enters and exits in a loop enters at most once more while another
 *     waits (the contender inflates and queues at once);
 *  5. wait/notify: timeouts re-acquire with the same count (thin, fat, 0,
 *     young object that moves while waiting), custom blocking hooks, N
 *     waiters notified one at a time in FIFO order, two at a time, all at
 *     once; a race of short timeouts against notifies where the number of
 *     waits that report NOTIFIED must equal the number notify reported;
 *  6. thread indexes: attach/detach in sequence until an index recurs (not
 *     at once: the index hint rotates); the new thread with a dead thread's index takes the monitor that thread
 *     released and appears to own those it left held (thin and fat).
 *
 * TMPY_TEST_SCALE multiplies the iteration counts; TMPY_GC_DEBUG=move runs
 * it with every allocation collecting. Optional arguments name the parts to
 * run (uncontended nesting contention timed fairness wait recycle interrupt). */
#include "tmrt.h"
#include "monitor.h"
#include "testutil.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MS 1000000LL
#define WB TM_GCFLAG_WRITE_BARRIER

typedef __seg_gs struct cell cell_t;
struct cell {
    tm_header h;
    cell_t *prev;         /* word 1: the chain of contended objects */
    uintptr_t value;
    uintptr_t inside;     /* id + 1 of the thread in the critical section */
    uintptr_t serial;
};

static uint16_t T_CELL;
static double scale;

static object_t *as_obj(void __seg_gs *p) { return (object_t *)p; }
static cell_t *as_cell(object_t *o) { return (cell_t *)o; }

static cell_t *new_cell(void)
{
    cell_t *c = (cell_t *)tm_allocate(T_CELL, sizeof(struct cell));
    CHECK(c != NULL, "cell allocation failed");
    return c;
}

static uint32_t flags(object_t *o) { return o->h.flags; }
static uint32_t me_bits(void) { return (uint32_t)tm_self.index << TM_LOCK_OWNER_SHIFT; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Hand the GIL over. With the CPU given up in between: a thread just woken
 * from a monitor may sit on this CPU's run queue until we block, and only
 * queues for the GIL once it runs. */
static void gil_handover(void)
{
    tm_commit_transaction();
    sched_yield();
    tm_start_transaction();
}

static tm_monitor_stats stats(void)
{
    tm_monitor_stats s;
    tm_monitor_get_stats(&s);
    return s;
}

/* Poll, without holding the segment between looks, until *p >= v (read under the GIL). */
static void await_at_least(const volatile int *p, int v)
{
    for (unsigned i = 0;; i++) {
        tm_start_transaction();
        int now = *p;
        tm_commit_transaction();
        if (now >= v)
            return;
        if (i < 100)
            sched_yield();
        else
            nanosleep(&(struct timespec){.tv_nsec = 50000}, NULL);
    }
}

/* ---- 1. uncontended ---- */

static void test_uncontended(void)
{
    tm_start_transaction();
    size_t depth = TM_SHADOWSTACK_DEPTH();
    uint32_t me = me_bits();
    CHECK(tm_self.index >= 1 && tm_self.index <= TM_MAX_THREAD_INDEX, "index %u", tm_self.index);

    /* young */
    object_t *o = as_obj(new_cell());
    CHECK(flags(o) == 0, "young flags %#x", flags(o));
    CHECK(tm_monitor_owner(o) == 0 && tm_monitor_count(o) == 0, "fresh object locked");
    CHECK(!tm_monitor_exit(o), "exit of an unlocked monitor succeeded");
    CHECK(flags(o) == 0, "failed exit changed the word: %#x", flags(o));
    tm_monitor_enter(o);
    CHECK(flags(o) == me, "locked young word %#x, expected %#x", flags(o), me);
    CHECK(tm_monitor_owner(o) == tm_self.index && tm_monitor_count(o) == 1, "owner/count after enter");
    CHECK(tm_monitor_exit(o), "exit failed");
    CHECK(flags(o) == 0, "unlocked young word %#x", flags(o));
    CHECK(tm_monitor_enter_timed(o, 0), "try-enter of a free monitor failed");
    CHECK(tm_monitor_enter_timed(o, 5 * MS), "nested timed enter failed");
    CHECK(tm_monitor_count(o) == 2 && flags(o) == (me | 1u << TM_LOCK_COUNT_SHIFT), "word %#x", flags(o));
    CHECK(tm_monitor_exit(o) && tm_monitor_exit(o) && !tm_monitor_exit(o) && flags(o) == 0, "timed enters undone");

    /* held across a minor collection: the object moves with its lock word */
    tm_monitor_enter(o);
    tm_monitor_enter(o);
    tm_monitor_enter(o);
    uintptr_t before = (uintptr_t)o;
    TM_PUSH_ROOT(o);
    tm_collect_minor();
    TM_POP_ROOT(o);
    CHECK((uintptr_t)o != before, "the young object did not move");
    CHECK(flags(o) == (WB | me | 2u << TM_LOCK_COUNT_SHIFT), "moved word %#x", flags(o));
    CHECK(tm_monitor_count(o) == 3 && tm_monitor_owner(o) == tm_self.index, "count after the move");
    for (int i = 0; i < 3; i++)
        CHECK(tm_monitor_exit(o), "exit %d after the move", i);
    CHECK(flags(o) == WB, "old word after unlock %#x, expected exactly the barrier flag", flags(o));
    CHECK(!tm_monitor_exit(o), "exit of an unlocked old object");

    /* old, with the write-barrier flag: kept through lock and unlock */
    tm_monitor_enter(o);
    CHECK(flags(o) == (WB | me), "old locked word %#x", flags(o));
    CHECK(tm_monitor_exit(o) && flags(o) == WB, "old unlocked word %#x", flags(o));
    /* the barrier flag cleared while locked: unlock keeps the current GC bits */
    tm_monitor_enter(o);
    tm_write(o);
    as_cell(o)->value = 1;
    CHECK(flags(o) == me, "barrier did not clear the flag: %#x", flags(o));
    CHECK(tm_monitor_exit(o) && flags(o) == 0, "word after unlock %#x, expected 0", flags(o));
    TM_PUSH_ROOT(o);
    tm_collect_minor();
    TM_POP_ROOT(o);
    CHECK(flags(o) == WB, "minor collection did not set the flag again: %#x", flags(o));

    /* held across a major collection */
    tm_monitor_enter(o);
    tm_monitor_enter(o);
    TM_PUSH_ROOT(o);
    tm_collect_major();
    TM_POP_ROOT(o);
    CHECK(flags(o) == (WB | me | 1u << TM_LOCK_COUNT_SHIFT), "word after a major collection %#x", flags(o));
    CHECK(tm_monitor_exit(o) && tm_monitor_exit(o) && flags(o) == WB, "word %#x", flags(o));

    /* tm_allocate_old: born old */
    object_t *b = tm_allocate_old(T_CELL, sizeof(struct cell));
    CHECK(b != NULL, "old allocation");
    uint32_t b0 = flags(b);
    tm_monitor_enter(b);
    CHECK(flags(b) == (b0 | me), "born-old locked word %#x", flags(b));
    CHECK(tm_monitor_exit(b) && flags(b) == b0, "born-old unlocked word %#x, was %#x", flags(b), b0);

    CHECK(TM_SHADOWSTACK_DEPTH() == depth, "shadow stack depth changed");
    tm_commit_transaction();
    printf("ok uncontended: young, old with the barrier flag, flag cleared while locked, across minor and major "
           "collections\n");
}

/* ---- 2. nesting ---- */

static void nest(object_t **op, unsigned levels)
{
    object_t *o = *op;
    uint32_t me = me_bits();
    uint32_t low = flags(o) & TM_GCFLAG_MASK;
    CHECK((flags(o) & TM_LOCK_FIELD_MASK) == 0, "nest: not a fresh thin word");
    tm_monitor_stats s0 = stats();
    for (unsigned i = 1; i <= levels; i++) {
        tm_monitor_enter(o);
        CHECK(tm_monitor_count(o) == i, "level %u: count %lu", i, (unsigned long)tm_monitor_count(o));
        CHECK(tm_monitor_owner(o) == tm_self.index, "level %u: owner %u", i, tm_monitor_owner(o));
        tm_monitor_stats s = stats();
        if (i <= 256) {
            CHECK(flags(o) == (low | me | (i - 1) << TM_LOCK_COUNT_SHIFT), "level %u: word %#x", i, flags(o));
            CHECK(s.inflations == s0.inflations, "level %u: inflated", i);
        } else {
            CHECK((flags(o) & TM_LOCK_FAT_BIT) && (flags(o) & TM_GCFLAG_MASK) == low, "level %u: word %#x", i,
                  flags(o));
            CHECK(s.inflations == s0.inflations + 1 && s.fat_locks == s0.fat_locks + 1,
                  "level %u: %lu inflations", i, (unsigned long)(s.inflations - s0.inflations));
        }
        if (i % 97 == 0) {   /* move it (if young) with the lock held */
            TM_PUSH_ROOT(o);
            tm_collect_minor();
            TM_POP_ROOT(o);
            low = flags(o) & TM_GCFLAG_MASK;
            CHECK(tm_monitor_count(o) == i, "level %u: count after a minor collection", i);
        }
    }
    uint32_t locked_word = flags(o);
    for (unsigned i = levels; i >= 1; i--) {
        CHECK(tm_monitor_exit(o), "exit at level %u failed", i);
        CHECK(tm_monitor_count(o) == i - 1, "after exit at level %u: count %lu", i,
              (unsigned long)tm_monitor_count(o));
        CHECK(tm_monitor_owner(o) == (i > 1 ? tm_self.index : 0u), "after exit at level %u: owner %u", i,
              tm_monitor_owner(o));
    }
    CHECK(!tm_monitor_exit(o), "exit past the last level succeeded");
    CHECK(!tm_monitor_exit(o), "exit past the last level succeeded (twice)");
    if (levels <= 256)
        CHECK(flags(o) == low, "unlocked thin word %#x, expected %#x", flags(o), low);
    else
        CHECK(flags(o) == locked_word, "a fat lock's word changed: %#x, was %#x", flags(o), locked_word);
    *op = o;
}

static void test_nesting(void)
{
    tm_start_transaction();
    size_t depth = TM_SHADOWSTACK_DEPTH();
    static const unsigned levels[] = {1, 2, 255, 256, 257, 1000};
    for (int old = 0; old < 2; old++) {
        for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
            object_t *o = as_obj(new_cell());
            if (old) {
                TM_PUSH_ROOT(o);
                tm_collect_minor();
                TM_POP_ROOT(o);
                CHECK(flags(o) == WB, "old cell flags %#x", flags(o));
            }
            nest(&o, levels[k]);
            if (levels[k] > 256) {
                /* fat and unlocked: enter / exit again on the fat path */
                tm_monitor_stats s0 = stats();
                uint32_t w = flags(o);
                for (int i = 1; i <= 3; i++) {
                    tm_monitor_enter(o);
                    CHECK(tm_monitor_count(o) == (uint64_t)i, "fat re-enter count");
                }
                for (int i = 0; i < 3; i++)
                    CHECK(tm_monitor_exit(o), "fat exit");
                CHECK(!tm_monitor_exit(o) && flags(o) == w, "fat word %#x changed", flags(o));
                CHECK(stats().inflations == s0.inflations, "an inflated lock inflated again");
            }
        }
    }

    /* exit_all / enter_count */
    object_t *o = as_obj(new_cell());
    CHECK(tm_monitor_exit_all(o) == 0, "exit_all of an unlocked monitor");
    for (int i = 0; i < 5; i++)
        tm_monitor_enter(o);
    CHECK(tm_monitor_exit_all(o) == 5 && flags(o) == 0, "thin exit_all: word %#x", flags(o));
    CHECK(tm_monitor_count(o) == 0 && !tm_monitor_exit(o), "thin exit_all left it locked");
    tm_monitor_enter_count(o, 5);
    CHECK(tm_monitor_count(o) == 5 && flags(o) == (me_bits() | 4u << TM_LOCK_COUNT_SHIFT), "enter_count(5): %#x",
          flags(o));
    tm_monitor_enter_count(o, 251);
    CHECK(tm_monitor_count(o) == 256 && !(flags(o) & TM_LOCK_FAT_BIT), "enter_count to 256: %#x", flags(o));
    CHECK(tm_monitor_exit_all(o) == 256 && flags(o) == 0, "exit_all 256");
    tm_monitor_stats s0 = stats();
    tm_monitor_enter_count(o, 0);
    CHECK(tm_monitor_count(o) == 0 && flags(o) == 0, "enter_count(0) locked it");
    tm_monitor_enter_count(o, 300);
    CHECK(tm_monitor_count(o) == 300 && (flags(o) & TM_LOCK_FAT_BIT), "enter_count(300): %#x", flags(o));
    CHECK(stats().inflations == s0.inflations + 1, "enter_count(300) did not inflate once");
    tm_monitor_enter(o);
    CHECK(tm_monitor_exit_all(o) == 301 && tm_monitor_count(o) == 0 && tm_monitor_owner(o) == 0, "fat exit_all");
    CHECK(tm_monitor_exit_all(o) == 0 && !tm_monitor_exit(o), "fat exit_all twice");
    tm_monitor_enter_count(o, 7);
    CHECK(tm_monitor_count(o) == 7, "fat enter_count(7)");
    CHECK(tm_monitor_exit_all(o) == 7, "fat exit_all(7)");
    o = as_obj(new_cell());
    tm_monitor_enter_count(o, 200);
    tm_monitor_enter_count(o, 100);
    CHECK(tm_monitor_count(o) == 300 && (flags(o) & TM_LOCK_FAT_BIT), "200 + 100 levels");
    CHECK(tm_monitor_exit_all(o) == 300, "exit_all 300");

    CHECK(TM_SHADOWSTACK_DEPTH() == depth, "shadow stack depth changed");
    tm_commit_transaction();
    printf("ok nesting: 1, 2, 255, 256, 257, 1000 levels (young and old), inflation exactly at 257, "
           "exit_all / enter_count thin and fat\n");
}

/* ---- 3. contention ---- */

static cell_t *cur;                  /* global root: the newest cell of the chain */
static uintptr_t serial_next;        /* under the GIL */

typedef struct cworker {
    int id;
    int iters;
    rng_t rng;
    uint64_t incs, news, handovers, overflows, releases;
} cworker;

static void *contend_main(void *arg)
{
    cworker *w = arg;
    tm_thread_attach();
    tm_start_transaction();    /* queued behind the main thread, with the others */
    size_t depth = TM_SHADOWSTACK_DEPTH();
    uintptr_t tag = (uintptr_t)w->id + 1;
    for (int it = 0; it < w->iters; it++) {
        uint64_t r = rng_next(&w->rng);
        object_t *o = as_obj(cur);
        TM_PUSH_ROOT(o);
        tm_monitor_enter(o);
        TM_POP_ROOT(o);
        CHECK(tm_monitor_owner(o) == tm_self.index && tm_monitor_count(o) == 1, "thread %d: enter: owner %u count %lu",
              w->id, tm_monitor_owner(o), (unsigned long)tm_monitor_count(o));
        if (r % 16 == 0) {
            /* release every level in the middle, let others in, take them back */
            unsigned extra = (unsigned)(r >> 4) % 3;
            for (unsigned i = 0; i < extra; i++)
                tm_monitor_enter(o);
            CHECK(tm_monitor_exit_all(o) == 1 + extra, "thread %d: exit_all", w->id);
            TM_PUSH_ROOT(o);
            gil_handover();
            tm_monitor_enter_count(o, 1 + extra);
            TM_POP_ROOT(o);
            CHECK(tm_monitor_count(o) == 1 + extra, "thread %d: enter_count", w->id);
            for (unsigned i = 0; i < extra; i++)
                CHECK(tm_monitor_exit(o), "thread %d: exit after enter_count", w->id);
            w->releases++;
        }
        CHECK(as_cell(o)->inside == 0, "thread %d entered while thread %lu is inside (serial %lu)", w->id,
              (unsigned long)as_cell(o)->inside - 1, (unsigned long)as_cell(o)->serial);
        tm_write(o);
        as_cell(o)->inside = tag;
        uintptr_t v = as_cell(o)->value;
        if ((r >> 8) % 4 == 0) {      /* others run (and contend) */
            TM_PUSH_ROOT(o);
            gil_handover();
            TM_POP_ROOT(o);
            w->handovers++;
        }
        if ((r >> 12) % 8 == 0) {     /* nested, sometimes past the thin limit */
            unsigned levels = (r >> 16) % 64 == 0 ? 300 : 1 + (unsigned)(r >> 16) % 3;
            for (unsigned i = 0; i < levels; i++)
                tm_monitor_enter(o);
            CHECK(tm_monitor_count(o) == 1 + levels, "thread %d: nested count", w->id);
            if ((r >> 24) % 2 == 0) {
                TM_PUSH_ROOT(o);
                gil_handover();
                TM_POP_ROOT(o);
            }
            for (unsigned i = 0; i < levels; i++)
                CHECK(tm_monitor_exit(o), "thread %d: nested exit", w->id);
            if (levels == 300)
                w->overflows++;
        }
        if ((r >> 32) % 32 == 0) {
            /* a new cell, locked while young; others find it locked once it moved */
            TM_PUSH_ROOT(o);
            cell_t *n = new_cell();
            TM_POP_ROOT(o);
            n->prev = cur;
            n->serial = ++serial_next;
            unsigned levels = 1 + (unsigned)(r >> 40) % 3;
            for (unsigned i = 0; i < levels; i++)
                tm_monitor_enter(as_obj(n));
            uint32_t want = me_bits() | (levels - 1) << TM_LOCK_COUNT_SHIFT;
            CHECK((flags(as_obj(n)) & ~(uint32_t)WB) == want, "young cell word %#x, expected %#x",
                  flags(as_obj(n)), want);
            cur = n;
            TM_PUSH_ROOT(o);
            TM_PUSH_ROOT(n);
            gil_handover();
            TM_POP_ROOT(n);
            TM_POP_ROOT(o);
            CHECK(tm_monitor_count(as_obj(n)) == levels && tm_monitor_owner(as_obj(n)) == tm_self.index,
                  "thread %d: the new cell's lock after it moved", w->id);
            CHECK(n->inside == 0, "new cell inside");
            tm_write(as_obj(n));
            n->value++;
            w->incs++;
            for (unsigned i = 0; i < levels; i++)
                CHECK(tm_monitor_exit(as_obj(n)), "thread %d: new cell exit", w->id);
            w->news++;
        }
        CHECK(as_cell(o)->inside == tag, "thread %d: thread %ld got in while we were inside", w->id,
              (long)as_cell(o)->inside - 1);
        CHECK(as_cell(o)->value == v, "thread %d: value changed inside the critical section", w->id);
        tm_write(o);
        as_cell(o)->value = v + 1;
        as_cell(o)->inside = 0;
        w->incs++;
        CHECK(tm_monitor_exit(o), "thread %d: exit failed", w->id);
        CHECK(tm_monitor_count(o) == 0, "thread %d: still owner", w->id);
        if ((r >> 48) % 8 == 0)
            gil_handover();
    }
    CHECK(TM_SHADOWSTACK_DEPTH() == depth, "shadow stack depth changed");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void contention_round(int nthreads, int iters)
{
    tm_start_transaction();
    cur = (cell_t *)tm_allocate_old(T_CELL, sizeof(struct cell));
    CHECK(cur != NULL, "old cell");
    cur->serial = ++serial_next;
    tm_monitor_stats s0 = stats();
    double t0 = now_s();
    pthread_t th[8];
    cworker ws[8];
    for (int i = 0; i < nthreads; i++) {
        ws[i] = (cworker){.id = i, .iters = iters, .rng = {0x9e3779b9ULL * (uint64_t)(i + 1) + (uint64_t)nthreads}};
        CHECK(pthread_create(&th[i], NULL, contend_main, &ws[i]) == 0, "pthread_create");
    }
    /* Let them go once all are queued for the GIL: from then on each hand-over
     * inside a critical section lets the next one run into the lock. */
    while (__atomic_load_n(&tm_segment_waiters, __ATOMIC_ACQUIRE) < nthreads)
        sched_yield();
    tm_commit_transaction();
    uint64_t incs = 0, news = 0, handovers = 0, overflows = 0, releases = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
        incs += ws[i].incs;
        news += ws[i].news;
        handovers += ws[i].handovers;
        overflows += ws[i].overflows;
        releases += ws[i].releases;
    }
    tm_start_transaction();
    uint64_t sum = 0, cells = 0, fat = 0;
    for (cell_t *c = cur; c; c = c->prev) {
        object_t *o = as_obj(c);
        CHECK(c->inside == 0, "cell %lu: still marked inside", (unsigned long)c->serial);
        CHECK(tm_monitor_owner(o) == 0, "cell %lu: still owned by %u", (unsigned long)c->serial, tm_monitor_owner(o));
        CHECK((flags(o) & TM_GCFLAG_MASK & ~(uint32_t)WB) == 0, "cell %lu: GC bits %#x", (unsigned long)c->serial,
              flags(o));
        if (flags(o) & TM_LOCK_FAT_BIT)
            fat++;
        else
            CHECK((flags(o) & TM_LOCK_FIELD_MASK) == 0, "cell %lu: thin word %#x", (unsigned long)c->serial,
                  flags(o));
        sum += c->value;
        cells++;
    }
    CHECK(sum == incs, "%d threads: the cells hold %lu increments, %lu were made", nthreads, (unsigned long)sum,
          (unsigned long)incs);
    cur = NULL;
    tm_commit_transaction();
    tm_monitor_stats s1 = stats();
    printf("ok contention, %d threads x %d: %lu increments exact over %lu cells (%lu new young ones, %lu fat), "
           "%lu GIL handovers inside, %lu overflows past 256, %lu release/re-acquire; %lu contended enters, "
           "%lu inflations (%.2f s)\n",
           nthreads, iters, (unsigned long)incs, (unsigned long)cells, (unsigned long)news, (unsigned long)fat,
           (unsigned long)handovers, (unsigned long)overflows, (unsigned long)releases,
           (unsigned long)(s1.contended_enters - s0.contended_enters), (unsigned long)(s1.inflations - s0.inflations),
           now_s() - t0);
}

static void test_contention(void)
{
    tm_monitor_stats s0 = stats();
    int total = (int)(12000 * scale);
    if (total < 400)
        total = 400;
    static const int ks[] = {2, 4, 8};
    for (int k = 0; k < 3; k++)
        contention_round(ks[k], total / ks[k]);
    tm_monitor_stats s1 = stats();
    CHECK(s1.contended_enters > s0.contended_enters && s1.inflations > s0.inflations,
          "no contention happened: the test proved nothing");
}

/* ---- 4. timed enter, non-owners ---- */

static object_t *shared;             /* global root */
static pthread_mutex_t hmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hcv = PTHREAD_COND_INITIALIZER;
static int holder_state;             /* 0 start, 1 holding, 2 let go (under hmu) */
static volatile int holder_index, queued_state;

static void *holder_main(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    tm_monitor_enter(shared);
    holder_index = tm_self.index;
    tm_commit_transaction();
    pthread_mutex_lock(&hmu);
    holder_state = 1;
    pthread_cond_broadcast(&hcv);
    while (holder_state != 2)
        pthread_cond_wait(&hcv, &hmu);
    pthread_mutex_unlock(&hmu);
    tm_start_transaction();
    CHECK(tm_monitor_count(shared) == 1, "holder lost its monitor: count %lu", (unsigned long)tm_monitor_count(shared));
    CHECK(tm_monitor_exit(shared), "holder's exit failed");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

/* Enters `shared` with no timeout, records that it got it, lets go. */
static void *queued_main(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    queued_state = 1;
    tm_monitor_enter(shared);
    CHECK(tm_monitor_count(shared) == 1, "queued thread: count");
    queued_state = 2;
    CHECK(tm_monitor_exit(shared), "queued thread: exit");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void start_holder(pthread_t *th)
{
    holder_state = 0;
    CHECK(pthread_create(th, NULL, holder_main, NULL) == 0, "pthread_create");
    pthread_mutex_lock(&hmu);
    while (holder_state != 1)
        pthread_cond_wait(&hcv, &hmu);
    pthread_mutex_unlock(&hmu);
}

static void let_holder_go(void)
{
    pthread_mutex_lock(&hmu);
    holder_state = 2;
    pthread_cond_broadcast(&hcv);
    pthread_mutex_unlock(&hmu);
}

static void check_not_owner(object_t *o, const char *what)
{
    uint32_t w = flags(o);
    unsigned owner = tm_monitor_owner(o);
    CHECK(!tm_monitor_exit(o), "%s: exit by a non-owner succeeded", what);
    CHECK(tm_monitor_exit_all(o) == 0, "%s: exit_all by a non-owner", what);
    CHECK(tm_monitor_wait(o, 0) == TM_MONITOR_NOT_OWNER, "%s: wait by a non-owner", what);
    CHECK(tm_monitor_wait(o, 10 * MS) == TM_MONITOR_NOT_OWNER, "%s: wait by a non-owner", what);
    CHECK(tm_monitor_notify(o, 1) == -1 && tm_monitor_notify(o, UINT64_MAX) == -1, "%s: notify by a non-owner",
          what);
    CHECK(tm_monitor_count(o) == 0, "%s: count for a non-owner", what);
    CHECK(flags(o) == w && tm_monitor_owner(o) == owner, "%s: the word changed: %#x, was %#x", what, flags(o), w);
}

static void test_timed(void)
{
    tm_start_transaction();
    shared = as_obj(new_cell());
    check_not_owner(shared, "unlocked");
    tm_commit_transaction();

    pthread_t h;
    start_holder(&h);
    tm_start_transaction();
    size_t depth = TM_SHADOWSTACK_DEPTH();
    CHECK(tm_monitor_owner(shared) == (unsigned)holder_index, "owner %u, holder is %d", tm_monitor_owner(shared),
          holder_index);
    CHECK(!(flags(shared) & TM_LOCK_FAT_BIT), "thin expected");
    check_not_owner(shared, "thin, held by another thread");
    tm_monitor_stats s0 = stats();
    CHECK(!tm_monitor_enter_timed(shared, 0), "try-enter of a held monitor succeeded");
    tm_monitor_stats s1 = stats();
    CHECK(s1.inflations == s0.inflations && !(flags(shared) & TM_LOCK_FAT_BIT), "try-enter inflated");
    CHECK(s1.contended_enters == s0.contended_enters + 1, "try-enter not counted as contended");
    double t0 = now_s();
    CHECK(!tm_monitor_enter_timed(shared, 20 * MS), "timed enter of a held monitor succeeded");
    double waited = now_s() - t0;
    CHECK(waited >= 0.019, "timed enter gave up after %.4f s of 0.02", waited);
    tm_monitor_stats s2 = stats();
    CHECK(s2.inflations == s1.inflations + 1 && (flags(shared) & TM_LOCK_FAT_BIT), "timed enter did not inflate");
    CHECK(tm_monitor_owner(shared) == (unsigned)holder_index, "fat owner %u", tm_monitor_owner(shared));
    check_not_owner(shared, "fat, held by another thread");
    CHECK(!tm_monitor_enter_timed(shared, 0), "fat try-enter succeeded");
    CHECK(!tm_monitor_enter_timed(shared, 1), "fat 1 ns enter succeeded");

    /* A thread queued forever; we time out from behind it; it gets the
     * monitor when the holder lets go. */
    queued_state = 0;
    pthread_t q;
    CHECK(pthread_create(&q, NULL, queued_main, NULL) == 0, "pthread_create");
    while (queued_state == 0)
        gil_handover();
    gil_handover();            /* it is parked now: it held the GIL until it blocked */
    CHECK(queued_state == 1, "the queued thread got the monitor");
    CHECK(!tm_monitor_enter_timed(shared, 5 * MS), "timed enter behind a queued thread succeeded");
    let_holder_go();
    tm_commit_transaction();
    pthread_join(h, NULL);
    pthread_join(q, NULL);
    tm_start_transaction();
    CHECK(queued_state == 2, "the queued thread did not get the monitor");
    CHECK(tm_monitor_owner(shared) == 0, "monitor still owned");

    /* A timed enter that succeeds: the holder lets go while we wait. */
    tm_commit_transaction();
    start_holder(&h);
    tm_start_transaction();
    let_holder_go();           /* it needs the GIL, which we hold until we block */
    CHECK(tm_monitor_enter_timed(shared, 60000 * MS), "timed enter did not get the monitor when it was let go");
    CHECK(tm_monitor_count(shared) == 1 && tm_monitor_owner(shared) == tm_self.index, "owner after timed enter");
    CHECK(tm_monitor_exit(shared) && !tm_monitor_exit(shared), "exit after timed enter");
    CHECK(TM_SHADOWSTACK_DEPTH() == depth, "shadow stack depth changed");
    tm_commit_transaction();
    pthread_join(h, NULL);
    printf("ok timed enter: try-only (no inflation), timeout (thin, then fat), timing out behind a queued thread, "
           "success when let go; non-owners change nothing\n");
}

/* Handoff. Q then R queue on a fat monitor we hold; hooks count each one's
 * blocking calls, so we know (under the GIL) when each is parked. An unlock
 * hands the monitor to the first in the queue: it is Q's before Q has run,
 * and we cannot take it back. */
static volatile int q_index, r_index, q_blocks, r_blocks, entered[2], nentered;

static void counting_begin(void)
{
    if (tm_self.index == q_index)
        q_blocks++;
    else if (tm_self.index == r_index)
        r_blocks++;
    tm_commit_transaction();
}

static void counting_end(void) { tm_start_transaction(); }

static void *entrant_main(void *arg)
{
    volatile int *index = arg;
    tm_thread_attach();
    tm_start_transaction();
    *index = tm_self.index;
    tm_monitor_enter(shared);
    CHECK(tm_monitor_count(shared) == 1, "entrant: count");
    entered[nentered++] = tm_self.index;
    CHECK(tm_monitor_exit(shared), "entrant: exit");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_handoff(void)
{
    q_index = r_index = q_blocks = r_blocks = nentered = 0;
    tm_monitor_set_blocking_hooks(counting_begin, counting_end);
    tm_start_transaction();
    shared = as_obj(new_cell());
    tm_monitor_enter(shared);
    CHECK(tm_monitor_wait(shared, 0) == TM_MONITOR_TIMED_OUT && (flags(shared) & TM_LOCK_FAT_BIT), "inflate");
    tm_commit_transaction();
    pthread_t q, r;
    CHECK(pthread_create(&q, NULL, entrant_main, (void *)&q_index) == 0, "pthread_create");
    await_at_least(&q_blocks, 1);
    CHECK(pthread_create(&r, NULL, entrant_main, (void *)&r_index) == 0, "pthread_create");
    await_at_least(&r_blocks, 1);
    tm_start_transaction();
    CHECK(tm_monitor_exit(shared), "exit");
    CHECK(tm_monitor_owner(shared) == (unsigned)q_index, "the first queued thread was not handed the monitor: "
          "owner %u, Q is %d, R is %d", tm_monitor_owner(shared), q_index, r_index);
    CHECK(!tm_monitor_enter_timed(shared, 0), "took back a monitor handed to another thread");
    CHECK(!tm_monitor_exit(shared), "exit of a monitor handed to another thread");
    tm_commit_transaction();
    pthread_join(q, NULL);
    pthread_join(r, NULL);
    tm_monitor_set_blocking_hooks(NULL, NULL);
    tm_start_transaction();
    CHECK(nentered == 2 && entered[0] == q_index && entered[1] == r_index, "entered in the wrong order");
    CHECK(tm_monitor_owner(shared) == 0 && q_blocks == 1 && r_blocks == 1, "owner %u, blocks %d %d",
          tm_monitor_owner(shared), q_blocks, r_blocks);
    shared = NULL;
    tm_commit_transaction();
    printf("ok handoff: an unlock hands the monitor to the first queued thread, which runs before the unlocker "
           "can take it back; then to the next\n");
}

/* Fairness. A spinner enters and exits a thin-locked monitor in a loop,
 * handing the GIL over only while it holds it; we enter it many times. Our
 * enter inflates and queues, so the spinner's next exit hands the monitor
 * to us: it never enters again while we wait. Spinning instead (handing the
 * segment over and looking again) or waking us to retry lets it enter
 * again each time it runs first. */
static volatile int spinner_rounds, spinner_stop;

static void *spinner_main(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    while (!spinner_stop) {
        tm_monitor_enter(shared);
        spinner_rounds++;
        gil_handover();   /* holding it: `shared` is a global root */
        CHECK(tm_monitor_exit(shared), "spinner: exit");
    }
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_fairness(void)
{
    spinner_rounds = spinner_stop = 0;
    tm_start_transaction();
    shared = as_obj(new_cell());   /* thin: the first contention inflates it */
    tm_commit_transaction();
    pthread_t s;
    CHECK(pthread_create(&s, NULL, spinner_main, NULL) == 0, "pthread_create");
    int rounds = (int)(50 * scale) + 1, worst = 0;
    for (int i = 0; i < rounds; i++) {
        await_at_least(&spinner_rounds, spinner_rounds + 1);
        tm_start_transaction();
        int before = spinner_rounds;
        tm_monitor_enter(shared);
        if (spinner_rounds - before > worst)
            worst = spinner_rounds - before;
        CHECK(tm_monitor_exit(shared), "exit");
        tm_commit_transaction();
    }
    spinner_stop = 1;
    pthread_join(s, NULL);
    tm_start_transaction();
    CHECK(worst == 0, "the spinner entered %d times while we waited", worst);
    CHECK(flags(shared) & TM_LOCK_FAT_BIT, "contention did not inflate");
    shared = NULL;
    tm_commit_transaction();
    printf("ok fairness: %d enters behind a spinning thread, which never entered while we waited\n", rounds);
}

/* ---- 5. wait / notify ---- */

static int hook_begins, hook_ends;
static void my_begin(void) { hook_begins++; tm_commit_transaction(); }
static void my_end(void) { tm_start_transaction(); hook_ends++; }

static void test_wait_timeouts(void)
{
    tm_start_transaction();
    size_t depth = TM_SHADOWSTACK_DEPTH();
    /* thin, count 3 */
    object_t *o = as_obj(new_cell());
    CHECK(tm_monitor_notify(o, 1) == -1, "notify of an unlocked monitor");
    tm_monitor_enter(o);
    CHECK(tm_monitor_notify(o, 5) == 0, "notify with no waiters");
    tm_monitor_enter(o);
    tm_monitor_enter(o);
    uintptr_t before = (uintptr_t)o;
    TM_PUSH_ROOT(o);
    int r = tm_monitor_wait(o, 10 * MS);
    TM_POP_ROOT(o);
    CHECK(r == TM_MONITOR_TIMED_OUT, "wait result %d", r);
    CHECK((uintptr_t)o != before, "the young object did not move while we waited");
    CHECK(tm_monitor_count(o) == 3 && tm_monitor_owner(o) == tm_self.index, "count after a timed-out wait: %lu",
          (unsigned long)tm_monitor_count(o));
    CHECK((flags(o) & TM_LOCK_FAT_BIT) && (flags(o) & TM_GCFLAG_MASK) == WB, "word after wait %#x", flags(o));
    CHECK(tm_monitor_notify(o, UINT64_MAX) == 0, "notify_all with no waiters");
    /* wait(0) */
    CHECK(tm_monitor_wait(o, 0) == TM_MONITOR_TIMED_OUT && tm_monitor_count(o) == 3, "wait(0)");
    for (int i = 0; i < 3; i++)
        CHECK(tm_monitor_exit(o), "exit after wait");
    CHECK(!tm_monitor_exit(o) && tm_monitor_owner(o) == 0, "unlocked after wait");
    /* fat, count 300 */
    tm_monitor_enter_count(o, 300);
    TM_PUSH_ROOT(o);
    r = tm_monitor_wait(o, 2 * MS);
    TM_POP_ROOT(o);
    CHECK(r == TM_MONITOR_TIMED_OUT && tm_monitor_count(o) == 300, "fat wait: %d, count %lu", r,
          (unsigned long)tm_monitor_count(o));
    CHECK(tm_monitor_exit_all(o) == 300, "exit_all after wait");
    /* custom blocking hooks */
    tm_monitor_set_blocking_hooks(my_begin, my_end);
    tm_monitor_enter(o);
    TM_PUSH_ROOT(o);
    r = tm_monitor_wait(o, 1 * MS);
    TM_POP_ROOT(o);
    CHECK(r == TM_MONITOR_TIMED_OUT && hook_begins == 1 && hook_ends == 1, "hooks called %d/%d times", hook_begins,
          hook_ends);
    tm_monitor_set_blocking_hooks(NULL, NULL);
    TM_PUSH_ROOT(o);
    r = tm_monitor_wait(o, 1 * MS);
    TM_POP_ROOT(o);
    CHECK(r == TM_MONITOR_TIMED_OUT && hook_begins == 1, "hooks not restored");
    CHECK(tm_monitor_exit(o) && tm_monitor_count(o) == 0, "exit");
    CHECK(TM_SHADOWSTACK_DEPTH() == depth, "shadow stack depth changed");
    tm_commit_transaction();
}

#define NWAITERS 6
static object_t *wobj;                         /* global root */
static volatile int started[NWAITERS];         /* round number, under the GIL */
static volatile int wlog[NWAITERS], nlog;      /* wake order, under the GIL */

typedef struct waiter_arg {
    int i, round;
} waiter_arg;

static void *waiter_main(void *arg)
{
    waiter_arg *a = arg;
    tm_thread_attach();
    tm_start_transaction();
    unsigned levels = 1 + (unsigned)a->i % 3;
    for (unsigned k = 0; k < levels; k++)
        tm_monitor_enter(wobj);
    started[a->i] = a->round;
    int r = tm_monitor_wait(wobj, TM_MONITOR_FOREVER);
    CHECK(r == TM_MONITOR_NOTIFIED, "waiter %d: result %d", a->i, r);
    CHECK(tm_monitor_count(wobj) == levels, "waiter %d: count %lu after wait, expected %u", a->i,
          (unsigned long)tm_monitor_count(wobj), levels);
    wlog[nlog++] = a->i;
    for (unsigned k = 0; k < levels; k++)
        CHECK(tm_monitor_exit(wobj), "waiter %d: exit", a->i);
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

/* Starts the waiters one at a time: each is in the wait set before the next starts. */
static void start_waiters(pthread_t *th, waiter_arg *args, int round)
{
    nlog = 0;
    for (int i = 0; i < NWAITERS; i++) {
        args[i] = (waiter_arg){.i = i, .round = round};
        CHECK(pthread_create(&th[i], NULL, waiter_main, &args[i]) == 0, "pthread_create");
        for (;;) {
            tm_start_transaction();
            /* Holding the monitor and seeing `started`, set by the waiter
             * while it held the monitor: it is in the wait set now. */
            tm_monitor_enter(wobj);
            int s = started[i];
            CHECK(tm_monitor_exit(wobj), "exit");
            tm_commit_transaction();
            if (s == round)
                break;
            sched_yield();
        }
    }
}

static int64_t notify_n(uint64_t n)
{
    tm_start_transaction();
    tm_monitor_enter(wobj);
    int64_t woken = tm_monitor_notify(wobj, n);
    CHECK(tm_monitor_exit(wobj), "exit after notify");
    tm_commit_transaction();
    return woken;
}

static void test_wait_order(void)
{
    tm_start_transaction();
    wobj = as_obj(new_cell());
    tm_commit_transaction();
    pthread_t th[NWAITERS];
    waiter_arg args[NWAITERS];

    /* one at a time: FIFO */
    start_waiters(th, args, 1);
    for (int k = 0; k < NWAITERS; k++) {
        int64_t n = notify_n(1);
        CHECK(n == 1, "notify(1) woke %ld", (long)n);
        await_at_least(&nlog, k + 1);
        tm_start_transaction();
        CHECK(nlog == k + 1, "notify(1) woke more than one");
        CHECK(wlog[k] == k, "notify #%d woke waiter %d, expected %d (FIFO)", k, wlog[k], k);
        tm_commit_transaction();
    }
    for (int i = 0; i < NWAITERS; i++)
        pthread_join(th[i], NULL);
    CHECK(notify_n(1) == 0, "notify with no waiters left");

    /* two at a time: the two oldest */
    start_waiters(th, args, 2);
    CHECK(notify_n(0) == 0, "notify(0) woke someone");
    for (int k = 0; k < NWAITERS; k += 2) {
        CHECK(notify_n(2) == 2, "notify(2)");
        await_at_least(&nlog, k + 2);
        tm_start_transaction();
        CHECK(nlog == k + 2, "notify(2) woke %d", nlog - k);
        int a = wlog[k], b = wlog[k + 1];
        CHECK((a == k && b == k + 1) || (a == k + 1 && b == k), "notify(2) #%d woke %d and %d", k / 2, a, b);
        tm_commit_transaction();
    }
    for (int i = 0; i < NWAITERS; i++)
        pthread_join(th[i], NULL);

    /* all */
    start_waiters(th, args, 3);
    CHECK(notify_n(UINT64_MAX) == NWAITERS, "notify_all");
    CHECK(notify_n(UINT64_MAX) == 0, "notify_all twice");
    for (int i = 0; i < NWAITERS; i++)
        pthread_join(th[i], NULL);
    tm_start_transaction();
    int seen = 0;
    for (int k = 0; k < NWAITERS; k++)
        seen |= 1 << wlog[k];
    CHECK(nlog == NWAITERS && seen == (1 << NWAITERS) - 1, "notify_all woke %d", nlog);
    wobj = NULL;
    tm_commit_transaction();
}

/* Short timeouts racing notifies: NOTIFIED results == notify's count. */
#define NRACERS 3
static volatile int racers_done;
static int64_t race_notified_by_notify;

typedef struct racer {
    int id, iters;
    rng_t rng;
    uint64_t notified, timed_out;
} racer;

static void *racer_main(void *arg)
{
    racer *w = arg;
    tm_thread_attach();
    tm_start_transaction();
    for (int i = 0; i < w->iters; i++) {
        uint64_t r = rng_next(&w->rng);
        unsigned levels = 1 + (unsigned)(r % 2);
        for (unsigned k = 0; k < levels; k++)
            tm_monitor_enter(wobj);
        int64_t timeout = (r >> 8) % 8 == 0 ? 0 : (int64_t)((r >> 16) % 200000);
        int res = tm_monitor_wait(wobj, timeout);
        CHECK(res == TM_MONITOR_NOTIFIED || res == TM_MONITOR_TIMED_OUT, "racer %d: wait result %d", w->id, res);
        if (res == TM_MONITOR_NOTIFIED)
            w->notified++;
        else
            w->timed_out++;
        CHECK(tm_monitor_count(wobj) == levels, "racer %d: count %lu after wait", w->id,
              (unsigned long)tm_monitor_count(wobj));
        for (unsigned k = 0; k < levels; k++)
            CHECK(tm_monitor_exit(wobj), "racer %d: exit", w->id);
        if ((r >> 40) % 4 == 0)
            gil_handover();
    }
    racers_done++;
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_notify_race(void)
{
    tm_start_transaction();
    wobj = as_obj(new_cell());
    tm_commit_transaction();
    int iters = (int)(1500 * scale);
    if (iters < 50)
        iters = 50;
    racers_done = 0;
    race_notified_by_notify = 0;
    pthread_t th[NRACERS];
    racer rs[NRACERS];
    for (int i = 0; i < NRACERS; i++) {
        rs[i] = (racer){.id = i, .iters = iters, .rng = {777 + (uint64_t)i}};
        CHECK(pthread_create(&th[i], NULL, racer_main, &rs[i]) == 0, "pthread_create");
    }
    rng_t rng = {4242};
    uint64_t rounds = 0;
    tm_start_transaction();
    while (racers_done < NRACERS) {
        tm_monitor_enter(wobj);
        int64_t n = tm_monitor_notify(wobj, 1 + rng_below(&rng, 2));
        CHECK(n >= 0 && n <= NRACERS, "notify returned %ld", (long)n);
        race_notified_by_notify += n;
        CHECK(tm_monitor_exit(wobj), "exit");
        gil_handover();
        if (rng_below(&rng, 4) == 0) {
            tm_commit_transaction();
            nanosleep(&(struct timespec){.tv_nsec = (long)rng_below(&rng, 100000)}, NULL);
            tm_start_transaction();
        }
        rounds++;
    }
    tm_commit_transaction();
    uint64_t notified = 0, timed_out = 0;
    for (int i = 0; i < NRACERS; i++) {
        pthread_join(th[i], NULL);
        notified += rs[i].notified;
        timed_out += rs[i].timed_out;
    }
    CHECK(notify_n(UINT64_MAX) == 0, "waiters left behind");
    CHECK(notified == (uint64_t)race_notified_by_notify, "%lu waits returned NOTIFIED, notify woke %ld",
          (unsigned long)notified, (long)race_notified_by_notify);
    printf("ok notify vs timeout: %d waiters x %d waits: %lu notified (= notify's count), %lu timed out, "
           "%lu notify rounds\n",
           NRACERS, iters, (unsigned long)notified, (unsigned long)timed_out, (unsigned long)rounds);
    tm_start_transaction();
    wobj = NULL;
    tm_commit_transaction();
}

static void test_wait(void)
{
    test_wait_timeouts();
    test_wait_order();
    printf("ok wait: timeouts keep the count (thin, fat, 0, moved object), hooks, FIFO notify(1), notify(2), "
           "notify_all\n");
    test_notify_race();
}

/* ---- 6. thread index recycling ---- */

static object_t *rec_m, *rec_n, *rec_f;     /* global roots */
static unsigned dead_index;

static void *recycle_first(void *arg)
{
    (void)arg;
    tm_thread_attach();
    dead_index = tm_self.index;
    tm_start_transaction();
    tm_monitor_enter(rec_m);
    CHECK(tm_monitor_exit(rec_m), "exit m");
    tm_monitor_enter(rec_n);                 /* left held (thin) */
    tm_monitor_enter(rec_f);
    tm_monitor_enter(rec_f);
    CHECK(tm_monitor_wait(rec_f, 0) == TM_MONITOR_TIMED_OUT, "wait(0)");   /* inflates; left held, count 2 */
    CHECK(flags(rec_f) & TM_LOCK_FAT_BIT, "f not fat");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static unsigned cycles;

static void *recycle_second(void *arg)
{
    (void)arg;
    /* attach and detach until this thread gets the dead thread's index */
    for (cycles = 1;; cycles++) {
        tm_thread_attach();
        CHECK(tm_self.index >= 1 && tm_self.index <= TM_MAX_THREAD_INDEX, "index %u", tm_self.index);
        if (tm_self.index == dead_index)
            break;
        tm_thread_detach();
        CHECK(cycles <= TM_MAX_THREAD_INDEX + 1, "index %u never came back", dead_index);
    }
    tm_start_transaction();
    CHECK(tm_monitor_owner(rec_m) == 0, "m owned by %u", tm_monitor_owner(rec_m));
    CHECK(tm_monitor_enter_timed(rec_m, 0), "the new thread cannot take a monitor the dead one released");
    CHECK(tm_monitor_count(rec_m) == 1 && tm_monitor_exit(rec_m) && !tm_monitor_exit(rec_m), "m");
    CHECK(tm_monitor_count(rec_n) == 1 && tm_monitor_owner(rec_n) == dead_index, "n does not look ours");
    CHECK(tm_monitor_exit(rec_n) && tm_monitor_owner(rec_n) == 0, "n");
    CHECK(tm_monitor_count(rec_f) == 2, "f count %lu", (unsigned long)tm_monitor_count(rec_f));
    CHECK(tm_monitor_exit(rec_f) && tm_monitor_exit(rec_f) && tm_monitor_owner(rec_f) == 0, "f");
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_recycle(void)
{
    tm_start_transaction();
    rec_m = as_obj(new_cell());
    rec_n = as_obj(new_cell());
    rec_f = as_obj(new_cell());
    tm_commit_transaction();
    pthread_t t;
    CHECK(pthread_create(&t, NULL, recycle_first, NULL) == 0, "pthread_create");
    pthread_join(t, NULL);
    tm_start_transaction();
    CHECK(tm_monitor_owner(rec_n) == dead_index && tm_monitor_owner(rec_f) == dead_index,
          "monitors of the dead thread: %u %u", tm_monitor_owner(rec_n), tm_monitor_owner(rec_f));
    CHECK(!tm_monitor_enter_timed(rec_n, 0) && !tm_monitor_enter_timed(rec_f, 0), "took a dead thread's monitor");
    tm_commit_transaction();
    CHECK(pthread_create(&t, NULL, recycle_second, NULL) == 0, "pthread_create");
    pthread_join(t, NULL);
    CHECK(cycles > 1, "index %u was reused at once", dead_index);
    tm_start_transaction();
    CHECK(tm_monitor_enter_timed(rec_n, 0) && tm_monitor_enter_timed(rec_f, 0), "released monitors are not free");
    CHECK(tm_monitor_exit(rec_n) && tm_monitor_exit(rec_f), "exit");
    rec_m = rec_n = rec_f = NULL;
    tm_commit_transaction();
    printf("ok thread indexes: index %u came back after %u attaches; the new thread took the released monitor "
           "and owned the ones left held (thin and fat)\n",
           dead_index, cycles);
}

/* ---- Interrupts (park.h) ---- */

static pthread_t interrupt_target;

static void *interrupt_later(void *arg)
{
    usleep(20000);
    if (arg)
        pthread_kill(interrupt_target, SIGUSR1);   /* the handler interrupts, on the target */
    else
        tm_interrupt();
    return NULL;
}

static void on_sigusr1(int sig)
{
    (void)sig;
    tm_interrupt();
}

/* Park (or wait on o's monitor, if o) while another thread interrupts us,
 * directly or through a signal. */
static int parked_until_interrupted(bool by_signal, object_t *o)
{
    pthread_t t;
    uint32_t word = 0;
    CHECK(pthread_create(&t, NULL, interrupt_later, by_signal ? (void *)1 : NULL) == 0, "pthread_create");
    int rc = o ? tm_monitor_wait(o, TM_MONITOR_FOREVER) : tm_park(&word, TM_PARK_FOREVER, true);
    pthread_join(t, NULL);
    CHECK(tm_interrupt_pending, "the flag was cleared");
    tm_interrupt_clear();
    return rc;
}

/* The target thread's interruptible parks end at tm_interrupt (pending
 * before the park, from another thread, from a signal handler on the
 * target); other threads' parks and non-interruptible ones do not; a
 * monitor wait ends with TM_MONITOR_INTERRUPTED holding the monitor again. */
static void test_interrupt(void)
{
    uint32_t word = 0;
    tm_interrupt();
    CHECK(tm_park(&word, tm_now_ns() + 5 * MS, true) == TM_PARK_TIMED_OUT, "a non-target's park was interrupted");
    tm_interrupt_clear();
    tm_interrupt_set_target();
    interrupt_target = pthread_self();
    tm_interrupt();
    CHECK(tm_park(&word, TM_PARK_FOREVER, true) == TM_PARK_INTERRUPTED, "a pending interrupt did not end the park");
    CHECK(tm_park(&word, tm_now_ns() + 5 * MS, false) == TM_PARK_TIMED_OUT, "a plain park was interrupted");
    tm_interrupt_clear();
    CHECK(parked_until_interrupted(false, NULL) == TM_PARK_INTERRUPTED, "interrupt from another thread");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
    int rounds = (int)(20 * scale);
    for (int i = 0; i < rounds; i++)
        CHECK(parked_until_interrupted(true, NULL) == TM_PARK_INTERRUPTED, "interrupt by a signal, round %d", i);
    tm_start_transaction();
    cur = new_cell();
    tm_monitor_enter(as_obj(cur));
    CHECK(parked_until_interrupted(true, as_obj(cur)) == TM_MONITOR_INTERRUPTED, "monitor wait not interrupted");
    CHECK(tm_monitor_count(as_obj(cur)) == 1, "the monitor is not held after the wait");
    CHECK(tm_monitor_exit(as_obj(cur)), "exit");
    cur = NULL;
    tm_commit_transaction();
    signal(SIGUSR1, SIG_DFL);
    printf("ok interrupt: pending, from a thread, %d by signal, monitor wait\n", rounds);
}

static bool wanted(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], name))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    double t0 = now_s();
    setvbuf(stdout, NULL, _IOLBF, 0);
    tm_runtime_init_from_env();
    scale = test_scale();
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell), .ref_words = 1u << 1});
    tm_add_global_root((object_t **)&cur);
    tm_add_global_root(&shared);
    tm_add_global_root(&wobj);
    tm_add_global_root(&rec_m);
    tm_add_global_root(&rec_n);
    tm_add_global_root(&rec_f);
    /* Short switch intervals: threads queued for the GIL get it sooner. */
    tm_set_switch_interval_ns(50000);
    tm_thread_attach();
    if (wanted(argc, argv, "uncontended"))
        test_uncontended();
    if (wanted(argc, argv, "nesting"))
        test_nesting();
    if (wanted(argc, argv, "timed")) {
        test_timed();
        test_handoff();
    }
    if (wanted(argc, argv, "fairness"))
        test_fairness();
    if (wanted(argc, argv, "wait"))
        test_wait();
    if (wanted(argc, argv, "contention"))
        test_contention();
    if (wanted(argc, argv, "recycle"))
        test_recycle();
    if (wanted(argc, argv, "interrupt"))
        test_interrupt();
    tm_thread_detach();
    tm_monitor_stats s = stats();
    printf("ok test_monitor in %.2f s (%lu inflations, %lu contended enters, %lu fat locks)\n", now_s() - t0,
           (unsigned long)s.inflations, (unsigned long)s.contended_enters, (unsigned long)s.fat_locks);
    return 0;
}
