/* Weak references and finalizers in the GC (runtime/weak.c). Modes:
 *   basic    young and old referents: cleared when they die (minor and major
 *            collections), kept and followed (moved) while they live,
 *            callbacks queued only for weak references that live themselves
 *   final    registered objects: queued once when unreachable, with what they
 *            reach kept alive; weak references to them cleared first;
 *            resurrection; a cycle of registered objects; freed afterwards
 *   abort    (STM) a weak reference and a registration made in a
 *            transaction that aborts leave nothing behind
 *   threads  (STM) a referent dying in another thread's major collection; a
 *            young weak reference in a parked transaction keeps its referent
 *   stress T T threads create weak references to their own and shared
 *            objects, drop some referents and collect at random; invariants
 *            are checked against state kept in the heap (abort-safe)
 * Run with TMPY_GC_DEBUG=move and TMPY_STM_INJECT_ABORTS too. */
#include "tmrt.h"
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

typedef __seg_gs struct node {
    tm_header h;
    uintptr_t id;
    object_t *ref;       /* strong */
    uintptr_t pad;
} node_t;
typedef __seg_gs struct wref {
    tm_header h;
    uintptr_t ref_id;    /* id of the referent it was made for */
    object_t *referent;  /* weak */
    uintptr_t pad;
} wref_t;
typedef __seg_gs struct arr {
    tm_header h;
    uintptr_t len;
    object_t *items[];
} arr_t;

static uint16_t T_NODE, T_WREF, T_WQUIET, T_ARR;

static void register_types(void)
{
    T_NODE = tm_register_type(&(tm_type){.name = "node", .base_size = sizeof(struct node), .ref_words = 0x4});
    T_WREF = tm_register_type(&(tm_type){.name = "wref", .base_size = sizeof(struct wref),
                                         .weak_offset = 16, .weak_notify = true});
    T_WQUIET = tm_register_type(&(tm_type){.name = "wquiet", .base_size = sizeof(struct wref), .weak_offset = 16});
    T_ARR = tm_register_type(&(tm_type){.name = "arr", .base_size = sizeof(struct arr), .item_size = 8,
                                        .length_offset = 8, .items_are_refs = true});
}

static object_t *new_node(uintptr_t id)
{
    node_t *n = (node_t *)tm_allocate(T_NODE, sizeof(struct node));
    CHECK(n, "heap full");
    n->id = id;
    return (object_t *)n;
}

/* A weak reference to `r` (a caller that keeps r roots it: it may move). */
static object_t *new_wref(uint16_t tid, object_t *r)
{
    TM_PUSH_ROOT(r);
    wref_t *w = (wref_t *)tm_allocate(tid, sizeof(struct wref));
    TM_POP_ROOT(r);
    CHECK(w, "heap full");
    w->referent = r;
    w->ref_id = ((node_t *)r)->id;
    return (object_t *)w;
}

/* Commit and start again (inevitable): publishes this transaction's lists. */
static void next_tx(void)
{
    tm_commit_transaction();
    tm_start_transaction();
    tm_become_inevitable();
}

static object_t *new_arr(uintptr_t n)
{
    object_t *a = tm_allocate_var(T_ARR, n);
    CHECK(a, "heap full");
    return a;
}

static void set_item(object_t *a, uintptr_t i, object_t *v)
{
    tm_write(a);
    ((arr_t *)a)->items[i] = v;
}
#define ITEM(a, i) (((arr_t *)(a))->items[i])
#define REFERENT(w) (((wref_t *)(w))->referent)

static size_t drain_cleared(void)
{
    size_t n = 0;
    object_t *w;
    while ((w = tm_take_cleared_weakref())) {
        CHECK(REFERENT(w) == NULL, "a queued weak reference still has a referent");
        CHECK(w->h.tid == T_WREF, "queued a layout that did not ask for it");
        n++;
    }
    return n;
}

static void collect(bool major)
{
    if (major)
        tm_collect_major();
    else
        tm_collect_minor();
}

static void count_found(object_t *w, void *ctx)
{
    (void)w;
    ++*(size_t *)ctx;
}

/* ---- basic ---- */
static object_t *G;   /* a global root: read afresh after every allocation */

static void test_basic(void)
{
    for (int major = 0; major < 2; major++) {
        drain_cleared();
        /* G: [w_live, w_dead, w_quiet_dead, r_live, w_old, r_old, w_immediate] */
        G = new_arr(8);
        object_t *r = new_node(1);
        set_item(G, 3, r);
        set_item(G, 1, new_wref(T_WREF, new_node(2)));     /* referent dies */
        set_item(G, 2, new_wref(T_WQUIET, new_node(3)));   /* dies, quiet */
        set_item(G, 0, new_wref(T_WREF, ITEM(G, 3)));      /* referent lives */
        (void)new_wref(T_WREF, new_node(4));  /* dies with its referent: never queued */
        collect(major);
        /* Move mode collects at every allocation: the referents are old by
         * the time their weak reference exists, so only a major collection
         * finds them dead. */
        if (!major && getenv("TMPY_GC_DEBUG"))
            tm_collect_major();
        CHECK(REFERENT(ITEM(G, 0)) == ITEM(G, 3), "a live young referent not followed");
        CHECK(((node_t *)REFERENT(ITEM(G, 0)))->id == 1, "referent corrupted");
        CHECK(REFERENT(ITEM(G, 1)) == NULL, "a dead young referent not cleared");
        CHECK(REFERENT(ITEM(G, 2)) == NULL, "a dead young referent (quiet) not cleared");
        next_tx();   /* STM: what its minor collections queue is published at commit */
        CHECK(tm_gc_pending == 1, "expected exactly one queued weak reference, got %zu", (size_t)tm_gc_pending);
        object_t *q = tm_take_cleared_weakref();
        CHECK(q == ITEM(G, 1), "the wrong weak reference was queued");
        CHECK(!tm_take_cleared_weakref() && tm_gc_pending == 0, "queue not empty");

        /* Old referents: kept by minor collections, cleared by a major one. */
        set_item(G, 5, new_node(5));
        tm_collect_minor();                                 /* old now */
        set_item(G, 4, new_wref(T_WREF, ITEM(G, 5)));       /* young weak ref, old referent */
        for (int i = 0; i < 3; i++)
            tm_collect_minor();
        tm_collect_major();
        CHECK(REFERENT(ITEM(G, 4)) == ITEM(G, 5), "an old referent alive lost");
        set_item(G, 5, NULL);
        tm_collect_minor();
        CHECK(REFERENT(ITEM(G, 4)) != NULL, "a minor collection cleared an old referent");
        tm_collect_major();
        next_tx();
        CHECK(REFERENT(ITEM(G, 4)) == NULL, "a major collection kept a dead old referent");
        CHECK(drain_cleared() == 1, "expected one callback after the major collection");
        /* Immediates in a weak slot are left alone. */
        wref_t *wi = (wref_t *)tm_allocate(T_WREF, sizeof(struct wref));
        wi->referent = (object_t *)(uintptr_t)0x2b;
        set_item(G, 6, (object_t *)wi);
        tm_collect_minor();
        tm_collect_major();
        CHECK((uintptr_t)REFERENT(ITEM(G, 6)) == 0x2b, "an immediate in a weak slot changed");
        CHECK(drain_cleared() == 0, "an immediate was queued");
    }
    /* Many: every other referent dies, through moves and collections. */
    enum { N = 20000 };
    object_t *ws = new_arr(N), *rs;
    TM_PUSH_ROOT(ws);
    rs = new_arr(N);
    TM_PUSH_ROOT(rs);
    for (int i = 0; i < N; i++) {
        object_t *r = new_node((uintptr_t)i + 100);
        TM_PUSH_ROOT(r);
        object_t *w = new_wref(i % 3 ? T_WREF : T_WQUIET, r);
        TM_POP_ROOT(r);
        TM_POP_ROOT(rs);
        TM_POP_ROOT(ws);
        set_item(ws, (uintptr_t)i, w);
        if (i % 2 == 0)
            set_item(rs, (uintptr_t)i, r);
        TM_PUSH_ROOT(ws);
        TM_PUSH_ROOT(rs);
        if (i % 5000 == 4999)
            tm_collect_major();
    }
    tm_collect_major();
    TM_POP_ROOT(rs);
    TM_POP_ROOT(ws);
    size_t expect_q = 0;
    for (int i = 0; i < N; i++) {
        object_t *w = ITEM(ws, (uintptr_t)i);
        if (i % 2 == 0) {
            CHECK(REFERENT(w) == ITEM(rs, (uintptr_t)i) && ((node_t *)REFERENT(w))->id == (uintptr_t)i + 100,
                  "live referent %d lost", i);
        } else {
            CHECK(REFERENT(w) == NULL, "dead referent %d not cleared", i);
            expect_q += i % 3 != 0;
        }
    }
    next_tx();
    size_t q = drain_cleared();
    CHECK(q == expect_q, "queued %zu, expected %zu", q, expect_q);
    /* A weak reference taken from the queue and dropped is garbage: the
     * queue must not keep (or mark) it while others wait behind it. */
    G = new_arr(4);
    set_item(G, 0, new_node(50));
    set_item(G, 1, new_node(51));
    (void)new_wref(T_WREF, ITEM(G, 0));
    set_item(G, 2, new_wref(T_WREF, ITEM(G, 0)));
    set_item(G, 3, new_wref(T_WREF, ITEM(G, 1)));
    next_tx();
    tm_collect_major();
    set_item(G, 0, NULL);
    set_item(G, 1, NULL);
    next_tx();   /* STM: the committed view of what a transaction wrote is a root too */
    tm_collect_major();
    next_tx();
    CHECK(tm_gc_pending == 2, "expected 2 queued, got %zu", (size_t)tm_gc_pending);
    CHECK(tm_take_cleared_weakref() != NULL, "queue empty");
    set_item(G, 2, NULL);
    set_item(G, 3, NULL);
    next_tx();
    tm_collect_major();   /* frees the one taken */
    tm_collect_major();   /* would mark it again if the queue still listed it */
    CHECK(drain_cleared() == 1, "the other one was lost");
    /* Young weak references noted at allocation are found before any
     * collection, once each, and still once after they move. */
    G = new_arr(3);
    set_item(G, 0, new_node(60));
    set_item(G, 1, new_wref(T_WREF, ITEM(G, 0)));
    tm_weak_note_young(ITEM(G, 1));
    set_item(G, 2, new_wref(T_WQUIET, ITEM(G, 0)));
    tm_weak_note_young(ITEM(G, 2));
    size_t seen = 0;
    tm_foreach_weakref_to(ITEM(G, 0), count_found, &seen);
    CHECK(seen == 2, "young noted weak references: found %zu, expected 2", seen);
    tm_collect_minor();
    seen = 0;
    tm_foreach_weakref_to(ITEM(G, 0), count_found, &seen);
    CHECK(seen == 2, "after a minor collection: found %zu, expected 2", seen);
    next_tx();
    seen = 0;
    tm_foreach_weakref_to(ITEM(G, 0), count_found, &seen);
    CHECK(seen == 2, "after publication: found %zu, expected 2", seen);
    printf("ok basic: minor and major clear, follow, queue\n");
}

/* ---- finalizers ---- */
static void test_final(void)
{
    while (tm_take_finalizable())
        ;
    object_t *root = new_arr(4);
    TM_PUSH_ROOT(root);
    /* f -> child; a weak reference to f */
    object_t *f = new_node(10);
    TM_PUSH_ROOT(f);
    object_t *c = new_node(11);
    TM_POP_ROOT(f);
    tm_write(f);
    ((node_t *)f)->ref = c;
    tm_register_finalizer(f);
    TM_PUSH_ROOT(f);
    next_tx();
    TM_POP_ROOT(f);
    TM_PUSH_ROOT(f);
    object_t *w = new_wref(T_WREF, f);
    TM_POP_ROOT(f);
    TM_POP_ROOT(root);
    set_item(root, 0, w);
    TM_PUSH_ROOT(root);
    for (int i = 0; i < 3; i++)
        tm_collect_minor();               /* registered: kept by minor collections */
    TM_POP_ROOT(root);
    CHECK(REFERENT(ITEM(root, 0)) && ((node_t *)REFERENT(ITEM(root, 0)))->id == 10, "minor collection finalized");
    CHECK(tm_gc_pending == 0, "something queued by a minor collection");
    TM_PUSH_ROOT(root);
    tm_collect_major();
    TM_POP_ROOT(root);
    TM_PUSH_ROOT(root);
    next_tx();
    TM_POP_ROOT(root);
    CHECK(REFERENT(ITEM(root, 0)) == NULL, "weak reference to a finalizable object not cleared");
    object_t *got = tm_take_finalizable();
    CHECK(got && ((node_t *)got)->id == 10, "unreachable registered object not queued");
    CHECK(((node_t *)((node_t *)got)->ref)->id == 11, "what it references was not kept");
    CHECK(!tm_take_finalizable(), "queued twice");
    CHECK(drain_cleared() == 1, "weak callback not queued");
    /* Resurrect it: it stays, and is never queued again. */
    set_item(root, 1, got);
    TM_PUSH_ROOT(root);
    tm_collect_major();
    tm_collect_major();
    TM_POP_ROOT(root);
    CHECK(((node_t *)ITEM(root, 1))->id == 10 && !tm_take_finalizable(), "resurrected object queued again");
    set_item(root, 1, NULL);
    TM_PUSH_ROOT(root);
    tm_collect_major();
    CHECK(!tm_take_finalizable(), "finalized twice");
    /* A cycle of two registered objects: both queued once. */
    object_t *a = new_node(20);
    TM_PUSH_ROOT(a);
    object_t *b = new_node(21);
    TM_POP_ROOT(a);
    tm_write(a);
    ((node_t *)a)->ref = b;
    ((node_t *)b)->ref = a;
    tm_register_finalizer(a);
    tm_register_finalizer(b);
    next_tx();                            /* STM: registrations are the transaction's until it commits */
    tm_collect_major();
    uintptr_t ids = 0;
    int n = 0;
    while ((got = tm_take_finalizable())) {
        ids += ((node_t *)got)->id;
        n++;
        CHECK(((node_t *)((node_t *)got)->ref)->ref == got, "cycle broken");
    }
    CHECK(n == 2 && ids == 41, "cycle: %d queued", n);
    tm_collect_major();
    CHECK(!tm_take_finalizable(), "cycle queued twice");
    tm_collect_major();
    TM_POP_ROOT(root);
    printf("ok final: once, resurrection, cycles, weak refs cleared first\n");
}

/* ---- taking a registration back; finalizing reachable objects (exit) ---- */
static bool accept_all(object_t *o, void *ctx)
{
    (void)o;
    return ctx == NULL;
}

static void test_unregister_and_now(void)
{
    while (tm_take_finalizable())
        ;
    object_t *root = new_arr(4);
    TM_PUSH_ROOT(root);
    object_t *x = new_node(30);
    tm_register_finalizer(x);
    CHECK(tm_unregister_last_finalizer(x), "latest registration not taken back");
    CHECK(!tm_unregister_last_finalizer(x), "taken back twice");
    TM_POP_ROOT(root);
    set_item(root, 0, x);
    TM_PUSH_ROOT(root);
    object_t *y = new_node(31);
    TM_PUSH_ROOT(y);
    object_t *z = new_node(32);
    TM_POP_ROOT(y);
    tm_register_finalizer(y);
    tm_register_finalizer(z);
    CHECK(!tm_unregister_last_finalizer(y), "a registration that is not the latest taken back");
    next_tx();                            /* y and z published, unreachable */
    tm_collect_major();
    uintptr_t ids = 0;
    int n = 0;
    object_t *got;
    while ((got = tm_take_finalizable())) {
        ids += ((node_t *)got)->id;
        n++;
    }
    CHECK(n == 2 && ids == 63, "after taking x back: %d queued", n);
    TM_POP_ROOT(root);
    /* reachable registered objects, queued on demand */
    x = ITEM(root, 0);
    tm_register_finalizer(x);
    TM_PUSH_ROOT(root);
    object_t *p = new_node(40);
    TM_POP_ROOT(root);
    set_item(root, 1, p);
    p = ITEM(root, 1);
    tm_register_finalizer(p);
    TM_PUSH_ROOT(root);
    object_t *q = new_node(41);
    TM_POP_ROOT(root);
    set_item(root, 2, q);
    q = ITEM(root, 2);
    tm_register_finalizer(q);
    TM_PUSH_ROOT(root);
    next_tx();
    TM_POP_ROOT(root);
    CHECK(!tm_unregister_last_finalizer(ITEM(root, 2)), "a published registration taken back");
    CHECK(tm_finalize_now(ITEM(root, 1)), "registered reachable object not queued");
    CHECK(!tm_finalize_now(ITEM(root, 1)), "queued twice");
    got = tm_take_finalizable();
    CHECK(got == ITEM(root, 1) && !tm_take_finalizable(), "finalize_now queued something else");
    tm_finalize_all_now(accept_all, NULL);
    got = tm_take_finalizable();
    CHECK(got == ITEM(root, 0), "finalize_all_now: not in registration order");
    got = tm_take_finalizable();
    CHECK(got == ITEM(root, 2) && !tm_take_finalizable(), "finalize_all_now: missing or extra");
    TM_PUSH_ROOT(root);
    tm_collect_major();                   /* still reachable: nothing queued again */
    TM_POP_ROOT(root);
    CHECK(!tm_take_finalizable() && ((node_t *)ITEM(root, 2))->id == 41, "queued again or freed");
    printf("ok now: registrations taken back, reachable objects finalized on demand\n");
}

#if TM_STM
/* ---- STM: abort ---- */
static object_t *shared_root;   /* global root: [W, R, flag...] */

static void test_abort(void)
{
    static volatile int attempt;
    while (tm_take_cleared_weakref() || tm_take_finalizable())
        ;
    tm_commit_transaction();
    attempt = 0;
    tm_start_transaction();
    if (attempt++ == 0) {
        object_t *r = new_node(30);
        TM_PUSH_ROOT(r);
        object_t *w = new_wref(T_WREF, r);
        TM_POP_ROOT(r);
        tm_register_finalizer(w);
        TM_PUSH_ROOT(w);
        tm_collect_minor();                /* r dies: w cleared and queued (its own list) */
        TM_POP_ROOT(w);
        CHECK(REFERENT(w) == NULL || getenv("TMPY_GC_DEBUG"), "not cleared in the transaction");
        tm_write(shared_root);
        ITEM(shared_root, 0) = w;
        tm_abort_transaction();
    }
    CHECK(ITEM(shared_root, 0) == NULL, "the abort did not restore the root");
    tm_become_inevitable();
    tm_collect_major();
    tm_collect_major();
    CHECK(tm_gc_pending == 0 && !tm_take_cleared_weakref() && !tm_take_finalizable(),
          "an aborted transaction's weak reference or registration survived");
    printf("ok abort: nothing of an aborted transaction is queued\n");
}

/* ---- STM: threads ---- */
static atomic_int phase;

static void wait_phase(int p)
{
    while (atomic_load(&phase) < p)
        tm_safepoint();
}

static void *thread_a(void *arg)
{
    (void)arg;
    tm_thread_attach();
    /* 1: publish W -> R with both in the shared root */
    tm_start_transaction();
    object_t *r = new_node(40);
    TM_PUSH_ROOT(r);
    object_t *w = new_wref(T_WREF, r);
    TM_POP_ROOT(r);
    set_item(shared_root, 1, w);
    set_item(shared_root, 2, r);
    tm_commit_transaction();
    atomic_store(&phase, 1);
    /* 3: a young weak ref to a committed object that B then drops, kept in
     * this (parked) transaction's nursery while B collects. The test reads
     * without tm_read, so B's write of the root does not abort us. */
    tm_start_transaction();
    /* Inevitable: replayed after an injected abort, this transaction would
     * read the root after B cleared it (the phases do not run again). */
    tm_become_inevitable();
    wait_phase(2);
    r = ITEM(shared_root, 3);
    object_t *y = new_wref(T_WREF, r);
    TM_PUSH_ROOT(y);
    atomic_store(&phase, 3);
    wait_phase(5);             /* B drops r and runs a major collection meanwhile */
    TM_POP_ROOT(y);
    CHECK(REFERENT(y) && ((node_t *)REFERENT(y))->id == 41, "a young weak ref of a parked transaction lost its referent");
    set_item(shared_root, 4, y);
    tm_commit_transaction();
    tm_thread_detach();
    return NULL;
}

static void *thread_b(void *arg)
{
    (void)arg;
    tm_thread_attach();
    while (atomic_load(&phase) < 1)
        ;
    tm_start_transaction();
    object_t *w = ITEM(shared_root, 1);
    CHECK(((node_t *)REFERENT(w))->id == 40, "weak ref not visible");
    set_item(shared_root, 2, NULL);            /* R dies */
    object_t *r2 = new_node(41);
    set_item(shared_root, 3, r2);
    tm_commit_transaction();
    tm_start_transaction();
    tm_collect_major();
    CHECK(REFERENT(ITEM(shared_root, 1)) == NULL, "the referent that died was not cleared");
    tm_commit_transaction();
    atomic_store(&phase, 2);
    while (atomic_load(&phase) < 3)
        ;
    tm_start_transaction();
    set_item(shared_root, 3, NULL);
    tm_commit_transaction();
    tm_start_transaction();
    tm_collect_major();                        /* A is parked holding young y -> r2 */
    tm_commit_transaction();
    atomic_store(&phase, 5);
    tm_thread_detach();
    return NULL;
}

static void test_threads(void)
{
    tm_commit_transaction();
    pthread_t a, b;
    pthread_create(&a, NULL, thread_a, NULL);
    pthread_create(&b, NULL, thread_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    tm_start_transaction();
    tm_become_inevitable();
    CHECK(REFERENT(ITEM(shared_root, 1)) == NULL, "cleared referent came back");
    object_t *y = ITEM(shared_root, 4);
    CHECK(((node_t *)REFERENT(y))->id == 41, "referent lost after commit");
    tm_collect_major();
    CHECK(REFERENT(ITEM(shared_root, 4)) == NULL, "not cleared by the next major collection");
    CHECK(drain_cleared() == 2, "expected the two callbacks queued");
    printf("ok threads: cleared by another thread's collection; parked young weak refs keep referents\n");
}
#endif

/* ---- stress ---- */
enum { SLOTS = 64, SHARED = 32 };
static object_t *stress_root;   /* [per-thread arr of 2*SLOTS..., shared arr] */
static int nthreads;
static atomic_long queued_total, checks_total;

/* One transaction: check every slot pair of this thread, then replace some. */
static void stress_step(int t, rng_t *rng)
{
    object_t *mine = ITEM(stress_root, (uintptr_t)t);
    object_t *shared = ITEM(stress_root, (uintptr_t)nthreads);
    long checks = 0;
    for (uintptr_t i = 0; i < SLOTS; i++) {
        object_t *w = ITEM(mine, 2 * i), *s = ITEM(mine, 2 * i + 1);
        if (!w)
            continue;
        object_t *r = REFERENT(w);
        if (s)
            CHECK(r == s, "weak ref to a strongly held object changed (thread %d slot %lu)", t, (unsigned long)i);
        else
            CHECK(!r || ((node_t *)r)->id == ((wref_t *)w)->ref_id, "weak ref points to a wrong object");
        checks++;
    }
    for (int k = 0; k < 4; k++) {
        uintptr_t i = rng_below(rng, SLOTS);
        TM_PUSH_ROOT(mine);
        TM_PUSH_ROOT(shared);
        object_t *r;
        bool to_shared = rng_below(rng, 4) == 0;
        if (to_shared)
            r = ITEM(shared, rng_below(rng, SHARED));
        else
            r = new_node(rng_next(rng) >> 1);
        object_t *w = NULL;
        if (r) {
            TM_PUSH_ROOT(r);
            w = new_wref(rng_below(rng, 2) ? T_WREF : T_WQUIET, r);
            TM_POP_ROOT(r);
        }
        TM_POP_ROOT(shared);
        TM_POP_ROOT(mine);
        set_item(mine, 2 * i, w);
        set_item(mine, 2 * i + 1, !to_shared && rng_below(rng, 2) ? r : NULL);
        if (rng_below(rng, 8) == 0) {
            TM_PUSH_ROOT(mine);
            object_t *n = new_node(rng_next(rng) >> 1);
            TM_POP_ROOT(mine);
            set_item(ITEM(stress_root, (uintptr_t)nthreads), rng_below(rng, SHARED), n);
        }
    }
    uint64_t c = rng_below(rng, 64);
    if (c < 8)
        tm_collect_minor();
    else if (c == 8)
        tm_collect_major();
    atomic_fetch_add(&checks_total, checks);
}

static void *stress_thread(void *arg)
{
    int t = (int)(intptr_t)arg;
    tm_thread_attach();
    rng_t rng = {(uint64_t)t * 7919 + 1};
    int iters = (int)(2000 * test_scale());
    for (int it = 0; it < iters; it++) {
        rng_t saved = rng;
        tm_start_transaction();
        rng = saved;   /* an abort replays the same choices */
        stress_step(t, &rng);
        if (it % 50 == 0) {
            tm_become_inevitable();
            atomic_fetch_add(&queued_total, (long)drain_cleared());
        }
        tm_commit_transaction();
    }
    tm_thread_detach();
    return NULL;
}

static void test_stress(int threads)
{
    nthreads = threads;
    stress_root = new_arr((uintptr_t)threads + 1);
    tm_add_global_root(&stress_root);
    for (int t = 0; t <= threads; t++) {
        object_t *a = new_arr(t < threads ? 2 * SLOTS : SHARED);
        set_item(stress_root, (uintptr_t)t, a);
    }
    tm_commit_transaction();
    pthread_t th[16];
    for (int t = 0; t < threads; t++)
        pthread_create(&th[t], NULL, stress_thread, (void *)(intptr_t)t);
    for (int t = 0; t < threads; t++)
        pthread_join(th[t], NULL);
    tm_start_transaction();
    tm_become_inevitable();
    tm_collect_major();
    atomic_fetch_add(&queued_total, (long)drain_cleared());
    CHECK(queued_total > 0, "no weak reference was ever cleared");
    printf("ok stress: %d threads, %ld weak refs checked, %ld callbacks queued\n", threads,
           (long)checks_total, (long)queued_total);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "basic";
    tm_runtime_init_from_env();
    register_types();
    tm_thread_attach();
    tm_start_transaction();
    tm_become_inevitable();
    tm_add_global_root(&G);
    if (!strcmp(mode, "basic")) test_basic();
    else if (!strcmp(mode, "final")) test_final();
    else if (!strcmp(mode, "now")) test_unregister_and_now();
#if TM_STM
    else if (!strcmp(mode, "abort") || !strcmp(mode, "threads")) {
        shared_root = new_arr(8);
        tm_add_global_root(&shared_root);
        tm_collect_minor();
        if (!strcmp(mode, "abort"))
            test_abort();
        else
            test_threads();
    }
#endif
    else if (!strcmp(mode, "stress")) test_stress(argc > 2 ? atoi(argv[2]) : 4);
    else { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
    tm_commit_transaction();
    tm_thread_detach();
    return 0;
}
