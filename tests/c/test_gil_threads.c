/* Threads under the GIL: a deterministic-invariant test.
 *
 * Phase 1: NTHREADS threads take turns (tm_start_transaction ..
 * tm_commit_transaction), each turn allocating a few nodes and appending them
 * to one shared list reachable from global roots, and also pushing them onto
 * the chains of a shared bucket table (an old object, so every insertion goes
 * through the write barrier). Each node records (thread id, per-thread
 * sequence number) and has two more referents: a payload (varsize, contents
 * derived from key and version; some are large old objects, some are bigger
 * than the nursery limit) and a box pointing back to the node. Threads also
 * replace random nodes' payloads and boxes (written by other threads), call
 * tm_yield() in the middle of turns, and every K turns (whoever's turn it is)
 * run a major collection, sometimes in the middle of a turn with young objects
 * on the shadow stack. Each thread keeps references on its own shadow stack
 * across turns: a private chain reachable from nowhere else, and its last
 * three shared nodes. A major collection run by another thread while this one
 * waits must scan this thread's shadow stack, or the private chain is freed
 * and reused, which the checks after every turn catch.
 * At the end: exact node count, per-thread sequences complete and in order in
 * the list, every node exactly once in the bucket chains, every payload/box
 * intact.
 *
 * Phase 2: fairness, without measuring time. Thread A acquires and releases
 * the segment in a tight loop (and, in a second round, holds it and calls
 * tm_yield() in a tight loop); thread B requests it over and over, each time
 * while A is looping. A counts, under the GIL, its transactions during which
 * a waiter was queued (tm_segment_waiters != 0 at the start or the end of the
 * transaction; B is the only other thread); B reads and resets that count
 * when it gets the segment. A releaser queues behind the waiters, so A runs
 * at most one transaction (the one in progress when B queued) while B waits;
 * a releaser that could barge back in would be counted once per extra
 * acquisition. The test also
 * reports, without checking it, how often A's loop counter moved between
 * B's call to tm_start_transaction() and its return: that includes B's own
 * latency to reach the queue (a few hundred ns are several of A's yield
 * loops), so it is not a measure of the handoff.
 *
 * TMPY_TEST_SCALE multiplies the turn and request counts. Under valgrind
 * (detected, or TMPY_VALGRIND set) phase 2 makes at most 100 requests. */
#include "tmrt.h"
#include "testutil.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#define NTHREADS 4
#define NBUCKETS 1024
#define PRIV_MAX 300
#define NOWN 3                       /* own shared nodes kept on the shadow stack */
#define NROOTS (1 + NOWN)            /* [0]: private chain, [1..NOWN]: own nodes */
#define PRIV_TAG 0x5052495600000000ULL

typedef __seg_gs struct node node_t;
typedef __seg_gs struct box box_t;
typedef __seg_gs struct payload payload_t;
typedef __seg_gs struct table table_t;
typedef __seg_gs struct priv priv_t;

struct node {
    tm_header h;
    node_t *next;          /* word 1: the shared list, in insertion order */
    node_t *bnext;         /* word 2: the bucket chain */
    payload_t *payload;    /* word 3 */
    box_t *box;            /* word 4 */
    uintptr_t key;         /* (tid << 32) | seq */
    uintptr_t ver;         /* payload version */
};
struct box {
    tm_header h;
    node_t *owner;         /* word 1 */
    uintptr_t key;
};
struct payload {
    tm_header h;
    uintptr_t len;         /* word 1: item count */
    uintptr_t key, ver;
    uintptr_t items[];
};
struct table {
    tm_header h;
    uintptr_t len;
    node_t *items[];
};
struct priv {
    tm_header h;
    priv_t *next;          /* word 1 */
    uintptr_t tag, idx;
};

static uint16_t T_NODE, T_BOX, T_PAYLOAD, T_TABLE, T_PRIV;

/* Global roots. */
static node_t *shared_head, *shared_tail;
static table_t *buckets;

/* Shared bookkeeping, only touched while holding the segment. */
static uint64_t inserted[NTHREADS];   /* nodes inserted by each thread */
static uint64_t global_turn, majors_forced, mid_turn_majors, yield_points, yields_done, mutations, full_checks;
static int turns_per_thread, major_every;

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c)
{
    rng_t r = {a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) ^ (c << 17)};
    return rng_next(&r);
}

static uintptr_t payload_len(uintptr_t key, uintptr_t ver)
{
    uint64_t h = mix(key, ver, 0xffff);
    unsigned r = (unsigned)(h % 1000);
    if (r == 0)
        return 9000;       /* 72 KB: bigger than the nursery limit, young outside */
    if (r < 12)
        return 300;        /* 2.4 KB: a large old object once it survives */
    return (uintptr_t)(h >> 32) % 13;
}

static unsigned bucket_of(uintptr_t key) { return (unsigned)(mix(key, 7, 7) % NBUCKETS); }

static object_t *as_obj(void __seg_gs *p) { return (object_t *)p; }

/* A payload for (key, ver), filled; may collect. */
static payload_t *new_payload(uintptr_t key, uintptr_t ver)
{
    uintptr_t n = payload_len(key, ver);
    payload_t *p = (payload_t *)tm_allocate_var(T_PAYLOAD, n);
    CHECK(p != NULL, "payload allocation of %lu items failed", (unsigned long)n);
    p->key = key;
    p->ver = ver;
    for (uintptr_t i = 0; i < n; i++)
        p->items[i] = mix(key, ver, i);
    return p;
}

static void check_node(node_t *n, const char *where)
{
    CHECK(n != NULL, "%s: null node", where);
    CHECK(n->h.tid == T_NODE, "%s: node has type %u", where, n->h.tid);
    uintptr_t key = n->key;
    CHECK((key >> 32) < NTHREADS, "%s: node key %#lx", where, (unsigned long)key);
    payload_t *p = n->payload;
    CHECK(p != NULL && p->h.tid == T_PAYLOAD, "%s: node %#lx payload type", where, (unsigned long)key);
    CHECK(p->key == key && p->ver == n->ver, "%s: node %#lx ver %lu has payload of %#lx ver %lu", where,
          (unsigned long)key, (unsigned long)n->ver, (unsigned long)p->key, (unsigned long)p->ver);
    uintptr_t len = payload_len(key, n->ver);
    CHECK(p->len == len, "%s: payload of %#lx has %lu items, expected %lu", where, (unsigned long)key,
          (unsigned long)p->len, (unsigned long)len);
    for (uintptr_t i = 0; i < len; i++)
        CHECK(p->items[i] == mix(key, n->ver, i), "%s: payload of %#lx item %lu corrupt", where,
              (unsigned long)key, (unsigned long)i);
    box_t *b = n->box;
    CHECK(b != NULL && b->h.tid == T_BOX, "%s: node %#lx box type", where, (unsigned long)key);
    CHECK(b->owner == n && b->key == key, "%s: node %#lx box points elsewhere", where, (unsigned long)key);
}

/* Walk the list and the buckets; with the segment held. Returns the node count. */
static uint64_t check_structure(const char *where)
{
    uint64_t expect_total = 0, base[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        base[t] = expect_total;
        expect_total += inserted[t];
    }
    uint8_t *seen = calloc(expect_total + 1, 1);
    CHECK(seen != NULL, "out of C memory");
    uint64_t next_seq[NTHREADS] = {0}, count = 0;
    node_t *last = NULL;
    for (node_t *n = shared_head; n; n = n->next) {
        check_node(n, where);
        unsigned t = (unsigned)(n->key >> 32);
        uint64_t seq = n->key & 0xffffffffu;
        CHECK(seq == next_seq[t], "%s: thread %u: seq %lu in the list where %lu was expected", where, t,
              (unsigned long)seq, (unsigned long)next_seq[t]);
        next_seq[t]++;
        CHECK(++count <= expect_total, "%s: more than %lu nodes in the list", where, (unsigned long)expect_total);
        last = n;
    }
    CHECK(last == shared_tail, "%s: the tail is not the last node", where);
    for (int t = 0; t < NTHREADS; t++)
        CHECK(next_seq[t] == inserted[t], "%s: thread %d has %lu nodes in the list, inserted %lu", where, t,
              (unsigned long)next_seq[t], (unsigned long)inserted[t]);
    CHECK(count == expect_total, "%s: %lu nodes, expected %lu", where, (unsigned long)count,
          (unsigned long)expect_total);
    CHECK(buckets->len == NBUCKETS, "%s: bucket table length %lu", where, (unsigned long)buckets->len);
    uint64_t in_buckets = 0;
    for (unsigned b = 0; b < NBUCKETS; b++) {
        for (node_t *n = buckets->items[b]; n; n = n->bnext) {
            CHECK(n->h.tid == T_NODE, "%s: bucket %u holds type %u", where, b, n->h.tid);
            unsigned t = (unsigned)(n->key >> 32);
            uint64_t seq = n->key & 0xffffffffu;
            CHECK(t < NTHREADS && seq < inserted[t], "%s: bucket %u holds key %#lx", where, b,
                  (unsigned long)n->key);
            CHECK(bucket_of(n->key) == b, "%s: key %#lx in bucket %u", where, (unsigned long)n->key, b);
            CHECK(!seen[base[t] + seq]++, "%s: key %#lx twice in the buckets", where, (unsigned long)n->key);
            CHECK(++in_buckets <= expect_total, "%s: bucket chains too long", where);
        }
    }
    CHECK(in_buckets == expect_total, "%s: %lu nodes in buckets, expected %lu", where,
          (unsigned long)in_buckets, (unsigned long)expect_total);
    free(seen);
    return count;
}

typedef struct worker {
    int tid;
    rng_t rng;
    object_t **roots;           /* NROOTS slots on this thread's shadow stack */
    uint64_t priv_len;
    uintptr_t own_key[NOWN];    /* key of roots[1 + i], or ~0 */
    uint64_t priv_checks;
    uint64_t mine;              /* nodes this thread inserted, counted here */
} worker;

static void check_my_roots(worker *w, const char *where)
{
    uint64_t n = 0;
    uintptr_t tag = PRIV_TAG ^ (uintptr_t)w->tid;
    for (priv_t *p = (priv_t *)w->roots[0]; p; p = p->next) {
        CHECK(n < w->priv_len, "%s: thread %d private chain longer than %lu", where, w->tid,
              (unsigned long)w->priv_len);
        CHECK(p->h.tid == T_PRIV && p->tag == tag && p->idx == w->priv_len - 1 - n,
              "%s: thread %d private chain entry %lu corrupt (type %u tag %#lx idx %lu): "
              "freed while the thread waited?", where, w->tid, (unsigned long)n, p->h.tid,
              (unsigned long)p->tag, (unsigned long)p->idx);
        n++;
    }
    CHECK(n == w->priv_len, "%s: thread %d private chain has %lu entries, expected %lu", where, w->tid,
          (unsigned long)n, (unsigned long)w->priv_len);
    for (int i = 0; i < NOWN; i++) {
        node_t *nd = (node_t *)w->roots[1 + i];
        if (w->own_key[i] == ~(uintptr_t)0) {
            CHECK(nd == NULL, "%s: unused root slot not null", where);
            continue;
        }
        check_node(nd, where);
        CHECK(nd->key == w->own_key[i], "%s: thread %d root %d holds %#lx, expected %#lx", where, w->tid, i,
              (unsigned long)nd->key, (unsigned long)w->own_key[i]);
    }
    w->priv_checks++;
}

/* Allocate a node with its payload and box and link it in; returns it (no
 * allocation happens after the return before the caller uses it). */
static node_t *insert_node(worker *w)
{
    uintptr_t key = ((uintptr_t)w->tid << 32) | inserted[w->tid];
    payload_t *p = new_payload(key, 0);
    TM_PUSH_ROOT(p);
    node_t *n = (node_t *)tm_allocate(T_NODE, sizeof(struct node));
    TM_POP_ROOT(p);
    CHECK(n != NULL, "node allocation failed");
    n->key = key;                 /* just allocated: no barrier */
    n->payload = p;
    TM_PUSH_ROOT(n);
    box_t *b = (box_t *)tm_allocate(T_BOX, sizeof(struct box));
    TM_POP_ROOT(n);
    CHECK(b != NULL, "box allocation failed");
    b->owner = n;
    b->key = key;
    tm_write(as_obj(n));          /* n may have been moved to old space */
    n->box = b;
    if (!shared_tail) {
        shared_head = shared_tail = n;
    } else {
        tm_write(as_obj(shared_tail));
        shared_tail->next = n;
        shared_tail = n;
    }
    unsigned bk = bucket_of(key);
    n->bnext = buckets->items[bk];
    tm_write(as_obj(buckets));
    buckets->items[bk] = n;
    inserted[w->tid]++;
    return n;
}

/* Give a random node (any thread's) a new payload version, sometimes a new box. */
static void mutate_random(worker *w)
{
    /* Draw every random number first, so that a thread's sequence of
     * choices does not depend on how the threads interleave. */
    unsigned bk = (unsigned)rng_below(&w->rng, NBUCKETS);
    int steps = (int)rng_below(&w->rng, 6);
    bool new_box = rng_below(&w->rng, 4) == 0;
    node_t *n = buckets->items[bk];
    for (; n && n->bnext && steps > 0; steps--)
        n = n->bnext;
    if (!n)
        return;
    TM_PUSH_ROOT(n);
    payload_t *p = new_payload(n->key, n->ver + 1);
    TM_POP_ROOT(n);
    tm_write(as_obj(n));
    n->ver++;
    n->payload = p;
    if (new_box) {
        TM_PUSH_ROOT(n);
        box_t *b = (box_t *)tm_allocate(T_BOX, sizeof(struct box));
        TM_POP_ROOT(n);
        CHECK(b != NULL, "box allocation failed");
        b->owner = n;
        b->key = n->key;
        tm_write(as_obj(n));
        n->box = b;
    }
    mutations++;
}

static void add_private(worker *w)
{
    if (w->priv_len == PRIV_MAX) {     /* drop the chain: it becomes garbage */
        w->roots[0] = NULL;
        w->priv_len = 0;
    }
    priv_t *p = (priv_t *)tm_allocate(T_PRIV, sizeof(struct priv));
    CHECK(p != NULL, "priv allocation failed");
    p->tag = PRIV_TAG ^ (uintptr_t)w->tid;
    p->idx = w->priv_len;
    p->next = (priv_t *)w->roots[0];   /* read the root after the allocation */
    w->roots[0] = as_obj(p);
    w->priv_len++;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    tm_thread_attach();
    tm_start_transaction();
    w->roots = tm_self.ss_top;
    for (int i = 0; i < NROOTS; i++)
        TM_PUSH_ROOT(NULL);
    for (int i = 0; i < NOWN; i++)
        w->own_key[i] = ~(uintptr_t)0;
    tm_commit_transaction();

    for (int turn = 0; turn < turns_per_thread; turn++) {
        tm_start_transaction();
        CHECK(TM_SHADOWSTACK_DEPTH() == NROOTS, "shadow stack depth %zu at turn start",
              TM_SHADOWSTACK_DEPTH());
        check_my_roots(w, "turn start");
        int nalloc = 1 + (int)rng_below(&w->rng, 6);
        for (int k = 0; k < nalloc; k++) {
            node_t *n = insert_node(w);
            w->mine++;
            int slot = (int)(inserted[w->tid] % NOWN);
            w->roots[1 + slot] = as_obj(n);
            w->own_key[slot] = n->key;
            uint64_t r = rng_below(&w->rng, 256);
            if (r < 24) {
                /* yield in the middle of a turn with a young node on the stack */
                uintptr_t key = n->key;
                uint64_t acq = tm_self.acquisitions;
                TM_PUSH_ROOT(n);
                tm_yield();
                TM_POP_ROOT(n);
                yield_points++;
                if (tm_self.acquisitions != acq)
                    yields_done++;   /* another thread ran in between */
                CHECK(n->key == key, "node changed across tm_yield");
                check_node(n, "after yield");
                check_my_roots(w, "after yield");
            } else if (r == 24) {
                uintptr_t key = n->key;
                TM_PUSH_ROOT(n);
                tm_collect_major();
                TM_POP_ROOT(n);
                mid_turn_majors++;
                CHECK(n->key == key, "node changed across a major collection");
                check_node(n, "after mid-turn major");
                check_my_roots(w, "after mid-turn major");
            }
            if (rng_below(&w->rng, 3) == 0)
                add_private(w);
        }
        if (rng_below(&w->rng, 3) == 0)
            mutate_random(w);
        if (++global_turn % (uint64_t)major_every == 0) {
            tm_collect_major();
            majors_forced++;
            check_my_roots(w, "after major");
            if (majors_forced % 8 == 0) {
                check_structure("during the run");
                full_checks++;
            }
        }
        tm_commit_transaction();
    }

    tm_start_transaction();
    check_my_roots(w, "last turn");
    tm_self.ss_top -= NROOTS;
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

/* ---- phase 2: fairness ---- */

static atomic_int fair_stop;
static atomic_ulong a_loops;           /* A's transactions (or yield points) so far */
static uint64_t a_seen_waiting;        /* under the GIL: A's transactions that saw a waiter */
static uint64_t a_any_waiting;         /* A's turns (fresh or not) that saw a waiter: B did queue */
static int fair_yield_mode;
/* Valgrind runs one thread at a time and hands over only at system calls or
 * the end of a long time slice: there A gives up the CPU in every turn (while
 * holding the segment) so that B gets to make its requests at all. */
static int under_valgrind;

/* One of A's turns: a little allocation (so that commit has a minor
 * collection to do); counts the turn if B was queued at its start or end.
 * In yield mode A keeps the segment across tm_yield() until B has waited a
 * switch interval (that is the point of the interval), so there a turn is
 * counted only when A has just (re-)acquired the segment: A must not get
 * it back while B is queued. */
static uint64_t a_last_acquisitions;
static void fair_a_body(void)
{
    bool fresh = tm_self.acquisitions != a_last_acquisitions;
    a_last_acquisitions = tm_self.acquisitions;
    bool waiter = tm_segment_waiters != 0;
    atomic_fetch_add_explicit(&a_loops, 1, memory_order_relaxed);
    for (int i = 0; i < 4; i++)
        (void)tm_allocate(T_PRIV, sizeof(struct priv));
    if (under_valgrind)
        sched_yield();
    if (waiter || tm_segment_waiters != 0) {
        a_any_waiting++;
        if (fresh || !fair_yield_mode)
            a_seen_waiting++;
    }
}

static void *fair_a(void *arg)
{
    (void)arg;
    tm_thread_attach();
    if (fair_yield_mode) {
        tm_start_transaction();
        while (!atomic_load_explicit(&fair_stop, memory_order_relaxed)) {
            fair_a_body();
            tm_yield();
        }
        tm_commit_transaction();
    } else {
        while (!atomic_load_explicit(&fair_stop, memory_order_relaxed)) {
            tm_start_transaction();
            fair_a_body();
            tm_commit_transaction();
        }
    }
    tm_thread_detach();
    return NULL;
}

typedef struct fair_result {
    int requests, waited;
    uint64_t max_seen, hist[4];      /* A's transactions while B was queued, per request: 0, 1, 2, >2 */
    uint64_t max_naive, naive_over2; /* A's loops between B's call and its grant (includes B's latency) */
} fair_result;

/* Wait (a bounded while) until A's loop counter moves past `seen`: yield the
 * CPU first, then sleep a little (under valgrind, which runs one thread at a
 * time, yielding alone can keep A from running for a long time). */
static void wait_for_a(uint64_t seen)
{
    for (unsigned i = 0; atomic_load(&a_loops) == seen && i < 100000; i++) {
        if (i < 100)
            sched_yield();
        else
            nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
    }
}

static void fairness_round(int yield_mode, int requests, fair_result *res)
{
    memset(res, 0, sizeof *res);
    fair_yield_mode = yield_mode;
    atomic_store(&fair_stop, 0);
    atomic_store(&a_loops, 0);
    a_seen_waiting = a_any_waiting = 0;
    tm_thread_attach();    /* this thread is B */
    pthread_t a;
    CHECK(pthread_create(&a, NULL, fair_a, NULL) == 0, "pthread_create");
    /* Let A get going. */
    while (atomic_load(&a_loops) < 100)
        wait_for_a(atomic_load(&a_loops));
    rng_t rng = {12345 + (uint64_t)yield_mode};
    uint64_t last = 0;
    for (int r = 0; r < requests; r++) {
        /* Request only while A is looping: wait until it has run a turn since
         * our last grant (yielding the CPU, which A may be queued on), then
         * let it run for a random while longer. */
        wait_for_a(last);
        for (volatile unsigned spin = (unsigned)rng_below(&rng, 3000); spin; spin--)
            ;
        uint64_t c0 = atomic_load(&a_loops);
        tm_start_transaction();
        uint64_t c1 = last = atomic_load(&a_loops);
        uint64_t seen = a_seen_waiting, queued = a_any_waiting;
        a_seen_waiting = a_any_waiting = 0;
        tm_commit_transaction();
        res->requests++;
        if (queued)
            res->waited++;   /* A saw B queued: the bound on `seen` was put to the test */
        if (seen > res->max_seen)
            res->max_seen = seen;
        res->hist[seen > 2 ? 3 : seen]++;
        uint64_t naive = c1 - c0;
        if (naive > res->max_naive)
            res->max_naive = naive;
        if (naive > 2)
            res->naive_over2++;
    }
    atomic_store(&fair_stop, 1);
    pthread_join(a, NULL);
    tm_thread_detach();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    double t0 = now_s();
    setvbuf(stdout, NULL, _IOLBF, 0);
    tm_runtime_init_from_env();
    double scale = test_scale();
    turns_per_thread = (int)(3000 * scale);   /* TMPY_GC_DEBUG=move is fast enough at full scale */
    if (turns_per_thread < 20)
        turns_per_thread = 20;
    major_every = 37;
    under_valgrind = RUNNING_ON_VALGRIND || getenv("TMPY_VALGRIND");
    int fair_requests = (int)(2000 * scale);
    if (fair_requests < 50)
        fair_requests = 50;
    if (under_valgrind && fair_requests > 100)
        fair_requests = 100;

    T_NODE = tm_register_type(&(tm_type){.name = "node", .base_size = sizeof(struct node),
                                         .ref_words = (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4)});
    T_BOX = tm_register_type(&(tm_type){.name = "box", .base_size = sizeof(struct box), .ref_words = 1u << 1});
    T_PAYLOAD = tm_register_type(&(tm_type){.name = "payload", .base_size = sizeof(struct payload),
                                            .item_size = 8, .length_offset = 8});
    T_TABLE = tm_register_type(&(tm_type){.name = "table", .base_size = sizeof(struct table), .item_size = 8,
                                          .length_offset = 8, .items_are_refs = true});
    T_PRIV = tm_register_type(&(tm_type){.name = "priv", .base_size = sizeof(struct priv), .ref_words = 1u << 1});
    tm_add_global_root((object_t **)&shared_head);
    tm_add_global_root((object_t **)&shared_tail);
    tm_add_global_root((object_t **)&buckets);

    /* Short switch intervals: phase 2 makes thousands of requests to a holder
     * that only yields, each of which waits one interval. */
    tm_set_switch_interval_ns(20000);
    tm_thread_attach();
    tm_start_transaction();
    buckets = (table_t *)tm_allocate_var(T_TABLE, NBUCKETS);
    CHECK(buckets != NULL, "table allocation failed");
    tm_commit_transaction();

    /* ---- phase 1 ---- */
    double t1 = now_s();
    tm_gc_stats st0, st1;
    tm_gc_get_stats(&st0);
    pthread_t th[NTHREADS];
    worker ws[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        ws[t] = (worker){.tid = t, .rng = {0x1234567ULL * (uint64_t)(t + 1)}};
        CHECK(pthread_create(&th[t], NULL, worker_main, &ws[t]) == 0, "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    tm_start_transaction();
    uint64_t total = check_structure("final");
    tm_collect_major();
    CHECK(check_structure("final, after a major collection") == total, "node count changed");
    tm_commit_transaction();
    tm_gc_get_stats(&st1);
    uint64_t priv_checks = 0, mine = 0;
    for (int t = 0; t < NTHREADS; t++) {
        priv_checks += ws[t].priv_checks;
        mine += ws[t].mine;
        CHECK(ws[t].mine == inserted[t], "thread %d counted %lu insertions, the shared count says %lu", t,
              (unsigned long)ws[t].mine, (unsigned long)inserted[t]);
    }
    CHECK(total == mine, "%lu nodes in the structure, %lu inserted", (unsigned long)total, (unsigned long)mine);
    printf("ok gil threads: %d threads x %d turns, %lu nodes, every thread's sequence complete and in order, "
           "each node once in the buckets, payloads and boxes intact\n",
           NTHREADS, turns_per_thread, (unsigned long)total);
    printf("ok gil threads: %lu forced major collections (%lu mid-turn, %lu by allocation), %lu minor; "
           "%lu tm_yield() calls (%lu handed over), %lu mutations, %lu full checks, %lu shadow-stack checks (%.2f s)\n",
           (unsigned long)majors_forced, (unsigned long)mid_turn_majors,
           (unsigned long)(st1.major_collections - st0.major_collections - majors_forced - mid_turn_majors - 1),
           (unsigned long)(st1.minor_collections - st0.minor_collections), (unsigned long)yield_points, (unsigned long)yields_done,
           (unsigned long)mutations, (unsigned long)full_checks, (unsigned long)priv_checks, now_s() - t1);
    tm_thread_detach();

    /* ---- phase 2 ---- */
    for (int mode = 0; mode < 2; mode++) {
        fair_result res;
        double tf = now_s();
        fairness_round(mode, fair_requests, &res);
        tf = now_s() - tf;
        const char *what = mode ? "A holds the segment and calls tm_yield() in a loop"
                                : "A starts and commits in a loop";
        CHECK(res.max_seen <= 2, "fairness (%s): A ran %lu transactions while B waited for the segment "
              "(FIFO handoff allows 1); per request: %lu x0, %lu x1, %lu x2, %lu x>2", what,
              (unsigned long)res.max_seen, (unsigned long)res.hist[0], (unsigned long)res.hist[1],
              (unsigned long)res.hist[2], (unsigned long)res.hist[3]);
        CHECK(res.waited > 0, "fairness (%s): B never had to wait in %d requests: the check proved nothing",
              what, res.requests);
        printf("ok fairness (%s): %d requests by B, %d queued behind A; A's transactions while B was queued: "
               "max %lu (0: %lu, 1: %lu, 2: %lu) [info: A's loop counter moved by >2 during B's "
               "tm_start_transaction() %lu times, max %lu] (%.2f s)\n",
               what, res.requests, res.waited, (unsigned long)res.max_seen, (unsigned long)res.hist[0],
               (unsigned long)res.hist[1], (unsigned long)res.hist[2], (unsigned long)res.naive_over2,
               (unsigned long)res.max_naive, tf);
    }
    printf("ok test_gil_threads in %.2f s\n", now_s() - t0);
    return 0;
}
