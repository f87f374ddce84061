/* The generational GC (paper 004, section 4.5): bump allocation in a
 * per-segment nursery, minor collections that move survivors to old space,
 * and stop-the-world mark-sweep major collections of old space.
 *
 * Rule for C code: any call that can allocate, collect, commit or abort can
 * move every young object. A reference held across such a call must be on
 * the shadow stack (TM_PUSH_ROOT / TM_POP_ROOT in thread.h); read it back
 * from there afterwards. TMPY_GC_DEBUG=move makes every allocation collect. */
#ifndef TM_GC_H
#define TM_GC_H

#include "object.h"
#include "segment.h"

#include <stddef.h>
#include <stdint.h>

/* Segment-local data, at a fixed offset in every segment (read through %gs). */
struct tm_seglocal {
    uintptr_t nursery_current;
    /* Allocation takes the slow path once nursery_current would pass this;
     * lowering it is how another thread asks this one to reach a safe point. */
    volatile uintptr_t nursery_end;
    uint8_t read_version;     /* STM: this transaction's value in the read markers; 0: none (solo) */
    uint8_t marker_version;   /* STM: the last non-zero read_version (markers are cleared as it wraps) */
};

/* nursery_end set to this makes the next allocation (or tm_safepoint) stop. */
#define TM_NURSERY_END_SIGNAL ((uintptr_t)0)
#define TM_SEGLOCAL ((struct tm_seglocal __seg_gs *)TM_SEGLOCAL_OFFSET)

/* Bigger objects are allocated in old space directly (still young). */
#define TM_NURSERY_MAX_OBJECT (64UL << 10)

object_t *tm_allocate_slow(uint16_t tid, size_t size);

/* A zeroed object of `size` bytes (header included) and type `tid`, or NULL
 * when the heap is exhausted (the interpreter raises MemoryError). May collect. */
static inline object_t *tm_allocate(uint16_t tid, size_t size)
{
    size = tm_round_size(size);
    uintptr_t cur = TM_SEGLOCAL->nursery_current;
    if (__builtin_expect(size > TM_NURSERY_MAX_OBJECT || cur + size > TM_SEGLOCAL->nursery_end, 0))
        return tm_allocate_slow(tid, size);
    TM_SEGLOCAL->nursery_current = cur + size;
    object_t *o = (object_t *)cur;
    o->h.tid = tid; /* flags and overflow are zero: the nursery is zeroed */
    return o;
}

/* A zeroed object that never moves (allocated outside the nursery): for
 * long-lived objects C code keeps raw pointers into (code, types). NULL when
 * the heap is exhausted. May collect. */
object_t *tm_allocate_old(uint16_t tid, size_t size);

/* A varsize object with `nitems` items, its length field set. NULL if too big. */
object_t *tm_allocate_var(uint16_t tid, uintptr_t nitems);

void tm_write_slowpath(object_t *o);
void tm_write_items_slowpath(object_t *o, uintptr_t index, uintptr_t count);

/* Explicit collections (tests, benchmarks, the interpreter's gc.collect). */
void tm_collect_minor(void);
void tm_collect_major(void);

/* The segment offset a young object in the nursery will have once old, so
 * that its identity (id()) is known without a minor collection: old space
 * for it is reserved now and the next minor collection of this segment
 * copies it there (keeping it alive that once). Repeated calls give the
 * same offset. Returns the object's own offset if it is not in the
 * nursery, 0 when old space is full. */
uintptr_t tm_reserve_old_address(object_t *o);

/* A C global that holds a reference; traced by every collection. */
void tm_add_global_root(object_t **slot);

/* Weak references and finalizers (runtime/weak.c). A weak reference is an
 * object whose layout has a weak slot (tm_type.weak_offset), allocated
 * young (tm_allocate; tm_allocate_old refuses the layout). Minor
 * collections update weak slots whose referent moved and clear those whose
 * young referent died; major collections clear those whose referent is
 * unmarked. Cleared weak references of a `weak_notify` layout that are
 * still alive themselves are queued; the embedder takes them afterwards,
 * outside the collector, and runs their callbacks.
 *
 * A registered object (tm_register_finalizer) that a major collection finds
 * unreachable is kept alive with everything it references, queued once, and
 * forgotten: the embedder finalizes it, and a later collection frees it
 * unless the finalizer resurrected it (PEP 442: once per registration).
 * Weak references to it are cleared first, as CPython's collector does.
 * Minor collections treat registered young objects as roots, so only major
 * collections finalize. STM: the lists of a transaction are its own until it
 * commits; an abort forgets them. */
void tm_register_finalizer(object_t *o);
/* Takes back the registration of o if it is this segment's latest one and
 * not yet published (O(1): for an object that turns out not to need one
 * right after it was registered); false otherwise. */
bool tm_unregister_last_finalizer(object_t *o);
/* At exit (the embedder's shutdown, as CPython finalizes what module
 * globals still hold): queue registered objects for finalization although
 * they are reachable, forgetting their registration. tm_finalize_now: one
 * object (false: it is not registered, or no longer); tm_finalize_all_now:
 * every registered object `want` accepts (it must not allocate), in
 * registration order. Linear
 * searches: not for use while the program runs. */
bool tm_finalize_now(object_t *o);
void tm_finalize_all_now(bool (*want)(object_t *o, void *ctx), void *ctx);
/* Queued work for the embedder (a racy read; 0 means nothing queued). */
extern volatile size_t tm_gc_pending;
/* The next cleared weak reference / unreachable finalizable object, or
 * NULL. STM: call them in an inevitable transaction (a pop is not undone). */
object_t *tm_take_cleared_weakref(void);
object_t *tm_take_finalizable(void);
/* Record w, a weak reference just allocated in the nursery, so that
 * tm_foreach_weakref_to finds it before a minor collection moves it. */
void tm_weak_note_young(object_t *w);
/* Weak references to `referent` that the collector knows (the published
 * ones, this transaction's own, and the young ones noted with
 * tm_weak_note_young): calls fn for each; fn must not allocate. Dead weak
 * references not yet collected are included. */
void tm_foreach_weakref_to(object_t *referent, void (*fn)(object_t *weakref, void *ctx), void *ctx);
/* Objects the last major collection freed (an honest count for gc.collect). */
uint64_t tm_gc_last_freed_objects(void);
/* Counting the dead containers (objects whose layout holds a reference: the
 * ones a reference-counting collector leaves to its cycle detector) that
 * the calling thread's collections find, young ones included, from
 * tm_gc_count_dead_start() until tm_gc_count_dead_stop() (which returns the
 * count). For gc.collect()'s result: a tracing collector cannot tell cyclic
 * garbage from the rest, but atomic objects (numbers, strings) never count. */
void tm_gc_count_dead_start(void);
uint64_t tm_gc_count_dead_stop(void);
/* Some object is registered for finalization (published or this transaction's). */
bool tm_gc_has_finalizers(void);

/* Tuning from the embedder (Python's gc module). STM: call them from an
 * inevitable transaction (they write C globals). Automatic major
 * collections are the ones old-space growth starts; with them off, major
 * collections still run when old space cannot take a nursery's survivors. */
void tm_gc_set_auto_major(bool on);
bool tm_gc_auto_major(void);
/* The major threshold: max(min_bytes, factor x live bytes after the last one). */
void tm_gc_set_major_threshold(size_t min_bytes, double factor);
void tm_gc_get_major_threshold(size_t *min_bytes, double *factor);
size_t tm_gc_nursery_size(void);
/* Bytes this segment allocated young since its last minor collection. */
size_t tm_gc_young_bytes(void);
/* Minor collections (all segments) since the last major collection. */
uint64_t tm_gc_minors_since_major(void);

typedef struct tm_gc_stats {
    uint64_t minor_collections, major_collections;
    uint64_t bytes_survived;        /* moved out of nurseries by minor collections */
    uint64_t minor_ns, major_ns;
    uint64_t old_bytes_used;        /* old-space bytes in live objects (as of now) */
    uint64_t old_pages_in_use;
    uint64_t pages_released;        /* given back to the kernel, in total */
    uint64_t large_objects;
    uint64_t pages_reshared;        /* STM: private pages re-shared by major collections */
} tm_gc_stats;

void tm_gc_get_stats(tm_gc_stats *out);
/* Minor plus major collections so far: a cheap epoch for caches of raw
 * addresses into young objects (they are stale once it changes). */
uint64_t tm_gc_collections(void);

#endif
