/* The STM's contention manager (runtime/contention.h) and its per-yield-point
 * transaction lengths (txlength.h through tm_stm_tx_begin_at).
 *
 * Run under TMPY_STM_CM=eager (main sets it unless the caller chose a mode):
 * there an explicit abort counts as a lost transaction, so each case scripts
 * the aborts that serialise a thread instead of hoping for conflicts, and
 * two commits end a probation or a trial. The hammer case then checks, with
 * real conflicts, that serialisation loses no update. */
#include "tmrt.h"
#include "testutil.h"
#include "contention.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

typedef __seg_gs struct cell {
    tm_header h;
    uintptr_t value;
    uintptr_t pad;
} cell_t;

static uint16_t T_CELL;
static object_t *X;
static volatile int step;

static void set_step(int n) { __atomic_store_n(&step, n, __ATOMIC_SEQ_CST); }

static void wait_step(int n, bool in_tx)
{
    while (__atomic_load_n(&step, __ATOMIC_SEQ_CST) < n) {
        if (in_tx)
            tm_safepoint();
        else
            sched_yield();
    }
}

static uintptr_t get(object_t *o)
{
    tm_read(o);
    return ((cell_t *)o)->value;
}

static void put(object_t *o, uintptr_t v)
{
    tm_write(o);
    ((cell_t *)o)->value = v;
}

static void reset_x(uintptr_t v)
{
    tm_start_transaction();
    tm_become_inevitable();
    X = tm_allocate(T_CELL, sizeof(struct cell));
    CHECK(X, "allocation failed");
    ((cell_t *)X)->value = v;
    tm_commit_transaction();
}

static uintptr_t committed_x(void)
{
    tm_start_transaction();
    uintptr_t v = get(X);
    tm_commit_transaction();
    return v;
}

static tm_stm_stats stats(void)
{
    tm_stm_stats s;
    tm_stm_get_stats(&s);
    return s;
}

/* One transaction that aborts itself `aborts` times before it commits;
 * returns whether its committing attempt held the token. */
static bool tx_aborting(int aborts)
{
    volatile int attempts = 0;
    tm_start_transaction();
    if (attempts++ < aborts)
        tm_abort_transaction();
    bool serial = tm_tx_serialised();
    put(X, get(X) + 1);
    tm_commit_transaction();
    return serial;
}

/* A thread that loses a transaction is serialised at once (eager), runs its
 * retry holding the token, tries parallel after its probation, and stays
 * parallel once its trial commits without losing. */
static void test_modes(void)
{
    reset_x(0);
    tm_stm_stats s0 = stats();
    CHECK(!tx_aborting(0), "a thread that never lost runs in parallel");
    CHECK(tx_aborting(1), "the retry after a lost transaction holds the token");
    CHECK(tx_aborting(0), "still serialised during the probation");
    CHECK(!tm_cm_holds_token(), "the token goes back at commit");
    /* probation (2 serialised commits) over: a trial, in parallel */
    CHECK(!tx_aborting(0), "a trial runs in parallel");
    CHECK(!tx_aborting(0), "the trial's second commit");
    CHECK(!tx_aborting(0), "parallel again");
    tm_stm_stats s1 = stats();
    CHECK(s1.cm_serialise - s0.cm_serialise == 1, "serialised once, not %llu times",
          (unsigned long long)(s1.cm_serialise - s0.cm_serialise));
    CHECK(s1.cm_trials - s0.cm_trials == 1, "one trial");
    CHECK(s1.cm_parallel - s0.cm_parallel == 1, "back to parallel once");
    CHECK(s1.serialised - s0.serialised == 2, "two serialised transactions, not %llu",
          (unsigned long long)(s1.serialised - s0.serialised));
    /* A trial that loses goes back to SERIAL. */
    CHECK(tx_aborting(1), "serialised again");
    CHECK(tx_aborting(0), "probation");
    CHECK(!tx_aborting(0), "trial");
    CHECK(tx_aborting(1), "a trial that loses is serialised again, at once");
    tm_stm_stats s2 = stats();
    CHECK(s2.cm_serialise - s1.cm_serialise == 2, "serialised twice more");
    /* Probation doubled to 4: four serialised commits now. */
    for (int i = 0; i < 3; i++)
        CHECK(tx_aborting(0), "doubled probation, commit %d", i + 2);
    CHECK(!tx_aborting(0), "trial after the doubled probation");
    CHECK(!tx_aborting(0), "trial");
    CHECK(!tx_aborting(0), "parallel");
    CHECK(committed_x() == 16, "every transaction committed once: %lu", (unsigned long)committed_x());
}

/* ---- The token: a waiter sleeps without a segment, in FIFO order ---- */

static volatile int order[3], norder;
static volatile bool b_waiting;

static void *holder(void *arg)
{
    (void)arg;
    tm_thread_attach();
    CHECK(tx_aborting(1), "A holds the token");
    /* A stays serialised for its probation: take the token again and keep it */
    volatile int attempts = 0;
    tm_start_transaction();
    attempts++;
    CHECK(tm_tx_serialised(), "A serialised");
    set_step(1);
    wait_step(3, true);   /* B and C queue meanwhile */
    put(X, get(X) + 1);
    order[norder++] = 0;
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void *queued(void *arg)
{
    int me = (int)(intptr_t)arg;
    tm_thread_attach();
    /* lose one transaction while A holds the token: the retry queues */
    volatile int attempts = 0;
    wait_step(me == 1 ? 1 : 2, false);
    tm_start_transaction();
    if (attempts++ == 0) {
        if (me == 1)
            __atomic_store_n(&b_waiting, true, __ATOMIC_SEQ_CST);
        tm_abort_transaction();
    }
    CHECK(tm_tx_serialised(), "a queued thread runs holding the token");
    put(X, get(X) + 1);
    order[norder++] = me;   /* under the token: no race */
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void *parallel_one(void *arg)
{
    (void)arg;
    tm_thread_attach();
    /* B waits for the token; with two segments (A's and one more) this
     * transaction could not start if B had kept one */
    tm_start_transaction();
    tm_become_inevitable();   /* no abort: A's write lock is not in its way */
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_token_queue(void)
{
    reset_x(0);
    set_step(0);
    norder = 0;
    b_waiting = false;
    pthread_t ta, tb, tc, tp;
    pthread_create(&ta, NULL, holder, NULL);
    pthread_create(&tb, NULL, queued, (void *)1);
    /* B has lost its transaction and is about to take a ticket; wait until it sleeps */
    while (!__atomic_load_n(&b_waiting, __ATOMIC_SEQ_CST) || tm_cm_token_waiters() < 1)
        sched_yield();
    pthread_create(&tp, NULL, parallel_one, NULL);
    pthread_join(tp, NULL);   /* ran beside the waiting B */
    set_step(2);              /* now C queues behind B */
    pthread_create(&tc, NULL, queued, (void *)2);
    while (tm_cm_token_waiters() < 2)
        sched_yield();
    set_step(3);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_join(tc, NULL);
    CHECK(norder == 3 && order[0] == 0 && order[1] == 1 && order[2] == 2,
          "the token goes first come, first served: %d %d %d", order[0], order[1], order[2]);
    CHECK(committed_x() == 4, "no update lost: %lu", (unsigned long)committed_x());
}

/* ---- A serialised thread that becomes inevitable is not solo: its
 * transaction may wait for another thread's, which must be able to start
 * (a solo transaction keeps every other from starting: this hung). ---- */
static volatile bool other_committed;

static void *inevitable_waiter(void *arg)
{
    (void)arg;
    tm_thread_attach();
    CHECK(tx_aborting(1), "the waiter holds the token");
    tm_start_transaction();   /* its probation: serialised again */
    CHECK(tm_tx_serialised(), "serialised");
    tm_become_inevitable();
    CHECK(!tm_is_solo(), "a plain inevitable transaction went solo");
    set_step(1);
    while (!__atomic_load_n(&other_committed, __ATOMIC_SEQ_CST))
        tm_safepoint();
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void *parallel_committer(void *arg)
{
    (void)arg;
    tm_thread_attach();
    wait_step(1, false);
    tm_start_transaction();
    tm_commit_transaction();
    __atomic_store_n(&other_committed, true, __ATOMIC_SEQ_CST);
    tm_thread_detach();
    return NULL;
}

static void test_inevitable_not_solo(void)
{
    reset_x(0);
    set_step(0);
    other_committed = false;
    pthread_t a, b;
    pthread_create(&a, NULL, inevitable_waiter, NULL);
    pthread_create(&b, NULL, parallel_committer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("ok a serialised inevitable transaction waits for another thread's commit\n");
}

/* ---- Both sides of a conflict: the winner of a write-write conflict is
 * serialised too (tm_cm_won_against), so that a serialised loser waiting
 * for the token does not go on conflicting with a winner running in
 * parallel. A (older) writes X and waits; B (younger) writes X, loses and
 * aborts; A's commit then counts as lost (eager: one serialises), so A's
 * next transaction holds the token. Without the draft, A stays parallel
 * (or, if the draft never comes, A's wait times out). ---- */

static void *younger_writer(void *arg)
{
    (void)arg;
    tm_thread_attach();
    wait_step(1, false);
    volatile int attempts = 0;
    tm_start_transaction();
    if (attempts++ == 0)
        set_step(2);
    put(X, get(X) + 1);   /* the first attempt loses to A's lock */
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void test_winner_drafted(void)
{
    reset_x(0);
    set_step(0);
    tm_stm_stats s0 = stats();
    pthread_t b;
    pthread_create(&b, NULL, younger_writer, NULL);
    tm_start_transaction();
    CHECK(!tm_tx_serialised(), "A starts in parallel");
    put(X, get(X) + 1);
    set_step(1);
    wait_step(2, true);
    uint64_t t0 = tm_ticks();
    while (!__atomic_load_n(&tm_self.cm_drafted, __ATOMIC_SEQ_CST)) {
        tm_safepoint();
        CHECK(tm_ticks_to_ns(tm_ticks() - t0) < 20000000000ull, "B's loss never drafted A");
    }
    tm_commit_transaction();
    pthread_join(b, NULL);
    tm_start_transaction();
    CHECK(tm_tx_serialised(), "the winner of the conflict runs serialised after it");
    tm_commit_transaction();
    tm_stm_stats s1 = stats();
    CHECK(s1.cm_drafted - s0.cm_drafted == 1, "one drafted commit, not %llu",
          (unsigned long long)(s1.cm_drafted - s0.cm_drafted));
    CHECK(committed_x() == 2, "both increments: %lu", (unsigned long)committed_x());
    /* end A's serialisation (probation 2, trial 2) for the cases after */
    for (int i = 0; i < 4; i++)
        tx_aborting(0);
    printf("ok the winner of a conflict is serialised with the loser\n");
}

/* ---- Hammer: threads increment one cell, losing transactions to real
 * conflicts and to scripted aborts; serialised or not, no update is lost,
 * and a thread that keeps losing commits in the end. ---- */

#define HAMMER_THREADS 4

static int hammer_n;

static void *hammer(void *arg)
{
    rng_t r = {(uint64_t)(intptr_t)arg * 7919 + 1};
    tm_thread_attach();
    for (int i = 0; i < hammer_n; i++) {
        volatile int attempts = 0;
        bool doomed = rng_below(&r, 4) == 0;   /* a phase of lost transactions */
        tm_start_transaction();
        attempts++;
        if (doomed && attempts <= 3)
            tm_abort_transaction();
        uintptr_t v = get(X);
        for (int k = 0; k < 200; k++)   /* widen the window for conflicts */
            __asm__ __volatile__("" ::: "memory");
        put(X, v + 1);
        tm_commit_transaction();
    }
    tm_thread_detach();
    return NULL;
}

static void test_hammer(void)
{
    reset_x(0);
    hammer_n = (int)(2000 * test_scale());
    tm_stm_stats s0 = stats();
    pthread_t t[HAMMER_THREADS];
    for (intptr_t i = 0; i < HAMMER_THREADS; i++)
        pthread_create(&t[i], NULL, hammer, (void *)i);
    for (int i = 0; i < HAMMER_THREADS; i++)
        pthread_join(t[i], NULL);
    uintptr_t v = committed_x();
    CHECK(v == (uintptr_t)hammer_n * HAMMER_THREADS, "lost updates: %lu of %lu", (unsigned long)v,
          (unsigned long)hammer_n * HAMMER_THREADS);
    tm_stm_stats s1 = stats();
    if (tm_cfg.stm_cm == TM_CM_CFG_EAGER) {
        CHECK(s1.serialised > s0.serialised, "transactions ran serialised");
        CHECK(s1.cm_parallel > s0.cm_parallel, "threads went back to parallel");
    }
    CHECK(!tm_cm_holds_token(), "token left held");
    printf("hammer: %llu serialised (%llu solo), %llu token waits, %llu serialisations, %llu back to parallel\n",
           (unsigned long long)(s1.serialised - s0.serialised),
           (unsigned long long)(s1.solo_serialised - s0.solo_serialised),
           (unsigned long long)(s1.token_waits - s0.token_waits),
           (unsigned long long)(s1.cm_serialise - s0.cm_serialise),
           (unsigned long long)(s1.cm_parallel - s0.cm_parallel));
}

/* ---- Per-yield-point lengths: a site whose transactions abort gets
 * shorter; a site whose transactions commit keeps its length. ---- */

static void test_lengths(void)
{
    tm_txlen_params p;
    tm_txlen_default_params(&p);
    p.initial = 1000;
    p.period = 20;
    p.threshold = 2;
    p.minimum = 10;
    tm_stm_txlen_init(&p);
    const uintptr_t aborting = 0x1000, quiet = 0x2000;
    reset_x(0);
    for (int i = 0; i < 200; i++) {
        volatile int attempts = 0;
        tm_start_transaction();
        uint32_t len = attempts == 0 ? tm_stm_tx_begin_at(aborting) : tm_stm_tx_length_now();
        CHECK(len == 1000, "length %u", len);
        if (attempts++ == 0)
            tm_abort_transaction();
        tm_commit_transaction();
        tm_start_transaction();
        CHECK(tm_stm_tx_begin_at(quiet) == 1000, "a committing site keeps its length");
        tm_commit_transaction();
    }
    const tm_txlen_site *c = tm_txlen_lookup(&tm_stm_txlen_policy, aborting);
    const tm_txlen_site *q = tm_txlen_lookup(&tm_stm_txlen_policy, quiet);
    CHECK(c && q, "both sites tracked");
    CHECK(q->length == 1000 && q->aborted == 0, "quiet site: length %u", q->length);
    /* explicit aborts are not conflicts: the site's length stays */
    CHECK(c->length == 1000 && c->aborted == 0, "explicit aborts do not cut: %u", c->length);
}

/* Real conflicts: two threads write X from transactions started at one
 * site; the site's length is cut down to the minimum, while a site only
 * one thread uses, without conflicts, keeps its length. */
static volatile int conflict_round, rounds_done;

static void *conflict_writer(void *arg)
{
    int me = (int)(intptr_t)arg;
    tm_thread_attach();
    for (int i = 0; i < 60; i++) {
        /* lockstep: both start, both write X: the younger loses */
        volatile int attempts = 0;
        tm_start_transaction();
        if (attempts++ == 0)
            tm_stm_tx_begin_at(0x3000);
        if (me == 0 && attempts == 1) {
            put(X, get(X) + 1);
            __atomic_add_fetch(&conflict_round, 1, __ATOMIC_SEQ_CST);
            while (__atomic_load_n(&conflict_round, __ATOMIC_SEQ_CST) < 2 * i + 2)
                tm_safepoint();
        } else if (me == 1 && attempts == 1) {
            while (__atomic_load_n(&conflict_round, __ATOMIC_SEQ_CST) < 2 * i + 1)
                tm_safepoint();
            __atomic_add_fetch(&conflict_round, 1, __ATOMIC_SEQ_CST);
            put(X, get(X) + 1);   /* younger: loses to the owner and aborts */
        } else {
            put(X, get(X) + 1);
        }
        tm_commit_transaction();
        if (me == 1) {
            tm_start_transaction();
            tm_stm_tx_begin_at(0x4000);
            tm_commit_transaction();
        }
        /* both committed before the next round (a retry must not meet the
         * partner's next transaction, which waits for it) */
        __atomic_add_fetch(&rounds_done, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&rounds_done, __ATOMIC_SEQ_CST) < 2 * i + 2)
            sched_yield();
    }
    tm_thread_detach();
    return NULL;
}

static void test_lengths_adapt(void)
{
    tm_txlen_params p;
    tm_txlen_default_params(&p);
    p.initial = 1000;
    p.period = 20;
    p.threshold = 2;
    p.minimum = 10;
    tm_stm_txlen_init(&p);
    reset_x(0);
    conflict_round = rounds_done = 0;
    /* the lockstep waits inside transactions: a serialised thread would wait
     * for the token its partner holds while it waits for this one */
    int mode = tm_cfg.stm_cm;
    tm_cfg.stm_cm = TM_CM_CFG_OFF;
    pthread_t a, b;
    pthread_create(&a, NULL, conflict_writer, (void *)0);
    pthread_create(&b, NULL, conflict_writer, (void *)1);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    tm_cfg.stm_cm = mode;
    CHECK(committed_x() == 120, "every increment committed once: %lu", (unsigned long)committed_x());
    const tm_txlen_site *c = tm_txlen_lookup(&tm_stm_txlen_policy, 0x3000);
    const tm_txlen_site *q = tm_txlen_lookup(&tm_stm_txlen_policy, 0x4000);
    CHECK(c && q, "both sites tracked");
    CHECK(c->aborted > 0, "the conflicting site saw aborts");
    CHECK(c->length < 1000 && c->shortened > 0, "the conflicting site's length dropped: %u", c->length);
    CHECK(c->length >= 10, "not below the minimum: %u", c->length);
    CHECK(q->length == 1000 && q->shortened == 0, "the committing site stays long: %u", q->length);
}

int main(void)
{
    setenv("TMPY_STM_CM", getenv("TMPY_STM_CM") ? getenv("TMPY_STM_CM") : "eager", 1);
    tm_runtime_init_from_env();
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell)});
    tm_add_global_root(&X);
    tm_thread_attach();
    if (tm_cfg.stm_cm == TM_CM_CFG_EAGER) {
        test_modes();
        test_token_queue();
        test_inevitable_not_solo();
        test_winner_drafted();
    }
    test_hammer();
    test_lengths();
    test_lengths_adapt();
    printf("ok\n");
    return 0;
}
