/* Cheap timestamps for statistics; tm_ticks_to_ns converts sums of them. */
#ifndef TM_STATS_H
#define TM_STATS_H

#include <stdint.h>

static inline uint64_t tm_ticks(void) { return __builtin_ia32_rdtsc(); }
void tm_ticks_calibrate(void);
uint64_t tm_ticks_to_ns(uint64_t ticks);

#endif
