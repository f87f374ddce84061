/* Cheap timestamps for the runtime's statistics. */
#include "stats.h"
#include "tx.h"

#include <time.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Statistics count TSC ticks (a few ns to read; clock_gettime costs ~26 ns
 * here, too much for every commit) and convert when reported, calibrated
 * against the monotonic clock since start-up. The TSC is invariant on
 * every x86-64 CPU this runs on. */
static uint64_t calib_ns, calib_ticks;

void tm_ticks_calibrate(void)
{
    calib_ns = now_ns();
    calib_ticks = tm_ticks();
}

uint64_t tm_ticks_to_ns(uint64_t ticks)
{
    uint64_t dn = now_ns() - calib_ns, dt = tm_ticks() - calib_ticks;
    while (dn < 1000000) {   /* too soon after start-up to calibrate: wait 1 ms */
        dn = now_ns() - calib_ns;
        dt = tm_ticks() - calib_ticks;
    }
    return dt ? (uint64_t)((double)ticks * (double)dn / (double)dt) : 0;
}

/* Wait statistics (tx.h): global counters in ticks, updated atomically
 * (only by threads that have just waited, so rarely contended). Counts of
 * what happened, aborts included: never rolled back. */
const char *const tm_wait_names[TM_WAIT_KINDS] = {
    [TM_WAIT_INEVITABLE] = "inevitable", [TM_WAIT_SEGMENT] = "segment",
    [TM_WAIT_LOCK] = "lock", [TM_WAIT_MONITOR] = "monitor",
};
static uint64_t wait_count[TM_WAIT_KINDS], wait_ticks[TM_WAIT_KINDS], wait_max[TM_WAIT_KINDS];

uint64_t tm_wait_begin(void) { return tm_ticks(); }

void tm_wait_end(enum tm_wait_kind kind, uint64_t begun)
{
    uint64_t t = tm_ticks() - begun;
    __atomic_fetch_add(&wait_count[kind], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&wait_ticks[kind], t, __ATOMIC_RELAXED);
    uint64_t m = __atomic_load_n(&wait_max[kind], __ATOMIC_RELAXED);
    while (t > m && !__atomic_compare_exchange_n(&wait_max[kind], &m, t, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void tm_wait_get_stats(tm_wait_stat out[TM_WAIT_KINDS])
{
    for (int k = 0; k < TM_WAIT_KINDS; k++) {
        out[k].count = __atomic_load_n(&wait_count[k], __ATOMIC_RELAXED);
        out[k].total_ns = tm_ticks_to_ns(__atomic_load_n(&wait_ticks[k], __ATOMIC_RELAXED));
        out[k].max_ns = tm_ticks_to_ns(__atomic_load_n(&wait_max[k], __ATOMIC_RELAXED));
    }
}
