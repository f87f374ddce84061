/* GC tests. `test_gc graph`: a random object graph of over a million live
 * objects is mutated through many minor and major collections and checked
 * field by field against a model kept in C memory. Run it with
 * TMPY_GC_DEBUG=move too. Big arrays (the index's chunks, a few random
 * ones) are card-marked: part of their stores use tm_write_item; one object
 * in 8 is promised its old address (tm_reserve_old_address). Other modes: large, cycles, release, old, cards (tm_cards_take's runs), sparse (big tables with untouched pages), exhaust. */
#define _GNU_SOURCE   /* SEEK_DATA */
#include "tmrt.h"
#include "cards.h"
#include "oldspace.h"
#include "testutil.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Test object shapes. Word 0 is the header. */
enum { NREFS = 3 };
typedef __seg_gs struct node {
    tm_header h;
    uintptr_t id;
    object_t *ref[NREFS];
    uintptr_t payload;
} node_t;
typedef __seg_gs struct array {
    tm_header h;
    uintptr_t id;
    uintptr_t len;
    object_t *items[];
} array_t;
typedef __seg_gs struct blob {
    tm_header h;
    uintptr_t id;
    uintptr_t len;
    uint8_t bytes[];
} blob_t;

static uint16_t T_NODE, T_ARRAY, T_BLOB;

static void register_types(void)
{
    T_NODE = tm_register_type(&(tm_type){.name = "node", .base_size = sizeof(struct node),
                                         .ref_words = 0x1c});
    T_ARRAY = tm_register_type(&(tm_type){.name = "array", .base_size = sizeof(struct array),
                                          .item_size = 8, .length_offset = 16, .items_are_refs = true});
    T_BLOB = tm_register_type(&(tm_type){.name = "blob", .base_size = sizeof(struct blob),
                                         .item_size = 1, .length_offset = 16});
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
    return x;
}

/* ---- The model: what every object must contain, by id. ---- */
typedef struct model {
    uint16_t tid;
    uint32_t len;      /* refs of a node (NREFS) or array, bytes of a blob */
    uint32_t *refs;    /* ids (0 = NULL) */
    uintptr_t reserved; /* tm_reserve_old_address's answer (0: not asked): its SO for life */
} model;

static model *M;
static size_t nids, capids;
static uint32_t *slot_id;   /* index slot -> id of the object stored there */
static object_t *index_root;  /* array of chunks, each an array of CHUNK slots */
enum { CHUNK = 1024 };
static size_t nslots;

static uint32_t new_id(uint16_t tid, uint32_t len)
{
    if (nids == capids) {
        capids = capids ? capids * 2 : 1 << 20;
        M = realloc(M, capids * sizeof *M);
        CHECK(M, "out of memory for the model");
    }
    uint32_t id = (uint32_t)nids++;
    M[id] = (model){tid, len, tid == T_BLOB ? NULL : calloc(len ? len : 1, sizeof(uint32_t)), 0};
    return id;
}

static array_t *chunk_of(size_t slot)
{
    return (array_t *)((array_t *)index_root)->items[slot / CHUNK];
}

static object_t *slot_get(size_t slot) { return chunk_of(slot)->items[slot % CHUNK]; }

static void slot_set(size_t slot, object_t *o, uint32_t id)
{
    array_t *c = chunk_of(slot);
    /* Chunks are big enough to be card-marked: half of them take item barriers. */
    if (slot / CHUNK % 2)
        tm_write_item((object_t *)c, slot % CHUNK);
    else
        tm_write((object_t *)c);
    c->items[slot % CHUNK] = o;
    slot_id[slot] = id;
}

static void make_index(size_t slots)
{
    nslots = slots;
    slot_id = calloc(slots, sizeof *slot_id);
    tm_add_global_root(&index_root);
    index_root = tm_allocate_var(T_ARRAY, slots / CHUNK);
    CHECK(index_root, "index allocation failed");
    for (size_t i = 0; i < slots / CHUNK; i++) {
        object_t *c = tm_allocate_var(T_ARRAY, CHUNK);   /* index_root is a global root */
        CHECK(c, "chunk allocation failed");
        tm_write(index_root);
        ((array_t *)index_root)->items[i] = c;
    }
}

/* Point ref field `f` of the object with id `id` at whatever slot `t` holds. */
static void set_ref(object_t *o, uint32_t id, uint32_t f, size_t t)
{
    object_t *target = t == SIZE_MAX ? NULL : slot_get(t);
    if (M[id].tid == T_ARRAY && f % 2)
        tm_write_item(o, f);   /* mixed with whole-object barriers on the same array */
    else
        tm_write(o);
    if (M[id].tid == T_NODE)
        ((node_t *)o)->ref[f] = target;
    else
        ((array_t *)o)->items[f] = target;
    M[id].refs[f] = t == SIZE_MAX ? 0 : slot_id[t];
}

static size_t random_target(rng_t *r)
{
    return rng_below(r, 8) == 0 ? SIZE_MAX : rng_below(r, nslots);
}

/* A new random object stored in `slot`, with references to random slots.
 * Nothing is held across the allocation: the index is a global root. */
static void new_object(rng_t *r, size_t slot)
{
    uint64_t kind = rng_below(r, 1000);
    object_t *o;
    uint32_t id;
    if (kind < 700) {
        o = tm_allocate(T_NODE, sizeof(struct node));
        CHECK(o, "allocation failed");
        id = new_id(T_NODE, NREFS);
        ((node_t *)o)->id = id;
        ((node_t *)o)->payload = mix(id);
        for (uint32_t f = 0; f < NREFS; f++)
            set_ref(o, id, f, random_target(r));
    } else if (kind < 900) {
        /* A few big (card-marked once old) arrays. */
        uint32_t len = rng_below(r, 400) ? (uint32_t)rng_below(r, 17) : 1100 + (uint32_t)rng_below(r, 3000);
        o = tm_allocate_var(T_ARRAY, len);
        CHECK(o, "allocation failed");
        id = new_id(T_ARRAY, len);
        ((array_t *)o)->id = id;
        for (uint32_t f = 0; f < len; f++)
            set_ref(o, id, f, random_target(r));
    } else {
        /* Mostly small blobs; some medium (promoted to page runs), a few
         * larger than the nursery limit (allocated young in old space). */
        uint64_t size_kind = rng_below(r, 10000);
        uint32_t len = size_kind < 9950 ? (uint32_t)rng_below(r, 200)
                     : size_kind < 9998 ? 2100 + (uint32_t)rng_below(r, 30000)
                     : 70000 + (uint32_t)rng_below(r, 200000);
        o = tm_allocate_var(T_BLOB, len);
        CHECK(o, "allocation failed");
        id = new_id(T_BLOB, len);
        ((blob_t *)o)->id = id;
        for (uint32_t i = 0; i < len; i++)
            ((blob_t *)o)->bytes[i] = (uint8_t)mix(id + i);
    }
    /* Some objects are promised their old address (as id() does): the
     * object must be found there from then on, and twice asked is one answer. */
    if (rng_below(r, 8) == 0) {
        uintptr_t at = tm_reserve_old_address(o);
        CHECK(at && at == tm_reserve_old_address(o), "id %u: reservation failed or changed", id);
        M[id].reserved = at;
    }
    slot_set(slot, o, id);
}

static void mutate(rng_t *r)
{
    size_t s = rng_below(r, nslots);
    uint32_t id = slot_id[s];
    if (M[id].tid == T_BLOB || M[id].len == 0)
        return;
    set_ref(slot_get(s), id, (uint32_t)rng_below(r, M[id].len), random_target(r));
}

/* Walk the heap from the index and check every field of every object. An
 * object's id and type are checked where it is referenced, its fields once. */
static uint8_t *seen;
static object_t **stack;
static uint32_t *stack_id;
static size_t sp, seen_count;

static void reach(object_t *o, uint32_t want, const char *from, uint32_t from_id)
{
    CHECK((o == NULL) == (want == 0), "%s %u: null mismatch (want id %u)", from, from_id, want);
    if (!o)
        return;
    uintptr_t got = ((node_t *)o)->id;
    CHECK(got == want, "%s %u: reference to an object with id %lu, expected %u", from, from_id, got, want);
    CHECK(o->h.tid == M[want].tid, "id %u: type %u, expected %u", want, o->h.tid, M[want].tid);
    if (seen[want])
        return;
    bool young = (uintptr_t)o >= tm_seg.nursery_start && (uintptr_t)o < tm_seg.nursery_end;
    CHECK(!M[want].reserved || young || (uintptr_t)o == M[want].reserved, "id %u at SO %#lx, promised %#lx",
          want, (unsigned long)(uintptr_t)o, (unsigned long)M[want].reserved);
    seen[want] = 1;
    seen_count++;
    stack[sp] = o;
    stack_id[sp++] = want;
}

static size_t verify(void)
{
    seen = calloc(nids, 1);
    stack = malloc(nids * sizeof *stack);
    stack_id = malloc(nids * sizeof *stack_id);
    sp = seen_count = 0;
    for (size_t s = 0; s < nslots; s++)
        reach(slot_get(s), slot_id[s], "slot", (uint32_t)s);
    while (sp) {
        object_t *o = stack[--sp];
        uint32_t id = stack_id[sp];
        if (M[id].tid == T_BLOB) {
            blob_t *b = (blob_t *)o;
            CHECK(b->len == M[id].len, "blob %u length %lu", id, b->len);
            for (uint32_t i = 0; i < M[id].len; i++)
                CHECK(b->bytes[i] == (uint8_t)mix(id + i), "blob %u byte %u", id, i);
            continue;
        }
        object_t *__seg_gs *refs;
        if (M[id].tid == T_NODE) {
            CHECK(((node_t *)o)->payload == mix(id), "node %u payload", id);
            refs = ((node_t *)o)->ref;
        } else {
            CHECK(((array_t *)o)->len == M[id].len, "array %u length", id);
            refs = ((array_t *)o)->items;
        }
        for (uint32_t f = 0; f < M[id].len; f++)
            reach(refs[f], M[id].refs[f], "object", id);
    }
    free(seen);
    free(stack);
    free(stack_id);
    return seen_count;
}

static void test_graph(void)
{
    double scale = test_scale();
    bool move = tm_cfg.gc_debug_move;
    size_t slots = 1024 * CHUNK;   /* over a million live objects */
    size_t ops = (size_t)(600000 * scale);
    rng_t r = {42};
    new_id(0, 0);   /* id 0 means NULL in the model */
    make_index(slots);
    for (size_t s = 0; s < slots; s++) {
        new_object(&r, s);
        if (s % 4096 == 0)
            tm_collect_minor();
    }
    size_t live = verify();
    CHECK(live >= slots, "only %zu live objects", live);
    tm_gc_stats st;
    int majors = 0;
    for (size_t i = 0; i < ops; i++) {
        if (rng_below(&r, 3) == 0)
            new_object(&r, rng_below(&r, nslots));
        else
            mutate(&r);
        if (i % 2000 == 0)
            tm_collect_minor();
        if (i % (ops / 11) == 0) {
            tm_collect_major();
            if (++majors % 3 == 0)
                live = verify();
        }
    }
    tm_collect_major();
    live = verify();
    tm_gc_get_stats(&st);
    CHECK(st.minor_collections >= 100, "only %lu minor collections", st.minor_collections);
    CHECK(st.major_collections >= 10, "only %lu major collections", st.major_collections);
    printf("ok graph%s: %zu objects made, %zu live and intact after %lu minor and %lu major collections\n",
           move ? " (move mode)" : "", nids - 1, live, st.minor_collections, st.major_collections);
    printf("   old space %lu MiB in %lu pages, %lu large objects, %lu MiB survived minors\n",
           st.old_bytes_used >> 20, st.old_pages_in_use, st.large_objects, st.bytes_survived >> 20);
}

/* Large objects: young ones too big for the nursery, medium ones promoted to
 * page runs; survivors keep their bytes, dead ones give their pages back. */
static void test_large(void)
{
    enum { N = 64 };
    static object_t *keep[N];
    for (int i = 0; i < N; i++)
        tm_add_global_root(&keep[i]);
    tm_gc_stats st0, st1;
    tm_collect_major();
    tm_gc_get_stats(&st0);
    rng_t r = {7};
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < N; i++) {
            size_t len = rng_below(&r, 2) ? 3000 + rng_below(&r, 60000) : 70000 + rng_below(&r, 3 << 20);
            object_t *o = tm_allocate_var(T_BLOB, len);
            CHECK(o, "large allocation of %zu failed", len);
            ((blob_t *)o)->id = (uintptr_t)round << 32 | (uintptr_t)i;
            for (size_t k = 0; k < len; k += 997)
                ((blob_t *)o)->bytes[k] = (uint8_t)mix(len + k);
            if (rng_below(&r, 2))
                keep[i] = o;   /* globals need no barrier: they are C memory */
            /* Garbage in between, so minor collections run. */
            for (int g = 0; g < 2000; g++)
                CHECK(tm_allocate(T_NODE, sizeof(struct node)), "small allocation failed");
        }
        if (round % 5 == 4)
            tm_collect_major();
        for (int i = 0; i < N; i++) {
            blob_t *b = (blob_t *)keep[i];
            if (!b)
                continue;
            for (size_t k = 0; k < b->len; k += 997)
                CHECK(b->bytes[k] == (uint8_t)mix(b->len + k), "large blob %d corrupted at %zu", i, k);
        }
    }
    memset(keep, 0, sizeof keep);
    tm_collect_major();
    tm_gc_get_stats(&st1);
    CHECK(st1.large_objects == st0.large_objects, "large objects left: %lu (was %lu)",
          st1.large_objects, st0.large_objects);
    CHECK(st1.old_pages_in_use <= st0.old_pages_in_use + 64, "pages in use %lu (was %lu)",
          st1.old_pages_in_use, st0.old_pages_in_use);
    printf("ok large objects intact; all freed when dropped (%lu pages in use)\n", st1.old_pages_in_use);
}

/* Unreachable cycles are collected. */
static object_t *ring_head;

static void test_cycles(void)
{
    enum { RING = 200000 };
    tm_add_global_root(&ring_head);
    tm_gc_stats st0, st1, st2;
    tm_collect_major();
    tm_gc_get_stats(&st0);
    for (int ring = 0; ring < 5; ring++) {
        ring_head = tm_allocate(T_NODE, sizeof(struct node));
        object_t *prev = ring_head;
        for (int i = 1; i < RING; i++) {
            TM_PUSH_ROOT(prev);
            object_t *n = tm_allocate(T_NODE, sizeof(struct node));
            TM_POP_ROOT(prev);
            ((node_t *)n)->id = (uintptr_t)i;
            tm_write(prev);
            ((node_t *)prev)->ref[0] = n;
            ((node_t *)n)->ref[1] = prev;   /* doubly linked: cycles everywhere */
            prev = n;
        }
        tm_write(prev);
        ((node_t *)prev)->ref[0] = ring_head;   /* close the ring */
        tm_write(ring_head);
        ((node_t *)ring_head)->ref[1] = prev;
    }
    tm_collect_major();
    tm_gc_get_stats(&st1);
    size_t ring_bytes = (size_t)RING * sizeof(struct node);
    CHECK(st1.old_bytes_used >= st0.old_bytes_used + ring_bytes, "live ring not kept");
    /* Walk the last ring: it is whole. */
    object_t *p = ring_head;
    for (int i = 0; i < RING; i++)
        p = ((node_t *)p)->ref[0];
    CHECK(p == ring_head, "ring broken");
    ring_head = NULL;
    tm_collect_major();
    tm_gc_get_stats(&st2);
    CHECK(st2.old_bytes_used <= st0.old_bytes_used + 4096, "cycles not collected: %lu bytes used (was %lu)",
          st2.old_bytes_used, st0.old_bytes_used);
    printf("ok cycles: %d rings of %d nodes collected (%lu -> %lu bytes)\n", 5, RING,
           st1.old_bytes_used, st2.old_bytes_used);
}

/* A major collection gives the memory of dead objects back to the kernel. */
static object_t *big_list;

static void test_release(void)
{
    tm_add_global_root(&big_list);
    tm_collect_major();
    size_t before = tm_shared_bytes_resident();
    size_t n = 4UL << 20;   /* 4M nodes of 48 bytes: 192 MiB */
    for (size_t i = 0; i < n; i++) {
        object_t *o = tm_allocate(T_NODE, sizeof(struct node));
        CHECK(o, "allocation failed");
        ((node_t *)o)->ref[0] = big_list;
        big_list = o;
    }
    tm_collect_major();
    size_t full = tm_shared_bytes_resident();
    CHECK(full >= before + (180UL << 20), "heap did not grow: %zu -> %zu", before, full);
    big_list = NULL;
    tm_collect_major();
    size_t after = tm_shared_bytes_resident();
    /* A major collection keeps a few free pages mapped for the next nurseries. */
    size_t kept = tm_old_retained_pages() * TM_PAGE_SIZE;
    CHECK(after <= before + kept + (1UL << 20), "memory not returned: %zu MiB before, %zu full, %zu after",
          before >> 20, full >> 20, after >> 20);
    printf("ok release: %zu MiB resident with the list, %zu MiB after dropping it\n", full >> 20, after >> 20);
}

/* Big tables are traced by the runs of pages that can hold data
 * (tm_gs_next_data): references on written pages far apart, with untouched
 * pages between, survive minor and major collections (a young table, an
 * old one written whole, by items, and in the STM build on private copies
 * of untouched pages), and the untouched pages stay holes: reading them
 * would make the kernel allocate them. */
static object_t *sparse;

static bool is_hole(uintptr_t so)
{
    off_t d = lseek(tm_seg.memfd, (off_t)so, SEEK_DATA);
    return d < 0 ? errno == ENXIO : (uintptr_t)d >= so + TM_PAGE_SIZE;
}

static void test_sparse(void)
{
    enum { N = 1 << 20, PER_PAGE = TM_PAGE_SIZE / 8 };   /* 8 MiB of items */
    /* Pages 0, 1, 700, 701, 2047 (its last item) written while young, more afterwards. */
    static const size_t young_at[] = {0, 5, PER_PAGE + 3, 700 * PER_PAGE, 701 * PER_PAGE + 17, N - 1};
    static const size_t old_at[] = {300 * PER_PAGE + 9, 1500 * PER_PAGE, 1500 * PER_PAGE + 1, 1900 * PER_PAGE + 500};
    enum { NY = sizeof young_at / sizeof *young_at, NO = sizeof old_at / sizeof *old_at };
    tm_add_global_root(&sparse);
    sparse = tm_allocate_var(T_ARRAY, N);
    CHECK(sparse, "allocation of a table of %d items failed", N);
    uintptr_t items = (uintptr_t)((array_t *)sparse)->items;
    for (size_t i = 0; i < NY; i++) {
        object_t *o = tm_allocate(T_NODE, sizeof(struct node));   /* sparse is a global root */
        CHECK(o, "allocation failed");
        ((node_t *)o)->id = 1000 + i;
        tm_write(sparse);   /* nothing while young; old already in move mode */
        ((array_t *)sparse)->items[young_at[i]] = o;
    }
    size_t untouched = 1000 * PER_PAGE;   /* an item on a page nobody writes */
    bool hole_before = is_hole(items + untouched * 8), hole_kept = false;
    for (int round = 0; round < 3; round++) {
        if (round == 1) {
            /* Old now, and committed: the item barrier's pages become
             * private copies of untouched pages in the STM build. */
            tm_commit_transaction();
            tm_start_transaction();
            tm_become_inevitable();
            for (size_t i = 1; i < NO; i++) {
                object_t *o = tm_allocate(T_NODE, sizeof(struct node));
                CHECK(o, "allocation failed");
                ((node_t *)o)->id = 2000 + i;
                tm_write_item(sparse, old_at[i]);
                ((array_t *)sparse)->items[old_at[i]] = o;
            }
        }
        if (round == 2) {   /* a store through the whole-object barrier (it privatises every page in STM) */
            object_t *o = tm_allocate(T_NODE, sizeof(struct node));
            CHECK(o, "allocation failed");
            ((node_t *)o)->id = 2000;
            tm_write(sparse);
            ((array_t *)sparse)->items[old_at[0]] = o;
        }
        tm_collect_minor();
        /* Garbage over the freed nursery, then a major collection. */
        for (int g = 0; g < 100000; g++)
            CHECK(tm_allocate(T_NODE, sizeof(struct node)), "small allocation failed");
        tm_collect_major();
        for (int g = 0; g < 100000; g++)
            CHECK(tm_allocate(T_NODE, sizeof(struct node)), "small allocation failed");
        array_t *a = (array_t *)sparse;
        for (size_t i = 0; i < NY; i++) {
            node_t *o = (node_t *)a->items[young_at[i]];
            CHECK(o && o->id == 1000 + i, "round %d: item %zu lost its object (id %lu)", round, young_at[i],
                  o ? (unsigned long)o->id : 0UL);
        }
        for (size_t i = round == 2 ? 0 : 1; i < (round == 0 ? 0 : NO); i++) {
            node_t *o = (node_t *)a->items[old_at[i]];
            CHECK(o && o->id == 2000 + i, "round %d: item %zu lost its object (id %lu)", round, old_at[i],
                  o ? (unsigned long)o->id : 0UL);
        }
    }
    /* Under the checks (move mode copies, the barrier checker maps pages)
     * every page may be touched: only a plain run asks for the hole. */
    hole_kept = is_hole(items + untouched * 8);   /* a major collection traced its private copy again in segment 0 */
    bool plain = !tm_cfg.gc_debug_move && !tm_check_writes;
    CHECK(!plain || !hole_before || hole_kept,
          "collections made an untouched page of a big table resident");
    CHECK(((array_t *)sparse)->items[untouched] == NULL, "an untouched item is not NULL");
    printf("ok sparse: references on pages far apart survive; untouched pages %s\n",
           !hole_before ? "(not holes here: reused pages)" : plain ? "stay holes" : "(not checked under the checks)");
    sparse = NULL;
}

/* Exhaustion: allocation returns NULL (the interpreter's MemoryError), the
 * heap stays usable, and space comes back when objects die. Run with a small
 * TMPY_SEGMENT_SIZE. */
static void test_exhaust(void)
{
    CHECK(tm_allocate_var(T_BLOB, (uintptr_t)1 << 62) == NULL, "absurd varsize allocation succeeded");
    CHECK(tm_allocate(T_BLOB, tm_seg.segment_size + 1) == NULL, "allocation bigger than a segment succeeded");
    size_t count = 0;
    for (;;) {
        object_t *o = tm_allocate(T_NODE, sizeof(struct node));
        if (!o)
            break;
        ((node_t *)o)->ref[0] = big_list;
        big_list = o;
        count++;
    }
    CHECK(count > 1000, "gave up after %zu objects", count);
    /* Small allocations stop while a nursery's worth is kept free; a blob
     * bigger than that reserve cannot fit. */
    object_t *b = tm_allocate_var(T_BLOB, tm_seg.nursery_end - tm_seg.nursery_start + (8 << 20));
    CHECK(b == NULL, "large allocation succeeded in a full heap");
    big_list = NULL;
    size_t again = 0;
    for (size_t i = 0; i < count; i++) {
        object_t *o = tm_allocate(T_NODE, sizeof(struct node));
        CHECK(o, "allocation failed after the heap was emptied (%zu)", i);
        ((node_t *)o)->ref[0] = big_list;
        big_list = o;
        again++;
    }
    printf("ok exhaust: NULL after %zu objects, then %zu more after dropping them\n", count, again);
}

/* Tagged immediates (low bit set) in reference slots are skipped by the GC,
 * and tm_allocate_old objects never move yet keep young referents alive. */
/* Objects born old that nothing reaches: the STM build frees them at the
 * next minor collection (young until their transaction's commit). */
static void test_born_old_garbage(void)
{
#if TM_STM
    tm_collect_minor();
    size_t used = tm_old_bytes_used;
    for (int i = 0; i < 1000; i++)
        CHECK(tm_allocate_old(T_NODE, sizeof(struct node)), "tm_allocate_old failed");
    CHECK(tm_old_bytes_used >= used + 1000 * sizeof(struct node), "born-old objects not counted in use");
    tm_collect_minor();
    CHECK(tm_old_bytes_used == used, "unreached born-old objects not freed: %zu bytes in use, %zu before",
          tm_old_bytes_used, used);
#endif
}

static void test_old_and_immediates(void)
{
    enum { N = 2000 };
    object_t *olds[N];
    test_born_old_garbage();
    /* Small ones share pages (the STM build gave each a page of its own:
     * 4 KiB for every class, code object and interned string). */
    size_t pages_before = tm_old_pages_in_use;
    for (int i = 0; i < N; i++) {
        object_t *o = tm_allocate_old(T_NODE, sizeof(struct node));
        CHECK(o, "tm_allocate_old failed");
        node_t *n = (node_t *)o;
        n->id = (uintptr_t)i;
        n->ref[1] = (object_t *)(uintptr_t)((2 * i) | 1);   /* an immediate */
        olds[i] = o;
        TM_PUSH_ROOT(o);
    }
    CHECK(tm_old_pages_in_use - pages_before <= N * sizeof(struct node) / TM_PAGE_SIZE + 40,
          "%d born-old objects of %zu bytes took %zu pages", N, sizeof(struct node),
          tm_old_pages_in_use - pages_before);
    for (int round = 0; round < 20; round++) {
        /* Store fresh young objects into the old ones, then collect. */
        for (int i = 0; i < N; i++) {
            object_t *y = tm_allocate(T_NODE, sizeof(struct node));
            CHECK(y, "allocation failed");
            ((node_t *)y)->id = (uintptr_t)(i * 1000 + round);
            ((node_t *)y)->ref[0] = (object_t *)(uintptr_t)((7 * i) | 1);
            object_t *o = tm_self.ss_top[-N + i];
            tm_write(o);
            ((node_t *)o)->ref[0] = y;
        }
        if (round % 5 == 4)
            tm_collect_major();
        else
            tm_collect_minor();
        for (int i = 0; i < N; i++) {
            object_t *o = tm_self.ss_top[-N + i];
            CHECK(o == olds[i], "an old-allocated object moved");
            node_t *n = (node_t *)o;
            CHECK(n->id == (uintptr_t)i, "old object corrupted");
            CHECK((uintptr_t)n->ref[1] == (uintptr_t)((2 * i) | 1), "immediate changed");
            node_t *y = (node_t *)n->ref[0];
            CHECK(y->id == (uintptr_t)(i * 1000 + round), "young referent of an old object lost");
            CHECK((uintptr_t)y->ref[0] == (uintptr_t)((7 * i) | 1), "immediate in a moved object changed");
        }
    }
    tm_self.ss_top -= N;
    printf("ok old: %d never-moving objects through 20 collections, immediates kept\n", N);
}

/* tm_cards_take (runtime/cards.h): runs of marked cards inside [start, end),
 * clipped to it and cleared; never an empty or reversed run, and the card
 * after `end` (the next page run's) is left marked even where the skip of
 * clear cards eight at a time lands on it. */
#define MAX_RUNS 8
static struct { uintptr_t lo, hi; } runs[MAX_RUNS];
static int nruns;

static void note_run(uintptr_t lo, uintptr_t hi, void *ctx)
{
    (void)ctx;
    CHECK(lo < hi, "an empty or reversed run [%#lx, %#lx)", (unsigned long)lo, (unsigned long)hi);
    CHECK(nruns < MAX_RUNS, "too many runs");
    runs[nruns].lo = lo;
    runs[nruns++].hi = hi;
}

static void take_and_check(uintptr_t start, uintptr_t end, const int *marked, int nmarked,
                           const uintptr_t *want, int nwant)
{
    uint8_t *t = tm_card_tables[TM_CARDS_GC][1];
    size_t first = start >> TM_CARD_SHIFT;
    for (int i = 0; i < nmarked; i++) {   /* as a barrier marks it: the card and its group */
        uintptr_t a = (uintptr_t)(first + (size_t)marked[i]) << TM_CARD_SHIFT;
        tm_cards_set_range(TM_CARDS_GC, 1, a, a);
    }
    nruns = 0;
    tm_cards_take(TM_CARDS_GC, 1, start, end, note_run, NULL);
    CHECK(nruns == nwant, "%d runs, expected %d", nruns, nwant);
    for (int i = 0; i < nwant; i++)
        CHECK(runs[i].lo == want[2 * i] && runs[i].hi == want[2 * i + 1], "run %d is [%#lx, %#lx), expected [%#lx, %#lx)",
              i, (unsigned long)runs[i].lo, (unsigned long)runs[i].hi, (unsigned long)want[2 * i],
              (unsigned long)want[2 * i + 1]);
    size_t last = (end - 1) >> TM_CARD_SHIFT;
    for (size_t c = first; c <= last; c++)
        CHECK(!t[c], "card %zu of the range still marked", c - first);
    for (int i = 0; i < nmarked; i++)
        if (first + (size_t)marked[i] > last) {
            CHECK(t[first + (size_t)marked[i]], "card %d after the range was cleared", marked[i]);
            t[first + (size_t)marked[i]] = 0;
        }
}

static void test_card_runs(void)
{
    /* A page run of one page somewhere in the segment; the object ends 8
     * bytes before the page does. 512-byte cards: 8 a page. */
    uintptr_t p = 64 * TM_PAGE_SIZE, start = p + 24, end = p + TM_PAGE_SIZE - 8;
    take_and_check(start, end, (int[]){8}, 1, NULL, 0);   /* only the next page's first card */
    take_and_check(start, end, (int[]){1, 2, 5, 8}, 4,
                   (uintptr_t[]){p + 512, p + 1536, p + 2560, p + 3072}, 2);
    take_and_check(start, end, (int[]){0, 7, 8}, 3, (uintptr_t[]){start, p + 512, p + 3584, end}, 2);
    /* Two pages, the second's cards all clear but for the one after it. */
    end = p + 2 * TM_PAGE_SIZE - 8;
    take_and_check(start, end, (int[]){3, 16}, 2, (uintptr_t[]){p + 1536, p + 2048}, 1);
    /* A huge object (cards.h: groups of 64 cards): marks in its first and
     * third groups, a run across the second and third groups' boundary,
     * and the card after it, in the group of its last card. Clear groups
     * are skipped, a group's byte is cleared once its cards are, and kept
     * while another object's card in it is marked. */
    uintptr_t gsz = (uintptr_t)TM_CARD_SIZE << TM_CARD_GROUP_SHIFT, g0 = 256 * gsz;
    start = g0 + 24;
    end = g0 + 4 * gsz - 8;
    size_t c0 = g0 >> TM_CARD_SHIFT, G = (size_t)1 << TM_CARD_GROUP_SHIFT;
    take_and_check(start, end, (int[]){5, (int)(2 * G - 1), (int)(2 * G), (int)(3 * G + 9), (int)(4 * G)}, 5,
                   (uintptr_t[]){g0 + 5 * TM_CARD_SIZE, g0 + 6 * TM_CARD_SIZE,
                                 g0 + (2 * G - 1) * TM_CARD_SIZE, g0 + (2 * G + 1) * TM_CARD_SIZE,
                                 g0 + (3 * G + 9) * TM_CARD_SIZE, g0 + (3 * G + 10) * TM_CARD_SIZE}, 3);
    const uint8_t *groups = tm_card_groups[TM_CARDS_GC][1];
    for (size_t g = 0; g < 4; g++)
        CHECK(!groups[(c0 >> TM_CARD_GROUP_SHIFT) + g], "group %zu of the object still set", g);
    tm_cards_set_range(TM_CARDS_GC, 1, g0 + 4 * gsz - 16, g0 + 4 * gsz + 8);   /* its last card and the next group's first */
    take_and_check(start, end, NULL, 0, (uintptr_t[]){g0 + 4 * gsz - TM_CARD_SIZE, end}, 1);
    CHECK(groups[(c0 >> TM_CARD_GROUP_SHIFT) + 4], "the next object's group was cleared");
    tm_card_tables[TM_CARDS_GC][1][c0 + 4 * G] = 0;
    printf("ok cards: runs clipped to the range, the next object's card kept, clear groups skipped\n");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "graph";
    tm_runtime_init_from_env();
    register_types();
    tm_thread_attach();
    /* One long transaction; it writes C globals (index_root, keep[]), which
     * the STM build allows only in an inevitable transaction. */
    tm_start_transaction();
    tm_become_inevitable();
    if (!strcmp(mode, "init")) printf("ok init: %d segments of %zu MiB\n", tm_seg.nsegments, tm_seg.segment_size >> 20);
    else if (!strcmp(mode, "graph")) test_graph();
    else if (!strcmp(mode, "large")) test_large();
    else if (!strcmp(mode, "cycles")) test_cycles();
    else if (!strcmp(mode, "release")) test_release();
    else if (!strcmp(mode, "old")) test_old_and_immediates();
    else if (!strcmp(mode, "cards")) test_card_runs();
    else if (!strcmp(mode, "sparse")) test_sparse();
    else if (!strcmp(mode, "exhaust")) { tm_add_global_root(&big_list); test_exhaust(); }
    else { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
    tm_commit_transaction();
    tm_thread_detach();
    return 0;
}
