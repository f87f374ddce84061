/* monitor_bench: the cost of an uncontended lock/unlock pair on an object
 * monitor (runtime/monitor.h), one thread holding the GIL, against pthread
 * mutexes:
 *
 *   thin, first level      tm_monitor_enter + tm_monitor_exit on an unlocked
 *                          object (one CAS, one plain store)
 *   thin, nested           the same while the thread already holds it once
 *                          (two plain stores)
 *   fat, first level       on an inflated monitor nobody else uses (the fat
 *                          lock's internal spin lock, owner, count)
 *   fat, nested            the same, already held once
 *   pthread mutex          pthread_mutex_lock + unlock, default mutex
 *   pthread recursive      PTHREAD_MUTEX_RECURSIVE, first level and nested
 *
 * Each kind runs TRIALS trials of N pairs on the same object (an old object
 * with the write-barrier flag set, the common case for a shared lock), the
 * trials of all kinds interleaved, and reports the median and minimum ns per
 * pair. The loops are back to back: an unlock's plain store is still in the
 * store buffer when the next lock's locked instruction must drain it, which
 * real code (with work between the two) mostly hides. TMPY_BENCH_SCALE
 * multiplies N. */
#define _GNU_SOURCE
#include "tmrt.h"
#include "monitor.h"
#define BENCH_NAME "monitor_bench"
#include "benchutil.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define TRIALS 15

typedef __seg_gs struct cell {
    tm_header h;
    uintptr_t v;
} cell_t;

static uint16_t T_CELL;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum kind { THIN, THIN_NESTED, FAT, FAT_NESTED, PMUTEX, PRECURSIVE, PRECURSIVE_NESTED, KINDS };

static const char *labels[KINDS] = {
    "monitor, thin, first level",
    "monitor, thin, nested (held once)",
    "monitor, fat, first level (uncontended)",
    "monitor, fat, nested (held once)",
    "pthread_mutex (default)",
    "pthread_mutex (recursive), first level",
    "pthread_mutex (recursive), nested",
};

static pthread_mutex_t pm = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t rm;

/* One trial: n lock/unlock pairs; returns ns per pair. */
static double trial(enum kind k, object_t *thin, object_t *fat, size_t n)
{
    double t0 = now_s();
    switch (k) {
    case THIN:
    case THIN_NESTED:
    case FAT:
    case FAT_NESTED: {
        object_t *o = k == THIN || k == THIN_NESTED ? thin : fat;
        for (size_t i = 0; i < n; i++) {
            tm_monitor_enter(o);
            if (__builtin_expect(!tm_monitor_exit(o), 0))
                die("tm_monitor_exit failed");
        }
        break;
    }
    case PMUTEX:
        for (size_t i = 0; i < n; i++) {
            pthread_mutex_lock(&pm);
            pthread_mutex_unlock(&pm);
        }
        break;
    case PRECURSIVE:
    case PRECURSIVE_NESTED:
        for (size_t i = 0; i < n; i++) {
            pthread_mutex_lock(&rm);
            pthread_mutex_unlock(&rm);
        }
        break;
    default:
        break;
    }
    return (now_s() - t0) * 1e9 / (double)n;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    double scale = bench_scale();
    size_t n = scaled(5e6, scale, 1000);
    tm_runtime_init_from_env();
    T_CELL = tm_register_type(&(tm_type){.name = "cell", .base_size = sizeof(struct cell)});
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rm, &a);
    pthread_mutexattr_destroy(&a);

    tm_thread_attach();
    tm_start_transaction();
    object_t *thin = tm_allocate(T_CELL, sizeof(struct cell));
    object_t *fat = tm_allocate(T_CELL, sizeof(struct cell));
    if (!thin || !fat)
        die("allocation failed");
    TM_PUSH_ROOT(thin);
    TM_PUSH_ROOT(fat);
    tm_collect_minor();       /* both old now, with the write-barrier flag */
    TM_POP_ROOT(fat);
    TM_POP_ROOT(thin);
    tm_monitor_enter_count(fat, 300);   /* inflates (more than 256 levels) */
    if (tm_monitor_exit_all(fat) != 300 || !(fat->h.flags & TM_LOCK_FAT_BIT))
        die("could not inflate");
    if (thin->h.flags & TM_LOCK_FIELD_MASK)
        die("thin object is locked");

    char load[64] = "unknown";
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (!fgets(load, sizeof load, lf))
            strcpy(load, "unknown");
        load[strcspn(load, "\n")] = 0;
        fclose(lf);
    }
    printf("monitor_bench: TMPY_BENCH_SCALE=%g, %zu lock/unlock pairs per trial, median (min) of %d trials "
           "interleaved, one thread holding the GIL (load average at start: %s)\n\n", scale, n, TRIALS, load);
    /* Trials interleaved across the kinds, so that a change in the host's
     * load hits them all alike. */
    double t[KINDS][TRIALS], med[KINDS], mn[KINDS];
    for (int i = -1; i < TRIALS; i++) {
        for (int k = 0; k < KINDS; k++) {
            if (k == THIN_NESTED)
                tm_monitor_enter(thin);
            if (k == FAT_NESTED)
                tm_monitor_enter(fat);
            if (k == PRECURSIVE_NESTED)
                pthread_mutex_lock(&rm);
            if (i < 0)
                trial((enum kind)k, thin, fat, n / 10 + 1);   /* warm up */
            else
                t[k][i] = trial((enum kind)k, thin, fat, n);
            if (k == THIN_NESTED && !tm_monitor_exit(thin))
                die("exit");
            if (k == FAT_NESTED && !tm_monitor_exit(fat))
                die("exit");
            if (k == PRECURSIVE_NESTED)
                pthread_mutex_unlock(&rm);
        }
    }
    for (int k = 0; k < KINDS; k++) {
        med[k] = median(t[k], TRIALS);
        mn[k] = minimum(t[k], TRIALS);
        printf("  %-42s %6.2f ns/pair (%5.2f)\n", labels[k], med[k], mn[k]);
    }
    tm_monitor_stats s;
    tm_monitor_get_stats(&s);
    if (s.inflations != 1 || s.contended_enters != 0)
        die("unexpected inflation or contention during the benchmark");
    if ((thin->h.flags & TM_LOCK_FIELD_MASK) || tm_monitor_owner(fat) != 0)
        die("a monitor was left locked");
    printf("\n  thin first level vs pthread default mutex: %.2fx; vs recursive mutex: %.2fx\n",
           med[THIN] / med[PMUTEX], med[THIN] / med[PRECURSIVE]);
    printf("  thin nested vs recursive mutex nested:     %.2fx\n", med[THIN_NESTED] / med[PRECURSIVE_NESTED]);
    printf("  fat first level vs thin first level:       %.2fx\n", med[FAT] / med[THIN]);
    tm_commit_transaction();
    tm_thread_detach();
    return 0;
}
