/* Fairness of the STM's two queues (issue 21): a thread waiting for a
 * segment, or to become inevitable, is served before a thread that asks
 * after it. The case the race lost: a thread ends its transaction and
 * starts the next at once, while the other thread, asleep in its wait,
 * still has to wake up; before the queues the runner took the segment (or
 * inevitability) again every time.
 *
 *   test_stm_fairness-stm segment      (run with TMPY_SEGMENTS=1)
 *   test_stm_fairness-stm inevitable   (two segments or more)
 *   test_stm_fairness-stm slices       (run with TMPY_SEGMENTS=1)
 *   test_stm_fairness-stm spare        (run with TMPY_SEGMENTS=2)
 *
 * Each round: the runner holds what the waiter wants; once the runtime
 * counts the waiter as waiting, the runner gives it up and asks again at
 * once; the waiter, served first, marks that it got it before the runner's
 * next turn. */
#include "tmrt.h"
#include "testutil.h"
#include "stm.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#define ROUNDS 20

static volatile int waiter_got;
static bool want_inevitable;

static void *waiter(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();   /* segment: waits here, behind the runner */
    if (want_inevitable)
        tm_become_inevitable();   /* inevitable: waits here */
    __atomic_store_n(&waiter_got, 1, __ATOMIC_SEQ_CST);
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void pause_a_little(void)
{
    struct timespec ts = {0, 2000000};   /* the waiter falls asleep in its wait */
    nanosleep(&ts, NULL);
}

static void round_of(int (*waiters)(void))
{
    waiter_got = 0;
    tm_start_transaction();
    if (want_inevitable)
        tm_become_inevitable();
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    while (waiters() == 0)   /* queued (outside any park: nobody else runs) */
        sched_yield();
    pause_a_little();
    tm_commit_transaction();
    tm_start_transaction();   /* at once: the waiter asked first */
    if (want_inevitable)
        tm_become_inevitable();
    int got = __atomic_load_n(&waiter_got, __ATOMIC_SEQ_CST);
    tm_commit_transaction();
    pthread_join(t, NULL);
    CHECK(got, "the %s went to the thread that asked again, not to the one waiting",
          want_inevitable ? "inevitable turn" : "segment");
}

/* Time slices (issue 20): a runner whose commits its next transaction
 * follows at once (tm_cm_continue_next, as the interpreter's yield points)
 * keeps the one segment across them while the waiter waits, for a switch
 * interval, and then lets the waiter have it. Kept for good, the loop
 * below never ends; handed over at every commit (as before the slices),
 * the runner commits once before the waiter runs. The interval is long
 * (300 ms) so that a runner descheduled for a while still commits twice. */
static void slices(void)
{
    tm_set_switch_interval_ns(300000000);
    tm_stm_stats s0;
    tm_stm_get_stats(&s0);
    waiter_got = 0;
    tm_start_transaction();
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    while (tm_stm_segment_waiters() == 0)
        sched_yield();
    long commits = 0;
    for (;;) {
        tm_cm_continue_next();
        tm_commit_transaction();
        tm_start_transaction();
        if (__atomic_load_n(&waiter_got, __ATOMIC_SEQ_CST))
            break;
        commits++;
    }
    tm_commit_transaction();
    pthread_join(t, NULL);
    tm_stm_stats s1;
    tm_stm_get_stats(&s1);
    CHECK(commits >= 2, "the runner kept its segment across %ld commit(s) only", commits);
    CHECK(s1.segments_kept - s0.segments_kept >= (uint64_t)commits, "kept %llu times for %ld commits",
          (unsigned long long)(s1.segments_kept - s0.segments_kept), commits);
    printf("ok slices: the runner kept the segment across %ld commits, then the waiter had it\n", commits);
}

/* ---- spare (two segments): the queue keeps a segment for each thread
 * waiting, but a thread that asks while a spare one is free takes it at
 * once, even behind a waiter that was woken and is not running yet. With a
 * strict ticket order it waited for that waiter to be scheduled: every
 * later arrival did, a convoy (short transactions ran up to 300x slower
 * under TMPY_TEST_WAKE_DELAY, or on a loaded machine). The wait hook holds
 * the woken waiter until the runner has started again; if that never
 * happens by itself, the waiter gives up after SPARE_WAIT_S and the round
 * fails. ---- */
#define SPARE_WAIT_S 10
static volatile int spare_armed, runner_again, convoy;
static __thread bool is_waiter;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void spare_hook(int when)
{
    if (when != TM_WAIT_HOOK_WOKEN || !is_waiter || !__atomic_load_n(&spare_armed, __ATOMIC_SEQ_CST))
        return;
    __atomic_store_n(&spare_armed, 0, __ATOMIC_SEQ_CST);
    double give_up = now_s() + SPARE_WAIT_S;
    while (!__atomic_load_n(&runner_again, __ATOMIC_SEQ_CST))
        if (now_s() > give_up) {
            __atomic_store_n(&convoy, 1, __ATOMIC_SEQ_CST);
            break;
        } else {
            sched_yield();
        }
}

static void *spare_waiter(void *arg)
{
    (void)arg;
    is_waiter = true;
    tm_thread_attach();
    tm_start_transaction();   /* queued: the world is stopped */
    __atomic_store_n(&waiter_got, 1, __ATOMIC_SEQ_CST);
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static int spare_mode(void)
{
    tm_runtime_init_from_env();
    CHECK(tm_seg.nsegments == 2, "spare needs two segments, not %d", tm_seg.nsegments);
    tm_stm_set_wait_hook(spare_hook);
    tm_thread_attach();
    for (int i = 0; i < 3; i++) {
        waiter_got = runner_again = 0;
        tm_start_transaction();
        tm_stop_world();   /* the waiter finds no segment it may take: it queues */
        pthread_t t;
        pthread_create(&t, NULL, spare_waiter, NULL);
        while (tm_stm_segment_waiters() == 0)
            sched_yield();
        __atomic_store_n(&spare_armed, 1, __ATOMIC_SEQ_CST);
        tm_resume_world();   /* wakes the waiter: the hook holds it */
        tm_commit_transaction();
        tm_start_transaction();   /* two free segments, one waiter ahead: take the spare one */
        __atomic_store_n(&runner_again, 1, __ATOMIC_SEQ_CST);
        tm_commit_transaction();
        pthread_join(t, NULL);
        CHECK(!convoy, "round %d: the runner waited for a woken waiter to run though a spare segment was free", i);
        CHECK(waiter_got, "the waiter never got a segment");
    }
    tm_stm_set_wait_hook(NULL);
    printf("ok spare: a thread took a spare segment while a woken waiter had not run yet, 3 rounds\n");
    tm_thread_detach();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "slices")) {
        setenv("TMPY_STM_CM", "off", 1);
        tm_runtime_init_from_env();
        CHECK(tm_seg.nsegments == 1, "slices needs one segment, not %d", tm_seg.nsegments);
        tm_thread_attach();
        slices();
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "spare"))
        return spare_mode();
    CHECK(argc == 2 && (!strcmp(argv[1], "segment") || !strcmp(argv[1], "inevitable")),
          "usage: test_stm_fairness-stm segment|inevitable|slices|spare");
    want_inevitable = !strcmp(argv[1], "inevitable");
    setenv("TMPY_STM_CM", "off", 1);   /* no token: the queues alone */
    tm_runtime_init_from_env();
    CHECK(want_inevitable ? tm_seg.nsegments >= 2 : tm_seg.nsegments == 1,
          "%s needs %s segment(s), not %d", argv[1], want_inevitable ? "two or more" : "one", tm_seg.nsegments);
    tm_thread_attach();
    for (int i = 0; i < ROUNDS; i++)
        round_of(want_inevitable ? tm_stm_inevitable_waiters : tm_stm_segment_waiters);
    tm_wait_stat w[TM_WAIT_KINDS];
    tm_wait_get_stats(w);
    int kind = want_inevitable ? TM_WAIT_INEVITABLE : TM_WAIT_SEGMENT;
    CHECK(w[kind].count >= ROUNDS, "the statistics count the waits: %llu", (unsigned long long)w[kind].count);
    CHECK(w[kind].max_ns > 0 && w[kind].total_ns >= w[kind].max_ns, "and time them");
    printf("ok %d rounds: the %s went to the waiter first\n", ROUNDS, argv[1]);
    return 0;
}
