/* Objects: the one header word and the type-layout table the GC reads. */
#ifndef TM_OBJECT_H
#define TM_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tm_header {
    uint32_t flags;     /* low 8 bits: TM_GCFLAG_*; high 24 bits: thin-lock field (paper 002) */
    uint16_t tid;       /* index into tm_types */
    uint16_t overflow;  /* STM overflow number; always 0 in the GIL build */
} tm_header;

struct tm_object {
    tm_header h;
};

/* A reference to a GC object: a segment offset, dereferenced through %gs. */
typedef __seg_gs struct tm_object object_t;

enum {
    TM_GCFLAG_WRITE_BARRIER = 0x01, /* old and not yet written since the last minor collection */
    TM_GCFLAG_CARDS_SET = 0x02,     /* old, card-marked (cards.h), and in its segment's `carded` list */
    TM_GCFLAG_YOUNG_OUTSIDE = 0x04, /* young, but too big for the nursery: lives in old space */
    TM_GCFLAG_FORWARDED = 0x80,     /* nursery copy moved; the new SO is in the next word */
};
#define TM_GCFLAG_MASK 0xffu
#define TM_LOCK_SHIFT 8             /* the 24-bit lock field is flags >> 8 */

#define TM_MIN_OBJECT_SIZE 16       /* one read marker / write lock per 16 bytes */
/* A reference word with this bit set is an immediate value (a language's
 * tagged small integer, say), not a reference: the GC skips it. Objects are
 * 16-byte aligned, so no real reference has it. */
#define TM_IMMEDIATE_TAG 1u

typedef void (*tm_ref_visitor)(object_t *__seg_gs *slot, void *ctx);

/* Layout of one kind of object. Sizes are in bytes, header included. An
 * object is `base_size` bytes, plus `item_size * length` for varsize types
 * whose item count is the uintptr_t at `length_offset`, rounded up to 16. */
typedef struct tm_type {
    const char *name;
    uint32_t base_size;
    uint32_t item_size;        /* 0: fixed-size type */
    uint32_t length_offset;    /* varsize types: where the item count lives */
    uint64_t ref_words;        /* bit i: the word at byte offset 8*i (i < 64) is a reference */
    bool items_are_refs;       /* varsize items are references (item_size 8) */
    /* For shapes the fields above cannot say: call visit on every other reference. */
    void (*trace)(object_t *o, tm_ref_visitor visit, void *ctx);
    /* STM: readers of this shape take no read barrier (it is read on every
     * operation and written almost never, or never after creation). A write
     * into one that this transaction did not create must go through
     * tm_write_rare(); the barrier checker (TMPY_STM_CHECK) enforces it. */
    bool read_without_barrier;
    /* Weak references (runtime/weak.c): the byte offset of this layout's one
     * weak slot, 0 if it has none. The slot must not be in ref_words: the GC
     * does not keep its referent alive. It is cleared (set to NULL) when a
     * collection finds the referent dead and updated when the referent moves.
     * Write it only while the object is young (at creation) or to NULL. */
    uint32_t weak_offset;
    /* Cleared instances of this layout are queued for the embedder
     * (tm_take_cleared_weakref), which runs their callbacks afterwards. */
    bool weak_notify;
} tm_type;

#define TM_MAX_TYPES 4096

extern tm_type tm_types[TM_MAX_TYPES];
extern unsigned tm_ntypes;

/* Register a layout; call before any thread attaches (the table is then read
 * without locks). Returns the type id, never 0 (0 marks a zeroed, bad header). */
uint16_t tm_register_type(const tm_type *t);

static inline size_t tm_round_size(size_t size)
{
    size = (size + 15) & ~(size_t)15;
    return size < TM_MIN_OBJECT_SIZE ? TM_MIN_OBJECT_SIZE : size;
}

static inline uintptr_t tm_varsize_length(object_t *o, const tm_type *t)
{
    return *(uintptr_t __seg_gs *)((char __seg_gs *)o + t->length_offset);
}

/* The layout holds references (a container, in reference-counting terms).
 * Takes any type id: a dead object's header may be garbage. */
static inline bool tm_tid_holds_refs(unsigned tid)
{
    if (tid == 0 || tid >= tm_ntypes)
        return false;
    const tm_type *t = &tm_types[tid];
    return t->ref_words || t->items_are_refs || t->trace;
}

/* Size of an object with a valid header; a bad type id is a heap corruption. */
size_t tm_object_size_checked(object_t *o);

static inline size_t tm_type_size(const tm_type *t, uintptr_t length)
{
    return tm_round_size(t->base_size + t->item_size * length);
}

static inline size_t tm_object_size(object_t *o)
{
    unsigned tid = o->h.tid;
    if (__builtin_expect(tid == 0 || tid >= tm_ntypes, 0))
        return tm_object_size_checked(o);
    const tm_type *t = &tm_types[tid];
    return tm_type_size(t, t->item_size ? tm_varsize_length(o, t) : 0);
}

/* The same, reading the object as segment `seg` sees it. */
size_t tm_object_size_in(int seg, uintptr_t so);

/* A table of references this big (256 KiB) is traced by the runs of its
 * pages that can hold a non-zero byte (tm_gs_next_data, segment.c): a big
 * table's untouched tail (a dict's entries past the last one, a list's
 * spare capacity) is a hole of the shared memory file, which reads as zero,
 * and reading it made the kernel allocate and clear each of its pages: a
 * 64 MiB dict table took 70 ms to trace and kept its whole tail resident. */
#define TM_TRACE_SPARSE_ITEMS 32768
/* [*s, *e): the next run of [from, to) (segment offsets, 8-aligned) that may
 * hold a non-zero byte in the view %gs addresses; false when none is left. */
bool tm_gs_next_data(uintptr_t from, uintptr_t to, uintptr_t *s, uintptr_t *e);

/* Call visit(slot) on every reference field of o. Inlined into the GC loops
 * so that visit becomes a direct call. */
static inline void tm_trace(object_t *o, tm_ref_visitor visit, void *ctx)
{
    const tm_type *t = &tm_types[o->h.tid];
    object_t *__seg_gs *words = (object_t *__seg_gs *)o;
    for (uint64_t m = t->ref_words; m; m &= m - 1)
        visit(&words[__builtin_ctzll(m)], ctx);
    if (t->items_are_refs) {
        object_t *__seg_gs *items = (object_t *__seg_gs *)((char __seg_gs *)o + t->base_size);
        uintptr_t n = tm_varsize_length(o, t);
        if (n < TM_TRACE_SPARSE_ITEMS) {
            for (uintptr_t i = 0; i < n; i++)
                visit(&items[i], ctx);
        } else {
            uintptr_t from = (uintptr_t)items, to = from + n * sizeof(object_t *), s, e;
            for (; tm_gs_next_data(from, to, &s, &e); from = e)
                for (uintptr_t p = s; p < e; p += sizeof(object_t *))
                    visit((object_t *__seg_gs *)p, ctx);
        }
    }
    if (t->trace)
        t->trace(o, visit, ctx);
}

#endif
