/* Start-up parameters, read from the environment (documented in README.md). */
#ifndef TM_CONFIG_H
#define TM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tm_config {
    int nsegments;          /* TMPY_SEGMENTS */
    size_t segment_size;    /* TMPY_SEGMENT_SIZE */
    size_t nursery_size;    /* TMPY_NURSERY_SIZE */
    size_t major_min;       /* TMPY_GC_MAJOR_MIN: old-space bytes before the first major collection */
    double major_factor;    /* next major at live * factor */
    bool gc_debug_move;     /* TMPY_GC_DEBUG=move: a minor collection at every allocation */
    uint32_t gc_debug_room; /* TMPY_GC_DEBUG=move:ROOM: after each collection, room for 0..ROOM more
                               bytes (random), so objects also stay young across a few allocations
                               before they move (a reference held across them is caught too) */
    bool gc_verify;         /* TMPY_GC_VERIFY=1 (debugging): before each sweep, every reference of a
                               live object is to a live one; freed slots are poisoned (tid 0) and
                               remembered, so a reference to one says who freed it (major.c) */
    bool wait_for_readers;  /* TMPY_STM_WAIT_FOR_READERS=1: a committer waits for an older or
                               inevitable reader of what it wrote instead of aborting one of them */
    bool stm_check;         /* TMPY_STM_CHECK=1: the write-barrier checker (barriercheck.c) */
    bool stm_solo;          /* TMPY_STM_SOLO=0 turns off solo transactions (stm.c): on by default */
    int stm_cm;             /* TMPY_STM_CM: the contention manager (contention.h), TM_CM_CFG_* */
    double inject_aborts;   /* TMPY_STM_INJECT_ABORTS=RATE[:SEED]: probability of a forced abort at */
    uint64_t inject_seed;   /* each commit, barrier slow path and allocation slow path (tests) */
    bool inject_diverge;    /* TMPY_STM_INJECT_DIVERGE=1: an injected abort's retry sees another world
                               (the clocks moved on, another thread's commit landed; stm.c) */
    bool wake_at_once;      /* TMPY_TEST_WAKE_AT_ONCE=1 (tests): wake.c wakes before the commit, which loses wake-ups */
    uint32_t wake_delay_us; /* TMPY_TEST_WAKE_DELAY=MAX_US: a random 0..MAX_US sleep after every wake-up
                               of a runtime wait loop (tests: a woken thread that runs late) */
    bool tm_htm;            /* TMPY_TM=htm (or --tm=htm): the GIL build elides its GIL with HTM */
    const char *htm_fake;   /* TMPY_HTM_FAKE: the fake HTM's script or model (tests), NULL: RTM */
    uint32_t htm_txlen;     /* TMPY_HTM_TXLEN: a constant transaction length, 0: per yield point */
} tm_config;

enum { TM_CM_CFG_OFF, TM_CM_CFG_ON, TM_CM_CFG_EAGER };   /* TMPY_STM_CM=off, on (default), eager (tests) */

/* A command line's choice of TMPY_TM (`--tm=htm`), set before
 * tm_runtime_init_from_env; it wins over the environment. */
extern const char *tm_config_tm_option;

void tm_config_defaults(tm_config *c);
/* Overrides defaults from the environment. Returns 0, or -1 with one line in err. */
int tm_config_from_env(tm_config *c, char *err, size_t errlen);

#endif
