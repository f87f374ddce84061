/* dict: insertion-ordered hash table, CPython 3.11 semantics.
 *
 * Layout (private to this file, except DictObj.used / .version):
 *   entries  ArrayObj of triples [hash, key, value] in insertion order. The
 *            hash is stored as a tagged small int (bit 63 dropped: it is
 *            only a filter and a probe seed, and both use the tagged form).
 *            A deleted entry has key == NULL. Its length / 3 is the capacity.
 *   index    RawObj of int32 slots, a power of two of them, open addressing
 *            (CPython's perturbed probe): IX_EMPTY, IX_DUMMY (deleted) or the
 *            entry number.
 *   nentries triples in use (live + deleted).
 *   popped   DUMMY slots popitem() left behind when it gave its entry back
 *            (nentries lowered): they fill the index as entries do, so a
 *            table is full when nentries + popped reaches its capacity (or
 *            a lookup of a missing key could find no EMPTY slot to stop at).
 * Both are NULL in an empty dict that never had a key (no allocation).
 *
 * STM note: the entries are kept apart from the index on purpose. A later
 * STM build wants updates of unrelated keys not to conflict: the entry
 * array can then become groups of entries in separate objects (overwriting
 * an existing key writes only its group; a lookup reads the index and one
 * group) without touching the probing code. Today every store into either
 * table names the items it writes (VM_WRITE_ITEM(S)): a big table is then
 * published by the cards written, not whole, at each commit. A big table
 * (an index of BY_SLOT_MIN slots and up: both tables card-marked) is also
 * read slot by slot (tm_read_at) on the lookup paths, and the runtime locks
 * its cards, not the whole table: replacing the values of different keys
 * of one big dict from several threads does not conflict, and neither does
 * inserting different non-str keys into it: such an insert is logged and
 * placed at the tail at commit (below, "inserts that commit at the tail").
 * Removing a key, and inserting a str key, still write DictObj (used,
 * nentries, version) and the entries' tail.
 *
 * DictObj.version (tmpy.h contract): a fresh value from one global counter
 * (in per-thread blocks, vm_unique_next) whenever a key is added or removed
 * or the table is rebuilt, never when an existing key's value is replaced; dict_lookup_str_index / dict_value_at
 * give entry indices the eval loop caches against it.
 *
 * Keys are hashed and compared with vm_hash / vm_equal, except exact str and
 * small int keys, which never run Python code. A user __eq__ may mutate the
 * dict during a lookup: the lookup then restarts (as CPython's does). */
#include "objects.h"
#include "containers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static Obj dict_values_view(Obj d);
static Obj dict_keys_view(Obj d);
static Obj dict_items_view(Obj d);

TypeObj *T_dict, *T_dict_keys, *T_dict_values, *T_dict_items, *T_dict_keyiterator,
    *T_dict_valueiterator, *T_dict_itemiterator, *T_dict_reversekeyiterator,
    *T_dict_reversevalueiterator, *T_dict_reverseitemiterator;

enum { IX_EMPTY = -1, IX_DUMMY = -2, LOOKUP_ERROR = -3 };
/* STM: a slot at IX_PENDING0 - k or below holds the running transaction's
 * pending insert k (its append log, below); no other transaction sees one. */
enum { IX_PENDING0 = -8 };
#define MINSIZE 8
#define PERTURB_SHIFT 5

static uint64_t version_counter;
static __thread uint64_t version_next, version_end;

static inline uint64_t next_version(void)
{
    return vm_unique_next(&version_counter, &version_next, &version_end);
}

static Obj s_keys, s_iter;   /* interned "keys", "__iter__" */

static inline int32_t __seg_gs *ix_slots(Obj index)
{
    return (int32_t __seg_gs *)RAW(index)->data;
}
/* STM: a big index (BY_SLOT_MIN slots and up) ends with one more card, the
 * appended counter (below): its slots are the length's first power of two. */
#define IX_COUNTER_BYTES 512
static inline uint64_t ix_slots_of_length(int64_t length)
{
    uint64_t n = (uint64_t)length / 4;
#if TM_STM
    return 1ull << (63 - __builtin_clzll(n));   /* a power of two, plus 128 when big: no branch */
#else
    return n;
#endif
}
static inline uint64_t ix_size(Obj index)
{
    return ix_slots_of_length(RAW(index)->length);
}
/* Big tables are read slot by slot: an index of BY_SLOT_MIN int32 slots is
 * 8 KiB, card-marked (runtime cards.h), and its entries array then is too.
 * The tables' lengths never change, so they are read without barriers. */
#define BY_SLOT_MIN 2048
static inline uint64_t ix_size_nb(Obj index)
{
    return ix_slots_of_length(((RawObj *)index)->length);   /* no barrier: a table's length never changes */
}
static inline bool ix_by_slot(Obj index)
{
    return TM_STM && ((RawObj *)index)->length >= BY_SLOT_MIN * 4;   /* no barrier: never changes */
}
static inline int32_t __seg_gs *ix_slots_nb(Obj index)
{
    return (int32_t __seg_gs *)((RawObj *)index)->data;   /* no barrier: the caller marks the slots it reads */
}
static inline Obj __seg_gs *ents_nb(Obj entries)
{
    return ((ArrayObj *)entries)->items;   /* no barrier: the caller marks the entries it reads */
}
/* Before reading the tables of d (index non-NULL): a small table's read
 * barrier now, or a big one's slots and entries one by one (true). */
static inline bool d_read_tables(Obj d, Obj index)
{
    if (ix_by_slot(index))
        return true;
    VM_READ(index);
    VM_READ(DICT(d)->entries);
    return false;
}
/* The value of entry ix (the key found by a lookup). */
static inline Obj d_value(Obj d, int64_t ix)
{
    Obj e = DICT(d)->entries;
    Obj __seg_gs *p = &ents_nb(e)[3 * ix + 2];
    if (!ix_by_slot(DICT(d)->index))
        VM_READ(e);
    else
        tm_read_at((uintptr_t)p);
    return *p;
}

static inline Obj __seg_gs *ents(Obj d)
{
    return ARRAY(DICT(d)->entries)->items;
}
static inline int64_t ents_cap(Obj d)
{
    Obj e = DICT(d)->entries;
    return e ? ((ArrayObj *)e)->length / 3 : 0;   /* no barrier: a table's length never changes */
}
static inline int64_t usable_for(int64_t size)
{
    return size * 2 / 3;
}
/* Smallest table size whose capacity holds n entries. */
static int64_t size_for(int64_t n)
{
    int64_t size = MINSIZE;
    while (usable_for(size) < n)
        size <<= 1;
    return size;
}
static inline uint64_t probe_seed(Obj tag)
{
    return (uint64_t)(uintptr_t)tag >> 1;
}

/* ---- STM: inserts that commit at the tail (docs/ARCHITECTURE.md) ----
 *
 * Two transactions that insert different keys into one big dict would both
 * write DictObj (nentries, used) and the entries' tail: they always
 * conflict, and insertion order must be the commit order. So an insert of a
 * new key into a big table (by a transaction that can abort) only writes its
 * index slot, a card as any slot store, with a pending mark naming an entry
 * of the transaction's append log (ROOT_DICT_APPENDS); the transaction's own
 * lookups that meet the mark with the key's hash tag first turn the log into
 * plain inserts (d_flush_own), and so does every other operation on the dict
 * (d_used, d_nentries, d_prepare_write). At commit, with the world stopped
 * (dict_appends_merge_check, _apply), the log's entries go to the committed tail in log
 * order, the slots are re-pointed at them, and the index's appended counter
 * (a card of its own after the slots) grows: DictObj is not written, so the
 * other inserters, whose lookups read it, go on. The true counts are
 * DictObj's plus the counter; a writer folds the counter into DictObj first
 * (d_fold). The merge aborts the transaction (its retry inserts plainly) when
 * another transaction holds the tail or the counter, or the entries' room
 * would fall below the reserve (a quarter of the entries' capacity, so that a
 * transaction of a thousand inserts fits from an 8192-slot index up); its
 * retry inserts plainly and resizes once the room is short of the reserve
 * (a plain insert otherwise resizes when the table is full, as CPython). So
 * turning a log into plain inserts inside the transaction never needs a
 * resize (it must not allocate: d_used is called where C locals are not
 * rooted): a transaction logs at most the reserve per dict, and only while
 * DictObj's count, its popped slots and its log fit the capacity; DictObj
 * cannot change under it (every lookup read it: a writer's commit aborts
 * it), and the counter grows only by merges, each of which left the reserve
 * free.
 *
 * Only keys that never equal a str are logged (ints, floats, bytes, tuples):
 * the eval loop's caches look names up by str and validate on
 * DictObj.version, which the merge does not change. An inevitable
 * transaction inserts plainly and turns its log into plain inserts when it
 * commits (dict_appends_before_commit). */
#if TM_STM
#define APPEND_RESERVE_SHIFT 2   /* the reserve: a quarter of the capacity */
#define LOG_DICTS 4                       /* dicts one transaction logs inserts into */
#define LOG_HDR (1 + 2 * LOG_DICTS)       /* [0] entries; then (dict, count) pairs; then the chunks */
#define LOG_W 5                           /* an entry: dict, tag, key, value, slot */
/* The entries are in chunks (ArrayObj) of LOG_CHUNK entries, small objects:
 * one array of a transaction's thousand entries (40 KiB) became a large
 * object at every commit's minor collection (fresh pages: faults and
 * zeroing), and garbage that brought major collections on sooner. */
#define LOG_CHUNK 48
static __thread bool appends_plain;       /* the retry of a failed merge inserts plainly */
/* TMPY_TEST_DICT_IGNORE_PENDING=1 (tests only): lookups do not see the
 * transaction's pending inserts, so a key inserted twice in one transaction
 * is logged twice: tests/py/dict_appends_threads.py must then fail. */
static bool ignore_pending;

/* (A thread commits before its root slots exist, at its start.) */
static inline Obj alog(void) { return vm_ts.roots ? vm_ts.roots[ROOT_DICT_APPENDS] : NULL; }

/* An invariant of the append logs broke: no way to go on correctly. */
static __attribute__((noreturn, cold)) void appends_broken(const char *what)
{
    fprintf(stderr, "tmpy: fatal: dict append log: %s\n", what);
    abort();
}
static inline Obj __seg_gs *log_items(Obj log) { return ARRAY(log)->items; }
/* Entry k of the log (its LOG_W slots). */
static inline Obj __seg_gs *log_entry(Obj log, int64_t k)
{
    return ARRAY(log_items(log)[LOG_HDR + k / LOG_CHUNK])->items + LOG_W * (k % LOG_CHUNK);
}
/* The same, to be written (its chunk was made by this transaction). */
static inline Obj __seg_gs *log_entry_w(Obj log, int64_t k)
{
    Obj chunk = log_items(log)[LOG_HDR + k / LOG_CHUNK];
    VM_WRITE(chunk);
    return ARRAY(chunk)->items + LOG_W * (k % LOG_CHUNK);
}

static int log_dict_slot(Obj log, Obj d)
{
    for (int j = 0; j < LOG_DICTS; j++)
        if (log_items(log)[1 + 2 * j] == d)
            return j;
    return -1;
}

/* The appended counter of a big index (a card of its own). */
/* The last 16 bytes of the index's data: its own card (the object starts
 * a page run, its data 16 bytes in, its length is the slots' plus 512). */
static inline uint64_t counter_offset(Obj index)
{
    return (uint64_t)((RawObj *)index)->length - 16;   /* no barrier: a raw object's length never changes */
}
static inline int64_t __seg_gs *ix_counter(Obj index)
{
    return (int64_t __seg_gs *)(((RawObj *)index)->data + counter_offset(index));   /* no barrier: tm_read_at */
}
static inline int64_t d_appended(Obj d)
{
    Obj index = DICT(d)->index;
    if (!index || !ix_by_slot(index))
        return 0;
    int64_t __seg_gs *c = ix_counter(index);
    tm_read_at((uintptr_t)c);
    return *c;
}
/* Fold the counter into DictObj (a writer, before it writes DictObj): its
 * test inline (every insert asks), the fold out of line. */
static __attribute__((noinline)) void d_fold_slow(Obj d, Obj index, int64_t a)
{
    int64_t __seg_gs *c = ix_counter(index);
    VM_WRITE_ITEMS(index, counter_offset(index), 8);
    *c = 0;
    VM_WRITE(d);
    DICT(d)->nentries += a;
    DICT(d)->used += a;
}
static inline void d_fold(Obj d)
{
    Obj index = DICT(d)->index;
    if (!index || !ix_by_slot(index))
        return;
    int64_t __seg_gs *c = ix_counter(index);
    tm_read_at((uintptr_t)c);
    int64_t a = *c;
    if (a)
        d_fold_slow(d, index, a);
}

/* Does pending slot value ix hold a key with this tag? (Out of line: the
 * probe loops do not pay for it.) */
static __attribute__((noinline, cold)) bool pending_hit(int32_t ix, Obj tag)
{
    Obj log = alog();
    if (!log)
        appends_broken("a pending slot without an append log");
    return !ignore_pending && log_entry(log, (int64_t)(IX_PENDING0 - ix))[1] == tag;
}

/* Turn this transaction's pending inserts into d into plain ones, in log
 * order. Never allocates: the room is there (d_reserve). */
static __attribute__((noinline)) void d_flush_own_slow(Obj d, Obj log, int j)
{
    d_fold(d);
    Obj index = DICT(d)->index, e = DICT(d)->entries;
    int64_t n0 = DICT(d)->nentries, n = n0, nlog = SMALLINT_VAL(log_items(log)[0]);
    VM_WRITE(log);
    for (int64_t k = 0; k < nlog; k++) {
        Obj __seg_gs *le = log_entry(log, k);
        if (le[0] != d)
            continue;
        le = log_entry_w(log, k);
        if (n + DICT(d)->popped >= ents_cap(d))
            appends_broken("no room for the pending inserts of a transaction");
        VM_WRITE_ITEMS(e, 3 * n, 3);
        ARRAY(e)->items[3 * n] = le[1];
        ARRAY(e)->items[3 * n + 1] = le[2];
        ARRAY(e)->items[3 * n + 2] = le[3];
        uint64_t slot = (uint64_t)SMALLINT_VAL(le[4]);
        VM_WRITE_ITEMS(index, slot * 4, 4);
        ix_slots_nb(index)[slot] = (int32_t)n;
        le[0] = NULL;
        n++;
    }
    log_items(log)[1 + 2 * j] = NULL;
    log_items(log)[2 + 2 * j] = MAKE_SMALLINT(0);
    VM_WRITE(d);
    DICT(d)->nentries = n;
    DICT(d)->used += n - n0;
    DICT(d)->version = next_version();
}
static inline void d_flush_own(Obj d)
{
    Obj log = alog();
    if (__builtin_expect(log != NULL, 0)) {
        int j = log_dict_slot(log, d);
        if (j >= 0)
            d_flush_own_slow(d, log, j);
    }
}
/* Keys that never equal a str (not even through a subclass's __eq__). */
static inline bool loggable_key(Obj k)
{
    if (IS_SMALLINT(k))
        return true;
    uint16_t t = TID(k);
    return t == TID_BIGINT || t == TID_FLOAT || t == TID_BYTES || t == TID_TUPLE;
}
#else
static inline bool pending_hit(int32_t ix, Obj tag) { (void)ix; (void)tag; return false; }
static inline int64_t d_appended(Obj d) { (void)d; return 0; }
static inline void d_fold(Obj d) { (void)d; }
static inline void d_flush_own(Obj d) { (void)d; }
#endif

/* The true counts (DictObj's and the tail's counter), after this
 * transaction's pending inserts into d became plain ones. */
static inline int64_t d_used(Obj d)
{
    d_flush_own(d);
    return DICT(d)->used + d_appended(d);
}
static inline int64_t d_nentries(Obj d)
{
    d_flush_own(d);
    return DICT(d)->nentries + d_appended(d);
}
/* Before an operation writes DictObj's counts or tables: DictObj exact. */
/* The retry of a failed merge: a plain insert resizes once the room is
 * short of the reserve (elsewhere, as CPython, when the table is full). */
static inline bool appends_short(void)
{
#if TM_STM
    return appends_plain;
#else
    return false;
#endif
}
static inline void d_prepare_write(Obj d)
{
    d_flush_own(d);
    d_fold(d);
}
/* The room a merge leaves in a big table (below the capacity). */
static inline int64_t d_reserve(Obj d)
{
#if TM_STM
    Obj index = DICT(d)->index;
    return index && ix_by_slot(index) ? ents_cap(d) >> APPEND_RESERVE_SHIFT : 0;
#else
    (void)d;
    return 0;
#endif
}

Obj dict_new(void)
{
    Obj d = tm_allocate(TID_DICT, sizeof(struct DictObj_));
    if (!d)
        return err_nomemory();
    DICT(d)->version = next_version();
    return d;
}

/* ---- table building ---- */

/* First slot on tag's probe sequence that holds no entry. */
static uint64_t find_empty_slot(Obj index, Obj tag)
{
    int32_t __seg_gs *slots = ix_slots(index);
    uint64_t mask = ix_size(index) - 1;
    uint64_t perturb = probe_seed(tag);
    uint64_t i = perturb & mask;
    while (slots[i] >= 0 || (TM_STM && slots[i] <= IX_PENDING0)) {
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    return i;
}

/* Give *dp a new table of `size` slots holding the live entries of the
 * entries array `src` (the first src_n triples); *dp, and the extra root
 * slots' values, are refreshed. `src` may be *dp's own entries or another
 * dict's. */
static int d_build(Obj *dp, int64_t size, Obj *srcp, int64_t src_n)
{
    Obj index = raw_new(size * 4 + (TM_STM && size >= BY_SLOT_MIN ? IX_COUNTER_BYTES : 0));
    if (!index)
        return -1;
    Obj *r = vm_roots(1);
    r[0] = index;
    Obj entries = array_new(usable_for(size) * 3);
    index = r[0];
    vm_unroots(r);
    if (!entries)
        return -1;
    memset(VM_LINEAR(RAW(index)->data), 0xff, (size_t)size * 4);   /* IX_EMPTY */
    int32_t __seg_gs *slots = ix_slots(index);
    Obj __seg_gs *to = ARRAY(entries)->items;
    int64_t n = 0;
    if (*srcp) {
        Obj __seg_gs *from = ARRAY(*srcp)->items;
        uint64_t mask = (uint64_t)size - 1;
        for (int64_t i = 0; i < src_n; i++) {
            Obj k = from[3 * i + 1];
            if (!k)
                continue;
            Obj tag = from[3 * i];
            to[3 * n] = tag;
            to[3 * n + 1] = k;
            to[3 * n + 2] = from[3 * i + 2];
            uint64_t perturb = probe_seed(tag), j = perturb & mask;
            while (slots[j] != IX_EMPTY) {
                perturb >>= PERTURB_SHIFT;
                j = (j * 5 + perturb + 1) & mask;
            }
            slots[j] = (int32_t)n;
            n++;
        }
    }
    Obj d = *dp;
    VM_WRITE(d);
    DICT(d)->entries = entries;
    DICT(d)->index = index;
    DICT(d)->nentries = n;
    DICT(d)->popped = 0;
    DICT(d)->used = n;
    DICT(d)->version = next_version();
    return 0;
}

/* Rebuild *dp with room for at least `need` entries. kp/vp: other values
 * the caller holds (refreshed), may be NULL. */
static int d_resize(Obj *dp, Obj *kp, Obj *vp, int64_t need)
{
    VM_WRITE_TO_GROW(*dp, need);
    d_prepare_write(*dp);
    Obj *r = vm_roots(4);
    r[0] = *dp;
    r[1] = kp ? *kp : NULL;
    r[2] = vp ? *vp : NULL;
    r[3] = DICT(*dp)->entries;
    int rc = d_build(&r[0], size_for(need), &r[3], d_nentries(*dp));
    *dp = r[0];
    if (kp)
        *kp = r[1];
    if (vp)
        *vp = r[2];
    vm_unroots(r);
    return rc;
}

Obj dict_new_presized(int64_t n)
{
    Obj d = dict_new();
    if (!d || n <= usable_for(MINSIZE))
        return d;
    Obj *r = vm_roots(1);
    r[0] = d;
    int rc = d_resize(&r[0], NULL, NULL, n);
    d = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : d;
}

/* ---- lookup ---- */

/* vm_equal(startkey, key) for the entry `ix`, Python code allowed.
 * Returns 1, 0, -1 (error) or 2 (the dict changed: restart). */
static __attribute__((noinline)) int slow_eq(Obj *dp, Obj *kp, Obj *xp, int64_t ix, Obj startkey)
{
    Obj *r = vm_roots(5);
    r[0] = *dp;
    r[1] = *kp;
    r[2] = xp ? *xp : NULL;
    r[3] = DICT(*dp)->entries;
    r[4] = startkey;
    int eq = vm_equal(startkey, *kp);
    Obj d = r[0];
    *dp = d;
    *kp = r[1];
    if (xp)
        *xp = r[2];
    bool changed = DICT(d)->entries != r[3] || ents(d)[3 * ix + 1] != r[4];
    vm_unroots(r);
    if (eq < 0)
        return -1;
    return changed ? 2 : eq;
}

/* Find *kp (with `hash`) in *dp: the entry number, IX_EMPTY, or
 * LOOKUP_ERROR. *slotp gets the index slot of a found key. If Python code
 * ran, *dp, *kp and *xp (may be NULL) are refreshed. */
static int64_t d_lookup(Obj *dp, Obj *kp, Obj *xp, int64_t hash, uint64_t *slotp)
{
restart:;
    Obj d = *dp;
    VM_READ(d);
    Obj index = DICT(d)->index;
    if (!index)
        return IX_EMPTY;
    uint8_t rv = d_read_tables(d, index) ? tm_read_version() : 0;
    Obj key = *kp;
    Obj tag = MAKE_SMALLINT(hash);
    uint64_t mask = ix_size_nb(index) - 1;
    uint64_t perturb = probe_seed(tag);
    uint64_t i = perturb & mask;
    Obj __seg_gs *es = ents_nb(DICT(d)->entries);   /* one barrier on d, not one a probe */
    for (;;) {
        tm_read_at_rv((uintptr_t)&ix_slots_nb(index)[i], rv);
        int32_t ix = ix_slots_nb(index)[i];
        if (ix == IX_EMPTY)
            return IX_EMPTY;
        if (ix >= 0) {
            Obj __seg_gs *e = es + 3 * ix;
            tm_read_at_rv((uintptr_t)&e[0], rv);
            tm_read_at_rv((uintptr_t)&e[1], rv);
            Obj ek = e[1];
            if (ek == key)
                goto found;
            if (e[0] == tag) {
                int eq = container_fast_eq(ek, key);
                if (eq == -2) {
                    eq = slow_eq(dp, kp, xp, ix, ek);
                    if (eq < 0)
                        return LOOKUP_ERROR;
                    if (eq == 2)
                        goto restart;
                    d = *dp;
                    key = *kp;
                    index = DICT(d)->index;
                    rv = d_read_tables(d, index) ? tm_read_version() : 0;
                    es = ents_nb(DICT(d)->entries);
                }
                if (eq) {
                found:
                    if (slotp)
                        *slotp = i;
                    return ix;
                }
            }
        } else if (TM_STM && ix <= IX_PENDING0 && pending_hit(ix, tag)) {
            d_flush_own(d);   /* maybe our own pending key: look again at plain entries */
            goto restart;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
}

/* The common case, inlined: a small int or exact str key, whose equality
 * never runs Python code. Returns the entry number, IX_EMPTY, or
 * NEED_SLOW when a colliding key needs vm_equal (then use d_lookup). */
enum { NEED_SLOW = -4 };
/* The probe loop, specialised on `marking` (one copy with the slot and entry
 * read markers of a big table, one without: the markers' test is not paid
 * per probe where they are not needed, one thread alone included). */
static inline __attribute__((always_inline)) int64_t d_probe_loop(Obj index, Obj __seg_gs *e, Obj key, int64_t hash,
                                                                  uint8_t rv, const bool marking)
{
    Obj tag = MAKE_SMALLINT(hash);
    uint64_t mask = ix_size_nb(index) - 1;
    uint64_t perturb = probe_seed(tag);
    uint64_t i = perturb & mask;
    int32_t __seg_gs *slots = ix_slots_nb(index);
    for (;;) {
        if (marking)
            tm_read_at_rv((uintptr_t)&slots[i], rv);
        int32_t ix = slots[i];
        if (ix == IX_EMPTY)
            return IX_EMPTY;
        if (ix >= 0) {
            if (marking) {
                tm_read_at_rv((uintptr_t)&e[3 * ix], rv);
                tm_read_at_rv((uintptr_t)&e[3 * ix + 1], rv);
            }
            Obj ek = e[3 * ix + 1];
            if (ek == key)
                return ix;
            if (e[3 * ix] == tag) {
                int eq = container_fast_eq(ek, key);
                if (eq == 1)
                    return ix;
                if (eq == -2)
                    return NEED_SLOW;
            }
        } else if (TM_STM && ix <= IX_PENDING0 && pending_hit(ix, tag)) {
            return NEED_SLOW;   /* d_lookup turns the pending inserts into plain ones */
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
}

static inline __attribute__((always_inline)) int64_t d_probe_fast(Obj d, Obj key, int64_t hash)
{
    VM_READ(d);
    Obj index = DICT(d)->index;
    if (!index)
        return IX_EMPTY;
    uint8_t rv = d_read_tables(d, index) ? tm_read_version() : 0;
    Obj __seg_gs *e = ents_nb(DICT(d)->entries);
    if (rv)
        return d_probe_loop(index, e, key, hash, rv, true);
    return d_probe_loop(index, e, key, hash, 0, false);
}

static inline bool simple_key(Obj k)
{
    return IS_SMALLINT(k) || k->h.tid == TID_STR;
}

/* Hash of a key; root-safe: *kp is refreshed. -1 on error. */
static inline int64_t key_hash(Obj *kp, Obj *dp, Obj *vp)
{
    Obj k = *kp;
    if (IS_SMALLINT(k) || k->h.tid == TID_STR)
        return container_hash(k);
    Obj *r = vm_roots(3);
    r[0] = k;
    r[1] = *dp;
    r[2] = vp ? *vp : NULL;
    int64_t h = vm_hash(k);
    *kp = r[0];
    *dp = r[1];
    if (vp)
        *vp = r[2];
    vm_unroots(r);
    return h;
}

/* ---- insertion / deletion ---- */

/* Add *kp -> *vp, the key known to be absent (no comparisons). */
static int d_insert_new(Obj *dp, Obj *kp, Obj *vp, int64_t hash)
{
    Obj d = *dp;
    d_prepare_write(d);
    if (DICT(d)->nentries + DICT(d)->popped >= ents_cap(d) - (appends_short() ? d_reserve(d) : 0)) {
        /* A big table's resize is the rare global event: it runs inevitable
         * (it cannot be aborted after building megabytes of tables, and the
         * inserters it conflicts with wait instead of retrying). */
        if (TM_STM && DICT(d)->index && ix_by_slot(DICT(d)->index))
            vm_tx_become_inevitable();
        int64_t used = DICT(d)->used;
        if (d_resize(dp, kp, vp, used + (used >> 1) + 1) < 0)
            return -1;
        d = *dp;
    }
    /* One read barrier for each object (a cast per field read reloads the
     * read version: each barrier's store may alias it), nothing below can
     * move them. */
    DictObj *dd = DICT(d);
    Obj tag = MAKE_SMALLINT(hash);
    Obj index = dd->index;
    uint64_t i = find_empty_slot(index, tag);
    int64_t n = dd->nentries;
#ifndef TMPY_TEST_UNMARKED_CARD
    VM_WRITE_ITEMS(index, i * 4, 4);
#else   /* tests/test_barrier_check.py: names a slot a card or more away */
    VM_WRITE_ITEMS(index, ((i + 1024) & (ix_size(index) - 1)) * 4, 4);
#endif
    ix_slots(index)[i] = (int32_t)n;
    Obj e = dd->entries;
    VM_WRITE_ITEMS(e, 3 * n, 3);
    Obj __seg_gs *to = ARRAY(e)->items;
    to[3 * n] = tag;
    to[3 * n + 1] = *kp;
    to[3 * n + 2] = *vp;
    VM_WRITE(d);
    dd->nentries = n + 1;
    dd->used++;
    dd->version = next_version();
    return 0;
}

#if TM_STM
/* Log the insert of *kp -> *vp (known absent) as pending: 0 done, -1 error,
 * 1 not loggable here (insert plainly). */
static int d_insert_pending(Obj *dp, Obj *kp, Obj *vp, int64_t hash)
{
    /* No read markers: a solo transaction (inevitable, nobody beside it),
     * checked first without a call (dict_distinct_key_inserts at 1 thread
     * called tm_is_inevitable at every insert). */
    if (!tm_read_version())
        return 1;
    Obj d = *dp;
    Obj index = DICT(d)->index;
    if (!index || !ix_by_slot(index) || appends_plain || !loggable_key(*kp) || tm_is_inevitable())
        return 1;
    Obj log = alog();
    int j = log ? log_dict_slot(log, d) : -1;
    int64_t own = j >= 0 ? SMALLINT_VAL(log_items(log)[2 + 2 * j]) : 0;
    int64_t reserve = d_reserve(d);
    if (own >= reserve || DICT(d)->nentries + DICT(d)->popped + own + 1 > ents_cap(d))
        return 1;
    if (j < 0 && log) {
        for (j = 0; j < LOG_DICTS && log_items(log)[1 + 2 * j]; j++)
            ;
        if (j == LOG_DICTS)
            return 1;
    }
    if (j < 0)
        j = 0;
    int64_t nlog = log ? SMALLINT_VAL(log_items(log)[0]) : 0;
    if (!log || nlog % LOG_CHUNK == 0) {   /* a new chunk (and maybe more room for chunks) */
        Obj *r = vm_roots(5);
        r[0] = d;
        r[1] = *kp;
        r[2] = *vp;
        r[3] = log;
        int64_t len = log ? ARRAY(log)->length : 0;
        bool ok = true;
        if (!log || LOG_HDR + nlog / LOG_CHUNK + 1 > len) {
            Obj grown = array_new(len ? 2 * len - LOG_HDR : LOG_HDR + 16);
            if (grown) {
                VM_WRITE(grown);
                if (r[3])
                    for (int64_t i = 0; i < len; i++)
                        ARRAY(grown)->items[i] = ARRAY(r[3])->items[i];
                else
                    for (int w = 0; w < LOG_HDR; w += 2)
                        ARRAY(grown)->items[w] = MAKE_SMALLINT(0);   /* the entry count and the dicts' counts */
                r[3] = grown;
                vm_ts.roots[ROOT_DICT_APPENDS] = grown;
            } else {
                ok = false;
            }
        }
        if (ok && (r[4] = array_new(LOG_W * LOG_CHUNK))) {
            VM_WRITE(r[3]);
            ARRAY(r[3])->items[LOG_HDR + nlog / LOG_CHUNK] = r[4];
        } else {
            ok = false;
        }
        *dp = d = r[0];
        *kp = r[1];
        *vp = r[2];
        log = r[3];
        vm_unroots(r);
        if (!ok)
            return -1;
        index = DICT(d)->index;
    }
    /* The first free slot on the key's probe sequence (the lookup before
     * marked the same slots read). */
    Obj tag = MAKE_SMALLINT(hash);
    int32_t __seg_gs *slots = ix_slots_nb(index);
    uint64_t mask = ix_size_nb(index) - 1, perturb = probe_seed(tag), i = perturb & mask;
    for (;;) {
        tm_read_at((uintptr_t)&slots[i]);
        int32_t ix = slots[i];
        if (ix == IX_EMPTY || ix == IX_DUMMY)
            break;
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    VM_WRITE(log);
    Obj __seg_gs *le = log_entry_w(log, nlog);
    le[0] = d;
    le[1] = tag;
    le[2] = *kp;
    le[3] = *vp;
    le[4] = MAKE_SMALLINT((int64_t)i);
    log_items(log)[0] = MAKE_SMALLINT(nlog + 1);
    log_items(log)[1 + 2 * j] = d;
    log_items(log)[2 + 2 * j] = MAKE_SMALLINT(own + 1);
    VM_WRITE_ITEMS(index, i * 4, 4);
    slots[i] = (int32_t)(IX_PENDING0 - nlog);
    return 0;
}

/* Commit, first (ordinary transactional code): an inevitable transaction
 * cannot have its merge fail, so its log becomes plain inserts here. */
static void dict_appends_before_commit(void)
{
    Obj log = alog();
    if (!log)
        return;
    if (tm_is_inevitable()) {
        dict_flush_pending();
        return;
    }
    /* A dict whose merge would find the room short (judged by the counter
     * read without a marker: a hint, which the merge checks again): its
     * inserts become plain ones and the table grows here, instead of an
     * abort and a retry that resizes. */
    for (int j = 0; j < LOG_DICTS; j++) {
        Obj d = log_items(log)[1 + 2 * j];
        if (!d)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[2 + 2 * j]);
        Obj index = DICT(d)->index;
        int64_t tail = DICT(d)->nentries + *ix_counter(index);   /* no marker: a hint */
        if (tail + DICT(d)->popped + cnt <= ents_cap(d) - d_reserve(d)) {
            /* The pages the merge will write, ready before the world stops. */
            tm_prepare_write_items((object_t *)index, counter_offset(index), 8);
            tm_prepare_write_items((object_t *)DICT(d)->entries, (uintptr_t)(3 * tail), (uintptr_t)(3 * cnt));
            continue;
        }
        d_flush_own_slow(d, log, j);
        if (DICT(d)->nentries + DICT(d)->popped >= ents_cap(d) - d_reserve(d)) {
            Obj *r = vm_roots(2);
            r[0] = d;
            r[1] = err_fetch();   /* the exception in flight, if any, stays */
            vm_tx_become_inevitable();   /* a resize: the rare global event */
            int64_t used = DICT(r[0])->used;
            if (d_resize(&r[0], NULL, NULL, used + (used >> 1) + 1) < 0)
                err_clear();   /* no memory for the bigger table: the next insert tries again */
            if (r[1])
                err_set_obj(r[1]);
            vm_unroots(r);
            dict_flush_pending();   /* inevitable now: its merge must not fail */
            return;
        }
        log = alog();
    }
}
#endif

void dict_flush_pending(void)
{
#if TM_STM
    Obj log = alog();
    if (!log)
        return;
    for (int j = 0; j < LOG_DICTS; j++) {
        Obj d = log_items(log)[1 + 2 * j];
        if (d)
            d_flush_own_slow(d, log, j);
    }
    vm_ts.roots[ROOT_DICT_APPENDS] = NULL;
#endif
}

#if TM_STM

/* Commit, with the world stopped (tm_set_commit_hooks), in two steps: the
 * merge may write in place (the committed state itself: runtime/stm.c
 * merge_in_place), so nothing may fail once it wrote. First every logged
 * dict's room is checked and its tail and counter taken (through
 * tm_commit_write_items); false: the transaction aborts, and its retry
 * inserts plainly. Reads see the committed state (or this transaction's
 * own writes). */
static bool dict_appends_merge_check(void)
{
    Obj log = alog();
    if (!log)
        return true;
    for (int j = 0; j < LOG_DICTS; j++) {
        Obj d = log_items(log)[1 + 2 * j];
        if (!d)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[2 + 2 * j]);
        if (!tm_commit_unheld((object_t *)d))   /* a resize or plain insert under way: retry after it */
            return false;
        Obj index = DICT(d)->index, e = DICT(d)->entries;
        int64_t tail = DICT(d)->nentries + *ix_counter(index);
        if (tail + DICT(d)->popped + cnt > ents_cap(d) - d_reserve(d) ||
            !tm_commit_write_items((object_t *)index, counter_offset(index), 8) ||
            !tm_commit_write_items((object_t *)e, (uintptr_t)(3 * tail), (uintptr_t)(3 * cnt))) {
            appends_plain = true;
            return false;
        }
    }
    return true;
}

/* Then each logged dict's entries go to its committed tail, in log order. */
static void dict_appends_merge_apply(void)
{
    Obj log = alog();
    appends_plain = false;
    if (!log)
        return;
    int64_t nlog = SMALLINT_VAL(log_items(log)[0]);
    for (int j = 0; j < LOG_DICTS; j++) {
        Obj d = log_items(log)[1 + 2 * j];
        if (!d)
            continue;
        int64_t cnt = SMALLINT_VAL(log_items(log)[2 + 2 * j]);
        Obj index = DICT(d)->index, e = DICT(d)->entries;
        int64_t __seg_gs *counter = ix_counter(index);
        int64_t tail = DICT(d)->nentries + *counter;
        Obj __seg_gs *to = ((ArrayObj *)e)->items;   /* no barrier: tm_commit_write_items made them ours */
        int32_t __seg_gs *slots = ix_slots_nb(index);
        int64_t n = tail;
        for (int64_t k = 0; k < nlog; k++) {
            Obj __seg_gs *le = log_entry(log, k);
            if (le[0] != d)
                continue;
            to[3 * n] = le[1];
            to[3 * n + 1] = le[2];
            to[3 * n + 2] = le[3];
            slots[SMALLINT_VAL(le[4])] = (int32_t)n;   /* a slot this transaction wrote: its card is ours */
            n++;
        }
        if (n - tail != cnt)
            appends_broken("a dict's count does not match its entries");
        *counter += cnt;
    }
    vm_ts.roots[ROOT_DICT_APPENDS] = NULL;
}

/* The commit hooks of the append logs: the dicts', the lists'
 * (listappends.c) and the sets' blind adds and discards (setlog.c). */
static void appends_before_commit(void)
{
    dict_appends_before_commit();
    list_appends_before_commit();
    set_log_before_commit();
}
static bool appends_merge(void)
{
    if (!dict_appends_merge_check() || !list_appends_merge_check() || !set_log_merge_check())
        return false;
    dict_appends_merge_apply();
    list_appends_merge_apply();
    set_log_merge_apply();
    return true;
}
#endif

static int d_insert(Obj *dp, Obj *kp, Obj *vp, int64_t hash)
{
    int64_t ix = d_lookup(dp, kp, vp, hash, NULL);
    if (ix == LOOKUP_ERROR)
        return -1;
    if (ix >= 0) {
        Obj e = DICT(*dp)->entries;
        VM_WRITE_ITEM(e, 3 * ix + 2);
        ents_nb(e)[3 * ix + 2] = *vp;   /* the lookup read the entry (its key) */
        return 0;
    }
#if TM_STM
    int rc = d_insert_pending(dp, kp, vp, hash);
    if (rc <= 0)
        return rc;
#endif
    return d_insert_new(dp, kp, vp, hash);
}

static void d_delete_at(Obj d, int64_t ix, uint64_t slot)
{
    d_prepare_write(d);
    Obj index = DICT(d)->index;
    VM_WRITE_ITEMS(index, slot * 4, 4);
    ix_slots(index)[slot] = IX_DUMMY;
    Obj e = DICT(d)->entries;
    VM_WRITE_ITEMS(e, 3 * ix, 3);
    ARRAY(e)->items[3 * ix] = NULL;
    ARRAY(e)->items[3 * ix + 1] = NULL;
    ARRAY(e)->items[3 * ix + 2] = NULL;
    VM_WRITE(d);
    DICT(d)->used--;
    DICT(d)->version = next_version();
}

/* ---- the public API ---- */

Obj dict_getitem_known_hash(Obj d, Obj key, int64_t hash)
{
    d = vm_unwrap(d);
    int64_t ix = d_lookup(&d, &key, NULL, hash, NULL);
    if (ix < 0)
        return NULL;
    return d_value(d, ix);
}

Obj dict_getitem(Obj d, Obj key)
{
    d = vm_unwrap(d);
    if (simple_key(key)) {
        int64_t ix = d_probe_fast(d, key, container_hash(key));
        if (ix >= 0)
            return d_value(d, ix);
        if (ix == IX_EMPTY)
            return NULL;
    }
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return NULL;
    return dict_getitem_known_hash(d, key, h);
}

/* Exact str key: pointer equality, then str_eq with the cached hash. Only
 * a non-str key with the same hash takes the general path (and *dp is
 * refreshed if Python code ran); errors there are swallowed. */
static int64_t lookup_str(Obj *dp, Obj key)
{
    int64_t h = STR(key)->hash;
    if (h == -1)
        h = str_hash(key);
    int64_t res = d_probe_fast(*dp, key, h);
    if (likely(res != NEED_SLOW))
        return res >= 0 ? res : -1;
    Obj *r = vm_roots(1);
    r[0] = err_fetch();
    res = d_lookup(dp, &key, NULL, h, NULL);
    if (res < 0) {
        err_clear();
        res = -1;
    }
    if (r[0])
        err_set_obj(r[0]);
    vm_unroots(r);
    return res;
}

int64_t dict_lookup_str_index(Obj d, Obj key)
{
    return lookup_str(&d, key);
}

Obj dict_getitem_str(Obj d, Obj key)
{
    int64_t ix = lookup_str(&d, key);
    if (ix < 0)
        return NULL;
    return d_value(d, ix);
}

/* Entry hint of an inline cache (an instance dict's attribute): entry ix
 * when it holds exact-str key (pointer equal) with a value, else -1. Only
 * small tables (one barrier for the entries); never raises. */
static inline int64_t str_entry_hit(Obj d, Obj key, int64_t ix)
{
    VM_READ(d);
    Obj index = DICT(d)->index;
    if (ix < 0 || ix >= DICT(d)->nentries || !index || ix_by_slot(index))
        return -1;
    Obj e = DICT(d)->entries;
    VM_READ(e);
    Obj __seg_gs *p = &ents_nb(e)[3 * ix];
    return p[1] == key && p[2] ? ix : -1;
}

Obj dict_getitem_str_hinted(Obj d, Obj key, int64_t *hint)
{
    int64_t ix = str_entry_hit(d, key, *hint);
    if (ix >= 0)
        return ents_nb(DICT(d)->entries)[3 * ix + 2];
    ix = lookup_str(&d, key);
    if (ix < 0)
        return NULL;
    *hint = ix;
    return d_value(d, ix);
}

bool dict_replace_str_hinted(Obj d, Obj key, int64_t hint, Obj v)
{
    if (str_entry_hit(d, key, hint) < 0)
        return false;
    Obj e = DICT(d)->entries;
    VM_WRITE_ITEM(e, 3 * hint + 2);   /* replacing a value: the version stays */
    ents_nb(e)[3 * hint + 2] = v;
    return true;
}

Obj dict_value_at(Obj d, int64_t ix)
{
    VM_READ(d);
    if (ix < 0 || ix >= DICT(d)->nentries)
        return NULL;
    return ents(d)[3 * ix + 2];
}

Obj dict_getitem_cstr(Obj d, const char *key)
{
    Obj *r = vm_roots(1);
    r[0] = d;
    Obj k = str_from_cstr(key);
    d = r[0];
    vm_unroots(r);
    if (!k)
        return NULL;
    return dict_getitem_str(vm_unwrap(d), k);
}

int dict_setitem(Obj d, Obj key, Obj v)
{
    d = vm_unwrap(d);
    if (simple_key(key)) {
        int64_t h = container_hash(key);
        int64_t ix = d_probe_fast(d, key, h);
        if (ix >= 0) {
            /* replacing a value: the version stays */
            Obj e = DICT(d)->entries;
            VM_WRITE_ITEM(e, 3 * ix + 2);
            ents_nb(e)[3 * ix + 2] = v;   /* the lookup read the entry (its key) */
            return 0;
        }
        return d_insert(&d, &key, &v, h);
    }
    int64_t h = key_hash(&key, &d, &v);
    if (h == -1)
        return -1;
    return d_insert(&d, &key, &v, h);
}

int dict_setitem_known_hash(Obj d, Obj key, Obj v, int64_t hash)
{
    d = vm_unwrap(d);
    return d_insert(&d, &key, &v, hash);
}

int dict_setitem_cstr(Obj d, const char *key, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = d;
    r[1] = v;
    Obj k = str_intern_cstr(key);
    int rc = k ? dict_setitem(r[0], k, r[1]) : -1;
    vm_unroots(r);
    return rc;
}

/* Remove *kp (hash h) from *dp: 1 removed (*out = value), 0 absent, -1 error. */
static int d_pop(Obj *dp, Obj *kp, int64_t h, Obj *out)
{
    uint64_t slot;
    int64_t ix = d_lookup(dp, kp, NULL, h, &slot);
    if (ix == LOOKUP_ERROR)
        return -1;
    if (ix < 0)
        return 0;
    if (out)
        *out = d_value(*dp, ix);
    d_delete_at(*dp, ix, slot);
    return 1;
}

int dict_pop(Obj d, Obj key, Obj *out)
{
    d = vm_unwrap(d);
    if (d_used(d) == 0)
        return 0;   /* CPython does not even hash the key then */
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return -1;
    return d_pop(&d, &key, h, out);
}

int dict_delitem(Obj d, Obj key)
{
    d = vm_unwrap(d);
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return -1;
    int rc = d_pop(&d, &key, h, NULL);
    if (rc == 0)
        err_set_value(E_KeyError, key);
    return rc == 1 ? 0 : -1;
}

int dict_contains(Obj d, Obj key)
{
    d = vm_unwrap(d);
    if (simple_key(key)) {
        int64_t ix = d_probe_fast(d, key, container_hash(key));
        if (ix != NEED_SLOW)
            return ix >= 0;
    }
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return -1;
    int64_t ix = d_lookup(&d, &key, NULL, h, NULL);
    return ix == LOOKUP_ERROR ? -1 : ix >= 0;
}

static Obj dict_setdefault(Obj d, Obj key, Obj dflt)
{
    d = vm_unwrap(d);
    int64_t h = key_hash(&key, &d, &dflt);
    if (h == -1)
        return NULL;
    int64_t ix = d_lookup(&d, &key, &dflt, h, NULL);
    if (ix == LOOKUP_ERROR)
        return NULL;
    if (ix >= 0)
        return d_value(d, ix);
    /* absent: inserted without comparing again, as CPython */
    Obj *r = vm_roots(1);
    r[0] = dflt;
    int rc = d_insert_new(&d, &key, &dflt, h);
    dflt = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : dflt;
}

int64_t dict_len(Obj d)
{
    return d_used(vm_unwrap(d));
}

/* dict_next, also giving the stored hash (63 bits: for this file's tables only). */
static bool dict_next_hash(Obj d, int64_t *pos, Obj *k, Obj *v, int64_t *hash)
{
    d = vm_unwrap(d);
    VM_READ(d);
    int64_t i = *pos, n = d_nentries(d);
    if (i < n)
        VM_READ(DICT(d)->entries);
    if (i < 0)
        i = 0;
    for (; i < n; i++) {
        Obj __seg_gs *e = ents(d) + 3 * i;
        if (e[1]) {
            if (k)
                *k = e[1];
            if (v)
                *v = e[2];
            if (hash)
                *hash = SMALLINT_VAL(e[0]);
            *pos = i + 1;
            return true;
        }
    }
    *pos = i;
    return false;
}

bool dict_next(Obj d, int64_t *pos, Obj *k, Obj *v)
{
    return dict_next_hash(d, pos, k, v, NULL);
}

void dict_clear(Obj d)
{
    d = vm_unwrap(d);
    d_prepare_write(d);
    VM_WRITE(d);
    DICT(d)->entries = NULL;
    DICT(d)->index = NULL;
    DICT(d)->nentries = 0;
    DICT(d)->popped = 0;
    DICT(d)->used = 0;
    DICT(d)->version = next_version();
}

Obj dict_copy(Obj d)
{
    d = vm_unwrap(d);
    Obj *r = vm_roots(3);
    r[0] = d;
    r[1] = dict_new();
    if (!r[1]) {
        vm_unroots(r);
        return NULL;
    }
    d = r[0];
    if (d_used(d)) {
        r[2] = DICT(d)->entries;
        if (d_build(&r[1], size_for(d_used(d)), &r[2], d_nentries(d)) < 0) {
            vm_unroots(r);
            return NULL;
        }
    }
    Obj res = r[1];
    vm_unroots(r);
    return res;
}

/* List of keys / values / (key, value) tuples. which: 0, 1, 2. */
static Obj dict_to_list(Obj d, int which)
{
    d = vm_unwrap(d);
    int64_t n = d_used(d);
    Obj *r = vm_roots(2);
    r[0] = d;
    r[1] = list_new(n);
    if (!r[1]) {
        vm_unroots(r);
        return NULL;
    }
    int64_t pos = 0, j = 0;
    Obj k, v;
    while (j < n && dict_next(r[0], &pos, &k, &v)) {
        Obj item = which == 0 ? k : which == 1 ? v : tuple_pack(2, k, v);
        if (!item) {
            vm_unroots(r);
            return NULL;
        }
        VM_WRITE(LIST(r[1])->array);
        LIST_ITEMS(r[1])[j++] = item;
    }
    Obj res = r[1];
    vm_unroots(r);
    return res;
}

Obj dict_keys_list(Obj d) { return dict_to_list(d, 0); }
Obj dict_items_list(Obj d) { return dict_to_list(d, 2); }

/* ---- merging ---- */

static Obj dict_iter_slot(Obj self);

/* A dict (or subclass instance not overriding iteration): merge its
 * entries directly. */
static bool is_plain_dict_source(Obj other)
{
    if (IS_DICT(other))
        return true;
    if (!IS_DICT(vm_unwrap(other)))
        return false;
    TypeObj *t = TYPE(other);
    if (t->tp_iter == dict_iter_slot)
        return true;
    return vm_lookup_type(t, s_iter) == vm_lookup_type(T_dict, s_iter);
}

/* Insert per the override mode; *kp / *vp rooted by the caller's slots. */
static int merge_one(Obj *dp, Obj *kp, Obj *vp, int64_t hash, int override)
{
    if (override != 1) {
        int64_t ix = d_lookup(dp, kp, vp, hash, NULL);
        if (ix == LOOKUP_ERROR)
            return -1;
        if (ix >= 0) {
            if (override == 2) {
                err_set_value(E_KeyError, *kp);
                return -1;
            }
            return 0;
        }
    }
    return d_insert(dp, kp, vp, hash);
}

static int dict_merge(Obj d, Obj other, int override)
{
    Obj *r = vm_roots(6);
    r[0] = vm_unwrap(d);
    r[1] = other;
    int rc = 0;
    if (is_plain_dict_source(r[1])) {
        r[1] = vm_unwrap(r[1]);
        Obj o = r[1];
        if (o == r[0] || d_used(o) == 0)
            goto done;
        if (d_used(r[0]) == 0 && override != 2) {
            /* into an empty dict: one table build, no lookups */
            r[2] = DICT(o)->entries;
            rc = d_build(&r[0], size_for(d_used(o)), &r[2], d_nentries(o));
            goto done;
        }
        int64_t need = d_used(r[0]) + d_used(o);
        if (d_used(o) > ents_cap(r[0]) - d_nentries(r[0]) - DICT(r[0])->popped &&
            d_resize(&r[0], NULL, NULL, need) < 0) {
            rc = -1;
            goto done;
        }
        r[2] = DICT(r[1])->entries;
        int64_t n = d_nentries(r[1]);
        for (int64_t i = 0; i < n; i++) {
            Obj __seg_gs *e = ARRAY(r[2])->items + 3 * i;
            if (!e[1])
                continue;
            r[3] = e[1];
            r[4] = e[2];
            int64_t h = SMALLINT_VAL(e[0]);
            if (merge_one(&r[0], &r[3], &r[4], h, override) < 0) {
                rc = -1;
                goto done;
            }
            if (DICT(r[1])->entries != r[2] || d_nentries(r[1]) != n) {
                err_set(E_RuntimeError, "dict mutated during update");
                rc = -1;
                goto done;
            }
        }
        goto done;
    }
    /* a mapping: keys() and __getitem__ */
    r[2] = vm_call_method(r[1], "keys", NULL, 0);
    if (!r[2] || !(r[2] = vm_iter(r[2]))) {
        rc = -1;
        goto done;
    }
    for (;;) {
        r[3] = vm_next(r[2]);
        if (!r[3]) {
            if (err_occurred())
                rc = -1;
            break;
        }
        r[4] = vm_getitem(r[1], r[3]);
        if (!r[4]) {
            rc = -1;
            break;
        }
        int64_t h = key_hash(&r[3], &r[0], &r[4]);
        if (h == -1 || merge_one(&r[0], &r[3], &r[4], h, override) < 0) {
            rc = -1;
            break;
        }
    }
done:
    vm_unroots(r);
    return rc;
}

static int dict_merge_pairs(Obj d, Obj iterable)
{
    Obj *r = vm_roots(5);
    r[0] = vm_unwrap(d);
    r[1] = vm_iter(iterable);
    int rc = 0;
    if (!r[1]) {
        vm_unroots(r);
        return -1;
    }
    for (int64_t i = 0;; i++) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            if (err_occurred())
                rc = -1;
            break;
        }
        Obj item = vm_unwrap(r[2]);
        if (!IS_TUPLE(item) && !IS_LIST(item)) {
            Obj it = vm_iter(r[2]);
            if (!it) {
                if (err_matches(E_TypeError)) {
                    err_clear();
                    err_format(E_TypeError, "cannot convert dictionary update sequence element #%ld to a sequence",
                               (long)i);
                }
                rc = -1;
                break;
            }
            item = list_from_iterable(it);
            if (!item) {
                rc = -1;
                break;
            }
        }
        r[2] = item;
        int64_t n = IS_TUPLE(item) ? TUPLE_LEN(item) : LIST_LEN(item);
        if (n != 2) {
            err_format(E_ValueError, "dictionary update sequence element #%ld has length %ld; 2 is required",
                       (long)i, (long)n);
            rc = -1;
            break;
        }
        r[3] = IS_TUPLE(item) ? TUPLE_ITEMS(item)[0] : LIST_ITEMS(item)[0];
        r[4] = IS_TUPLE(item) ? TUPLE_ITEMS(item)[1] : LIST_ITEMS(item)[1];
        int64_t h = key_hash(&r[3], &r[0], &r[4]);
        if (h == -1 || d_insert(&r[0], &r[3], &r[4], h) < 0) {
            rc = -1;
            break;
        }
    }
    vm_unroots(r);
    return rc;
}

/* dict.update(arg) for one positional argument. */
int dict_update(Obj d, Obj other)
{
    if (is_plain_dict_source(other))
        return dict_merge(d, other, 1);
    Obj *r = vm_roots(2);
    r[0] = d;
    r[1] = other;
    int has = vm_hasattr(other, s_keys);
    int rc = has < 0 ? -1 : has ? dict_merge(r[0], r[1], 1) : dict_merge_pairs(r[0], r[1]);
    vm_unroots(r);
    return rc;
}

/* ---- slots ---- */

static Obj dict_repr(Obj self)
{
    Obj d = vm_unwrap(self);
    if (d_used(d) == 0)
        return str_from_cstr("{}");
    Obj *r = vm_roots(2);
    r[0] = d;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        vm_unroots(r);
        return rc > 0 ? str_from_cstr("{...}") : NULL;
    }
    StrBuf b;
    sb_init(&b);
    sb_addc(&b, '{');
    int64_t pos = 0;
    Obj k, v;
    bool first = true;
    while (dict_next(r[0], &pos, &k, &v)) {
        if (!first)
            sb_add(&b, ", ", 2);
        first = false;
        r[1] = v;
        Obj s = vm_repr(k);
        if (s) {
            sb_add_str(&b, s);
            sb_add(&b, ": ", 2);
            s = vm_repr(r[1]);
        }
        if (!s) {
            sb_free(&b);
            repr_leave();
            vm_unroots(r);
            return NULL;
        }
        sb_add_str(&b, s);
    }
    sb_addc(&b, '}');
    repr_leave();
    vm_unroots(r);
    return sb_finish(&b);
}

/* a == b for two dicts: 1, 0, -1. */
static int dict_equal(Obj a, Obj b)
{
    if (d_used(a) != d_used(b))
        return 0;
    Obj *r = vm_roots(4);
    r[0] = a;
    r[1] = b;
    int res = 1;
    for (int64_t i = 0; i < d_nentries(r[0]); i++) {
        Obj __seg_gs *e = ents(r[0]) + 3 * i;
        if (!e[1])
            continue;
        r[2] = e[1];
        r[3] = e[2];
        int64_t h = SMALLINT_VAL(e[0]);
        Obj bd = r[1];
        Obj key = r[2];
        int64_t ix = d_lookup(&bd, &key, NULL, h, NULL);
        if (ix == LOOKUP_ERROR) {
            res = -1;
            break;
        }
        if (ix < 0) {
            res = 0;
            break;
        }
        Obj bval = ents(bd)[3 * ix + 2];
        int eq = container_fast_eq(r[3], bval);
        if (eq == -2)
            eq = vm_richcompare_bool(r[3], bval, CMP_EQ);
        if (eq <= 0) {
            res = eq;
            break;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj dict_richcompare(Obj a, Obj b, int op)
{
    a = vm_unwrap(a);
    b = vm_unwrap(b);
    if (!IS_DICT(a) || !IS_DICT(b) || (op != CMP_EQ && op != CMP_NE))
        return g_NotImplemented;
    if (vm_enter_recursive(" in comparison") < 0)
        return NULL;
    int eq = dict_equal(a, b);
    vm_leave_recursive();
    if (eq < 0)
        return NULL;
    return vm_bool(op == CMP_EQ ? eq : !eq);
}

static int64_t dict_len_slot(Obj self)
{
    return d_used(vm_unwrap(self));
}

static int dict_bool_slot(Obj self)
{
    return d_used(vm_unwrap(self)) != 0;
}

static Obj dict_subscript(Obj self, Obj key)
{
    Obj d = vm_unwrap(self);
    if (simple_key(key) && d == self) {
        int64_t h = container_hash(key);
        int64_t ix = d_probe_fast(d, key, h);
        if (ix >= 0)
            return d_value(d, ix);
        /* d_lookup refreshes d and key if a colliding key's __eq__ ran */
        if (ix == NEED_SLOW)
            ix = d_lookup(&d, &key, NULL, h, NULL);
        if (ix >= 0)
            return d_value(d, ix);
        if (ix == IX_EMPTY)
            err_set_value(E_KeyError, key);
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = key;
    Obj v = dict_getitem(d, key);
    if (!v && !err_occurred()) {
        /* an instance of a dict subclass: __missing__ */
        Obj m = r[0] != vm_unwrap(r[0]) ? vm_lookup_special(r[0], "__missing__") : NULL;
        if (m)
            v = vm_call2(m, r[0], r[1]);
        else
            err_set_value(E_KeyError, r[1]);
    }
    vm_unroots(r);
    return v;
}

static int dict_ass_sub(Obj self, Obj key, Obj v)
{
    Obj d = vm_unwrap(self);
    return v ? dict_setitem(d, key, v) : dict_delitem(d, key);
}

static int dict_contains_slot(Obj self, Obj key)
{
    return dict_contains(vm_unwrap(self), key);
}

static int64_t dict_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj dict_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return container_wrap_for_type(T_dict, type, dict_new());
}

/* dict(arg, **kw) / d.update(arg, **kw): args[0..nargs) positional, the
 * keyword values after them. */
static int dict_update_common(Obj d, Obj *args, size_t nargs, Obj kwnames, const char *fname)
{
    if (nargs > 1) {
        err_format(E_TypeError, "%s expected at most 1 argument, got %zu", fname, nargs);
        return -1;
    }
    Obj *r = vm_roots(2);
    r[0] = d;
    r[1] = kwnames;   /* may move while the update allocates */
    if (nargs == 1 && dict_update(r[0], args[0]) < 0) {
        vm_unroots(r);
        return -1;
    }
    int64_t nkw = r[1] ? TUPLE_LEN(r[1]) : 0;
    for (int64_t k = 0; k < nkw; k++) {
        if (dict_setitem(r[0], TUPLE_ITEMS(r[1])[k], args[nargs + k]) < 0) {
            vm_unroots(r);
            return -1;
        }
    }
    vm_unroots(r);
    return 0;
}

static int dict_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    return dict_update_common(vm_unwrap(self), args, nargs, kwnames, "dict");
}

static Obj dict_or(Obj a, Obj b)
{
    Obj ua = vm_unwrap(a), ub = vm_unwrap(b);
    if (!IS_DICT(ua) || !IS_DICT(ub))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = dict_copy(ua);
    Obj res = NULL;
    if (r[0] && dict_update(r[0], r[1]) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static Obj dict_ior(Obj a, Obj b)
{
    Obj ua = vm_unwrap(a);
    if (!IS_DICT(ua))
        return g_NotImplemented;
    Obj *r = vm_roots(1);
    r[0] = a;
    int rc = dict_update(ua, b);
    a = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : a;
}

/* ---- iterators ---- */

static Obj dictiter_new(Obj d, int kind)
{
    TypeObj *t;
    switch (kind) {
    case ITK_DICT_KEYS: t = T_dict_keyiterator; break;
    case ITK_DICT_VALUES: t = T_dict_valueiterator; break;
    case ITK_DICT_ITEMS: t = T_dict_itemiterator; break;
    case ITK_DICT_REV_KEYS: t = T_dict_reversekeyiterator; break;
    case ITK_DICT_REV_VALUES: t = T_dict_reversevalueiterator; break;
    default: t = T_dict_reverseitemiterator; break;
    }
    Obj it = iter_alloc(t, vm_unwrap(d), kind);
    if (!it)
        return NULL;
    d = ITER(it)->a;
    ITER(it)->n = d_used(d);
    ITER(it)->c = MAKE_SMALLINT(d_used(d));
    ITER(it)->i = kind >= ITK_DICT_REV_KEYS ? d_nentries(d) - 1 : 0;
    return it;
}

static Obj dictiter_next(Obj it)
{
    IterObj *io = ITER(it);   /* one barrier each for it, d and the entries: nothing below moves them */
    Obj d = io->a;
    if (!d)
        return NULL;
    d_flush_own(d);
    int64_t appended = d_appended(d);
    DictObj *dd = DICT(d);
    if (io->n != dd->used + appended) {
        err_set(E_RuntimeError, "dictionary changed size during iteration");
        VM_WRITE(it);
        io->n = -1;   /* sticky */
        return NULL;
    }
    int64_t kind = io->kind;
    int64_t i = io->i, n = dd->nentries + appended, next;
    Obj k = NULL, v = NULL;
    Obj __seg_gs *es = n ? ARRAY(dd->entries)->items : NULL;
    if (kind < ITK_DICT_REV_KEYS) {
        for (; i < n; i++)
            if ((k = es[3 * i + 1]))
                break;
        if (i >= n)
            goto exhausted;
        next = i + 1;
    } else {
        if (i >= n)
            i = n - 1;
        for (; i >= 0; i--)
            if ((k = es[3 * i + 1]))
                break;
        if (i < 0)
            goto exhausted;
        next = i - 1;
    }
    v = es[3 * i + 2];
    int64_t left = SMALLINT_VAL(io->c);
    VM_WRITE(it);
    if (left <= 0) {
        err_set(E_RuntimeError, "dictionary keys changed during iteration");
        io->a = NULL;
        return NULL;
    }
    io->i = next;
    io->c = MAKE_SMALLINT(left - 1);
    switch (kind) {
    case ITK_DICT_KEYS: case ITK_DICT_REV_KEYS:
        return k;
    case ITK_DICT_VALUES: case ITK_DICT_REV_VALUES:
        return v;
    default:
        return tuple_pack(2, k, v);
    }
exhausted:
    VM_WRITE(it);
    ITER(it)->a = NULL;
    return NULL;
}

static Obj dict_iter_slot(Obj self)
{
    return dictiter_new(self, ITK_DICT_KEYS);
}

/* ---- methods ---- */

static Obj dict_keys_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_keys_view(args[0]);
}

static Obj dict_values_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_values_view(args[0]);
}

static Obj dict_items_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_items_view(args[0]);
}

static Obj dict_get_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = dict_getitem(vm_unwrap(args[0]), args[1]);
    if (v)
        return v;
    if (err_occurred())
        return NULL;
    return nargs > 2 ? args[2] : g_None;
}

static Obj dict_setdefault_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_setdefault(vm_unwrap(args[0]), args[1], nargs > 2 ? args[2] : g_None);
}

static Obj dict_pop_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v;
    int rc = dict_pop(vm_unwrap(args[0]), args[1], &v);
    if (rc < 0)
        return NULL;
    if (rc)
        return v;
    if (nargs > 2)
        return args[2];
    err_set_value(E_KeyError, args[1]);
    return NULL;
}

/* The index slot that holds entry ix. */
static uint64_t slot_of_entry(Obj d, int64_t ix)
{
    Obj index = DICT(d)->index;
    Obj tag = ents(d)[3 * ix];
    uint64_t mask = ix_size(index) - 1, perturb = probe_seed(tag), j = perturb & mask;
    while (ix_slots(index)[j] != ix) {
        perturb >>= PERTURB_SHIFT;
        j = (j * 5 + perturb + 1) & mask;
    }
    return j;
}

/* popitem from the end or the front; a front scan starts at *hint while
 * *tokenp (a root slot) is the entries array the hint was left for (entries
 * are deleted in place and added only at the tail, so below the first live
 * one nothing comes back), and leaves both for the next call. */
static Obj d_popitem(Obj d, bool last, Obj *tokenp, int64_t *hint)
{
    d = vm_unwrap(d);
    if (d_used(d) == 0)
        return NULL;
    int64_t n = d_nentries(d), i;
    if (last)
        for (i = n - 1; !ents(d)[3 * i + 1]; i--)
            ;
    else
        for (i = tokenp && *tokenp == DICT(d)->entries && *hint <= n ? *hint : 0; !ents(d)[3 * i + 1]; i++)
            ;
    if (tokenp) {
        *tokenp = DICT(d)->entries;
        *hint = i + 1;
    }
    Obj *r = vm_roots(1);
    r[0] = d;
    Obj t = tuple_pack(2, ents(d)[3 * i + 1], ents(d)[3 * i + 2]);
    d = r[0];
    vm_unroots(r);
    if (!t)
        return NULL;
    d_delete_at(d, i, slot_of_entry(d, i));
    if (last) {   /* the tail is free again; its slot stays a DUMMY */
        DICT(d)->nentries = i;
        DICT(d)->popped++;
    }
    return t;
}

Obj dict_popitem_end(Obj d, bool last)
{
    return d_popitem(d, last, NULL, NULL);
}

Obj dict_popitem_first_hinted(Obj d, Obj *tokenp, int64_t *hint)
{
    return d_popitem(d, false, tokenp, hint);
}

static Obj dict_popitem_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (d_used(vm_unwrap(args[0])) == 0) {
        err_set(E_KeyError, "popitem(): dictionary is empty");
        return NULL;
    }
    return dict_popitem_end(args[0], true);
}

/* h: key's hash, or -1 to compute it here. With `found` (a root slot): a
 * missing key is no error (*found stays NULL), a present one's value is put
 * there. */
static int d_move_to_end(Obj d, Obj key, int64_t h, bool last, Obj *found)
{
    d = vm_unwrap(d);
    if (d_used(d) == 0) {
        if (found)
            return 0;
        err_set_value(E_KeyError, key);
        return -1;
    }
    Obj *r = vm_roots(4);
    r[0] = d;
    r[1] = key;
    int rc = -1;
    if (h == -1)
        h = key_hash(&r[1], &r[0], NULL);
    if (h == -1)
        goto out;
    uint64_t slot;
    int64_t ix = d_lookup(&r[0], &r[1], NULL, h, &slot);
    if (ix == LOOKUP_ERROR)
        goto out;
    if (ix < 0) {
        if (found)
            rc = 0;
        else
            err_set_value(E_KeyError, r[1]);
        goto out;
    }
    d = r[0];
    if (found)
        *found = ents(d)[3 * ix + 2];
    int64_t n = d_nentries(d);
    if (last) {
        int64_t j = n - 1;
        while (!ents(d)[3 * j + 1])
            j--;
        if (j != ix) {
            /* Out of the middle, onto the end: the key is known absent then. */
            r[1] = ents(d)[3 * ix + 1];
            r[2] = ents(d)[3 * ix + 2];
            d_delete_at(d, ix, slot);
            if (d_insert_new(&r[0], &r[1], &r[2], h) < 0)
                goto out;
        }
        rc = 0;
        goto out;
    }
    int64_t first = 0;
    while (!ents(d)[3 * first + 1])
        first++;
    if (first == ix) {
        rc = 0;
        goto out;
    }
    /* To the front: rebuild the table from a copy of the entries with this
     * one first (stored hashes: no key's __hash__ or __eq__ runs). */
    int64_t used = d_used(d);
    r[3] = array_new(3 * used);
    if (!r[3])
        goto out;
    d = r[0];
    Obj __seg_gs *from = ents(d);
    Obj __seg_gs *to = ARRAY(r[3])->items;
    for (int w = 0; w < 3; w++)
        to[w] = from[3 * ix + w];
    int64_t m = 1;
    for (int64_t i = 0; i < n; i++) {
        if (i == ix || !from[3 * i + 1])
            continue;
        for (int w = 0; w < 3; w++)
            to[3 * m + w] = from[3 * i + w];
        m++;
    }
    rc = d_build(&r[0], size_for(used), &r[3], m);
out:
    vm_unroots(r);
    return rc;
}

int dict_move_to_end(Obj d, Obj key, bool last)
{
    return d_move_to_end(d, key, -1, last, NULL);
}

Obj dict_get_move_to_end_known_hash(Obj d, Obj key, int64_t hash)
{
    Obj *r = vm_roots(1);
    Obj v = d_move_to_end(d, key, hash, true, &r[0]) < 0 ? NULL : r[0];
    vm_unroots(r);
    return v;
}

static Obj dict_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (dict_update_common(vm_unwrap(args[0]), args + 1, nargs - 1, kwnames, "update") < 0)
        return NULL;
    return g_None;
}

static Obj dict_fromkeys_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    r[1] = nargs > 2 ? args[2] : g_None;
    r[0] = (TypeObj *)args[0] == T_dict ? dict_new() : vm_call0(args[0]);
    Obj res = NULL;
    if (!r[0])
        goto out;
    r[2] = vm_iter(args[1]);
    if (!r[2])
        goto out;
    bool exact = IS_DICT(r[0]);
    for (;;) {
        r[3] = vm_next(r[2]);
        if (!r[3]) {
            if (!err_occurred())
                res = r[0];
            break;
        }
        if ((exact ? dict_setitem(r[0], r[3], r[1]) : vm_setitem(r[0], r[3], r[1])) < 0)
            break;
    }
out:
    vm_unroots(r);
    return res;
}

static Obj dict_copy_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dict_copy(args[0]);
}

static Obj dict_clear_m(Obj *args, size_t nargs, Obj kwnames)
{
    dict_clear(args[0]);
    return g_None;
}

static Obj dict_reversed_m(Obj *args, size_t nargs, Obj kwnames)
{
    return dictiter_new(args[0], ITK_DICT_REV_KEYS);
}

static const MethodDef dict_methods[] = {
    {"keys", dict_keys_m, METH_NOARGS, "D.keys() -> a set-like object providing a view on D's keys"},
    {"values", dict_values_m, METH_NOARGS, "D.values() -> an object providing a view on D's values"},
    {"items", dict_items_m, METH_NOARGS, "D.items() -> a set-like object providing a view on D's items"},
    {"get", dict_get_m, METH_ARGS(1, 2), "Return the value for key if key is in the dictionary, else default."},
    {"setdefault", dict_setdefault_m, METH_ARGS(1, 2), "Insert key with a value of default if key is not in the dictionary."},
    {"pop", dict_pop_m, METH_ARGS(1, 2), "D.pop(k[,d]) -> v, remove specified key and return the corresponding value."},
    {"popitem", dict_popitem_m, METH_NOARGS, "Remove and return a (key, value) pair as a 2-tuple."},
    {"update", dict_update_m, METH_KW, "D.update([E, ]**F) -> None.  Update D from dict/iterable E and F."},
    {"fromkeys", dict_fromkeys_m, METH_CLASS | METH_ARGS(1, 2), "Create a new dictionary with keys from iterable and values set to value."},
    {"copy", dict_copy_m, METH_NOARGS, "D.copy() -> a shallow copy of D"},
    {"clear", dict_clear_m, METH_NOARGS, "D.clear() -> None.  Remove all items from D."},
    {"__reversed__", dict_reversed_m, METH_NOARGS, "Return a reverse iterator over the dict keys."},
    {NULL, NULL, 0, NULL},
};

/* ---- views: dict_keys, dict_values, dict_items ---- */

static Obj dict_keys_view(Obj d)
{
    return iter_alloc(T_dict_keys, vm_unwrap(d), ITK_VIEW_KEYS);
}
static Obj dict_values_view(Obj d)
{
    return iter_alloc(T_dict_values, vm_unwrap(d), ITK_VIEW_VALUES);
}
static Obj dict_items_view(Obj d)
{
    return iter_alloc(T_dict_items, vm_unwrap(d), ITK_VIEW_ITEMS);
}

static inline bool is_setlike_view(Obj v)
{
    if (TID(v) != TID_ITER)
        return false;
    int64_t k = ITER(v)->kind;
    return k == ITK_VIEW_KEYS || k == ITK_VIEW_ITEMS;
}

static int64_t view_len(Obj self)
{
    return d_used(ITER(self)->a);
}

static Obj view_iter(Obj self)
{
    int64_t k = ITER(self)->kind;
    return dictiter_new(ITER(self)->a, k == ITK_VIEW_KEYS ? ITK_DICT_KEYS
                                       : k == ITK_VIEW_VALUES ? ITK_DICT_VALUES : ITK_DICT_ITEMS);
}

static Obj view_reversed_m(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t k = ITER(args[0])->kind;
    return dictiter_new(ITER(args[0])->a, k == ITK_VIEW_KEYS ? ITK_DICT_REV_KEYS
                                          : k == ITK_VIEW_VALUES ? ITK_DICT_REV_VALUES : ITK_DICT_REV_ITEMS);
}

static int keys_contains(Obj self, Obj key)
{
    return dict_contains(ITER(self)->a, key);
}

static int items_contains(Obj self, Obj item)
{
    Obj t = vm_unwrap(item);
    if (!IS_TUPLE(t) || TUPLE_LEN(t) != 2)
        return 0;
    Obj *r = vm_roots(1);
    r[0] = t;
    Obj found = dict_getitem(ITER(self)->a, TUPLE_ITEMS(t)[0]);
    int rc;
    if (!found)
        rc = err_occurred() ? -1 : 0;
    else
        rc = vm_richcompare_bool(found, TUPLE_ITEMS(r[0])[1], CMP_EQ);
    vm_unroots(r);
    return rc;
}

static Obj view_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        vm_unroots(r);
        return rc > 0 ? str_from_cstr("...") : NULL;
    }
    Obj res = NULL;
    Obj l = list_from_iterable(r[0]);
    Obj s = l ? vm_repr(l) : NULL;
    if (s)
        res = str_from_format("%s(%s)", type_name(r[0]), str_cstr(s));
    repr_leave();
    vm_unroots(r);
    return res;
}

/* Every item of a is in b: 1, 0, -1. */
static int all_contained_in(Obj a, Obj b)
{
    Obj *r = vm_roots(3);
    r[1] = b;
    r[0] = vm_iter(a);
    int res = r[0] ? 1 : -1;
    while (res == 1) {
        r[2] = vm_next(r[0]);
        if (!r[2]) {
            if (err_occurred())
                res = -1;
            break;
        }
        res = vm_contains(r[1], r[2]);
    }
    vm_unroots(r);
    return res;
}

static Obj view_richcompare(Obj self, Obj other, int op)
{
    if (!IS_SET_ANY(vm_unwrap(other)) && !is_setlike_view(other))
        return g_NotImplemented;
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = other;
    int64_t ls = vm_len(self);
    int64_t lo = ls < 0 ? -1 : vm_len(r[1]);
    Obj res = NULL;
    if (ls < 0 || lo < 0)
        goto out;
    int ok = 0;
    switch (op) {
    case CMP_EQ: case CMP_NE:
        if (ls == lo)
            ok = all_contained_in(r[0], r[1]);
        if (op == CMP_NE && ok >= 0)
            ok = !ok;
        break;
    case CMP_LT:
        if (ls < lo)
            ok = all_contained_in(r[0], r[1]);
        break;
    case CMP_LE:
        if (ls <= lo)
            ok = all_contained_in(r[0], r[1]);
        break;
    case CMP_GT:
        if (ls > lo)
            ok = all_contained_in(r[1], r[0]);
        break;
    default:
        if (ls >= lo)
            ok = all_contained_in(r[1], r[0]);
        break;
    }
    if (ok >= 0)
        res = vm_bool(ok);
out:
    vm_unroots(r);
    return res;
}

/* set(view): a keys view builds from the dict itself. */
static Obj view_to_set(Obj v)
{
    if (TID(v) == TID_ITER && ITER(v)->kind == ITK_VIEW_KEYS)
        return set_new(ITER(v)->a);
    return set_new(v);
}

static Obj view_sub(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = view_to_set(a);
    Obj res = r[0] && set_difference_update(r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}

static Obj view_or(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = view_to_set(a);
    Obj res = r[0] && set_update(r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}

static Obj view_and(Obj a, Obj b)
{
    /* the view is `self` wherever it is */
    if (!is_setlike_view(a)) {
        Obj t = a;
        a = b;
        b = t;
    }
    Obj *r = vm_roots(4);
    r[0] = a;
    r[1] = b;
    Obj res = NULL;
    int64_t la = d_used(ITER(a)->a);
    if (TID(b) == TID_SET && !SETOBJ(b)->frozen) {
        int64_t lb = set_len(b);
        if (la <= lb) {
            res = set_intersection_iter(r[1], r[0]);
            goto out;
        }
    }
    if (is_setlike_view(b) && d_used(ITER(b)->a) > la) {
        r[0] = b;
        r[1] = a;
    }
    r[2] = set_new(NULL);
    if (!r[2])
        goto out;
    r[3] = vm_iter(r[1]);
    if (!r[3])
        goto out;
    bool keys = ITER(r[0])->kind == ITK_VIEW_KEYS;
    for (;;) {
        Obj *q = vm_roots(1);
        q[0] = vm_next(r[3]);
        if (!q[0]) {
            vm_unroots(q);
            if (!err_occurred())
                res = r[2];
            break;
        }
        int in = keys ? keys_contains(r[0], q[0]) : items_contains(r[0], q[0]);
        if (in < 0 || (in && set_add(r[2], q[0]) < 0)) {
            vm_unroots(q);
            break;
        }
        vm_unroots(q);
    }
out:
    vm_unroots(r);
    return res;
}

/* d1.items() ^ d2.items(): CPython's order (pairs of d2 not equal in d1,
 * then what is left of d1). */
static Obj items_xor(Obj a, Obj b)
{
    Obj *r = vm_roots(6);
    r[1] = ITER(b)->a;
    r[0] = dict_copy(ITER(a)->a);
    Obj res = NULL;
    if (!r[0] || !(r[2] = set_new(NULL)))
        goto out;
    for (int64_t i = 0; i < d_nentries(r[1]); i++) {
        Obj __seg_gs *e = ents(r[1]) + 3 * i;
        if (!e[1])
            continue;
        r[3] = e[1];
        r[4] = e[2];
        int64_t h = SMALLINT_VAL(e[0]);
        Obj v1 = dict_getitem_known_hash(r[0], r[3], h);
        int del = 0;
        if (!v1) {
            if (err_occurred())
                goto out;
        } else {
            del = vm_richcompare_bool(v1, r[4], CMP_EQ);
            if (del < 0)
                goto out;
        }
        if (del) {
            Obj d = r[0], k = r[3];
            if (d_pop(&d, &k, h, NULL) < 0)
                goto out;
        } else {
            r[5] = tuple_pack(2, r[3], r[4]);
            if (!r[5] || set_add(r[2], r[5]) < 0)
                goto out;
        }
    }
    r[3] = dict_items_view(r[0]);
    if (r[3] && set_update(r[2], r[3]) == 0)
        res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj view_xor(Obj a, Obj b)
{
    if (TID(a) == TID_ITER && ITER(a)->kind == ITK_VIEW_ITEMS && TID(b) == TID_ITER &&
        ITER(b)->kind == ITK_VIEW_ITEMS)
        return items_xor(a, b);
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = view_to_set(a);
    Obj res = r[0] && set_symmetric_difference_update(r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}

static Obj view_isdisjoint_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    r[0] = args[0];
    r[1] = args[1];
    Obj res = NULL;
    if (r[0] == r[1]) {
        res = vm_bool(view_len(r[0]) == 0);
        goto out;
    }
    if (IS_SET_ANY(vm_unwrap(r[1])) || is_setlike_view(r[1])) {
        int64_t lo = vm_len(r[1]);
        if (lo < 0)
            goto out;
        if (lo > view_len(r[0])) {
            Obj t = r[0];
            r[0] = r[1];
            r[1] = t;
        }
    }
    r[2] = vm_iter(r[1]);
    if (!r[2])
        goto out;
    for (;;) {
        Obj *q = vm_roots(1);
        q[0] = vm_next(r[2]);
        if (!q[0]) {
            vm_unroots(q);
            if (!err_occurred())
                res = g_True;
            break;
        }
        int in = vm_contains(r[0], q[0]);
        vm_unroots(q);
        if (in < 0)
            break;
        if (in) {
            res = g_False;
            break;
        }
    }
out:
    vm_unroots(r);
    return res;
}

static const MethodDef setview_methods[] = {
    {"isdisjoint", view_isdisjoint_m, METH_O, "Return True if the view and the given iterable have a null intersection."},
    {"__reversed__", view_reversed_m, METH_NOARGS, "Return a reverse iterator over the dict keys."},
    {NULL, NULL, 0, NULL},
};
static const MethodDef valuesview_methods[] = {
    {"__reversed__", view_reversed_m, METH_NOARGS, "Return a reverse iterator over the dict values."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_view_type(const char *name, bool setlike, objobjproc contains)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    t->tp_len = view_len;
    t->tp_iter = view_iter;
    t->tp_repr = view_repr;
    t->tp_contains = contains;
    if (setlike) {
        t->tp_richcompare = view_richcompare;
        t->nb[NB_SUB] = view_sub;
        t->nb[NB_AND] = view_and;
        t->nb[NB_OR] = view_or;
        t->nb[NB_XOR] = view_xor;
        type_add_methods(t, setview_methods);
    } else {
        type_add_methods(t, valuesview_methods);
    }
    type_ready(t);
    return t;
}

void dict_init_type(void)
{
    s_keys = str_intern_cstr("keys");
    VM_GLOBAL_ROOT(s_keys);
    s_iter = str_intern_cstr("__iter__");
    VM_GLOBAL_ROOT(s_iter);
#if TM_STM
    tm_set_commit_hooks(appends_before_commit, appends_merge);
    list_appends_init();
    set_log_init();
    const char *e = getenv("TMPY_TEST_DICT_IGNORE_PENDING");
    ignore_pending = e && *e == '1';
#endif
    T_dict = (TypeObj *)type_new_builtin("dict", T_object, TID_DICT, TPF_BASETYPE | TPF_MAPPING | TPF_MATCH_SELF);
    TypeObj *t = T_dict;
    t->tp_repr = dict_repr;
    t->tp_hash = dict_unhashable;
    t->tp_richcompare = dict_richcompare;
    t->tp_len = dict_len_slot;
    t->tp_bool = dict_bool_slot;
    t->tp_getitem = dict_subscript;
    t->tp_setitem = dict_ass_sub;
    t->tp_contains = dict_contains_slot;
    t->tp_iter = dict_iter_slot;
    t->tp_new = dict_tp_new;
    t->tp_init = dict_tp_init;
    t->nb[NB_OR] = dict_or;
    t->nb_inplace[NB_OR] = dict_ior;
    type_add_methods(t, dict_methods);
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);

    T_dict_keys = make_view_type("dict_keys", true, keys_contains);
    T_dict_values = make_view_type("dict_values", false, NULL);
    T_dict_items = make_view_type("dict_items", true, items_contains);
    T_dict_keyiterator = iter_make_type("dict_keyiterator", dictiter_next, true);
    T_dict_valueiterator = iter_make_type("dict_valueiterator", dictiter_next, true);
    T_dict_itemiterator = iter_make_type("dict_itemiterator", dictiter_next, true);
    T_dict_reversekeyiterator = iter_make_type("dict_reversekeyiterator", dictiter_next, true);
    T_dict_reversevalueiterator = iter_make_type("dict_reversevalueiterator", dictiter_next, true);
    T_dict_reverseitemiterator = iter_make_type("dict_reverseitemiterator", dictiter_next, true);
}
