/* State shared by the GC's files; not part of the runtime's API. */
#ifndef TM_GC_INTERNAL_H
#define TM_GC_INTERNAL_H

#include "cards.h"
#include "config.h"
#include "gc.h"
#include "list.h"
#include "stats.h"

/* Per-segment collector state, in C memory. */
typedef struct tm_segstate {
    int seg;                  /* this segment's number */
    struct tm_thread *thread; /* the thread running in it, if any */
    tm_list remembered;       /* old objects written since the last minor collection */
    tm_list carded;           /* old objects with cards marked since then (TM_GCFLAG_CARDS_SET) */
    tm_list young_outside;    /* young objects too big for the nursery */
    size_t young_outside_bytes;
    tm_list to_trace;         /* minor collection: survivors whose fields need fixing */
    uint64_t survived;        /* bytes moved by the minor collection under way */
    uintptr_t young_start;    /* move mode: first young byte of the nursery */
    uint64_t room_rng;        /* move mode with room: its random state */
    /* STM: the running transaction */
    tm_list modified;         /* old objects it holds the write lock of, or (carded) wrote cards of */
    tm_list card_objs;        /* carded objects it wrote by cards (tm_write_items), also in modified */
    tm_list card_locks;       /* write-lock indexes of the cards it holds (stm.c) */
    tm_list created;          /* objects it moved out of the nursery: published at commit */
    uint16_t overflow;        /* marks its objects outside the nursery (never 0 in a transaction) */
    /* Weak references and finalizers (weak.c): this segment's, until published */
    tm_list weak_allocated;   /* weak references allocated in the nursery (tm_weak_note_young) */
    tm_list weak_young;       /* minor collection: surviving young weak references */
    tm_list weak_new;         /* weak references moved out of the nursery */
    tm_list final_new;        /* objects registered for finalization */
    tm_list weak_cleared;     /* weak references cleared by its minor collections */
    /* tm_reserve_old_address: nursery objects promised an old address,
     * pairs (young SO, reserved SO) in `reserved`, found by young SO
     * through an open-addressing index (C memory, reserved_cap a power of
     * two, 0: none yet); emptied by each minor collection or abort. */
    tm_list reserved;
    uintptr_t *reserved_index;   /* positions in `reserved` + 1 (0: empty slot) */
    size_t reserved_cap;
} tm_segstate;

/* A FIFO of segment offsets for the embedder (weak.c). */
typedef struct tm_queue {
    tm_list list;
    size_t head;
} tm_queue;
/* Published weak references and registered objects; the embedder's queues. */
extern tm_list tm_weakrefs, tm_finalizable;
extern tm_queue tm_cleared_queue, tm_finalize_queue;
/* Move a segment's lists into the global ones (GIL: after each minor
 * collection; STM: at commit, world stopped). */
void tm_weak_publish(tm_segstate *ss);
/* An abort: the lists held only what the transaction made. */
void tm_weak_forget(tm_segstate *ss);
bool tm_weak_lists_empty(const tm_segstate *ss);
/* Set a weak slot to NULL in every view (STM: world stopped). */
void tm_weak_clear_slot(uintptr_t slot);
void tm_queue_push(tm_queue *q, uintptr_t so);

extern tm_segstate tm_segstates[TM_MAX_SEGMENTS + 1];
extern tm_config tm_cfg;
extern tm_gc_stats tm_stats;   /* its *_ns fields count ticks until reported */
extern size_t tm_major_threshold;

/* What the transaction layer (stm.c, gil.c) calls. */
void tm_collect_minor_of(tm_segstate *ss);
/* After a commit's minor collection: a major one if old space has grown
 * enough (short transactions never reach the allocation slow path). */
void tm_gc_maybe_collect_major(void);
/* Throw away what the segment's transaction allocated since its start. */
void tm_discard_young(tm_segstate *ss);
/* The GC half of tm_write_items for an object whose items are references
 * and that is carded (cards.h): mark the cards of the bytes [lo, hi] and
 * list the object for the next minor collection. Inline: every store into
 * a big table of references comes here. */
static inline void tm_gc_remember_cards(tm_segstate *ss, object_t *o, uintptr_t lo, uintptr_t hi)
{
    tm_cards_set_range(TM_CARDS_GC, ss->seg, lo, hi);
    if (!(o->h.flags & TM_GCFLAG_CARDS_SET)) {
        o->h.flags |= TM_GCFLAG_CARDS_SET;
        tm_list_push(&ss->carded, (uintptr_t)o);
    }
}
/* Re-share private pages no running transaction needs (world stopped). */
void tm_reshare_pages(void);

/* GIL build with HTM elision: a transaction ends without a minor collection,
 * so every attached thread's shadow stack may hold young references: minor
 * collections take them all as roots. */
extern bool tm_gc_roots_all_threads;
/* GIL build, the elision's side of the GC (elision.c): the GC's slow paths
 * need the GIL; inside a hardware transaction this aborts it to take it. */
void tm_htm_need_gil(void);

void tm_visit_global_roots(void (*visit)(object_t **slot, void *ctx), void *ctx);
/* Major collection: the old blocks reserved for young objects of any
 * segment (tm_reserve_old_address) are in use, though not yet objects. */
void tm_gc_mark_reserved(void (*mark)(uintptr_t so));
void tm_gc_init(void);

static inline bool tm_in_nursery(uintptr_t so)
{
    return so - tm_seg.nursery_start < tm_seg.nursery_end - tm_seg.nursery_start;
}

/* The STM's side of the GC (stm.c; trivial in the GIL build): the only calls
 * from the GC up to the transaction layer (docs/ARCHITECTURE.md, "Files"). */
/* The segment of the inevitable transaction, 0 if none; 1 in the GIL build. */
int tm_inevitable_segment(void);
/* Set this segment's nursery_end unless a stop request is pending. */
void tm_set_nursery_end(uintptr_t end);
/* STM: park at a safe point (the allocation slow path saw nursery_end ==
 * TM_NURSERY_END_SIGNAL); may abort the caller. Also in tx.h. */
void tm_safepoint_slow(void);
/* TMPY_STM_INJECT_ABORTS: abort the running transaction here, at random. */
void tm_stm_maybe_inject_abort(void);
/* STM: does the transaction of segment seg write in place (solo: it cannot
 * abort)? Then a major collection keeps only the live objects of its list of
 * written ones (tm_stm_forget_dead_written), which are no roots. */
bool tm_stm_writes_in_place(int seg);
void tm_stm_forget_dead_written(tm_segstate *ss);
/* STM: park every other transaction at a safe point (may abort the caller). */
void tm_stop_world(void);
void tm_resume_world(void);

#endif
