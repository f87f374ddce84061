/* libtmrt: the tmpy runtime (segments, GC, threads, transactions). No Python
 * in it. Include this header; see docs/ARCHITECTURE.md for the rules. */
#ifndef TMRT_H
#define TMRT_H

#include "config.h"
#include "gc.h"
#include "object.h"
#include "segment.h"
#include "thread.h"
#include "tx.h"
#include "monitor.h"
#include "stats.h"
#include "park.h"
#include "wake.h"

/* Set up segments and the heap. Returns 0, or -1 with one line in err. */
int tm_runtime_init(const tm_config *cfg, char *err, size_t errlen);
/* Reads the environment; on a bad parameter prints "tmpy: error: ..." and exits 1. */
void tm_runtime_init_from_env(void);

extern tm_config tm_cfg;

#endif
