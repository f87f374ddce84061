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
 * Both are NULL in an empty dict that never had a key (no allocation).
 *
 * STM note: the entries are kept apart from the index on purpose. A later
 * STM build wants updates of unrelated keys not to conflict: the entry
 * array can then become groups of entries in separate objects (overwriting
 * an existing key writes only its group; a lookup reads the index and one
 * group) without touching the probing code.
 *
 * DictObj.version (tmpy.h contract): a fresh value from one global counter
 * whenever a key is added or removed or the table is rebuilt, never when an
 * existing key's value is replaced; dict_lookup_str_index / dict_value_at
 * give entry indices the eval loop caches against it.
 *
 * Keys are hashed and compared with vm_hash / vm_equal, except exact str and
 * small int keys, which never run Python code. A user __eq__ may mutate the
 * dict during a lookup: the lookup then restarts (as CPython's does). */
#include "containers.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_dict, *T_dict_keys, *T_dict_values, *T_dict_items, *T_dict_keyiterator,
    *T_dict_valueiterator, *T_dict_itemiterator, *T_dict_reversekeyiterator,
    *T_dict_reversevalueiterator, *T_dict_reverseitemiterator;

enum { IX_EMPTY = -1, IX_DUMMY = -2, LOOKUP_ERROR = -3 };
#define MINSIZE 8
#define PERTURB_SHIFT 5

static uint64_t version_counter;

static inline uint64_t next_version(void)
{
    return __atomic_add_fetch(&version_counter, 1, __ATOMIC_RELAXED);
}

static Obj s_keys;   /* interned "keys" */

static inline int32_t __seg_gs *ix_slots(Obj index)
{
    return (int32_t __seg_gs *)RAW(index)->data;
}
static inline uint64_t ix_size(Obj index)
{
    return (uint64_t)RAW(index)->length / 4;
}
static inline Obj __seg_gs *ents(Obj d)
{
    return ARRAY(DICT(d)->entries)->items;
}
static inline int64_t ents_cap(Obj d)
{
    return DICT(d)->entries ? ARRAY(DICT(d)->entries)->length / 3 : 0;
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
    while (slots[i] >= 0) {
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
    Obj index = raw_new(size * 4);
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
    DICT(d)->used = n;
    DICT(d)->version = next_version();
    return 0;
}

/* Rebuild *dp with room for at least `need` entries. kp/vp: other values
 * the caller holds (refreshed), may be NULL. */
static int d_resize(Obj *dp, Obj *kp, Obj *vp, int64_t need)
{
    Obj *r = vm_roots(4);
    r[0] = *dp;
    r[1] = kp ? *kp : NULL;
    r[2] = vp ? *vp : NULL;
    r[3] = DICT(*dp)->entries;
    int rc = d_build(&r[0], size_for(need), &r[3], DICT(*dp)->nentries);
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
    Obj key = *kp;
    Obj tag = MAKE_SMALLINT(hash);
    uint64_t mask = ix_size(index) - 1;
    uint64_t perturb = probe_seed(tag);
    uint64_t i = perturb & mask;
    for (;;) {
        int32_t ix = ix_slots(index)[i];
        if (ix == IX_EMPTY)
            return IX_EMPTY;
        if (ix >= 0) {
            Obj __seg_gs *e = ents(d) + 3 * ix;
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
                }
                if (eq) {
                found:
                    if (slotp)
                        *slotp = i;
                    return ix;
                }
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
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

static int d_insert(Obj *dp, Obj *kp, Obj *vp, int64_t hash)
{
    int64_t ix = d_lookup(dp, kp, vp, hash, NULL);
    if (ix == LOOKUP_ERROR)
        return -1;
    Obj d = *dp;
    if (ix >= 0) {
        Obj e = DICT(d)->entries;
        VM_WRITE(e);
        ARRAY(e)->items[3 * ix + 2] = *vp;
        return 0;
    }
    if (DICT(d)->nentries >= ents_cap(d)) {
        int64_t used = DICT(d)->used;
        if (d_resize(dp, kp, vp, used + (used >> 1) + 1) < 0)
            return -1;
        d = *dp;
    }
    Obj tag = MAKE_SMALLINT(hash);
    Obj index = DICT(d)->index;
    uint64_t i = find_empty_slot(index, tag);
    int64_t n = DICT(d)->nentries;
    VM_WRITE(index);
    ix_slots(index)[i] = (int32_t)n;
    Obj e = DICT(d)->entries;
    VM_WRITE(e);
    ARRAY(e)->items[3 * n] = tag;
    ARRAY(e)->items[3 * n + 1] = *kp;
    ARRAY(e)->items[3 * n + 2] = *vp;
    VM_WRITE(d);
    DICT(d)->nentries = n + 1;
    DICT(d)->used++;
    DICT(d)->version = next_version();
    return 0;
}

static void d_delete_at(Obj d, int64_t ix, uint64_t slot)
{
    Obj index = DICT(d)->index;
    VM_WRITE(index);
    ix_slots(index)[slot] = IX_DUMMY;
    Obj e = DICT(d)->entries;
    VM_WRITE(e);
    ARRAY(e)->items[3 * ix] = NULL;
    ARRAY(e)->items[3 * ix + 1] = NULL;
    ARRAY(e)->items[3 * ix + 2] = NULL;
    VM_WRITE(d);
    DICT(d)->used--;
    DICT(d)->version = next_version();
}

/* ---- the public API ---- */

Obj dict_getitem_hash(Obj d, Obj key, int64_t hash)
{
    d = vm_unwrap(d);
    int64_t ix = d_lookup(&d, &key, NULL, hash, NULL);
    if (ix < 0)
        return NULL;
    return ents(d)[3 * ix + 2];
}

Obj dict_getitem(Obj d, Obj key)
{
    d = vm_unwrap(d);
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return NULL;
    return dict_getitem_hash(d, key, h);
}

/* Exact str key: pointer equality, then str_eq with the cached hash. Only
 * a non-str key with the same hash takes the general path (and *dp is
 * refreshed if Python code ran); errors there are swallowed. */
static int64_t lookup_str(Obj *dp, Obj key)
{
    Obj d = *dp;
    VM_READ(d);
    Obj index = DICT(d)->index;
    if (!index)
        return -1;
    int64_t h = STR(key)->hash;
    if (h == -1)
        h = str_hash(key);
    Obj tag = MAKE_SMALLINT(h);
    uint64_t mask = ix_size(index) - 1;
    uint64_t perturb = probe_seed(tag);
    uint64_t i = perturb & mask;
    Obj __seg_gs *e = ents(d);
    for (;;) {
        int32_t ix = ix_slots(index)[i];
        if (ix == IX_EMPTY)
            return -1;
        if (ix >= 0) {
            Obj ek = e[3 * ix + 1];
            if (ek == key)
                return ix;
            if (e[3 * ix] == tag) {
                int eq = container_fast_eq(ek, key);
                if (eq == 1)
                    return ix;
                if (eq == -2)
                    break;
            }
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + perturb + 1) & mask;
    }
    Obj *r = vm_roots(1);
    r[0] = err_fetch();
    int64_t res = d_lookup(dp, &key, NULL, h, NULL);
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
    return ents(d)[3 * ix + 2];
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

int dict_setitem_hash(Obj d, Obj key, Obj v, int64_t hash)
{
    d = vm_unwrap(d);
    return d_insert(&d, &key, &v, hash);
}

int dict_setitem(Obj d, Obj key, Obj v)
{
    d = vm_unwrap(d);
    int64_t h = key_hash(&key, &d, &v);
    if (h == -1)
        return -1;
    return d_insert(&d, &key, &v, h);
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
        *out = ents(*dp)[3 * ix + 2];
    d_delete_at(*dp, ix, slot);
    return 1;
}

int dict_pop(Obj d, Obj key, Obj *out)
{
    d = vm_unwrap(d);
    if (DICT(d)->used == 0)
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
    int64_t h = key_hash(&key, &d, NULL);
    if (h == -1)
        return -1;
    int64_t ix = d_lookup(&d, &key, NULL, h, NULL);
    return ix == LOOKUP_ERROR ? -1 : ix >= 0;
}

Obj dict_setdefault(Obj d, Obj key, Obj dflt)
{
    d = vm_unwrap(d);
    int64_t h = key_hash(&key, &d, &dflt);
    if (h == -1)
        return NULL;
    int64_t ix = d_lookup(&d, &key, &dflt, h, NULL);
    if (ix == LOOKUP_ERROR)
        return NULL;
    if (ix >= 0)
        return ents(d)[3 * ix + 2];
    Obj *r = vm_roots(1);
    r[0] = dflt;
    int rc = d_insert(&d, &key, &dflt, h);
    dflt = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : dflt;
}

int64_t dict_len(Obj d)
{
    return DICT(vm_unwrap(d))->used;
}

bool dict_next_hash(Obj d, int64_t *pos, Obj *k, Obj *v, int64_t *hash)
{
    d = vm_unwrap(d);
    VM_READ(d);
    int64_t i = *pos, n = DICT(d)->nentries;
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
    VM_WRITE(d);
    DICT(d)->entries = NULL;
    DICT(d)->index = NULL;
    DICT(d)->nentries = 0;
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
    if (DICT(d)->used) {
        r[2] = DICT(d)->entries;
        if (d_build(&r[1], size_for(DICT(d)->used), &r[2], DICT(d)->nentries) < 0) {
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
    int64_t n = DICT(d)->used;
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
Obj dict_values_list(Obj d) { return dict_to_list(d, 1); }
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
    Obj *r = vm_roots(1);
    r[0] = str_intern_cstr("__iter__");
    bool same = r[0] && vm_lookup_type(t, r[0]) == vm_lookup_type(T_dict, r[0]);
    vm_unroots(r);
    return same;
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

int dict_merge(Obj d, Obj other, int override)
{
    Obj *r = vm_roots(6);
    r[0] = vm_unwrap(d);
    r[1] = other;
    int rc = 0;
    if (is_plain_dict_source(r[1])) {
        r[1] = vm_unwrap(r[1]);
        Obj o = r[1];
        if (o == r[0] || DICT(o)->used == 0)
            goto done;
        if (DICT(r[0])->used == 0 && override != 2) {
            /* into an empty dict: one table build, no lookups */
            r[2] = DICT(o)->entries;
            rc = d_build(&r[0], size_for(DICT(o)->used), &r[2], DICT(o)->nentries);
            goto done;
        }
        int64_t need = DICT(r[0])->used + DICT(o)->used;
        if (DICT(o)->used > ents_cap(r[0]) - DICT(r[0])->nentries &&
            d_resize(&r[0], NULL, NULL, need) < 0) {
            rc = -1;
            goto done;
        }
        r[2] = DICT(r[1])->entries;
        int64_t n = DICT(r[1])->nentries;
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
            if (DICT(r[1])->entries != r[2] || DICT(r[1])->nentries != n) {
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

int dict_merge_pairs(Obj d, Obj iterable)
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

int dict_merge_kwargs(Obj d, Obj mapping)
{
    Obj *r = vm_roots(4);
    r[0] = vm_unwrap(d);
    r[1] = mapping;
    int rc = 0;
    if (!is_plain_dict_source(mapping)) {
        int has = vm_hasattr(mapping, s_keys);
        if (has <= 0) {
            if (has == 0)
                err_format(E_TypeError, "'%s' object is not a mapping", type_name(r[1]));
            vm_unroots(r);
            return -1;
        }
    }
    /* merge into a scratch dict first so that key checks see every key */
    r[2] = dict_new();
    if (!r[2] || dict_merge(r[2], r[1], 1) < 0) {
        vm_unroots(r);
        return -1;
    }
    int64_t pos = 0;
    Obj k, v;
    while (dict_next(r[2], &pos, &k, &v)) {
        if (!IS_STR(k) && !(IS_INSTANCE(k) && IS_STR(vm_unwrap(k)))) {
            err_set(E_TypeError, "keywords must be strings");
            rc = -1;
            break;
        }
        r[3] = k;
        Obj vv = v;
        int64_t h = key_hash(&r[3], &r[0], &vv);
        if (h == -1 || merge_one(&r[0], &r[3], &vv, h, 2) < 0) {
            rc = -1;
            break;
        }
    }
    vm_unroots(r);
    return rc;
}
