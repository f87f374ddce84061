/* STM stress tests: threads run transactions in parallel on shared objects
 * and every result is checked against a model kept in C memory. One binary,
 * one mode per argv[1]:
 *
 *   lost_update T  T threads increment shared and per-thread counters, one
 *                  transaction per increment (read barrier, read, write
 *                  barrier, write), some transactions increment several
 *                  counters at once. Every total must be exact.
 *   bank T         1000 accounts; writers move random amounts between two
 *                  accounts (sometimes several transfers per transaction);
 *                  readers sum all accounts in one transaction and check the
 *                  total inside it, before commit (opacity: a transaction
 *                  that will abort must not see an inconsistent state either).
 *                  Every account's final balance must match the model.
 *   inevitable     (a) one thread runs inevitable transactions that read and
 *                  write the objects three others hammer: it never aborts;
 *                  (b) three threads try to become inevitable concurrently:
 *                  never two inside an inevitable section at once; (c) the
 *                  counters match the committed transactions exactly.
 *   overflow       a transaction allocates 3x the nursery in linked objects
 *                  (minor collections mid-transaction: overflow objects),
 *                  modifies some again, links them into a shared root and
 *                  commits; another thread checks every field. Then the same
 *                  with an explicit abort on the first attempt: others (and
 *                  the aborting thread after the restart) still see the
 *                  previous structure, intact.
 *   major [all|pre|barrier|stress]
 *                  pre: deterministic: a major collection runs while another
 *                  transaction holds modified objects, which then aborts: the
 *                  committed versions' referents must survive. barrier:
 *                  deterministic: a major collection runs while a transaction
 *                  is parked inside its write barrier (write-write contention);
 *                  the object it then writes and commits must keep its
 *                  write-barrier flag and not point into a nursery.
 *                  stress: writers write shared objects (privatising pages)
 *                  and poll tm_safepoint() in long loops, while another
 *                  thread runs tm_collect_major() inside its transactions;
 *                  every writer must still see its own writes afterwards,
 *                  the structure stays intact, and pages get re-shared.
 *                  Default: all three.
 *
 *   cards T        T threads replace random counters of one big array (5000
 *                  slots: card-marked, runtime/cards.h) by new young ones,
 *                  through tm_write_item (sometimes tm_write), with minor
 *                  and major collections and explicit aborts mid-transaction:
 *                  every counter must be exact (a card not traced loses a
 *                  young counter; one not published, or not cleared at
 *                  abort, loses or invents an update).
 *
 *   rawcards T     the same for a big object without references (a blob of
 *                  5000 words, card-marked for commits only): T threads
 *                  increment random words in place through tm_write_items
 *                  (one word or two, across card boundaries too; sometimes
 *                  tm_write), with collections and explicit aborts: every
 *                  word must be exact (a card not published loses an
 *                  update, one not cleared at abort invents one). Under
 *                  TMPY_STM_CHECK=1 every commit also compares the cards it
 *                  did not mark with the committed copy.
 *
 *   cardunits T    conflict units of big objects (runtime/stm.c: per-card write
 *                  locks, tm_read_at): a blob of 4096 words, card-marked.
 *                  (a) T threads write words of their own, interleaved so
 *                  every card holds words of every thread, blindly (no
 *                  read): the last value each committed transaction wrote
 *                  must be there (without the card locks a commit copies
 *                  its whole card over another transaction's uncommitted
 *                  words: TMPY_STM_TEST_NO_CARD_LOCKS=1 must fail here);
 *                  (b) each thread writes only cards of its own: no
 *                  write-write and no read-write abort at all (a count,
 *                  the conflict unit is the card, not the object); (c)
 *                  threads increment shared counters read with tm_read_at
 *                  (read-write conflicts per item): every count exact.
 *
 *   solo           deterministic: a thread alone runs solo transactions
 *                  (tm_become_solo): it writes counters in place (no page
 *                  privatised), replaces some of them in the big (card-
 *                  marked) array through tm_write_item, its commit copies
 *                  both into the private pages another segment kept from an
 *                  earlier writer (the array: only the marked cards, which
 *                  must therefore be marked in place too), and a thread
 *                  that attaches meanwhile, or was attached and passive
 *                  (parked in a join or a lock's wait), starts its
 *                  transaction only after the solo one commits. Not solo
 *                  while another thread runs a transaction or is attached
 *                  and not passive, nor under TMPY_STM_SOLO=0.
 *
 * The STM contract this relies on: a transaction can park in tm_write()
 * (write-write contention), tm_safepoint() and tm_become_inevitable(), but
 * while it is parked no other thread moves its young objects (a major
 * collection scans its nursery in place), so a young object may be held in
 * a C local across those calls. The overflow mode does exactly that.
 *
 * TMPY_TEST_SCALE multiplies the iteration counts; TMPY_TEST_SEED changes
 * the random choices (the thread interleaving is not reproducible anyway).
 * A watchdog fails the run when no transaction commits for TMPY_TEST_WATCHDOG
 * seconds (default 30; 0 turns it off). */
#include "tmrt.h"
#include "testutil.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXT 16

/* ---- object shapes ---- */

typedef __seg_gs struct arr arr_t;
typedef __seg_gs struct cnt cnt_t;
typedef __seg_gs struct acct acct_t;
typedef __seg_gs struct node node_t;
typedef __seg_gs struct blob blob_t;
typedef __seg_gs struct root root_t;
typedef __seg_gs struct mobj mobj_t;
typedef __seg_gs struct child child_t;

struct arr {               /* varsize array of references */
    tm_header h;
    uintptr_t len;
    object_t *items[];
};
struct cnt {               /* a counter */
    tm_header h;
    uintptr_t value;
    uintptr_t idx;
    uintptr_t chk;
};
struct acct {              /* a bank account */
    tm_header h;
    int64_t balance;
    uintptr_t idx;
    uintptr_t chk;
};
struct node {              /* overflow mode: a list node */
    tm_header h;
    node_t *next;          /* word 1 */
    node_t *side;          /* word 2 */
    blob_t *blob;          /* word 3 */
    uintptr_t id, gen, val, chk;
};
struct blob {              /* varsize words, no references */
    tm_header h;
    uintptr_t len;         /* word 1 */
    uintptr_t id, gen;
    uintptr_t items[];
};
struct root {              /* overflow mode: the shared root */
    tm_header h;
    node_t *head;          /* word 1 */
    uintptr_t gen, count;
};
struct mobj {              /* major mode: a shared object with a child */
    tm_header h;
    child_t *child;        /* word 1 */
    uintptr_t idx, value, ver;
};
struct child {
    tm_header h;
    uintptr_t idx, ver, chk;
};

static uint16_t T_ARR, T_CNT, T_ACCT, T_NODE, T_BLOB, T_ROOT, T_MOBJ, T_CHILD;

static void register_types(void)
{
    T_ARR = tm_register_type(&(tm_type){.name = "arr", .base_size = sizeof(struct arr), .item_size = 8,
                                        .length_offset = 8, .items_are_refs = true});
    T_CNT = tm_register_type(&(tm_type){.name = "cnt", .base_size = sizeof(struct cnt)});
    T_ACCT = tm_register_type(&(tm_type){.name = "acct", .base_size = sizeof(struct acct)});
    T_NODE = tm_register_type(&(tm_type){.name = "node", .base_size = sizeof(struct node),
                                         .ref_words = (1u << 1) | (1u << 2) | (1u << 3)});
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob), .item_size = 8,
                                         .length_offset = 8});
    T_ROOT = tm_register_type(&(tm_type){.name = "root", .base_size = sizeof(struct root), .ref_words = 1u << 1});
    T_MOBJ = tm_register_type(&(tm_type){.name = "mobj", .base_size = sizeof(struct mobj), .ref_words = 1u << 1});
    T_CHILD = tm_register_type(&(tm_type){.name = "child", .base_size = sizeof(struct child)});
}

/* The one global root: the mode's shared structure, set up before threads start. */
static object_t *g_root;

static uint64_t seed;
static double scale;

static uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
    rng_t r = {a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) ^ (c << 17) ^ seed};
    return rng_next(&r);
}

static object_t *as_obj(void __seg_gs *p) { return (object_t *)p; }

/* ---- a watchdog: a hang (no commit anywhere for a while) fails the test ---- */

static atomic_ulong progress;
static const char *volatile phase_name = "start-up";
static int watchdog_s;

/* Every commit of the test goes through here. */
static void commit(void)
{
    tm_commit_transaction();
    atomic_fetch_add_explicit(&progress, 1, memory_order_relaxed);
}

static void *watchdog(void *arg)
{
    (void)arg;
    unsigned long last = atomic_load(&progress);
    int idle = 0;
    for (;;) {
        sleep(1);
        unsigned long now = atomic_load(&progress);
        idle = now == last ? idle + 1 : 0;
        last = now;
        if (idle >= watchdog_s) {
            fprintf(stderr, "FAIL watchdog: no transaction committed for %d s during %s (%lu commits before): "
                    "deadlock or livelock in the runtime?\n", watchdog_s, phase_name, now);
            fflush(stdout);
            _exit(3);
        }
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long scaled(double n, long min)
{
    long v = (long)(n * scale);
    return v < min ? min : v;
}

static object_t *alloc(uint16_t tid, size_t size)
{
    object_t *o = tm_allocate(tid, size);
    CHECK(o != NULL, "allocation of %zu bytes (type %u) failed", size, tid);
    return o;
}

static object_t *alloc_var(uint16_t tid, uintptr_t n)
{
    object_t *o = tm_allocate_var(tid, n);
    CHECK(o != NULL, "allocation of %lu items (type %u) failed", (unsigned long)n, tid);
    return o;
}

static arr_t *root_arr(void) { return (arr_t *)g_root; }

/* Spin a little inside a transaction, at safe points: widens conflict windows. */
static void spin(unsigned n)
{
    for (volatile unsigned i = 0; i < n; i++)
        tm_safepoint();
}

static tm_stm_stats stats_before;
static tm_gc_stats gc_before;

static void stats_start(void)
{
    tm_stm_get_stats(&stats_before);
    tm_gc_get_stats(&gc_before);
}

static void print_stats(const char *what, tm_stm_stats *out)
{
    tm_stm_stats s;
    tm_gc_stats g;
    tm_stm_get_stats(&s);
    tm_gc_get_stats(&g);
    tm_stm_stats *b = &stats_before;
    printf("info %s: started %lu committed %lu aborted %lu (read-write %lu, write-write %lu, inevitable %lu, "
           "explicit %lu), inevitable transactions %lu, pages privatised %lu; minor %lu major %lu, "
           "pages re-shared %lu; commit %.3f s, sync %.3f s, wait %.3f s\n", what,
           (unsigned long)(s.started - b->started), (unsigned long)(s.committed - b->committed),
           (unsigned long)(s.aborted - b->aborted),
           (unsigned long)(s.aborts_by_cause[TM_ABORT_READ_WRITE] - b->aborts_by_cause[TM_ABORT_READ_WRITE]),
           (unsigned long)(s.aborts_by_cause[TM_ABORT_WRITE_WRITE] - b->aborts_by_cause[TM_ABORT_WRITE_WRITE]),
           (unsigned long)(s.aborts_by_cause[TM_ABORT_INEVITABLE] - b->aborts_by_cause[TM_ABORT_INEVITABLE]),
           (unsigned long)(s.aborts_by_cause[TM_ABORT_EXPLICIT] - b->aborts_by_cause[TM_ABORT_EXPLICIT]),
           (unsigned long)(s.inevitable - b->inevitable), (unsigned long)(s.pages_privatised - b->pages_privatised),
           (unsigned long)(g.minor_collections - gc_before.minor_collections),
           (unsigned long)(g.major_collections - gc_before.major_collections),
           (unsigned long)(g.pages_reshared - gc_before.pages_reshared),
           (s.commit_ns - b->commit_ns) * 1e-9, (s.sync_ns - b->sync_ns) * 1e-9, (s.wait_ns - b->wait_ns) * 1e-9);
    CHECK(s.started - b->started == (s.committed - b->committed) + (s.aborted - b->aborted),
          "%s: started %lu != committed %lu + aborted %lu", what, (unsigned long)(s.started - b->started),
          (unsigned long)(s.committed - b->committed), (unsigned long)(s.aborted - b->aborted));
    if (out) {
        *out = s;
        for (int k = 0; k < TM_ABORT_CAUSES; k++)
            out->aborts_by_cause[k] -= b->aborts_by_cause[k];
        out->started -= b->started;
        out->committed -= b->committed;
        out->aborted -= b->aborted;
        out->inevitable -= b->inevitable;
    }
}

/* An array of n counters (type T_CNT, idx i, chk from i) as the global root;
 * run by the main thread before the workers start. */
static void setup_counters(uintptr_t n)
{
    tm_start_transaction();
    tm_become_inevitable();
    arr_t *a = (arr_t *)alloc_var(T_ARR, n);
    for (uintptr_t i = 0; i < n; i++) {
        TM_PUSH_ROOT(a);
        cnt_t *c = (cnt_t *)alloc(T_CNT, sizeof(struct cnt));
        TM_POP_ROOT(a);
        c->idx = i;
        c->chk = mix3(i, 77, 77);
        TM_PUSH_ROOT(c);
        tm_write(as_obj(a));
        TM_POP_ROOT(c);
        a->items[i] = as_obj(c);
    }
    g_root = as_obj(a);
    commit();
}

static cnt_t *counter(uintptr_t i)
{
    cnt_t *c = (cnt_t *)root_arr()->items[i];
    CHECK(c != NULL && c->h.tid == T_CNT, "counter %lu: bad object", (unsigned long)i);
    return c;
}

/* Read a counter (read barrier first) and check its identity. */
static uintptr_t read_counter(uintptr_t i)
{
    cnt_t *c = counter(i);
    tm_read(as_obj(c));
    CHECK(c->idx == i && c->chk == mix3(i, 77, 77), "counter %lu holds idx %lu chk %#lx", (unsigned long)i,
          (unsigned long)c->idx, (unsigned long)c->chk);
    return c->value;
}

static void write_counter(uintptr_t i, uintptr_t v)
{
    cnt_t *c = counter(i);
    tm_write(as_obj(c));
    c->value = v;
}

typedef struct worker {
    int tid;
    pthread_t th;
    rng_t rng;
    uint64_t commits, attempts, extra;
    uint64_t *contrib;         /* per-object increments of committed transactions */
    int64_t *delta;            /* bank: per-account balance changes */
} worker;

static worker W[MAXT];
static int nthreads;
static atomic_int stop_flag;

static void start_threads(int n, void *(*fn)(void *))
{
    nthreads = n;
    atomic_store(&stop_flag, 0);
    for (int t = 0; t < n; t++)
        CHECK(pthread_create(&W[t].th, NULL, fn, &W[t]) == 0, "pthread_create");
}

static void join_threads(void)
{
    for (int t = 0; t < nthreads; t++)
        pthread_join(W[t].th, NULL);
}

static void init_workers(int n, size_t ncontrib)
{
    for (int t = 0; t < n; t++) {
        free(W[t].contrib);
        free(W[t].delta);
        W[t] = (worker){.tid = t, .rng = {seed * 1000003 + (uint64_t)t * 7919 + 1}};
        W[t].contrib = calloc(ncontrib ? ncontrib : 1, sizeof(uint64_t));
        W[t].delta = calloc(ncontrib ? ncontrib : 1, sizeof(int64_t));
        CHECK(W[t].contrib && W[t].delta, "out of C memory");
    }
}

static uint64_t expected_count(int nworkers, uintptr_t i)
{
    uint64_t e = 0;
    for (int t = 0; t < nworkers; t++)
        e += W[t].contrib[i];
    return e;
}

/* Check every counter against the sum of the workers' contributions. */
static void check_counters(const char *where, uintptr_t n, int nworkers)
{
    tm_start_transaction();
    for (uintptr_t i = 0; i < n; i++) {
        uintptr_t v = read_counter(i);
        uint64_t e = expected_count(nworkers, i);
        CHECK(v == e, "%s: counter %lu is %lu, committed transactions added %lu (lost or phantom updates)",
              where, (unsigned long)i, (unsigned long)v, (unsigned long)e);
    }
    commit();
}

/* ==================================================================== */
/* lost_update                                                          */

enum { LU_SHARED = 4, LU_MULTI_EVERY = 8 };
static long lu_iters;

static void *lu_worker(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    uintptr_t own = LU_SHARED + (uintptr_t)w->tid;
    for (volatile long i = 0; i < lu_iters; i++) {
        uint64_t r = mix3((uint64_t)w->tid, (uint64_t)i, 1);
        int kind = r % LU_MULTI_EVERY == 0 ? 2 : (r >> 8) % 3 == 0 ? 1 : 0;
        uintptr_t k = (r >> 16) % LU_SHARED;
        bool barrier_first = (r >> 24) % 4 == 0;   /* write barrier before the read */
        unsigned gap = (r >> 32) % 8 == 0 ? 50 : 0; /* a window between read and write */
        tm_start_transaction();
        w->attempts++;
        if (kind < 2) {
            uintptr_t c = kind == 0 ? k : own;
            if (barrier_first)
                tm_write(as_obj(counter(c)));
            uintptr_t v = read_counter(c);
            spin(gap);
            write_counter(c, v + 1);
        } else {
            /* Several counters at once: read all, then write all. */
            uintptr_t v[LU_SHARED + 1];
            for (uintptr_t j = 0; j < LU_SHARED; j++)
                v[j] = read_counter(j);
            v[LU_SHARED] = read_counter(own);
            spin(gap);
            for (uintptr_t j = 0; j < LU_SHARED; j++) {
                write_counter(j, v[j] + 1);
                tm_safepoint();
            }
            write_counter(own, v[LU_SHARED] + 1);
        }
        commit();
        w->commits++;
        if (kind == 0) {
            w->contrib[k]++;
        } else if (kind == 1) {
            w->contrib[own]++;
        } else {
            for (uintptr_t j = 0; j < LU_SHARED; j++)
                w->contrib[j]++;
            w->contrib[own]++;
            w->extra++;
        }
    }
    tm_thread_detach();
    return NULL;
}

static void mode_lost_update(int T)
{
    CHECK(T >= 1 && T <= MAXT, "thread count %d out of range", T);
    lu_iters = scaled(120000, 200);
    uintptr_t n = LU_SHARED + (uintptr_t)T;
    setup_counters(n);
    init_workers(T, n);
    stats_start();
    phase_name = "lost_update";
    double t0 = now_s();
    start_threads(T, lu_worker);
    join_threads();
    double dt = now_s() - t0;
    check_counters("lost_update", n, T);
    uint64_t commits = 0, multi = 0;
    for (int t = 0; t < T; t++) {
        commits += W[t].commits;
        multi += W[t].extra;
    }
    tm_stm_stats s;
    print_stats("lost_update", &s);
    CHECK(commits == (uint64_t)T * (uint64_t)lu_iters, "commit count");
    /* + 1: the final check ran as a transaction too */
    CHECK(s.committed == commits + 1, "the runtime counted %lu commits, the threads %lu",
          (unsigned long)s.committed, (unsigned long)commits + 1);
    uint64_t shared_total = 0;
    for (uintptr_t j = 0; j < LU_SHARED; j++)
        shared_total += expected_count(T, j);
    printf("ok lost_update %d threads (%d segments): %lu transactions (%lu multi-counter), shared counters total "
           "%lu, all %lu counters exact (%.2f s)\n", T, tm_seg.nsegments, (unsigned long)commits,
           (unsigned long)multi, (unsigned long)shared_total, (unsigned long)n, dt);
}

/* ==================================================================== */
/* bank                                                                 */

enum { NACC = 1000, INITIAL = 1000, READER_INEVITABLE_AFTER = 64 };
#define BANK_TOTAL ((int64_t)NACC * INITIAL)
static long bank_transfers;
static int bank_writers;
static atomic_int writers_left;
static atomic_ulong reads_total;

static acct_t *account(uintptr_t i)
{
    acct_t *a = (acct_t *)root_arr()->items[i];
    CHECK(a != NULL && a->h.tid == T_ACCT, "account %lu: bad object", (unsigned long)i);
    return a;
}

static void check_account(acct_t *a, uintptr_t i)
{
    CHECK(a->idx == i && a->chk == mix3(i, 99, 99), "account %lu holds idx %lu chk %#lx (corrupt)",
          (unsigned long)i, (unsigned long)a->idx, (unsigned long)a->chk);
}

static void setup_accounts(void)
{
    tm_start_transaction();
    tm_become_inevitable();
    arr_t *r = (arr_t *)alloc_var(T_ARR, NACC);
    for (uintptr_t i = 0; i < NACC; i++) {
        TM_PUSH_ROOT(r);
        acct_t *a = (acct_t *)alloc(T_ACCT, sizeof(struct acct));
        TM_POP_ROOT(r);
        a->idx = i;
        a->chk = mix3(i, 99, 99);
        a->balance = INITIAL;
        TM_PUSH_ROOT(a);
        tm_write(as_obj(r));
        TM_POP_ROOT(a);
        r->items[i] = as_obj(a);
    }
    g_root = as_obj(r);
    commit();
}

enum { MAXBATCH = 5 };

static void *bank_writer(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    for (volatile long i = 0; i < bank_transfers;) {
        /* Random choices first: a retry makes the same transfers. */
        int nb = rng_below(&w->rng, 8) == 0 ? 2 + (int)rng_below(&w->rng, MAXBATCH - 1) : 1;
        uintptr_t from[MAXBATCH], to[MAXBATCH];
        int64_t amount[MAXBATCH];
        for (int b = 0; b < nb; b++) {
            from[b] = rng_below(&w->rng, NACC);
            to[b] = (from[b] + 1 + rng_below(&w->rng, NACC - 1)) % NACC;
            amount[b] = 1 + (int64_t)rng_below(&w->rng, 2 * INITIAL);   /* balances may go negative */
        }
        bool gap = rng_below(&w->rng, 4) == 0;
        tm_start_transaction();
        w->attempts++;
        for (int b = 0; b < nb; b++) {
            acct_t *x = account(from[b]), *y = account(to[b]);
            tm_read(as_obj(x));
            tm_read(as_obj(y));
            check_account(x, from[b]);
            check_account(y, to[b]);
            int64_t bx = x->balance, by = y->balance;
            if (gap)
                spin(20);
            tm_write(as_obj(x));
            x->balance = bx - amount[b];
            tm_write(as_obj(y));
            y->balance = by + amount[b];
        }
        commit();
        w->commits++;
        for (int b = 0; b < nb; b++) {
            w->delta[from[b]] -= amount[b];
            w->delta[to[b]] += amount[b];
        }
        w->extra += (uint64_t)nb;
        i += nb;
    }
    atomic_fetch_sub(&writers_left, 1);
    tm_thread_detach();
    return NULL;
}

/* Sum every account in one transaction and check the total before commit.
 * After many aborts in a row the reader becomes inevitable (the writers then
 * lose instead); reads of both kinds are counted. */
static void *bank_reader(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    uint64_t normal = 0, inev = 0;
    long min_reads = scaled(20, 5);
    while (atomic_load(&writers_left) > 0 || (long)(normal + inev) < min_reads) {
        volatile unsigned attempt = 0;
        tm_start_transaction();
        attempt++;
        w->attempts++;
        bool became = false;
        if (attempt > READER_INEVITABLE_AFTER) {
            tm_become_inevitable();
            became = true;
        }
        int64_t sum = 0;
        for (uintptr_t i = 0; i < NACC; i++) {
            acct_t *a = account(i);
            tm_read(as_obj(a));
            check_account(a, i);
            sum += a->balance;
            if (i % 8 == 7)
                tm_safepoint();   /* commits of others happen here: we must abort if they touched what we read */
        }
        CHECK(sum == BANK_TOTAL, "reader %d saw a total of %ld instead of %ld (attempt %u%s): "
              "an inconsistent snapshot inside a transaction", w->tid, (long)sum, (long)BANK_TOTAL, attempt,
              became ? ", inevitable" : "");
        commit();
        w->commits++;
        if (became)
            inev++;
        else
            normal++;
        atomic_fetch_add(&reads_total, 1);
    }
    w->extra = normal;
    w->contrib[0] = inev;
    tm_thread_detach();
    return NULL;
}

static void *bank_thread(void *arg)
{
    worker *w = arg;
    return w->tid < bank_writers ? bank_writer(arg) : bank_reader(arg);
}

static void mode_bank(int T)
{
    CHECK(T >= 2 && T <= MAXT, "bank needs 2 to %d threads, got %d", MAXT, T);
    int readers = T >= 6 ? 2 : 1;
    bank_writers = T - readers;
    bank_transfers = scaled(500000.0 / bank_writers, 100);
    setup_accounts();
    init_workers(T, NACC);
    atomic_store(&writers_left, bank_writers);
    atomic_store(&reads_total, 0);
    stats_start();
    phase_name = "bank";
    double t0 = now_s();
    start_threads(T, bank_thread);
    join_threads();
    double dt = now_s() - t0;
    /* Final state: every account = initial + the committed transfers. */
    tm_start_transaction();
    int64_t sum = 0;
    for (uintptr_t i = 0; i < NACC; i++) {
        acct_t *a = account(i);
        tm_read(as_obj(a));
        check_account(a, i);
        int64_t e = INITIAL;
        for (int t = 0; t < bank_writers; t++)
            e += W[t].delta[i];
        CHECK(a->balance == e, "account %lu has %ld, the committed transfers give %ld", (unsigned long)i,
              (long)a->balance, (long)e);
        sum += a->balance;
    }
    commit();
    CHECK(sum == BANK_TOTAL, "final total %ld, expected %ld", (long)sum, (long)BANK_TOTAL);
    uint64_t transfers = 0, wtx = 0, normal = 0, inev = 0, rattempts = 0;
    for (int t = 0; t < bank_writers; t++) {
        transfers += W[t].extra;
        wtx += W[t].commits;
    }
    for (int t = bank_writers; t < T; t++) {
        normal += W[t].extra;
        inev += W[t].contrib[0];
        rattempts += W[t].attempts;
    }
    print_stats("bank", NULL);
    CHECK(normal + inev > 0, "no reads completed");
    printf("ok bank %d threads (%d writers, %d readers): %lu transfers in %lu transactions, %lu full-sum reads "
           "all equal to %ld (%lu plain, %lu inevitable after %d aborts; %lu reader attempts), every account "
           "exact (%.2f s)\n", T, bank_writers, readers, (unsigned long)transfers, (unsigned long)wtx,
           (unsigned long)(normal + inev), (long)BANK_TOTAL, (unsigned long)normal, (unsigned long)inev,
           READER_INEVITABLE_AFTER, (unsigned long)rattempts, dt);
}

/* ==================================================================== */
/* inevitable                                                           */

enum { NI = 32 };
static long inev_rounds;
static unsigned inev_spin;
static atomic_int inside_inevitable, max_inside;
static atomic_ulong inev_contended, hammer_commits;

/* Threads that hammer the objects with ordinary transactions until stopped. */
static void hammer(worker *w)
{
    while (!atomic_load(&stop_flag)) {
        int nb = rng_below(&w->rng, 4) == 0 ? 3 : 1;
        uintptr_t objs[3];
        for (int b = 0; b < nb; b++)
            objs[b] = rng_below(&w->rng, NI);
        bool gap = rng_below(&w->rng, 4) == 0;
        tm_start_transaction();
        w->attempts++;
        for (int b = 0; b < nb; b++) {
            uintptr_t v = read_counter(objs[b]);
            if (gap)
                spin(30);
            write_counter(objs[b], v + 1);
        }
        commit();
        w->commits++;
        atomic_fetch_add(&hammer_commits, 1);
        for (int b = 0; b < nb; b++)
            w->contrib[objs[b]]++;
    }
}

/* Phase A: thread 0 is inevitable in every transaction; it touches every object. */
static void *inev_a(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    if (w->tid == 0) {
        while (atomic_load(&hammer_commits) < 30)   /* the others are running */
            sched_yield();
        for (volatile long r = 0; r < inev_rounds; r++) {
            volatile uint64_t attempts = w->attempts;
            tm_start_transaction();
            attempts++;
            w->attempts = attempts;
            tm_become_inevitable();
            CHECK(tm_is_inevitable(), "tm_become_inevitable() returned, tm_is_inevitable() is false");
            uintptr_t vals[NI];
            for (uintptr_t j = 0; j < NI; j++) {
                vals[j] = read_counter(j) + 1;
                tm_safepoint();
                write_counter(j, vals[j]);
                if (j % 8 == 7)
                    spin(100);   /* others commit (or wait) meanwhile */
            }
            /* Read everything back: our writes are still there. */
            for (uintptr_t j = 0; j < NI; j++)
                CHECK(read_counter(j) == vals[j], "inevitable transaction: counter %lu changed under it",
                      (unsigned long)j);
            commit();
            w->commits++;
            for (uintptr_t j = 0; j < NI; j++)
                w->contrib[j]++;
            CHECK(w->attempts == w->commits, "the inevitable thread ran %lu attempts for %lu commits: an "
                  "inevitable transaction aborted", (unsigned long)w->attempts, (unsigned long)w->commits);
        }
        atomic_store(&stop_flag, 1);
    } else {
        hammer(w);
    }
    tm_thread_detach();
    return NULL;
}

/* Phase B: threads 0-2 all want to be inevitable; thread 3 hammers. */
static void *inev_b(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    if (w->tid < 3) {
        while (atomic_load(&hammer_commits) < 10)
            sched_yield();
        for (volatile long r = 0; r < inev_rounds; r++) {
            uintptr_t objs[NI / 4];
            for (int b = 0; b < NI / 4; b++)
                objs[b] = rng_below(&w->rng, NI);
            volatile uint64_t attempts = w->attempts;
            tm_start_transaction();
            attempts++;
            w->attempts = attempts;
            if (atomic_load(&inside_inevitable))
                atomic_fetch_add(&inev_contended, 1);
            tm_become_inevitable();
            int n = atomic_fetch_add(&inside_inevitable, 1) + 1;
            int m = atomic_load(&max_inside);
            while (n > m && !atomic_compare_exchange_weak(&max_inside, &m, n))
                ;
            CHECK(n == 1, "%d transactions inside tm_become_inevitable() sections at once", n);
            CHECK(tm_is_inevitable(), "not inevitable after tm_become_inevitable()");
            for (int b = 0; b < NI / 4; b++) {
                uintptr_t v = read_counter(objs[b]);
                spin(40);
                write_counter(objs[b], v + 1);
            }
            spin(inev_spin);
            CHECK(atomic_load(&inside_inevitable) == 1, "another transaction became inevitable meanwhile");
            atomic_fetch_sub(&inside_inevitable, 1);
            commit();
            w->commits++;
            for (int b = 0; b < NI / 4; b++)
                w->contrib[objs[b]]++;
            CHECK(w->attempts == w->commits, "thread %d: %lu attempts for %lu commits: a transaction that "
                  "became inevitable before touching anything aborted", w->tid, (unsigned long)w->attempts,
                  (unsigned long)w->commits);
        }
        if (atomic_fetch_add(&writers_left, -1) == 1)
            atomic_store(&stop_flag, 1);
    } else {
        hammer(w);
    }
    tm_thread_detach();
    return NULL;
}

static void mode_inevitable(void)
{
    inev_rounds = scaled(15000, 50);
    inev_spin = 2000;
    setup_counters(NI);
    /* Phase A */
    init_workers(4, NI);
    atomic_store(&hammer_commits, 0);
    stats_start();
    phase_name = "inevitable phase A";
    double t0 = now_s();
    start_threads(4, inev_a);
    join_threads();
    double dta = now_s() - t0;
    check_counters("inevitable phase A", NI, 4);
    tm_stm_stats sa;
    print_stats("inevitable phase A", &sa);
    uint64_t hammered = W[1].commits + W[2].commits + W[3].commits;
    CHECK(W[0].commits == (uint64_t)inev_rounds, "phase A: %lu inevitable commits", (unsigned long)W[0].commits);
    CHECK(hammered >= 30, "phase A: the other threads committed only %lu transactions", (unsigned long)hammered);
    printf("ok inevitable (a): %ld inevitable transactions on all %d objects, never aborted, while 3 threads "
           "committed %lu conflicting transactions (%lu of their aborts lost to the inevitable one); counters "
           "exact (%.2f s)\n", inev_rounds, NI, (unsigned long)hammered,
           (unsigned long)sa.aborts_by_cause[TM_ABORT_INEVITABLE], dta);

    /* Phase B: continue from phase A's counts. */
    uint64_t base[NI];
    for (uintptr_t j = 0; j < NI; j++)
        base[j] = expected_count(4, j);
    init_workers(4, NI);
    for (uintptr_t j = 0; j < NI; j++)
        W[0].contrib[j] = base[j];
    /* init_workers cleared the counts; thread 0's attempts start at 0 again
     * but its contrib carries phase A's totals. */
    atomic_store(&writers_left, 3);
    atomic_store(&inside_inevitable, 0);
    atomic_store(&max_inside, 0);
    atomic_store(&inev_contended, 0);
    atomic_store(&hammer_commits, 0);
    stats_start();
    phase_name = "inevitable phase B";
    t0 = now_s();
    start_threads(4, inev_b);
    join_threads();
    double dtb = now_s() - t0;
    check_counters("inevitable phase B", NI, 4);
    tm_stm_stats sb;
    print_stats("inevitable phase B", &sb);
    CHECK(atomic_load(&max_inside) == 1, "max inside %d", atomic_load(&max_inside));
    CHECK(sb.inevitable >= 3 * (uint64_t)inev_rounds, "only %lu inevitable transactions counted",
          (unsigned long)sb.inevitable);
    if (inev_rounds >= 2000 && tm_seg.nsegments >= 2)   /* long enough that the three must have met */
        CHECK(atomic_load(&inev_contended) > 0, "phase B: no thread ever tried to become inevitable while "
              "another was: the check proved nothing");
    printf("ok inevitable (b): 3 threads x %ld inevitable transactions, at most %d inevitable at a time "
           "(%lu times one tried while another was inside), no aborts of theirs; 1 thread committed %lu "
           "ordinary transactions (%.2f s)\n", inev_rounds, atomic_load(&max_inside),
           (unsigned long)atomic_load(&inev_contended), (unsigned long)W[3].commits, dtb);
    printf("ok inevitable (c): all %d counters equal the committed transactions' increments\n", NI);
}

/* ==================================================================== */
/* overflow                                                             */

enum { BLOB_EVERY = 997, BIG_EVERY = 40009, MOD_EVERY = 7, SIDE_EVERY = 101, CHECK_POLL = 256 };
static uintptr_t ov_nodes;
static atomic_int ov_phase;
static atomic_ulong ov_committed_gen;
static long ov_plain_rounds, ov_abort_rounds;
static uint64_t ov_checks_during, ov_checks_after, ov_checks_self, ov_reader_checks, ov_reader_gens;

enum { PH_IDLE, PH_LINKED, PH_CHECKED_DURING, PH_ABORTED, PH_CHECKED_AFTER };

static uintptr_t node_val(uintptr_t gen, uintptr_t id) { return mix3(gen, id, 3); }
static uintptr_t node_modval(uintptr_t gen, uintptr_t id) { return mix3(gen, id, 4); }
static uintptr_t blob_len(uintptr_t gen, uintptr_t id)
{
    if (id % BIG_EVERY == 0)
        return 9000;                                /* 72 KB: young outside the nursery */
    return mix3(gen, id, 5) % 400;                  /* up to 3.2 KB: some are large old objects */
}

/* Walk the structure of generation `gen` and check every field. Returns the
 * node count. Inside a transaction; polls safe points. */
static uintptr_t check_structure(root_t *r, uintptr_t gen, const char *where)
{
    tm_read(as_obj(r));
    CHECK(r->gen == gen, "%s: the root holds generation %lu, expected %lu", where, (unsigned long)r->gen,
          (unsigned long)gen);
    if (gen == 0) {
        CHECK(r->head == NULL && r->count == 0, "%s: generation 0 is not empty", where);
        return 0;
    }
    CHECK(r->count == ov_nodes, "%s: root count %lu, expected %lu", where, (unsigned long)r->count,
          (unsigned long)ov_nodes);
    uintptr_t expect_id = ov_nodes, n = 0;
    for (node_t *nd = r->head; nd; nd = nd->next) {
        tm_read(as_obj(nd));
        CHECK(nd->h.tid == T_NODE, "%s: gen %lu: node %lu has type %u", where, (unsigned long)gen,
              (unsigned long)expect_id, nd->h.tid);
        CHECK(nd->id == expect_id && nd->gen == gen, "%s: node %lu holds id %lu gen %lu (expected gen %lu)",
              where, (unsigned long)expect_id, (unsigned long)nd->id, (unsigned long)nd->gen,
              (unsigned long)gen);
        uintptr_t id = nd->id;
        uintptr_t val = id % MOD_EVERY == 0 ? node_modval(gen, id) : node_val(gen, id);
        CHECK(nd->val == val, "%s: gen %lu node %lu val %#lx, expected %#lx%s", where, (unsigned long)gen,
              (unsigned long)id, (unsigned long)nd->val, (unsigned long)val,
              id % MOD_EVERY == 0 ? " (modified after a minor collection)" : "");
        CHECK(nd->chk == (id ^ gen ^ 0xabcdef), "%s: node %lu chk", where, (unsigned long)id);
        blob_t *b = nd->blob;
        if (id % BLOB_EVERY == 0 || id % BIG_EVERY == 0) {
            CHECK(b != NULL && b->h.tid == T_BLOB, "%s: gen %lu node %lu: blob missing or bad", where,
                  (unsigned long)gen, (unsigned long)id);
            tm_read(as_obj(b));
            uintptr_t len = blob_len(gen, id);
            CHECK(b->len == len && b->id == id && b->gen == gen, "%s: node %lu blob header (len %lu id %lu gen %lu)",
                  where, (unsigned long)id, (unsigned long)b->len, (unsigned long)b->id, (unsigned long)b->gen);
            for (uintptr_t k = 0; k < len; k++)
                CHECK(b->items[k] == mix3(gen, id, k + 100), "%s: node %lu blob item %lu", where,
                      (unsigned long)id, (unsigned long)k);
        } else {
            CHECK(b == NULL, "%s: node %lu has an unexpected blob", where, (unsigned long)id);
        }
        node_t *s = nd->side;
        if (id % SIDE_EVERY == 0) {
            CHECK(s != NULL && s->h.tid == T_NODE, "%s: gen %lu node %lu: side node missing or bad", where,
                  (unsigned long)gen, (unsigned long)id);
            tm_read(as_obj(s));
            CHECK(s->id == ~id && s->gen == gen && s->val == node_val(gen, ~id) && s->next == NULL,
                  "%s: node %lu side node corrupt", where, (unsigned long)id);
        } else {
            CHECK(s == NULL, "%s: node %lu has an unexpected side node", where, (unsigned long)id);
        }
        expect_id--;
        n++;
        if (n % CHECK_POLL == 0)
            tm_safepoint();
    }
    CHECK(n == ov_nodes, "%s: gen %lu has %lu nodes, expected %lu", where, (unsigned long)gen, (unsigned long)n,
          (unsigned long)ov_nodes);
    return n;
}

static void wait_phase(int ph, bool in_tx)
{
    while (atomic_load(&ov_phase) != ph) {
        if (in_tx)
            tm_safepoint();
        sched_yield();
    }
}

/* Build generation gen in one transaction; abort the first attempt if asked. */
static void ov_build(worker *w, uintptr_t gen, bool abort_first)
{
    volatile int attempts = 0;
    tm_start_transaction();
    attempts++;
    w->attempts++;
    if (attempts > 1) {
        /* Restarted after the explicit abort: our own segment sees the
         * previous generation again, and so does the reader. */
        check_structure((root_t *)g_root, gen - 1, "writer after its abort");
        ov_checks_self++;
        atomic_store(&ov_phase, PH_ABORTED);
        wait_phase(PH_CHECKED_AFTER, true);
    }
    object_t **slot = tm_self.ss_top;
    TM_PUSH_ROOT(NULL);   /* slot[0]: list head */
    TM_PUSH_ROOT(NULL);   /* slot[1]: cursor */
    uint64_t minors0 = 0;
    {
        tm_gc_stats g;
        tm_gc_get_stats(&g);
        minors0 = g.minor_collections;
    }
    for (uintptr_t id = 1; id <= ov_nodes; id++) {
        node_t *nd = (node_t *)alloc(T_NODE, sizeof(struct node));
        nd->id = id;
        nd->gen = gen;
        nd->val = node_val(gen, id);
        nd->chk = id ^ gen ^ 0xabcdef;
        nd->next = (node_t *)slot[0];
        slot[0] = as_obj(nd);
        if (id % BLOB_EVERY == 0 || id % BIG_EVERY == 0) {
            uintptr_t len = blob_len(gen, id);
            blob_t *b = (blob_t *)alloc_var(T_BLOB, len);
            b->id = id;
            b->gen = gen;
            for (uintptr_t k = 0; k < len; k++)
                b->items[k] = mix3(gen, id, k + 100);
            nd = (node_t *)slot[0];      /* may have moved */
            TM_PUSH_ROOT(b);
            tm_write(as_obj(nd));
            TM_POP_ROOT(b);
            nd->blob = b;
        }
    }
    {
        tm_gc_stats g;
        tm_gc_get_stats(&g);
        CHECK(g.minor_collections - minors0 >= 2, "only %lu minor collections while building %lu nodes: "
              "no overflow objects", (unsigned long)(g.minor_collections - minors0), (unsigned long)ov_nodes);
    }
    /* Second pass: modify nodes again (most were moved out of the nursery
     * by now: the write barrier on our own overflow objects), and give
     * some a new young side node. */
    slot[1] = slot[0];
    while (slot[1]) {
        node_t *nd = (node_t *)slot[1];
        uintptr_t id = nd->id;
        if (id % MOD_EVERY == 0) {
            tm_write(as_obj(nd));
            nd->val = node_modval(gen, id);
        }
        if (id % SIDE_EVERY == 0) {
            node_t *s = (node_t *)alloc(T_NODE, sizeof(struct node));
            s->id = ~id;
            s->gen = gen;
            s->val = node_val(gen, ~id);
            nd = (node_t *)slot[1];
            TM_PUSH_ROOT(s);
            tm_write(as_obj(nd));
            TM_POP_ROOT(s);
            nd->side = s;
        }
        slot[1] = as_obj(nd->next);
    }
    /* Link into the shared root. */
    root_t *r = (root_t *)g_root;
    tm_read(as_obj(r));
    CHECK(r->gen == gen - 1, "writer: root generation %lu, expected %lu", (unsigned long)r->gen,
          (unsigned long)(gen - 1));
    tm_write(as_obj(r));
    r->head = (node_t *)slot[0];
    r->gen = gen;
    r->count = ov_nodes;
    tm_self.ss_top -= 2;
    if (abort_first && attempts == 1) {
        /* The reader checks the old generation while we hold the new one. */
        atomic_store(&ov_phase, PH_LINKED);
        wait_phase(PH_CHECKED_DURING, true);
        tm_abort_transaction();
    }
    commit();
    w->commits++;
    atomic_store(&ov_committed_gen, gen);
}

static void *ov_writer(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    uintptr_t gen = 0;
    /* Plain rounds, back to back: the reader checks whatever is there. */
    for (long i = 0; i < ov_plain_rounds; i++)
        ov_build(w, ++gen, false);
    /* Wait until the reader has seen the last one. */
    while (atomic_load(&ov_phase) != PH_CHECKED_AFTER)
        sched_yield();
    for (long i = 0; i < ov_abort_rounds; i++) {
        atomic_store(&ov_phase, PH_IDLE);
        ov_build(w, ++gen, true);
        while (atomic_load(&ov_phase) != PH_CHECKED_AFTER || atomic_load(&ov_committed_gen) != gen)
            sched_yield();
    }
    tm_thread_detach();
    return NULL;
}

/* Check the current generation in one transaction; returns it. */
static uintptr_t ov_check_current(const char *where)
{
    volatile uintptr_t seen = 0;
    tm_start_transaction();
    root_t *r = (root_t *)g_root;
    tm_read(as_obj(r));
    uintptr_t gen = r->gen;
    check_structure(r, gen, where);
    seen = gen;
    commit();
    if (seen)
        ov_reader_checks++;
    return seen;
}

static void *ov_reader(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    uintptr_t last = 0;
    while (last < (uintptr_t)ov_plain_rounds) {
        uintptr_t g = ov_check_current("reader, plain rounds");
        CHECK(g >= last, "generation went back from %lu to %lu", (unsigned long)last, (unsigned long)g);
        if (g != last)
            ov_reader_gens++;
        last = g;
        if (!g) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
        }
    }
    atomic_store(&ov_phase, PH_CHECKED_AFTER);
    for (long i = 0; i < ov_abort_rounds; i++) {
        uintptr_t gen = last + 1;
        wait_phase(PH_LINKED, false);
        CHECK(ov_check_current("reader, while the writer holds an uncommitted new generation") == last,
              "the uncommitted generation is visible");
        ov_checks_during++;
        atomic_store(&ov_phase, PH_CHECKED_DURING);
        wait_phase(PH_ABORTED, false);
        /* After the abort: a major collection frees the aborted attempt's
         * objects; the previous generation must be intact. */
        tm_start_transaction();
        tm_collect_major();
        check_structure((root_t *)g_root, last, "reader after the writer's abort and a major collection");
        commit();
        ov_checks_after++;
        atomic_store(&ov_phase, PH_CHECKED_AFTER);
        while (atomic_load(&ov_committed_gen) != gen)
            sched_yield();
        CHECK(ov_check_current("reader, after the retry committed") == gen, "the retry's generation");
        last = gen;
    }
    w->commits = ov_reader_checks;
    tm_thread_detach();
    return NULL;
}

static void *ov_thread(void *arg)
{
    worker *w = arg;
    return w->tid == 0 ? ov_writer(arg) : ov_reader(arg);
}

/* Phases where one thread waits inside its transaction for another
 * thread's transaction need that many segments: skip them with fewer. */
static bool enough_segments(int n, const char *what)
{
    if (tm_seg.nsegments >= n)
        return true;
    printf("ok %s: skipped, it needs %d segments running transactions at once (TMPY_SEGMENTS=%d)\n", what, n,
           tm_seg.nsegments);
    return false;
}

static void mode_overflow(void)
{
    if (!enough_segments(2, "overflow"))
        return;
    ov_nodes = 3 * tm_cfg.nursery_size / sizeof(struct node);
    ov_plain_rounds = scaled(8, 2);
    ov_abort_rounds = scaled(4, 1);
    tm_start_transaction();
    tm_become_inevitable();
    g_root = alloc(T_ROOT, sizeof(struct root));
    commit();
    init_workers(2, 1);
    atomic_store(&ov_phase, PH_IDLE);
    atomic_store(&ov_committed_gen, 0);
    stats_start();
    phase_name = "overflow";
    double t0 = now_s();
    start_threads(2, ov_thread);
    join_threads();
    double dt = now_s() - t0;
    uintptr_t final_gen = (uintptr_t)(ov_plain_rounds + ov_abort_rounds);
    tm_start_transaction();
    check_structure((root_t *)g_root, final_gen, "final");
    tm_collect_major();
    check_structure((root_t *)g_root, final_gen, "final, after a major collection");
    commit();
    tm_stm_stats s;
    print_stats("overflow", &s);
    CHECK(s.aborts_by_cause[TM_ABORT_EXPLICIT] == (uint64_t)ov_abort_rounds, "%lu explicit aborts, expected %ld",
          (unsigned long)s.aborts_by_cause[TM_ABORT_EXPLICIT], ov_abort_rounds);
    printf("ok overflow: %ld+%ld generations of %lu nodes (%lu MB, nursery %zu MB) built in one transaction "
           "each, %lu reader checks of every field (%lu distinct generations seen during plain rounds)\n",
           ov_plain_rounds, ov_abort_rounds, (unsigned long)ov_nodes,
           (unsigned long)(ov_nodes * sizeof(struct node) >> 20), tm_cfg.nursery_size >> 20,
           (unsigned long)ov_reader_checks, (unsigned long)ov_reader_gens);
    printf("ok overflow abort: %ld explicit aborts after linking a new generation: the old one stayed intact "
           "for the reader during (%lu) and after the abort (%lu, with a major collection) and for the aborting "
           "thread itself (%lu) (%.2f s)\n", ov_abort_rounds, (unsigned long)ov_checks_during,
           (unsigned long)ov_checks_after, (unsigned long)ov_checks_self, dt);
}

/* ==================================================================== */
/* major                                                                */

enum { NM = 4096, MAJ_WRITERS = 3, MAJ_MAXW = 4 };
static long maj_rounds, maj_collections, maj_spin;
static atomic_ulong maj_done_collections;

static uintptr_t child_chk(uintptr_t idx, uintptr_t ver) { return mix3(idx, ver, 11); }

static mobj_t *mobj(uintptr_t i)
{
    mobj_t *o = (mobj_t *)root_arr()->items[i];
    CHECK(o != NULL && o->h.tid == T_MOBJ, "object %lu: bad", (unsigned long)i);
    return o;
}

/* Read object i and its child; check they agree. Returns its value. */
static uintptr_t mobj_check(uintptr_t i, const char *where)
{
    mobj_t *o = mobj(i);
    tm_read(as_obj(o));
    CHECK(o->idx == i, "%s: object %lu holds idx %lu", where, (unsigned long)i, (unsigned long)o->idx);
    CHECK(o->ver == o->value, "%s: object %lu ver %lu value %lu", where, (unsigned long)i, (unsigned long)o->ver,
          (unsigned long)o->value);
    child_t *c = o->child;
    if (o->ver == 0) {
        CHECK(c == NULL, "%s: object %lu: a child at version 0", where, (unsigned long)i);
    } else {
        CHECK(c != NULL && c->h.tid == T_CHILD, "%s: object %lu: child missing or bad (type %u)", where,
              (unsigned long)i, c ? c->h.tid : 0);
        tm_read(as_obj(c));
        CHECK(c->idx == i && c->ver == o->ver && c->chk == child_chk(i, o->ver),
              "%s: object %lu ver %lu: child holds idx %lu ver %lu (freed or stale?)", where, (unsigned long)i,
              (unsigned long)o->ver, (unsigned long)c->idx, (unsigned long)c->ver);
    }
    return o->value;
}

/* Increment object i and give it a new child. Returns the new value. */
static uintptr_t mobj_bump(uintptr_t i, const char *where)
{
    uintptr_t v = mobj_check(i, where);
    child_t *c = (child_t *)alloc(T_CHILD, sizeof(struct child));   /* may collect: re-read o after */
    c->idx = i;
    c->ver = v + 1;
    c->chk = child_chk(i, v + 1);
    mobj_t *o = mobj(i);
    /* The write barrier can park this transaction (write-write contention)
     * while another thread runs a major collection; `c` (young, in a C
     * local) must not move meanwhile: that is the runtime's contract. */
    tm_write(as_obj(o));
    o->value = v + 1;
    o->ver = v + 1;
    o->child = c;
    return v + 1;
}

static void *maj_writer(worker *w)
{
    for (volatile long r = 0; r < maj_rounds; r++) {
        int nb = 1 + (int)rng_below(&w->rng, MAJ_MAXW);
        uintptr_t objs[MAJ_MAXW];
        for (int b = 0; b < nb; b++) {
            objs[b] = rng_below(&w->rng, NM);
            for (int c = 0; c < b; c++)
                if (objs[c] == objs[b])
                    objs[b] = (objs[b] + 1) % NM, c = -1;   /* distinct */
        }
        bool long_loop = rng_below(&w->rng, 2) == 0;
        tm_start_transaction();
        w->attempts++;
        uintptr_t vals[MAJ_MAXW];
        for (int b = 0; b < nb; b++)
            vals[b] = mobj_bump(objs[b], "writer");
        if (long_loop)
            spin((unsigned)maj_spin);   /* a major collection may run meanwhile */
        /* Our writes must still be there, in our segment. */
        for (int b = 0; b < nb; b++) {
            uintptr_t v = mobj_check(objs[b], "writer, re-reading its own writes");
            CHECK(v == vals[b], "writer %d: object %lu reads %lu after its own write of %lu (a page with an "
                  "uncommitted write was re-shared?)", w->tid, (unsigned long)objs[b], (unsigned long)v,
                  (unsigned long)vals[b]);
        }
        commit();
        w->commits++;
        for (int b = 0; b < nb; b++)
            w->contrib[objs[b]]++;
    }
    return NULL;
}

static void *maj_collector(worker *w)
{
    for (volatile long r = 0; r < maj_collections; r++) {
        bool write = r % 2 == 0;
        uintptr_t obj = rng_below(&w->rng, NM);
        bool full_check = r % 4 == 1;
        tm_start_transaction();
        w->attempts++;
        uintptr_t v = write ? mobj_bump(obj, "collector") : mobj_check(obj, "collector");
        tm_collect_major();
        CHECK(mobj_check(obj, "collector after its major collection") == v,
              "collector: object %lu lost its value %lu across tm_collect_major()", (unsigned long)obj,
              (unsigned long)v);
        if (full_check)
            for (uintptr_t i = 0; i < NM; i++) {
                mobj_check(i, "collector, full check after a major collection");
                if (i % 64 == 63)
                    tm_safepoint();
            }
        commit();
        w->commits++;
        if (write)
            w->contrib[obj]++;
        atomic_fetch_add(&maj_done_collections, 1);
        /* Let the writers privatise pages again. */
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&stop_flag, 1);
    return NULL;
}

static void *maj_thread(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    if (w->tid < MAJ_WRITERS)
        maj_writer(w);
    else
        maj_collector(w);
    tm_thread_detach();
    return NULL;
}

/* Deterministic first phase: thread 0 replaces the children of MP_OBJS
 * objects in a transaction and waits in it; thread 1 runs a major collection
 * in its own transaction (the committed children are still referenced by the
 * committed versions of those objects: they must survive), then thread 0
 * aborts (its objects point to the old children again), its retry commits
 * nothing, and thread 1 runs another major collection, which marks the old
 * children again (a freed one stops the GC with "not an allocated old
 * object"), and checks everything. */
enum { MP_OBJS = 64 };
static atomic_int mp_phase;

static uintptr_t mp_obj(int k) { return (uintptr_t)k * 61 % NM; }

static void *maj_pre_thread(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    if (w->tid == 0) {
        volatile int attempts = 0;
        tm_start_transaction();
        attempts++;
        if (attempts == 1) {
            for (int k = 0; k < MP_OBJS; k++)
                mobj_bump(mp_obj(k), "pre-phase writer");
            atomic_store(&mp_phase, 1);
            while (atomic_load(&mp_phase) != 2) {
                tm_safepoint();
                sched_yield();
            }
            tm_abort_transaction();
        }
        /* The retry changes nothing: the objects keep their old children. */
        commit();
        w->commits++;
        atomic_store(&mp_phase, 3);
    } else {
        while (atomic_load(&mp_phase) != 1)
            sched_yield();
        printf("info major pre-phase: a major collection while another transaction holds %d modified objects\n",
               MP_OBJS);
        tm_start_transaction();
        tm_collect_major();
        for (uintptr_t i = 0; i < NM; i++)
            mobj_check(i, "pre-phase: committed state after a major collection");
        commit();
        atomic_store(&mp_phase, 2);
        while (atomic_load(&mp_phase) != 3)
            sched_yield();
        printf("info major pre-phase: the writer aborted (its retry changes nothing); another major collection\n");
        tm_start_transaction();
        tm_collect_major();   /* a freed child still referenced: "not an allocated old object" */
        for (uintptr_t i = 0; i < NM; i++)
            mobj_check(i, "pre-phase: after the writer's abort and another major collection");
        commit();
    }
    tm_thread_detach();
    return NULL;
}

/* Deterministic second phase: a transaction parked inside its write barrier
 * while a major collection (run by another thread) runs its minor collection.
 * A (younger) holds the write lock of X and stays away from safe points for a
 * while; B (older) writes X: it wins, dooms A and parks until the lock is
 * free; C requests a major collection, which waits for A; A reaches a safe
 * point and aborts; the major collection then runs with B parked in its write
 * barrier. B then stores a new young child into X (after tm_write(X) again)
 * and commits. The committed X must still have its write-barrier flag (else
 * every later tm_write(X) takes the fast path: no lock, no privatisation, no
 * remembered set) and must not point into a nursery. */
static atomic_int wb_started, wb_locked, wb_writing, wb_collecting;
static uintptr_t wb_x;

static void *maj_wb_thread(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    if (w->tid == 0) {                       /* B: the older writer */
        tm_start_transaction();
        atomic_store(&wb_started, 1);
        while (!atomic_load(&wb_locked)) {
            tm_safepoint();
            sched_yield();
        }
        uintptr_t v = mobj_check(wb_x, "barrier phase, B");
        atomic_store(&wb_writing, 1);
        tm_write(as_obj(mobj(wb_x)));        /* parks: A holds the lock */
        child_t *c = (child_t *)alloc(T_CHILD, sizeof(struct child));
        c->idx = wb_x;
        c->ver = v + 1;
        c->chk = child_chk(wb_x, v + 1);
        mobj_t *o = mobj(wb_x);
        TM_PUSH_ROOT(c);
        tm_write(as_obj(o));                 /* after an allocation: the barrier again */
        TM_POP_ROOT(c);
        o->value = o->ver = v + 1;
        o->child = c;
        commit();
        w->contrib[wb_x]++;
    } else if (w->tid == 1) {                /* A: the younger lock holder */
        while (!atomic_load(&wb_started))
            sched_yield();
        volatile int attempts = 0;
        tm_start_transaction();
        attempts++;
        if (attempts == 1) {
            tm_write(as_obj(mobj(wb_x)));
            atomic_store(&wb_locked, 1);
            /* No safe point until B parks and C has asked for the world. */
            while (!atomic_load(&wb_writing) || !atomic_load(&wb_collecting))
                sched_yield();
            struct timespec ts = {0, 50000000};
            nanosleep(&ts, NULL);
            for (;;)
                tm_safepoint();              /* B doomed us: abort here */
        }
        commit();                            /* the retry changes nothing */
    } else {                                 /* C: the collector */
        while (!atomic_load(&wb_writing))
            sched_yield();
        tm_start_transaction();
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);                /* B parks meanwhile */
        atomic_store(&wb_collecting, 1);
        tm_collect_major();
        commit();
    }
    tm_thread_detach();
    return NULL;
}

static void maj_barrier_phase(void)
{
    if (!enough_segments(3, "major barrier phase"))
        return;
    wb_x = mp_obj(5);
    atomic_store(&wb_started, 0);
    atomic_store(&wb_locked, 0);
    atomic_store(&wb_writing, 0);
    atomic_store(&wb_collecting, 0);
    tm_stm_stats s0, s1;
    tm_stm_get_stats(&s0);
    phase_name = "major barrier phase";
    printf("info major barrier phase: a major collection while a transaction is parked in its write barrier\n");
    start_threads(3, maj_wb_thread);
    join_threads();
    tm_stm_get_stats(&s1);
    tm_start_transaction();
    mobj_t *o = mobj(wb_x);
    tm_read(as_obj(o));
    uintptr_t child = (uintptr_t)o->child;
    CHECK(child - tm_seg.nursery_start >= tm_seg.nursery_end - tm_seg.nursery_start,
          "barrier phase: the committed object %lu points into a nursery (%#lx): its write barrier forgot "
          "it after a minor collection ran while it was parked", (unsigned long)wb_x, (unsigned long)child);
    CHECK(o->h.flags & TM_GCFLAG_WRITE_BARRIER, "barrier phase: the committed object %lu lost its "
          "write-barrier flag (its barrier ran while a minor collection emptied the remembered set): later "
          "writes to it bypass the write lock and go straight to shared memory", (unsigned long)wb_x);
    mobj_check(wb_x, "barrier phase, after the commit");
    commit();
    uint64_t ww = s1.aborts_by_cause[TM_ABORT_WRITE_WRITE] - s0.aborts_by_cause[TM_ABORT_WRITE_WRITE];
    printf("ok major barrier phase: the object written by a transaction parked in its write barrier during "
           "a major collection was committed with its flag and an old child (%lu write-write abort%s)\n",
           (unsigned long)ww, ww == 1 ? "" : "s");
}

static void maj_pre_phase(void)
{
    if (!enough_segments(2, "major pre-phase"))
        return;
    /* Give the objects committed children first (counted as thread 0's). */
    tm_start_transaction();
    for (int k = 0; k < MP_OBJS; k++)
        mobj_bump(mp_obj(k), "pre-phase set-up");
    commit();
    for (int k = 0; k < MP_OBJS; k++)
        W[0].contrib[mp_obj(k)]++;
    atomic_store(&mp_phase, 0);
    phase_name = "major pre-phase";
    start_threads(2, maj_pre_thread);
    join_threads();
    tm_start_transaction();
    for (uintptr_t i = 0; i < NM; i++) {
        uintptr_t v = mobj_check(i, "after the pre-phase");
        CHECK(v == expected_count(MAJ_WRITERS + 1, i), "pre-phase: object %lu is at %lu", (unsigned long)i,
              (unsigned long)v);
    }
    commit();
    printf("ok major pre-phase: the committed children of %d objects modified by a running transaction "
           "survived a major collection and that transaction's abort\n", MP_OBJS);
}

static void mode_major(const char *which)
{
    bool all = !strcmp(which, "all");
    bool pre = all || !strcmp(which, "pre");
    bool barrier = all || !strcmp(which, "barrier");
    bool stress = all || !strcmp(which, "stress");
    CHECK(pre || barrier || stress, "major takes all, pre, barrier or stress, not '%s'", which);
    maj_rounds = scaled(25000, 100);
    maj_collections = scaled(150, 10);
    maj_spin = 20000;
    tm_start_transaction();
    tm_become_inevitable();
    arr_t *a = (arr_t *)alloc_var(T_ARR, NM);
    for (uintptr_t i = 0; i < NM; i++) {
        TM_PUSH_ROOT(a);
        mobj_t *o = (mobj_t *)alloc(T_MOBJ, sizeof(struct mobj));
        TM_POP_ROOT(a);
        o->idx = i;
        TM_PUSH_ROOT(o);
        tm_write(as_obj(a));
        TM_POP_ROOT(o);
        a->items[i] = as_obj(o);
    }
    g_root = as_obj(a);
    commit();
    init_workers(MAJ_WRITERS + 1, NM);
    stats_start();
    if (pre)
        maj_pre_phase();
    if (barrier)
        maj_barrier_phase();
    if (!stress)
        return;
    atomic_store(&maj_done_collections, 0);
    phase_name = "major stress";
    double t0 = now_s();
    start_threads(MAJ_WRITERS + 1, maj_thread);
    join_threads();
    double dt = now_s() - t0;
    tm_stm_stats s;
    tm_gc_stats g;
    print_stats("major", &s);
    tm_gc_get_stats(&g);
    tm_start_transaction();
    uint64_t total = 0;
    for (uintptr_t i = 0; i < NM; i++) {
        uintptr_t v = mobj_check(i, "final");
        uint64_t e = expected_count(MAJ_WRITERS + 1, i);
        CHECK(v == e, "object %lu is at %lu, committed transactions incremented it %lu times", (unsigned long)i,
              (unsigned long)v, (unsigned long)e);
        total += v;
    }
    tm_collect_major();
    for (uintptr_t i = 0; i < NM; i++)
        mobj_check(i, "final, after another major collection");
    commit();
    uint64_t majors = g.major_collections - gc_before.major_collections;
    uint64_t reshared = g.pages_reshared - gc_before.pages_reshared;
    CHECK(majors >= (uint64_t)maj_collections, "%lu major collections, expected at least %ld",
          (unsigned long)majors, maj_collections);
    CHECK(s.pages_privatised > 0, "no page was privatised");
    CHECK(reshared > 0, "major collections re-shared no page (%lu privatised)", (unsigned long)s.pages_privatised);
    uint64_t wcommits = 0;
    for (int t = 0; t < MAJ_WRITERS; t++)
        wcommits += W[t].commits;
    printf("ok major: %d writers committed %lu transactions (%lu increments) while a thread ran %ld major "
           "collections inside its transactions; %lu pages privatised, %lu re-shared; structure intact, "
           "counts exact (%.2f s)\n", MAJ_WRITERS, (unsigned long)wcommits, (unsigned long)total,
           maj_collections, (unsigned long)s.pages_privatised, (unsigned long)reshared, dt);
}

/* ==================================================================== */

/* ==================================================================== */
/* cards                                                                */

enum { CARD_SLOTS = 5000 };   /* 40 KB of items: 79 cards */
static long cards_iters;

/* Replace counter i of the big array by a new young one holding value + 1. */
static void cards_replace(uintptr_t i, bool whole)
{
    uintptr_t v = read_counter(i);
    cnt_t *c = (cnt_t *)alloc(T_CNT, sizeof(struct cnt));
    c->value = v + 1;
    c->idx = i;
    c->chk = mix3(i, 77, 77);
    arr_t *a = root_arr();   /* old: it did not move */
    if (whole)
        tm_write(as_obj(a));
    else
        tm_write_item(as_obj(a), i);
    a->items[i] = as_obj(c);
}

static void *cards_worker(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    for (volatile long it = 0; it < cards_iters; it++) {
        uint64_t r = mix3((uint64_t)w->tid, (uint64_t)it, 5);
        int n = 1 + (int)(r % 4);
        uintptr_t picks[8];
        volatile int attempts = 0;
        tm_start_transaction();
        attempts++;
        w->attempts++;
        tm_read(g_root);
        for (int k = 0; k < n; k++) {
            picks[k] = mix3((uint64_t)w->tid, (uint64_t)it, 100 + (uint64_t)k) % CARD_SLOTS;
            cards_replace(picks[k], (r >> (8 + k)) % 8 == 0);
        }
        /* Collections mid-transaction: later stores find the flag set again. */
        if ((r >> 16) % 4 == 0)
            tm_collect_minor();
        if ((r >> 20) % 256 == 0)
            tm_collect_major();
        for (int k = n; k < 2 * n; k++) {
            picks[k] = mix3((uint64_t)w->tid, (uint64_t)it, 100 + (uint64_t)k) % CARD_SLOTS;
            cards_replace(picks[k], (r >> (8 + k)) % 8 == 0);
        }
        if ((r >> 28) % 16 == 0 && attempts == 1)
            tm_abort_transaction();
        commit();
        w->commits++;
        for (int k = 0; k < 2 * n; k++)
            w->contrib[picks[k]]++;
    }
    tm_thread_detach();
    return NULL;
}

static void mode_cards(int T)
{
    CHECK(T >= 1 && T <= MAXT, "thread count %d out of range", T);
    cards_iters = scaled(6000, 100);
    setup_counters(CARD_SLOTS);
    init_workers(T, CARD_SLOTS);
    stats_start();
    phase_name = "cards";
    double t0 = now_s();
    start_threads(T, cards_worker);
    join_threads();
    double dt = now_s() - t0;
    check_counters("cards", CARD_SLOTS, T);
    uint64_t total = 0;
    for (uintptr_t i = 0; i < CARD_SLOTS; i++)
        total += expected_count(T, i);
    tm_stm_stats s;
    print_stats("cards", &s);
    CHECK(s.aborts_by_cause[TM_ABORT_EXPLICIT] > 0, "no explicit abort ran");
    printf("ok cards %d threads (%d segments): %lu updates of %d card-marked slots, all exact (%.2f s)\n", T,
           tm_seg.nsegments, (unsigned long)total, CARD_SLOTS, dt);
}

/* ==================================================================== */
/* rawcards                                                             */

enum { RAW_WORDS = 5000 };   /* 40 KB of plain words: card-marked for commits */
static long rawcards_iters;

static blob_t *root_blob(void) { return (blob_t *)g_root; }

/* Add 1 to words i .. i + n - 1 of the blob (n: 1 or 2). */
static void rawcards_bump(uintptr_t i, uintptr_t n, bool whole)
{
    blob_t *b = root_blob();
    if (whole)
        tm_write(as_obj(b));
    else
        tm_write_items(as_obj(b), i, n);
    for (uintptr_t k = 0; k < n; k++)
        b->items[i + k]++;
}

static void *rawcards_worker(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    for (volatile long it = 0; it < rawcards_iters; it++) {
        uint64_t r = mix3((uint64_t)w->tid, (uint64_t)it, 9);
        int n = 1 + (int)(r % 4);
        uintptr_t picks[8], widths[8];
        volatile int attempts = 0;
        tm_start_transaction();
        attempts++;
        tm_read(g_root);
        for (int k = 0; k < 2 * n; k++) {
            uint64_t q = mix3((uint64_t)w->tid, (uint64_t)it, 200 + (uint64_t)k);
            /* every fourth pick is near the end of a card: two words may cross into the next card */
            picks[k] = q % 4 == 0 ? ((q >> 8) % (RAW_WORDS / 64 - 1)) * 64 + 60 : (q >> 8) % (RAW_WORDS - 1);
            widths[k] = 1 + (q >> 40) % 2;
            rawcards_bump(picks[k], widths[k], (q >> 48) % 8 == 0);
            if (k == n - 1 && (r >> 16) % 4 == 0)
                tm_collect_minor();   /* mid-transaction: later stores find the flag set again */
            if (k == n - 1 && (r >> 20) % 256 == 0)
                tm_collect_major();
        }
        if ((r >> 28) % 16 == 0 && attempts == 1)
            tm_abort_transaction();
        commit();
        for (int k = 0; k < 2 * n; k++)
            for (uintptr_t j = 0; j < widths[k]; j++)
                w->contrib[picks[k] + j]++;
    }
    tm_thread_detach();
    return NULL;
}

static void mode_rawcards(int T)
{
    CHECK(T >= 1 && T <= MAXT, "thread count %d out of range", T);
    rawcards_iters = scaled(6000, 100);
    tm_start_transaction();
    tm_become_inevitable();
    g_root = alloc_var(T_BLOB, RAW_WORDS);   /* zeroed */
    commit();
    init_workers(T, RAW_WORDS);
    stats_start();
    phase_name = "rawcards";
    double t0 = now_s();
    start_threads(T, rawcards_worker);
    join_threads();
    double dt = now_s() - t0;
    uint64_t total = 0;
    tm_start_transaction();
    tm_read(g_root);
    for (uintptr_t i = 0; i < RAW_WORDS; i++) {
        uint64_t e = expected_count(T, i);
        CHECK(root_blob()->items[i] == e, "rawcards: word %lu is %lu, committed transactions added %lu "
              "(lost or phantom updates)", (unsigned long)i, (unsigned long)root_blob()->items[i], (unsigned long)e);
        total += e;
    }
    commit();
    tm_stm_stats s;
    print_stats("rawcards", &s);
    CHECK(s.aborts_by_cause[TM_ABORT_EXPLICIT] > 0, "no explicit abort ran");
    printf("ok rawcards %d threads (%d segments): %lu increments of %d card-marked words, all exact (%.2f s)\n", T,
           tm_seg.nsegments, (unsigned long)total, RAW_WORDS, dt);
}

/* ==================================================================== */
/* cardunits                                                            */

enum { CU_WORDS = 4096, CU_COUNTERS = 200 };   /* 32 KB: 64 cards of 64 words (the first starts 4 words in) */
static long cu_iters;
static uint64_t *cu_last;   /* (a): per word, the value of the last committed write, by its owner */

static blob_t *cu_blob(void) { return (blob_t *)g_root; }

static void cu_store(uintptr_t i, uintptr_t v)
{
    tm_write_items(g_root, i, 1);
    cu_blob()->items[i] = v;
}

/* (a) and (b): blind writes of words of one's own; `own_cards`: thread t
 * writes only the cards c with c % T == t (words well inside them). */
static void *cu_blind_worker(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    bool own_cards = w->extra;
    for (volatile long it = 0; it < cu_iters; it++) {
        uint64_t r = mix3((uint64_t)w->tid, (uint64_t)it, 31);
        int n = 1 + (int)(r % 3);
        uintptr_t words[3];
        for (int k = 0; k < n; k++) {
            uint64_t q = mix3((uint64_t)w->tid, (uint64_t)it, 300 + (uint64_t)k);
            if (own_cards) {
                uintptr_t card = ((q >> 8) % (CU_WORDS / 64 / nthreads)) * nthreads + (uintptr_t)w->tid;
                words[k] = card * 64 + (q >> 24) % 56;   /* card c holds words 64c - 4 .. 64c + 59 */
            } else {
                words[k] = ((q >> 8) % (CU_WORDS / nthreads)) * nthreads + (uintptr_t)w->tid;
            }
        }
        uintptr_t v = ((uintptr_t)(w->tid + 1) << 40) | (uintptr_t)(it + 1);
        volatile int attempts = 0;
        tm_start_transaction();
        attempts++;
        for (int k = 0; k < n; k++) {
            cu_store(words[k], v + (uintptr_t)k);
            spin(3000);   /* let the transactions overlap */
        }
        if (!own_cards && (r >> 20) % 16 == 0 && attempts == 1)
            tm_abort_transaction();
        commit();
        for (int k = 0; k < n; k++)
            cu_last[words[k]] = v + (uintptr_t)k;
    }
    tm_thread_detach();
    return NULL;
}

/* (c): increment two shared counters, read with tm_read_at. */
static void *cu_counter_worker(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    for (volatile long it = 0; it < cu_iters; it++) {
        uintptr_t pick[2];
        for (int k = 0; k < 2; k++)
            pick[k] = mix3((uint64_t)w->tid, (uint64_t)it, 500 + (uint64_t)k) % CU_COUNTERS * 19;   /* spread over cards */
        tm_start_transaction();
        for (int k = 0; k < 2; k++) {
            tm_read_at((uintptr_t)&cu_blob()->items[pick[k]]);
            uintptr_t v = cu_blob()->items[pick[k]];
            spin(100);
            cu_store(pick[k], v + 1);
        }
        commit();
        for (int k = 0; k < 2; k++)
            w->contrib[pick[k]]++;
    }
    tm_thread_detach();
    return NULL;
}

static void cu_run(int T, const char *name, void *(*fn)(void *), bool own_cards, tm_stm_stats *s)
{
    init_workers(T, CU_WORDS);
    for (int t = 0; t < T; t++)
        W[t].extra = own_cards;
    stats_start();
    phase_name = name;
    start_threads(T, fn);
    join_threads();
    print_stats(name, s);
}

static void mode_cardunits(int T)
{
    CHECK(T >= 2 && T <= MAXT, "thread count %d out of range", T);
    cu_iters = scaled(1500, 100);
    cu_last = calloc(CU_WORDS, sizeof(uint64_t));
    CHECK(cu_last, "out of C memory");
    tm_start_transaction();
    tm_become_inevitable();
    g_root = alloc_var(T_BLOB, CU_WORDS);   /* zeroed */
    commit();
    tm_stm_stats s;

    cu_run(T, "cardunits blind", cu_blind_worker, false, &s);
    tm_start_transaction();
    unsigned long lost = 0, first = CU_WORDS;
    for (uintptr_t i = 0; i < CU_WORDS; i++)
        if (cu_blob()->items[i] != cu_last[i] && lost++ == 0)
            first = i;
    commit();
    CHECK(lost == 0, "cardunits: %lu of %d words lost their last committed write (word %lu is %#lx, "
          "its last commit wrote %#lx)", lost, CU_WORDS, first, (unsigned long)cu_blob()->items[first],
          (unsigned long)cu_last[first]);
    CHECK(s.aborts_by_cause[TM_ABORT_EXPLICIT] > 0, "no explicit abort ran");

    memset(cu_last, 0, CU_WORDS * sizeof(uint64_t));
    tm_start_transaction();
    tm_become_inevitable();
    tm_write(g_root);
    for (uintptr_t i = 0; i < CU_WORDS; i++)
        cu_blob()->items[i] = 0;
    commit();
    cu_run(T, "cardunits own cards", cu_blind_worker, true, &s);
    CHECK(s.aborts_by_cause[TM_ABORT_WRITE_WRITE] == 0 && s.aborts_by_cause[TM_ABORT_READ_WRITE] == 0,
          "cardunits: threads writing only cards of their own conflicted (%lu write-write, %lu read-write "
          "aborts): the conflict unit is not the card", (unsigned long)s.aborts_by_cause[TM_ABORT_WRITE_WRITE],
          (unsigned long)s.aborts_by_cause[TM_ABORT_READ_WRITE]);
    tm_start_transaction();
    for (uintptr_t i = 0; i < CU_WORDS; i++)
        CHECK(cu_blob()->items[i] == cu_last[i], "cardunits own cards: word %lu is %#lx, its last commit wrote %#lx",
              (unsigned long)i, (unsigned long)cu_blob()->items[i], (unsigned long)cu_last[i]);
    commit();

    tm_start_transaction();
    tm_become_inevitable();
    tm_write(g_root);
    for (uintptr_t i = 0; i < CU_WORDS; i++)
        cu_blob()->items[i] = 0;
    commit();
    cu_run(T, "cardunits counters", cu_counter_worker, false, &s);
    tm_start_transaction();
    for (uintptr_t i = 0; i < CU_WORDS; i++) {
        uint64_t e = expected_count(T, i);
        CHECK(cu_blob()->items[i] == e, "cardunits counters: word %lu is %lu, committed transactions added %lu",
              (unsigned long)i, (unsigned long)cu_blob()->items[i], (unsigned long)e);
    }
    commit();
    printf("ok cardunits %d threads (%d segments): blind writes kept, own cards without conflicts, counters exact\n",
           T, tm_seg.nsegments);
}

/* ==================================================================== */
/* solo                                                                 */

enum { SOLO_N = 1100 };   /* counters over several pages; the array (8.8 KB) is card-marked */
static atomic_int solo_step, solo_writer_seg, solo_late_started, solo_idle_started;

static void solo_wait_step(int s)
{
    while (atomic_load(&solo_step) < s)
        sched_yield();
}

/* Another segment writes every counter and the array, commits and
 * detaches: their pages stay private there. It starts its transaction
 * first, so the main thread's, started beside it, is not solo. */
static void *solo_writer(void *arg)
{
    (void)arg;
    tm_thread_attach();
    tm_start_transaction();
    atomic_store(&solo_writer_seg, tm_self.segment);
    atomic_store(&solo_step, 1);
    solo_wait_step(2);
    for (uintptr_t i = 0; i < SOLO_N; i++)
        write_counter(i, read_counter(i) + 1);
    tm_write(g_root);   /* privatises every page of the array */
    commit();
    tm_thread_detach();
    atomic_store(&solo_step, 3);
    return NULL;
}

/* Attaches while the main thread runs solo: must not start before that commits. */
static void *solo_late(void *arg)
{
    (void)arg;
    tm_thread_attach();
    atomic_store(&solo_step, 5);
    tm_start_transaction();
    atomic_store(&solo_late_started, 1);
    for (uintptr_t i = 0; i < SOLO_N; i++)
        CHECK(read_counter(i) == 2, "late thread: counter %lu is %lu, expected 2", (unsigned long)i,
              (unsigned long)read_counter(i));
    commit();
    tm_thread_detach();
    return NULL;
}

/* Attached beside the main thread, running no transaction: first busy (it
 * may start one any time: no solo beside it), then passive, as a thread
 * parked in a join or a lock's wait (tm_thread_passive_begin): the main
 * thread goes solo, and this one's transaction waits for its commit. */
static void *solo_idle(void *arg)
{
    (void)arg;
    tm_thread_attach();
    atomic_store(&solo_step, 6);
    solo_wait_step(7);
    tm_thread_passive_begin();
    atomic_store(&solo_step, 8);
    solo_wait_step(9);
    tm_thread_passive_end();
    tm_start_transaction();
    atomic_store(&solo_idle_started, 1);
    for (uintptr_t i = 0; i < SOLO_N; i++)
        CHECK(read_counter(i) == 3, "idle thread: counter %lu is %lu, expected 3", (unsigned long)i,
              (unsigned long)read_counter(i));
    commit();
    tm_thread_detach();
    return NULL;
}

static void mode_solo(void)
{
    setup_counters(SOLO_N);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, solo_writer, NULL) == 0, "pthread_create");
    solo_wait_step(1);
    /* Take another segment than the writer's. */
    tm_start_transaction();
    CHECK(!tm_become_solo(), "solo while another thread runs a transaction");
    int mine = tm_self.segment;
    atomic_store(&solo_step, 2);
    while (atomic_load(&solo_step) < 3)
        tm_safepoint();   /* the writer's commit stops the world */
    commit();
    pthread_join(th, NULL);
    int other = atomic_load(&solo_writer_seg);
    CHECK(other != mine, "the writer ran in our segment %d", mine);
    uintptr_t page0 = (uintptr_t)counter(0) & ~(TM_PAGE_SIZE - 1), arr_so = (uintptr_t)g_root;
    CHECK(tm_page_is_private(other, page0), "the writer's segment %d has no private copy left", other);
    CHECK(tm_page_is_private(other, arr_so) && tm_page_is_private(other, arr_so + 8192),
          "the writer's segment %d has no private copy of the array left", other);

    /* Alone now: solo. */
    tm_start_transaction();
    bool solo = tm_become_solo();
    if (!tm_cfg.stm_solo) {
        CHECK(!solo, "solo under TMPY_STM_SOLO=0");
        commit();
        printf("ok solo: off (TMPY_STM_SOLO=0)\n");
        return;
    }
    CHECK(solo && tm_is_solo() && tm_is_inevitable(), "not solo though alone");
    int seg = tm_self.segment;
    size_t private_before = tm_private_page_count(seg);
    /* Every 97th counter is replaced by a new young one (one card marked
     * each; the commit's minor collection traces them), the rest written. */
    for (uintptr_t i = 0; i < SOLO_N; i++) {
        if (i % 97 == 5)
            cards_replace(i, false);
        else
            write_counter(i, read_counter(i) + 1);
    }
    CHECK(tm_private_page_count(seg) == private_before, "a solo transaction privatised pages (%zu -> %zu)",
          private_before, tm_private_page_count(seg));
    /* A thread attaching now waits for our commit. */
    CHECK(pthread_create(&th, NULL, solo_late, NULL) == 0, "pthread_create");
    solo_wait_step(5);
    CHECK(!tm_become_solo() || tm_is_solo(), "solo state lost");
    usleep(50000);
    CHECK(!atomic_load(&solo_late_started), "a transaction started beside a solo one");
    commit();
    pthread_join(th, NULL);
    CHECK(atomic_load(&solo_late_started), "the late thread never started");
    /* Every private copy holds what segment 0 holds. The solo transaction
     * re-shared every page first (none is left to compare), unless
     * TMPY_STM_TEST_SOLO_KEEPS_PRIVATE=1 kept the writer's. */
    const char *keep = getenv("TMPY_STM_TEST_SOLO_KEEPS_PRIVATE");
    bool kept = keep && *keep == '1';
    size_t copies = 0;
    for (uintptr_t i = 0; i < SOLO_N; i++) {
        uintptr_t so = (uintptr_t)((arr_t *)g_root)->items[i];
        for (int j = 1; j <= tm_seg.nsegments; j++)
            if (tm_page_is_private(j, so & ~(TM_PAGE_SIZE - 1))) {
                CHECK(!memcmp(tm_segment_base(j) + so, tm_segment_base(0) + so, sizeof(struct cnt)),
                      "counter %lu: segment %d's private copy differs from the committed one", (unsigned long)i, j);
                copies++;
            }
    }
    size_t arr_size = tm_object_size(g_root);
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (tm_page_is_private(j, arr_so)) {
            CHECK(!memcmp(tm_segment_base(j) + arr_so, tm_segment_base(0) + arr_so, arr_size),
                  "segment %d's private copy of the array differs from the committed one", j);
            copies++;
        }
    if (kept)
        CHECK(tm_page_is_private(other, page0) && tm_page_is_private(other, arr_so) && copies > SOLO_N / 2,
              "the writer's segment %d kept no private copy to check (%zu compared)", other, copies);
    /* A thread attached, between transactions: no solo while it may start
     * one, solo once it is passive. */
    CHECK(pthread_create(&th, NULL, solo_idle, NULL) == 0, "pthread_create");
    solo_wait_step(6);
    tm_start_transaction();
    CHECK(!tm_become_solo(), "solo beside an attached thread that is not passive");
    commit();
    atomic_store(&solo_step, 7);
    solo_wait_step(8);
    tm_start_transaction();
    CHECK(tm_become_solo() && tm_is_solo(), "not solo beside a passive thread");
    for (uintptr_t i = 0; i < SOLO_N; i++)
        write_counter(i, read_counter(i) + 1);
    atomic_store(&solo_step, 9);
    usleep(50000);
    CHECK(!atomic_load(&solo_idle_started), "a transaction started beside a solo one");
    commit();
    pthread_join(th, NULL);
    CHECK(atomic_load(&solo_idle_started), "the idle thread never started");
    tm_start_transaction();
    for (uintptr_t i = 0; i < SOLO_N; i++)
        CHECK(read_counter(i) == 3, "counter %lu is %lu, expected 3", (unsigned long)i, (unsigned long)read_counter(i));
    commit();
    printf("ok solo: %s, %zu private copies equal to the committed state, a late and a passive thread waited\n",
           kept ? "published into the writer's private pages" : "in place", copies);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: %s lost_update T | bank T | inevitable | overflow | major [all|pre|barrier|stress] | cards T | rawcards T | cardunits T | solo\n",
                argv[0]);
        return 2;
    }
    double t0 = now_s();
    const char *mode = argv[1];
    int T = argc > 2 ? atoi(argv[2]) : 4;
    const char *s = getenv("TMPY_TEST_SEED");
    seed = s ? strtoull(s, NULL, 0) : 1;
    scale = test_scale();
    const char *wd = getenv("TMPY_TEST_WATCHDOG");
    watchdog_s = wd ? atoi(wd) : 30;
    if (watchdog_s > 0) {
        pthread_t wt;
        CHECK(pthread_create(&wt, NULL, watchdog, NULL) == 0, "pthread_create");
        pthread_detach(wt);
    }
    tm_runtime_init_from_env();
    register_types();
    tm_add_global_root(&g_root);
    printf("info %s: seed %lu, scale %g, %d segments, nursery %zu KB%s\n", mode, (unsigned long)seed, scale,
           tm_seg.nsegments, tm_cfg.nursery_size >> 10, tm_cfg.gc_debug_move ? ", move mode" : "");
    tm_thread_attach();
    if (!strcmp(mode, "lost_update"))
        mode_lost_update(T);
    else if (!strcmp(mode, "bank"))
        mode_bank(T);
    else if (!strcmp(mode, "inevitable"))
        mode_inevitable();
    else if (!strcmp(mode, "overflow"))
        mode_overflow();
    else if (!strcmp(mode, "major"))
        mode_major(argc > 2 ? argv[2] : "all");
    else if (!strcmp(mode, "cards"))
        mode_cards(T);
    else if (!strcmp(mode, "rawcards"))
        mode_rawcards(T);
    else if (!strcmp(mode, "solo"))
        mode_solo();
    else if (!strcmp(mode, "cardunits"))
        mode_cardunits(T);
    else {
        fprintf(stderr, "unknown mode '%s'\n", mode);
        return 2;
    }
    tm_thread_detach();
    printf("ok test_stm_stress %s in %.2f s\n", mode, now_s() - t0);
    return 0;
}
