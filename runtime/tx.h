/* The transaction and barrier API the interpreter is written against
 * (paper 004, Listing 1), in two configurations of one source:
 *
 *  - GIL (TM_STM=0, build/libtmrt.a): a transaction is holding the GIL (the
 *    one thread segment); commit runs a minor collection and hands the
 *    segment on. The STM halves below compile to nothing.
 *  - STM (TM_STM=1, build/libtmrt-stm.a): N segments run transactions in
 *    parallel; read markers, write locks, commit-time conflict detection,
 *    abort by longjmp back to tm_start_transaction().
 *
 * After an abort, execution resumes inside tm_start_transaction() of the
 * aborted transaction with the shadow stack cut back to its depth there:
 * locals changed since then must be volatile or re-read from the heap. */
#ifndef TM_TX_H
#define TM_TX_H

#include "cards.h"
#include "elision.h"
#include "gc.h"
#include "thread.h"

#include <setjmp.h>

/* TMPY_STM_INJECT_DIVERGE=1 (tests): how far injected aborts have moved the
 * clocks the interpreter shows (time.time, monotonic, perf_counter) ahead;
 * only grows; always 0 otherwise and in the GIL build (stm.c). */
extern uint64_t tm_clock_skew_ns;

/* Why a transaction aborted (statistics and tests). */
enum tm_abort_cause {
    TM_ABORT_NONE,
    TM_ABORT_READ_WRITE,      /* another transaction committed a write to an object we read */
    TM_ABORT_WRITE_WRITE,     /* lost a write lock to an older or inevitable transaction */
    TM_ABORT_INEVITABLE,      /* lost to the inevitable transaction */
    TM_ABORT_EXPLICIT,        /* tm_abort_transaction() */
    TM_ABORT_INJECTED,        /* TMPY_STM_INJECT_ABORTS (tests) */
    TM_ABORT_RARE_WRITE,      /* a transaction that wrote objects read without barriers committed */
    TM_ABORT_CAUSES
};

/* Transaction statistics, summed over all threads (zero in the GIL build). */
typedef struct tm_stm_stats {
    uint64_t started, committed, aborted, inevitable;
    uint64_t aborts_by_cause[TM_ABORT_CAUSES];
    uint64_t commit_ns, sync_ns, wait_ns;   /* commit, stopping the world, parked */
    uint64_t aborted_ns;                    /* time spent in transactions that aborted */
    uint64_t pages_privatised;
    uint64_t privatise_calls;               /* runs of pages privatised in one call (one mmap each) */
    uint64_t reader_waits;                  /* commits that waited for a reader (TMPY_STM_WAIT_FOR_READERS) */
    uint64_t reshares_on_demand;            /* the kernel's mapping limit forced a re-share */
    uint64_t length_cuts;                   /* per-yield-point lengths shortened (tm_stm_tx_begin_at) */
    uint64_t reshares_for_solo;             /* other segments' private pages re-shared for a solo transaction */
    uint64_t solo;                          /* transactions run solo (tm_become_solo) */
    uint64_t segments_kept;                 /* commits that kept their segment for the next transaction (time slices) */
    uint64_t solo_went_on;                  /* yield points a solo transaction went on past (tm_solo_may_go_on) */
    /* the contention manager (contention.h) */
    uint64_t serialised, solo_serialised;   /* transactions run holding the token; of those, solo */
    uint64_t token_waits, token_wait_ns;    /* sleeps waiting for the token, and their time */
    uint64_t cm_serialise, cm_trials, cm_parallel;   /* threads serialised, trials, trials that stayed parallel */
    uint64_t cm_costly_commits;             /* commits that cost more than their run, outside serialisation */
    uint64_t cm_drafted;                    /* commits of a transaction that made another lose, outside serialisation */
} tm_stm_stats;
void tm_stm_get_stats(tm_stm_stats *out);
void tm_stm_get_thread_stats(tm_stm_stats *out);   /* the calling thread's alone */

/* Fairness statistics (runtime/stats.c): waits to become inevitable, to
 * take a segment (STM), for a _thread.lock and for a monitor's entry (both
 * builds): how many, their total and the longest. A wait is noted only
 * when the thread had to wait: tm_wait_begin() then, tm_wait_end() after. */
enum tm_wait_kind { TM_WAIT_INEVITABLE, TM_WAIT_SEGMENT, TM_WAIT_LOCK, TM_WAIT_MONITOR, TM_WAIT_KINDS };
typedef struct tm_wait_stat {
    uint64_t count, total_ns, max_ns;
} tm_wait_stat;
extern const char *const tm_wait_names[TM_WAIT_KINDS];   /* "inevitable", "segment", "lock", "monitor" */
uint64_t tm_wait_begin(void);
void tm_wait_end(enum tm_wait_kind kind, uint64_t begun);
void tm_wait_get_stats(tm_wait_stat out[TM_WAIT_KINDS]);

/* STM: transaction lengths per yield point (paper 001, Figure 3; txlength.h),
 * driven by the STM's aborts: a transaction's first conflict abort counts
 * against the yield point it started at. The embedder sets the parameters
 * once (constant: one length everywhere), then asks for a length when a
 * transaction starts at a yield point (`site`: an opaque non-zero word), and
 * again after an abort (the site's length may just have been cut). A
 * transaction started otherwise has no site. (GIL build: the policy only.) */
extern tm_txlen_policy tm_stm_txlen_policy;
void tm_stm_txlen_init(const tm_txlen_params *params);
uint32_t tm_stm_tx_begin_at(uintptr_t site);
uint32_t tm_stm_tx_length_now(void);

/* GIL build (gil.c): owning segment 1 is holding the GIL. */
void tm_segment_acquire(void);
void tm_segment_release(void);
/* The same without its minor collection (the HTM elision collects first). */
void tm_segment_pass_on(void);
/* Threads waiting for the segment. */
extern volatile int tm_segment_waiters;
/* Read by every yield point without a lock (tm_yield); non-zero sends it to
 * tm_yield_slow. TM_YIELD_DROP: a waiter has waited a whole switch interval
 * without the segment changing hands, so the holder hands it on.
 * TM_YIELD_COUNT: HTM elision with more than one thread, where yield points
 * count down the running transaction's length (elision.c). */
extern struct tm_yield_word {
    volatile int v;
    char pad[60];   /* a cache line of its own: hardware transactions read it at every yield point, so a
                       neighbour's writes (the GIL's waiter count) would abort them */
} tm_yield_word __attribute__((aligned(64)));
#define tm_yield_request (tm_yield_word.v)
#define TM_YIELD_DROP 1
#define TM_YIELD_COUNT 2
void tm_yield_slow(uintptr_t site);
/* The switch interval (default 5 ms, as CPython's). */
void tm_set_switch_interval_ns(uint64_t ns);
uint64_t tm_get_switch_interval_ns(void);

/* Outside a transaction, before tm_thread_detach: give back the memory the
 * view of the segment this thread used last holds (private pages, mappings
 * of shared ones, read markers, nursery), unless another thread took it.
 * Nothing in the GIL build. */
void tm_release_view(void);
/* Whether the calling thread mapped enough (its page faults) for
 * tm_release_view to be worth its cost; false in the GIL build. */
bool tm_view_worth_releasing(void);

#if TM_STM

/* Read barrier (Listing 2): one byte store, skipped in a solo transaction
 * (read_version 0), which nothing can conflict with. */
static inline void tm_read(object_t *o)
{
    uint8_t rv = TM_SEGLOCAL->read_version;
    if (rv)
        *(uint8_t __seg_gs *)((uintptr_t)o >> 4) = rv;
}

/* Read barrier for the items of a big (carded, cards.h) object read one by
 * one: marks the 16 bytes at segment offset `at` instead of the object. A
 * commit that wrote a card of the object aborts the readers of the card's
 * items and the readers of the whole object (tm_read), so readers of other
 * cards go on. Only for the items of a carded object (its header and fixed
 * part still take tm_read): elsewhere the 16 bytes may hold another object's
 * header, whose marker this would set. */
static inline void tm_read_at(uintptr_t at)
{
    uint8_t rv = TM_SEGLOCAL->read_version;
    if (rv)
        *(uint8_t __seg_gs *)(at >> 4) = rv;
}
/* The same in a loop: rv = tm_read_version() once (0: no markers needed). */
static inline uint8_t tm_read_version(void) { return TM_SEGLOCAL->read_version; }
static inline void tm_read_at_rv(uintptr_t at, uint8_t rv)
{
    if (rv)
        *(uint8_t __seg_gs *)(at >> 4) = rv;
}

void tm_start_transaction_after_setjmp(void);
/* Called by an abort after the heap is restored, before the thread lets its
 * segment go and waits to start again: the embedder puts back the roots
 * (shadow-stack slots) the transaction changed, so that a collection by
 * another thread meanwhile sees no reference to what the abort discarded. */
void tm_set_abort_hook(void (*hook)(void));
/* Called when the running transaction has just become inevitable (it can no
 * longer abort): the embedder drops what it kept to undo an abort. */
void tm_set_inevitable_hook(void (*hook)(void));
/* Called when the running transaction is about to become inevitable (it can
 * still abort there, and may write): the embedder turns what only a
 * transaction that can abort may hold (an append log that may need an abort
 * to be flushed) into plain writes. */
void tm_set_before_inevitable_hook(void (*hook)(void));
/* Returns where the calling thread is now, in the embedder's terms (its
 * yield-point sites): statistics name both sides of a conflict with it. */
void tm_set_site_hook(uintptr_t (*hook)(void));
#define tm_start_transaction() \
    do { (void)__builtin_setjmp(tm_self.abort_jmp); tm_start_transaction_after_setjmp(); } while (0)
void tm_commit_transaction(void);
void tm_become_inevitable(void);
/* tm_become_inevitable() right after tm_start_transaction(), before the
 * transaction has read anything (an embedder's retry that falls back to
 * inevitable at once): while it waits, a globally unique commit need not
 * abort it, so a stream of rare writes cannot keep it from its turn. */
void tm_become_inevitable_fresh(void);
bool tm_is_inevitable(void);
/* The running transaction is about to grow a shared object (a resize: a
 * new table built or the items copied), taking the object's write lock
 * first: till it ends, an older transaction that wants one of its locks
 * loses instead of throwing that work away (an inevitable one still wins). */
void tm_tx_grows(void);
__attribute__((noreturn)) void tm_abort_transaction(void);
/* Become inevitable, and abort at commit every other transaction then
 * running: what they read without a read barrier may be what this one
 * changes (tm_write_rare). */
void tm_become_globally_unique(void);
bool tm_is_globally_unique(void);
/* o was allocated by the running transaction: no other one can see it. */
bool tm_created_here(object_t *o);
/* If no other transaction runs and no thread waits for a segment, and
 * every other attached thread is parked in a join or a lock's wait
 * (tm_thread_passive_begin, thread.h) or this thread is serialised, make the
 * running transaction inevitable and solo: no other transaction starts
 * before it ends (a thread that attaches or wants a segment waits), so its
 * write barrier writes shared pages in place instead of privatising them.
 * Returns whether it is solo. Never solo under TMPY_STM_SOLO=0, the barrier
 * checker or injected aborts. Only this call makes a transaction solo:
 * tm_become_inevitable() never does (its transaction may wait for another
 * thread's). */
bool tm_become_solo(void);
bool tm_is_solo(void);
/* At a yield point that would end the running transaction: may it go on
 * instead? Only a solo one, while nobody wants what its commit would hand
 * on (as the GIL build's holder keeps the GIL while nobody waits): every
 * other thread is still passive, none waits for a segment, to become
 * inevitable or to stop the world, and its lists of written and created
 * objects are short. Then its commit (a minor collection, the global roots,
 * the cards of big objects, a segment hand-over) is skipped. */
bool tm_solo_may_go_on(void);
/* For a transaction started in C code, which runs inevitable (after a
 * blocking call, at a thread's or the program's start): solo if it can be
 * without re-sharing pages (no read markers, no page privatised), else
 * inevitable. Right after tm_start_transaction() (an abort while it waits
 * comes back there). */
void tm_become_solo_or_inevitable(void);
/* The contention manager (contention.h) serialises this thread's
 * transactions: the running one holds the token. */
bool tm_tx_serialised(void);
/* The next transaction starts right after the coming commit (a yield
 * point): a serialised thread may keep the token across it. */
void tm_cm_continue_next(void);

/* Commit-time merges (the embedder's append logs: a transaction's inserts
 * placed at the committed tail in commit order). `before` runs first in
 * every commit, as ordinary code of the transaction (it may write, allocate
 * and abort: an inevitable transaction turns its log into plain writes
 * there). `merge` runs in every commit that wrote something, with the world
 * stopped, before the read check and the publication: it reads the committed
 * state and writes through tm_commit_write_items only; false aborts the
 * transaction (never returned by an inevitable one). Its stores may land in
 * the committed state itself (stm.c merge_in_place: nothing privatised), so
 * it must take everything it will write before it writes anything: false
 * after a store would leave that store committed. */
void tm_set_commit_hooks(void (*before)(void), bool (*merge)(void));
/* Inside `merge` only: tm_write_items for a carded object (cards.h) that
 * never waits: false if another transaction holds the object or one of the
 * cards. Near the kernel's limit on private pages it re-shares pages (the
 * world is stopped already). An object that is not carded is written whole
 * (tm_commit_write). */
bool tm_commit_write_items(object_t *o, uintptr_t index, uintptr_t count);
/* Do segment addresses a and b lie in one card, the unit in which a big
 * object's items are locked, marked and published (cards.h)? A merge may
 * take a run of items with gaps inside one card in one call. */
static inline bool tm_same_card(uintptr_t a, uintptr_t b) { return (a >> TM_CARD_SHIFT) == (b >> TM_CARD_SHIFT); }
/* In `before` (or any running transaction): make the pages of those items of
 * a carded object ready for the merge now, so that it does not wait for
 * them with the world stopped: where merges write in place (stm.c
 * merge_in_place) map them in this view (a read each: their page faults),
 * else make them private. Only a hint: takes no lock. */
void tm_prepare_write_items(object_t *o, uintptr_t index, uintptr_t count);
/* Inside `merge` only: tm_write for an object that is not carded, and that
 * never waits: false if another transaction holds it (or the private pages
 * are near the kernel's limit). */
bool tm_commit_write(object_t *o);
/* Inside `merge` only: false if another transaction holds o's write lock
 * (o written whole: a resize of the container the merge appends to, in
 * progress); the committer's retry then waits for that transaction to end.
 * Takes nothing: the merge's stores into o's items would doom the holder,
 * which read them all to rebuild o, and throw its work away. */
bool tm_commit_unheld(object_t *o);

/* Safe point for loops that do not allocate: another thread asked us to stop. */
void tm_safepoint_slow(void);
/* The write barrier for a store into the header's lock word (monitor.c). */
void tm_write_lock_word_slowpath(object_t *o);
static inline void tm_safepoint(void)
{
    if (__builtin_expect(TM_SEGLOCAL->nursery_end == TM_NURSERY_END_SIGNAL, 0))
        tm_safepoint_slow();
}

/* A yield point: end this transaction and start the next. A macro, not a
 * function: an abort jumps back into tm_start_transaction's setjmp, whose
 * frame must still be alive (a function containing setjmp is never inlined). */
#define tm_yield() do { tm_commit_transaction(); tm_start_transaction(); } while (0)

#else /* GIL */

static inline void tm_read(object_t *o) { (void)o; }
static inline void tm_read_at(uintptr_t at) { (void)at; }
static inline uint8_t tm_read_version(void) { return 0; }
static inline void tm_read_at_rv(uintptr_t at, uint8_t rv) { (void)at; (void)rv; }
/* With HTM elision on (`--tm=htm`), a transaction is a hardware transaction
 * or, as its fallback, holding the GIL (elision.h). */
static inline void tm_start_transaction(void)
{
    if (__builtin_expect(tm_elision_on, 0))
        tm_elision_begin(0);
    else
        tm_segment_acquire();
}
static inline void tm_commit_transaction(void)
{
    if (__builtin_expect(tm_elision_on, 0))
        tm_elision_end();
    else
        tm_segment_release();
}
/* Nothing can abort under the GIL, so every transaction is inevitable. */
static inline void tm_become_inevitable(void) {}
static inline void tm_become_solo_or_inevitable(void) {}
static inline bool tm_is_inevitable(void) { return true; }
static inline void tm_safepoint(void) {}
static inline void tm_become_globally_unique(void) {}
static inline bool tm_is_globally_unique(void) { return true; }
static inline bool tm_created_here(object_t *o) { (void)o; return true; }

/* A yield point at `site` (an opaque non-zero word naming it, for the HTM
 * elision's per-yield-point lengths): hand the segment on once a waiter has
 * waited a switch interval; under HTM elision, end the transaction when it
 * has spanned its length. One load when nothing is asked. */
static inline void tm_yield_at(uintptr_t site)
{
    if (__builtin_expect(tm_yield_request != 0, 0))
        tm_yield_slow(site);
}
static inline void tm_yield(void) { tm_yield_at(0); }

#endif

/* Write barrier, before any store into an object (references or not). The
 * GC half remembers old objects that may now point to young ones; the STM
 * half takes the write lock and privatises the object's pages. */
static inline void tm_write(object_t *o)
{
    if (__builtin_expect(o->h.flags & TM_GCFLAG_WRITE_BARRIER, 0))
        tm_write_slowpath(o);
}

/* Write barrier before storing items [index, index + count) of a varsize
 * object (index and count in items of its layout's item_size: references,
 * or bytes of a raw layout) and nothing else of it: the same as tm_write(o),
 * but a big old object (cards.h) remembers only the cards holding those
 * items, so commits publish (and, for references, collections trace) those
 * cards instead of the whole object. A store into any other field still
 * needs tm_write(o). The flag stays set while only cards are marked: every
 * such store takes the slow path, which is a few loads and a byte store once
 * the object is ours. A store outside the items named loses its update in
 * the other segments: TMPY_STM_CHECK=1 reports it at the commit. */
static inline void tm_write_items(object_t *o, uintptr_t index, uintptr_t count)
{
    if (__builtin_expect(o->h.flags & TM_GCFLAG_WRITE_BARRIER, 0))
        tm_write_items_slowpath(o, index, count);
}

static inline void tm_write_item(object_t *o, uintptr_t index) { tm_write_items(o, index, 1); }

/* Write barrier for an object whose readers take no read barrier (a type's
 * slots, a function's code; layouts with read_without_barrier). A rare
 * write pays for every reader's barrier it spares: unless the object is
 * this transaction's own, the transaction becomes globally unique, so no
 * transaction that read the old contents commits after it. May abort (while
 * waiting to become inevitable), so call it before the first store. */
static inline void tm_write_rare(object_t *o)
{
    if (!tm_created_here(o) && !tm_is_globally_unique())
        tm_become_globally_unique();
    tm_write(o);
}

#endif
