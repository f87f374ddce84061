/* Major collection (paper 004, section 4.5): with the world stopped, empty
 * the nursery, mark old space from every root, sweep, return empty pages. In
 * the GIL build the world is stopped by holding the GIL: every other thread
 * is waiting for the segment or blocked outside the heap, and has no young
 * objects (it ran a minor collection when it let the segment go). */
#include "fatal.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "thread.h"

#include <pthread.h>
#include <stdlib.h>

size_t tm_major_threshold;
static tm_list mark_stack;

static inline void mark(object_t *o)
{
    if (o && tm_old_mark((uintptr_t)o))
        tm_list_push(&mark_stack, (uintptr_t)o);
}

static void mark_slot(object_t *__seg_gs *slot, void *ctx) { (void)ctx; mark(*slot); }
static void mark_root(object_t **slot, void *ctx) { (void)ctx; mark(*slot); }

void tm_collect_major(void)
{
    TM_ASSERT(tm_self.segment > 0);
    tm_collect_minor();
    uint64_t t0 = tm_now_ns();
    tm_threads_visit_roots(mark_root, NULL);
    tm_visit_global_roots(mark_root, NULL);
    while (mark_stack.count)
        tm_trace((object_t *)tm_list_pop(&mark_stack), mark_slot, NULL);
    tm_old_sweep();
    size_t next = (size_t)((double)tm_old_bytes_used * tm_cfg.major_factor);
    tm_major_threshold = next > tm_cfg.major_min ? next : tm_cfg.major_min;
    tm_stats.major_collections++;
    tm_stats.major_ns += tm_now_ns() - t0;
}

/* Global roots: C variables that hold references. */
static object_t ***global_roots;
static size_t nglobal, capglobal;
static pthread_mutex_t roots_lock = PTHREAD_MUTEX_INITIALIZER;

void tm_add_global_root(object_t **slot)
{
    pthread_mutex_lock(&roots_lock);
    if (nglobal == capglobal) {
        capglobal = capglobal ? capglobal * 2 : 64;
        global_roots = realloc(global_roots, capglobal * sizeof *global_roots);
        if (!global_roots)
            tm_fatal("out of C memory registering a global root");
    }
    global_roots[nglobal++] = slot;
    pthread_mutex_unlock(&roots_lock);
}

void tm_visit_global_roots(void (*visit)(object_t **slot, void *ctx), void *ctx)
{
    for (size_t i = 0; i < nglobal; i++)
        visit(global_roots[i], ctx);
}
