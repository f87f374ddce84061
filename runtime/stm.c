#define _GNU_SOURCE   /* RUSAGE_THREAD */
/* The STM (paper 004, sections 4.4-4.11): segment assignment, the write
 * barrier's STM half, commit with every other transaction at a safe point,
 * abort, inevitable transactions and contention management.
 *
 * Synchronisation: one mutex (sync_lock) and one condition variable guard
 * every segment's state. A segment is FREE (no transaction), RUNNING, or
 * PARKED (its transaction waits at a safe point: it touches nothing shared).
 * A committer (or major collection) becomes the sync requester, asks the
 * RUNNING segments to stop by setting their nursery_end to
 * TM_NURSERY_END_SIGNAL, waits until none is RUNNING, does its work, and
 * wakes everyone. Other segments' nursery_end and must_abort are written
 * only under sync_lock. */
#include "tmrt.h"
#include "fatal.h"
#include "gc_internal.h"
#include "stm.h"
#include "contention.h"
#include "txlength.h"
#include "park.h"
#include "wake.h"

#if TM_STM

#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include "cards.h"
#include "oldspace.h"

enum { SEG_FREE, SEG_RUNNING, SEG_PARKED };

static struct segtx {
    int state;                 /* SEG_*, under sync_lock */
    uint64_t start_time;       /* smaller is older */
    int must_abort;            /* a tm_abort_cause set by another thread, under sync_lock */
    int winner;                /* the segment that set must_abort for a write-write conflict */
    uint16_t conflict_tid;     /* type id of the object of the conflict that dooms it (statistics) */
    uintptr_t conflict_site;   /* where the other side of that conflict was (tm_set_site_hook; statistics) */
    uintptr_t tx_site;         /* the yield point the running transaction started at (statistics) */
    size_t old_used_at_start;  /* tm_old_bytes_used when it started: bounds a solo run (tm_solo_may_go_on) */
    bool unique;               /* tm_become_globally_unique: its commit aborts every other transaction */
    bool fresh;                /* waits to become inevitable having read nothing (tm_become_inevitable_fresh) */
    /* Solo, and no segment had a private page when it went solo (none can
     * get one before it ends: privatise_range): its writes are in segment
     * 0 already and its commit publishes nothing, so its stores into big
     * objects mark no cards and take no card locks. Its own thread's. */
    bool in_place;
    /* Its commit's merge runs now and writes in place (merge_in_place). */
    bool merging_in_place;
    /* It commits (from its `before` hook on), or grows a shared object
     * (tm_tx_grows): a write lock it holds is not taken from it by an older
     * transaction, which loses instead (write_write_contention). Its own. */
    bool committing, growing;
    /* A FREE segment kept for the thread that just committed in it and
     * starts its next transaction at once (its slice is not over), until
     * kept_until (CLOCK_MONOTONIC ns): see "Time slices" below. */
    tm_thread *kept_for;
    uint64_t kept_until;
} segtx[TM_MAX_SEGMENTS + 1];

/* The type id of the object at segment offset so, as committed. */
static uint16_t tid_at(uintptr_t so)
{
    return ((struct tm_header *)(tm_segment_base(0) + so))->tid;
}

static pthread_mutex_t sync_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sync_cond = PTHREAD_COND_INITIALIZER;
static int sync_requester;       /* segment that stops the world, 0 if none */
static int inevitable_seg;       /* the one inevitable transaction's segment, 0 if none */
/* The solo transaction's segment, 0 if none: an inevitable transaction that
 * became inevitable while its thread was the only one attached and no other
 * transaction ran. Until it ends no other transaction starts, so nobody can
 * see its writes before its commit, and it cannot abort: it writes shared
 * pages in place instead of privatising them (one mmap and a page copy each,
 * then a re-share at the next major collection), which is what made one
 * thread under STM pay for writing old objects. */
static int solo_seg;
static uint64_t tx_clock;
static uint16_t overflow_clock;
static uint8_t *write_locks;     /* one byte per 16 bytes of segment: owning segment */

/* Conflict units of big objects. A carded object (cards.h) written through
 * tm_write_items is locked card by card, not whole: the lock of the card
 * starting at c is the byte of the 16 bytes after c's first, inside the
 * object (a carded object starts a page run), so never an object's own lock.
 * A whole write (tm_write) takes the object's lock and every card's, so it
 * excludes card writers, and a card writer checks the object's lock after
 * taking its card's (both are atomic read-modify-writes: one of the two sees
 * the other). Commits publish a card writer's cards only (cards.h), and
 * readers mark either the object (tm_read: a whole reader) or the 16 bytes
 * of each item they read (tm_read_at): a commit that wrote a card aborts the
 * whole readers and the readers of that card's items. Two threads writing
 * different cards of one dict or set table then run in parallel. */
static inline uintptr_t card_lock_index(uintptr_t card) { return (card << (TM_CARD_SHIFT - 4)) + 1; }
static inline uintptr_t card_of_lock(uintptr_t idx) { return (idx - 1) << 4; }

/* TMPY_STM_TEST_NO_CARD_LOCKS=1 (tests only): card writers take no card
 * lock, so two transactions may write one card and the later commit
 * overwrites the earlier one's items: the stress tests must catch it. */
static bool no_card_locks;
/* TMPY_STM_TEST_NO_PRIVATISE_AHEAD=1 (tests, measurements): item stores
 * privatise the pages they write only (privatise_items). */
static bool no_privatise_ahead;
/* TMPY_STM_TEST_SOLO_KEEPS_PRIVATE=1 (tests): a solo transaction re-shares
 * no page first, so its commit copies into other segments' private pages. */
static bool solo_keeps_private;
/* TMPY_STM_TEST_MERGE_PRIVATE=1 (tests, measurements): a commit's merge
 * privatises the pages it writes, as every merge did before it wrote in
 * place (merge_in_place). */
static bool merge_private;

/* Waiting on sync_cond: every state change bumps sync_epoch under
 * sync_lock. A waiter first spins on the epoch without the lock (a handoff
 * between two running CPUs then costs well under a microsecond), and only
 * then sleeps on the condition variable (a futex wake costs 10-25 us). */
static uint64_t sync_epoch;
static int sync_sleepers;
#define SYNC_SPIN 2000
static int ncpus;
static void segment_wake(void);
static void segment_cond_init(void);

/* Short when threads outnumber CPUs: the awaited one needs a core. */
static int sync_spin(void) { return tm_thread_count() > ncpus ? SYNC_SPIN / 20 : SYNC_SPIN; }

static void sync_broadcast(void)   /* sync_lock held */
{
    __atomic_add_fetch(&sync_epoch, 1, __ATOMIC_RELEASE);
    if (sync_sleepers)
        pthread_cond_broadcast(&sync_cond);
}

static void (*wait_hook)(int when);

void tm_stm_set_wait_hook(void (*hook)(int when)) { wait_hook = hook; }

static void sync_wait(void)   /* sync_lock held; returns with it held, after some change */
{
    uint64_t e = __atomic_load_n(&sync_epoch, __ATOMIC_ACQUIRE);
    pthread_mutex_unlock(&sync_lock);
    if (wait_hook)
        wait_hook(TM_WAIT_HOOK_BEFORE);
    int spin = sync_spin();
    for (int i = 0; i < spin && __atomic_load_n(&sync_epoch, __ATOMIC_ACQUIRE) == e; i++)
        __builtin_ia32_pause();
    pthread_mutex_lock(&sync_lock);
    sync_sleepers++;
    while (__atomic_load_n(&sync_epoch, __ATOMIC_ACQUIRE) == e)
        pthread_cond_wait(&sync_cond, &sync_lock);
    sync_sleepers--;
    if (tm_cfg.wake_delay_us || wait_hook) {   /* tests: the woken thread runs late */
        pthread_mutex_unlock(&sync_lock);
        tm_wake_delay();
        if (wait_hook)
            wait_hook(TM_WAIT_HOOK_WOKEN);
        pthread_mutex_lock(&sync_lock);
    }
}

static struct tm_seglocal *seglocal_of(int seg)
{
    return (struct tm_seglocal *)(tm_segment_base(seg) + TM_SEGLOCAL_OFFSET);
}

static uintptr_t nursery_end_value(void)
{
    /* Move mode wants the next allocation to collect again. */
    return tm_cfg.gc_debug_move ? TM_SEGLOCAL->nursery_current : tm_seg.nursery_end;
}

void tm_stm_init(void)
{
    ncpus = get_nprocs();
    segment_cond_init();
    write_locks = mmap(NULL, tm_seg.segment_size / 16, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (write_locks == MAP_FAILED)
        tm_fatal("cannot allocate the write-lock array: %s", strerror(errno));
    const char *e = getenv("TMPY_STM_TEST_NO_CARD_LOCKS");
    no_card_locks = e && *e == '1';
    e = getenv("TMPY_STM_TEST_NO_PRIVATISE_AHEAD");
    no_privatise_ahead = e && *e == '1';
    e = getenv("TMPY_STM_TEST_SOLO_KEEPS_PRIVATE");
    solo_keeps_private = e && *e == '1';
    e = getenv("TMPY_STM_TEST_MERGE_PRIVATE");
    merge_private = e && *e == '1';
}

/* Read without the lock by the inevitable transaction itself (only it
 * clears its own value) and by others with the world stopped. */
int tm_inevitable_segment(void) { return __atomic_load_n(&inevitable_seg, __ATOMIC_RELAXED); }

static bool is_inevitable(int seg) { return seg && tm_inevitable_segment() == seg; }

bool tm_is_inevitable(void) { return is_inevitable(tm_self.segment); }

#define STAT(name) (tm_self.tx_stats[TM_STAT_##name])

/* ---- Parking ---- */

/* With sync_lock held: park this segment until ready() (or it must abort)
 * and no other segment stops the world; then run again. Returns the abort
 * cause, if any. One that must abort waits for the world too: its abort
 * empties its nursery and rewrites what it wrote, which a major collection
 * of the stopper may be reading (issue 21: "object at SO 0x40000000 has a
 * bad type id", the first young object of the aborting segment, zeroed
 * while the collector parsed its nursery). */
static int park_until(bool (*ready)(void *), void *arg)
{
    int me = tm_self.segment;
    uint64_t t0 = tm_ticks();
    segtx[me].state = SEG_PARKED;
    sync_broadcast();
    while ((!segtx[me].must_abort && !ready(arg)) || (sync_requester && sync_requester != me))
        sync_wait();
    segtx[me].state = SEG_RUNNING;
    if (!sync_requester)
        TM_SEGLOCAL->nursery_end = nursery_end_value();
    STAT(WAIT_NS) += tm_ticks() - t0;
    return segtx[me].must_abort;
}

static bool always(void *arg) { (void)arg; return true; }

static __attribute__((noreturn)) void abort_self(int cause);

void tm_safepoint_slow(void)
{
    pthread_mutex_lock(&sync_lock);
    int cause = park_until(always, NULL);
    pthread_mutex_unlock(&sync_lock);
    if (cause)
        abort_self(cause);
}

void tm_set_nursery_end(uintptr_t end)
{
    pthread_mutex_lock(&sync_lock);
    if (TM_SEGLOCAL->nursery_end != TM_NURSERY_END_SIGNAL)
        TM_SEGLOCAL->nursery_end = end;
    pthread_mutex_unlock(&sync_lock);
}

/* Ask a running segment to come to a safe point (sync_lock held). */
static void signal_segment(int seg)
{
    if (segtx[seg].state == SEG_RUNNING)
        seglocal_of(seg)->nursery_end = TM_NURSERY_END_SIGNAL;
}

static bool world_stopped(void *arg)
{
    (void)arg;
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (j != tm_self.segment && segtx[j].state == SEG_RUNNING)
            return false;
    return true;
}

static bool no_requester(void *arg) { (void)arg; return sync_requester == 0; }

/* Become the only segment that runs: every other transaction parks. */
void tm_stop_world(void)
{
    int me = tm_self.segment;
    uint64_t t0 = tm_ticks();
    pthread_mutex_lock(&sync_lock);
    int cause = sync_requester ? park_until(no_requester, NULL) : segtx[me].must_abort;
    if (!cause) {
        sync_requester = me;
        for (int j = 1; j <= tm_seg.nsegments; j++)
            if (j != me)
                signal_segment(j);
        while (!world_stopped(NULL))
            sync_wait();
        cause = segtx[me].must_abort;
        if (cause) {
            sync_requester = 0;
            sync_broadcast();
            segment_wake();
        }
    }
    pthread_mutex_unlock(&sync_lock);
    STAT(SYNC_NS) += tm_ticks() - t0;
    if (cause)
        abort_self(cause);
}

void tm_resume_world(void)
{
    pthread_mutex_lock(&sync_lock);
    sync_requester = 0;
    sync_broadcast();
    segment_wake();
    pthread_mutex_unlock(&sync_lock);
}

/* ---- Segments ---- */

/* Threads waiting for a segment, in arrival order (under sync_lock): a
 * thread takes a free segment only if one is left for each thread queued
 * before it. A thread that commits and starts again at once would otherwise
 * keep a waiter out for as long as the scheduler lets it (tests/
 * test_stm_interp.py, fairness tests); and unlike a strict ticket order, a
 * running thread need not wait for a woken one to be scheduled while spare
 * segments are free (with tickets, a thread woken late held up every later
 * arrival: a convoy that ran short transactions 300x slower under
 * TMPY_TEST_WAKE_DELAY, and as much on a loaded machine). */
typedef struct segment_waiter { struct segment_waiter *next; } segment_waiter;
static segment_waiter *segment_queue, **segment_queue_tail = &segment_queue;
static int segment_queued;

static int queued_ahead(const segment_waiter *w)
{
    int n = 0;
    for (const segment_waiter *p = segment_queue; p != w; p = p->next)
        n++;
    return n;
}

/* Time slices (issue 20: threads outnumbering segments). A thread whose
 * commit is followed at once by its next transaction (a yield point) keeps
 * its segment across it while others wait, for a switch interval from when
 * it took the segment (sys.setswitchinterval, 5 ms), as a GIL holder keeps
 * the GIL; then it lets it go to the longest waiter and queues behind the
 * others. Handing the segment over at every commit (every ~25 us of
 * while_loop) made every transaction a futex wake and a context switch
 * (8 threads on 2 segments: 13,944 segment waits in 14,000 transactions).
 * Segment waiters sleep on a condition of their own (segment_cond), woken
 * only when a segment may have become theirs, not at every commit. */
static pthread_cond_t segment_cond;   /* on CLOCK_MONOTONIC: tm_stm_init */
static int segment_sleepers;
static uint64_t switch_interval_ns = 5000000;

void tm_set_switch_interval_ns(uint64_t ns) { __atomic_store_n(&switch_interval_ns, ns, __ATOMIC_RELAXED); }
uint64_t tm_get_switch_interval_ns(void) { return __atomic_load_n(&switch_interval_ns, __ATOMIC_RELAXED); }

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void segment_cond_init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&segment_cond, &a);
    pthread_condattr_destroy(&a);
}

static void segment_wake(void)   /* sync_lock held: a segment may be free for a waiter */
{
    if (segment_sleepers)
        pthread_cond_broadcast(&segment_cond);
}

/* sync_lock held; returns with it held, after a wake or at deadline (0: none). */
static void segment_wait(uint64_t deadline)
{
    segment_sleepers++;
    if (deadline) {
        struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000u), .tv_nsec = (long)(deadline % 1000000000u)};
        pthread_cond_timedwait(&segment_cond, &sync_lock, &ts);
    } else {
        pthread_cond_wait(&segment_cond, &sync_lock);
    }
    segment_sleepers--;
}

/* Kept for another thread, and its slice not over. */
static bool kept_from(int j, const tm_thread *me, uint64_t now)
{
    return segtx[j].kept_for && segtx[j].kept_for != me && now < segtx[j].kept_until;
}

/* A FREE segment this thread may take now (its last one first), or 0: one
 * only if more such segments are free than threads queued ahead of it; the
 * earliest end of a reservation that keeps one from it in *until. */
static int free_segment_for(const tm_thread *me, int ahead, uint64_t *until)
{
    if (sync_requester || solo_seg)
        return 0;
    uint64_t now = monotonic_ns();
    int n = 0, first = 0, last = me->last_segment;
    for (int j = 1; j <= tm_seg.nsegments; j++) {
        if (segtx[j].state != SEG_FREE)
            continue;
        if (segtx[j].kept_for && kept_from(j, me, now)) {
            if (!*until || segtx[j].kept_until < *until)
                *until = segtx[j].kept_until;
            continue;
        }
        n++;
        if (!first || j == last)
            first = j;
    }
    return n > ahead ? first : 0;
}

static void acquire_segment(void)
{
    tm_thread *me = &tm_self;
    pthread_mutex_lock(&sync_lock);
    int seg = 0, last = me->last_segment;
    if (last >= 1 && last <= tm_seg.nsegments && segtx[last].kept_for == me) {
        /* Kept for us: no place in the queue (the waiters queue for the others). */
        while ((sync_requester || solo_seg) && segtx[last].kept_for == me && segtx[last].state == SEG_FREE &&
               monotonic_ns() < segtx[last].kept_until)
            segment_wait(segtx[last].kept_until);
        if (!sync_requester && !solo_seg && segtx[last].kept_for == me && segtx[last].state == SEG_FREE)
            seg = last;
    }
    if (!seg) {
        if (last >= 1 && last <= tm_seg.nsegments && segtx[last].kept_for == me) {
            segtx[last].kept_for = NULL;   /* not taken (a world stop, solo): the queue decides */
            segment_wake();
        }
        uint64_t until = 0;
        if (segment_queued || !(seg = free_segment_for(me, 0, &until))) {
            segment_waiter w = {NULL};
            *segment_queue_tail = &w;
            segment_queue_tail = &w.next;
            segment_queued++;
            uint64_t t0 = tm_wait_begin();
            for (;;) {
                until = 0;
                if ((seg = free_segment_for(me, queued_ahead(&w), &until)))
                    break;
                segment_wait(until);
            }
            tm_wait_end(TM_WAIT_SEGMENT, t0);
            segment_waiter **pp = &segment_queue;
            while (*pp != &w)
                pp = &(*pp)->next;
            *pp = w.next;
            if (segment_queue_tail == &w.next)
                segment_queue_tail = pp;
            if (--segment_queued)
                segment_wake();   /* the ones behind moved up */
        }
        me->slice_start_ns = monotonic_ns();
    }
    segtx[seg] = (struct segtx){.state = SEG_RUNNING, .start_time = ++tx_clock, .tx_site = me->tx_site,
                                 .old_used_at_start = __atomic_load_n(&tm_old_bytes_used, __ATOMIC_RELAXED)};
    tm_segstates[seg].thread = me;
    me->segment = me->last_segment = seg;
    uint16_t ov = ++overflow_clock;
    if (!ov)
        ov = ++overflow_clock;
    tm_segstates[seg].overflow = ov;
    /* Under the lock: a world stop may signal this segment (it runs) as soon
     * as the lock is free, and a store after that would lose the signal.
     * Through the segment's base: %gs is set after the lock (an arch_prctl
     * system call where FSGSBASE is missing), and not at all when it is
     * this segment's already. */
    struct tm_seglocal *sl = seglocal_of(seg);
    sl->nursery_end = tm_cfg.gc_debug_move ? sl->nursery_current : tm_seg.nursery_end;
    pthread_mutex_unlock(&sync_lock);
    if (tm_gs_base != tm_segment_base(seg))
        tm_set_segment(seg);
}

static void drop_kept_segment(tm_thread *me)
{
    int last = me->last_segment;
    if (last < 1 || last > tm_seg.nsegments || __atomic_load_n(&segtx[last].kept_for, __ATOMIC_RELAXED) != me)
        return;
    pthread_mutex_lock(&sync_lock);
    if (segtx[last].kept_for == me) {
        segtx[last].kept_for = NULL;
        segment_wake();
    }
    pthread_mutex_unlock(&sync_lock);
}

int tm_stm_segment_waiters(void)
{
    pthread_mutex_lock(&sync_lock);
    int n = segment_queued;
    pthread_mutex_unlock(&sync_lock);
    return n;
}

/* may_keep: a commit followed at once by the next transaction (time slices). */
static void release_segment(bool may_keep)
{
    tm_thread *me = &tm_self;
    int seg = me->segment;
    pthread_mutex_lock(&sync_lock);
    if (inevitable_seg == seg)
        __atomic_store_n(&inevitable_seg, 0, __ATOMIC_RELAXED);
    bool was_solo = solo_seg == seg;
    if (was_solo)
        __atomic_store_n(&solo_seg, 0, __ATOMIC_RELAXED);
    uint64_t until = 0;
    if (may_keep && segment_queued) {
        uint64_t now = monotonic_ns();
        until = me->slice_start_ns + tm_get_switch_interval_ns();
        if (now >= until)
            until = 0;
        else
            STAT(SEGMENT_KEPT)++;
    }
    segtx[seg] = (struct segtx){.state = SEG_FREE, .kept_for = until ? me : NULL, .kept_until = until};
    tm_segstates[seg].thread = NULL;
    sync_broadcast();
    if (!until || was_solo)
        segment_wake();
    pthread_mutex_unlock(&sync_lock);
    me->segment = 0;
}

/* ---- A leaving thread's view ---- */

/* Zero every read marker of seg (they read as zero again; the pages go
 * back). Only markers of the nursery and of old space up to its high-water
 * mark can have been written. */
static void drop_read_markers(int seg)
{
    uintptr_t lo = (tm_seg.nursery_start >> 4) & ~(TM_PAGE_SIZE - 1);
    uintptr_t hi = ((tm_old_high_water() >> 4) + TM_PAGE_SIZE - 1) & ~(TM_PAGE_SIZE - 1);
    if (madvise(tm_segment_base(seg) + lo, hi - lo, MADV_DONTNEED) != 0)
        tm_fatal("cannot clear read markers: %s", strerror(errno));
}

#define TM_RELEASE_VIEW_MIN_FAULTS 1024   /* a tree worker of tree_inserts_locked: 5,700-8,500 */

/* A thread that mapped little (its page faults: about 45 for a thread that
 * sums a range and takes a lock) leaves its view: the next one would fault
 * the same module and class pages in again, and 3000 such threads started
 * and joined one by one took 1.7x as long. */
bool tm_view_worth_releasing(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) != 0 || ru.ru_minflt >= TM_RELEASE_VIEW_MIN_FAULTS;
}

static bool keep_no_page(uintptr_t so, void *ctx) { (void)so, (void)ctx; return false; }

/* A thread that is about to detach gives back the memory its segment's view
 * holds: the private pages (re-shared: no transaction runs there, so they
 * hold the committed contents), the page-table entries of shared pages
 * (RSS counts a shared page once per view that maps it: a tree that a
 * worker built and the main thread read after join() counted twice), the
 * read markers and the nursery. The segment is marked running meanwhile,
 * without a transaction: nobody takes it, and no world stops (a commit
 * copying into its private pages, a collection re-sharing them) while its
 * mappings change; a world stop waits for it, a few milliseconds at most.
 * Skipped when another thread took the segment already. */
void tm_release_view(void)
{
    tm_thread *me = &tm_self;
    int seg = me->last_segment;
    if (seg < 1 || seg > tm_seg.nsegments || me->segment)
        return;
    if (!tm_view_worth_releasing())
        return;
    pthread_mutex_lock(&sync_lock);
    uint64_t until = monotonic_ns() + 50 * 1000000ULL;
    while ((sync_requester || solo_seg) && segtx[seg].state == SEG_FREE && monotonic_ns() < until)
        segment_wait(until);
    bool mine = segtx[seg].state == SEG_FREE && !sync_requester && !solo_seg &&
                (!segtx[seg].kept_for || segtx[seg].kept_for == me || monotonic_ns() >= segtx[seg].kept_until);
    if (mine)
        segtx[seg] = (struct segtx){.state = SEG_RUNNING};
    pthread_mutex_unlock(&sync_lock);
    if (!mine)
        return;
    if (tm_private_page_count(seg))
        tm_pages_reshare_unless(seg, keep_no_page, NULL);
    tm_view_forget_pages(seg, tm_seg.old_start, tm_old_high_water());
    drop_read_markers(seg);
    if (!tm_cfg.gc_debug_move &&   /* move mode poisons what it used and never reuses it */
        madvise(tm_segment_base(seg) + tm_seg.nursery_start, tm_seg.nursery_end - tm_seg.nursery_start,
                MADV_DONTNEED) != 0)
        tm_fatal("cannot drop segment %d's nursery: %s", seg, strerror(errno));
    pthread_mutex_lock(&sync_lock);
    segtx[seg] = (struct segtx){.state = SEG_FREE};
    sync_broadcast();
    segment_wake();
    pthread_mutex_unlock(&sync_lock);
}

/* ---- Transactions ---- */

/* A transaction that lost a conflict lets the winner finish before it runs
 * again; retrying at once would only lose again. Called under sync_lock or
 * with the world stopped; wait_for_winner does the waiting at restart. */
static void lose_to(int winner)
{
    if (segtx[winner].state != SEG_FREE && tm_segstates[winner].thread)
        tm_cm_won_against(tm_segstates[winner].thread);
    if (!tm_self.wait_for_seg) {
        tm_self.wait_for_seg = winner;
        tm_self.wait_for_start = segtx[winner].start_time;
    }
}

static void wait_for_winner(tm_thread *me)
{
    int w = me->wait_for_seg;
    me->wait_for_seg = 0;
    uint64_t t0 = tm_ticks();
    pthread_mutex_lock(&sync_lock);
    while (segtx[w].state != SEG_FREE && segtx[w].start_time == me->wait_for_start)
        sync_wait();
    pthread_mutex_unlock(&sync_lock);
    STAT(WAIT_NS) += tm_ticks() - t0;
}

void tm_start_transaction_after_setjmp(void)
{
    tm_thread *me = &tm_self;
    TM_ASSERT(me->attached && me->segment == 0);
    if (me->wait_for_seg)
        wait_for_winner(me);
    if (me->cm_mode == TM_CM_SERIAL && !me->cm_token)
        drop_kept_segment(me);   /* it may wait for the token, which a segment waiter may hold */
    tm_cm_before_start();   /* a serialised thread takes the token first, holding no segment */
    acquire_segment();
    tm_check_reprotect(me->segment);
    /* A fresh read version; the markers are cleared once every 255. */
    uint8_t rv = (uint8_t)(TM_SEGLOCAL->marker_version + 1);
    if (rv == 0) {
        drop_read_markers(me->segment);
        rv = 1;
    }
    TM_SEGLOCAL->read_version = TM_SEGLOCAL->marker_version = rv;
    me->ss_at_start = me->ss_top;
    me->tx_start_ticks = tm_ticks();
    STAT(STARTED)++;
}

/* Copy an object from segment `from` into segment `to` (the world is
 * stopped, or the object is ours). */
static void copy_object(int from, int to, uintptr_t so, size_t size)
{
    tm_compiler_barrier();
    memcpy(tm_segment_base(to) + so, tm_segment_base(from) + so, size);
    tm_compiler_barrier();
}

/* The same for the part of [so, so + size) on pages private in segment
 * `in` (a page shared there shows segment 0's contents: no copy needed to
 * or from it, and the barrier checker maps it read-only). Page by page: an
 * object's pages need not all be private (a carded object's item stores
 * privatise only their cards' pages). */
static void copy_pages_private_in(int in, int from, int to, uintptr_t so, size_t size)
{
    for (uintptr_t p = so & ~(TM_PAGE_SIZE - 1); p < so + size; p += TM_PAGE_SIZE) {
        if (!tm_page_is_private(in, p))
            continue;
        uintptr_t lo = p < so ? so : p, hi = p + TM_PAGE_SIZE < so + size ? p + TM_PAGE_SIZE : so + size;
        copy_object(from, to, lo, hi - lo);
    }
}

static void (*commit_before_hook)(void);
static bool (*commit_merge_hook)(void);

void tm_set_commit_hooks(void (*before)(void), bool (*merge)(void))
{
    commit_before_hook = before;
    commit_merge_hook = merge;
}

static void (*abort_hook)(void);

void tm_set_abort_hook(void (*hook)(void)) { abort_hook = hook; }

static void (*inevitable_hook)(void);

void tm_set_inevitable_hook(void (*hook)(void)) { inevitable_hook = hook; }

static void (*before_inevitable_hook)(void);

void tm_set_before_inevitable_hook(void (*hook)(void)) { before_inevitable_hook = hook; }

static uintptr_t (*site_hook)(void);

void tm_set_site_hook(uintptr_t (*hook)(void)) { site_hook = hook; }

/* Where the calling thread is now, as the embedder names it (0: unknown). */
static uintptr_t here(void) { return site_hook ? site_hook() : 0; }

/* ---- Transaction lengths per yield point (txlength.h) ---- */

tm_txlen_policy tm_stm_txlen_policy;

void tm_stm_txlen_init(const tm_txlen_params *params) { tm_txlen_init(&tm_stm_txlen_policy, params); }

uint32_t tm_stm_tx_begin_at(uintptr_t site)
{
    tm_self.tx_site = site;
    tm_self.tx_site_aborted = false;
    if (tm_self.segment)
        segtx[tm_self.segment].tx_site = site;   /* names it when it wins a conflict */
    return tm_txlen_start(&tm_stm_txlen_policy, site);
}

uint32_t tm_stm_tx_length_now(void)
{
    const tm_txlen_policy *pol = &tm_stm_txlen_policy;
    if (pol->p.constant)
        return pol->p.constant;
    const tm_txlen_site *s = tm_self.tx_site ? tm_txlen_lookup(pol, tm_self.tx_site) : NULL;
    return s && s->length ? s->length : pol->p.initial;
}

/* The first conflict abort of a transaction counts against its site
 * (Figure 3, lines 11-24); its retries do not. */
static void note_abort_at_site(tm_thread *me, int cause)
{
    if (!me->tx_site || me->tx_site_aborted || cause == TM_ABORT_INJECTED || cause == TM_ABORT_EXPLICIT)
        return;
    me->tx_site_aborted = true;
    if (tm_txlen_first_abort(&tm_stm_txlen_policy, me->tx_site))
        STAT(LENGTH_CUTS)++;
}

/* After a commit that began at commit_start: the contention manager weighs
 * the commit's cost against the transaction's run (a solo commit's cost
 * does not count: it is what serialising buys). */
static void end_transaction(tm_thread *me, uint64_t commit_start)
{
    uint64_t now = tm_ticks();
    bool solo = tm_is_solo();
    me->tx_site = 0;
    release_segment(tm_cm_next_follows() && me->cm_mode != TM_CM_SERIAL);
    tm_cm_committed(commit_start - me->tx_start_ticks, solo ? 0 : now - commit_start);
    tm_wakes_run();   /* the waiters its writes let go (wake.h) */
}

/* At commit and abort: the objects' locks we hold (a carded object written
 * only by cards has none of ours), then the cards'. */
static void release_write_locks(tm_segstate *ss, int seg)
{
    for (size_t i = 0; i < ss->modified.count; i++) {
        uintptr_t idx = ss->modified.items[i] >> 4;
        if (__atomic_load_n(&write_locks[idx], __ATOMIC_RELAXED) == seg)
            __atomic_store_n(&write_locks[idx], 0, __ATOMIC_RELEASE);
    }
    if (!no_card_locks)
        for (size_t i = 0; i < ss->card_locks.count; i++)
            __atomic_store_n(&write_locks[ss->card_locks.items[i]], 0, __ATOMIC_RELEASE);
    ss->modified.count = ss->card_objs.count = ss->card_locks.count = 0;
}

/* Major collection, after marking (world stopped): a transaction that
 * writes in place cannot abort, so the old objects it wrote need not
 * survive for an abort to restore, and its dead ones leave its list (and
 * their locks go): nothing in its commit reads them. */
bool tm_stm_writes_in_place(int seg) { return segtx[seg].in_place; }
void tm_stm_forget_dead_written(tm_segstate *ss)
{
    size_t n = 0;
    for (size_t i = 0; i < ss->modified.count; i++) {
        uintptr_t so = ss->modified.items[i];
        if (tm_old_is_marked(so))
            ss->modified.items[n++] = so;
        else if (__atomic_load_n(&write_locks[so >> 4], __ATOMIC_RELAXED) == ss->seg)
            __atomic_store_n(&write_locks[so >> 4], 0, __ATOMIC_RELEASE);
    }
    ss->modified.count = n;
}

static void abort_self(int cause)
{
    tm_thread *me = &tm_self;
    int seg = me->segment;
    tm_segstate *ss = &tm_segstates[seg];
    TM_ASSERT(!is_inevitable(seg));
    /* Old objects we wrote get segment 0's committed contents back. */
    for (size_t i = 0; i < ss->modified.count; i++) {
        uintptr_t so = ss->modified.items[i];
        size_t size = tm_object_size_in(0, so);
        if (tm_carded(&tm_types[((struct tm_header *)(tm_segment_base(0) + so))->tid], size)) {
            tm_cards_clear(TM_CARDS_TX, seg, so, size);
            copy_pages_private_in(seg, 0, seg, so, size);   /* its item stores privatised only their pages */
        } else {
            copy_object(0, seg, so, size);
        }
    }
    release_write_locks(ss, seg);
    /* Everything it created is garbage: the nursery is emptied, big young
     * objects freed, overflow objects left to the next major collection. */
    tm_discard_young(ss);
    ss->created.count = 0;
    me->ss_top = me->ss_at_start;
    if (abort_hook)
        abort_hook();
    STAT(ABORTED) += 1;
    STAT(ABORTED_NS) += tm_ticks() - me->tx_start_ticks;
    me->tx_stats[TM_STAT_ABORT_CAUSE + cause]++;
    me->last_abort_cause = cause;
    note_abort_at_site(me, cause);
    tm_cm_aborted(cause);
    pthread_mutex_lock(&sync_lock);
    me->last_conflict_tid = segtx[seg].conflict_tid;
    me->last_conflict_site = segtx[seg].conflict_site;
    me->last_abort_ticks = tm_ticks() - me->tx_start_ticks;
    segtx[seg].conflict_tid = 0;
    segtx[seg].conflict_site = 0;
    if (segtx[seg].winner)
        lose_to(segtx[seg].winner);
    pthread_mutex_unlock(&sync_lock);
    release_segment(false);
    tm_wakes_drop();
    __builtin_longjmp(me->abort_jmp, 1);
}

void tm_abort_transaction(void) { abort_self(TM_ABORT_EXPLICIT); }

/* TMPY_STM_INJECT_ABORTS: each thread draws from its own generator, seeded
 * from the seed and its thread index, so a run repeats per thread. */
static __thread uint64_t inject_state;

static uint64_t inject_draw(void)
{
    if (!inject_state)
        inject_state = (tm_cfg.inject_seed + tm_self.index) * 0x9E3779B97F4A7C15ull | 1;
    inject_state ^= inject_state << 13;
    inject_state ^= inject_state >> 7;
    inject_state ^= inject_state << 17;
    return inject_state;
}

/* TMPY_STM_INJECT_DIVERGE=1: a retry normally runs at once on the world
 * its aborted run saw, so it takes the same path and sets C state as the
 * aborted run did. Here an injected abort first moves the world on: the
 * interpreter's clocks jump ahead (by 1 ns to 100 us: code that branches on
 * the clock may branch the other way), and the thread waits a little,
 * parking at safe points, for another thread's transaction to start or end,
 * so that a pending commit lands before the retry reads again. The skew
 * only grows, for every thread: the clocks stay monotonic. */
uint64_t tm_clock_skew_ns;

#define DIVERGE_MAX_SKEW_NS 100000
#define DIVERGE_WAIT_ROUNDS 64

static void diverge_before_retry(void)
{
    __atomic_add_fetch(&tm_clock_skew_ns, 1 + inject_draw() % DIVERGE_MAX_SKEW_NS, __ATOMIC_RELAXED);
    uint64_t e = __atomic_load_n(&sync_epoch, __ATOMIC_ACQUIRE);
    for (int i = 0; i < DIVERGE_WAIT_ROUNDS && __atomic_load_n(&sync_epoch, __ATOMIC_ACQUIRE) == e; i++) {
        tm_safepoint();   /* a committer may be waiting for us (it may also abort us) */
        sched_yield();
    }
}

void tm_stm_maybe_inject_abort(void)
{
    if (tm_cfg.inject_aborts <= 0 || !tm_self.segment || is_inevitable(tm_self.segment))
        return;
    if ((double)(inject_draw() >> 11) * 0x1.0p-53 < tm_cfg.inject_aborts) {
        if (tm_cfg.inject_diverge)
            diverge_before_retry();
        abort_self(TM_ABORT_INJECTED);
    }
}

/* What a commit needs to know about the other segments, gathered once
 * with the world stopped. */
typedef struct others {
    int ntx, tx[TM_MAX_SEGMENTS];          /* segments running a transaction */
    uint8_t rv[TM_MAX_SEGMENTS];           /* their read versions */
    int npriv, priv[TM_MAX_SEGMENTS];      /* other segments with private pages */
    bool self_private;                     /* we have private pages */
} others;

static void gather_others(int seg, others *o)
{
    o->ntx = o->npriv = 0;
    for (int j = 1; j <= tm_seg.nsegments; j++) {
        if (j == seg)
            continue;
        if (segtx[j].state != SEG_FREE) {
            o->rv[o->ntx] = seglocal_of(j)->read_version;
            o->tx[o->ntx++] = j;
        }
        if (tm_private_page_count(j))
            o->priv[o->npriv++] = j;
    }
    o->self_private = tm_private_page_count(seg) != 0;
}

/* Every page of every object we publish is copied into segment 0 (if ours
 * is private) and into every other segment that has it private. */
static void publish(int seg, const others *o, uintptr_t so, size_t size)
{
    if (o->self_private)
        copy_pages_private_in(seg, seg, 0, so, size);
    for (int k = 0; k < o->npriv; k++)
        copy_pages_private_in(o->priv[k], seg, o->priv[k], so, size);
}

struct publish_range { int seg; const others *o; };

static void publish_range(uintptr_t start, uintptr_t end, void *arg)
{
    struct publish_range *pr = arg;
    publish(pr->seg, pr->o, start, end - start);
}

struct tx_id { int seg; uint64_t start; };

static bool transaction_ended(void *arg)
{
    struct tx_id *t = arg;
    return segtx[t->seg].state == SEG_FREE || segtx[t->seg].start_time != t->start;
}

/* Read-write conflicts, with the world stopped: whoever read what we wrote
 * must not commit. Returns a reader to wait for (seg 0: none), or aborts us. */
/* Did segment j (read version rv) read the 16-byte granules of [at, at + n * 16)? */
static bool read_any(int j, uint8_t rv, uintptr_t at, size_t n)
{
    const uint8_t *m = (const uint8_t *)tm_segment_base(j) + (at >> 4);
    for (size_t g = 0; g < n; g++)
        if (m[g] == rv)
            return true;
    return false;
}

static struct tx_id check_readers(tm_segstate *ss, const others *o)
{
    int seg = ss->seg;
    size_t nobj = ss->modified.count;
    /* The objects (their whole readers), then the cards we hold (the
     * readers of their items: tm_read_at), as lock indexes. */
    for (size_t i = 0; i < nobj + ss->card_locks.count; i++) {
        bool card = i >= nobj;
        uintptr_t so = card ? card_of_lock(ss->card_locks.items[i - nobj]) : ss->modified.items[i];
        for (int k = 0; k < o->ntx; k++) {
            int j = o->tx[k];
            if (segtx[j].must_abort || !read_any(j, o->rv[k], so, card ? TM_CARD_SIZE >> 4 : 1))
                continue;
            bool older = segtx[j].start_time < segtx[seg].start_time;
            if (tm_cfg.wait_for_readers && (older || is_inevitable(j)) && !is_inevitable(seg))
                return (struct tx_id){j, segtx[j].start_time};
            if (is_inevitable(j)) {
                lose_to(j);
                tm_resume_world();
                abort_self(TM_ABORT_INEVITABLE);
            }
            segtx[j].must_abort = TM_ABORT_READ_WRITE;   /* no lock needed: j is parked */
            segtx[j].conflict_tid = card ? 0 : tid_at(so);
            segtx[j].conflict_site = here();   /* the commit that wrote what j read */
        }
    }
    return (struct tx_id){0, 0};
}

/* May this commit's merge write in place, with the world stopped (the
 * committed state, segment 0, where a page of ours is shared) instead of
 * privatising the pages it writes first? Only if nothing can abort the
 * commit once the merge wrote: the merge hooks fail before they write
 * anything, and the read check aborts a committer only for an inevitable
 * reader (none runs beside us now: none can start while the world is
 * stopped), or parks it with its writes unpublished (wait_for_readers). Not
 * under the barrier checker (shared pages are read-only in thread
 * segments). Its writes are published as any card's: marked, they are
 * copied where another segment has the page private (and into segment 0
 * where ours is private). The privatisations saved were most of a merging
 * commit's page copies (bench/results/commit_merge_in_place.txt). */
static bool merge_in_place(int seg)
{
    int inev = tm_inevitable_segment();
    return !merge_private && !tm_check_writes && !tm_cfg.wait_for_readers && (!inev || inev == seg);
}

void tm_commit_transaction(void)
{
    tm_thread *me = &tm_self;
    int seg = me->segment;
    tm_segstate *ss = &tm_segstates[seg];
    __atomic_store_n(&segtx[seg].committing, true, __ATOMIC_RELAXED);
    if (commit_before_hook)
        commit_before_hook();
    tm_stm_maybe_inject_abort();
    /* Doomed already (a winner waits for our locks): abort now, not after
     * a minor collection that may trace a big table it made. */
    if (__atomic_load_n(&segtx[seg].must_abort, __ATOMIC_RELAXED))
        tm_safepoint_slow();
    tm_collect_minor_of(ss);   /* nothing young outlives the transaction */
    tm_gc_maybe_collect_major();
    uint64_t t0 = tm_ticks();
    if (!ss->modified.count && !ss->created.count && tm_weak_lists_empty(ss)) {
        /* Wrote and kept nothing: nobody can conflict with it. A parked
         * reader's doom was decided while it was parked, so check ours. */
        pthread_mutex_lock(&sync_lock);
        int cause = segtx[seg].must_abort;
        pthread_mutex_unlock(&sync_lock);
        if (cause)
            abort_self(cause);
        STAT(COMMITTED)++;
        end_transaction(me, t0);
        return;
    }
    others o;
    /* A solo transaction's world is stopped already: every other segment
     * is free and none is taken before it ends (free_segment_for). */
    bool solo = __atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == seg;
    for (;;) {
        if (!solo)
            tm_stop_world();
        /* Before gathering: the merge may privatise pages of ours. */
        if (commit_merge_hook) {
            segtx[seg].merging_in_place = merge_in_place(seg);
            bool merged = commit_merge_hook();
            segtx[seg].merging_in_place = false;
            if (!merged) {
                if (is_inevitable(seg))
                    tm_fatal("an inevitable transaction's commit merge failed");
                tm_resume_world();
                abort_self(TM_ABORT_WRITE_WRITE);
            }
        }
        gather_others(seg, &o);
        struct tx_id reader = check_readers(ss, &o);
        if (!reader.seg)
            break;
        /* Let the older (or inevitable) reader commit first, holding our
         * write locks; then our write serialises after its read. */
        STAT(READER_WAITS)++;
        pthread_mutex_lock(&sync_lock);
        sync_requester = 0;
        int cause = park_until(transaction_ended, &reader);
        pthread_mutex_unlock(&sync_lock);
        if (cause)
            abort_self(cause);
    }
    /* What we wrote may have been read without barriers: nobody that ran
     * alongside goes on (everyone else is inevitable-free: we are it). */
    if (segtx[seg].unique)
        for (int k = 0; k < o.ntx; k++)
            if (!segtx[o.tx[k]].must_abort && !segtx[o.tx[k]].fresh) {   /* fresh: read nothing */
                segtx[o.tx[k]].must_abort = TM_ABORT_RARE_WRITE;
                segtx[o.tx[k]].conflict_site = here();
            }
    /* Publish: our writes, then the objects we created. The pages we wrote
     * are private (privatised before the stores: a whole object's, or a
     * carded one's header and marked cards), unless a solo transaction wrote
     * them in place: then segment 0 has them already. */
    if (segtx[seg].in_place && (o.self_private || o.npriv))
        tm_fatal("a page became private during a solo transaction that writes in place");
    for (size_t i = 0; i < ss->modified.count && !segtx[seg].in_place; i++) {
        uintptr_t so = ss->modified.items[i];
        size_t size = tm_object_size((object_t *)so);
        const tm_type *t = &tm_types[((object_t *)so)->h.tid];
        if (tm_carded(t, size)) {   /* the fixed part (header, length) and the marked cards */
            if (__builtin_expect(tm_check_writes, 0))
                tm_check_unmarked_cards(seg, so, t->base_size, size, t->name);
            publish(seg, &o, so, t->base_size);
            struct publish_range pr = {seg, &o};
            tm_cards_take(TM_CARDS_TX, seg, so + t->base_size, so + size, publish_range, &pr);
        } else {
            publish(seg, &o, so, size);
        }
    }
    for (size_t i = 0; i < ss->created.count; i++) {
        object_t *obj = (object_t *)ss->created.items[i];
        obj->h.overflow = 0;
        publish(seg, &o, (uintptr_t)obj, tm_object_size(obj));
    }
    release_write_locks(ss, seg);
    ss->created.count = 0;
    tm_weak_publish(ss);   /* its weak references and registrations are everyone's now */
    if (!solo)
        tm_resume_world();
    STAT(COMMITTED)++;
    STAT(COMMIT_NS) += tm_ticks() - t0;
    end_transaction(me, t0);
}

/* Transactions waiting to become inevitable, by segment, in arrival order
 * (under sync_lock): the first gets it when the inevitable one ends, not
 * whoever takes sync_lock first. One that aborts while it waits leaves. */
static int inevitable_queue[TM_MAX_SEGMENTS];
static int inevitable_queued;

static bool inevitable_turn(void *arg)
{
    return inevitable_seg == 0 && inevitable_queue[0] == (int)(intptr_t)arg;
}

int tm_stm_inevitable_waiters(void)
{
    pthread_mutex_lock(&sync_lock);
    int n = inevitable_queued;
    pthread_mutex_unlock(&sync_lock);
    return n;
}

static void inevitable_dequeue(int seg)   /* sync_lock held */
{
    int n = 0;
    for (int i = 0; i < inevitable_queued; i++)
        if (inevitable_queue[i] != seg)
            inevitable_queue[n++] = inevitable_queue[i];
    inevitable_queued = n;
}

/* Solo is allowed (not under the barrier checker, whose thread segments map
 * shared pages read-only, nor with injected aborts, which an inevitable
 * transaction never takes), this thread is alone, or every other attached
 * thread is parked in a wait only a running thread can end (a join, a lock:
 * tm_thread_passive_begin), or it holds the contention manager's token (the
 * threads that conflict with it wait for the token, holding no segment), and
 * no other transaction runs and no thread waits for a segment (it is let in
 * first): sync_lock held. A thread asleep or in I/O keeps it from solo: it
 * may wake and run while this transaction waits for it (a spin inside
 * `with tm.atomic:`, which no yield point ends). */
static bool can_go_solo(int seg)
{
    if (!tm_cfg.stm_solo || tm_check_writes || tm_cfg.inject_aborts > 0 ||
        (!tm_threads_all_others_passive() && !tm_self.cm_token) || segment_queued)
        return false;
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (j != seg && segtx[j].state != SEG_FREE)
            return false;
    return true;
}

/* The same, read without sync_lock (a hint: can_go_solo decides): most
 * transactions of a threaded program end here without taking the lock. */
static bool others_running_hint(int seg)
{
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (j != seg && __atomic_load_n(&segtx[j].state, __ATOMIC_RELAXED) != SEG_FREE)
            return true;
    return false;
}

/* A solo transaction writes shared pages in place, but its commit still
 * copies what it wrote into every segment holding those pages private (left
 * from parallel transactions until the next major collection): with a big
 * object written at every commit (a dict's tables), that copy was most of a
 * serialised run's time. Nobody else runs now: give those pages back first
 * (keeping the ones this transaction wrote). */
static bool any_private_page(void)
{
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (tm_private_page_count(j))
            return true;
    return false;
}

static void reshare_for_solo(int seg)
{
    if (!solo_keeps_private && any_private_page()) {   /* ours too: this transaction wrote nothing yet */
        tm_stop_world();   /* immediate: every other segment is free */
        tm_reshare_pages();
        tm_resume_world();
        STAT(RESHARE_FOR_SOLO)++;
    }
    segtx[seg].in_place = !any_private_page();
}

/* Solo only where the embedder asked for it (tm_become_solo): a plain
 * inevitable transaction must not keep other threads from starting theirs
 * (one may wait inside it for another thread's transaction). */
static void become_inevitable(bool solo_wanted, bool fresh)
{
    int seg = tm_self.segment;
    TM_ASSERT(seg > 0);
    if (is_inevitable(seg))
        return;
    if (before_inevitable_hook)
        before_inevitable_hook();   /* may write and abort: still an ordinary transaction */
    pthread_mutex_lock(&sync_lock);
    int cause;
    if (solo_wanted && !segtx[seg].must_abort &&
        (inevitable_seg || sync_requester || inevitable_queued || !can_go_solo(seg))) {
        /* Not alone any more (a thread took a segment since tm_become_solo
         * looked): stay an ordinary transaction. Inevitable beside others,
         * it stored plainly where it would have logged (a dict insert
         * writes DictObj) and doomed every reader at its commit:
         * read_mostly_dict at 2 threads, 26 of 39 read-write aborts. */
        pthread_mutex_unlock(&sync_lock);
        return;
    }
    if (inevitable_seg || sync_requester || inevitable_queued) {
        uint64_t t0 = tm_wait_begin();
        inevitable_queue[inevitable_queued++] = seg;
        segtx[seg].fresh = fresh;
        cause = park_until(inevitable_turn, (void *)(intptr_t)seg);
        segtx[seg].fresh = false;
        inevitable_dequeue(seg);
        if (inevitable_queued)
            sync_broadcast();   /* the next in line, if this one aborts */
        tm_wait_end(TM_WAIT_INEVITABLE, t0);
    } else {
        cause = segtx[seg].must_abort;
    }
    if (!cause) {
        __atomic_store_n(&inevitable_seg, seg, __ATOMIC_RELAXED);
        if (solo_wanted && can_go_solo(seg)) {
            __atomic_store_n(&solo_seg, seg, __ATOMIC_RELAXED);
            TM_SEGLOCAL->read_version = 0;   /* no read markers: nobody commits beside it */
        }
    }
    pthread_mutex_unlock(&sync_lock);
    if (cause)
        abort_self(cause);
    STAT(INEVITABLE)++;
    if (__atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == seg)
        reshare_for_solo(seg);
    if (inevitable_hook)
        inevitable_hook();
}

/* Never solo, token or not: the transaction may go on to wait for another
 * thread's (a scripted reader, a thread it joins inside an atomic block),
 * which a solo one keeps from starting. A serialised thread goes solo at
 * its transaction's start instead (tm_become_solo, from the embedder). */
void tm_become_inevitable(void) { become_inevitable(false, false); }

void tm_become_inevitable_fresh(void) { become_inevitable(false, true); }

void tm_tx_grows(void)
{
    if (tm_self.segment)
        __atomic_store_n(&segtx[tm_self.segment].growing, true, __ATOMIC_RELAXED);
}

void tm_become_globally_unique(void)
{
    tm_become_inevitable();
    segtx[tm_self.segment].unique = true;   /* read by its own commit only */
}

bool tm_is_globally_unique(void) { return segtx[tm_self.segment].unique; }

bool tm_become_solo(void)
{
    int seg = tm_self.segment;
    if (is_inevitable(seg))
        return __atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == seg;
    /* Cheap tests first: most transactions of a threaded program end here. */
    if (!tm_cfg.stm_solo || (!tm_threads_all_others_passive() && !tm_self.cm_token) ||
        (tm_thread_count() != 1 && others_running_hint(seg)))
        return false;
    pthread_mutex_lock(&sync_lock);
    bool alone = !inevitable_seg && !sync_requester && !segtx[seg].must_abort && can_go_solo(seg);
    pthread_mutex_unlock(&sync_lock);
    if (!alone)
        return false;
    become_inevitable(true, false);   /* solo, unless a thread attached meanwhile */
    bool solo = __atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == seg;
    if (solo)
        STAT(SOLO)++;
    if (solo && tm_self.cm_token)
        STAT(SOLO_SERIALISED)++;
    return solo;
}

/* Not at the price of a re-share (a world stop and a remap per run of
 * pages): two threads handing a queue back and forth, each waking from a
 * blocking call while the other parks, re-shared at every call
 * (queue_pipeline: +2% instructions, most of it in the kernel besides). */
void tm_become_solo_or_inevitable(void)
{
    if (any_private_page() || !tm_become_solo())
        tm_become_inevitable();
}

bool tm_tx_serialised(void) { return tm_self.cm_token; }

bool tm_is_solo(void) { return tm_self.segment && __atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == tm_self.segment; }

/* Read without sync_lock: a thread that changes any of it (a passive one
 * woken: it ends its passive wait, then waits for a segment; one that
 * attaches: it waits for a segment) is seen at the next yield point that
 * asks, within one transaction length, as it would wait for a commit. The
 * lists' bound keeps a long solo run's lists (8 bytes an object) small;
 * with one thread, nothing else would end it (a blocking call commits only
 * with other threads alive). */
#define SOLO_LISTS_MAX 65536

bool tm_solo_may_go_on(void)
{
    int seg = tm_self.segment;
    if (!seg || __atomic_load_n(&solo_seg, __ATOMIC_RELAXED) != seg || !tm_threads_all_others_passive())
        return false;
    /* A waiter it let go (a lock's release, a notify) is passive until the
     * commit wakes it (wake.h): going on would keep it asleep for ever. */
    if (tm_wakes_pending())
        return false;
    if (__atomic_load_n(&segment_queued, __ATOMIC_RELAXED) ||
        __atomic_load_n(&inevitable_queued, __ATOMIC_RELAXED) || __atomic_load_n(&sync_requester, __ATOMIC_RELAXED))
        return false;
    /* Its weak references and registrations are published, and their
     * callbacks and finalizers queued, only by a commit. */
    const tm_segstate *ss = &tm_segstates[seg];
    if (ss->modified.count + ss->created.count > SOLO_LISTS_MAX || !tm_weak_lists_empty(ss))
        return false;
    /* Nor once it has taken a nursery's worth of old space or big young
     * objects: what it created stays live until it commits (a program that
     * filled the heap, then dropped it, got MemoryError). */
    size_t used = __atomic_load_n(&tm_old_bytes_used, __ATOMIC_RELAXED), start = segtx[seg].old_used_at_start;
    if (ss->young_outside_bytes >= tm_gc_nursery_size() || (used > start && used - start >= tm_gc_nursery_size()))
        return false;
    STAT(SOLO_WENT_ON)++;
    return true;
}

bool tm_created_here(object_t *o)
{
    uintptr_t so = (uintptr_t)o;
    return tm_in_nursery(so) || (o->h.flags & TM_GCFLAG_YOUNG_OUTSIDE) ||
           o->h.overflow == tm_segstates[tm_self.segment].overflow;
}

/* ---- The write barrier (Listing 4) ---- */

struct lock_wait { uintptr_t idx; uint8_t owner; uint64_t owner_start; };

/* The owning transaction let the lock go. Compare transactions, not only
 * segments: a new transaction in the same segment may have taken the same
 * lock again, and must be marked in its turn. */
static bool lock_released(void *arg)
{
    struct lock_wait *w = arg;
    return __atomic_load_n(&write_locks[w->idx], __ATOMIC_ACQUIRE) != w->owner ||
           segtx[w->owner].start_time != w->owner_start;
}

/* Someone else holds the write lock: the younger transaction loses, and an
 * inevitable one always wins. */
static void write_write_contention(uintptr_t idx, uint8_t owner, uintptr_t obj)
{
    int me = tm_self.segment;
    pthread_mutex_lock(&sync_lock);
    if (__atomic_load_n(&write_locks[idx], __ATOMIC_ACQUIRE) != owner) {
        pthread_mutex_unlock(&sync_lock);
        return;   /* released meanwhile: retry */
    }
    /* Older wins, except against a holder that is committing or growing
     * a shared object: that one has done the work (a table built, a list's
     * items copied, its minor collection run) and ends soon, and taking
     * the lock from it threw that work away. Two threads that found one
     * list full at once both copied it and both traced the copy, and the
     * older then doomed the younger's commit (list_appends at 2 threads:
     * 6 aborts, 155 ms lost; bench/results/resize_early_lock.txt). */
    bool holder_first = __atomic_load_n(&segtx[owner].committing, __ATOMIC_RELAXED) ||
                        __atomic_load_n(&segtx[owner].growing, __ATOMIC_RELAXED);
    bool win = is_inevitable(me) ||
               (!is_inevitable(owner) && !holder_first && segtx[me].start_time < segtx[owner].start_time);
    int cause;
    if (win) {
        if (!segtx[owner].must_abort) {
            segtx[owner].must_abort = TM_ABORT_WRITE_WRITE;
            segtx[owner].winner = me;
            segtx[owner].conflict_tid = tid_at(obj);
            segtx[owner].conflict_site = here();   /* the write that takes its lock */
        }
        signal_segment(owner);
        sync_broadcast();
        struct lock_wait w = {idx, owner, segtx[owner].start_time};
        cause = park_until(lock_released, &w);
    } else {
        cause = is_inevitable(owner) ? TM_ABORT_INEVITABLE : TM_ABORT_WRITE_WRITE;
        segtx[me].conflict_tid = tid_at(obj);
        segtx[me].conflict_site = segtx[owner].tx_site;   /* the owner wrote somewhere after its start */
        tm_self.lost_at_site = here();
        lose_to(owner);
    }
    pthread_mutex_unlock(&sync_lock);
    if (cause)
        abort_self(cause);
}

/* Private pages near the kernel's mapping limit (vm.max_map_count: two per
 * isolated private page): re-share what no running transaction needs first.
 * Once the kernel refuses, even re-sharing mmaps fail, so act before. A
 * commit's merge (tm_commit_write_items) privatises with the world stopped
 * by itself already: stopping it again would wait for itself forever. */
static void privatise_pages(int seg, uintptr_t page, size_t npages)
{
    if (tm_private_pages_over_budget()) {
        bool stopped_here = __atomic_load_n(&sync_requester, __ATOMIC_RELAXED) == seg;   /* only we set it to us */
        if (!stopped_here)
            tm_stop_world();
        tm_reshare_pages();
        if (!stopped_here)
            tm_resume_world();
        STAT(RESHARE_ON_DEMAND)++;
    }
    if (tm_pages_privatise(seg, page, npages) != 0)
        tm_fatal("cannot privatise another page: the kernel's limit on memory mappings "
                 "(vm.max_map_count) is reached by pages that running transactions write");
    STAT(PAGES_PRIVATISED) += npages;
    STAT(PRIVATISE_CALLS)++;
}

static void write_slowpath(object_t *o, bool lock_word_only);

void tm_write_slowpath(object_t *o) { write_slowpath(o, false); }

/* The monitor's lock word lives in every object's header, objects read
 * without barriers included; their readers do not read it. */
void tm_write_lock_word_slowpath(object_t *o) { write_slowpath(o, true); }

/* The STM half of a write: mark o read, take its write lock (contention
 * may park or abort us) and list it as modified. The caller privatises the
 * pages it will write (privatise_range). */
/* Take write lock idx (of the object at obj, or of one of its cards):
 * true if we took it now, false if it was ours. Contention may park or
 * abort us. */
static bool take_lock(uintptr_t idx, int seg, uintptr_t obj)
{
    for (;;) {
        uint8_t owner = __atomic_load_n(&write_locks[idx], __ATOMIC_ACQUIRE);
        if (owner == seg)
            return false;
        uint8_t zero = 0;
        if (owner == 0) {
            if (__atomic_compare_exchange_n(&write_locks[idx], &zero, (uint8_t)seg, false,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                return true;
            continue;
        }
        write_write_contention(idx, owner, obj);
    }
}

/* The locks of the cards [lo, hi] (bytes, hi included) of the carded
 * object at so; under TMPY_STM_TEST_NO_CARD_LOCKS only listed (the first
 * time: an unmarked card), for the read-write check. */
static void take_card_locks(int seg, tm_segstate *ss, uintptr_t so, uintptr_t lo, uintptr_t hi)
{
    for (uintptr_t c = lo >> TM_CARD_SHIFT; c <= hi >> TM_CARD_SHIFT; c++) {
        uintptr_t idx = card_lock_index(c);
        if (no_card_locks ? !tm_card_tables[TM_CARDS_TX][seg][c] : take_lock(idx, seg, so))
            tm_list_push(&ss->card_locks, idx);
    }
}

static void acquire_for_write(object_t *o, int seg, tm_segstate *ss)
{
    uintptr_t so = (uintptr_t)o;
    tm_stm_maybe_inject_abort();
    tm_read(o);
    if (take_lock(so >> 4, seg, so))
        tm_list_push(&ss->modified, so);
}

/* Before writing [lo, hi) of an object we hold the write lock of: its pages
 * still shared become private. A whole write privatises the whole object; a
 * carded object's item stores only the pages of their cards (so one store
 * into a huge table does not copy all of it). Not in a solo transaction: it
 * writes in place, and its commit copies what it wrote where other segments
 * have it private. */
static void privatise_range(int seg, uintptr_t lo, uintptr_t hi)
{
    if (__atomic_load_n(&solo_seg, __ATOMIC_RELAXED) == seg)
        return;
    /* A run of shared pages in one call: one mmap and one read of the
     * memfd, not one of each per page. */
    for (uintptr_t p = lo & ~(TM_PAGE_SIZE - 1); p < hi;) {
        if (tm_page_is_private(seg, p)) {
            p += TM_PAGE_SIZE;
            continue;
        }
        uintptr_t e = p + TM_PAGE_SIZE;
        while (e < hi && !tm_page_is_private(seg, e))
            e += TM_PAGE_SIZE;
        privatise_pages(seg, p, (e - p) / TM_PAGE_SIZE);
        p = e;
    }
}

/* Item stores [lo, hi) into the carded object at so (size bytes): their
 * pages become private, and when the stores walk the object upwards (the
 * first card of a page whose predecessor, not the header's page, is private
 * here already: a loop storing item after item, a set or a dict index
 * filled with consecutive ints) so do the next PRIVATISE_AHEAD - 1 pages of
 * the object, in the same call. Each privatisation is a kernel mapping
 * change (an mmap that splits the shared mapping) and a read of the memfd:
 * one call for eight pages costs about what one for a page does
 * (set_add_discard at 2 threads: 16,500 calls, a third of its CPU in the
 * kernel). A page made private ahead and never written is correct as any
 * private page: commits copy what they write into it, and the next major
 * collection re-shares it. Random stores rarely land on a page's first
 * card next to a private page, so they privatise what they write only. */
#define PRIVATISE_AHEAD 8
static void privatise_items(int seg, uintptr_t so, size_t size, uintptr_t lo, uintptr_t hi)
{
    uintptr_t p = lo & ~(TM_PAGE_SIZE - 1);
    if (!no_privatise_ahead && lo - p < TM_CARD_SIZE && p >= (so & ~(TM_PAGE_SIZE - 1)) + 2 * TM_PAGE_SIZE &&
        !tm_page_is_private(seg, p) && tm_page_is_private(seg, p - TM_PAGE_SIZE)) {
        uintptr_t ahead = p + PRIVATISE_AHEAD * TM_PAGE_SIZE, end = so + size;
        if (ahead > end)
            ahead = end;
        if (hi < ahead)
            hi = ahead;
    }
    privatise_range(seg, lo, hi);
}

static void write_slowpath(object_t *o, bool lock_word_only)
{
    int seg = tm_self.segment;
    tm_segstate *ss = &tm_segstates[seg];
    uintptr_t so = (uintptr_t)o;
    if (o->h.overflow == ss->overflow) {   /* created by this transaction */
        tm_list_push(&ss->remembered, so);   /* GC part: o may now point to young objects */
        o->h.flags &= ~TM_GCFLAG_WRITE_BARRIER;
        return;
    }
    /* STM part */
    if (__builtin_expect(tm_check_writes, 0) && !lock_word_only && tm_types[o->h.tid].read_without_barrier &&
        !segtx[seg].unique)
        tm_check_report("a write into an object read without barriers (layout '%s') that did not "
                        "go through tm_write_rare", tm_types[o->h.tid].name);
    acquire_for_write(o, seg, ss);
    size_t size = tm_object_size(o);
    /* A carded object is published by its cards: a store anywhere takes
     * them all (no card writer is left beside us) and marks them all. */
    if (!segtx[seg].in_place && tm_carded(&tm_types[o->h.tid], size)) {
        take_card_locks(seg, ss, so, so, so + size - 1);
        tm_cards_set_all(TM_CARDS_TX, seg, so, size);
    }
    privatise_range(seg, so, so + size);
    /* GC part, after the last point where we could have parked. */
    tm_list_push(&ss->remembered, so);
    o->h.flags &= ~TM_GCFLAG_WRITE_BARRIER;   /* in our private copy */
}

/* Is the carded object at so listed as ours (its lock, or a card write)?
 * A transaction writes few carded objects: the list is short. */
static bool card_writer_listed(tm_segstate *ss, uintptr_t so)
{
    if (__atomic_load_n(&write_locks[so >> 4], __ATOMIC_RELAXED) == ss->seg)
        return true;
    for (size_t i = ss->card_objs.count; i-- > 0;)
        if (ss->card_objs.items[i] == so)
            return true;
    return false;
}

/* The flag stays set: every carded store comes here, and only the first
 * one of a transaction takes the lock. An object this transaction created
 * is published whole: its cards are only the GC's (references), and a raw
 * one needs none (tm_write's path clears its flag once). */
/* In place (solo), a store into cards the GC has marked in this
 * transaction: its lock is ours and the cards are remembered (a minor
 * collection, which every commit runs, clears the marks, and a card holds
 * one object: a carded one starts a page run). A dict filled by one thread
 * takes this path for all but one store in 21 of its entries (three a key,
 * 64 a card): it cost 120 instructions a store through the checks of
 * write_items_slowpath (dict_distinct_key_inserts at 1 thread: 40M of the
 * 174M instructions it ran more than tmpy-gil), 64 inside it, and now a
 * leaf function's few. */
static __attribute__((noinline)) void write_items_slowpath(object_t *o, uintptr_t index, uintptr_t count);
void tm_write_items_slowpath(object_t *o, uintptr_t index, uintptr_t count)
{
    int seg = tm_self.segment;
    if (segtx[seg].in_place) {
        const tm_type *t = &tm_types[o->h.tid];
        uintptr_t lo = (uintptr_t)o + t->base_size + index * t->item_size, hi = lo + count * t->item_size - 1;
        const uint8_t *gc = tm_card_tables[TM_CARDS_GC][seg];
        if (t->item_size && count && gc[lo >> TM_CARD_SHIFT] && gc[hi >> TM_CARD_SHIFT] &&
            (hi >> TM_CARD_SHIFT) - (lo >> TM_CARD_SHIFT) <= 1)
            return;
    }
    write_items_slowpath(o, index, count);
}

static __attribute__((noinline)) void write_items_slowpath(object_t *o, uintptr_t index, uintptr_t count)
{
    const tm_type *t = &tm_types[o->h.tid];
    int seg = tm_self.segment;
    tm_segstate *ss = &tm_segstates[seg];
    uintptr_t so = (uintptr_t)o;
    /* The common case first, before the object's size: a store into cards
     * this transaction marked (only a carded object of its own has marked
     * cards there: a big object has its pages to itself), or into a carded
     * table of references a solo transaction took (its lock byte is ours; a
     * created object's never is). Then only the GC's cards are left to mark
     * (set_add_discard at 2 threads spent 8% of its time in this function). */
    if (t->item_size && count && !tm_check_writes) {
        uintptr_t lo = so + t->base_size + index * t->item_size, hi = lo + count * t->item_size - 1;
        const uint8_t *marked = tm_card_tables[TM_CARDS_TX][seg];
        if ((marked[lo >> TM_CARD_SHIFT] && marked[hi >> TM_CARD_SHIFT] &&
             (hi >> TM_CARD_SHIFT) - (lo >> TM_CARD_SHIFT) <= 1) ||
            (segtx[seg].in_place && t->items_are_refs &&
             __atomic_load_n(&write_locks[so >> 4], __ATOMIC_RELAXED) == seg && tm_carded(t, tm_object_size(o)))) {
            if (t->items_are_refs)
                tm_gc_remember_cards(ss, o, lo, hi);
            return;
        }
    }
    size_t size = tm_object_size(o);
    bool created_here = o->h.overflow == ss->overflow;
    if (!tm_carded(t, size) || (created_here && !t->items_are_refs)) {
        write_slowpath(o, false);
        return;
    }
    if (!count)
        return;
    uintptr_t lo = so + t->base_size + index * t->item_size, hi = lo + count * t->item_size - 1;
    if (__builtin_expect(tm_check_writes, 0) && (index >= tm_varsize_length(o, t) || hi >= so + size))
        tm_check_report("item barrier past the end of a '%s' (items %lu..%lu of %lu)", t->name,
                        (unsigned long)index, (unsigned long)(index + count - 1),
                        (unsigned long)tm_varsize_length(o, t));
    if (!created_here && segtx[seg].in_place) {
        /* Nothing to publish, nobody to lock out: listed once (a root for
         * a major collection), by taking its lock as a whole write does (a
         * byte per store says it is ours; searching card_objs at every store
         * cost as much as the rest of the barrier). A raw object then needs
         * no barrier until the next collection, as in the GIL build. */
        if (take_lock(so >> 4, seg, so))
            tm_list_push(&ss->modified, so);
        if (!t->items_are_refs) {
            tm_list_push(&ss->remembered, so);
            o->h.flags &= ~TM_GCFLAG_WRITE_BARRIER;
            return;
        }
    } else if (!created_here) {
        /* A card this transaction marked is locked, listed and private:
         * the common case, a store into a card written before. */
        const uint8_t *marked = tm_card_tables[TM_CARDS_TX][seg];
        if (marked[lo >> TM_CARD_SHIFT] && marked[hi >> TM_CARD_SHIFT] && (hi >> TM_CARD_SHIFT) - (lo >> TM_CARD_SHIFT) <= 1)
            goto gc_part;
        if (!card_writer_listed(ss, so)) {
            tm_stm_maybe_inject_abort();
            tm_list_push(&ss->modified, so);   /* published and restored by its cards */
            tm_list_push(&ss->card_objs, so);
            privatise_range(seg, so, so + t->base_size);   /* the header: the GC flags, the lock word */
        }
        take_card_locks(seg, ss, so, lo, hi);
        /* Then nobody may hold the whole object (a whole writer takes the
         * object's lock, then every card's). */
        for (;;) {
            uint8_t owner = __atomic_load_n(&write_locks[so >> 4], __ATOMIC_ACQUIRE);
            if (!owner || owner == seg)
                break;
            write_write_contention(so >> 4, owner, so);
        }
        privatise_items(seg, so, size, lo, hi + 1);
        tm_cards_set_range(TM_CARDS_TX, seg, lo, hi);
    }
gc_part:
    if (t->items_are_refs)
        tm_gc_remember_cards(ss, o, lo, hi);
}

bool tm_commit_write(object_t *o);

/* The committed tail's writes of an append log (tm_set_commit_hooks), with
 * the world stopped: take what tm_write_items_slowpath takes, but fail
 * instead of waiting (the other transactions are parked at safe points and
 * cannot let go). The locks taken are listed, so an abort releases them. */
bool tm_commit_write_items(object_t *o, uintptr_t index, uintptr_t count)
{
    const tm_type *t = &tm_types[o->h.tid];
    size_t size = tm_object_size(o);
    int seg = tm_self.segment;
    tm_segstate *ss = &tm_segstates[seg];
    uintptr_t so = (uintptr_t)o;
    TM_ASSERT(count);
    if (!tm_carded(t, size))
        return tm_commit_write(o);
    if (o->h.overflow == ss->overflow || segtx[seg].in_place)   /* created here: published whole; solo: written in place */
        return true;
    uint8_t owner = __atomic_load_n(&write_locks[so >> 4], __ATOMIC_ACQUIRE);
    if (owner == seg)   /* written whole: every card is ours, marked and private */
        return true;
    if (owner) {
        lose_to(owner);   /* the retry waits for it (the world is stopped: no sync_lock needed) */
        return false;
    }
    uintptr_t lo = so + t->base_size + index * t->item_size, hi = lo + count * t->item_size - 1;
    const uint8_t *marked = tm_card_tables[TM_CARDS_TX][seg];
    for (uintptr_t c = lo >> TM_CARD_SHIFT; c <= hi >> TM_CARD_SHIFT; c++) {
        if (marked[c])
            continue;
        uintptr_t idx = card_lock_index(c);
        if (!no_card_locks) {
            uint8_t zero = 0;
            if (!__atomic_compare_exchange_n(&write_locks[idx], &zero, (uint8_t)seg, false, __ATOMIC_ACQ_REL,
                                             __ATOMIC_ACQUIRE)) {
                lose_to(zero);   /* marked is clear: not ours; the retry waits for the holder */
                return false;
            }
        }
        tm_list_push(&ss->card_locks, idx);
    }
    bool in_place = segtx[seg].merging_in_place;
    if (!card_writer_listed(ss, so)) {
        tm_list_push(&ss->modified, so);
        tm_list_push(&ss->card_objs, so);
        if (!in_place)
            privatise_range(seg, so, so + t->base_size);
    }
    if (!in_place)
        privatise_range(seg, lo, hi + 1);
    tm_cards_set_range(TM_CARDS_TX, seg, lo, hi);
    return true;
}

/* The same for a whole object that is not carded (a list's header). */
bool tm_commit_write(object_t *o)
{
    int seg = tm_self.segment;
    tm_segstate *ss = &tm_segstates[seg];
    uintptr_t so = (uintptr_t)o;
    size_t size = tm_object_size(o);
    TM_ASSERT(!tm_carded(&tm_types[o->h.tid], size));
    if (o->h.overflow == ss->overflow || segtx[seg].in_place)   /* created here: published whole; solo: written in place */
        return true;
    uint8_t owner = __atomic_load_n(&write_locks[so >> 4], __ATOMIC_ACQUIRE);
    if (owner == seg)   /* written before: locked, listed and private */
        return true;
    bool in_place = segtx[seg].merging_in_place;
    if (owner)
        lose_to(owner);   /* the retry waits for it */
    if (owner || (!in_place && tm_private_pages_over_budget()))
        return false;
    uint8_t zero = 0;
    if (!__atomic_compare_exchange_n(&write_locks[so >> 4], &zero, (uint8_t)seg, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        lose_to(zero);
        return false;
    }
    tm_list_push(&ss->modified, so);
    if (!in_place)
        privatise_range(seg, so, so + size);
    return true;
}

bool tm_commit_unheld(object_t *o)
{
    uint8_t owner = __atomic_load_n(&write_locks[(uintptr_t)o >> 4], __ATOMIC_ACQUIRE);
    if (!owner || owner == tm_self.segment)
        return true;
    lose_to(owner);   /* the world is stopped: no sync_lock needed */
    return false;
}

void tm_prepare_write_items(object_t *o, uintptr_t index, uintptr_t count)
{
    const tm_type *t = &tm_types[o->h.tid];
    size_t size = tm_object_size(o);
    int seg = tm_self.segment;
    if (!count || !tm_carded(t, size) || tm_created_here(o))   /* young or ours: nothing shared */
        return;
    uintptr_t so = (uintptr_t)o, lo = so + t->base_size + index * t->item_size;
    uintptr_t hi = lo + count * t->item_size;
    if (hi > so + size)
        hi = so + size;
    if (lo >= hi)
        return;
    if (merge_private || tm_check_writes || tm_cfg.wait_for_readers) {
        privatise_range(seg, lo, hi);
        return;
    }
    /* The merge will write in place (merge_in_place): map the pages in this
     * view now, a read each (a shared page's read fault maps it writable,
     * and its neighbours), so that the stopped world does not wait for
     * page faults. */
    for (uintptr_t p = lo & ~(uintptr_t)(TM_PAGE_SIZE - 1); p < hi; p += TM_PAGE_SIZE)
        (void)*(volatile const char __seg_gs *)(p < lo ? lo : p);
}

/* ---- Statistics ---- */

static void add_stats(tm_stm_stats *s, const uint64_t *c)
{
    s->started += c[TM_STAT_STARTED];
    s->committed += c[TM_STAT_COMMITTED];
    s->aborted += c[TM_STAT_ABORTED];
    for (int k = 0; k < TM_ABORT_CAUSES; k++)
        s->aborts_by_cause[k] += c[TM_STAT_ABORT_CAUSE + k];
    s->inevitable += c[TM_STAT_INEVITABLE];
    s->commit_ns += c[TM_STAT_COMMIT_NS];   /* ticks here, ns once summed */
    s->aborted_ns += c[TM_STAT_ABORTED_NS];
    s->sync_ns += c[TM_STAT_SYNC_NS];
    s->wait_ns += c[TM_STAT_WAIT_NS];
    s->pages_privatised += c[TM_STAT_PAGES_PRIVATISED];
    s->privatise_calls += c[TM_STAT_PRIVATISE_CALLS];
    s->reader_waits += c[TM_STAT_READER_WAITS];
    s->reshares_on_demand += c[TM_STAT_RESHARE_ON_DEMAND];
    s->length_cuts += c[TM_STAT_LENGTH_CUTS];
    s->reshares_for_solo += c[TM_STAT_RESHARE_FOR_SOLO];
    s->serialised += c[TM_STAT_SERIALISED];
    s->solo_serialised += c[TM_STAT_SOLO_SERIALISED];
    s->solo += c[TM_STAT_SOLO];
    s->segments_kept += c[TM_STAT_SEGMENT_KEPT];
    s->solo_went_on += c[TM_STAT_SOLO_WENT_ON];
    s->token_waits += c[TM_STAT_TOKEN_WAITS];
    s->token_wait_ns += c[TM_STAT_TOKEN_WAIT_NS];
    s->cm_serialise += c[TM_STAT_CM_SERIALISE];
    s->cm_trials += c[TM_STAT_CM_TRIALS];
    s->cm_parallel += c[TM_STAT_CM_PARALLEL];
    s->cm_costly_commits += c[TM_STAT_CM_COSTLY_COMMITS];
    s->cm_drafted += c[TM_STAT_CM_DRAFTED];
}

static void stats_from(tm_stm_stats *out, const uint64_t *c)
{
    *out = (tm_stm_stats){0};
    add_stats(out, c);
    out->commit_ns = tm_ticks_to_ns(out->commit_ns);
    out->sync_ns = tm_ticks_to_ns(out->sync_ns);
    out->wait_ns = tm_ticks_to_ns(out->wait_ns);
    out->aborted_ns = tm_ticks_to_ns(out->aborted_ns);
    out->token_wait_ns = tm_ticks_to_ns(out->token_wait_ns);
}

void tm_stm_get_stats(tm_stm_stats *out)
{
    uint64_t c[TM_TX_STATS];
    tm_threads_sum_tx_stats(c);   /* detached threads' counters included */
    stats_from(out, c);
}

/* Only the caller writes its counters: no lock. */
void tm_stm_get_thread_stats(tm_stm_stats *out)
{
    stats_from(out, tm_self.tx_stats);
}

/* fork() (fork.c): the other transactions park at a safe point first, so
 * the pages copied for the child hold no half-done writes. The child has
 * none of those threads: their transactions are rolled back as an abort
 * would (the objects they wrote get the committed contents back in their
 * segment, their write locks go, their young objects are dropped) and their
 * segments are free again; the sync state starts afresh (its waiters were
 * theirs), and so do the queues they may have stood in (for a segment, to
 * become inevitable). The caller's transaction is inevitable. */
static void roll_back_ghost(int seg)
{
    tm_segstate *ss = &tm_segstates[seg];
    for (size_t i = 0; i < ss->modified.count; i++) {
        uintptr_t so = ss->modified.items[i];
        size_t size = tm_object_size_in(0, so);
        if (tm_carded(&tm_types[tid_at(so)], size)) {
            tm_cards_clear(TM_CARDS_TX, seg, so, size);
            copy_pages_private_in(seg, 0, seg, so, size);
        } else {
            copy_object(0, seg, so, size);
        }
    }
    release_write_locks(ss, seg);
    int me = tm_self.segment;
    tm_set_segment(seg);   /* the nursery to empty is addressed through %gs */
    tm_discard_young(ss);
    tm_set_segment(me);
    ss->created.count = 0;
    ss->thread = NULL;
    segtx[seg] = (struct segtx){.state = SEG_FREE};
}

void tm_stm_fork_child(void)
{
    pthread_mutex_init(&sync_lock, NULL);
    pthread_cond_init(&sync_cond, NULL);
    sync_sleepers = 0;
    sync_requester = 0;
    int me = tm_self.segment;
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (j != me && segtx[j].state != SEG_FREE)
            roll_back_ghost(j);
    if (solo_seg && solo_seg != me)
        solo_seg = 0;
    inevitable_queued = 0;
    for (int j = 1; j <= tm_seg.nsegments; j++)
        segtx[j].kept_for = NULL;   /* maybe for a thread the child does not have */
    segment_cond_init();
    segment_sleepers = 0;
    segment_queue = NULL;   /* its waiters do not exist in the child */
    segment_queue_tail = &segment_queue;
    segment_queued = 0;
    __atomic_add_fetch(&sync_epoch, 1, __ATOMIC_RELEASE);
}

#else

int tm_inevitable_segment(void) { return 1; }   /* the GIL holder is always inevitable */
void tm_release_view(void) {}   /* one segment, the GIL holder's */
bool tm_view_worth_releasing(void) { return false; }
void tm_set_nursery_end(uintptr_t end) { TM_SEGLOCAL->nursery_end = end; }
void tm_stm_init(void) {}
void tm_tx_grows(void) {}
void tm_stm_maybe_inject_abort(void) {}
uint64_t tm_clock_skew_ns;   /* no injection here: always 0 */
void tm_stm_get_stats(tm_stm_stats *out) { *out = (tm_stm_stats){0}; }
void tm_stm_get_thread_stats(tm_stm_stats *out) { *out = (tm_stm_stats){0}; }
tm_txlen_policy tm_stm_txlen_policy;
void tm_stm_txlen_init(const tm_txlen_params *params) { tm_txlen_init(&tm_stm_txlen_policy, params); }
uint32_t tm_stm_tx_begin_at(uintptr_t site) { return tm_txlen_start(&tm_stm_txlen_policy, site); }
uint32_t tm_stm_tx_length_now(void) { return tm_stm_txlen_policy.p.initial; }

#endif
