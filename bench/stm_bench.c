/* stm_bench: micro-benchmarks of the tmpy STM (libtmrt-stm, TM_STM=1).
 *
 *   0. reference costs on this machine, in plain C: what a commit or a
 *      privatisation is built from (clock_gettime, a mutex, waking a thread
 *      through a condition variable or by spinning, mmap(MAP_FIXED) + a 4 KiB
 *      copy), and whether 2 threads get 2 cores right now;
 *   1. barrier fast paths: tm_read() and tm_write() on old objects already
 *      written by the running transaction, against the same loop without
 *      barriers (a barrier's cost is the difference);
 *   2. the write barrier's slow path: the first write to an old object in a
 *      transaction (write-lock CAS, list appends) when that write is the first
 *      in its page (the page is privatised: mmap + copy) and when the page is
 *      already private; plus what committing those writes costs per object;
 *   3. commit latency of empty and tiny transactions, with 1 thread and with
 *      2 threads committing at the same time;
 *   4. transactions per second for a fixed amount of work per transaction
 *      (100 counter increments + 10 small allocations) at 1, 2 and 4 threads:
 *      disjoint (every thread its own counters, pages apart) and conflicting
 *      (every thread the same 4 counters), and disjoint with 10x the work.
 *      Every run checks that the counters grew by exactly one per increment.
 *
 * Sections 1 and 2 run on the main thread alone; 3 and 4 on worker threads
 * (the main thread stays attached but outside any transaction), each
 * configuration 3 times, showing the median run. Sections 3 and 4 are framed
 * by a 2-core check: other load on the machine makes their thread scaling
 * meaningless, and the output says so.
 *
 * TMPY_BENCH_SCALE (a positive number, default 1) multiplies the repetition
 * counts, the timed durations and the size of the slow-path working set.
 * The runtime's own TMPY_* variables (e.g. TMPY_SEGMENTS) apply as usual. */
#define _GNU_SOURCE
#include "tmrt.h"
#define BENCH_NAME "stm_bench"
#include "benchutil.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---- object types ---------------------------------------------------- */

typedef __seg_gs struct counter {
    tm_header h;
    uintptr_t v;
    uintptr_t pad[2];
} counter_t;

typedef __seg_gs struct refarr {
    tm_header h;
    uintptr_t len;
    object_t *items[];
} refarr_t;

_Static_assert(sizeof(struct counter) == 32, "counter size");

static uint16_t T_CNT, T_ARR;

#define NOINLINE __attribute__((noinline))

/* ---- helpers --------------------------------------------------------- */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp_uintptr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

static tm_stm_stats stm_stats(void)
{
    tm_stm_stats s;
    tm_stm_get_stats(&s);
    return s;
}

static tm_gc_stats gc_stats(void)
{
    tm_gc_stats s;
    tm_gc_get_stats(&s);
    return s;
}

struct usage {
    double cpu_s;     /* user + system, whole process */
    long vcsw, ivcsw; /* context switches */
};

static struct usage usage_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (struct usage){
        .cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6,
        .vcsw = ru.ru_nvcsw,
        .ivcsw = ru.ru_nivcsw,
    };
}

static volatile uintptr_t sink;

/* ---- setup: old counters reachable from global roots ------------------ */

/* *root = an array of n new counters. Runs its own inevitable transaction
 * (globals are written only there); after the commit every counter is old. */
static void make_counters(object_t **root, size_t n)
{
    tm_start_transaction();
    tm_become_inevitable();
    *root = tm_allocate_var(T_ARR, n);
    if (!*root)
        die("heap exhausted allocating a counter array");
    for (size_t i = 0; i < n; i++) {
        object_t *c = tm_allocate(T_CNT, sizeof(struct counter));   /* may move *root */
        if (!c)
            die("heap exhausted allocating counters");
        tm_write(*root);
        ((refarr_t *)*root)->items[i] = c;
    }
    tm_commit_transaction();
}

/* The counters of an array, as a C array of references. They are old, so
 * they never move, and the array keeps them alive. */
static object_t **load_counters(object_t *const *root, size_t n)
{
    object_t **out = xalloc(n * sizeof *out);
    tm_start_transaction();
    refarr_t *a = (refarr_t *)*root;
    tm_read((object_t *)a);
    if (a->len != n)
        die("counter array has the wrong length");
    for (size_t i = 0; i < n; i++) {
        out[i] = a->items[i];
        if (!out[i] || (out[i]->h.flags & TM_GCFLAG_WRITE_BARRIER) == 0)
            die("a setup counter is not old after its commit");
    }
    tm_commit_transaction();
    return out;
}

static uintptr_t page_of(object_t *o) { return (uintptr_t)o / TM_PAGE_SIZE; }

/* Distinct pages of a set of objects (sorted into pages[], returns how many). */
static size_t pages_of(object_t *const *objs, size_t n, uintptr_t *pages)
{
    for (size_t i = 0; i < n; i++)
        pages[i] = page_of(objs[i]);
    qsort(pages, n, sizeof *pages, cmp_uintptr);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || pages[k - 1] != pages[i])
            pages[k++] = pages[i];
    return k;
}

/* Pages that hold counters of more than one of the nsets sets of n; *most
 * gets the largest number of pages one set spans. */
static size_t count_shared_pages(object_t **const *sets, int nsets, size_t n, size_t *most)
{
    uintptr_t *pages = xalloc(n * sizeof *pages);
    uintptr_t *all = xalloc((size_t)nsets * n * sizeof *all);
    size_t total = 0;
    *most = 0;
    for (int t = 0; t < nsets; t++) {
        size_t k = pages_of(sets[t], n, pages);   /* distinct pages of set t */
        *most = k > *most ? k : *most;
        memcpy(all + total, pages, k * sizeof *pages);
        total += k;
    }
    qsort(all, total, sizeof *all, cmp_uintptr);
    size_t shared = 0;
    for (size_t i = 1; i < total; i++)
        if (all[i] == all[i - 1] && (i < 2 || all[i - 1] != all[i - 2]))
            shared++;
    free(pages);
    free(all);
    return shared;
}

/* ---- 0. reference costs -------------------------------------------------- */

/* Two threads handing a turn back and forth through one mutex and one
 * condition variable (broadcast), the way parked transactions are woken. */
static struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    size_t turn, n;
} pp = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void *pingpong_main(void *arg)
{
    size_t me = (size_t)(uintptr_t)arg;
    pthread_mutex_lock(&pp.m);
    while (pp.turn < pp.n) {
        while (pp.turn % 2 != me && pp.turn < pp.n)
            pthread_cond_wait(&pp.c, &pp.m);
        if (pp.turn >= pp.n)
            break;
        pp.turn++;
        pthread_cond_broadcast(&pp.c);
    }
    pthread_mutex_unlock(&pp.m);
    return NULL;
}

/* The same handoff by spinning on a shared word (no sleeping in the kernel). */
static size_t spin_turn, spin_n;

static void *spinpong_main(void *arg)
{
    size_t me = (size_t)(uintptr_t)arg;
    for (;;) {
        size_t t = __atomic_load_n(&spin_turn, __ATOMIC_ACQUIRE);
        if (t >= spin_n)
            return NULL;
        if (t % 2 == me)
            __atomic_store_n(&spin_turn, t + 1, __ATOMIC_RELEASE);
        else
            __builtin_ia32_pause();
    }
}

static double spinpong_ns(size_t n)
{
    pthread_t th[2];
    spin_turn = 0;
    spin_n = n;
    uint64_t t0 = now_ns();
    for (size_t i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, spinpong_main, (void *)(uintptr_t)i) != 0)
            die("pthread_create failed");
    for (size_t i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    return (double)(now_ns() - t0) / (double)n;
}

/* Plain C work with no shared data: can this machine run 2 threads at once
 * right now (other load, vCPUs)? */
static void *spin_main(void *arg)
{
    uint64_t x = (uint64_t)(uintptr_t)arg + 1, n = 30000000;
    for (uint64_t i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    sink = (uintptr_t)x;
    return NULL;
}

static double spin_s(int nthreads)
{
    pthread_t th[2];
    uint64_t t0 = now_ns();
    for (int i = 0; i < nthreads; i++)
        if (pthread_create(&th[i], NULL, spin_main, (void *)(uintptr_t)i) != 0)
            die("pthread_create failed");
    for (int i = 0; i < nthreads; i++)
        pthread_join(th[i], NULL);
    return (double)(now_ns() - t0) * 1e-9;
}

/* Throughput of 2 threads over 1, the median of 3 tries after a warm-up (an
 * idle vCPU can take a while to come back). */
static double parallel_speedup(double *one_s)
{
    double r[3];
    spin_s(2);
    for (int i = 0; i < 3; i++) {
        double t1 = spin_s(1), t2 = spin_s(2);
        r[i] = 2 * t1 / t2;
        *one_s = t1;
    }
    return median(r, 3);
}

/* Other load on the machine (or a descheduled vCPU) makes every thread-scaling
 * number below meaningless: say so next to them. */
static void check_two_cores(const char *where)
{
    double one_s, par = parallel_speedup(&one_s);
    printf("  (2-core check %s: 2 threads of plain C work run %.2fx as fast as 1%s)\n", where, par,
           par < 1.7 ? " -- NOTE: the machine is busy, thread-scaling numbers here are unreliable" : "");
}

static double pingpong_ns(size_t n)
{
    pthread_t th[2];
    pp.turn = 0;
    pp.n = n;
    uint64_t t0 = now_ns();
    for (size_t i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, pingpong_main, (void *)(uintptr_t)i) != 0)
            die("pthread_create failed");
    for (size_t i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    return (double)(now_ns() - t0) / (double)n;
}

static double ref_clock_ns, ref_mutex_ns, ref_bcast_ns, ref_privatise_ns;

static void bench_reference(size_t n)
{
    uint64_t t0 = now_ns();
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += now_ns();
    ref_clock_ns = (double)(now_ns() - t0) / (double)n;
    sink = acc;

    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    t0 = now_ns();
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&m);
        pthread_mutex_unlock(&m);
    }
    ref_mutex_ns = (double)(now_ns() - t0) / (double)n;
    t0 = now_ns();
    for (size_t i = 0; i < n; i++)
        pthread_cond_broadcast(&c);
    ref_bcast_ns = (double)(now_ns() - t0) / (double)n;

    /* What privatising a page is made of, in plain C: map anonymous memory
     * over one page of a shared mapping (a syscall), then copy 4 KiB into it
     * (the first touch faults the new page in). Timed apart, best of 3. */
    size_t np = 1024;
    size_t len = np * TM_PAGE_SIZE;
    double best_map = 1e30, best_fill = 1e30, best_copy = 1e30;
    for (int round = 0; round < 3; round++) {
        char *shared = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        char *src = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED || src == MAP_FAILED)
            die("mmap failed in the reference benchmark");
        memset(shared, 1, len);
        memset(src, 2, len);
        t0 = now_ns();
        for (size_t p = 0; p < np; p++) {
            char *dst = shared + p * TM_PAGE_SIZE;
            if (mmap(dst, TM_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != dst)
                die("mmap(MAP_FIXED) failed in the reference benchmark");
        }
        uint64_t t1 = now_ns();
        for (size_t p = 0; p < np; p++)
            memcpy(shared + p * TM_PAGE_SIZE, src + p * TM_PAGE_SIZE, TM_PAGE_SIZE);
        uint64_t t2 = now_ns();
        for (size_t p = 0; p < np; p++)
            memcpy(shared + p * TM_PAGE_SIZE, src + ((p + 1) % np) * TM_PAGE_SIZE, TM_PAGE_SIZE);
        uint64_t t3 = now_ns();
        munmap(shared, len);
        munmap(src, len);
        double m = (double)(t1 - t0) / (double)np, f = (double)(t2 - t1) / (double)np,
               c = (double)(t3 - t2) / (double)np;
        best_map = m < best_map ? m : best_map;
        best_fill = f < best_fill ? f : best_fill;
        best_copy = c < best_copy ? c : best_copy;
    }
    ref_privatise_ns = best_map + best_fill;

    double pp_ns = pingpong_ns(n / 20 ? n / 20 : 1000);
    double one_s, par = parallel_speedup(&one_s);
    double sp_ns = spinpong_ns(n);
    printf("  clock_gettime(MONOTONIC)                        %7.1f ns\n", ref_clock_ns);
    printf("  pthread mutex lock+unlock, uncontended          %7.1f ns\n", ref_mutex_ns);
    printf("  pthread_cond_broadcast, no waiters              %7.1f ns\n", ref_bcast_ns);
    printf("  2 threads of plain C work (no sharing)          %7.2fx the throughput of 1 (%.2f s each)\n", par, one_s);
    printf("  handoff between 2 threads via mutex+condvar     %7.1f ns  (one thread waking the other)\n", pp_ns);
    printf("  handoff between 2 threads by spinning           %7.1f ns\n", sp_ns);
    printf("  mmap(MAP_FIXED) of 1 page over a shared mapping  %7.1f ns\n", best_map);
    printf("  first 4 KiB memcpy into it (page fault + copy)  %7.1f ns  (+ mmap: %.0f ns, privatising a page by hand)\n",
           best_fill, ref_privatise_ns);
    printf("  4 KiB memcpy into a mapped page                 %7.1f ns\n", best_copy);
}

/* ---- 1. barrier fast paths --------------------------------------------- */

/* Each loop walks n old counters reps times. The objects were written in this
 * transaction already, so the stores below need no further barrier. */
static NOINLINE uintptr_t loop_read_plain(object_t *const *objs, size_t n, size_t reps)
{
    uintptr_t sum = 0;
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            sum += ((counter_t *)objs[i])->v;
    return sum;
}

static NOINLINE uintptr_t loop_read_barrier(object_t *const *objs, size_t n, size_t reps)
{
    uintptr_t sum = 0;
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++) {
            object_t *o = objs[i];
            tm_read(o);
            sum += ((counter_t *)o)->v;
        }
    return sum;
}

static NOINLINE uintptr_t loop_incr_plain(object_t *const *objs, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            ((counter_t *)objs[i])->v++;
    return 0;
}

static NOINLINE uintptr_t loop_incr_write_barrier(object_t *const *objs, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++) {
            object_t *o = objs[i];
            tm_write(o);
            ((counter_t *)o)->v++;
        }
    return 0;
}

static NOINLINE uintptr_t loop_incr_both_barriers(object_t *const *objs, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++) {
            object_t *o = objs[i];
            tm_read(o);
            tm_write(o);
            ((counter_t *)o)->v++;
        }
    return 0;
}

static NOINLINE uintptr_t loop_incr_safepoint(object_t *const *objs, size_t n, size_t reps)
{
    for (size_t r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++) {
            tm_safepoint();
            ((counter_t *)objs[i])->v++;
        }
    return 0;
}

typedef uintptr_t (*loop_fn)(object_t *const *, size_t, size_t);

static const struct {
    const char *label;
    loop_fn fn;
    int base;   /* index of the barrier-free loop it is compared with, -1: none */
} loops[] = {
    {"plain read (sum += o->v)", loop_read_plain, -1},
    {"tm_read + read", loop_read_barrier, 0},
    {"plain increment (o->v++)", loop_incr_plain, -1},
    {"tm_write (fast) + increment", loop_incr_write_barrier, 2},
    {"tm_read + tm_write + increment", loop_incr_both_barriers, 2},
    {"tm_safepoint + increment", loop_incr_safepoint, 2},
};
#define NLOOPS (int)(sizeof loops / sizeof loops[0])

static void bench_fast_paths(const char *label, object_t *const *objs, size_t n, size_t total_ops, size_t trials)
{
    size_t reps = total_ops / n ? total_ops / n : 1;
    double *ns[NLOOPS];
    for (int k = 0; k < NLOOPS; k++)
        ns[k] = xalloc(trials * sizeof(double));

    tm_start_transaction();
    /* Take every write lock (the slow path), then warm up: markers paged in. */
    for (size_t i = 0; i < n; i++) {
        tm_read(objs[i]);
        tm_write(objs[i]);
        ((counter_t *)objs[i])->v++;
    }
    for (int k = 0; k < NLOOPS; k++)
        sink += loops[k].fn(objs, n, 1);
    for (size_t t = 0; t < trials; t++)
        for (int k = 0; k < NLOOPS; k++) {
            uint64_t t0 = now_ns();
            sink += loops[k].fn(objs, n, reps);
            ns[k][t] = (double)(now_ns() - t0) / (double)(n * reps);
        }
    tm_commit_transaction();

    printf("  %s: %zu old counters (%.0f KiB of objects), %zu ops per trial, median (min) of %zu trials\n",
           label, n, (double)n * 32 / 1024, n * reps, trials);
    for (int k = 0; k < NLOOPS; k++) {
        double med = median(ns[k], trials), mn = minimum(ns[k], trials);
        printf("    %-32s %6.2f ns/op (%5.2f)", loops[k].label, med, mn);
        if (loops[k].base >= 0) {
            double bmed = median(ns[loops[k].base], trials), bmin = minimum(ns[loops[k].base], trials);
            printf("   barrier cost %+6.2f ns/op (min-min %+5.2f)", med - bmed, mn - bmin);
        }
        printf("\n");
    }
    for (int k = 0; k < NLOOPS; k++)
        free(ns[k]);
}

/* ---- 2. write barrier slow path ------------------------------------------ */

static NOINLINE void write_all(object_t *const *objs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        object_t *o = objs[i];
        tm_write(o);
        ((counter_t *)o)->v++;
    }
}

static void bench_slow_path(object_t *const *objs, size_t n, size_t reps)
{
    /* Split the set: the first object of every page, and all the others. */
    object_t **first = xalloc(n * sizeof *first), **rest = xalloc(n * sizeof *rest);
    uintptr_t *pages = xalloc(n * sizeof *pages);
    size_t npages = pages_of(objs, n, pages);
    uint8_t *seen = xalloc(npages);
    size_t nfirst = 0, nrest = 0;
    for (size_t i = 0; i < n; i++) {
        uintptr_t p = page_of(objs[i]);
        uintptr_t *at = bsearch(&p, pages, npages, sizeof *pages, cmp_uintptr);
        size_t k = (size_t)(at - pages);
        if (!seen[k]) {
            seen[k] = 1;
            first[nfirst++] = objs[i];
        } else {
            rest[nrest++] = objs[i];
        }
    }
    free(seen);
    free(pages);

    double *t_first = xalloc(reps * sizeof(double)), *t_rest = xalloc(reps * sizeof(double)),
           *t_fast = xalloc(reps * sizeof(double)), *t_commit1 = xalloc(reps * sizeof(double)),
           *t_again = xalloc(reps * sizeof(double)), *t_commit2 = xalloc(reps * sizeof(double)),
           *t_major = xalloc(reps * sizeof(double));
    uint64_t priv_first = 0, priv_again = 0, reshared = 0;
    for (size_t r = 0; r < reps; r++) {
        /* A major collection re-shares every private page: the pages of this
         * set are shared again in our segment, as if never written. */
        tm_gc_stats g0 = gc_stats();
        tm_start_transaction();
        uint64_t t0 = now_ns();
        tm_collect_major();
        t_major[r] = (double)(now_ns() - t0);
        tm_commit_transaction();
        reshared += gc_stats().pages_reshared - g0.pages_reshared;

        /* Transaction 1: first writes; the first in each page privatises it. */
        tm_stm_stats s0 = stm_stats();
        tm_start_transaction();
        t0 = now_ns();
        write_all(first, nfirst);
        uint64_t t1 = now_ns();
        write_all(rest, nrest);
        uint64_t t2 = now_ns();
        write_all(objs, n);   /* every object written already: fast path */
        uint64_t t3 = now_ns();
        tm_commit_transaction();
        uint64_t t4 = now_ns();
        tm_stm_stats s1 = stm_stats();
        t_first[r] = (double)(t1 - t0) / (double)nfirst;
        t_rest[r] = nrest ? (double)(t2 - t1) / (double)nrest : 0;
        t_fast[r] = (double)(t3 - t2) / (double)n;
        t_commit1[r] = (double)(t4 - t3) / (double)n;
        priv_first += s1.pages_privatised - s0.pages_privatised;

        /* Transaction 2: first writes again; the pages are still private. */
        tm_start_transaction();
        t0 = now_ns();
        write_all(objs, n);
        t1 = now_ns();
        tm_commit_transaction();
        t2 = now_ns();
        tm_stm_stats s2 = stm_stats();
        t_again[r] = (double)(t1 - t0) / (double)n;
        t_commit2[r] = (double)(t2 - t1) / (double)n;
        priv_again += s2.pages_privatised - s1.pages_privatised;
    }

    printf("  %zu old 32-byte counters in %zu pages (%zu first-in-page, %zu others), "
           "median (min) of %zu repetitions\n", n, nfirst, nfirst, nrest, reps);
    printf("    first write, first in its page (lock + privatise)   %8.1f ns/op (%8.1f)\n",
           median(t_first, reps), minimum(t_first, reps));
    printf("    first write, page privatised earlier in this tx    %8.1f ns/op (%8.1f)\n",
           median(t_rest, reps), minimum(t_rest, reps));
    printf("    first write, page private since an earlier tx      %8.1f ns/op (%8.1f)\n",
           median(t_again, reps), minimum(t_again, reps));
    printf("    write again in the same tx (fast path, for scale)  %8.1f ns/op (%8.1f)\n",
           median(t_fast, reps), minimum(t_fast, reps));
    double priv = median(t_first, reps) - median(t_rest, reps);
    printf("    => privatising a page costs ~%.0f ns on top of the lock (by hand: %.0f ns)\n",
           priv, ref_privatise_ns);
    printf("    commit of the writes: %.1f ns per modified object with fresh private pages "
           "(%.1f when private since an earlier tx)\n",
           median(t_commit1, reps), median(t_commit2, reps));
    printf("    pages privatised: %.1f per repetition in tx 1 (expected %zu), %.1f in tx 2 (expected 0); "
           "major GC between repetitions: %.2f ms, %.1f pages re-shared\n",
           (double)priv_first / (double)reps, nfirst, (double)priv_again / (double)reps,
           median(t_major, reps) * 1e-6, (double)reshared / (double)reps);
    if (priv_first != (uint64_t)nfirst * reps || priv_again != 0)
        printf("    NOTE: privatisation counts differ from the expectation (see above)\n");
    free(first);
    free(rest);
    free(t_first);
    free(t_rest);
    free(t_fast);
    free(t_commit1);
    free(t_again);
    free(t_commit2);
    free(t_major);
}

/* ---- worker threads (sections 3 and 4) ------------------------------------ */

enum work {
    W_EMPTY,      /* start + commit */
    W_TINY,       /* one read + write of the thread's counter, one allocation */
    W_COUNTERS,   /* incr increments over ncnt counters + incr/10 allocations */
};

struct worker {
    pthread_t th;
    enum work work;
    object_t **cnt;     /* counters this thread increments (old; C array) */
    size_t ncnt;
    int incr;           /* W_COUNTERS: increments per transaction */
    /* results */
    uint64_t commits;
    uint32_t *start_lat, *commit_lat;   /* ns, the first max_lat transactions */
    uint64_t resets, reset_ns;          /* starts that cleared the read markers, their time */
    size_t max_lat;
};

static pthread_barrier_t start_barrier;
static int stop_flag;

#define ALLOC_EVERY 10   /* one 32-byte allocation per 10 increments */

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    tm_thread_attach();
    pthread_barrier_wait(&start_barrier);
    while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
        uint64_t ts = now_ns();
        tm_start_transaction();
        uint64_t tc = now_ns();   /* re-read after an abort: set after the setjmp */
        if (TM_SEGLOCAL->read_version == 1) {   /* the markers were just cleared (every 255) */
            w->resets++;
            w->reset_ns += tc - ts;
        }
        switch (w->work) {
        case W_EMPTY:
            break;
        case W_TINY: {
            counter_t *c = (counter_t *)w->cnt[0];
            tm_read((object_t *)c);
            uintptr_t v = c->v;
            tm_write((object_t *)c);
            c->v = v + 1;
            if (!tm_allocate(T_CNT, sizeof(struct counter)))
                die("heap exhausted in a worker");
            break;
        }
        case W_COUNTERS:
            for (int i = 0; i < w->incr; i++) {
                counter_t *c = (counter_t *)w->cnt[(size_t)i % w->ncnt];
                tm_read((object_t *)c);
                uintptr_t v = c->v;
                tm_write((object_t *)c);
                c->v = v + 1;
                if (i % ALLOC_EVERY == 0) {
                    /* garbage, but it has to be allocated, zeroed and collected */
                    counter_t *g = (counter_t *)tm_allocate(T_CNT, sizeof(struct counter));
                    if (!g)
                        die("heap exhausted in a worker");
                    g->v = v;
                }
            }
            break;
        }
        uint64_t t0 = now_ns();
        tm_commit_transaction();
        uint64_t t1 = now_ns();
        if (w->commits < w->max_lat) {
            w->start_lat[w->commits] = (uint32_t)(tc - ts < UINT32_MAX ? tc - ts : UINT32_MAX);
            w->commit_lat[w->commits] = (uint32_t)(t1 - t0 < UINT32_MAX ? t1 - t0 : UINT32_MAX);
        }
        w->commits++;
    }
    tm_thread_detach();
    return NULL;
}

struct lat_summary {
    double mean, p50, p90, p99, max;   /* ns */
};

struct run_result {
    double secs, cps, aps;                  /* commits/s, aborts/s */
    uint64_t commits, aborts, aborts_rw, aborts_ww, aborts_inev;
    uint64_t min_commits, max_commits;      /* per thread */
    double commit_ns, sync_ns, wait_ns, minor_ns;   /* per commit, from the runtime's statistics */
    uint64_t minor_gcs, major_gcs;
    double cpu;                             /* cores busy on average */
    double vcs, ivcs;                       /* context switches per commit */
    struct lat_summary start, commit;       /* per call, all threads */
    uint64_t resets;                        /* read-marker clears */
    double reset_ns;                        /* mean time of a start that cleared them */
};

/* Latencies recorded by the threads of one run, all together. */
static struct lat_summary summarise(struct worker *ws, int nthreads, bool commit)
{
    struct lat_summary l = {0};
    size_t total = 0;
    for (int t = 0; t < nthreads; t++)
        total += ws[t].commits < ws[t].max_lat ? ws[t].commits : ws[t].max_lat;
    if (!total)
        return l;
    uint32_t *all = xalloc(total * sizeof *all);
    size_t k = 0;
    double sum = 0;
    for (int t = 0; t < nthreads; t++) {
        size_t n = ws[t].commits < ws[t].max_lat ? ws[t].commits : ws[t].max_lat;
        const uint32_t *src = commit ? ws[t].commit_lat : ws[t].start_lat;
        for (size_t i = 0; i < n; i++) {
            all[k++] = src[i];
            sum += src[i];
        }
    }
    qsort(all, total, sizeof *all, cmp_u32);
    l.mean = sum / (double)total;
    l.p50 = all[(size_t)((double)(total - 1) * 0.5)];
    l.p90 = all[(size_t)((double)(total - 1) * 0.9)];
    l.p99 = all[(size_t)((double)(total - 1) * 0.99)];
    l.max = all[total - 1];
    free(all);
    return l;
}

static struct run_result run_once(struct worker *ws, int nthreads, double secs)
{
    struct run_result r = {0};
    for (int t = 0; t < nthreads; t++)
        ws[t].commits = ws[t].resets = ws[t].reset_ns = 0;
    if (pthread_barrier_init(&start_barrier, NULL, (unsigned)nthreads + 1) != 0)
        die("pthread_barrier_init failed");
    __atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&ws[t].th, NULL, worker_main, &ws[t]) != 0)
            die("pthread_create failed");
    tm_stm_stats s0 = stm_stats();
    tm_gc_stats g0 = gc_stats();
    struct usage u0 = usage_now();
    pthread_barrier_wait(&start_barrier);
    uint64_t t0 = now_ns();
    sleep_s(secs);
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
    for (int t = 0; t < nthreads; t++)
        pthread_join(ws[t].th, NULL);
    r.secs = (double)(now_ns() - t0) * 1e-9;
    struct usage u1 = usage_now();
    tm_stm_stats s1 = stm_stats();
    tm_gc_stats g1 = gc_stats();
    pthread_barrier_destroy(&start_barrier);

    r.min_commits = UINT64_MAX;
    for (int t = 0; t < nthreads; t++) {
        r.commits += ws[t].commits;
        if (ws[t].commits < r.min_commits)
            r.min_commits = ws[t].commits;
        if (ws[t].commits > r.max_commits)
            r.max_commits = ws[t].commits;
    }
    if (s1.committed - s0.committed != r.commits)
        die("the runtime's commit count differs from the workers' (stats bug?)");
    double c = r.commits ? (double)r.commits : 1;
    r.cps = (double)r.commits / r.secs;
    r.aborts = s1.aborted - s0.aborted;
    r.aps = (double)r.aborts / r.secs;
    r.aborts_rw = s1.aborts_by_cause[TM_ABORT_READ_WRITE] - s0.aborts_by_cause[TM_ABORT_READ_WRITE];
    r.aborts_ww = s1.aborts_by_cause[TM_ABORT_WRITE_WRITE] - s0.aborts_by_cause[TM_ABORT_WRITE_WRITE];
    r.aborts_inev = s1.aborts_by_cause[TM_ABORT_INEVITABLE] - s0.aborts_by_cause[TM_ABORT_INEVITABLE];
    r.commit_ns = (double)(s1.commit_ns - s0.commit_ns) / c;
    r.sync_ns = (double)(s1.sync_ns - s0.sync_ns) / c;
    r.wait_ns = (double)(s1.wait_ns - s0.wait_ns) / c;
    r.minor_ns = (double)(g1.minor_ns - g0.minor_ns) / c;
    r.minor_gcs = g1.minor_collections - g0.minor_collections;
    r.major_gcs = g1.major_collections - g0.major_collections;
    r.cpu = (u1.cpu_s - u0.cpu_s) / r.secs;
    r.vcs = (double)(u1.vcsw - u0.vcsw) / c;
    r.ivcs = (double)(u1.ivcsw - u0.ivcsw) / c;
    uint64_t reset_ns = 0;
    for (int t = 0; t < nthreads; t++) {
        r.resets += ws[t].resets;
        reset_ns += ws[t].reset_ns;
    }
    r.reset_ns = r.resets ? (double)reset_ns / (double)r.resets : 0;
    r.start = summarise(ws, nthreads, false);
    r.commit = summarise(ws, nthreads, true);
    return r;
}

static int cmp_run(const void *a, const void *b)
{
    double x = ((const struct run_result *)a)->cps, y = ((const struct run_result *)b)->cps;
    return (x > y) - (x < y);
}

/* The run with the median throughput; lo and hi get the extremes. */
static struct run_result pick_median(struct run_result *rs, size_t runs, double *lo, double *hi)
{
    qsort(rs, runs, sizeof *rs, cmp_run);
    *lo = rs[0].cps;
    *hi = rs[runs - 1].cps;
    return rs[runs / 2];
}

static void print_lat(const char *what, const struct lat_summary *l)
{
    printf("      %-22s mean %8.0f  p50 %7.0f  p90 %7.0f  p99 %8.0f  max %9.0f ns\n", what, l->mean, l->p50,
           l->p90, l->p99, l->max);
}

static void alloc_workers(struct worker *ws, int n, size_t max_lat)
{
    for (int t = 0; t < n; t++) {
        ws[t].max_lat = max_lat;
        ws[t].start_lat = xalloc(max_lat * sizeof(uint32_t));
        ws[t].commit_lat = xalloc(max_lat * sizeof(uint32_t));
    }
}

static void free_workers(struct worker *ws, int n)
{
    for (int t = 0; t < n; t++) {
        free(ws[t].start_lat);
        free(ws[t].commit_lat);
    }
}

/* ---- 3. commit latency ---------------------------------------------------- */

static void bench_commit(const char *label, enum work work, int nthreads, object_t **own_counter[],
                         double secs, size_t runs, size_t max_lat)
{
    struct worker ws[2];
    for (int t = 0; t < nthreads; t++)
        ws[t] = (struct worker){.work = work, .cnt = own_counter[t], .ncnt = 1};
    alloc_workers(ws, nthreads, max_lat);
    struct run_result *rs = xalloc(runs * sizeof *rs);
    for (size_t i = 0; i < runs; i++)
        rs[i] = run_once(ws, nthreads, secs);
    double lo, hi;
    struct run_result r = pick_median(rs, runs, &lo, &hi);
    free(rs);
    free_workers(ws, nthreads);

    printf("  %s, %d thread%s: %.0f commits/s in all (%zu runs: %.0f..%.0f), a start+commit round trip "
           "every %.0f ns per thread; per-thread commits %llu..%llu, %llu aborts\n",
           label, nthreads, nthreads > 1 ? "s" : "", r.cps, runs, lo, hi, 1e9 * nthreads / r.cps,
           (unsigned long long)r.min_commits, (unsigned long long)r.max_commits, (unsigned long long)r.aborts);
    print_lat("tm_start_transaction", &r.start);
    print_lat("tm_commit_transaction", &r.commit);
    printf("      starts that cleared the read markers (madvise, every 255th): %llu, %.1f us each "
           "= %.1f ns per start on average\n", (unsigned long long)r.resets, r.reset_ns * 1e-3,
           r.reset_ns * (double)r.resets / (double)(r.commits + r.aborts ? r.commits + r.aborts : 1));
    printf("      runtime's own split per commit: %.0f ns in commit (of which %.0f stopping the world), "
           "%.0f ns parked, %.0f ns minor GC (%.2f minor GCs per commit); %.3f voluntary + %.3f involuntary "
           "context switches/commit; CPU %.2f of %d core%s\n",
           r.commit_ns, r.sync_ns, r.wait_ns, r.minor_ns, (double)r.minor_gcs / (double)(r.commits ? r.commits : 1),
           r.vcs, r.ivcs, r.cpu, nthreads, nthreads > 1 ? "s" : "");
}

/* ---- 4. throughput --------------------------------------------------------- */

#define NCOUNTERS 100      /* disjoint: counters per thread */
#define NSHARED 4          /* conflicting: counters for everyone */
#define MAXTHREADS 4

static uintptr_t sum_counters(object_t *const *cnt, size_t n)
{
    uintptr_t s = 0;
    tm_start_transaction();
    for (size_t i = 0; i < n; i++) {
        tm_read(cnt[i]);
        s += ((counter_t *)cnt[i])->v;
    }
    tm_commit_transaction();
    return s;
}

static void bench_throughput(const char *label, object_t **per_thread[], size_t ncnt, int incr,
                             double secs, size_t runs, size_t max_lat)
{
    static const int nthreads_list[] = {1, 2, 4};
    double base = 0;
    printf("  %s\n", label);
    printf("    %-7s %10s %14s %9s %6s %7s %9s %9s %9s %9s %5s\n", "threads", "commits/s", "(runs min..max)",
           "aborts/s", "abort%", "speedup", "us/commit", "commit50", "commit99", "CPU", "cs/tx");
    for (size_t k = 0; k < sizeof nthreads_list / sizeof nthreads_list[0]; k++) {
        int n = nthreads_list[k];
        struct worker ws[MAXTHREADS];
        for (int t = 0; t < n; t++)
            ws[t] = (struct worker){.work = W_COUNTERS, .cnt = per_thread[t], .ncnt = ncnt, .incr = incr};
        alloc_workers(ws, n, max_lat);
        /* Counters touched: distinct sets, or one set shared by everyone. */
        bool shared = n > 1 && per_thread[0] == per_thread[1];
        int nsets = shared ? 1 : n;
        struct run_result *rs = xalloc(runs * sizeof *rs);
        for (size_t i = 0; i < runs; i++) {
            uintptr_t before = 0, after = 0;
            for (int t = 0; t < nsets; t++)
                before += sum_counters(per_thread[t], ncnt);
            rs[i] = run_once(ws, n, secs);
            for (int t = 0; t < nsets; t++)
                after += sum_counters(per_thread[t], ncnt);
            if (after - before != rs[i].commits * (uint64_t)incr) {
                fprintf(stderr, "stm_bench: %s, %d threads: counters grew by %llu, expected %llu\n", label, n,
                        (unsigned long long)(after - before), (unsigned long long)(rs[i].commits * (uint64_t)incr));
                die("lost or duplicated increments (STM bug)");
            }
        }
        double lo, hi;
        struct run_result r = pick_median(rs, runs, &lo, &hi);
        free(rs);
        free_workers(ws, n);
        if (n == 1)
            base = r.cps;
        printf("    %-7d %10.0f %6.0fk..%5.0fk %9.0f %5.1f%% %6.2fx %9.2f %6.1f us %6.1f us %5.2f/%d %5.2f\n", n,
               r.cps, lo * 1e-3, hi * 1e-3, r.aps, 100.0 * (double)r.aborts / (double)(r.commits + r.aborts),
               r.cps / base, 1e6 * n / r.cps, r.commit.p50 * 1e-3, r.commit.p99 * 1e-3, r.cpu, n < 2 ? n : 2,
               r.vcs + r.ivcs);
        printf("            aborts rw %llu ww %llu inevitable %llu; per-thread commits %llu..%llu; per commit: "
               "%.0f ns committing (%.0f stopping the world), %.0f ns parked, %.0f ns minor GC; "
               "%llu minor GCs for %llu commits, %llu major\n",
               (unsigned long long)r.aborts_rw, (unsigned long long)r.aborts_ww, (unsigned long long)r.aborts_inev,
               (unsigned long long)r.min_commits, (unsigned long long)r.max_commits, r.commit_ns, r.sync_ns,
               r.wait_ns, r.minor_ns, (unsigned long long)r.minor_gcs, (unsigned long long)r.commits,
               (unsigned long long)r.major_gcs);
    }
}

/* The same work inside one long transaction: what the work costs without
 * starting and committing (the barriers take the fast path after the first
 * round, so this is a lower bound). */
static void bench_work_only(object_t *const *cnt, size_t ncnt, int incr, size_t rounds)
{
    tm_start_transaction();
    uint64_t t0 = now_ns();
    for (size_t r = 0; r < rounds; r++)
        for (int i = 0; i < incr; i++) {
            counter_t *c = (counter_t *)cnt[(size_t)i % ncnt];
            tm_read((object_t *)c);
            uintptr_t v = c->v;
            tm_write((object_t *)c);
            c->v = v + 1;
            if (i % ALLOC_EVERY == 0) {
                counter_t *g = (counter_t *)tm_allocate(T_CNT, sizeof(struct counter));
                if (!g)
                    die("heap exhausted");
                g->v = v;
            }
        }
    double ns = (double)(now_ns() - t0) / (double)rounds;
    tm_commit_transaction();
    printf("    (the work alone, %d increments + %d allocations repeated in one transaction: %.2f us)\n", incr,
           (incr + ALLOC_EVERY - 1) / ALLOC_EVERY, ns * 1e-3);
}

/* ---- main ------------------------------------------------------------ */

static object_t *g_small, *g_large, *g_slow, *g_layout, *g_shared;

#define SPACER 160   /* counters between two threads' sets: 5 KiB, more than a page */

int main(void)
{
    double scale = bench_scale();
    tm_runtime_init_from_env();
    if (tm_cfg.gc_debug_move) {
        fprintf(stderr, "stm_bench: TMPY_GC_DEBUG=move is set; unset it to benchmark\n");
        return 2;
    }
    T_CNT = tm_register_type(&(tm_type){.name = "counter", .base_size = sizeof(struct counter)});
    T_ARR = tm_register_type(&(tm_type){.name = "refarr", .base_size = sizeof(struct refarr), .item_size = 8,
                                        .length_offset = 8, .items_are_refs = true});
    tm_add_global_root(&g_small);
    tm_add_global_root(&g_large);
    tm_add_global_root(&g_slow);
    tm_add_global_root(&g_layout);
    tm_add_global_root(&g_shared);
    tm_thread_attach();

    size_t n_small = 4096, n_large = 1 << 18;
    size_t slow_pages = scaled(1000, scale, 50);
    size_t n_slow = slow_pages * (TM_PAGE_SIZE / sizeof(struct counter));
    size_t fast_ops = scaled(40e6, scale, 100000);
    size_t fast_trials = scaled(7, scale, 3);
    size_t slow_reps = scaled(5, scale, 3);
    double secs = 0.3 * scale < 0.05 ? 0.05 : 0.3 * scale;
    size_t runs = 3;   /* per configuration; the median run is shown */
    size_t max_lat = 1u << 21;

    /* Old counters for every section, each set allocated on its own. */
    make_counters(&g_small, n_small);
    make_counters(&g_large, n_large);
    make_counters(&g_slow, n_slow);
    size_t n_layout = MAXTHREADS * (NCOUNTERS + SPACER);
    make_counters(&g_layout, n_layout);
    make_counters(&g_shared, NSHARED);
    object_t **small = load_counters(&g_small, n_small);
    object_t **large = load_counters(&g_large, n_large);
    object_t **slow = load_counters(&g_slow, n_slow);
    object_t **layout = load_counters(&g_layout, n_layout);
    object_t **shared = load_counters(&g_shared, NSHARED);
    object_t **per_thread[MAXTHREADS], **shared_for[MAXTHREADS];
    for (int t = 0; t < MAXTHREADS; t++) {
        per_thread[t] = layout + (size_t)t * (NCOUNTERS + SPACER);
        shared_for[t] = shared;
    }
    /* The per-thread sets must not share a page (nor write-lock cache lines). */
    size_t pages_per_set = 0, shared_pages = count_shared_pages(per_thread, MAXTHREADS, NCOUNTERS, &pages_per_set);

    printf("stm_bench: TMPY_BENCH_SCALE=%g, %d segments, nursery %.2f MB, %u CPUs online\n", scale,
           tm_seg.nsegments, (double)(tm_seg.nursery_end - tm_seg.nursery_start) / (1024.0 * 1024.0),
           (unsigned)sysconf(_SC_NPROCESSORS_ONLN));

    printf("\n[0] reference costs (plain C, no STM)\n");
    bench_reference(scaled(2e6, scale, 10000));

    printf("\n[1] barrier fast paths on old objects already written in the transaction "
           "(barrier cost = loop - barrier-free loop)\n");
    bench_fast_paths("cache-resident set", small, n_small, fast_ops, fast_trials);
    /* Random order: every access misses the cache (and so may the marker store). */
    uint64_t rs = 0x9e3779b97f4a7c15ULL;
    for (size_t i = n_large - 1; i > 0; i--) {
        rs ^= rs << 13;
        rs ^= rs >> 7;
        rs ^= rs << 17;
        size_t j = (size_t)(rs % (i + 1));
        object_t *tmp = large[i];
        large[i] = large[j];
        large[j] = tmp;
    }
    bench_fast_paths("larger set, random order", large, n_large, fast_ops, fast_trials);

    printf("\n[2] write barrier slow path (first write to an old object in a transaction)\n");
    bench_slow_path(slow, n_slow, slow_reps);

    printf("\n[3] commit latency (per call, as seen by the thread; %.2f s per run, the median of %zu runs shown)\n",
           secs, runs);
    object_t **own[2] = {per_thread[0], per_thread[1]};
    check_two_cores("before");
    bench_commit("empty transactions", W_EMPTY, 1, own, secs, runs, max_lat);
    bench_commit("empty transactions", W_EMPTY, 2, own, secs, runs, max_lat);
    bench_commit("tiny transactions (1 read+write of an own counter, 1 allocation)", W_TINY, 1, own, secs,
                 runs, max_lat);
    bench_commit("tiny transactions (1 read+write of an own counter, 1 allocation)", W_TINY, 2, own, secs,
                 runs, max_lat);

    printf("\n[4] throughput: fixed work per transaction, %.2f s per run, the median of %zu runs shown, %u CPUs\n"
           "    (speedup vs 1 thread; us/commit = wall time per commit per thread; commit50/99 = percentiles of\n"
           "    tm_commit_transaction() calls; CPU = cores busy; cs/tx = context switches per commit)\n",
           secs, runs, (unsigned)sysconf(_SC_NPROCESSORS_ONLN));
    check_two_cores("before");
    printf("  disjoint sets: %d counters per thread in %zu page(s) each, %zu page(s) shared between "
           "threads\n", NCOUNTERS, pages_per_set, shared_pages);
    bench_throughput("disjoint: 100 increments of own counters + 10 allocations per transaction", per_thread,
                     NCOUNTERS, 100, secs, runs, max_lat);
    bench_work_only(per_thread[0], NCOUNTERS, 100, scaled(20000, scale, 1000));
    bench_throughput("conflicting: 100 increments of the same 4 counters + 10 allocations per transaction",
                     shared_for, NSHARED, 100, secs, runs, max_lat);
    bench_throughput("disjoint, 10x work: 1000 increments (10 rounds over own 100 counters) + 100 allocations",
                     per_thread, NCOUNTERS, 1000, secs, runs, max_lat);
    bench_work_only(per_thread[0], NCOUNTERS, 1000, scaled(2000, scale, 100));
    check_two_cores("after");

    tm_stm_stats s = stm_stats();
    tm_gc_stats g = gc_stats();
    printf("\ntotals: %llu transactions started, %llu committed, %llu aborted (rw %llu, ww %llu, inevitable %llu), "
           "%llu pages privatised; %llu minor GCs, %llu major GCs\n",
           (unsigned long long)s.started, (unsigned long long)s.committed, (unsigned long long)s.aborted,
           (unsigned long long)s.aborts_by_cause[TM_ABORT_READ_WRITE],
           (unsigned long long)s.aborts_by_cause[TM_ABORT_WRITE_WRITE],
           (unsigned long long)s.aborts_by_cause[TM_ABORT_INEVITABLE], (unsigned long long)s.pages_privatised,
           (unsigned long long)g.minor_collections, (unsigned long long)g.major_collections);

    free(small);
    free(large);
    free(slow);
    free(layout);
    free(shared);
    tm_thread_detach();
    return 0;
}
