/* Interpreter state across an abort (STM build).
 *
 * An abort undoes the heap (the STM copies written objects back and empties
 * the nursery) but not what the interpreter keeps outside it: frame slots on
 * the shadow stack, Frame records in the per-thread C array, vm_ts and the
 * eval loop's C locals. A transaction that may abort starts only at a yield
 * point of an eval loop (at any depth: vm_tx_level), whose eval_run C frame
 * outlives it until the loop returns to C, which makes it inevitable first
 * (eval.c, LEAVE_RUN); everything else (start-up, after a blocking call, a
 * new thread) runs inevitable until a loop's next yield point.
 *
 * At the start we save what the transaction can change below the frames it
 * creates itself: vm_ts and the thread's root slots, the innermost frame's
 * record and slots. The frames below it are saved lazily, when a frame pop
 * makes one of them the innermost frame again (vm_tx_low marks the lowest
 * frame saved so far). On abort the saved runs are copied back, newest
 * first (a callee's slots overlap its caller's argument slots), and the
 * loop reloads its locals from the restored innermost frame.
 *
 * Every reference saved here is old and committed (a transaction starts
 * right after a commit, whose minor collection empties the nursery, a frame
 * is saved before the transaction touches it, and what the transaction
 * created is saved as NULL, see save_run), so minor collections need not
 * update them; major collections mark them (tm_self.undo_base .. undo_top). */
#define _GNU_SOURCE
#include "eval.h"
#include "objects/containers.h"
#include "objects/strobj.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

int vm_tx_length = VM_TX_LENGTH_DEFAULT;

__thread int vm_tx_countdown;
__thread Frame *vm_tx_low;
__thread int vm_tx_level;

/* TMPY_STATS=1, both builds: what the collector did (page faults of fresh
 * old space and major collections are where allocation-heavy threads spend
 * their time, not always the transactions). */
static void print_gc_stats(void)
{
    tm_gc_stats g;
    tm_gc_get_stats(&g);
    fprintf(stderr, "tmpy stats: gc: %llu minor collections (%.3f ms), %llu major (%.3f ms), %llu pages given back "
            "to the kernel, %llu private pages re-shared, %.1f MB old space in use\n",
            (unsigned long long)g.minor_collections, g.minor_ns / 1e6, (unsigned long long)g.major_collections,
            g.major_ns / 1e6, (unsigned long long)g.pages_released, (unsigned long long)g.pages_reshared,
            g.old_pages_in_use * 4096.0 / 1e6);
}

#if TM_STM
static void vm_tx_forget(void);

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static __thread uint64_t last_commit_ns;
static bool length_pinned;   /* TMPY_TXLEN */


/* One saved run of shadow-stack slots, with the frame record they belong to. */
typedef struct SavedRun {
    Obj *addr;
    size_t n;          /* slots at undo_base[at .. at+n) */
    size_t at;
    Frame *frame;      /* NULL: slots only (the root slots) */
    Frame record;
} SavedRun;

#define MAX_RUNS (FRAME_STACK_ENTRIES + 2)
#define UNDO_ENTRIES (2 * TM_SHADOWSTACK_ENTRIES)

static __thread SavedRun *runs;
static __thread size_t nruns, initial_runs;
static __thread struct {
    VMThread ts;
    int eval_levels;
    int repr_depth;
    int trace_busy;
    object_t **ss_top;
    Frame *low;
} head;

static void *reserve(size_t bytes)
{
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        fputs("tmpy: fatal: cannot reserve the transaction undo log\n", stderr);
        abort();
    }
    return m;
}

static void save_run(Obj *addr, size_t n, Frame *frame)
{
    if (!runs) {
        runs = reserve(sizeof(SavedRun) * MAX_RUNS);
        tm_self.undo_base = tm_self.undo_top = reserve(sizeof(object_t *) * UNDO_ENTRIES);
    }
    size_t at = (size_t)(tm_self.undo_top - tm_self.undo_base);
    if (nruns >= MAX_RUNS || at + n > UNDO_ENTRIES) {
        fputs("tmpy: fatal: the transaction undo log is full\n", stderr);
        abort();
    }
    SavedRun *r = &runs[nruns];
    r->addr = addr;
    r->n = n;
    r->at = at;
    r->frame = frame;
    if (frame)
        r->record = *frame;
    /* An object this transaction created (young, big young outside the
     * nursery, or promoted by a minor collection since it started) can be
     * here only in slots the transaction itself wrote, which an older run
     * or the clearing in vm_tx_started covers: keep NULL instead. Major
     * collections mark these entries, also while the thread waits to
     * restart after an abort: a created object is freed by the minor
     * collection that finds it unreachable (the log is no root of it), and
     * after an abort its contents exist only in the discarded view (read in
     * another, its slots held stale references: the fuzzer's "reference to
     * SO ..., which is not an allocated old object" in gc.collect). */
    for (size_t i = 0; i < n; i++) {
        Obj v = addr[i];
        /* a tagged small int is not a reference, whatever address it spells */
        tm_self.undo_top[i] = v && !IS_SMALLINT(v) && tm_created_here((object_t *)v) ? NULL : (object_t *)v;
    }
    /* publish after the copies: a major collection marks up to undo_top */
    __atomic_store_n(&tm_self.undo_top, tm_self.undo_top + n, __ATOMIC_RELEASE);
    nruns++;
}

/* A frame's run reaches up to `top`: its own slots, and the C roots of the
 * call it is making (an argument vector the callee's frame sits above). */
static void save_frame(Frame *f, Obj *top)
{
    if (top < f->end)
        top = f->end;
    save_run(f->localsplus, (size_t)(top - f->localsplus), f);
    vm_tx_low = f;
}

void vm_tx_save_frame_slow(Frame *f, Obj *above)
{
    save_frame(f, above);
}

void vm_tx_save_frames_to(Frame *f)
{
    while (vm_tx_low && f < vm_tx_low && vm_tx_low->back)
        save_frame(vm_tx_low->back, vm_tx_low->localsplus);   /* as popping vm_tx_low would */
}

/* ---- Where transactions abort (TMPY_STATS) ----
 * Per thread, the yield points (code, line) whose transactions aborted, the
 * type ids of the objects the conflicts were on, and the conflicts by both
 * sides (where the loser was, where the winner wrote or committed, the
 * type, the time lost); merged into the process totals when a thread ends. */
#define SITES 256
#define CONFLICTS 256
typedef struct AbortSite { uintptr_t code; int line; uint64_t aborts; } AbortSite;   /* code: a pinned CodeObj */
typedef struct Conflict {
    uintptr_t lost_code, won_code;   /* pinned CodeObjs; won_code 0: the other side is not known */
    int lost_line, won_line;
    uint16_t tid;
    uint64_t aborts, ticks;          /* how many, and how long the aborted transactions had run */
} Conflict;
static __thread AbortSite *sites;           /* SITES entries, made on first use */
static __thread uint64_t *conflict_tids;    /* TM_MAX_TYPES counters */
static __thread Conflict *conflicts;        /* CONFLICTS entries */
static AbortSite all_sites[4 * SITES];
static uint64_t all_conflict_tids[TM_MAX_TYPES];
static Conflict all_conflicts[4 * CONFLICTS];
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
bool vm_tx_stats_enabled;

static void add_site(AbortSite *table, size_t size, uintptr_t code, int line, uint64_t n)
{
    size_t h = ((code >> 4) * 31 + (size_t)line) % size;
    for (size_t k = 0; k < size; k++, h = (h + 1) % size) {
        AbortSite *s = &table[h];
        if (!s->code) {
            s->code = code;
            s->line = line;
        }
        if (s->code == code && s->line == line) {
            s->aborts += n;
            return;
        }
    }
    /* full: the statistics lose this one */
}

static bool same_conflict(const Conflict *a, const Conflict *b)
{
    return a->lost_code == b->lost_code && a->lost_line == b->lost_line && a->won_code == b->won_code &&
           a->won_line == b->won_line && a->tid == b->tid;
}

static void add_conflict(Conflict *table, size_t size, const Conflict *c)
{
    size_t h = ((c->lost_code >> 4) * 31 + (c->won_code >> 4) * 17 + (size_t)c->lost_line * 7 +
                (size_t)c->won_line + c->tid) % size;
    for (size_t k = 0; k < size; k++, h = (h + 1) % size) {
        Conflict *s = &table[h];
        if (!s->aborts) {
            *s = *c;
            return;
        }
        if (same_conflict(s, c)) {
            s->aborts += c->aborts;
            s->ticks += c->ticks;
            return;
        }
    }
    /* full: the statistics lose this one */
}

static bool stats_tables(void)
{
    if (!sites) {
        sites = vm_malloc_kept(SITES * sizeof *sites);
        conflict_tids = vm_malloc_kept(TM_MAX_TYPES * sizeof *conflict_tids);
        conflicts = vm_malloc_kept(CONFLICTS * sizeof *conflicts);
        if (sites)
            memset(sites, 0, SITES * sizeof *sites);
        if (conflict_tids)
            memset(conflict_tids, 0, TM_MAX_TYPES * sizeof *conflict_tids);
        if (conflicts)
            memset(conflicts, 0, CONFLICTS * sizeof *conflicts);
    }
    return sites && conflict_tids && conflicts;
}

/* A site's code object and line (code 0: none). */
static void site_code_line(uintptr_t site, uintptr_t *code, int *line)
{
    const char *file;
    *code = 0;
    *line = 0;
    if (vm_site_place(site, &file, line))
        *code = site & (((uintptr_t)1 << VM_SITE_SHIFT) - 1);
}

static void record_abort(void)
{
    if (!stats_tables())
        return;
    Frame *f = vm_ts.frame;   /* restored: where the transaction started */
    if (f)
        add_site(sites, SITES, (uintptr_t)f->code, eval_frame_lineno(f), 1);
    uint16_t tid = tm_self.last_conflict_tid;
    if (tid) {
        conflict_tids[tid]++;
        /* The loser's side: where it lost a write lock, else where its
         * transaction started (a reader learns of its loss later). */
        Conflict c = {.tid = tid, .aborts = 1, .ticks = tm_self.last_abort_ticks};
        if (tm_self.lost_at_site)
            site_code_line(tm_self.lost_at_site, &c.lost_code, &c.lost_line);
        else if (f) {
            c.lost_code = (uintptr_t)f->code;
            c.lost_line = eval_frame_lineno(f);
        }
        site_code_line(tm_self.last_conflict_site, &c.won_code, &c.won_line);
        if (c.lost_code)
            add_conflict(conflicts, CONFLICTS, &c);
    }
    tm_self.lost_at_site = 0;
}

void vm_tx_merge_stats(void)
{
    if (!sites || !conflict_tids || !conflicts)
        return;
    pthread_mutex_lock(&stats_lock);
    for (size_t i = 0; i < SITES; i++)
        if (sites[i].code)
            add_site(all_sites, ARRAY_LEN(all_sites), sites[i].code, sites[i].line, sites[i].aborts);
    for (size_t i = 0; i < TM_MAX_TYPES; i++)
        all_conflict_tids[i] += conflict_tids[i];
    for (size_t i = 0; i < CONFLICTS; i++)
        if (conflicts[i].aborts)
            add_conflict(all_conflicts, ARRAY_LEN(all_conflicts), &conflicts[i]);
    pthread_mutex_unlock(&stats_lock);
    free(sites);
    free(conflict_tids);
    free(conflicts);
    sites = NULL;
    conflict_tids = NULL;
    conflicts = NULL;
}

static int by_ticks(const void *a, const void *b)
{
    uint64_t x = ((const Conflict *)a)->ticks, y = ((const Conflict *)b)->ticks;
    return x < y ? 1 : x > y ? -1 : 0;
}

static const char *code_file(uintptr_t code)
{
    CodeObj *co = (CodeObj *)code;
    return IS_STR(co->filename) ? str_cstr(co->filename) : "?";
}

static const char *tid_name(size_t t)
{
    return t < TID_COUNT && vm_tid_type[t] ? type_name_of_type(vm_tid_type[t]) : tm_types[t].name;
}

/* The ten conflicts that cost the most, both sides named (docs/CONFLICTS.md
 * says how to read and fix them). */
static void print_conflicts(void)
{
    qsort(all_conflicts, ARRAY_LEN(all_conflicts), sizeof all_conflicts[0], by_ticks);
    for (int i = 0; i < 10 && all_conflicts[i].aborts; i++) {
        const Conflict *c = &all_conflicts[i];
        fprintf(stderr, "tmpy stats: conflict on %s: %llu aborts, %.3f ms lost at %s:%d", tid_name(c->tid),
                (unsigned long long)c->aborts, tm_ticks_to_ns(c->ticks) / 1e6, code_file(c->lost_code),
                c->lost_line);
        if (c->won_code)
            fprintf(stderr, ", to a write at %s:%d\n", code_file(c->won_code), c->won_line);
        else
            fprintf(stderr, ", to a write from C or a thread's start\n");
    }
}

static int by_aborts(const void *a, const void *b)
{
    uint64_t x = ((const AbortSite *)a)->aborts, y = ((const AbortSite *)b)->aborts;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* TMPY_STATS=1 at exit: the runtime's counters, the yield points whose
 * transactions aborted most and the types of the objects they conflicted on. */
void vm_tx_print_stats(void)
{
    vm_tx_merge_stats();
    tm_stm_stats s;
    tm_stm_get_stats(&s);
    fprintf(stderr, "tmpy stats: %llu transactions, %llu commits, %llu aborts (read-write %llu, write-write %llu, "
            "inevitable %llu, explicit %llu, injected %llu, rare write %llu), %llu inevitable transitions\n",
            (unsigned long long)s.started, (unsigned long long)s.committed, (unsigned long long)s.aborted,
            (unsigned long long)s.aborts_by_cause[TM_ABORT_READ_WRITE],
            (unsigned long long)s.aborts_by_cause[TM_ABORT_WRITE_WRITE],
            (unsigned long long)s.aborts_by_cause[TM_ABORT_INEVITABLE],
            (unsigned long long)s.aborts_by_cause[TM_ABORT_EXPLICIT],
            (unsigned long long)s.aborts_by_cause[TM_ABORT_INJECTED],
            (unsigned long long)s.aborts_by_cause[TM_ABORT_RARE_WRITE], (unsigned long long)s.inevitable);
    fprintf(stderr, "tmpy stats: %llu transactions solo (no other transaction ran beside them), "
            "%llu yield points went on solo, %llu commits kept their segment for the next transaction while threads "
            "waited for one (time slices)\n", (unsigned long long)s.solo, (unsigned long long)s.solo_went_on,
            (unsigned long long)s.segments_kept);
    fprintf(stderr, "tmpy stats: %.3f ms lost in aborted transactions, %.3f ms committing, %.3f ms stopping the "
            "world, %.3f ms parked, %llu pages privatised (in %llu runs)\n", s.aborted_ns / 1e6, s.commit_ns / 1e6,
            s.sync_ns / 1e6, s.wait_ns / 1e6, (unsigned long long)s.pages_privatised,
            (unsigned long long)s.privatise_calls);
    fprintf(stderr, "tmpy stats: contention manager: %llu transactions serialised (%llu solo), %llu waits for the "
            "token (%.3f ms), %llu threads serialised, %llu trials in parallel, %llu back to parallel, %llu re-shares "
            "for solo, %llu costly commits, %llu commits that won a conflict\n",
            (unsigned long long)s.serialised, (unsigned long long)s.solo_serialised,
            (unsigned long long)s.token_waits, s.token_wait_ns / 1e6, (unsigned long long)s.cm_serialise,
            (unsigned long long)s.cm_trials, (unsigned long long)s.cm_parallel, (unsigned long long)s.reshares_for_solo,
            (unsigned long long)s.cm_costly_commits, (unsigned long long)s.cm_drafted);
    tm_wait_stat w[TM_WAIT_KINDS];   /* fairness: who waited, how long */
    tm_wait_get_stats(w);
    fprintf(stderr, "tmpy stats: waits:");
    for (int k = 0; k < TM_WAIT_KINDS; k++)
        fprintf(stderr, "%s %s %llu (%.3f ms, longest %.3f ms)", k ? "," : "", tm_wait_names[k],
                (unsigned long long)w[k].count, w[k].total_ns / 1e6, w[k].max_ns / 1e6);
    fprintf(stderr, "\n");
    if (tm_stm_txlen_policy.p.constant)
        fprintf(stderr, "tmpy stats: transaction length %u at every yield point (TMPY_TXLEN)\n",
                tm_stm_txlen_policy.p.constant);
    else
        fprintf(stderr, "tmpy stats: per-yield-point lengths: %llu cuts\n", (unsigned long long)s.length_cuts);
    print_gc_stats();
    vm_txlen_print_sites(&tm_stm_txlen_policy, "site");
    qsort(all_sites, ARRAY_LEN(all_sites), sizeof all_sites[0], by_aborts);
    for (int i = 0; i < 10 && all_sites[i].aborts; i++) {
        CodeObj *co = (CodeObj *)all_sites[i].code;
        fprintf(stderr, "tmpy stats: %llu aborts at %s:%d\n", (unsigned long long)all_sites[i].aborts,
                IS_STR(co->filename) ? str_cstr(co->filename) : "?", all_sites[i].line);
    }
    for (size_t t = 1; t < TM_MAX_TYPES; t++)
        if (all_conflict_tids[t])
            fprintf(stderr, "tmpy stats: %llu conflicts on %s objects\n", (unsigned long long)all_conflict_tids[t],
                    tid_name(t));
    print_conflicts();
}

/* After this many aborts in a row a thread runs its transaction inevitable
 * (as the papers fall back to the GIL): no livelock. A long transaction
 * falls back sooner, once its aborts in a row (two at least) have lost this
 * much time: a 30 ms `with tm.atomic:` block that a stream of rare writes
 * keeps aborting lost 8 x 30 ms per block before (issue 21's matrix, the
 * finalizer reproducer at 2 and 4 segments, over 5x tmpy-gil's time). Not
 * after one abort: on a loaded machine an ordinary transaction that the
 * scheduler preempted loses 2-8 ms, and an inevitable one beside other
 * threads stores plainly where it would log (a dict insert writes DictObj)
 * and dooms every reader at its commit, which then went inevitable in turn:
 * 17 such fall-backs and 26 of 39 read-write aborts in read_mostly_dict at
 * 2 threads, each losing 4 ms. */
#define ABORTS_BEFORE_INEVITABLE 8
#define LOST_NS_BEFORE_INEVITABLE 2000000
#define ABORTS_BEFORE_LOST_NS_COUNTS 2
static __thread int aborts_in_a_row;
static __thread uint64_t ticks_lost_in_a_row;
static __thread int lock_extension;   /* yield points run past the length while holding a lock */

/* Right after a transaction started at a yield point: a fresh snapshot, or
 * (the log is not empty: the transaction aborted) the saved state back. */
/* The abort hook (tm_set_abort_hook): the slots the aborted transaction
 * changed get their saved values back before the thread waits to restart
 * (a collection by another thread meanwhile reads them as roots, and they
 * may point at objects the abort discarded). vm_tx_started copies the same
 * values again after the restart and restores the rest. */
static void restore_slots_at_abort(void)
{
    if (!nruns)
        return;
    Obj *top = (Obj *)head.ss_top, *high = top;
    for (size_t i = nruns; i-- > 0;) {
        SavedRun *r = &runs[i];
        for (size_t k = 0; k < r->n; k++)
            r->addr[k] = (Obj)tm_self.undo_base[r->at + k];
        if (r->addr + r->n > high)
            high = r->addr + r->n;
    }
    for (Obj *p = top; p < high; p++)
        *p = NULL;
}

/* Transaction lengths per yield point (tx.h: tm_stm_tx_begin_at): a
 * transaction started at a yield point spans its site's length, which
 * starts at VM_TX_LENGTH_DEFAULT and is cut where transactions conflict.
 * TMPY_TXLEN pins one length everywhere. Solo and serialised transactions
 * (contention.h; they cannot conflict with each other) take no part: they
 * run vm_tx_length. */
static uintptr_t start_site(void);

void vm_tx_init(void)
{
    tm_set_abort_hook(restore_slots_at_abort);
    tm_set_inevitable_hook(vm_tx_forget);   /* an inevitable transaction needs no undo log */
    tm_set_site_hook(start_site);           /* statistics: the two sides of a conflict */
    tm_txlen_params p;
    tm_txlen_default_params(&p);
    p.initial = VM_TX_LENGTH_DEFAULT;
    p.period = VM_TX_LENGTH_PERIOD;
    p.threshold = VM_TX_LENGTH_THRESHOLD;
    p.minimum = VM_TX_LENGTH_MIN;
    /* TMPY_TXLEN_DYNAMIC=INITIAL,PERIOD,THRESHOLD,MINIMUM (measurements) */
    const char *dyn = getenv("TMPY_TXLEN_DYNAMIC");
    if (dyn && sscanf(dyn, "%u,%u,%u,%u", &p.initial, &p.period, &p.threshold, &p.minimum) != 4) {
        fprintf(stderr, "tmpy: error: TMPY_TXLEN_DYNAMIC must be INITIAL,PERIOD,THRESHOLD,MINIMUM, got '%s'\n", dyn);
        exit(1);
    }
    if (getenv("TMPY_TXLEN")) {   /* checked by main: vm_tx_length has it */
        p.constant = (uint32_t)vm_tx_length;
        length_pinned = true;
    }
    tm_stm_txlen_init(&p);
}

/* The yield point a transaction starts at: where the innermost frame resumes
 * (the code object is pinned), named as the HTM elision names it. */
static uintptr_t start_site(void)
{
    Frame *f = vm_ts.frame;
    if (!f)
        return 0;
    return (uintptr_t)f->code | ((uintptr_t)(f->ip - f->code->code) << VM_SITE_SHIFT);
}

void vm_tx_started(void)
{
    lock_extension = 0;
    if (nruns) {
        Obj *top = (Obj *)head.ss_top, *high = top;
        for (size_t i = nruns; i-- > 0;) {
            SavedRun *r = &runs[i];
            for (size_t k = 0; k < r->n; k++)
                r->addr[k] = (Obj)tm_self.undo_base[r->at + k];
            if (r->frame)
                *r->frame = r->record;
            if (r->addr + r->n > high)
                high = r->addr + r->n;
        }
        /* A frame saved lazily owns slots above the innermost frame's end
         * (above its own sp: dead values, but roots again once it is the
         * innermost frame): what the aborted run left there is cleared. */
        for (Obj *p = top; p < high; p++)
            *p = NULL;
        vm_ts = head.ts;
        vm_eval_levels = head.eval_levels;
        repr_depth_set(head.repr_depth);
        tm_self.ss_top = head.ss_top;
        vm_tx_low = head.low;
        vm_tx_level = head.eval_levels;
        str_cursor_reset();   /* the abort reuses nursery addresses */
        eval_trace_after_abort(head.trace_busy);
        vm_txmalloc_free_all();
        nruns = initial_runs;
        tm_self.undo_top = tm_self.undo_base + (nruns ? runs[nruns - 1].at + runs[nruns - 1].n : 0);
        /* see below; the abort may have cut the site's length */
        vm_tx_countdown = tm_tx_serialised() ? vm_tx_length + 1 : (int)tm_stm_tx_length_now() + 1;
        if (vm_tx_stats_enabled)
            record_abort();
        ticks_lost_in_a_row += tm_self.last_abort_ticks;
        if (++aborts_in_a_row >= ABORTS_BEFORE_INEVITABLE
            || (aborts_in_a_row >= ABORTS_BEFORE_LOST_NS_COUNTS &&
                tm_ticks_to_ns(ticks_lost_in_a_row) >= LOST_NS_BEFORE_INEVITABLE)) {
            /* Nothing read yet: a rare write's commit does not abort it
             * while it waits. Counted on until it got there: an abort while
             * it waits comes back here and waits again. */
            tm_become_inevitable_fresh();
            aborts_in_a_row = 0;
            ticks_lost_in_a_row = 0;
        } else if (tm_tx_serialised()) {
            tm_become_solo();   /* serialised: solo if nobody else runs (drops the log) */
        }
        return;
    }
    aborts_in_a_row = 0;
    ticks_lost_in_a_row = 0;
    /* No other transaction runs: run solo (inevitable, writes in place;
     * tx.h), with nothing to save for an abort that cannot come. */
    if (tm_become_solo()) {
        vm_tx_countdown = vm_tx_length + 1;
        return;
    }
    /* Serialised transactions cannot conflict with each other: they run
     * long and take no part in the per-site profiling. */
    uintptr_t site = tm_tx_serialised() ? 0 : start_site();
    int length = site ? (int)tm_stm_tx_begin_at(site) : vm_tx_length;
    head.ts = vm_ts;
    head.eval_levels = vm_eval_levels;
    head.repr_depth = repr_depth_get();
    head.trace_busy = eval_trace_busy();
    head.ss_top = tm_self.ss_top;
    save_run(vm_ts.roots, ROOT_COUNT, NULL);
    if (vm_ts.frame)
        save_frame(vm_ts.frame, (Obj *)tm_self.ss_top);
    head.low = vm_tx_low;
    vm_tx_level = vm_eval_levels;
    initial_runs = nruns;
    /* +1: the loop may resume at the yield point that ended the last
     * transaction (an instruction redone), which must not end this one at
     * once: with TMPY_TXLEN=1 it would commit forever without progress. */
    vm_tx_countdown = length + 1;
    vm_txmalloc_track();
}

static void vm_tx_forget(void)
{
    vm_txmalloc_forget();
    nruns = initial_runs = 0;
    if (runs)
        tm_self.undo_top = tm_self.undo_base;
    vm_tx_low = NULL;
    vm_tx_level = 0;
}

void vm_tx_commit(void)
{
    tm_commit_transaction();   /* may abort: the log is still there to undo */
    vm_tx_forget();
    vm_tx_countdown = vm_tx_length;
    last_commit_ns = now_ns();
}

/* A yield point of a nested eval level ran out of its transaction's
 * length. Below the loop, C code waits with its work in the transaction (a
 * sort and its key array, a dict being built, a generator's consumer): after
 * a commit there, its next writes to that data take the write barrier's slow
 * path and privatise its pages anew, once per transaction (a sort with a key
 * function ran 8x slower committing every 1000 yield points). So a nested
 * level ends a transaction only when NESTED_MIN_NS have passed since the
 * thread's last commit: often enough for a spinning callback to see other
 * threads' writes and let them commit and become inevitable. TMPY_TXLEN
 * (tests: short transactions everywhere) ends it at every vm_tx_length. */
#define NESTED_MIN_NS 10000000u
#define NESTED_RECHECK 1000   /* yield points before the clock is read again */

bool vm_tx_nested_may_end(void)
{
    if (length_pinned || now_ns() - last_commit_ns >= NESTED_MIN_NS)
        return true;
    vm_tx_countdown = NESTED_RECHECK;
    return false;
}

/* A yield point ran out of its transaction's length while this thread holds
 * a _thread.lock it took (vm_ts.locks_held). Committing now would publish
 * the lock held: every other thread that wants it then parks, and wakes
 * only after our release and our next commit (tree_inserts_locked: most
 * transactions ended inside the insert's `with lock:`). So the transaction
 * runs on, LOCK_RECHECK yield points at a time, until the lock is released,
 * up to LOCK_EXTENSION_MAX lengths more (a long critical section commits
 * anyway); another thread taking the lock meanwhile conflicts on the lock
 * word instead, which the contention manager serialises. */
#define LOCK_EXTENSION_MAX 4
#define LOCK_RECHECK 16

bool vm_tx_locks_may_end(void)
{
    if (lock_extension >= LOCK_EXTENSION_MAX * vm_tx_length)
        return true;
    int more = vm_tx_length < LOCK_RECHECK ? vm_tx_length : LOCK_RECHECK;
    lock_extension += more;
    vm_tx_countdown = more;
    return false;
}

/* A yield point ran out of its transaction's length in a solo transaction:
 * it goes on while nobody else wants to run (tm_solo_may_go_on) and no
 * weak callback or finalizer waits (they run between transactions: eval_run);
 * not with TMPY_TXLEN (tests: commits at every length, solo ones too).
 * A solo transaction cannot abort and its commit publishes nothing another
 * thread waits for; committing it at every length only cost a minor
 * collection, the C global roots and a segment hand-over each time. */
bool vm_tx_solo_goes_on(void)
{
    if (length_pinned || tm_gc_pending || !tm_solo_may_go_on())
        return false;
    vm_tx_countdown = vm_tx_length;
    return true;
}

#else
void vm_tx_commit(void) { tm_commit_transaction(); }
void vm_tx_init(void) {}
bool vm_tx_stats_enabled;
void vm_tx_merge_stats(void) {}
void vm_tx_print_stats(void)
{
    vm_elision_print_stats();
    print_gc_stats();
}
void vm_tx_save_frame_slow(Frame *f, Obj *above) { (void)f, (void)above; }
void vm_tx_save_frames_to(Frame *f) { (void)f; }
#endif
