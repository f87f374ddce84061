/* Object monitors (runtime/monitor.h) in the STM build, where the lock word
 * is transactional data and every fat-lock operation runs inevitable.
 *
 *  handoff   deterministic: we hold a thin lock across commits; B contends,
 *            inflates it on our behalf and queues; our exit hands the
 *            monitor to B (we cannot take it back); B's exit, with nobody
 *            queued, deflates it: the word is thin and free again, and an
 *            uncontended enter and exit are transactional (not inevitable).
 *            A second contention reuses the deflated fat lock.
 *  stress T  T threads increment counters in a few objects under their
 *            monitors: plain sections, sections held across commits (which
 *            contend: inflation, handoff, deflation), nested ones, and ones
 *            that wait with a zero timeout (which inflates). Totals are exact,
 *            no section held across a commit sees another thread inside,
 *            and at the end every monitor is thin and free again (each
 *            inflation deflated), with no more fat locks made than objects.
 *
 * Run under abort injection too (TMPY_STM_INJECT_ABORTS): tests/test_monitor.py.
 * TMPY_TEST_SCALE multiplies the iteration counts. */
#include "tmrt.h"
#include "monitor.h"
#include "testutil.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define NOBJ 3
#define MAXT 8

typedef __seg_gs struct cell cell_t;
struct cell {
    tm_header h;
    uintptr_t value;
    uintptr_t inside;     /* thread id + 1 while a section held across a commit runs */
};

static uint16_t T_CELL;
static object_t *objs[NOBJ];   /* global roots */
static double scale;

static cell_t *as_cell(object_t *o) { return (cell_t *)o; }
static uint32_t flags(object_t *o) { tm_read(o); return o->h.flags; }

static object_t *new_cell(void)
{
    object_t *o = tm_allocate(T_CELL, sizeof(struct cell));
    CHECK(o != NULL, "allocation failed");
    return o;
}

static tm_monitor_stats stats(void)
{
    tm_monitor_stats s;
    tm_monitor_get_stats(&s);
    return s;
}

/* ---- handoff ---- */

static volatile int b_index, b_done;

static void *contender_main(void *arg)
{
    (void)arg;
    tm_thread_attach();
    b_index = tm_self.index;
    tm_start_transaction();
    tm_monitor_enter(objs[0]);   /* held by main: inflate, queue, park */
    CHECK(tm_monitor_count(objs[0]) == 1, "contender: count %lu", (unsigned long)tm_monitor_count(objs[0]));
    CHECK(tm_monitor_exit(objs[0]), "contender: exit");
    tm_commit_transaction();
    b_done = 1;
    tm_thread_detach();
    return NULL;
}

/* Start a contender for objs[0], which we hold, and wait until it has
 * inflated it (it commits that when it parks, queued). */
static pthread_t start_contender(void)
{
    b_index = b_done = 0;
    pthread_t b;
    CHECK(pthread_create(&b, NULL, contender_main, NULL) == 0, "pthread_create");
    for (;;) {
        tm_start_transaction();
        bool fat = flags(objs[0]) & TM_LOCK_FAT_BIT;
        tm_commit_transaction();
        if (fat)
            return b;
        usleep(200);
    }
}

static void handoff_round(int round)
{
    tm_start_transaction();
    tm_monitor_enter(objs[0]);
    tm_commit_transaction();   /* held across the commit: B finds it held */
    pthread_t b = start_contender();
    tm_start_transaction();
    CHECK(tm_monitor_owner(objs[0]) == tm_self.index, "round %d: owner %u", round, tm_monitor_owner(objs[0]));
    CHECK(tm_monitor_exit(objs[0]), "round %d: exit", round);
    CHECK(tm_monitor_owner(objs[0]) == (unsigned)b_index, "round %d: the queued thread was not handed the monitor "
          "(owner %u, B is %d)", round, tm_monitor_owner(objs[0]), b_index);
    CHECK(!tm_monitor_enter_timed(objs[0], 0), "round %d: took back a monitor handed to B", round);
    tm_commit_transaction();
    pthread_join(b, NULL);
    CHECK(b_done, "contender did not finish");
    tm_start_transaction();
    uint32_t w = flags(objs[0]);
    CHECK((w & TM_LOCK_FIELD_MASK) == 0, "round %d: not deflated to a free thin lock: word %#x", round, w);
    tm_monitor_enter(objs[0]);
    CHECK(!tm_is_inevitable(), "round %d: an uncontended enter after deflation is inevitable", round);
    CHECK(tm_monitor_count(objs[0]) == 1, "round %d: count", round);
    CHECK(tm_monitor_exit(objs[0]), "round %d: exit after deflation", round);
    CHECK(!tm_is_inevitable(), "round %d: an uncontended exit after deflation is inevitable", round);
    tm_commit_transaction();
}

static void test_handoff(void)
{
    tm_start_transaction();
    tm_become_inevitable();   /* C globals are written only inevitable: a collection fixes them only then */
    objs[0] = new_cell();
    tm_commit_transaction();   /* old from here on */
    tm_monitor_stats s0 = stats();
    handoff_round(1);
    tm_monitor_stats s1 = stats();
    CHECK(s1.inflations - s0.inflations == 1 && s1.deflations - s0.deflations == 1, "inflations %lu, deflations %lu",
          (unsigned long)(s1.inflations - s0.inflations), (unsigned long)(s1.deflations - s0.deflations));
    handoff_round(2);
    tm_monitor_stats s2 = stats();
    CHECK(s2.deflations - s1.deflations == 1, "second deflation");
    CHECK(s2.fat_locks == s1.fat_locks, "the deflated fat lock was not reused (%lu fat locks made, then %lu)",
          (unsigned long)s1.fat_locks, (unsigned long)s2.fat_locks);
    printf("ok handoff: the queued contender is handed the monitor, its exit deflates it, uncontended "
           "enter/exit transactional again, fat lock reused\n");
}

/* ---- stress ---- */

static long iters;
static atomic_long increments;

static void spin(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++)
        ;
}

static void *stress_main(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    tm_thread_attach();
    rng_t r = {id * 7919 + 1};
    long done = 0;
    for (volatile long i = 0; i < iters; i++) {
        uint64_t x = rng_next(&r);
        volatile int k = (int)(x % NOBJ), kind = (int)((x >> 8) % 8);
        if (kind == 0) {
            /* Held across a commit: others find it held and contend. */
            tm_start_transaction();
            tm_monitor_enter(objs[k]);
            tm_write(objs[k]);
            as_cell(objs[k])->inside = id + 1;
            tm_commit_transaction();
            sched_yield();
            tm_start_transaction();
            tm_read(objs[k]);
            CHECK(as_cell(objs[k])->inside == id + 1, "thread %lu: another thread was inside (%lu)",
                  (unsigned long)id, (unsigned long)as_cell(objs[k])->inside);
            tm_write(objs[k]);
            as_cell(objs[k])->inside = 0;
            as_cell(objs[k])->value++;
            CHECK(tm_monitor_exit(objs[k]), "exit after a commit");
            tm_commit_transaction();
        } else {
            tm_start_transaction();
            tm_monitor_enter(objs[k]);
            CHECK(tm_monitor_count(objs[k]) == 1, "count after enter (kind %d)", kind);
            if (kind == 1)
                tm_monitor_enter(objs[k]);   /* nested */
            if (kind == 2)   /* inflates; times out at once and takes the monitor back */
                CHECK(tm_monitor_wait(objs[k], 0) == TM_MONITOR_TIMED_OUT, "wait(0)");
            tm_read(objs[k]);
            uintptr_t v = as_cell(objs[k])->value;
            spin(x >> 60);
            tm_write(objs[k]);
            as_cell(objs[k])->value = v + 1;
            if (kind == 1)
                CHECK(tm_monitor_exit(objs[k]), "nested exit");
            CHECK(tm_monitor_exit(objs[k]), "exit (kind %d)", kind);
            tm_commit_transaction();
        }
        done++;
    }
    atomic_fetch_add(&increments, done);
    tm_thread_detach();
    return NULL;
}

static void test_stress(int nthreads)
{
    iters = (long)(3000 * scale);
    tm_start_transaction();
    tm_become_inevitable();   /* C globals are written only inevitable */
    for (int k = 0; k < NOBJ; k++)
        objs[k] = new_cell();
    tm_commit_transaction();
    tm_monitor_stats s0 = stats();
    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++)
        CHECK(pthread_create(&th[t], NULL, stress_main, (void *)(uintptr_t)t) == 0, "pthread_create");
    for (int t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    tm_monitor_stats s1 = stats();
    tm_start_transaction();
    uintptr_t total = 0;
    for (int k = 0; k < NOBJ; k++) {
        tm_read(objs[k]);
        total += as_cell(objs[k])->value;
        uint32_t w = flags(objs[k]);
        CHECK((w & TM_LOCK_FIELD_MASK) == 0, "object %d: not a free thin lock at the end: word %#x", k, w);
    }
    tm_commit_transaction();
    long want = atomic_load(&increments);
    CHECK(want == nthreads * iters && total == (uintptr_t)want, "total %lu, %ld increments made",
          (unsigned long)total, want);
    uint64_t infl = s1.inflations - s0.inflations, defl = s1.deflations - s0.deflations;
    CHECK(infl == defl, "%lu inflations but %lu deflations", (unsigned long)infl, (unsigned long)defl);
    CHECK(s1.fat_locks <= NOBJ + 1, "%lu fat locks made for %d objects (+1 in handoff)", (unsigned long)s1.fat_locks,
          NOBJ);
    printf("ok stress %d threads: %ld increments exact, %lu inflations, all deflated, %lu fat locks\n", nthreads,
           want, (unsigned long)infl, (unsigned long)s1.fat_locks);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    tm_runtime_init_from_env();
    scale = test_scale();
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell)});
    for (int k = 0; k < NOBJ; k++)
        tm_add_global_root(&objs[k]);
    tm_thread_attach();
    const char *part = argc > 1 ? argv[1] : "all";
    if (!strcmp(part, "all") || !strcmp(part, "handoff"))
        test_handoff();
    if (!strcmp(part, "all") || !strcmp(part, "stress")) {
        int n = argc > 2 ? atoi(argv[2]) : 3;
        CHECK(n >= 1 && n <= MAXT, "threads: 1..%d", MAXT);
        test_stress(n);
    }
    tm_thread_detach();
    return 0;
}
