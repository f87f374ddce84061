/* State shared by the GC's files; not part of the runtime's API. */
#ifndef TM_GC_INTERNAL_H
#define TM_GC_INTERNAL_H

#include "config.h"
#include "gc.h"
#include "list.h"

/* Per-segment collector state, in C memory. */
typedef struct tm_segstate {
    tm_list remembered;       /* old objects written since the last minor collection */
    tm_list young_outside;    /* young objects too big for the nursery */
    size_t young_outside_bytes;
    tm_list to_trace;         /* minor collection: survivors whose fields need fixing */
    uintptr_t young_start;    /* move mode: first young byte of the nursery */
} tm_segstate;

extern tm_segstate tm_segstates[TM_MAX_SEGMENTS + 1];
extern tm_config tm_cfg;
extern tm_gc_stats tm_stats;
extern size_t tm_major_threshold;

void tm_visit_global_roots(void (*visit)(object_t **slot, void *ctx), void *ctx);
void tm_gc_init(void);
uint64_t tm_now_ns(void);

#endif
