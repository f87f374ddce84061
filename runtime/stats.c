/* Cheap timestamps for the runtime's statistics. */
#include "stats.h"

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
