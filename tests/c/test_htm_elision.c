/* HTM elision of the GIL (runtime/elision.c) and the per-yield-point
 * transaction-length policy (runtime/txlength.c).
 *
 *   policy     Figure 3 alone: a new site starts at 255; a site whose
 *              transactions keep aborting above the target is cut in 0.75
 *              steps (255, 191, 143, ...), one cut per profiling period that
 *              sees more than 18 aborts; a site below the target keeps its
 *              length and settles after one period; the constant mode; the
 *              length converges under a conflict model (abort probability
 *              1 - (1-q)^length) to where the abort ratio meets the target;
 *              a full table gives the initial length; threads share the table.
 *   paths      Figure 1 driven by the fake HTM's script, on the real runtime
 *              with two attached threads: a commit; transient aborts retried
 *              then the GIL; a persistent abort (capacity, no retry bit) takes
 *              the GIL at once; GIL conflicts retried 15 times, the 16th takes
 *              the GIL; a GIL held by another thread makes begin spin and then
 *              run transactionally; Figure 2's countdown ends a transaction at
 *              its length; the first abort of each transaction feeds the
 *              policy (the 20th first abort cuts 255 to 191); the GC's
 *              slow path inside the fake's transaction; one thread holds the
 *              GIL.
 *   rtm        prints whether this CPU runs RTM (the driver compares it with
 *              /proc/cpuinfo).
 */
#include "tmrt.h"
#include "gc_internal.h"
#include "testutil.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* policy                                                              */
/* ------------------------------------------------------------------ */
static tm_txlen_policy pol;

/* One transaction at site that aborts (first abort) or not. */
static void tx_at(uintptr_t site, bool aborts)
{
    tm_txlen_start(&pol, site);
    if (aborts)
        tm_txlen_first_abort(&pol, site);
}

static void test_policy(void)
{
    tm_txlen_init(&pol, NULL);
    CHECK(tm_txlen_start(&pol, 42) == 255, "a new site starts at the initial length");

    /* Every transaction aborts: one cut per 20 first aborts (threshold 18:
     * the 20th exceeds it), lengths in 0.75 steps. */
    tm_txlen_init(&pol, NULL);
    uint32_t want = 255;
    for (int cut = 0; cut < 8; cut++) {
        for (int i = 0; i < 19; i++)
            tx_at(7, true);
        CHECK(tm_txlen_lookup(&pol, 7)->length == want, "no cut before the 20th abort (cut %d)", cut);
        tx_at(7, true);
        want = (uint32_t)(want * 0.75);
        CHECK(tm_txlen_lookup(&pol, 7)->length == want, "cut %d: length %u, want %u", cut,
              tm_txlen_lookup(&pol, 7)->length, want);
        CHECK(tm_txlen_start(&pol, 7) == want, "the next transaction gets the cut length");
    }
    /* Down to 1, never 0. */
    for (int i = 0; i < 2000; i++)
        tx_at(7, true);
    CHECK(tm_txlen_lookup(&pol, 7)->length == 1, "length bottoms out at 1, got %u", tm_txlen_lookup(&pol, 7)->length);
    CHECK(tm_txlen_settled(&pol, tm_txlen_lookup(&pol, 7)), "length 1 is settled");

    /* Below the target (5 aborts in 300): the length stays; after one
     * whole period the site is settled and later aborts change nothing. */
    tm_txlen_init(&pol, NULL);
    for (int i = 0; i < 300; i++)
        tx_at(9, i % 60 == 0);
    const tm_txlen_site *s = tm_txlen_lookup(&pol, 9);
    CHECK(s->length == 255 && !tm_txlen_settled(&pol, s), "within the first period");
    tx_at(9, false);
    CHECK(tm_txlen_settled(&pol, s), "settled after a period of %u", s->counter);
    for (int i = 0; i < 100; i++)
        tx_at(9, true);
    CHECK(s->length == 255, "a settled site keeps its length");
    CHECK(s->started == 401 && s->aborted == 105, "totals %llu %llu", (unsigned long long)s->started,
          (unsigned long long)s->aborted);

    /* Exactly at the threshold (19 aborts: counter reaches 19 > 18 only on
     * the 20th): no cut. */
    tm_txlen_init(&pol, NULL);
    for (int i = 0; i < 300; i++)
        tx_at(11, i < 19);
    CHECK(tm_txlen_lookup(&pol, 11)->length == 255, "19 aborts in a period do not cut");

    /* Constant lengths (Figure 3, lines 2-3). */
    tm_txlen_params p;
    tm_txlen_default_params(&p);
    p.constant = 16;
    tm_txlen_init(&pol, &p);
    for (int i = 0; i < 100; i++)
        tx_at(5, true);
    CHECK(tm_txlen_start(&pol, 5) == 16, "constant length");
    CHECK(tm_txlen_lookup(&pol, 5) == NULL, "constant mode keeps no sites");

    /* Convergence under a conflict model: a transaction of length L aborts
     * with probability 1 - (1 - q)^L. Each site must settle at a length
     * whose abort probability is at most about the target (18/300 = 6%)
     * and not far below it: the length before the last cut was above it. */
    const double qs[] = {0.0001, 0.0005, 0.002, 0.01, 0.05};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        tm_txlen_init(&pol, NULL);
        rng_t r = {k + 1};
        uintptr_t site = 100 + k;
        for (int i = 0; i < 200000; i++) {
            uint32_t len = tm_txlen_start(&pol, site);
            double ok = 1;
            for (uint32_t j = 0; j < len; j++)
                ok *= 1 - qs[k];
            double u = (double)(rng_next(&r) >> 11) / (double)(1ull << 53);
            if (u < 1 - ok)
                tm_txlen_first_abort(&pol, site);
        }
        s = tm_txlen_lookup(&pol, site);
        double at = 1, before = 1;
        for (uint32_t j = 0; j < s->length; j++)
            at *= 1 - qs[k];
        uint32_t prev = s->shortened ? (uint32_t)(s->length / 0.75) + 1 : s->length;
        for (uint32_t j = 0; j < prev; j++)
            before *= 1 - qs[k];
        printf("policy: q=%.4f settled=%d length %u after %u cuts: abort probability %.1f%% "
               "(%.1f%% at the length before; measured at this length %.1f%%)\n",
               qs[k], tm_txlen_settled(&pol, s), s->length, s->shortened, 100 * (1 - at), 100 * (1 - before),
               s->started_at_length ? 100.0 * (double)s->aborted_at_length / (double)s->started_at_length : 0.0);
        CHECK(tm_txlen_settled(&pol, s), "q=%g: settled", qs[k]);
        CHECK(1 - at <= 0.10 || s->length == 1, "q=%g: settled at length %u with abort probability %.3f", qs[k],
              s->length, 1 - at);
        CHECK(!s->shortened || 1 - before >= 0.03, "q=%g: cut below need (%.3f at the length before)", qs[k],
              1 - before);
    }

    /* A full table: sites past it run at the initial length, uncounted. */
    tm_txlen_init(&pol, NULL);
    for (uintptr_t i = 1; i <= TM_TXLEN_SITES; i++)
        tm_txlen_start(&pol, i * 4096);
    CHECK(tm_txlen_start(&pol, 12345) == 255 && pol.untracked == 1, "full table");
    printf("policy: ok\n");
}

/* Threads share one table: no entry is lost or duplicated. */
static void *policy_thread(void *arg)
{
    uintptr_t base = (uintptr_t)arg;
    for (int round = 0; round < 200; round++)
        for (uintptr_t s = 1; s <= 64; s++) {
            tm_txlen_start(&pol, s);           /* shared sites */
            tm_txlen_start(&pol, base + s);    /* this thread's */
            if (s % 3 == 0)
                tm_txlen_first_abort(&pol, s);
        }
    return NULL;
}

static void test_policy_threads(void)
{
    tm_txlen_init(&pol, NULL);
    pthread_t t[4];
    for (uintptr_t i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, policy_thread, (void *)((i + 1) << 20));
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    int used = 0;
    for (size_t i = 0; i < TM_TXLEN_SITES; i++)
        if (pol.sites[i].site != TM_TXLEN_EMPTY) {
            used++;
            for (size_t j = i + 1; j < TM_TXLEN_SITES; j++)
                CHECK(pol.sites[j].site != pol.sites[i].site, "site %#lx twice", (unsigned long)pol.sites[i].site);
        }
    CHECK(used == 64 + 4 * 64, "%d sites", used);
    printf("policy threads: ok\n");
}

/* ------------------------------------------------------------------ */
/* paths                                                               */
/* ------------------------------------------------------------------ */
#define STATUS_C (TM_HTM_CONFLICT | TM_HTM_RETRY)
#define STATUS_S TM_HTM_STARTED
#define STATUS_P TM_HTM_CAPACITY
#define STATUS_G TM_HTM_STATUS_EXPLICIT(TM_HTM_CODE_GIL_HELD)

static uint64_t snap[TM_ELIDE_STATS];

static void take_snapshot(void)
{
    tm_elision_stats s;
    tm_elision_get_stats(&s);
    memcpy(snap, s.c, sizeof snap);
}

/* The counter's growth since the snapshot. */
static uint64_t grew(int stat)
{
    tm_elision_stats s;
    tm_elision_get_stats(&s);
    return s.c[stat] - snap[stat];
}

static void script(const unsigned *st, size_t n)
{
    tm_htm_fake_script(st, n);
    take_snapshot();
}

/* A second attached thread, parked outside the heap until told to go. */
static pthread_mutex_t helper_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cv = PTHREAD_COND_INITIALIZER;
static int helper_cmd;                 /* 1: hold the GIL, 2: release it, 3: detach and exit */
static volatile int helper_holding;    /* 1 while it holds the GIL */
static volatile int helper_released;   /* set just before it releases */

static void wait_cmd(int cmd)
{
    pthread_mutex_lock(&helper_mu);
    while (helper_cmd != cmd)
        pthread_cond_wait(&helper_cv, &helper_mu);
    pthread_mutex_unlock(&helper_mu);
}

static void send_cmd(int cmd)
{
    pthread_mutex_lock(&helper_mu);
    helper_cmd = cmd;
    pthread_cond_broadcast(&helper_cv);
    pthread_mutex_unlock(&helper_mu);
}

static void *helper(void *arg)
{
    (void)arg;
    tm_thread_attach();
    wait_cmd(1);
    /* A capacity abort: persistent, so it takes the GIL. */
    tm_elision_begin(77);
    CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL, "helper holds the GIL");
    helper_holding = 1;
    wait_cmd(2);
    usleep(20000);   /* the main thread spins meanwhile */
    helper_released = 1;
    tm_elision_end();
    wait_cmd(3);
    tm_thread_detach();
    return NULL;
}

static void test_paths(void)
{
    tm_config cfg;
    char err[256];
    tm_config_defaults(&cfg);
    cfg.nsegments = 2;
    cfg.segment_size = 1UL << 30;
    cfg.tm_htm = true;
    cfg.htm_fake = "script:s";
    CHECK(tm_runtime_init(&cfg, err, sizeof err) == 0, "init: %s", err);
    CHECK(tm_elision_on && tm_elision_htm == &tm_htm_fake, "elision on, with the fake");
    tm_thread_attach();

    /* One thread: the GIL, no countdown at yield points. */
    take_snapshot();
    tm_start_transaction();
    CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL && grew(TM_ELIDE_GIL_ALONE) == 1, "one thread holds the GIL");
    CHECK(!(tm_yield_request & TM_YIELD_COUNT), "no countdown with one thread");
    tm_commit_transaction();

    pthread_t h;
    pthread_create(&h, NULL, helper, NULL);
    while (tm_thread_count() < 2)
        usleep(100);

    /* A commit. */
    unsigned s1[] = {STATUS_S};
    script(s1, 1);
    tm_elision_begin(1);
    CHECK(tm_self.elide_state == TM_ELIDE_IN_TX && tm_htm_fake.test(), "running transactionally");
    CHECK(tm_yield_request & TM_YIELD_COUNT, "yield points count down with two threads");
    tm_elision_end();
    CHECK(grew(TM_ELIDE_STARTED) == 1 && grew(TM_ELIDE_COMMITTED) == 1 && !tm_htm_fake.test(), "committed");

    /* Transient aborts: retried (TRANSIENT_RETRY_MAX = 3 attempts), then the GIL. */
    unsigned s2[] = {STATUS_C, STATUS_C, STATUS_C};
    script(s2, 3);
    tm_elision_begin(2);
    CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL, "the GIL after three transient aborts");
    CHECK(grew(TM_ELIDE_STARTED) == 3 && grew(TM_ELIDE_ABORT_CONFLICT) == 3 && grew(TM_ELIDE_RETRIES_TRANSIENT) == 2 &&
          grew(TM_ELIDE_GIL_TRANSIENT_OUT) == 1, "3 begins, 2 retries, 1 fallback");
    tm_elision_end();

    /* Two transient aborts, then a commit. */
    unsigned s3[] = {STATUS_C, STATUS_C, STATUS_S};
    script(s3, 3);
    tm_elision_begin(3);
    CHECK(tm_self.elide_state == TM_ELIDE_IN_TX && grew(TM_ELIDE_RETRIES_TRANSIENT) == 2, "third try runs");
    tm_elision_end();

    /* Persistent aborts (capacity; a conflict or a zero status without the
     * retry bit): the GIL at once. */
    unsigned persistent[] = {STATUS_P, TM_HTM_CONFLICT, 0, TM_HTM_STATUS_EXPLICIT(TM_HTM_CODE_NEED_GIL)};
    for (int i = 0; i < 4; i++) {
        script(&persistent[i], 1);
        tm_elision_begin(4);
        CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL && grew(TM_ELIDE_STARTED) == 1 &&
              grew(TM_ELIDE_GIL_PERSISTENT) == 1, "persistent status %#x: the GIL at once", persistent[i]);
        tm_elision_end();
        CHECK(tm_htm_fake_script_left() == 0, "script used");
    }
    CHECK(grew(TM_ELIDE_ABORT_NEED_GIL) == 1, "a need-GIL abort counted");

    /* GIL conflicts: retried GIL_RETRY_MAX - 1 = 15 times, the 16th takes the GIL. */
    unsigned g[16];
    for (int i = 0; i < 16; i++)
        g[i] = STATUS_G;
    script(g, 16);
    tm_elision_begin(5);
    CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL && grew(TM_ELIDE_STARTED) == 16 && grew(TM_ELIDE_RETRIES_GIL) == 15 &&
          grew(TM_ELIDE_ABORT_GIL_HELD) == 16 && grew(TM_ELIDE_GIL_RETRIES_OUT) == 1, "GIL retries exhausted");
    tm_elision_end();
    g[15] = STATUS_S;
    script(g, 16);
    tm_elision_begin(5);
    CHECK(tm_self.elide_state == TM_ELIDE_IN_TX && grew(TM_ELIDE_RETRIES_GIL) == 15, "the 16th try runs");
    tm_elision_end();

    /* The GIL held by another thread: begin spins (lines 6-8) until it is
     * released, then runs transactionally. */
    tm_elision_spin_rounds = 1 << 30;   /* outlast the helper's hold */
    unsigned cap[] = {STATUS_P, STATUS_S};
    script(cap, 2);
    send_cmd(1);
    while (!helper_holding)
        usleep(100);
    send_cmd(2);
    tm_elision_begin(6);
    CHECK(helper_released, "ran only after the holder let go");
    CHECK(tm_self.elide_state == TM_ELIDE_IN_TX, "a transaction after the spin");
    CHECK(grew(TM_ELIDE_SPINS) == 1 && grew(TM_ELIDE_GIL_PERSISTENT) == 1, "spun once; the helper fell back once");
    tm_elision_end();
    tm_elision_spin_rounds = 4096;

    /* Figure 2: the transaction ends at its length (255 at a new site). */
    script(NULL, 0);
    tm_elision_begin(8);
    CHECK(tm_self.elide_countdown == 255, "length %d", tm_self.elide_countdown);
    for (int i = 0; i < 254; i++)
        tm_yield_at(8);
    CHECK(grew(TM_ELIDE_COMMITTED) == 0 && tm_self.elide_state == TM_ELIDE_IN_TX, "still in the first transaction");
    tm_yield_at(9);
    CHECK(grew(TM_ELIDE_COMMITTED) == 1 && grew(TM_ELIDE_STARTED) == 2 && tm_self.elide_state == TM_ELIDE_IN_TX,
          "the 255th yield point ends it and begins the next");
    CHECK(tm_self.elide_site == 9, "the next starts at the yield point that ended the last");
    tm_elision_end();

    /* The first abort of each transaction feeds the policy: 20 transactions
     * from one site that abort once each cut its length to 191. */
    unsigned cs[40];
    for (int i = 0; i < 40; i++)
        cs[i] = i % 2 ? STATUS_S : STATUS_C;
    script(cs, 40);
    for (int i = 0; i < 20; i++) {
        tm_elision_begin(10);
        tm_elision_end();
    }
    CHECK(tm_txlen_lookup(&tm_elision_policy, 10)->length == 191 && grew(TM_ELIDE_LENGTH_CUTS) == 1,
          "cut to %u", tm_txlen_lookup(&tm_elision_policy, 10)->length);
    tm_elision_begin(10);
    CHECK(tm_self.elide_countdown == 191, "the next transaction from there is shorter");
    tm_elision_end();

    /* The GC's slow path in a transaction: the hardware would abort to take
     * the GIL; the fake (running alone) goes on and counts it. */
    script(NULL, 0);
    tm_elision_begin(11);
    tm_collect_minor();
    CHECK(grew(TM_ELIDE_NEED_GIL_IN_FAKE) == 1 && tm_self.elide_state == TM_ELIDE_IN_TX, "fake went on");
    tm_elision_end();

    /* Back to one thread: the GIL, and the countdown off. */
    send_cmd(3);
    pthread_join(h, NULL);
    take_snapshot();
    tm_elision_begin(12);
    CHECK(tm_self.elide_state == TM_ELIDE_HOLDS_GIL && grew(TM_ELIDE_GIL_ALONE) == 1, "one thread again");
    CHECK(!(tm_yield_request & TM_YIELD_COUNT), "countdown off");
    tm_elision_end();
    printf("paths: ok\n");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    if (!strcmp(mode, "rtm")) {
        printf("rtm %s\n", tm_htm_rtm_available() ? "yes" : "no");
        return 0;
    }
    if (!strcmp(mode, "policy") || !strcmp(mode, "all")) {
        test_policy();
        test_policy_threads();
    }
    if (!strcmp(mode, "paths") || !strcmp(mode, "all"))
        test_paths();
    return 0;
}
