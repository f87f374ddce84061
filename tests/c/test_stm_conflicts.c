/* Deterministic STM conflict tests. Two threads, A and B, run scripted
 * steps in lockstep (a shared step counter; waiting inside a transaction
 * polls tm_safepoint so that the other thread's commit can stop us), so each
 * interleaving is forced, not hoped for. Every case checks who aborted, why,
 * and that the loser's effects never became visible. */
#include "tmrt.h"
#include "gc_internal.h"   /* tm_stop_world, tm_segstates: the stopped-world test */
#include "stm.h"           /* tm_stm_set_wait_hook: its forced rounds */
#include "testutil.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

typedef __seg_gs struct cell {
    tm_header h;
    uintptr_t value;
    uintptr_t pad;
} cell_t;
typedef __seg_gs struct table {
    tm_header h;
    uintptr_t len;
    object_t *items[];
} table_t;

static uint16_t T_CELL, T_TABLE;
static object_t *X, *Y;          /* two shared cells (global roots) */
static object_t *table;          /* many cells, for the abort-restores test */
static volatile int step;

static void set_step(int n) { __atomic_store_n(&step, n, __ATOMIC_SEQ_CST); }

/* Wait for a step; inside a transaction this is a safe point. */
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

static object_t *new_cell(uintptr_t v)
{
    object_t *o = tm_allocate(T_CELL, sizeof(struct cell));
    CHECK(o, "allocation failed");
    ((cell_t *)o)->value = v;
    return o;
}

/* Set X and Y in a committed, inevitable transaction (they are globals). */
static void reset_cells(uintptr_t x, uintptr_t y)
{
    tm_start_transaction();
    tm_become_inevitable();
    X = new_cell(x);
    Y = new_cell(y);
    tm_commit_transaction();
    set_step(0);
}

static uintptr_t committed(object_t **g)
{
    tm_start_transaction();
    uintptr_t v = get(*g);
    tm_commit_transaction();
    return v;
}

typedef struct result {
    volatile int attempts;
    int last_cause;
    uintptr_t seen;
} result;

static result ra, rb;

/* Aborts of a cause so far, over all threads (the loser waits for the
 * winner to finish, so the winner watches the counter, not the retries). */
static uint64_t aborts(int cause)
{
    tm_stm_stats st;
    tm_stm_get_stats(&st);
    return st.aborts_by_cause[cause];
}

static void run2(void *(*a)(void *), void *(*b)(void *))
{
    pthread_t ta, tb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    pthread_create(&ta, NULL, a, NULL);
    pthread_create(&tb, NULL, b, NULL);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
}

#define THREAD_BEGIN tm_thread_attach()
#define THREAD_END(r) do { (r)->last_cause = tm_self.last_abort_cause; tm_thread_detach(); return NULL; } while (0)

/* ---- Read-write: A reads X, B commits a write to X: A aborts, and its own
 * write to Y is never seen. ---- */
static void *rw_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    tm_start_transaction();
    ra.attempts++;
    put(Y, 7);
    ra.seen = get(X);
    if (ra.attempts == 1)
        set_step(1);
    wait_step(2, true);
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *rw_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    put(X, 42);
    rb.seen = get(Y);   /* A's uncommitted 7 must not show */
    tm_commit_transaction();
    set_step(2);
    THREAD_END(&rb);
}

static void test_read_write(void)
{
    reset_cells(1, 2);
    run2(rw_a, rw_b);
    CHECK(ra.attempts == 2, "A ran %d times, expected an abort and one retry", ra.attempts);
    CHECK(ra.last_cause == TM_ABORT_READ_WRITE, "A aborted for cause %d", ra.last_cause);
    CHECK(ra.seen == 42, "A's retry read %lu", ra.seen);
    CHECK(rb.seen == 2, "B saw A's uncommitted write (%lu)", rb.seen);
    CHECK(committed(&X) == 42 && committed(&Y) == 7, "final X/Y wrong");
    printf("ok read-write: the reader aborts, the writer commits, the reader's writes never leak\n");
}

/* ---- Write-write, younger loses: A (older) writes X; B writes X and
 * aborts until A commits; then B's increment follows A's. ---- */
static void *ww_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    uint64_t lost = aborts(TM_ABORT_WRITE_WRITE);
    tm_start_transaction();
    ra.attempts++;
    put(X, get(X) + 10);
    set_step(1);
    while (aborts(TM_ABORT_WRITE_WRITE) == lost)   /* B has lost */
        tm_safepoint();
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *ww_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    rb.attempts++;
    put(X, get(X) + 1);
    tm_commit_transaction();
    THREAD_END(&rb);
}

/* The scripted outcome of most cases below: A ran once, B lost to it
 * (write-write), retried once and added its 1 to A's 110. */
static void check_a_won(const char *a)
{
    CHECK(ra.attempts == 1, "%s aborted (%d attempts)", a, ra.attempts);
    CHECK(rb.attempts == 2 && rb.last_cause == TM_ABORT_WRITE_WRITE, "B: %d attempts, cause %d", rb.attempts, rb.last_cause);
    CHECK(committed(&X) == 111, "X = %lu, expected 111", committed(&X));
}

static void test_write_write_younger_loses(void)
{
    reset_cells(100, 0);
    run2(ww_a, ww_b);
    check_a_won("the older writer");
    printf("ok write-write: the younger writer aborts once and retries after the older commits\n");
}

/* ---- Write-write, older wins: B starts first; A writes X; then B writes X:
 * A is aborted, B commits, A's retry follows. ---- */
static void *wo_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    ra.attempts++;
    put(X, get(X) + 1);
    if (ra.attempts == 1)
        set_step(2);
    wait_step(3, true);
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *wo_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    tm_start_transaction();
    rb.attempts++;
    set_step(1);
    wait_step(2, true);
    put(X, get(X) + 10);   /* A holds the lock: B is older, so A aborts */
    tm_commit_transaction();
    set_step(3);
    THREAD_END(&rb);
}

static void test_write_write_older_wins(void)
{
    reset_cells(100, 0);
    run2(wo_a, wo_b);
    CHECK(rb.attempts == 1, "the older writer aborted (%d attempts)", rb.attempts);
    CHECK(ra.attempts == 2 && ra.last_cause == TM_ABORT_WRITE_WRITE, "A: %d attempts, cause %d",
          ra.attempts, ra.last_cause);
    CHECK(committed(&X) == 111, "X = %lu, expected 111", committed(&X));
    printf("ok write-write: the older writer takes the lock, the younger holder aborts\n");
}

/* ---- A holder that grows a shared object keeps its lock: B starts first;
 * A says it grows (tm_tx_grows) and writes X; then B writes X: B, though
 * older, loses and retries after A's commit, and A's work stands. ---- */
static void *gr_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    uint64_t lost = aborts(TM_ABORT_WRITE_WRITE);
    tm_start_transaction();
    ra.attempts++;
    tm_tx_grows();
    put(X, get(X) + 1);
    set_step(2);
    while (aborts(TM_ABORT_WRITE_WRITE) == lost)   /* B has lost */
        tm_safepoint();
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *gr_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    tm_start_transaction();
    rb.attempts++;
    if (rb.attempts == 1)
        set_step(1);
    wait_step(2, true);
    put(X, get(X) + 10);   /* A holds the lock and grows: B loses */
    tm_commit_transaction();
    THREAD_END(&rb);
}

static void test_write_write_grower_keeps(void)
{
    reset_cells(100, 0);
    run2(gr_a, gr_b);
    check_a_won("the growing holder");
    printf("ok write-write: an older writer loses to a holder that grows a shared object\n");
}

/* ---- The same for a holder that commits: A's commit `before` hook waits
 * until B, older, has lost the lock A holds. ---- */
static __thread bool cb_in_a;
static uint64_t cb_lost;

static void cb_before(void)
{
    if (!cb_in_a)
        return;
    set_step(2);
    while (aborts(TM_ABORT_WRITE_WRITE) == cb_lost)   /* B has lost */
        tm_safepoint();
}

static void *cb_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    cb_lost = aborts(TM_ABORT_WRITE_WRITE);
    tm_start_transaction();
    ra.attempts++;
    put(X, get(X) + 1);
    cb_in_a = true;
    tm_commit_transaction();
    cb_in_a = false;
    THREAD_END(&ra);
}

static void test_write_write_committer_keeps(void)
{
    reset_cells(100, 0);
    tm_set_commit_hooks(cb_before, NULL);
    run2(cb_a, gr_b);
    tm_set_commit_hooks(NULL, NULL);
    check_a_won("the committing holder");
    printf("ok write-write: an older writer loses to a holder that is committing\n");
}

/* ---- An inevitable reader beats a committing writer. ---- */
static void *ir_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    uint64_t lost = aborts(TM_ABORT_INEVITABLE);
    tm_start_transaction();
    ra.attempts++;
    tm_become_inevitable();
    ra.seen = get(X);
    set_step(1);
    while (aborts(TM_ABORT_INEVITABLE) == lost)
        tm_safepoint();
    CHECK(get(X) == ra.seen, "an inevitable transaction saw X change under it");
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *ir_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    rb.attempts++;
    put(X, 5);
    tm_commit_transaction();
    THREAD_END(&rb);
}

static void test_inevitable_reader_wins(void)
{
    reset_cells(9, 0);
    run2(ir_a, ir_b);
    CHECK(ra.attempts == 1, "the inevitable transaction ran %d times", ra.attempts);
    CHECK(rb.attempts == 2 && rb.last_cause == TM_ABORT_INEVITABLE, "B: %d attempts, cause %d",
          rb.attempts, rb.last_cause);
    CHECK(ra.seen == 9 && committed(&X) == 5, "X history wrong");
    printf("ok inevitable reader: the writer aborts instead, once, and retries after it\n");
}

/* ---- An inevitable writer beats an older one; two never at once. ---- */
static volatile int inevitable_inside;

static void *iw_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    ra.attempts++;
    tm_become_inevitable();
    CHECK(__atomic_add_fetch(&inevitable_inside, 1, __ATOMIC_SEQ_CST) == 1, "two inevitable transactions");
    put(X, get(X) + 1);   /* B (older) holds X: B must lose */
    __atomic_sub_fetch(&inevitable_inside, 1, __ATOMIC_SEQ_CST);
    tm_commit_transaction();
    set_step(3);
    THREAD_END(&ra);
}

static void *iw_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    tm_start_transaction();
    rb.attempts++;
    put(X, get(X) + 10);
    if (rb.attempts == 1)
        set_step(1);
    wait_step(3, true);
    /* Now try to be inevitable too, after A: never both at once. */
    tm_become_inevitable();
    CHECK(__atomic_add_fetch(&inevitable_inside, 1, __ATOMIC_SEQ_CST) == 1, "two inevitable transactions");
    __atomic_sub_fetch(&inevitable_inside, 1, __ATOMIC_SEQ_CST);
    tm_commit_transaction();
    THREAD_END(&rb);
}

static void test_inevitable_writer_wins(void)
{
    reset_cells(100, 0);
    run2(iw_a, iw_b);
    check_a_won("the inevitable transaction");
    printf("ok inevitable writer: the older lock holder aborts; inevitability is exclusive\n");
}

/* ---- TMPY_STM_WAIT_FOR_READERS=1: a writer that conflicts with an older
 * (or inevitable) reader waits for it to commit; nobody aborts. ---- */
static volatile int b_committing;

static void *wr_a(void *arg)
{
    bool inevitable = arg != NULL;
    THREAD_BEGIN;
    tm_start_transaction();
    ra.attempts++;
    if (inevitable)
        tm_become_inevitable();
    ra.seen = get(X);
    set_step(1);
    while (!b_committing)
        tm_safepoint();
    for (int i = 0; i < 1000; i++) {   /* give B time to reach its commit (either order is correct) */
        tm_safepoint();
        sched_yield();
    }
    CHECK(get(X) == ra.seen, "the reader saw X change under it");
    put(Y, ra.seen + 1);
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *wr_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    rb.attempts++;
    put(X, 42);
    b_committing = 1;
    tm_commit_transaction();
    THREAD_END(&rb);
}

static void test_writer_waits_for_reader(bool inevitable)
{
    reset_cells(9, 0);
    b_committing = 0;
    pthread_t ta, tb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    pthread_create(&ta, NULL, wr_a, inevitable ? (void *)1 : NULL);
    pthread_create(&tb, NULL, wr_b, NULL);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(ra.attempts == 1 && rb.attempts == 1, "attempts A %d B %d: nobody should abort", ra.attempts, rb.attempts);
    CHECK(ra.seen == 9 && committed(&X) == 42 && committed(&Y) == 10, "final X/Y wrong");
    printf("ok wait for readers: the writer waits for the %s reader, nobody aborts\n",
           inevitable ? "inevitable" : "older");
}

/* ---- Abort restores every segment exactly. ---- */
enum { NCELLS = 6000 };   /* about 48 pages of cells */

static void snapshot(uint8_t **snap, uintptr_t lo, uintptr_t hi)
{
    for (int s = 0; s <= tm_seg.nsegments; s++) {
        snap[s] = malloc(hi - lo);
        tm_compiler_barrier();
        memcpy(snap[s], tm_segment_base(s) + lo, hi - lo);
    }
}

static void test_abort_restores(void)
{
    /* Build the cells, then privatise some of their pages in this segment
     * by a committed write. */
    tm_start_transaction();
    tm_become_inevitable();
    table = tm_allocate_var(T_TABLE, NCELLS);
    for (int i = 0; i < NCELLS; i++) {
        object_t *c = new_cell((uintptr_t)i * 3);
        tm_write(table);
        ((table_t *)table)->items[i] = c;
    }
    tm_commit_transaction();
    tm_start_transaction();
    for (int i = 0; i < NCELLS; i += 500)
        put(((table_t *)table)->items[i], (uintptr_t)i * 3);
    tm_commit_transaction();

    tm_start_transaction();
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < NCELLS; i++) {
        uintptr_t so = (uintptr_t)((table_t *)table)->items[i];
        lo = so < lo ? so : lo;
        hi = so + 32 > hi ? so + 32 : hi;
    }
    tm_commit_transaction();
    lo &= ~(TM_PAGE_SIZE - 1);
    uint8_t *before[TM_MAX_SEGMENTS + 1], *after[TM_MAX_SEGMENTS + 1];
    snapshot(before, lo, hi);
    size_t private_before = tm_private_page_count(1);

    static volatile int attempts;
    attempts = 0;
    tm_start_transaction();
    if (++attempts == 1) {
        for (int i = 0; i < NCELLS; i += 1 + i % 3)
            put(((table_t *)table)->items[i], 0xdeadbeef);
        tm_abort_transaction();
    }
    tm_commit_transaction();
    CHECK(attempts == 2, "abort did not restart the transaction");
    snapshot(after, lo, hi);
    for (int s = 0; s <= tm_seg.nsegments; s++) {
        CHECK(memcmp(before[s], after[s], hi - lo) == 0, "segment %d differs after the abort", s);
        free(before[s]);
        free(after[s]);
    }
    /* Locks were released: a new transaction writes them all. */
    tm_start_transaction();
    for (int i = 0; i < NCELLS; i++)
        put(((table_t *)table)->items[i], (uintptr_t)i);
    tm_commit_transaction();
    printf("ok abort: %zu KiB in %d segments identical after an aborted write of %d cells "
           "(%zu pages were already private)\n", (hi - lo) >> 10, tm_seg.nsegments + 1, NCELLS * 2 / 3,
           private_before);
}

/* An abort right after tm_yield() restarts the transaction tm_yield began:
 * its setjmp must live in a frame that is still there. */
static void __attribute__((noinline)) yield_then_abort(volatile int *attempts, volatile uintptr_t *seen)
{
    tm_start_transaction();
    put(X, 1);
    tm_yield();   /* commits X = 1, starts the next transaction here */
    if (++*attempts == 1) {
        put(X, 99);
        tm_abort_transaction();
    }
    *seen = get(X);
    tm_commit_transaction();
}

static void test_yield_then_abort(void)
{
    reset_cells(0, 0);
    volatile int attempts = 0;
    volatile uintptr_t seen = 0;
    yield_then_abort(&attempts, &seen);
    CHECK(attempts == 2, "the transaction after tm_yield ran %d times", attempts);
    CHECK(seen == 1 && committed(&X) == 1, "X %lu / %lu after an abort following tm_yield", seen, committed(&X));
    printf("ok abort after tm_yield restarts the transaction tm_yield started\n");
}

/* Read markers are reset every 255 transactions: detection must survive it. */
/* ---- Rare write: A reads X without a read barrier (as readers of types
 * and functions do); B changes X through tm_write_rare and commits: A
 * aborts even though it left no read marker, and its retry sees B's value.
 * A write into an object the transaction created stays an ordinary one. ---- */
static void *rare_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    tm_start_transaction();
    ra.attempts++;
    ra.seen = ((cell_t *)X)->value;   /* no barrier */
    if (ra.attempts == 1)
        set_step(1);
    wait_step(2, true);
    tm_commit_transaction();
    THREAD_END(&ra);
}

static void *rare_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    object_t *mine = new_cell(5);
    tm_write_rare(mine);   /* its own object: no need to stop anyone */
    rb.seen = tm_is_inevitable();
    tm_write_rare(X);
    ((cell_t *)X)->value = 99;
    CHECK(tm_is_inevitable() && tm_is_globally_unique(), "a rare write did not make B globally unique");
    tm_commit_transaction();
    set_step(2);
    THREAD_END(&rb);
}

static void test_rare_write(void)
{
    reset_cells(1, 2);
    uint64_t before = aborts(TM_ABORT_RARE_WRITE);
    run2(rare_a, rare_b);
    CHECK(rb.seen == 0, "a rare write into the transaction's own object made it inevitable");
    CHECK(ra.attempts == 2, "A ran %d times, expected an abort and one retry", ra.attempts);
    CHECK(ra.last_cause == TM_ABORT_RARE_WRITE, "A aborted for cause %d", ra.last_cause);
    CHECK(aborts(TM_ABORT_RARE_WRITE) == before + 1, "rare-write aborts not counted");
    CHECK(ra.seen == 99, "A's retry read %lu", ra.seen);
    CHECK(committed(&X) == 99, "final X wrong");
    printf("ok rare write: a reader without a read marker aborts when the globally unique writer commits\n");
}

/* ---- An abort waits for a stopped world: A reads X, makes young objects
 * and parks at safe points; B's inevitable commit of X dooms A and wakes it,
 * and B at once stops the world (as a major collection does, which parses
 * A's nursery in place). Until B resumes it, A must stay parked: before the
 * fix a doomed A left its park to abort, emptying its nursery under the
 * collector (issue 21: "object at SO 0x40000000 has a bad type id"). B
 * watches every other segment's thread and nursery while it holds the
 * world; A wins the race for the lock only sometimes, hence the rounds. ---- */
/* The forced rounds (tm_stm_set_wait_hook): A, woken in its park by B's
 * commit, looks at its state only once B has stopped the world again; B
 * then waits until A either waits again (right) or leaves its segment (the
 * bug), so that every forced round catches the bug. */
static volatile int sw_forced, sw_b_stopped, sw_a_rechecked, sw_a_waits_again;
static __thread bool sw_is_a;

static void sw_wait_hook(int when)
{
    if (!sw_is_a || !__atomic_load_n(&sw_forced, __ATOMIC_SEQ_CST))
        return;
    if (when == TM_WAIT_HOOK_WOKEN && !sw_a_rechecked) {
        while (!__atomic_load_n(&sw_b_stopped, __ATOMIC_SEQ_CST))
            sched_yield();
        __atomic_store_n(&sw_a_rechecked, 1, __ATOMIC_SEQ_CST);
    } else if (when == TM_WAIT_HOOK_BEFORE && sw_a_rechecked) {
        __atomic_store_n(&sw_a_waits_again, 1, __ATOMIC_SEQ_CST);
    }
}

static void *sw_a(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    sw_is_a = true;
    tm_start_transaction();
    ra.attempts++;
    ra.seen = get(X);
    for (int i = 0; i < 64; i++)
        (void)new_cell((uintptr_t)i);
    if (ra.attempts == 1)
        set_step(1);
    wait_step(2, true);
    tm_commit_transaction();
    THREAD_END(&ra);
}

typedef struct seg_view { tm_thread *thread; uintptr_t nursery_current; } seg_view;

static void view_segments(seg_view *v)
{
    for (int j = 1; j <= tm_seg.nsegments; j++) {
        const struct tm_seglocal *sl = (const struct tm_seglocal *)(tm_segment_base(j) + TM_SEGLOCAL_OFFSET);
        v[j].thread = __atomic_load_n(&tm_segstates[j].thread, __ATOMIC_ACQUIRE);
        v[j].nursery_current = __atomic_load_n(&sl->nursery_current, __ATOMIC_ACQUIRE);
    }
}

static bool views_equal(const seg_view *a, const seg_view *b)
{
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (a[j].thread != b[j].thread || a[j].nursery_current != b[j].nursery_current)
            return false;
    return true;
}

static void *sw_b(void *arg)
{
    (void)arg;
    THREAD_BEGIN;
    wait_step(1, false);
    tm_start_transaction();
    tm_become_inevitable();
    put(X, 42);
    tm_commit_transaction();   /* A read X: doomed, and woken by the resume */
    tm_start_transaction();
    tm_stop_world();
    seg_view before[TM_MAX_SEGMENTS + 1], after[TM_MAX_SEGMENTS + 1];
    view_segments(before);
    if (sw_forced) {
        __atomic_store_n(&sw_b_stopped, 1, __ATOMIC_SEQ_CST);
        for (;;) {   /* until A waits again, or changed its segment */
            view_segments(after);
            if (__atomic_load_n(&sw_a_waits_again, __ATOMIC_SEQ_CST) || !views_equal(before, after))
                break;
            sched_yield();
        }
    } else {
        usleep(500);   /* time for a doomed A to run, if it may */
    }
    view_segments(after);
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (j != tm_self.segment)
            CHECK(before[j].thread == after[j].thread && before[j].nursery_current == after[j].nursery_current,
                  "segment %d changed while segment %d held the world stopped (thread %p -> %p, nursery at %#lx -> "
                  "%#lx): a doomed transaction left its park to abort", j, tm_self.segment, (void *)before[j].thread,
                  (void *)after[j].thread, before[j].nursery_current, after[j].nursery_current);
    tm_resume_world();
    tm_commit_transaction();
    set_step(2);
    THREAD_END(&rb);
}

static void test_abort_waits_for_stopped_world(void)
{
    int rounds = 40, forced = 5;
    tm_stm_set_wait_hook(sw_wait_hook);
    for (int r = 0; r < rounds + forced; r++) {
        sw_forced = r >= rounds;
        sw_b_stopped = sw_a_rechecked = sw_a_waits_again = 0;
        reset_cells(1, 2);
        run2(sw_a, sw_b);
        CHECK(ra.attempts == 2 && ra.seen == 42, "A ran %d times and read %lu", ra.attempts, ra.seen);
        CHECK(!sw_forced || sw_a_rechecked, "a forced round where A never woke in its park");
    }
    tm_stm_set_wait_hook(NULL);
    sw_forced = 0;
    printf("ok abort waits for a stopped world: %d rounds (%d forced), no segment changed while another held "
           "the world\n", rounds + forced, forced);
}

static void test_many_transactions_then_conflict(void)
{
    for (int i = 0; i < 700; i++) {
        tm_start_transaction();
        (void)get(X);
        tm_commit_transaction();
    }
    test_read_write();
}

int main(void)
{
    tm_runtime_init_from_env();
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell)});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table),
                                          .item_size = 8, .length_offset = 8, .items_are_refs = true});
    tm_add_global_root(&X);
    tm_add_global_root(&Y);
    tm_add_global_root(&table);
    tm_thread_attach();
    int rounds = (int)(3 * test_scale());
    for (int r = 0; r < rounds; r++) {
        if (tm_cfg.wait_for_readers) {
            test_writer_waits_for_reader(false);
            test_writer_waits_for_reader(true);
        } else {
            test_read_write();
            test_inevitable_reader_wins();
        }
        test_write_write_younger_loses();
        test_write_write_older_wins();
        test_write_write_grower_keeps();
        test_write_write_committer_keeps();
        test_inevitable_writer_wins();
        test_rare_write();
    }
    test_abort_restores();
    test_yield_then_abort();
    test_abort_waits_for_stopped_world();
    if (!tm_cfg.wait_for_readers)
        test_many_transactions_then_conflict();
    tm_stm_stats st;
    tm_stm_get_stats(&st);
    printf("ok %lu transactions, %lu aborts (read-write %lu, write-write %lu, inevitable %lu, explicit %lu), "
           "%lu commits waited for a reader\n",
           st.started, st.aborted, st.aborts_by_cause[TM_ABORT_READ_WRITE],
           st.aborts_by_cause[TM_ABORT_WRITE_WRITE], st.aborts_by_cause[TM_ABORT_INEVITABLE],
           st.aborts_by_cause[TM_ABORT_EXPLICIT], st.reader_waits);
    tm_thread_detach();
    return 0;
}
