/* set and frozenset (SetObj, `frozen` says which).
 *
 * The table follows CPython 3.11's documented scheme so that sets iterate
 * in the same order as CPython's for ints, tuples and other keys whose
 * hashes match: a power-of-two table of at least 8 slots, open addressing
 * that looks at the slot and its LINEAR_PROBES right neighbours before
 * jumping with the perturbed recurrence i = 5*i + 1 + perturb, a resize to
 * used*4 (used*2 past 50000) when fill*5 >= mask*3, deleted slots marked with
 * a dummy key and hash -1, the pop "finger", and the same merge, update,
 * intersection and difference strategies (they decide insertion order).
 *
 * Storage: SetObj.table is an ArrayObj of mask+2 items: keys[0..mask] (NULL:
 * never used, g_dummy: deleted) and, as the last item, a RawObj holding the
 * mask+1 int64 hashes (full 64-bit hashes are needed for CPython's probe
 * order, so they cannot live in tagged words). table is NULL until the
 * first key (mask is 7 then). For mutable sets SetObj.hash holds the pop
 * finger; for frozensets the cached hash (-1: not computed). A store of one
 * slot names it (VM_WRITE_ITEM(S)): a big table's commit then publishes the
 * cards written, not the whole table; bulk stores take VM_WRITE.
 *
 * Conflict units (STM): a big table (STRIPED_MIN slots and up) is written and
 * read slot by slot (the runtime locks and checks it card by card), and its
 * counters do not make every add and discard one write of the SetObj: the
 * hashes object ends with NSTRIPES card-aligned stripes, one per segment (a
 * segment's transactions add to theirs), each a used delta, a fill delta and
 * a fill allowance. The true counts are SetObj's plus the stripes' deltas
 * (set_used reads them all: only len() and what needs the size conflicts
 * with adders). An add into a never-used slot may raise its stripe's fill
 * delta up to the allowance; past it the add folds every stripe into
 * SetObj (the rare global event, as a resize) and takes the exact path, then
 * shares the room left before the resize threshold out again. So the sum of
 * the allowances never passes the threshold, and the table resizes exactly
 * where CPython's does (set order stays CPython's). Everything else that
 * reads fill first folds (s_fold). */
#include "objects.h"
#include "containers.h"
#include "settable.h"

#include <stdlib.h>
#include <string.h>
static int64_t frozenset_hash(Obj s);

TypeObj *T_set, *T_frozenset, *T_set_iterator;

#define MINSIZE 8

static Obj g_dummy;   /* pinned: marks a deleted slot */

Obj set_dummy_key(void)
{
    return g_dummy;
}

static inline Obj __seg_gs *t_keys(Obj table)
{
    return ARRAY(table)->items;
}
static inline int64_t __seg_gs *t_hashes(Obj table)
{
    int64_t n = ARRAY(table)->length - 1;
    return (int64_t __seg_gs *)RAW(ARRAY(table)->items[n])->data;
}

/* The set's size: SetObj's count and its table's stripes. */
static int64_t set_used(Obj so)
{
    SetObj *s = SETOBJ(so);   /* one read barrier (an iteration asks at every step) */
    int64_t used = s->used;
    Obj table = s->table;
    if (table && t_striped(table)) {
        int64_t __seg_gs *st = t_stripe(table, 0);
        uint8_t rv = tm_read_version();
        for (int k = 0, n = n_stripes(); k < n; k++, st += 512 / 8) {   /* stripe k + 1 is 512 bytes on (stripe_offset) */
            tm_read_at_rv((uintptr_t)st, rv);
            used += st[ST_USED];
        }
    }
    return used;
}

/* Share the room left before the resize threshold out among the stripes
 * (SetObj's fill exact: right after a fold or a resize). */
static void set_allowances(Obj so)
{
    Obj table = SETOBJ(so)->table;
    if (!table || !t_striped(table))
        return;
    int64_t room = (SETOBJ(so)->mask * 3 - 1) / 5 - SETOBJ(so)->fill;
    int64_t allow = room > 0 ? room / n_stripes() : 0;
    Obj h = t_hashobj(table);
    for (int k = 0; k < n_stripes(); k++) {
        int64_t __seg_gs *st = t_stripe(table, k);
        tm_read_at((uintptr_t)st);
        if (st[ST_ALLOW] != allow) {
            VM_WRITE_ITEMS(h, stripe_offset(t_size(table), k), 24);
            st[ST_ALLOW] = allow;
        }
    }
}

/* Fold the stripes' deltas into SetObj: its counts are exact after it. */
static void s_fold(Obj so)
{
    Obj table = SETOBJ(so)->table;
    if (!table || !t_striped(table))
        return;
    Obj h = t_hashobj(table);
    for (int k = 0; k < n_stripes(); k++) {
        int64_t __seg_gs *st = t_stripe(table, k);
        tm_read_at((uintptr_t)st);
        int64_t du = st[ST_USED], df = st[ST_FILL];
        if (!du && !df)
            continue;
        VM_WRITE_ITEMS(h, stripe_offset(t_size(table), k), 24);
        st[ST_USED] = st[ST_FILL] = 0;
        VM_WRITE(so);
        SETOBJ(so)->used += du;
        SETOBJ(so)->fill += df;
    }
    set_allowances(so);   /* the stripes' old allowances were for the old fill */
}

/* The fill, exact (a set we only read: no fold). */
static int64_t set_fill(Obj so)
{
    int64_t fill = SETOBJ(so)->fill;
    Obj table = SETOBJ(so)->table;
    if (table && t_striped(table))
        for (int k = 0; k < n_stripes(); k++) {
            int64_t __seg_gs *st = t_stripe(table, k);
            tm_read_at((uintptr_t)st);
            fill += st[ST_FILL];
        }
    return fill;
}

static inline bool is_frozen(Obj so)
{
    return SETOBJ_NOFLUSH(so)->frozen != 0;   /* set at creation: no need to see pending entries */
}

/* Create the dummy before anything else is live (constructors call it first). */
static inline bool ensure_dummy(void)
{
    if (likely(g_dummy != NULL))
        return true;
    vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
    if (g_dummy)                 /* made by another thread while we waited to become inevitable */
        return true;
    Obj d = tm_allocate_old(TID_RAW, sizeof(struct RawObj_));
    if (!d)
        return false;
    g_dummy = d;
    VM_GLOBAL_ROOT(g_dummy);
    return true;
}

static Obj s_new(bool frozen)
{
    if (!ensure_dummy())
        return err_nomemory();
    Obj so = tm_allocate(TID_SET, sizeof(struct SetObj_));
    if (!so)
        return err_nomemory();
    SETOBJ(so)->mask = MINSIZE - 1;
    SETOBJ(so)->frozen = frozen;
    SETOBJ(so)->hash = frozen ? -1 : 0;
    return so;
}

/* A zeroed table of `size` slots. */
static Obj alloc_table(int64_t size)
{
    Obj keys = array_new(size + 1);
    if (!keys)
        return NULL;
    Obj *r = vm_roots(1);
    r[0] = keys;
    Obj hashes = raw_new(size >= STRIPED_MIN ? (int64_t)stripe_offset(size, NSTRIPES) : size * 8);
    keys = r[0];
    vm_unroots(r);
    if (!hashes)
        return NULL;
    VM_WRITE(keys);
    ARRAY(keys)->items[size] = hashes;
    return keys;
}

/* Insert a key known to be absent into a table without dummies. */
static void insert_clean(Obj table, uint64_t mask, Obj key, int64_t hash)
{
    Obj __seg_gs *keys = t_keys(table);
    uint64_t perturb = (uint64_t)hash;
    uint64_t i = (uint64_t)hash & mask;
    for (;;) {
        if (!keys[i])
            goto found;
        if (i + LINEAR_PROBES <= mask) {
            for (int j = 0; j < LINEAR_PROBES; j++) {
                i++;
                if (!keys[i])
                    goto found;
            }
            i -= LINEAR_PROBES;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
found:
    keys[i] = key;
    t_hashes(table)[i] = hash;
}

/* CPython's set_table_resize: a table of the smallest power of two above
 * minused; active keys are re-inserted in old-table order. */
static int s_resize(Obj *sp, int64_t minused)
{
    int64_t newsize = MINSIZE;
    while (newsize <= minused)
        newsize <<= 1;
    VM_WRITE_TO_GROW(*sp, newsize);
    s_fold(*sp);
    Obj *r = vm_roots(2);
    r[0] = *sp;
    r[1] = SETOBJ(*sp)->table;
    Obj nt = alloc_table(newsize);
    Obj so = r[0], ot = r[1];
    *sp = so;
    vm_unroots(r);
    if (!nt)
        return -1;
    uint64_t newmask = (uint64_t)newsize - 1;
    if (ot) {
        Obj __seg_gs *keys = t_keys(ot);
        int64_t __seg_gs *hashes = t_hashes(ot);
        int64_t omask = SETOBJ(so)->mask;
        for (int64_t i = 0; i <= omask; i++) {
            Obj k = keys[i];
            if (k && k != g_dummy)
                insert_clean(nt, newmask, k, hashes[i]);
        }
    }
    VM_WRITE(so);
    SETOBJ(so)->table = nt;
    SETOBJ(so)->mask = (int64_t)newmask;
    SETOBJ(so)->fill = set_used(so);
    set_allowances(so);
    return 0;
}

/* Allocate the first table; *kp (may be NULL) is refreshed too. */
static __attribute__((noinline)) int ensure_table_slow(Obj *sp, Obj *kp)
{
    Obj *r = vm_roots(2);
    r[0] = *sp;
    r[1] = kp ? *kp : NULL;
    Obj t = alloc_table(SETOBJ(*sp)->mask + 1);
    *sp = r[0];
    if (kp)
        *kp = r[1];
    vm_unroots(r);
    if (!t)
        return -1;
    VM_WRITE(*sp);
    SETOBJ(*sp)->table = t;
    return 0;
}
static inline int ensure_table(Obj *sp, Obj *kp)
{
    return SETOBJ(*sp)->table ? 0 : ensure_table_slow(sp, kp);
}

/* vm_equal(startkey, *kp) with Python code allowed: 1, 0, -1, or 2 when
 * the set changed under us (restart). */
static __attribute__((noinline)) int slow_eq(Obj *sp, Obj *kp, int64_t slot, Obj startkey)
{
    Obj *r = vm_roots(4);
    r[0] = *sp;
    r[1] = *kp;
    r[2] = SETOBJ(*sp)->table;
    r[3] = startkey;
    int eq = vm_equal(startkey, *kp);
    Obj so = r[0];
    *sp = so;
    *kp = r[1];
    bool changed = SETOBJ(so)->table != r[2] || t_keys(r[2])[slot] != r[3];
    vm_unroots(r);
    if (eq < 0)
        return -1;
    return changed ? 2 : eq;
}

/* The slot holding *kp, -1 if absent, -2 on error. */
static int64_t s_lookup(Obj *sp, Obj *kp, int64_t hash)
{
restart:;
    Obj so = *sp;
    VM_READ(so);
    Obj table = SETOBJ(so)->table;
    if (!table)
        return -1;
    bool by_slot = t_striped(table);
    uint8_t rv = by_slot ? tm_read_version() : 0;
    if (!by_slot)
        t_read_whole(table);
    Obj key = *kp;
    uint64_t mask = (uint64_t)SETOBJ(so)->mask;
    uint64_t perturb = (uint64_t)hash;
    uint64_t i = (uint64_t)hash & mask;
    for (;;) {
        uint64_t j = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            t_read_slot(table, j, rv);
            Obj ek = t_keys_nb(table)[j];
            if (!ek)
                return -1;
            if (t_hashes_nb(table)[j] == hash) {
                if (ek == key)
                    return (int64_t)j;
                int eq = container_fast_eq(ek, key);
                if (eq == -2) {
                    eq = slow_eq(sp, kp, (int64_t)j, ek);
                    if (eq < 0)
                        return -2;
                    if (eq == 2)
                        goto restart;
                    so = *sp;
                    key = *kp;
                    table = SETOBJ(so)->table;
                    if (!by_slot)
                        t_read_whole(table);
                }
                if (eq)
                    return (int64_t)j;
            }
            j++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

/* set_contains for small int / exact str keys, inlined: the slot, -1, or
 * -3 when a colliding key needs vm_equal. */
/* The probe loop of s_probe_fast, specialised on `marking` (a big table's
 * slot markers): a loop without markers pays nothing for them. */
static inline __attribute__((always_inline)) int64_t s_probe_loop(Obj table, uint64_t mask, Obj key, int64_t hash,
                                                                  uint8_t rv, const bool marking)
{
    Obj __seg_gs *keys = t_keys_nb(table);
    int64_t __seg_gs *hashes = t_hashes_nb(table);
    uint64_t perturb = (uint64_t)hash;
    uint64_t i = (uint64_t)hash & mask;
    for (;;) {
        uint64_t j = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            if (marking)
                t_read_slot(table, j, rv);
            Obj ek = keys[j];
            if (ek == key)
                return (int64_t)j;
            if (!ek)
                return -1;
            if (hashes[j] == hash) {
                int eq = container_fast_eq(ek, key);
                if (eq == 1)
                    return (int64_t)j;
                if (eq == -2)
                    return -3;
            }
            j++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

static inline __attribute__((always_inline)) int64_t s_probe_fast(Obj so, Obj key, int64_t hash)
{
    VM_READ(so);
    Obj table = SETOBJ(so)->table;
    if (!table)
        return -1;
    uint64_t mask = (uint64_t)SETOBJ(so)->mask;
    uint8_t rv = 0;
    if (!t_striped(table))
        t_read_whole(table);
    else
        rv = tm_read_version();
    if (rv)
        return s_probe_loop(table, mask, key, hash, rv, true);
    return s_probe_loop(table, mask, key, hash, 0, false);
}

/* CPython's set_add_entry. */
static int s_add(Obj *sp, Obj *kp, int64_t hash)
{
#if TM_STM
    int logged = set_log_add(sp, kp, hash);   /* a big shared table: committed blind (setlog.c) */
    if (logged)
        return logged < 0 ? -1 : 0;
#endif
restart:
    /* (again after __eq__ changed the set: clear() leaves no table) */
    if (ensure_table(sp, kp) < 0)
        return -1;
    Obj so = *sp;
    Obj table = SETOBJ(so)->table;
    Obj key = *kp;
    uint64_t mask = (uint64_t)SETOBJ(so)->mask;
    uint64_t perturb = (uint64_t)hash;
    uint64_t i = (uint64_t)hash & mask;
    int64_t freeslot = -1;
    uint64_t j;
    bool by_slot = t_striped(table);
    uint8_t rv = by_slot ? tm_read_version() : 0;
    if (!by_slot)
        t_read_whole(table);
    for (;;) {
        j = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            t_read_slot(table, j, rv);
            Obj ek = t_keys_nb(table)[j];
            if (!ek)
                goto found_unused_or_dummy;
            int64_t eh = t_hashes_nb(table)[j];
            if (eh == hash) {
                if (ek == key)
                    return 0;
                int eq = container_fast_eq(ek, key);
                if (eq == -2) {
                    eq = slow_eq(sp, kp, (int64_t)j, ek);
                    if (eq < 0)
                        return -1;
                    if (eq == 2)
                        goto restart;
                    so = *sp;
                    key = *kp;
                    table = SETOBJ(so)->table;
                    mask = (uint64_t)SETOBJ(so)->mask;
                    if (!by_slot)
                        t_read_whole(table);
                }
                if (eq)
                    return 0;
            } else if (eh == -1) {
                freeslot = (int64_t)j;   /* CPython 3.11 keeps the last dummy seen */
            }
            j++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
found_unused_or_dummy:
    /* an __eq__ run after freeslot was seen may have filled it (same table) */
    if (freeslot >= 0 && t_keys_nb(table)[freeslot] != g_dummy)
        goto restart;
    int64_t at = freeslot >= 0 ? freeslot : (int64_t)j;
    VM_WRITE_ITEM(table, at);
    VM_WRITE_ITEMS(t_hashobj(table), at * 8, 8);
    t_keys_nb(table)[at] = key;
    t_hashes_nb(table)[at] = hash;
    if (by_slot) {   /* a big table: count in this segment's stripe while its allowance lasts */
        int ms = my_stripe();
        int64_t __seg_gs *st = t_stripe(table, ms);
        tm_read_at((uintptr_t)st);
        if (freeslot >= 0 || st[ST_FILL] < st[ST_ALLOW]) {
            VM_WRITE_ITEMS(t_hashobj(table), stripe_offset(t_size(table), ms), 24);
            st[ST_USED]++;
            st[ST_FILL] += freeslot < 0;
            return 0;
        }
        s_fold(so);   /* the rare global event: SetObj's counts are exact again */
    }
    VM_WRITE(so);
    if (freeslot >= 0) {
        SETOBJ(so)->used++;
        return 0;
    }
    SETOBJ(so)->fill++;
    SETOBJ(so)->used++;
    if ((uint64_t)SETOBJ(so)->fill * 5 < mask * 3) {
        set_allowances(so);
        return 0;
    }
    int64_t used = set_used(so);
    return s_resize(sp, used > 50000 ? used * 2 : used * 4);
}

/* Remove *kp: 1 removed, 0 absent, -1 error. */
static int s_discard(Obj *sp, Obj *kp, int64_t hash)
{
#if TM_STM
    bool removed;
    int logged = set_log_discard(sp, kp, hash, &removed);   /* as s_add */
    if (logged)
        return logged < 0 ? -1 : removed;
#endif
    int64_t slot = s_lookup(sp, kp, hash);
    if (slot == -2)
        return -1;
    if (slot < 0)
        return 0;
    Obj so = *sp;
    Obj table = SETOBJ(so)->table;
    VM_WRITE_ITEM(table, slot);
    VM_WRITE_ITEMS(t_hashobj(table), slot * 8, 8);
    t_keys_nb(table)[slot] = g_dummy;
    t_hashes_nb(table)[slot] = -1;
    if (t_striped(table)) {
        int ms = my_stripe();
        int64_t __seg_gs *st = t_stripe(table, ms);
        tm_read_at((uintptr_t)st);
        VM_WRITE_ITEMS(t_hashobj(table), stripe_offset(t_size(table), ms), 24);
        st[ST_USED]--;
        return 1;
    }
    VM_WRITE(so);
    SETOBJ(so)->used--;
    return 1;
}

/* Hash of *kp (refreshed); *sp refreshed too. */
static inline int64_t s_hash(Obj *kp, Obj *sp)
{
    Obj k = *kp;
    if (IS_SMALLINT(k) || k->h.tid == TID_STR)
        return container_hash(k);
    Obj *r = vm_roots(2);
    r[0] = k;
    r[1] = sp ? *sp : NULL;
    int64_t h = vm_hash(k);
    *kp = r[0];
    if (sp)
        *sp = r[1];
    vm_unroots(r);
    return h;
}

/* Next active slot from *pos: key and hash. */
static inline bool s_next(Obj so, int64_t *pos, Obj *key, int64_t *hash)
{
    Obj table = SETOBJ(so)->table;
    if (!table)
        return false;
    int64_t mask = SETOBJ(so)->mask;
    Obj __seg_gs *keys = t_keys(table);   /* one read barrier, not one a slot: nothing here moves it */
    for (int64_t i = *pos; i <= mask; i++) {
        Obj k = keys[i];
        if (k && k != g_dummy) {
            *key = k;
            if (hash)
                *hash = t_hashes(table)[i];
            *pos = i + 1;
            return true;
        }
    }
    *pos = mask + 1;
    return false;
}

static void s_clear(Obj so)
{
    VM_WRITE(so);
    SETOBJ(so)->table = NULL;
    SETOBJ(so)->mask = MINSIZE - 1;
    SETOBJ(so)->used = 0;
    SETOBJ(so)->fill = 0;
    if (is_frozen(so))
        SETOBJ(so)->hash = -1;
}

/* CPython's set_merge: add every key of the set `*op` to *sp. */
static int s_merge(Obj *sp, Obj *op)
{
    s_fold(*sp);
    Obj so = *sp, other = *op;
    if (so == other || set_used(other) == 0)
        return 0;
    if ((SETOBJ(so)->fill + set_used(other)) * 5 >= SETOBJ(so)->mask * 3) {
        Obj *r = vm_roots(1);
        r[0] = other;
        int rc = s_resize(sp, (set_used(so) + set_used(other)) * 2);
        *op = r[0];
        vm_unroots(r);
        if (rc < 0)
            return -1;
    }
    if (!SETOBJ(*sp)->table) {
        if (ensure_table(sp, op) < 0)
            return -1;
    }
    so = *sp;
    other = *op;
    Obj st = SETOBJ(so)->table, ot = SETOBJ(other)->table;
    int64_t omask = SETOBJ(other)->mask;
    if (SETOBJ(so)->fill == 0 && SETOBJ(so)->mask == omask && set_fill(other) == set_used(other)) {
        /* same size, no dummies: copy slot by slot */
        VM_WRITE(st);
        VM_WRITE(ARRAY(st)->items[ARRAY(st)->length - 1]);
        for (int64_t i = 0; i <= omask; i++) {
            Obj k = t_keys(ot)[i];
            if (k) {
                t_keys(st)[i] = k;
                t_hashes(st)[i] = t_hashes(ot)[i];
            }
        }
        VM_WRITE(so);
        SETOBJ(so)->fill = set_fill(other);
        SETOBJ(so)->used = set_used(other);
        set_allowances(so);
        return 0;
    }
    if (SETOBJ(so)->fill == 0) {
        VM_WRITE(st);
        VM_WRITE(ARRAY(st)->items[ARRAY(st)->length - 1]);
        uint64_t mask = (uint64_t)SETOBJ(so)->mask;
        for (int64_t i = 0; i <= omask; i++) {
            Obj k = t_keys(ot)[i];
            if (k && k != g_dummy)
                insert_clean(st, mask, k, t_hashes(ot)[i]);
        }
        VM_WRITE(so);
        SETOBJ(so)->fill = set_used(other);
        SETOBJ(so)->used = set_used(other);
        set_allowances(so);
        return 0;
    }
    /* general case: normal insertions (may run __eq__) */
    Obj *r = vm_roots(2);
    r[0] = *op;
    int rc = 0;
    for (int64_t i = 0; i <= SETOBJ(r[0])->mask; i++) {
        Obj ot2 = SETOBJ(r[0])->table;
        if (!ot2)
            break;
        Obj k = t_keys(ot2)[i];
        if (!k || k == g_dummy)
            continue;
        r[1] = k;
        if (s_add(sp, &r[1], t_hashes(ot2)[i]) < 0) {
            rc = -1;
            break;
        }
    }
    *op = r[0];
    vm_unroots(r);
    return rc;
}

/* CPython's set_update_internal: any iterable. */
static int s_update(Obj *sp, Obj other)
{
    Obj *r = vm_roots(3);
    r[0] = other;
    int rc = 0;
    Obj uo = vm_unwrap(other);
    if (IS_SET_ANY(uo)) {
        r[0] = uo;
        rc = s_merge(sp, &r[0]);
    } else if (IS_DICT(other)) {
        int64_t dictsize = dict_len(other);
        s_fold(*sp);
        Obj so = *sp;
        if ((SETOBJ(so)->fill + dictsize) * 5 >= SETOBJ(so)->mask * 3)
            rc = s_resize(sp, (set_used(so) + dictsize) * 2);
        int64_t pos = 0;
        Obj k;
        while (rc == 0 && dict_next(r[0], &pos, &k, NULL)) {
            r[1] = k;
            int64_t h = s_hash(&r[1], sp);
            if (h == -1 || s_add(sp, &r[1], h) < 0)
                rc = -1;
        }
    } else {
        r[1] = vm_iter(r[0]);
        if (!r[1]) {
            vm_unroots(r);
            return -1;
        }
        for (;;) {
            r[2] = vm_next(r[1]);
            if (!r[2]) {
                if (err_occurred())
                    rc = -1;
                break;
            }
            int64_t h = s_hash(&r[2], sp);
            if (h == -1 || s_add(sp, &r[2], h) < 0) {
                rc = -1;
                break;
            }
        }
    }
    vm_unroots(r);
    return rc;
}

static Obj s_new_from(bool frozen, Obj iterable)
{
    Obj *r = vm_roots(2);
    r[1] = iterable;
    r[0] = s_new(frozen);
    Obj res = NULL;
    if (r[0] && (!r[1] || s_update(&r[0], r[1]) == 0))
        res = r[0];
    vm_unroots(r);
    return res;
}

/* The keys in iteration order. */
static Obj set_to_tuple(Obj so)
{
    Obj *r = vm_roots(1);
    r[0] = so;
    Obj t = tuple_new(set_used(so));
    so = r[0];
    vm_unroots(r);
    if (!t)
        return NULL;
    int64_t pos = 0, i = 0;
    Obj k;
    while (i < TUPLE_LEN(t) && s_next(so, &pos, &k, NULL))
        TUPLE_ITEMS(t)[i++] = k;
    return t;
}

Obj set_new(Obj iterable)
{
    return s_new_from(false, iterable);
}

Obj frozenset_new(Obj iterable)
{
    return s_new_from(true, iterable);
}

Obj set_display_constant(Obj items)
{
    Obj *r = vm_roots(1);
    r[0] = frozenset_new(items);
    Obj res = NULL;
    if (r[0] && (r[0] = set_to_tuple(r[0])))
        res = frozenset_new(r[0]);
    vm_unroots(r);
    return res;
}

/* ---- keys that are sets: looked up as frozensets ---- */

/* The hash of *kp for lookups; a set key becomes a frozenset (CPython's
 * set_contains / remove / discard). -1 on error. */
static int64_t lookup_hash(Obj *kp, Obj *sp)
{
    int64_t h = s_hash(kp, sp);
    if (h != -1 || !err_matches(E_TypeError))
        return h;
    Obj uk = vm_unwrap(*kp);
    if (!IS_SET_ANY(uk) || is_frozen(uk) || !vm_isinstance_type(*kp, T_set))
        return -1;
    err_clear();
    Obj *r = vm_roots(1);
    r[0] = sp ? *sp : NULL;
    Obj fs = frozenset_new(uk);
    if (sp)
        *sp = r[0];
    vm_unroots(r);
    if (!fs)
        return -1;
    *kp = fs;
    return frozenset_hash(fs);
}

/* ---- the public API ---- */

/* The helpers below take pointers to ROOT SLOTS (hashing and comparing can
 * run Python code and move objects), so the API copies its arguments into
 * vm_roots first. */
int set_add(Obj s, Obj key)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(s);
    r[1] = key;
    int64_t h = s_hash(&r[1], &r[0]);
    int rc = h == -1 ? -1 : s_add(&r[0], &r[1], h);
    vm_unroots(r);
    return rc;
}

int set_contains(Obj s, Obj key)
{
    s = vm_unwrap(s);
    if (IS_SMALLINT(key) || key->h.tid == TID_STR) {
        int64_t slot = s_probe_fast(s, key, container_hash(key));
        if (slot != -3)
            return slot >= 0;
    }
    Obj *r = vm_roots(2);
    r[0] = s;
    r[1] = key;
    int64_t h = lookup_hash(&r[1], &r[0]);
    int rc;
    if (h == -1) {
        rc = -1;
    } else {
        int64_t slot = s_lookup(&r[0], &r[1], h);
        rc = slot == -2 ? -1 : slot >= 0;
    }
    vm_unroots(r);
    return rc;
}

static int set_discard(Obj s, Obj key)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(s);
    r[1] = key;
    int64_t h = lookup_hash(&r[1], &r[0]);
    int rc = h == -1 ? -1 : s_discard(&r[0], &r[1], h);
    vm_unroots(r);
    return rc;
}

static int set_remove(Obj s, Obj key)
{
    Obj *r = vm_roots(3);
    r[0] = vm_unwrap(s);
    r[1] = key;
    r[2] = key;
    int64_t h = lookup_hash(&r[1], &r[0]);
    int rc = h == -1 ? -1 : s_discard(&r[0], &r[1], h);
    if (rc == 0)
        err_set_value(E_KeyError, r[2]);
    vm_unroots(r);
    return rc == 1 ? 0 : -1;
}

int64_t set_len(Obj s)
{
    return set_used(vm_unwrap(s));
}

int set_update(Obj s, Obj iterable)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(s);
    int rc = s_update(&r[0], iterable);
    vm_unroots(r);
    return rc;
}

static void set_clear(Obj s)
{
    s_clear(vm_unwrap(s));
}

/* A new set of the same kind with the same keys (make_new_set_basetype). */
static Obj s_copy_kind(Obj so, bool frozen)
{
    Obj *r = vm_roots(2);
    r[1] = so;
    r[0] = s_new(frozen);
    Obj res = NULL;
    if (r[0] && s_merge(&r[0], &r[1]) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static Obj set_copy(Obj s)
{
    s = vm_unwrap(s);
    return s_copy_kind(s, is_frozen(s));
}

static Obj set_pop(Obj s)
{
    Obj so = vm_unwrap(s);
    if (set_used(so) == 0) {
        err_set(E_KeyError, "pop from an empty set");
        return NULL;
    }
    Obj table = SETOBJ(so)->table;
    int64_t mask = SETOBJ(so)->mask;
    int64_t i = SETOBJ(so)->hash & mask;
    for (;;) {
        Obj k = t_keys(table)[i];
        if (k && k != g_dummy)
            break;
        i++;
        if (i > mask)
            i = 0;
    }
    Obj key = t_keys(table)[i];
    VM_WRITE_ITEM(table, i);
    VM_WRITE_ITEMS(ARRAY(table)->items[ARRAY(table)->length - 1], i * 8, 8);
    t_keys(table)[i] = g_dummy;
    t_hashes(table)[i] = -1;
    VM_WRITE(so);
    SETOBJ(so)->used--;
    SETOBJ(so)->hash = i + 1;   /* the finger: next place to start */
    return key;
}

static uint64_t shuffle_bits(uint64_t h)
{
    return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL;
}

static int64_t frozenset_hash(Obj s)
{
    Obj so = vm_unwrap(s);
    if (!is_frozen(so)) {
        err_format(E_TypeError, "unhashable type: '%s'", type_name(s));
        return -1;
    }
    if (SETOBJ(so)->hash != -1)
        return SETOBJ(so)->hash;
    /* xor of shuffled hashes of the active entries (order-independent) */
    uint64_t hash = 0;
    int64_t pos = 0, h;
    Obj k;
    while (s_next(so, &pos, &k, &h))
        hash ^= shuffle_bits((uint64_t)h);
    hash ^= ((uint64_t)set_used(so) + 1) * 1927868237ULL;
    hash ^= (hash >> 11) ^ (hash >> 25);
    hash = hash * 69069U + 907133923ULL;
    if (hash == (uint64_t)-1)
        hash = 590923713ULL;
    VM_WRITE(so);
    SETOBJ(so)->hash = (int64_t)hash;
    return (int64_t)hash;
}

/* ---- CPython's set algebra (they fix the result's insertion order) ---- */

static bool is_anyset(Obj v)
{
    return IS_SET_ANY(vm_unwrap(v));
}

/* set_contains_entry with a known hash. */
static int contains_entry(Obj *sp, Obj *kp, int64_t hash)
{
    int64_t slot = s_lookup(sp, kp, hash);
    return slot == -2 ? -1 : slot >= 0;
}

/* CPython's set_intersection(so, other): a new set of so's kind. */
static Obj s_intersection(Obj so, Obj other)
{
    so = vm_unwrap(so);
    bool frozen = is_frozen(so);
    if (vm_unwrap(other) == so)
        return s_copy_kind(so, frozen);
    Obj *r = vm_roots(6);
    r[0] = so;
    r[1] = other;
    r[2] = s_new(frozen);
    Obj res = NULL;
    if (!r[2])
        goto out;
    if (is_anyset(r[1])) {
        r[1] = vm_unwrap(r[1]);
        if (set_used(r[1]) > set_used(r[0])) {
            Obj t = r[0];
            r[0] = r[1];
            r[1] = t;
        }
        int64_t pos = 0, h;
        Obj k;
        while (s_next(r[1], &pos, &k, &h)) {
            r[3] = k;
            int rv = contains_entry(&r[0], &r[3], h);
            if (rv < 0 || (rv && s_add(&r[2], &r[3], h) < 0))
                goto out;
        }
        res = r[2];
        goto out;
    }
    r[4] = vm_iter(r[1]);
    if (!r[4])
        goto out;
    for (;;) {
        r[3] = vm_next(r[4]);
        if (!r[3]) {
            if (!err_occurred())
                res = r[2];
            break;
        }
        int64_t h = s_hash(&r[3], NULL);
        if (h == -1)
            break;
        int rv = contains_entry(&r[0], &r[3], h);
        if (rv < 0 || (rv && s_add(&r[2], &r[3], h) < 0))
            break;
    }
out:
    vm_unroots(r);
    return res;
}

Obj set_intersection_iter(Obj s, Obj other)
{
    return s_intersection(s, other);
}

/* CPython's set_difference_update_internal. */
static int s_difference_update(Obj *sp, Obj other)
{
    Obj *r = vm_roots(4);
    r[0] = other;
    int rc = 0;
    if (vm_unwrap(r[0]) == *sp) {
        s_clear(*sp);
        vm_unroots(r);
        return 0;
    }
    if (is_anyset(r[0])) {
        r[0] = vm_unwrap(r[0]);
        if ((set_used(r[0]) >> 3) > set_used(*sp)) {
            r[0] = s_intersection(*sp, r[0]);
            if (!r[0]) {
                vm_unroots(r);
                return -1;
            }
        }
        int64_t pos = 0, h;
        Obj k;
        while (s_next(r[0], &pos, &k, &h)) {
            r[1] = k;
            if (s_discard(sp, &r[1], h) < 0) {
                rc = -1;
                break;
            }
        }
    } else {
        r[2] = vm_iter(r[0]);
        if (!r[2]) {
            vm_unroots(r);
            return -1;
        }
        for (;;) {
            r[1] = vm_next(r[2]);
            if (!r[1]) {
                if (err_occurred())
                    rc = -1;
                break;
            }
            int64_t h = s_hash(&r[1], sp);
            if (h == -1 || s_discard(sp, &r[1], h) < 0) {
                rc = -1;
                break;
            }
        }
    }
    vm_unroots(r);
    if (rc < 0)
        return -1;
    Obj so = *sp;
    s_fold(so);
    /* more than 1/4 dummies: resize them away */
    if ((uint64_t)(SETOBJ(so)->fill - set_used(so)) <= (uint64_t)SETOBJ(so)->mask / 4)
        return 0;
    int64_t used = set_used(so);
    return s_resize(sp, used > 50000 ? used * 2 : used * 4);
}

int set_difference_update(Obj s, Obj other)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(s);
    int rc = s_difference_update(&r[0], other);
    vm_unroots(r);
    return rc;
}

/* CPython's set_copy_and_difference. */
static Obj s_copy_and_difference(Obj so, Obj other)
{
    Obj *r = vm_roots(2);
    r[1] = other;
    r[0] = s_copy_kind(so, is_frozen(so));
    Obj res = r[0] && s_difference_update(&r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}

/* CPython's set_difference(so, other). */
static Obj s_difference(Obj so, Obj other)
{
    so = vm_unwrap(so);
    int64_t other_size;
    Obj uo = vm_unwrap(other);
    if (IS_SET_ANY(uo))
        other_size = set_used(uo);
    else if (IS_DICT(other))
        other_size = dict_len(other);
    else
        return s_copy_and_difference(so, other);
    if ((set_used(so) >> 2) > other_size)
        return s_copy_and_difference(so, other);
    Obj *r = vm_roots(4);
    r[0] = so;
    r[1] = IS_SET_ANY(uo) ? uo : other;
    r[2] = s_new(is_frozen(so));
    Obj res = NULL;
    if (!r[2])
        goto out;
    int64_t pos = 0, h;
    Obj k;
    while (s_next(r[0], &pos, &k, &h)) {
        r[3] = k;
        int rv;
        if (IS_DICT(r[1])) {
            rv = dict_contains(r[1], r[3]);
        } else {
            rv = contains_entry(&r[1], &r[3], h);
        }
        if (rv < 0)
            goto out;
        if (!rv && s_add(&r[2], &r[3], h) < 0)
            goto out;
    }
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

/* CPython's set_symmetric_difference_update. */
static int s_symmetric_difference_update(Obj *sp, Obj other)
{
    Obj *r = vm_roots(3);
    r[0] = other;
    int rc = 0;
    if (vm_unwrap(r[0]) == *sp) {
        s_clear(*sp);
        vm_unroots(r);
        return 0;
    }
    if (IS_DICT(r[0])) {
        int64_t pos = 0;
        Obj k;
        while (dict_next(r[0], &pos, &k, NULL)) {
            r[1] = k;
            int64_t h = s_hash(&r[1], sp);
            int rv = h == -1 ? -1 : s_discard(sp, &r[1], h);
            if (rv < 0 || (rv == 0 && s_add(sp, &r[1], h) < 0)) {
                rc = -1;
                break;
            }
        }
        vm_unroots(r);
        return rc;
    }
    if (is_anyset(r[0]))
        r[0] = vm_unwrap(r[0]);
    else if (!(r[0] = s_new_from(is_frozen(*sp), r[0]))) {
        vm_unroots(r);
        return -1;
    }
    int64_t pos = 0, h;
    Obj k;
    while (s_next(r[0], &pos, &k, &h)) {
        r[1] = k;
        int rv = s_discard(sp, &r[1], h);
        if (rv < 0 || (rv == 0 && s_add(sp, &r[1], h) < 0)) {
            rc = -1;
            break;
        }
    }
    vm_unroots(r);
    return rc;
}

int set_symmetric_difference_update(Obj s, Obj other)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(s);
    int rc = s_symmetric_difference_update(&r[0], other);
    vm_unroots(r);
    return rc;
}

/* CPython's set_symmetric_difference: set(other) ^= so. */
static Obj s_symmetric_difference(Obj so, Obj other)
{
    so = vm_unwrap(so);
    Obj *r = vm_roots(2);
    r[1] = so;
    r[0] = s_new_from(is_frozen(so), other);
    Obj res = r[0] && s_symmetric_difference_update(&r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}

/* CPython's set_issubset(so, other). */
static int s_issubset(Obj so, Obj other)
{
    Obj *r = vm_roots(3);
    r[0] = vm_unwrap(so);
    r[1] = other;
    int res = -1;
    if (!is_anyset(r[1])) {
        r[1] = set_new(r[1]);
        if (!r[1])
            goto out;
    }
    r[1] = vm_unwrap(r[1]);
    if (set_used(r[0]) > set_used(r[1])) {
        res = 0;
        goto out;
    }
    int64_t pos = 0, h;
    Obj k;
    res = 1;
    while (s_next(r[0], &pos, &k, &h)) {
        r[2] = k;
        int rv = contains_entry(&r[1], &r[2], h);
        if (rv <= 0) {
            res = rv;
            break;
        }
    }
out:
    vm_unroots(r);
    return res;
}

/* CPython's set_issuperset(so, other). */
static int s_issuperset(Obj so, Obj other)
{
    if (is_anyset(other))
        return s_issubset(other, so);
    Obj *r = vm_roots(3);
    r[0] = vm_unwrap(so);
    r[1] = vm_iter(other);
    int res = -1;
    if (!r[1])
        goto out;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            res = err_occurred() ? -1 : 1;
            break;
        }
        int64_t h = s_hash(&r[2], NULL);
        int rv = h == -1 ? -1 : contains_entry(&r[0], &r[2], h);
        if (rv <= 0) {
            res = rv;
            break;
        }
    }
out:
    vm_unroots(r);
    return res;
}

/* CPython's set_isdisjoint(so, other). */
static int s_isdisjoint(Obj so, Obj other)
{
    Obj *r = vm_roots(3);
    r[0] = vm_unwrap(so);
    r[1] = other;
    int res = -1;
    if (vm_unwrap(r[1]) == r[0]) {
        res = set_used(r[0]) == 0;
        goto out;
    }
    if (IS_SET_ANY(r[1])) {
        if (set_used(r[1]) > set_used(r[0])) {
            Obj t = r[0];
            r[0] = r[1];
            r[1] = t;
        }
        int64_t pos = 0, h;
        Obj k;
        res = 1;
        while (s_next(r[1], &pos, &k, &h)) {
            r[2] = k;
            int rv = contains_entry(&r[0], &r[2], h);
            if (rv != 0) {
                res = rv < 0 ? -1 : 0;
                break;
            }
        }
        goto out;
    }
    r[1] = vm_iter(r[1]);
    if (!r[1])
        goto out;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            res = err_occurred() ? -1 : 1;
            break;
        }
        int64_t h = s_hash(&r[2], NULL);
        int rv = h == -1 ? -1 : contains_entry(&r[0], &r[2], h);
        if (rv != 0) {
            res = rv < 0 ? -1 : 0;
            break;
        }
    }
out:
    vm_unroots(r);
    return res;
}

/* Result of set.union(*others) etc. for two set values. */
static Obj set_union2(Obj a, Obj b)
{
    Obj *r = vm_roots(2);
    r[1] = b;
    r[0] = set_copy(a);
    Obj res = r[0] && s_update(&r[0], r[1]) == 0 ? r[0] : NULL;
    vm_unroots(r);
    return res;
}
/* ---- iterator ---- */

static Obj setiter_next(Obj it)
{
    IterObj *io = ITER(it);   /* one read barrier: nothing below moves it */
    Obj so = io->a;
    if (!so)
        return NULL;
    VM_READ(so);
    if (io->n != set_used(so)) {
        err_set(E_RuntimeError, "Set changed size during iteration");
        VM_WRITE(it);
        io->n = -1;   /* sticky */
        return NULL;
    }
    int64_t pos = io->i;
    Obj k;
    VM_WRITE(it);
    if (!s_next(so, &pos, &k, NULL)) {
        io->a = NULL;
        return NULL;
    }
    io->i = pos;
    io->c = MAKE_SMALLINT(SMALLINT_VAL(io->c) - 1);
    return k;
}

static Obj set_iter_new(Obj s)
{
    Obj it = iter_alloc(T_set_iterator, vm_unwrap(s), ITK_SET);
    if (it) {
        Obj so = ITER(it)->a;
        ITER(it)->n = set_used(so);
        ITER(it)->c = MAKE_SMALLINT(set_used(so));
    }
    return it;
}

/* ---- slots ---- */

static const char *kind_name(Obj self, Obj so)
{
    if (self != so)
        return type_name(self);
    return is_frozen(so) ? "frozenset" : "set";
}

static Obj set_repr(Obj self)
{
    Obj so = vm_unwrap(self);
    Obj *r = vm_roots(3);
    r[0] = so;
    r[1] = self;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        Obj res = rc > 0 ? str_from_format("%s(...)", kind_name(r[1], r[0])) : NULL;
        vm_unroots(r);
        return res;
    }
    if (set_used(r[0]) == 0) {
        repr_leave();
        Obj res = str_from_format("%s()", kind_name(r[1], r[0]));
        vm_unroots(r);
        return res;
    }
    StrBuf b;
    sb_init(&b);
    bool exact = r[1] == r[0] && !is_frozen(r[0]);
    if (!exact) {
        sb_adds(&b, kind_name(r[1], r[0]));
        sb_addc(&b, '(');
    }
    sb_addc(&b, '{');
    /* the elements as they are now (CPython reprs a list of them): an
     * element's __repr__ that changes the set changes nothing shown */
    r[2] = list_from_iterable(r[0]);
    for (int64_t i = 0; r[2] && i < LIST_LEN(r[2]); i++) {
        if (i)
            sb_add(&b, ", ", 2);
        Obj s = vm_repr(LIST_ITEMS(r[2])[i]);
        if (!s) {
            r[2] = NULL;
            break;
        }
        sb_add_str(&b, s);
    }
    if (!r[2]) {
        sb_free(&b);
        repr_leave();
        vm_unroots(r);
        return NULL;
    }
    sb_addc(&b, '}');
    if (!exact)
        sb_addc(&b, ')');
    repr_leave();
    vm_unroots(r);
    return sb_finish(&b);
}

static Obj set_richcompare(Obj a, Obj b, int op)
{
    Obj v = vm_unwrap(a), w = vm_unwrap(b);
    if (!IS_SET_ANY(v) || !IS_SET_ANY(w))
        return g_NotImplemented;
    int rc;
    switch (op) {
    case CMP_EQ:
    case CMP_NE:
        if (set_used(v) != set_used(w)) {
            rc = 0;
        } else if (is_frozen(v) && is_frozen(w) && SETOBJ(v)->hash != -1 && SETOBJ(w)->hash != -1 &&
                   SETOBJ(v)->hash != SETOBJ(w)->hash) {
            rc = 0;
        } else {
            rc = s_issubset(v, w);
        }
        if (rc >= 0 && op == CMP_NE)
            rc = !rc;
        break;
    case CMP_LE:
        rc = s_issubset(v, w);
        break;
    case CMP_GE:
        rc = s_issuperset(v, w);
        break;
    case CMP_LT:
        rc = set_used(v) >= set_used(w) ? 0 : s_issubset(v, w);
        break;
    default:
        rc = set_used(v) <= set_used(w) ? 0 : s_issuperset(v, w);
        break;
    }
    return rc < 0 ? NULL : vm_bool(rc);
}

static int64_t set_hash_slot(Obj self)
{
    return frozenset_hash(self);
}

static int64_t set_len_slot(Obj self)
{
    return set_used(vm_unwrap(self));
}

static int set_bool_slot(Obj self)
{
    return set_used(vm_unwrap(self)) != 0;
}

static int set_contains_slot(Obj self, Obj key)
{
    return set_contains(self, key);
}

static Obj set_iter_slot(Obj self)
{
    return set_iter_new(self);
}

static Obj set_or(Obj a, Obj b)
{
    if (!is_anyset(a) || !is_anyset(b))
        return g_NotImplemented;
    return set_union2(vm_unwrap(a), vm_unwrap(b));
}

static Obj set_and(Obj a, Obj b)
{
    if (!is_anyset(a) || !is_anyset(b))
        return g_NotImplemented;
    return s_intersection(vm_unwrap(a), vm_unwrap(b));
}

static Obj set_sub(Obj a, Obj b)
{
    if (!is_anyset(a) || !is_anyset(b))
        return g_NotImplemented;
    return s_difference(vm_unwrap(a), vm_unwrap(b));
}

static Obj set_xor(Obj a, Obj b)
{
    if (!is_anyset(a) || !is_anyset(b))
        return g_NotImplemented;
    return s_symmetric_difference(vm_unwrap(a), vm_unwrap(b));
}

/* so takes over tmp's table (intersection_update). */
static void swap_bodies(Obj so, Obj tmp)
{
    s_fold(tmp);   /* the stripes go with the table */
    VM_WRITE(so);
    SETOBJ(so)->table = SETOBJ(tmp)->table;
    SETOBJ(so)->mask = SETOBJ(tmp)->mask;
    SETOBJ(so)->used = SETOBJ(tmp)->used;
    SETOBJ(so)->fill = SETOBJ(tmp)->fill;
}

static Obj set_inplace(Obj a, Obj b, int op)
{
    if (!is_anyset(a) || !is_anyset(b))
        return g_NotImplemented;
    Obj so = vm_unwrap(a);
    if (is_frozen(so)) {
        switch (op) {
        case NB_OR: return set_or(a, b);
        case NB_AND: return set_and(a, b);
        case NB_SUB: return set_sub(a, b);
        default: return set_xor(a, b);
        }
    }
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = so;
    int rc;
    switch (op) {
    case NB_OR:
        rc = s_update(&r[1], b);
        break;
    case NB_AND: {
        Obj tmp = s_intersection(so, b);
        rc = tmp ? 0 : -1;
        if (tmp)
            swap_bodies(vm_unwrap(r[0]), tmp);
        break;
    }
    case NB_SUB:
        rc = s_difference_update(&r[1], b);
        break;
    default:
        rc = s_symmetric_difference_update(&r[1], b);
        break;
    }
    a = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : a;
}

static Obj set_ior(Obj a, Obj b) { return set_inplace(a, b, NB_OR); }
static Obj set_iand(Obj a, Obj b) { return set_inplace(a, b, NB_AND); }
static Obj set_isub(Obj a, Obj b) { return set_inplace(a, b, NB_SUB); }
static Obj set_ixor(Obj a, Obj b) { return set_inplace(a, b, NB_XOR); }

static Obj set_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if ((TypeObj *)type == T_set && kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "set() takes no keyword arguments");
        return NULL;
    }
    return container_wrap_for_type(T_set, type, s_new(false));
}

static int set_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("set", nargs, kwnames, 0, 1) < 0)
        return -1;
    Obj *r = vm_roots(1);   /* s_update's set pointer must be a root slot */
    r[0] = vm_unwrap(self);
    if (set_used(r[0]))
        s_clear(r[0]);
    int rc = nargs ? s_update(&r[0], args[0]) : 0;
    vm_unroots(r);
    return rc;
}

static Obj frozenset_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("frozenset", nargs, kwnames, 0, 1) < 0)
        return NULL;
    if ((TypeObj *)type == T_frozenset && nargs == 1 && IS_SET_ANY(args[0]) && is_frozen(args[0]))
        return args[0];
    Obj fs = frozenset_new(nargs ? args[0] : NULL);
    return container_wrap_for_type(T_frozenset, type, fs);
}

/* ---- methods ---- */

/* Mutating methods are looked up on frozensets too while TYPE() maps every
 * TID_SET object to `set`: refuse them as a missing attribute. */
static bool refuse_frozen(Obj self, const char *name)
{
    if (!is_frozen(vm_unwrap(self)))
        return false;
    err_format(E_AttributeError, "'%s' object has no attribute '%s'",
               IS_SET_ANY(self) ? "frozenset" : type_name(self), name);
    return true;
}

static Obj set_add_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "add"))
        return NULL;
    return set_add(args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj set_clear_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "clear"))
        return NULL;
    set_clear(args[0]);
    return g_None;
}

static Obj set_copy_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (IS_SET_ANY(args[0]) && is_frozen(args[0]))
        return args[0];
    return set_copy(args[0]);
}

static Obj set_discard_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "discard"))
        return NULL;
    return set_discard(args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj set_remove_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "remove"))
        return NULL;
    return set_remove(args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj set_pop_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "pop"))
        return NULL;
    return set_pop(args[0]);
}

static Obj set_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "update"))
        return NULL;
    for (size_t i = 1; i < nargs; i++)
        if (set_update(args[0], args[i]) < 0)
            return NULL;
    return g_None;
}

static Obj set_union_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = set_copy(args[0]);
    for (size_t i = 1; r[0] && i < nargs; i++) {
        if (vm_unwrap(args[i]) == vm_unwrap(args[0]))
            continue;
        if (s_update(&r[0], args[i]) < 0)
            r[0] = NULL;
    }
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj intersection_multi(Obj *args, size_t nargs)
{
    if (nargs == 1)
        return set_copy(args[0]);
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    for (size_t i = 1; r[0] && i < nargs; i++)
        r[0] = s_intersection(r[0], args[i]);
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj set_intersection_m(Obj *args, size_t nargs, Obj kwnames)
{
    return intersection_multi(args, nargs);
}

static Obj set_intersection_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "intersection_update"))
        return NULL;
    Obj tmp = intersection_multi(args, nargs);
    if (!tmp)
        return NULL;
    swap_bodies(vm_unwrap(args[0]), tmp);
    return g_None;
}

static Obj set_difference_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 1)
        return set_copy(args[0]);
    Obj *r = vm_roots(1);
    r[0] = s_difference(vm_unwrap(args[0]), args[1]);
    for (size_t i = 2; r[0] && i < nargs; i++)
        if (s_difference_update(&r[0], args[i]) < 0)
            r[0] = NULL;
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj set_difference_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "difference_update"))
        return NULL;
    for (size_t i = 1; i < nargs; i++)
        if (set_difference_update(args[0], args[i]) < 0)
            return NULL;
    return g_None;
}

static Obj set_symmetric_difference_m(Obj *args, size_t nargs, Obj kwnames)
{
    return s_symmetric_difference(args[0], args[1]);
}

static Obj set_symmetric_difference_update_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (refuse_frozen(args[0], "symmetric_difference_update"))
        return NULL;
    return set_symmetric_difference_update(args[0], args[1]) < 0 ? NULL : g_None;
}

static Obj set_issubset_m(Obj *args, size_t nargs, Obj kwnames)
{
    int rc = s_issubset(args[0], args[1]);
    return rc < 0 ? NULL : vm_bool(rc);
}

static Obj set_issuperset_m(Obj *args, size_t nargs, Obj kwnames)
{
    int rc = s_issuperset(args[0], args[1]);
    return rc < 0 ? NULL : vm_bool(rc);
}

static Obj set_isdisjoint_m(Obj *args, size_t nargs, Obj kwnames)
{
    int rc = s_isdisjoint(args[0], args[1]);
    return rc < 0 ? NULL : vm_bool(rc);
}

#define SHARED_SET_METHODS \
    {"copy", set_copy_m, METH_NOARGS, "Return a shallow copy of a set."}, \
    {"difference", set_difference_m, 0, "Return the difference of two or more sets as a new set."}, \
    {"intersection", set_intersection_m, 0, "Return the intersection of two sets as a new set."}, \
    {"isdisjoint", set_isdisjoint_m, METH_O, "Return True if two sets have a null intersection."}, \
    {"issubset", set_issubset_m, METH_O, "Report whether another set contains this set."}, \
    {"issuperset", set_issuperset_m, METH_O, "Report whether this set contains another set."}, \
    {"symmetric_difference", set_symmetric_difference_m, METH_O, "Return the symmetric difference of two sets as a new set."}, \
    {"union", set_union_m, 0, "Return the union of sets as a new set."},

static const MethodDef set_methods[] = {
    SHARED_SET_METHODS
    {"add", set_add_m, METH_O, "Add an element to a set."},
    {"clear", set_clear_m, METH_NOARGS, "Remove all elements from this set."},
    {"discard", set_discard_m, METH_O, "Remove an element from a set if it is a member."},
    {"remove", set_remove_m, METH_O, "Remove an element from a set; it must be a member."},
    {"pop", set_pop_m, METH_NOARGS, "Remove and return an arbitrary set element."},
    {"update", set_update_m, 0, "Update a set with the union of itself and others."},
    {"intersection_update", set_intersection_update_m, 0, "Update a set with the intersection of itself and another."},
    {"difference_update", set_difference_update_m, 0, "Remove all elements of another set from this set."},
    {"symmetric_difference_update", set_symmetric_difference_update_m, METH_O, "Update a set with the symmetric difference of itself and another."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef frozenset_methods[] = {
    SHARED_SET_METHODS
    {NULL, NULL, 0, NULL},
};

static void set_common_slots(TypeObj *t)
{
    t->tp_repr = set_repr;
    t->tp_richcompare = set_richcompare;
    t->tp_len = set_len_slot;
    t->tp_bool = set_bool_slot;
    t->tp_contains = set_contains_slot;
    t->tp_iter = set_iter_slot;
    t->tp_hash = set_hash_slot;
    t->nb[NB_OR] = set_or;
    t->nb[NB_AND] = set_and;
    t->nb[NB_SUB] = set_sub;
    t->nb[NB_XOR] = set_xor;
}

void set_init_type(void)
{
    ensure_dummy();
    T_set = (TypeObj *)type_new_builtin("set", T_object, TID_SET, TPF_BASETYPE | TPF_MATCH_SELF);
    set_common_slots(T_set);
    T_set->tp_new = set_tp_new;
    T_set->tp_init = set_tp_init;
    T_set->nb_inplace[NB_OR] = set_ior;
    T_set->nb_inplace[NB_AND] = set_iand;
    T_set->nb_inplace[NB_SUB] = set_isub;
    T_set->nb_inplace[NB_XOR] = set_ixor;
    type_add_methods(T_set, set_methods);
    type_ready(T_set);
    type_set_attr_cstr(T_set, "__hash__", g_None);

    T_frozenset = (TypeObj *)type_new_builtin("frozenset", T_object, TID_SET, TPF_BASETYPE | TPF_MATCH_SELF);
    set_common_slots(T_frozenset);
    T_frozenset->tp_new = frozenset_tp_new;
    type_add_methods(T_frozenset, frozenset_methods);
    type_ready(T_frozenset);
    /* both share TID_SET: plain values read their type from the table */
    vm_tid_type[TID_SET] = T_set;

    T_set_iterator = iter_make_type("set_iterator", setiter_next, true);
}
