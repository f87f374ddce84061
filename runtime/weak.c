/* Weak references and finalizers: the lists the collector keeps (gc.h says
 * what they mean). The collections' passes over them are in nursery.c
 * (minor) and major.c (major); this file holds the lists, their
 * publication at commit, and the embedder's side (register, take, find).
 *
 * Lists, all of segment offsets:
 * - per segment (tm_segstate): weak_new, the weak references its minor
 *   collections moved out of the nursery; final_new, its registered
 *   objects; weak_cleared, weak references its minor collections cleared.
 *   Under STM they are the running transaction's own, published at commit
 *   and forgotten at abort; the GIL build publishes them after every minor
 *   collection.
 * - global: every published weak reference (old, in creation order), every
 *   published registered object, and the two queues for the embedder. The
 *   queues are roots of major collections; minor ones never move their
 *   entries (they are old). */
#include "fatal.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "thread.h"

#include <pthread.h>
#include <string.h>

tm_list tm_weakrefs, tm_finalizable;
tm_queue tm_cleared_queue, tm_finalize_queue;
volatile size_t tm_gc_pending;
static pthread_mutex_t weak_lock = PTHREAD_MUTEX_INITIALIZER;

static void update_pending(void)
{
    size_t n = tm_cleared_queue.list.count - tm_cleared_queue.head +
               tm_finalize_queue.list.count - tm_finalize_queue.head;
    __atomic_store_n(&tm_gc_pending, n, __ATOMIC_RELAXED);
}

static void append(tm_list *to, tm_list *from)
{
    for (size_t i = 0; i < from->count; i++)
        tm_list_push(to, from->items[i]);
    from->count = 0;
}

void tm_queue_push(tm_queue *q, uintptr_t so)
{
    tm_list_push(&q->list, so);
    update_pending();
}

void tm_weak_publish(tm_segstate *ss)
{
    if (!ss->weak_new.count && !ss->final_new.count && !ss->weak_cleared.count)
        return;
    pthread_mutex_lock(&weak_lock);
    append(&tm_weakrefs, &ss->weak_new);
    append(&tm_finalizable, &ss->final_new);
    append(&tm_cleared_queue.list, &ss->weak_cleared);
    update_pending();
    pthread_mutex_unlock(&weak_lock);
}

void tm_weak_forget(tm_segstate *ss)
{
    ss->weak_new.count = 0;
    ss->final_new.count = 0;
    ss->weak_cleared.count = 0;
    ss->weak_young.count = 0;
    ss->weak_allocated.count = 0;
}

bool tm_weak_lists_empty(const tm_segstate *ss)
{
    return !ss->weak_new.count && !ss->final_new.count && !ss->weak_cleared.count;
}

void tm_weak_clear_slot(uintptr_t slot)
{
#if TM_STM
    /* The collector writes every view: segment 0 (the shared pages) and each
     * segment that has the page private, so that no commit or abort brings
     * the dead reference back. The world is stopped. */
    tm_compiler_barrier();
    for (int seg = 0; seg <= tm_seg.nsegments; seg++)
        if (seg == 0 || tm_page_is_private(seg, slot & ~(uintptr_t)(TM_PAGE_SIZE - 1)))
            *(uintptr_t *)(tm_segment_base(seg) + slot) = 0;
    tm_compiler_barrier();
#else
    *(uintptr_t __seg_gs *)slot = 0;
#endif
}

void tm_weak_note_young(object_t *w)
{
    TM_ASSERT(tm_self.segment > 0 && tm_types[w->h.tid].weak_offset);
    tm_list_push(&tm_segstates[tm_self.segment].weak_allocated, (uintptr_t)w);
}

void tm_register_finalizer(object_t *o)
{
    TM_ASSERT(tm_self.segment > 0);
    tm_list_push(&tm_segstates[tm_self.segment].final_new, (uintptr_t)o);
}

bool tm_unregister_last_finalizer(object_t *o)
{
    tm_list *l = &tm_segstates[tm_self.segment].final_new;
    if (!l->count || l->items[l->count - 1] != (uintptr_t)o)
        return false;
    l->count--;
    return true;
}

/* Removes `so` from l (keeping the order of the rest); false if absent. */
static bool remove_from(tm_list *l, uintptr_t so)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i] == so) {
            memmove(&l->items[i], &l->items[i + 1], (l->count - i - 1) * sizeof l->items[0]);
            l->count--;
            return true;
        }
    return false;
}

bool tm_finalize_now(object_t *o)
{
    TM_ASSERT(tm_self.segment > 0);
    uintptr_t so = (uintptr_t)o;
    pthread_mutex_lock(&weak_lock);
    bool found = remove_from(&tm_finalizable, so) || remove_from(&tm_segstates[tm_self.segment].final_new, so);
    if (found)
        tm_queue_push(&tm_finalize_queue, so);
    pthread_mutex_unlock(&weak_lock);
    return found;
}

void tm_finalize_all_now(bool (*want)(object_t *o, void *ctx), void *ctx)
{
    TM_ASSERT(tm_self.segment > 0);
    pthread_mutex_lock(&weak_lock);
    append(&tm_finalizable, &tm_segstates[tm_self.segment].final_new);
    size_t n = 0;
    for (size_t i = 0; i < tm_finalizable.count; i++) {
        uintptr_t so = tm_finalizable.items[i];
        if (want((object_t *)so, ctx))
            tm_queue_push(&tm_finalize_queue, so);
        else
            tm_finalizable.items[n++] = so;
    }
    tm_finalizable.count = n;
    pthread_mutex_unlock(&weak_lock);
}

static object_t *take(tm_queue *q)
{
    pthread_mutex_lock(&weak_lock);
    object_t *o = NULL;
    if (q->head < q->list.count)
        o = (object_t *)q->list.items[q->head++];
    if (q->head == q->list.count)
        q->head = q->list.count = 0;
    update_pending();
    pthread_mutex_unlock(&weak_lock);
    return o;
}

object_t *tm_take_cleared_weakref(void) { return take(&tm_cleared_queue); }
object_t *tm_take_finalizable(void) { return take(&tm_finalize_queue); }

static void foreach_in(const tm_list *l, object_t *referent, void (*fn)(object_t *, void *), void *ctx)
{
    for (size_t i = 0; i < l->count; i++) {
        object_t *w = (object_t *)l->items[i];
        uint32_t off = tm_types[w->h.tid].weak_offset;
        if (*(object_t *__seg_gs *)((char __seg_gs *)w + off) == referent)
            fn(w, ctx);
    }
}

void tm_foreach_weakref_to(object_t *referent, void (*fn)(object_t *weakref, void *ctx), void *ctx)
{
    TM_ASSERT(tm_self.segment > 0);
    pthread_mutex_lock(&weak_lock);
    foreach_in(&tm_weakrefs, referent, fn, ctx);
    foreach_in(&tm_segstates[tm_self.segment].weak_new, referent, fn, ctx);
    foreach_in(&tm_segstates[tm_self.segment].weak_allocated, referent, fn, ctx);
    pthread_mutex_unlock(&weak_lock);
}

uint64_t tm_gc_last_freed_objects(void) { return tm_old_objects_freed; }

bool tm_gc_has_finalizers(void)
{
    return tm_finalizable.count || (tm_self.segment && tm_segstates[tm_self.segment].final_new.count);
}
