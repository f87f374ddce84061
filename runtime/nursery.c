/* Nursery allocation and minor collection (paper 004, sections 4.5, 4.7). */
#include "cards.h"
#include "fatal.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "thread.h"

#include <stdlib.h>
#include <string.h>

tm_segstate tm_segstates[TM_MAX_SEGMENTS + 1];
tm_gc_stats tm_stats;
bool tm_gc_roots_all_threads;

#define NURSERY_POISON 0x5a  /* a poisoned header has type id 0x5a5a: invalid */

void tm_gc_init(void)
{
    for (int s = 0; s <= tm_seg.nsegments; s++) {
        struct tm_seglocal *sl = (struct tm_seglocal *)(tm_segment_base(s) + TM_SEGLOCAL_OFFSET);
        sl->nursery_current = tm_seg.nursery_start;
        sl->nursery_end = tm_cfg.gc_debug_move ? tm_seg.nursery_start : tm_seg.nursery_end;
        sl->read_version = sl->marker_version = 1;
        tm_segstates[s].seg = s;
        tm_segstates[s].young_start = tm_seg.nursery_start;
    }
}

/* Copy nursery object o to old space at n, leaving the forwarding address.
 * Copies carry the transaction's overflow number (STM), so the write
 * barrier knows them as its own, and are published at commit. */
static inline object_t *move_to(object_t *o, uintptr_t n, size_t size, tm_segstate *ss)
{
    uintptr_t __seg_gs *words = (uintptr_t __seg_gs *)o;
    uintptr_t __seg_gs *to = (uintptr_t __seg_gs *)n;
    for (size_t i = 0; i < size / 8; i++)
        to[i] = words[i];
    ((object_t *)n)->h.flags |= TM_GCFLAG_WRITE_BARRIER;
    ((object_t *)n)->h.overflow = ss->overflow;
    o->h.flags = TM_GCFLAG_FORWARDED;
    words[1] = n;
    tm_list_push(&ss->to_trace, n);
    if (TM_STM)
        tm_list_push(&ss->created, n);
    ss->survived += size;
    return (object_t *)n;
}

/* Where a young object lives after this collection; copies it on first sight. */
static inline object_t *forward(object_t *o, tm_segstate *ss)
{
    uintptr_t so = (uintptr_t)o;
    if (so & TM_IMMEDIATE_TAG)
        return o;   /* a tagged immediate (e.g. a small int), not a reference */
    if (tm_in_nursery(so)) {
        uintptr_t __seg_gs *words = (uintptr_t __seg_gs *)o;
        if (o->h.flags & TM_GCFLAG_FORWARDED)
            return (object_t *)words[1];
        if (so < ss->young_start || so >= TM_SEGLOCAL->nursery_current)
            tm_fatal("a reference to SO %#lx, a nursery object freed by an earlier collection "
                     "(a reference held across an allocation without a root?)", (unsigned long)so);
        size_t size = tm_object_size(o);
        uintptr_t n = tm_old_alloc(ss->seg, size);
        if (!n)
            tm_fatal("old space exhausted during a minor collection");
        return move_to(o, n, size, ss);
    }
    if (ss->young_outside.count && o && (o->h.flags & TM_GCFLAG_YOUNG_OUTSIDE)) {
        o->h.flags = (o->h.flags & ~TM_GCFLAG_YOUNG_OUTSIDE) | TM_GCFLAG_WRITE_BARRIER;
        o->h.overflow = ss->overflow;
        tm_list_push(&ss->to_trace, so);
        if (TM_STM)
            tm_list_push(&ss->created, so);
    }
    return o;
}

static void fix_slot(object_t *__seg_gs *slot, void *ctx)
{
    object_t *o = *slot, *n = forward(o, ctx);
    if (n != o)
        *slot = n;
}

static void fix_root(object_t **slot, void *ctx) { *slot = forward(*slot, ctx); }

/* The weak references that survived this collection young: a referent
 * that moved is followed, one that died (a nursery object not copied, a big
 * young object not reached) is cleared, and the weak reference queued if
 * its layout asks. Weak references that were old already need nothing:
 * their slot was written while they were young, so their referent is old. */
static void update_weak_slots(tm_segstate *ss)
{
    for (size_t i = 0; i < ss->weak_young.count; i++) {
        object_t *w = (object_t *)ss->weak_young.items[i];
        const tm_type *t = &tm_types[w->h.tid];
        object_t *__seg_gs *slot = (object_t *__seg_gs *)((char __seg_gs *)w + t->weak_offset);
        object_t *r = *slot;
        uintptr_t so = (uintptr_t)r;
        bool dead = false;
        if (!r || (so & TM_IMMEDIATE_TAG))
            ;
        else if (tm_in_nursery(so)) {
            if (r->h.flags & TM_GCFLAG_FORWARDED)
                *slot = (object_t *)((uintptr_t __seg_gs *)r)[1];
            else
                dead = true;
        } else if (r->h.flags & TM_GCFLAG_YOUNG_OUTSIDE)
            dead = true;   /* still flagged: the trace never reached it */
        if (dead) {
            *slot = NULL;
            if (t->weak_notify)
                tm_list_push(&ss->weak_cleared, (uintptr_t)w);
        }
        tm_list_push(&ss->weak_new, (uintptr_t)w);
    }
    ss->weak_young.count = 0;
}

static void fix_thread_roots(tm_thread *t, void *ss)
{
    for (object_t **p = t->ss_base; p < t->ss_top; p++)
        fix_root(p, ss);
}

/* Empty the nursery of the segment %gs addresses. Move mode poisons what
 * was young and allocates on past it, so a stale reference finds garbage
 * instead of a new object. */
static void empty_nursery(tm_segstate *ss)
{
    uintptr_t used_end = TM_SEGLOCAL->nursery_current;
    char *young = tm_linear((char __seg_gs *)ss->young_start);
    ss->weak_allocated.count = 0;   /* moved (now in weak_young) or dead */
    tm_compiler_barrier();
    if (tm_cfg.gc_debug_move) {
        memset(young, NURSERY_POISON, used_end - ss->young_start);
        ss->young_start = used_end;
    } else {
        memset(young, 0, used_end - ss->young_start);
        TM_SEGLOCAL->nursery_current = tm_seg.nursery_start;
    }
    tm_compiler_barrier();
}

static void fix_item_range(uintptr_t start, uintptr_t end, void *ss)
{
    for (uintptr_t p = start; p < end; p += sizeof(uintptr_t))
        fix_slot((object_t *__seg_gs *)p, ss);
}

/* Carded objects: trace the items of their marked cards, unless a plain
 * write barrier remembered the whole object too (its flag is clear then). */
static void trace_carded(tm_segstate *ss)
{
    for (size_t i = 0; i < ss->carded.count; i++) {
        object_t *o = (object_t *)ss->carded.items[i];
        uintptr_t so = (uintptr_t)o;
        size_t size = tm_object_size(o);
        o->h.flags &= ~TM_GCFLAG_CARDS_SET;
        if (o->h.flags & TM_GCFLAG_WRITE_BARRIER)
            tm_cards_take(TM_CARDS_GC, ss->seg, so + tm_types[o->h.tid].base_size, so + size,
                          fix_item_range, ss);
        else
            tm_cards_clear(TM_CARDS_GC, ss->seg, so, size);
    }
    ss->carded.count = 0;
}

/* ---- addresses promised to young objects (tm_reserve_old_address) ---- */
static size_t reserved_slot(const tm_segstate *ss, uintptr_t so)
{
    size_t mask = ss->reserved_cap - 1;
    size_t i = (size_t)(((so >> 4) * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
    for (uintptr_t k; (k = ss->reserved_index[i]); i = (i + 1) & mask)
        if (ss->reserved.items[2 * (k - 1)] == so)
            break;
    return i;
}

static void reserved_grow(tm_segstate *ss)
{
    size_t cap = ss->reserved_cap ? ss->reserved_cap * 2 : 64;
    uintptr_t *index = calloc(cap, sizeof *index);
    if (!index)
        tm_fatal("out of C memory reserving an old address");
    free(ss->reserved_index);
    ss->reserved_index = index;
    ss->reserved_cap = cap;
    for (size_t p = 0; p < ss->reserved.count; p += 2)
        index[reserved_slot(ss, ss->reserved.items[p])] = p / 2 + 1;
}

/* After a collection or an abort: no promise is pending. A reserved block
 * whose object was discarded is unmarked and the next sweep frees it. */
static void reserved_clear(tm_segstate *ss)
{
    if (!ss->reserved.count)
        return;
    ss->reserved.count = 0;
    if (ss->reserved_cap > 1024) {   /* a burst: give the index back */
        free(ss->reserved_index);
        ss->reserved_index = NULL;
        ss->reserved_cap = 0;
    } else {
        memset(ss->reserved_index, 0, ss->reserved_cap * sizeof *ss->reserved_index);
    }
}

uintptr_t tm_reserve_old_address(object_t *o)
{
    uintptr_t so = (uintptr_t)o;
    if (!tm_in_nursery(so))
        return so;
    tm_segstate *ss = &tm_segstates[tm_self.segment];
    size_t npairs = ss->reserved.count / 2;
    if ((npairs + 1) * 2 > ss->reserved_cap)
        reserved_grow(ss);
    size_t i = reserved_slot(ss, so);
    if (ss->reserved_index[i])
        return ss->reserved.items[2 * (ss->reserved_index[i] - 1) + 1];
    uintptr_t n = tm_old_alloc(ss->seg, tm_object_size(o));
    if (!n)
        return 0;
    tm_list_push(&ss->reserved, so);
    tm_list_push(&ss->reserved, n);
    ss->reserved_index[i] = npairs + 1;
    return n;
}

void tm_gc_mark_reserved(void (*mark)(uintptr_t so))
{
    for (int s = 0; s <= tm_seg.nsegments; s++)
        for (size_t p = 1; p < tm_segstates[s].reserved.count; p += 2)
            mark(tm_segstates[s].reserved.items[p]);
}

void tm_discard_young(tm_segstate *ss)
{
    empty_nursery(ss);
    /* The carded objects are old: their headers are the committed ones
     * again (or garbage the abort left); only their cards need clearing. */
    for (size_t i = 0; i < ss->carded.count; i++)
        tm_cards_clear(TM_CARDS_GC, ss->seg, ss->carded.items[i],
                       tm_object_size((object_t *)ss->carded.items[i]));
    ss->carded.count = 0;
    for (size_t i = 0; i < ss->young_outside.count; i++) {
        tm_old_note_freed(ss->young_outside.items[i], 1, ss->seg);
        tm_old_young_free(ss->young_outside.items[i]);
    }
    ss->young_outside.count = 0;
    ss->young_outside_bytes = 0;
    ss->remembered.count = 0;
    ss->to_trace.count = 0;
    reserved_clear(ss);
    tm_weak_forget(ss);
}

/* The nursery objects this collection did not move (bump-allocated, so
 * parseable: a moved one's size is its copy's) that hold references. */
static uint64_t dead_young_containers(tm_segstate *ss, uintptr_t used_end)
{
    uint64_t n = 0;
    for (uintptr_t p = ss->young_start; p < used_end;) {
        object_t *o = (object_t *)p;
        if (o->h.flags & TM_GCFLAG_FORWARDED) {
            p += tm_object_size((object_t *)((uintptr_t __seg_gs *)o)[1]);
            continue;
        }
        n += tm_tid_holds_refs(o->h.tid);
        p += tm_object_size(o);
    }
    return n;
}

void tm_gc_count_dead_start(void)
{
    tm_self.count_dead = true;
    tm_self.dead_found = 0;
}

uint64_t tm_gc_count_dead_stop(void)
{
    tm_self.count_dead = false;
    return tm_self.dead_found;
}

/* Minor collection of segment ss->seg, whose nursery %gs must address now;
 * roots are the shadow stack of the thread running there. */
void tm_collect_minor_of(tm_segstate *ss)
{
    if (!TM_STM && tm_gc_roots_all_threads)
        tm_threads_drain_remembered(&ss->remembered);   /* the write barrier's per-thread lists */
    uintptr_t used_end = TM_SEGLOCAL->nursery_current;
    if (used_end == ss->young_start && !ss->remembered.count && !ss->young_outside.count &&
        !ss->carded.count) {
        if (!TM_STM)
            tm_weak_publish(ss);   /* objects registered while old */
        return;
    }
    uint64_t t0 = tm_ticks();
    /* Under the checks (move mode, the barrier checker), before anything
     * is promoted: a remembered object the last major collection freed is
     * a bug that is otherwise silent (the flag write and the trace below
     * land in free memory). */
    if (TM_STM && (tm_cfg.gc_debug_move || tm_check_writes))
        for (size_t i = 0; i < ss->remembered.count; i++)
            if (!tm_in_nursery(ss->remembered.items[i]) && !tm_old_is_allocated(ss->remembered.items[i]))
                tm_fatal("minor collection: remembered SO %#lx is not an allocated old object "
                         "(freed by a major collection while its transaction ran?)",
                         (unsigned long)ss->remembered.items[i]);

    /* Objects promised an old address move there first, alive or not:
     * their identity is out. */
    for (size_t p = 0; p < ss->reserved.count; p += 2) {
        object_t *o = (object_t *)ss->reserved.items[p];
        move_to(o, ss->reserved.items[p + 1], tm_object_size(o), ss);
    }
    reserved_clear(ss);

    /* Roots: the running thread's shadow stack (a thread that gave the
     * segment up holds no young reference) and the C globals. Under STM a
     * global is written only by the inevitable transaction (C memory is not
     * transactional), so only its collection can find young objects there. */
    if (!TM_STM && tm_gc_roots_all_threads)
        tm_threads_foreach(fix_thread_roots, ss);
    else
        fix_thread_roots(ss->thread, ss);
    if (tm_inevitable_segment() == ss->seg)   /* always, in the GIL build */
        tm_visit_global_roots(fix_root, ss);
    /* Old objects written since the last collection: cards first (an
     * object also remembered whole has its flag clear until the loop after). */
    trace_carded(ss);
    for (size_t i = 0; i < ss->remembered.count; i++) {
        object_t *o = (object_t *)ss->remembered.items[i];
        tm_trace(o, fix_slot, ss);
        o->h.flags |= TM_GCFLAG_WRITE_BARRIER;
    }
    ss->remembered.count = 0;
    /* Registered objects are roots until a major collection finalizes them. */
    for (size_t i = 0; i < ss->final_new.count; i++)
        ss->final_new.items[i] = (uintptr_t)forward((object_t *)ss->final_new.items[i], ss);
    /* Everything reachable from the survivors. */
    while (ss->to_trace.count) {
        object_t *o = (object_t *)tm_list_pop(&ss->to_trace);
        if (tm_types[o->h.tid].weak_offset)
            tm_list_push(&ss->weak_young, (uintptr_t)o);
        tm_trace(o, fix_slot, ss);
    }
    update_weak_slots(ss);
    if (tm_self.count_dead)
        tm_self.dead_found += dead_young_containers(ss, used_end);
    /* Young objects outside the nursery: reached ones are old now. */
    for (size_t i = 0; i < ss->young_outside.count; i++) {
        uintptr_t so = ss->young_outside.items[i];
        if (((object_t *)so)->h.flags & TM_GCFLAG_YOUNG_OUTSIDE) {
            if (tm_self.count_dead)
                tm_self.dead_found += tm_tid_holds_refs(((object_t *)so)->h.tid);
            tm_old_note_freed(so, 0, ss->seg);
            tm_old_young_free(so);
        } else
            tm_old_young_promoted(so);
    }
    ss->young_outside.count = 0;
    ss->young_outside_bytes = 0;

    empty_nursery(ss);
    if (!TM_STM)
        tm_weak_publish(ss);
    /* Segments collect in parallel under STM. */
    __atomic_add_fetch(&tm_stats.bytes_survived, ss->survived, __ATOMIC_RELAXED);
    ss->survived = 0;
    __atomic_add_fetch(&tm_stats.minor_collections, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&tm_stats.minor_ns, tm_ticks() - t0, __ATOMIC_RELAXED);
}

void tm_collect_minor(void)
{
    TM_ASSERT(tm_self.segment > 0);
#if !TM_STM
    tm_htm_need_gil();
#endif
    tm_collect_minor_of(&tm_segstates[tm_self.segment]);
}

/* Old space must be able to take every survivor of the nursery we hand out
 * (size classes round up: twice the nursery, plus a partial page per class),
 * after `extra` more bytes taken from it directly (objects born old or too
 * big for the nursery): a minor collection has nowhere to fail to. */
static bool room_for_nursery_and(size_t extra)
{
    size_t need = 2 * (tm_seg.nursery_end - tm_seg.nursery_start) + (64 << 12) + extra;
    if (tm_old_free_bytes() >= need)
        return true;
    tm_collect_major();
    return tm_old_free_bytes() >= need;
}

static bool room_for_nursery(void) { return room_for_nursery_and(0); }

/* Hand out [cur, cur + size) of the nursery (the fast path's bump). */
static object_t *take(uintptr_t cur, size_t size, uint16_t tid)
{
    TM_SEGLOCAL->nursery_current = cur + size;
    object_t *o = (object_t *)cur;
    o->h.tid = tid;
    return o;
}

static object_t *allocate_young_outside(uint16_t tid, size_t size)
{
    tm_segstate *ss = &tm_segstates[tm_self.segment];
    if (size > tm_seg.segment_size)
        return NULL;
    if (ss->young_outside_bytes + size > tm_seg.nursery_end - tm_seg.nursery_start)
        tm_collect_minor();
    tm_gc_maybe_collect_major();
    if (!room_for_nursery_and(size))
        return NULL;   /* MemoryError, not a minor collection without room later */
    uintptr_t so = tm_old_alloc_young(tm_self.segment, size);
    if (!so) {
        tm_collect_major();
        if (!(so = tm_old_alloc_young(tm_self.segment, size)))
            return NULL;
    }
    object_t *o = (object_t *)so;   /* zeroed, and writable under the barrier checker */
    o->h.flags = TM_GCFLAG_YOUNG_OUTSIDE;
    o->h.tid = tid;
    tm_list_push(&ss->young_outside, so);
    ss->young_outside_bytes += size;
    return o;
}

/* Move mode: the bytes the allocations after this one may take before the
 * next collection, 0..gc_debug_room (16-byte steps, at most `left`), 0
 * half the time: an object allocated at once before a collection moves at
 * the next allocation, others after a few. */
static size_t move_mode_room(tm_segstate *ss, size_t left)
{
    if (!tm_cfg.gc_debug_room)
        return 0;
    uint64_t x = ss->room_rng ? ss->room_rng : 0x9e3779b97f4a7c15u ^ (uint64_t)ss->seg;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ss->room_rng = x;
    size_t room = (x & 1) ? ((x >> 8) % (tm_cfg.gc_debug_room + 1)) & ~(size_t)15 : 0;
    return room < left ? room : 0;
}

object_t *tm_allocate_slow(uint16_t tid, size_t size)
{
#if !TM_STM
    tm_htm_need_gil();
#else
    tm_stm_maybe_inject_abort();
    while (TM_SEGLOCAL->nursery_end == TM_NURSERY_END_SIGNAL) {
        tm_safepoint_slow();   /* may run our minor collection, or abort us */
        /* It was only a stop: the nursery may have room. */
        uintptr_t cur = TM_SEGLOCAL->nursery_current;
        if (size <= TM_NURSERY_MAX_OBJECT && cur + size <= TM_SEGLOCAL->nursery_end)
            return take(cur, size, tid);
    }
#endif
    if (size > TM_NURSERY_MAX_OBJECT)
        return allocate_young_outside(tid, size);
    tm_segstate *ss = &tm_segstates[tm_self.segment];
    tm_collect_minor();
    tm_gc_maybe_collect_major();
    if (!room_for_nursery())
        return NULL;
    uintptr_t cur = TM_SEGLOCAL->nursery_current;
    if (tm_cfg.gc_debug_move) {
        if (cur + size > tm_seg.nursery_end)
            cur = ss->young_start = tm_seg.nursery_start;   /* wrap around */
        size_t room = move_mode_room(ss, tm_seg.nursery_end - (cur + size));
        char *p = tm_linear((char __seg_gs *)cur);
        tm_compiler_barrier();
        memset(p, 0, size + room);
        tm_compiler_barrier();
        tm_set_nursery_end(cur + size + room);   /* the next allocation (past the room) collects again */
    }
    return take(cur, size, tid);
}

object_t *tm_allocate_var(uint16_t tid, uintptr_t nitems)
{
    const tm_type *t = &tm_types[tid];
    if (t->item_size && nitems > (tm_seg.segment_size - t->base_size) / t->item_size)
        return NULL;
    object_t *o = tm_allocate(tid, t->base_size + (size_t)t->item_size * nitems);
    if (o)
        *(uintptr_t __seg_gs *)((char __seg_gs *)o + t->length_offset) = nitems;
    return o;
}

object_t *tm_allocate_old(uint16_t tid, size_t size)
{
    /* A weak reference becomes known to the collector when a minor
     * collection finds it young (update_weak_slots): one born old would
     * never be cleared, and would outlive its referent. */
    TM_ASSERT(!tm_types[tid].weak_offset);
    size = tm_round_size(size);
#if !TM_STM
    tm_htm_need_gil();
    if (size <= TM_SMALL_MAX) {
        tm_gc_maybe_collect_major();
        if (!room_for_nursery_and(size))
            return NULL;
        uintptr_t so = tm_old_alloc(tm_self.segment, size);
        if (!so) {
            tm_collect_major();
            if (!(so = tm_old_alloc(tm_self.segment, size)))
                return NULL;
        }
        char *p = tm_linear((char __seg_gs *)so);
        tm_compiler_barrier();
        memset(p, 0, size);
        tm_compiler_barrier();
        /* Born old but not yet traced: remembered (no WRITE_BARRIER flag) so
         * that stores made before the next minor collection need no barrier. */
        object_t *o = (object_t *)so;
        o->h.tid = tid;
        tm_list_push(&tm_segstates[tm_self.segment].remembered, so);
        return o;
    }
#endif
    /* STM (objects created by a transaction must be published at commit)
     * and big objects: young outside the nursery, which never moves either. */
    return allocate_young_outside(tid, size);
}

#if !TM_STM
void tm_write_slowpath(object_t *o)
{
    o->h.flags &= ~TM_GCFLAG_WRITE_BARRIER;
    /* Under HTM elision each thread keeps its own list (transactions would
     * conflict on a shared one); minor collections drain them all. */
    tm_list_push(tm_gc_roots_all_threads ? &tm_self.remembered : &tm_segstates[tm_self.segment].remembered,
                 (uintptr_t)o);
}
#endif

#if !TM_STM
/* Without STM only references need cards: a raw object's barrier clears
 * its flag once, as tm_write does. */
void tm_write_items_slowpath(object_t *o, uintptr_t index, uintptr_t count)
{
    const tm_type *t = &tm_types[o->h.tid];
    /* Under HTM elision the remembered lists are per thread; cards are not. */
    if (tm_gc_roots_all_threads || !tm_gc_carded(t, tm_object_size(o))) {
        tm_write_slowpath(o);
        return;
    }
    uintptr_t lo = (uintptr_t)o + t->base_size + index * sizeof(uintptr_t);
    tm_gc_remember_cards(&tm_segstates[tm_self.segment], o, lo, lo + count * sizeof(uintptr_t) - 1);
}
#endif

uint64_t tm_gc_collections(void)
{
    return __atomic_load_n(&tm_stats.minor_collections, __ATOMIC_RELAXED) +
           __atomic_load_n(&tm_stats.major_collections, __ATOMIC_RELAXED);
}

void tm_gc_get_stats(tm_gc_stats *out)
{
    *out = tm_stats;
    out->minor_ns = tm_ticks_to_ns(tm_stats.minor_ns);
    out->major_ns = tm_ticks_to_ns(tm_stats.major_ns);
    out->old_bytes_used = tm_old_bytes_used;
    out->old_pages_in_use = tm_old_pages_in_use;
    out->pages_released = tm_old_pages_released;
    out->large_objects = tm_old_large_count;
}

size_t tm_gc_nursery_size(void) { return tm_seg.nursery_end - tm_seg.nursery_start; }

size_t tm_gc_young_bytes(void)
{
    if (!tm_self.segment)
        return 0;
    return TM_SEGLOCAL->nursery_current - tm_segstates[tm_self.segment].young_start +
           tm_segstates[tm_self.segment].young_outside_bytes;
}
