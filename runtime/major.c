/* Major collection (paper 004, section 4.5): with the world stopped, empty
 * every nursery, mark old space from every root, sweep, return empty pages,
 * and (STM) re-share private pages that no running transaction writes.
 *
 * GIL build: holding the GIL stops the world; every other thread waits for
 * the segment or is blocked outside the heap, with an empty nursery.
 * STM build: tm_stop_world parks every other transaction at a safe point;
 * the collector then works in each segment's view by switching %gs. It does
 * not move other transactions' young objects (they may be parked anywhere,
 * even in a write barrier, with young references in C locals): their
 * nurseries are parsed in place and everything young in them is a root. */
#include "fatal.h"
#include "gc_internal.h"
#include "oldspace.h"
#include "segment.h"
#include "thread.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

size_t tm_major_threshold;
/* Big objects that became old since the last major collection start the next
 * one past this many bytes: the growth the factor allows, but at least one
 * nursery, not TMPY_GC_MAJOR_MIN. A file read in 1 MiB chunks promotes the
 * chunk a minor collection finds in a variable, and those dead chunks held
 * 64 MB until the first major collection (CPython frees each at once). Marking
 * a big object costs one bit, and a small live heap little. */
static size_t large_growth_limit;   /* 0: one nursery (before the first) */
static tm_list mark_stack;
static bool auto_major = true;         /* gc.enable() / gc.disable() */
static uint64_t minors_at_last_major;  /* gc.get_count() */

static inline void mark(object_t *o)
{
    uintptr_t so = (uintptr_t)o;
    if (so & TM_IMMEDIATE_TAG)
        return;   /* a tagged immediate, not a reference */
    if (tm_in_nursery(so))
        return;   /* young, of a parked transaction: scanned as a root in place */
    if (o && tm_old_mark(so))
        tm_list_push(&mark_stack, so);
}

/* The object drain is tracing and the slot it reads (for the message of a
 * reference to something that is no object: which object holds it). */
static uintptr_t tracing, tracing_slot;

static void describe_tracing(void)
{
    if (!tracing) {
        fputs("tmpy: (in a root, not in an object)\n", stderr);
        return;
    }
    unsigned tid = ((object_t *)tracing)->h.tid;
    fprintf(stderr, "tmpy: (in slot +%#lx of SO %#lx, layout '%s', flags %#x)\n",
            (unsigned long)(tracing_slot - tracing), (unsigned long)tracing,
            tid && tid < tm_ntypes ? tm_types[tid].name : "?", ((object_t *)tracing)->h.flags);
    /* its neighbours say what it is (a list of what) */
    const tm_type *t = tid && tid < tm_ntypes ? &tm_types[tid] : NULL;
    if (!t || !t->items_are_refs)
        return;
    uintptr_t items = tracing + t->base_size;
    int64_t n = (int64_t)tm_varsize_length((object_t *)tracing, t);
    int64_t at = (int64_t)(tracing_slot - items) / 8;
    fprintf(stderr, "tmpy: (%ld items; around item %ld:", (long)n, (long)at);
    for (int64_t i = at < 4 ? 0 : at - 4; i < n && i <= at + 4; i++) {
        uintptr_t so = *(uintptr_t __seg_gs *)(items + 8 * (uintptr_t)i);
        const char *name = !so ? "NULL" : (so & TM_IMMEDIATE_TAG) ? "immediate"
                         : tm_in_nursery(so) ? "young" : !tm_old_is_allocated(so) ? "FREED"
                         : ((object_t *)so)->h.tid < tm_ntypes ? tm_types[((object_t *)so)->h.tid].name : "?";
        fprintf(stderr, " %s", name);
    }
    fputs(")\n", stderr);
}

static void mark_slot(object_t *__seg_gs *slot, void *ctx)
{
    (void)ctx;
    tracing_slot = (uintptr_t)slot;
    mark(*slot);
}
static void mark_root(object_t **slot, void *ctx) { (void)ctx; mark(*slot); }

/* Trace everything marked so far, as the segment %gs addresses sees it. */
static void drain(void)
{
    while (mark_stack.count) {
        tracing = tm_list_pop(&mark_stack);
        tm_trace((object_t *)tracing, mark_slot, NULL);
    }
    tracing = 0;
}

/* STM: the view the committed state is read in where no transaction's view
 * is asked for. Segment 0 holds it, but each page read there is mapped a
 * second time, and RSS counts every mapping (a major collection of a tree
 * that a thread waiting in join() reaches mapped the whole tree twice). The
 * collector's own segment shows the committed state of every object but the
 * ones running transactions wrote, and mark_transaction traces the committed
 * versions of those in segment 0 itself; the collector's transaction is one
 * of them. */
static int committed_view = 1;

#if TM_STM
/* The undo log (thread.h) holds committed references only: one to an
 * object the running transaction created dangles once its minor collection
 * frees the object (the log is no root of it) or an abort discards the view
 * its contents exist in (the collector then traced stale slots). Checked at
 * every major collection, so a client that saves one fails here, not later
 * and rarely. */
static void check_undo_log(const tm_thread *t)
{
    uint16_t overflow = tm_segstates[t->segment].overflow;
    for (object_t **p = t->undo_base; p < t->undo_top; p++) {
        uintptr_t so = (uintptr_t)*p;
        if (!so || (so & TM_IMMEDIATE_TAG))
            continue;
        if (tm_in_nursery(so) || ((*p)->h.flags & TM_GCFLAG_YOUNG_OUTSIDE) || (*p)->h.overflow == overflow)
            tm_fatal("the undo log of a thread holds an object its running transaction created "
                     "(%#lx, entry %ld): only committed references may be saved there",
                     (unsigned long)so, (long)(p - t->undo_base));
    }
}
#endif

/* A thread's roots, seen from its transaction's segment (or the committed
 * state if it runs none). */
static void mark_thread(tm_thread *t, void *ctx)
{
    (void)ctx;
    tm_set_segment(TM_STM ? (t->segment ? t->segment : committed_view) : 1);
    for (object_t **p = t->ss_base; p < t->ss_top; p++)
        mark(*p);
#if TM_STM
    if (t->segment)
        check_undo_log(t);
#endif
    for (object_t **p = t->undo_base; p < t->undo_top; p++)
        mark(*p);
    drain();
}

#if TM_STM
/* Calls fn for every segment running a transaction (stm.c sets and clears
 * its thread under its lock; the world is stopped). */
static void foreach_transaction(void (*fn)(tm_segstate *ss, void *ctx), void *ctx)
{
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (tm_segstates[j].thread)
            fn(&tm_segstates[j], ctx);
}

/* A young object of another transaction: a root. Its weak slot is traced
 * as a strong one: the collector cannot clear it in place (the transaction
 * may be anywhere), so its referent survives until a later collection. */
static void mark_young(object_t *o)
{
    tm_trace(o, mark_slot, NULL);
    uint32_t off = tm_types[o->h.tid].weak_offset;
    if (off)
        mark(*(object_t *__seg_gs *)((char __seg_gs *)o + off));
}

/* Another transaction's young objects, left where they are: every object in
 * its nursery (bump-allocated, so parseable) and its big young objects. */
static void mark_young_of(tm_segstate *ss, void *ctx)
{
    int me = *(int *)ctx;
    if (ss->seg == me)
        return;
    tm_set_segment(ss->seg);
    for (uintptr_t p = ss->young_start; p < TM_SEGLOCAL->nursery_current;) {
        object_t *o = (object_t *)p;
        mark_young(o);
        p += tm_object_size(o);
    }
    /* Marked too, reached or not: a small one shares a page with old
     * objects, and the sweep would free its slot under the transaction
     * (its minor collection decides whether it lives). */
    for (size_t i = 0; i < ss->young_outside.count; i++) {
        (void)tm_old_mark(ss->young_outside.items[i]);
        mark_young((object_t *)ss->young_outside.items[i]);
    }
    /* What its earlier minor collections made old is young to it too: C
     * code parked in it may hold such an object in a local and nowhere else
     * (a value returned by Python code, while its transaction waits to
     * become inevitable, was swept: the threaded fuzzer's seed 2008411).
     * Its own next commit's collection decides which of them live. */
    for (size_t i = 0; i < ss->created.count; i++)
        mark((object_t *)ss->created.items[i]);
    drain();
}

/* A transaction's written objects are roots (it holds their write locks)
 * and have two versions: its own, and the committed one in segment 0, which
 * an abort brings back. Trace both, whichever view marked them first. */
static bool has_private_page(int seg, uintptr_t so, size_t size)
{
    if (!tm_private_page_count(seg))
        return false;
    for (uintptr_t p = so & ~(uintptr_t)(TM_PAGE_SIZE - 1); p < so + size; p += TM_PAGE_SIZE)
        if (tm_page_is_private(seg, p))
            return true;
    return false;
}

/* The own view is skipped where none of the object's pages is private in
 * the transaction's segment (a solo transaction's writes: in place), since
 * it is segment 0's; one that the mark makes grey is traced by the drain
 * (a big table was traced three times). */
/* An object traced whole before, in another view, traced again in this
 * one: only what can differ between two views, i.e. its fixed part and
 * the items on pages some segment has private (elsewhere every view shows
 * segment 0's). For a big table that transactions write card by card, the
 * whole trace in each view of each writer was most of a major collection
 * with threads running (a dict of 1.6 M entries, 2 writers: four full
 * traces; bench/results/commit_merge_in_place.txt). */
static void trace_again(object_t *o)
{
    const tm_type *t = &tm_types[o->h.tid];
    size_t size = tm_object_size(o);
    if (!tm_gc_carded(t, size) || t->trace) {
        tm_trace(o, mark_slot, NULL);
        return;
    }
    object_t *__seg_gs *words = (object_t *__seg_gs *)o;
    for (uint64_t m = t->ref_words; m; m &= m - 1)
        mark_slot(&words[__builtin_ctzll(m)], NULL);
    uintptr_t so = (uintptr_t)o, items = so + t->base_size;
    uintptr_t end = items + tm_varsize_length(o, t) * sizeof(object_t *);
    for (uintptr_t p = so & ~(uintptr_t)(TM_PAGE_SIZE - 1); p < end; p += TM_PAGE_SIZE) {
        bool private = false;
        for (int j = 1; j <= tm_seg.nsegments && !private; j++)
            private = tm_page_is_private(j, p);
        if (!private)
            continue;
        /* Not where this view reads a hole (zero; reading it would make
         * the kernel allocate the page): tm_gs_next_data. */
        uintptr_t lo = p < items ? items : p, hi = p + TM_PAGE_SIZE < end ? p + TM_PAGE_SIZE : end, s, e;
        for (; tm_gs_next_data(lo, hi, &s, &e); lo = e)
            for (uintptr_t a = s; a < e; a += sizeof(object_t *))
                mark_slot((object_t *__seg_gs *)a, NULL);
    }
}

static void mark_transaction(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    /* One that writes in place cannot abort: its written objects need not
     * outlive their last reference (a dict's tables that a resize replaced
     * were kept and traced until its commit: dict_distinct_key_inserts at 1
     * thread traced 17M more slots than tmpy-gil; bench/results/set_privatise.txt). */
    if (tm_stm_writes_in_place(ss->seg))
        return;
    for (int view = 0; view < 2; view++) {
        tm_set_segment(view ? ss->seg : 0);
        for (size_t i = 0; i < ss->modified.count; i++) {
            object_t *o = (object_t *)ss->modified.items[i];
            if (view && !has_private_page(ss->seg, (uintptr_t)o, tm_object_size(o)))
                continue;
            if (tm_in_nursery((uintptr_t)o))
                tm_trace(o, mark_slot, NULL);
            else if (tm_old_mark((uintptr_t)o))
                tm_list_push(&mark_stack, (uintptr_t)o);   /* traced by the drain, in this view */
            else
                trace_again(o);   /* marked: traced whole already, in a view drained before */
        }
        drain();
    }
}

/* The barrier checker (TMPY_STM_CHECK): after the sweep, every reference in
 * every object a running transaction wrote, in its view and in the committed
 * one, is to an object that is still allocated (or young). One to a freed
 * object dangles now, not at the next major collection that meets it. */
struct dangling_ctx { int seg, view; uintptr_t holder; };

static void check_slot_allocated(object_t *__seg_gs *slot, void *vctx)
{
    struct dangling_ctx *c = vctx;
    uintptr_t so = (uintptr_t)*slot;
    if (!so || (so & TM_IMMEDIATE_TAG) || tm_in_nursery(so) || tm_old_is_allocated(so))
        return;
    unsigned tid = ((object_t *)c->holder)->h.tid;
    tm_fatal("after a major collection: SO %#lx (layout '%s'), which the transaction in segment %d "
             "wrote, holds in slot +%#lx (view of segment %d) a reference to SO %#lx, which is not an "
             "allocated old object", (unsigned long)c->holder, tid < tm_ntypes ? tm_types[tid].name : "?",
             c->seg, (unsigned long)((uintptr_t)slot - c->holder), c->view, (unsigned long)so);
}

static void check_written_after_sweep(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    struct dangling_ctx c = {.seg = ss->seg};
    for (int view = 0; view < 2; view++) {
        c.view = view ? ss->seg : 0;
        tm_set_segment(c.view);
        for (size_t i = 0; i < ss->modified.count; i++) {
            c.holder = ss->modified.items[i];
            if (tm_in_nursery(c.holder) || tm_old_is_allocated(c.holder))
                tm_trace((object_t *)c.holder, check_slot_allocated, &c);
        }
    }
}

/* Objects a transaction created and dropped again need no publishing. */
static void forget_dead_created(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    if (tm_stm_writes_in_place(ss->seg))
        tm_stm_forget_dead_written(ss);
    size_t n = 0;
    for (size_t i = 0; i < ss->created.count; i++)
        if (tm_old_is_marked(ss->created.items[i]))
            ss->created.items[n++] = ss->created.items[i];
    ss->created.count = n;
    /* Carded objects it created and dropped (the ones it wrote are roots):
     * their cards may stay marked, which costs a later owner of the address
     * only a trace of valid items. */
    n = 0;
    for (size_t i = 0; i < ss->carded.count; i++)
        if (tm_old_is_marked(ss->carded.items[i]))
            ss->carded.items[n++] = ss->carded.items[i];
    ss->carded.count = n;
}

/* Objects written since the segment's last minor collection and dead now
 * (a transaction created, wrote and dropped them; or a commit's merge wrote
 * them after the commit's minor collection, and the segment waits with no
 * thread for its next transaction): that collection would write their
 * headers and trace them after the sweep freed them (the threaded fuzzer's
 * seed 1007590). Every segment, running a transaction or not. */
static void forget_dead_remembered(void)
{
    for (int j = 1; j <= tm_seg.nsegments; j++) {
        tm_list *l = &tm_segstates[j].remembered;
        size_t n = 0;
        for (size_t i = 0; i < l->count; i++)
            if (tm_in_nursery(l->items[i]) || tm_old_is_marked(l->items[i]))
                l->items[n++] = l->items[i];
        l->count = n;
    }
}

static int cmp_uintptr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static void add_pages(tm_list *pages, const tm_list *objs, int seg)
{
    for (size_t i = 0; i < objs->count; i++) {
        uintptr_t so = objs->items[i];
        size_t size = tm_object_size_in(seg, so);
        for (uintptr_t p = so & ~(TM_PAGE_SIZE - 1); p < so + size; p += TM_PAGE_SIZE)
            tm_list_push(pages, p);
    }
}

static bool page_in(uintptr_t so, void *ctx)
{
    tm_list *pages = ctx;
    return bsearch(&so, pages->items, pages->count, sizeof(uintptr_t), cmp_uintptr) != NULL;
}

/* Re-share every private page that holds nothing a running transaction
 * wrote or created (or holds young): segment 0 has its committed contents.
 * The world is stopped. */
void tm_reshare_pages(void)
{
    static tm_list keep;
    for (int j = 1; j <= tm_seg.nsegments; j++) {
        if (!tm_private_page_count(j))
            continue;
        tm_segstate *ss = &tm_segstates[j];
        keep.count = 0;
        if (ss->thread) {
            add_pages(&keep, &ss->modified, j);
            add_pages(&keep, &ss->created, j);
            add_pages(&keep, &ss->young_outside, j);
            qsort(keep.items, keep.count, sizeof(uintptr_t), cmp_uintptr);
        }
        tm_stats.pages_reshared += tm_pages_reshare_unless(j, page_in, &keep);
    }
}
#endif

/* ---- Weak references and finalizers (gc.h, weak.c) ---- */

/* Where published objects are read: the committed state under STM, the
 * GIL's segment otherwise. */
#define PUBLISHED_VIEW (TM_STM ? committed_view : 1)

static bool marked_or_not_old(object_t *r)
{
    uintptr_t so = (uintptr_t)r;
    if (!r || (so & TM_IMMEDIATE_TAG) || tm_in_nursery(so))
        return true;
    return tm_old_is_marked(so);
}

#if TM_STM
static void mark_list(const tm_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        mark((object_t *)l->items[i]);
    drain();
}
#endif

/* Only what is still queued: the entries before head were taken already. */
static void mark_queue(const tm_queue *q)
{
    for (size_t i = q->head; i < q->list.count; i++)
        mark((object_t *)q->list.items[i]);
    drain();
}

/* Clear the weak slots of `weakrefs` (read in the current view) whose
 * referent is unmarked; a weak reference that is marked itself and whose
 * layout asks is queued (published ones in the embedder's queue, a running
 * transaction's in its own list). */
static void clear_dead_referents(const tm_list *weakrefs, tm_list *own_queue)
{
    for (size_t i = 0; i < weakrefs->count; i++) {
        object_t *w = (object_t *)weakrefs->items[i];
        const tm_type *t = &tm_types[w->h.tid];
        uintptr_t slot = (uintptr_t)w + t->weak_offset;
        if (marked_or_not_old(*(object_t *__seg_gs *)slot))
            continue;
        tm_weak_clear_slot(slot);
        if (t->weak_notify && tm_old_is_marked((uintptr_t)w)) {
            if (own_queue)
                tm_list_push(own_queue, (uintptr_t)w);
            else
                tm_queue_push(&tm_cleared_queue, (uintptr_t)w);
        }
    }
}

static void drop_unmarked(tm_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++)
        if (tm_old_is_marked(l->items[i]))
            l->items[n++] = l->items[i];
    l->count = n;
}

#if TM_STM
static void mark_own_lists(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    tm_set_segment(ss->seg);
    mark_list(&ss->final_new);      /* its own: finalized only once published */
    mark_list(&ss->weak_cleared);
}

static void clear_own_weakrefs(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    tm_set_segment(ss->seg);
    clear_dead_referents(&ss->weak_new, &ss->weak_cleared);
}

static void drop_own_dead_weakrefs(tm_segstate *ss, void *ctx)
{
    (void)ctx;
    drop_unmarked(&ss->weak_new);
}
#endif

/* After the roots are marked: the queues are roots; weak slots whose
 * referent is unmarked are cleared; registered objects found unmarked are
 * resurrected (marked with all they reach) and queued for finalization;
 * weak references still unmarked are dead and forgotten. */
static void weak_and_finalizer_passes(void)
{
    tm_set_segment(PUBLISHED_VIEW);
    mark_queue(&tm_cleared_queue);
    mark_queue(&tm_finalize_queue);
#if TM_STM
    foreach_transaction(mark_own_lists, NULL);
    foreach_transaction(clear_own_weakrefs, NULL);
    tm_set_segment(PUBLISHED_VIEW);
#endif
    clear_dead_referents(&tm_weakrefs, NULL);
    /* Every unreachable one is queued, also those only other unreachable
     * ones reach (a cycle): find them all before marking any. */
    size_t n = 0, first = tm_finalize_queue.list.count;
    for (size_t i = 0; i < tm_finalizable.count; i++) {
        uintptr_t so = tm_finalizable.items[i];
        if (tm_old_is_marked(so))
            tm_finalizable.items[n++] = so;
        else
            tm_queue_push(&tm_finalize_queue, so);
    }
    tm_finalizable.count = n;
    for (size_t i = first; i < tm_finalize_queue.list.count; i++)
        mark((object_t *)tm_finalize_queue.list.items[i]);
    drain();
    drop_unmarked(&tm_weakrefs);
#if TM_STM
    foreach_transaction(drop_own_dead_weakrefs, NULL);
#endif
}

/* TMPY_GC_VERIFY=1 (debugging): before the sweep, every marked object's
 * references in the committed view are marked too (or young). */
static uintptr_t verify_holder;
static const char *verify_list;   /* NULL: the committed view */
static int verify_seg;
static void verify_slot(object_t *__seg_gs *slot, void *ctx)
{
    (void)ctx;
    uintptr_t so = (uintptr_t)*slot;
    if (!so || (so & TM_IMMEDIATE_TAG) || tm_in_nursery(so) || tm_old_is_marked(so))
        return;
    unsigned tid = ((object_t *)verify_holder)->h.tid, rtid = ((object_t *)so)->h.tid;
    if (verify_list)
        fprintf(stderr, "tmpy: gc verify: in the view of segment %d, which %s it: ", verify_seg, verify_list);
    fprintf(stderr, "tmpy: gc verify: marked SO %#lx (layout '%s', flags %#x) holds in slot +%#lx "
            "SO %#lx (layout '%s', %s), which the sweep frees\n",
            (unsigned long)verify_holder, tid < tm_ntypes ? tm_types[tid].name : "?",
            ((object_t *)verify_holder)->h.flags, (unsigned long)((uintptr_t)slot - verify_holder),
            (unsigned long)so, rtid < tm_ntypes ? tm_types[rtid].name : "?",
            tm_old_is_allocated(so) ? "allocated" : "not allocated");
}
static void verify_marked(uintptr_t so, void *ctx)
{
#if TM_STM
    /* Only committed objects: not one a running transaction created, nor
     * one on a page some segment has private (segment 0 may not show it). */
    tm_list *skip = ctx;
    if (bsearch(&so, skip->items, skip->count, sizeof(uintptr_t), cmp_uintptr))
        return;
    size_t size = tm_object_size_in(0, so);
    for (int j = 1; j <= tm_seg.nsegments; j++)
        if (has_private_page(j, so, size))
            return;
#else
    (void)ctx;
#endif
    verify_holder = so;
    tm_trace((object_t *)so, verify_slot, NULL);
}

static void mark_reserved_block(uintptr_t so) { (void)tm_old_mark(so); }

void tm_collect_major(void)
{
    int me = tm_self.segment;
    TM_ASSERT(me > 0);
#if TM_STM
    tm_stop_world();
#else
    tm_htm_need_gil();
#endif
    tm_collect_minor();   /* ours: the caller expects its objects to move */
    uint64_t t0 = tm_ticks();
    tm_fatal_context = describe_tracing;
    committed_view = TM_STM ? me : 1;
    tm_threads_foreach(mark_thread, NULL);
#if TM_STM
    foreach_transaction(mark_young_of, &me);
    foreach_transaction(mark_transaction, NULL);
    /* Globals are written only by the inevitable transaction: see them as
     * it does (objects it created may so far exist only in its pages). */
    tm_set_segment(tm_inevitable_segment() ? tm_inevitable_segment() : committed_view);
#else
    tm_set_segment(me);
#endif
    tm_visit_global_roots(mark_root, NULL);
    drain();
    weak_and_finalizer_passes();
#if TM_STM
    foreach_transaction(forget_dead_created, NULL);
    forget_dead_remembered();
#endif
    tm_gc_mark_reserved(mark_reserved_block);
    tm_fatal_context = NULL;
    if (tm_cfg.gc_verify) {
        static tm_list skip;
        skip.count = 0;
#if TM_STM
        for (int j = 1; j <= tm_seg.nsegments; j++)
            if (tm_segstates[j].thread) {
                for (size_t i = 0; i < tm_segstates[j].created.count; i++)
                    tm_list_push(&skip, tm_segstates[j].created.items[i]);
                for (size_t i = 0; i < tm_segstates[j].young_outside.count; i++)
                    tm_list_push(&skip, tm_segstates[j].young_outside.items[i]);
            }
        qsort(skip.items, skip.count, sizeof(uintptr_t), cmp_uintptr);
#endif
        tm_set_segment(0);
        tm_old_foreach_marked(verify_marked, &skip);
#if TM_STM
        /* and what running transactions created or wrote, in their views */
        for (int j = 1; j <= tm_seg.nsegments; j++) {
            tm_segstate *ss = &tm_segstates[j];
            if (!ss->thread)
                continue;
            tm_set_segment(j);
            const tm_list *lists[] = {&ss->created, &ss->modified};
            for (int l = 0; l < 2; l++)
                for (size_t i = 0; i < lists[l]->count; i++) {
                    uintptr_t so = lists[l]->items[i];
                    if (tm_in_nursery(so) || !tm_old_is_marked(so))
                        continue;
                    verify_holder = so;
                    verify_list = l ? "written" : "created";
                    verify_seg = j;
                    tm_trace((object_t *)so, verify_slot, NULL);
                }
        }
        verify_list = NULL;
#endif
    }
    tm_old_sweep(tm_self.count_dead ? &tm_self.dead_found : NULL);
#if TM_STM
    if (tm_check_writes)
        foreach_transaction(check_written_after_sweep, NULL);
    tm_reshare_pages();
    /* What a view mapped since the last one stays in the memfd but leaves
     * the process's page tables (RSS counted a page once per view that
     * maps it; private pages stay): segment 0's (commits and aborts), the
     * collector's own (all it marked) and a free segment's (what its last
     * transactions read). Another running transaction's view is its
     * working set, which it would fault in again. The unmapping costs about
     * 100 ns a mapped page, most of it the collector's view: 1-8 ms of a
     * 25-40 ms collection of 121 MB (dict_distinct_key_inserts at 2
     * threads, whose peak RSS it took from 135-182 to 115-139 MB). */
    for (int j = 0; j <= tm_seg.nsegments; j++)
        if (j == 0 || j == me || !tm_segstates[j].thread)
            tm_view_forget_shared(j, tm_seg.old_start, tm_old_high_water());
#endif
    tm_set_segment(me);
    size_t next = (size_t)((double)tm_old_bytes_used * tm_cfg.major_factor);
    tm_major_threshold = next > tm_cfg.major_min ? next : tm_cfg.major_min;
    large_growth_limit = next - tm_old_bytes_used > tm_gc_nursery_size() ? next - tm_old_bytes_used
                                                                         : tm_gc_nursery_size();
    tm_old_large_bytes_promoted = 0;
    tm_stats.major_collections++;
    minors_at_last_major = tm_stats.minor_collections;
    tm_stats.major_ns += tm_ticks() - t0;
#if TM_STM
    tm_resume_world();
#endif
}


void tm_gc_set_auto_major(bool on) { auto_major = on; }
bool tm_gc_auto_major(void) { return auto_major; }

void tm_gc_set_major_threshold(size_t min_bytes, double factor)
{
    tm_cfg.major_min = min_bytes;
    tm_cfg.major_factor = factor;
    size_t next = (size_t)((double)tm_old_bytes_used * factor);
    tm_major_threshold = next > min_bytes ? next : min_bytes;
}

void tm_gc_get_major_threshold(size_t *min_bytes, double *factor)
{
    *min_bytes = tm_cfg.major_min;
    *factor = tm_cfg.major_factor;
}

uint64_t tm_gc_minors_since_major(void)
{
    return __atomic_load_n(&tm_stats.minor_collections, __ATOMIC_RELAXED) - minors_at_last_major;
}

/* After a commit's minor collection (or before an allocation takes old
 * space): a major collection once old space has grown past the threshold. */
void tm_gc_maybe_collect_major(void)
{
    if (!auto_major)
        return;
    size_t used = __atomic_load_n(&tm_old_bytes_used, __ATOMIC_RELAXED);
    if (used + tm_segstates[tm_self.segment].young_outside_bytes >= tm_major_threshold ||
        __atomic_load_n(&tm_old_large_bytes_promoted, __ATOMIC_RELAXED) >=
            (large_growth_limit ? large_growth_limit : tm_gc_nursery_size()))
        tm_collect_major();
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
