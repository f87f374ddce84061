/* alloc_bench: micro-benchmarks of the tmpy GC (libtmrt).
 *
 *   1. small-object allocation throughput (16/32/48-byte objects, almost all
 *      garbage: only a sliding window of the last few stays on the shadow stack);
 *   2. minor-collection time per MB surviving, for a nursery whose contents
 *      fully survive (a linked list, a binary tree) and for ~10% survival;
 *   3. major-collection time for a heap of N live old objects.
 *
 * TMPY_BENCH_SCALE (a positive number, default 1) multiplies the allocation
 * count, the number of timed repetitions and the size of the major-GC heap.
 * The runtime's own TMPY_* variables (e.g. TMPY_NURSERY_SIZE) apply as usual. */
#define _GNU_SOURCE
#include "tmrt.h"
#define BENCH_NAME "alloc_bench"
#include "benchutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* ---- object types ---------------------------------------------------- */

typedef __seg_gs struct node16 {
    tm_header h;
    struct node16 __seg_gs *next;
} node16_t;

typedef __seg_gs struct node32 {
    tm_header h;
    struct node32 __seg_gs *next;
    uintptr_t val;
    uintptr_t pad;
} node32_t;

typedef __seg_gs struct node48 {
    tm_header h;
    struct node48 __seg_gs *next;
    uintptr_t val;
    uintptr_t pad[3];
} node48_t;

typedef __seg_gs struct tnode {
    tm_header h;
    struct tnode __seg_gs *left, *right;
    uintptr_t val;
} tnode_t;

_Static_assert(sizeof(struct node16) == 16, "node16 size");
_Static_assert(sizeof(struct node32) == 32, "node32 size");
_Static_assert(sizeof(struct node48) == 48, "node48 size");
_Static_assert(sizeof(struct tnode) == 32, "tnode size");

static uint16_t tid16, tid32, tid48, tidtree;

/* ---- helpers --------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long minflt(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

static tm_gc_stats stats(void)
{
    tm_gc_stats s;
    tm_gc_get_stats(&s);
    return s;
}

static size_t nursery_size(void) { return tm_seg.nursery_end - tm_seg.nursery_start; }
static size_t nursery_used(void) { return TM_SEGLOCAL->nursery_current - tm_seg.nursery_start; }

#define MB (1024.0 * 1024.0)

/* ---- 1. small-object allocation -------------------------------------- */

#define WINDOW 8   /* live objects kept on the shadow stack (a power of 2) */

/* mode: 16, 32 or 48 for one size, 0 for the 16/32/48 mix. */
static void bench_small(int mode, size_t count)
{
    static const struct { uint16_t *tid; size_t size; } kinds[3] = {
        {&tid16, 16}, {&tid32, 32}, {&tid48, 48},
    };
    uint16_t tids[3] = {*kinds[0].tid, *kinds[1].tid, *kinds[2].tid};
    int only = mode == 16 ? 0 : mode == 32 ? 1 : mode == 48 ? 2 : -1;

    for (int i = 0; i < WINDOW; i++)
        TM_PUSH_ROOT(NULL);
    object_t **win = tm_self.ss_top - WINDOW;   /* the shadow stack never moves */

    tm_collect_minor();
    tm_gc_stats s0 = stats();
    double t0 = now_s();
    size_t bytes = 0;
    if (only >= 0) {
        uint16_t tid = tids[only];
        size_t size = kinds[only].size;
        for (size_t i = 0; i < count; i++) {
            object_t *o = tm_allocate(tid, size);
            if (__builtin_expect(!o, 0))
                die("heap exhausted in the small-object benchmark");
            /* touch the object beyond its header (node16 has only its reference) */
            if (size >= 32)
                ((node32_t *)o)->val = i;
            win[i & (WINDOW - 1)] = o;
        }
        bytes = count * size;
    } else {
        unsigned k = 0;
        for (size_t i = 0; i < count; i++) {
            size_t size = kinds[k].size;
            object_t *o = tm_allocate(tids[k], size);
            if (__builtin_expect(!o, 0))
                die("heap exhausted in the small-object benchmark");
            if (size >= 32)
                ((node32_t *)o)->val = i;
            win[i & (WINDOW - 1)] = o;
            bytes += size;
            k = k == 2 ? 0 : k + 1;
        }
    }
    double t = now_s() - t0;
    tm_gc_stats s1 = stats();

    /* the window must still hold the last WINDOW objects, intact */
    for (size_t j = 0; j < WINDOW && j < count; j++) {
        size_t i = count - 1 - j;
        object_t *o = win[i & (WINDOW - 1)];
        uint16_t want = only >= 0 ? tids[only] : tids[i % 3];
        if (!o || o->h.tid != want)
            die("window object lost or corrupted (GC bug?)");
        if (o->h.tid != tid16 && ((node32_t *)o)->val != i)
            die("window object has a wrong value (GC bug?)");
    }
    for (int i = 0; i < WINDOW; i++) {
        object_t *dummy;
        TM_POP_ROOT(dummy);
        (void)dummy;
    }

    uint64_t minors = s1.minor_collections - s0.minor_collections;
    double gc_s = (double)(s1.minor_ns - s0.minor_ns) * 1e-9;
    char label[32];
    if (only >= 0)
        snprintf(label, sizeof label, "%d B", mode);
    else
        snprintf(label, sizeof label, "16/32/48 B mix");
    printf("  %-15s %6.1f Mobjects/s  %7.0f MB/s  %zu objects in %.3f s, "
           "%llu minor GCs (%.1f%% of the time, %.3f ms each)\n",
           label, (double)count / t / 1e6, (double)bytes / MB / t, count, t,
           (unsigned long long)minors, 100.0 * gc_s / t, minors ? gc_s * 1e3 / (double)minors : 0.0);
}

/* ---- 2. minor collections with survivors ----------------------------- */

/* A binary tree of n nodes; every node survives as long as the result is rooted. */
static tnode_t *build_tree(size_t n, uintptr_t *counter)
{
    if (n == 0)
        return NULL;
    size_t nl = (n - 1) / 2, nr = n - 1 - nl;
    tnode_t *l = build_tree(nl, counter);
    TM_PUSH_ROOT(l);
    tnode_t *r = build_tree(nr, counter);
    TM_PUSH_ROOT(r);
    tnode_t *t = (tnode_t *)tm_allocate(tidtree, sizeof(struct tnode));
    TM_POP_ROOT(r);
    TM_POP_ROOT(l);
    if (!t)
        die("heap exhausted building a tree");
    t->left = l;   /* t is young: no write barrier needed */
    t->right = r;
    t->val = (*counter)++;
    return t;
}

static size_t tree_count(tnode_t *t)
{
    size_t n = 0;
    /* iterative on a C stack of references: nothing allocates here */
    size_t cap = 64, top = 0;
    tnode_t **stack = xalloc(cap * sizeof *stack);
    if (t)
        stack[top++] = t;
    while (top) {
        tnode_t *x = stack[--top];
        n++;
        if (top + 2 > cap) {
            cap *= 2;
            stack = realloc(stack, cap * sizeof *stack);
            if (!stack)
                die("out of C memory");
        }
        if (x->left)
            stack[top++] = x->left;
        if (x->right)
            stack[top++] = x->right;
    }
    free(stack);
    return n;
}

enum shape { LIST, TREE };

/* Fills `fill` of the nursery with 32-byte objects, of which every
 * `keep_every`-th is reachable (a list), or all of them (a tree), then times
 * tm_collect_minor() alone. */
static void bench_minor(const char *label, enum shape shape, unsigned keep_every, double fill, size_t reps)
{
    double *ms = xalloc(reps * sizeof *ms), *per_mb = xalloc(reps * sizeof *per_mb),
           *per_nmb = xalloc(reps * sizeof *per_nmb), *faults = xalloc(reps * sizeof *faults);
    size_t nobj = (size_t)((double)nursery_size() * fill) / 32;
    uint64_t survived_last = 0;
    size_t used_last = 0, reachable = 0;

    for (size_t r = 0; r < reps; r++) {
        /* Start from an empty nursery and an old space holding nothing of
         * the previous repetition (untimed). */
        tm_collect_major();
        if (nursery_used() != 0)
            die("the nursery is not empty after a collection");
        uint64_t minors0 = stats().minor_collections;

        object_t *root = NULL;
        uintptr_t counter = 0;
        if (shape == TREE) {
            root = (object_t *)build_tree(nobj, &counter);
            reachable = nobj;
        } else {
            node32_t *head = NULL;
            reachable = 0;
            for (size_t i = 0; i < nobj; i++) {
                TM_PUSH_ROOT(head);
                node32_t *n = (node32_t *)tm_allocate(tid32, sizeof(struct node32));
                TM_POP_ROOT(head);
                if (!n)
                    die("heap exhausted building a list");
                n->val = i;
                if (i % keep_every == 0) {
                    n->next = head;   /* n is young: no barrier */
                    head = n;
                    reachable++;
                }
            }
            root = (object_t *)head;
        }
        TM_PUSH_ROOT(root);
        if (stats().minor_collections != minors0)
            die("a minor collection ran while building the structure: lower the fill factor");

        size_t used = nursery_used();
        tm_gc_stats s0 = stats();
        long f0 = minflt();
        double t0 = now_s();
        tm_collect_minor();
        double t = now_s() - t0;
        long f1 = minflt();
        tm_gc_stats s1 = stats();
        TM_POP_ROOT(root);

        if (s1.minor_collections != s0.minor_collections + 1)
            die("tm_collect_minor() did not collect");
        uint64_t survived = s1.bytes_survived - s0.bytes_survived;
        if (survived != (uint64_t)reachable * 32)
            die("bytes_survived does not match the reachable objects (GC bug?)");
        /* the structure must be intact in old space */
        if (shape == TREE) {
            if (tree_count((tnode_t *)root) != reachable)
                die("the promoted tree lost nodes (GC bug?)");
        } else {
            size_t n = 0;
            uintptr_t expect = (nobj - 1) / keep_every * keep_every;
            for (node32_t *p = (node32_t *)root; p; p = p->next, n++, expect -= keep_every)
                if (p->val != expect || p->h.tid != tid32)
                    die("the promoted list is corrupted (GC bug?)");
            if (n != reachable)
                die("the promoted list lost nodes (GC bug?)");
        }

        ms[r] = t * 1e3;
        per_mb[r] = ms[r] / ((double)survived / MB);
        per_nmb[r] = ms[r] / ((double)used / MB);
        faults[r] = (double)(f1 - f0);
        survived_last = survived;
        used_last = used;
    }
    tm_collect_major();

    printf("  %s\n", label);
    printf("    nursery %.2f MB used of %.2f MB, %zu objects, %zu reachable, %.2f MB survived per GC\n",
           (double)used_last / MB, (double)nursery_size() / MB, nobj, reachable,
           (double)survived_last / MB);
    printf("    minor GC: median %.3f ms (min %.3f, max %.3f) over %zu runs\n",
           median(ms, reps), minimum(ms, reps), maximum(ms, reps), reps);
    printf("    => %.3f ms per MB surviving (min %.3f), %.3f ms per MB of nursery used, "
           "%.1f ns per surviving object, %.0f page faults per GC\n",
           median(per_mb, reps), minimum(per_mb, reps), median(per_nmb, reps),
           median(ms, reps) * 1e6 / (double)reachable, median(faults, reps));
    free(ms);
    free(per_mb);
    free(per_nmb);
    free(faults);
}

/* ---- 3. major collections ---------------------------------------------- */

static void bench_major(const char *label, enum shape shape, size_t nlive, size_t reps)
{
    double *ms = xalloc(reps * sizeof *ms);
    tm_collect_major();
    tm_gc_stats sb = stats();
    double tb = now_s();
    object_t *root;
    uintptr_t counter = 0;
    if (shape == TREE) {
        root = (object_t *)build_tree(nlive, &counter);
    } else {
        node32_t *head = NULL;
        for (size_t i = 0; i < nlive; i++) {
            TM_PUSH_ROOT(head);
            node32_t *n = (node32_t *)tm_allocate(tid32, sizeof(struct node32));
            TM_POP_ROOT(head);
            if (!n)
                die("heap exhausted building the old heap");
            n->val = i;
            n->next = head;
            head = n;
        }
        root = (object_t *)head;
    }
    TM_PUSH_ROOT(root);
    tm_collect_minor();   /* everything is old now */
    double build_s = now_s() - tb;
    tm_gc_stats sa = stats();

    long f0 = minflt();
    for (size_t r = 0; r < reps; r++) {
        double t0 = now_s();
        tm_collect_major();
        ms[r] = (now_s() - t0) * 1e3;
    }
    long f1 = minflt();
    tm_gc_stats s1 = stats();
    TM_POP_ROOT(root);

    /* everything must still be there */
    size_t n = 0;
    if (shape == TREE) {
        n = tree_count((tnode_t *)root);
    } else {
        uintptr_t expect = nlive - 1;
        for (node32_t *p = (node32_t *)root; p; p = p->next, n++, expect--)
            if (p->val != expect)
                die("the old list is corrupted after major GCs (GC bug?)");
    }
    if (n != nlive)
        die("live objects lost by a major collection (GC bug?)");

    double med = median(ms, reps);
    printf("  %s\n", label);
    printf("    %zu live objects, old space %.1f MB used in %llu pages; built in %.3f s "
           "(%llu minor, %llu major GCs while building)\n",
           nlive, (double)s1.old_bytes_used / MB, (unsigned long long)s1.old_pages_in_use, build_s,
           (unsigned long long)(sa.minor_collections - sb.minor_collections),
           (unsigned long long)(sa.major_collections - sb.major_collections));
    printf("    major GC: median %.2f ms (min %.2f, max %.2f) over %zu runs => %.1f ns per live object, "
           "%.0f MB/s of live heap, %.0f page faults per GC\n",
           med, minimum(ms, reps), maximum(ms, reps), reps, med * 1e6 / (double)nlive,
           ((double)nlive * 32 / MB) / (med * 1e-3), (double)(f1 - f0) / (double)reps);
    free(ms);
    /* drop the heap */
    tm_collect_major();
}

/* ---- main ------------------------------------------------------------ */

int main(void)
{
    double scale = bench_scale();
    tm_runtime_init_from_env();
    if (tm_cfg.gc_debug_move) {
        /* every allocation collects: nothing here would measure anything */
        fprintf(stderr, "alloc_bench: TMPY_GC_DEBUG=move is set; unset it to benchmark\n");
        return 2;
    }
    tid16 = tm_register_type(&(tm_type){.name = "node16", .base_size = sizeof(struct node16), .ref_words = 1u << 1});
    tid32 = tm_register_type(&(tm_type){.name = "node32", .base_size = sizeof(struct node32), .ref_words = 1u << 1});
    tid48 = tm_register_type(&(tm_type){.name = "node48", .base_size = sizeof(struct node48), .ref_words = 1u << 1});
    tidtree = tm_register_type(&(tm_type){.name = "tnode", .base_size = sizeof(struct tnode),
                                          .ref_words = (1u << 1) | (1u << 2)});
    tm_thread_attach();
    tm_start_transaction();

    size_t count = scaled(50e6, scale, 1000);
    size_t minor_reps = scaled(50, scale, 5);
    size_t major_n = scaled(2e6, scale, 1000);
    size_t major_reps = scaled(10, scale, 3);

    printf("alloc_bench: TMPY_BENCH_SCALE=%g, nursery %.2f MB, major_min %.0f MB\n", scale,
           (double)nursery_size() / MB, (double)tm_cfg.major_min / MB);

    printf("\n[1] small-object allocation (window of %d live objects, the rest garbage)\n", WINDOW);
    bench_small(16, count);
    bench_small(32, count);
    bench_small(48, count);
    bench_small(0, count);

    printf("\n[2] minor collection of a nursery %.0f%% full of 32-byte objects (timing tm_collect_minor() alone)\n",
           90.0);
    bench_minor("100% survival, linked list", LIST, 1, 0.9, minor_reps);
    bench_minor("100% survival, binary tree", TREE, 1, 0.9, minor_reps);
    bench_minor("10% survival (every 10th object in a linked list)", LIST, 10, 0.9, minor_reps);

    printf("\n[3] major collection of an old heap of live 32-byte objects\n");
    bench_major("linked list", LIST, major_n, major_reps);
    bench_major("binary tree", TREE, major_n, major_reps);

    tm_gc_stats s = stats();
    printf("\ntotals: %llu minor GCs (%.3f s), %llu major GCs (%.3f s), %.1f MB survived minors, "
           "%llu old-space pages released to the kernel\n",
           (unsigned long long)s.minor_collections, (double)s.minor_ns * 1e-9,
           (unsigned long long)s.major_collections, (double)s.major_ns * 1e-9,
           (double)s.bytes_survived / MB, (unsigned long long)s.pages_released);

    tm_commit_transaction();
    tm_thread_detach();
    return 0;
}
