/* list: ListObj { length, array } where array is an ArrayObj whose length is
 * the capacity. Empty lists share one pinned empty array, so no list ever
 * has a NULL array. Growth is geometric (x1.5), so append is amortised O(1).
 * Slots, methods and the ArrayObj/RawObj allocators live here; sorting is
 * in listsort.c. */
#include "containers.h"
#include "objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_list;
static Obj g_empty_array;   /* pinned, length 0: the storage of every empty list */

Obj array_new(int64_t n)
{
    if (n < 0)
        n = 0;
    Obj a = tm_allocate_var(TID_ARRAY, (uintptr_t)n);
    if (!a)
        return err_nomemory();
    return a;
}

Obj raw_new(int64_t n)
{
    if (n < 0)
        n = 0;
    Obj a = tm_allocate_var(TID_RAW, (uintptr_t)n);
    if (!a)
        return err_nomemory();
    return a;
}

/* Called before any other allocation of a list constructor (so nothing
 * unrooted is live when it allocates). */
static inline bool ensure_empty_array(void)
{
    if (likely(g_empty_array != NULL))
        return true;
    vm_tx_become_inevitable();   /* a C global root is written only by an inevitable transaction */
    if (g_empty_array)           /* made by another thread while we waited to become inevitable */
        return true;
    Obj a = tm_allocate_old(TID_ARRAY, sizeof(struct ArrayObj_));
    if (!a)
        return false;
    g_empty_array = a;
    VM_GLOBAL_ROOT(g_empty_array);
    return true;
}

static inline int64_t list_cap(Obj l)
{
    return ARRAY(LIST(l)->array)->length;
}

Obj list_new_capacity(int64_t cap)
{
    if (!ensure_empty_array())
        return err_nomemory();
    Obj arr = g_empty_array;
    if (cap > 0) {
        arr = array_new(cap);
        if (!arr)
            return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = arr;
    Obj l = tm_allocate(TID_LIST, sizeof(struct ListObj_));
    arr = r[0];
    vm_unroots(r);
    if (!l)
        return err_nomemory();
    LIST(l)->array = arr;
    LIST(l)->length = 0;
    return l;
}

Obj list_new(int64_t n)
{
    Obj l = list_new_capacity(n);
    if (!l)
        return NULL;
    if (n > 0) {
        Obj arr = LIST(l)->array;
        VM_WRITE(arr);
        for (int64_t i = 0; i < n; i++)
            ARRAY(arr)->items[i] = g_None;
        VM_WRITE(l);
        LIST(l)->length = n;
    }
    return l;
}

Obj list_from_array(Obj *items, int64_t n)
{
    Obj l = list_new_capacity(n);
    if (!l)
        return NULL;
    if (n > 0) {
        Obj arr = LIST(l)->array;
        VM_WRITE(arr);
        for (int64_t i = 0; i < n; i++)
            ARRAY(arr)->items[i] = items[i];
        VM_WRITE(l);
        LIST(l)->length = n;
    }
    return l;
}

/* Replace the storage by one of capacity `cap` (>= length). */
static int list_realloc(Obj *lp, int64_t cap)
{
    VM_WRITE_TO_GROW(*lp, cap);
    Obj arr = array_new(cap);
    if (!arr)
        return -1;
    Obj l = *lp;
    Obj old = LIST(l)->array;
    VM_READ(old);
    int64_t n = LIST(l)->length;
    if (n)
        memcpy(VM_LINEAR(ARRAY(arr)->items), VM_LINEAR(ARRAY(old)->items), (size_t)n * sizeof(Obj));
    VM_WRITE(l);
    LIST(l)->array = arr;
    return 0;
}

/* x1.5 for small lists; x2 once the storage is a large object (its pages
 * come fresh from the kernel, so fewer, bigger steps cost less). */
static int64_t grow_capacity(int64_t need)
{
    if (need > INT64_MAX / 16)
        return -1;
    if (need > 8192)
        return need * 2;
    return need + (need >> 1) + 4;
}

static int list_reserve(Obj list, int64_t n)
{
    if (n <= list_cap(list))
        return 0;
    Obj *r = vm_roots(1);
    r[0] = list;
    int rc = list_realloc(&r[0], n);
    vm_unroots(r);
    return rc;
}

/* Make room for `extra` more items: capacity >= length + extra. */
static int list_make_room(Obj *lp, int64_t extra)
{
    int64_t need = LIST(*lp)->length + extra;
    if (need <= list_cap(*lp))
        return 0;
    int64_t cap = grow_capacity(need);
    if (cap < 0) {
        err_nomemory();
        return -1;
    }
    return list_realloc(lp, cap);
}

static __attribute__((noinline)) int list_append_slow(Obj l, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = l;
    r[1] = v;
    int rc = list_make_room(&r[0], 1);
    if (rc == 0) {
        l = r[0];
        Obj arr = LIST(l)->array;
        int64_t n = LIST(l)->length;
        VM_WRITE_ITEM(arr, n);
        ARRAY(arr)->items[n] = r[1];
        VM_WRITE(l);
        LIST(l)->length = n + 1;
    }
    vm_unroots(r);
    return rc;
}

int list_append(Obj l, Obj v)
{
    VM_READ(l);
    Obj arr = LIST(l)->array;
    int64_t n = LIST(l)->length;
    if (likely(n < ARRAY(arr)->length)) {
        VM_WRITE_ITEM(arr, n);
        ARRAY(arr)->items[n] = v;
#ifndef TMPY_TEST_DROP_WRITE_BARRIER   /* tests/test_barrier_check.py: a barrier it must catch missing */
        VM_WRITE(l);
#endif
        LIST(l)->length = n + 1;
        return 0;
    }
    return list_append_slow(l, v);
}

/* ---- building from iterables ---- */

/* CPython's PyObject_LengthHint of the object in root slot *op: len() if
 * it has one, else type(o).__length_hint__(o), else dflt (a TypeError from
 * either, or NotImplemented, also gives dflt). -1 with an exception. */
static int64_t length_hint(Obj *op, int64_t dflt)
{
    if (TYPE(*op)->tp_len) {
        int64_t n = vm_len(*op);
        if (n >= 0)
            return n;
        if (!err_matches(E_TypeError))
            return -1;
        err_clear();
    }
    Obj f = vm_lookup_special(*op, "__length_hint__");
    if (!f)
        return err_occurred() ? -1 : dflt;
    Obj v = vm_call_unbound(f, *op, NULL, 0);
    if (!v) {
        if (!err_matches(E_TypeError))
            return -1;
        err_clear();
        return dflt;
    }
    if (v == g_NotImplemented)
        return dflt;
    if (!IS_INT(v)) {
        err_format(E_TypeError, "__length_hint__ must be an integer, not %s", type_name(v));
        return -1;
    }
    int64_t n;
    if (int_as_i64(v, &n) < 0) {
        err_clear();
        err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
        return -1;
    }
    if (n < 0) {
        err_set(E_ValueError, "__length_hint__() should return >= 0");
        return -1;
    }
    return n;
}

int list_extend(Obj list, Obj iterable)
{
    Obj *r = vm_roots(3);
    r[0] = list;
    r[1] = iterable;
    /* Exact lists and tuples only: a subclass may override __iter__. */
    Obj src = iterable;
    if (IS_LIST(src) || IS_TUPLE(src)) {
        int64_t m = IS_LIST(src) ? LIST_LEN(src) : TUPLE_LEN(src);
        if (list_make_room(&r[0], m) < 0) {
            vm_unroots(r);
            return -1;
        }
        Obj l = r[0];
        src = r[1];
        Obj arr = LIST(l)->array;
        int64_t n = LIST(l)->length;
        Obj __seg_gs *from = IS_LIST(src) ? LIST_ITEMS(src) : TUPLE_ITEMS(src);
        VM_WRITE(arr);
        memcpy(VM_LINEAR(ARRAY(arr)->items + n), VM_LINEAR(from), (size_t)m * sizeof(Obj));
        VM_WRITE(l);
        LIST(l)->length = n + m;
        vm_unroots(r);
        return 0;
    }
    Obj it = vm_iter(r[1]);
    if (!it) {
        vm_unroots(r);
        return -1;
    }
    r[2] = it;
    /* room for the expected items at once, as CPython: a length that could
     * never fit is a MemoryError before any item is taken */
    int64_t hint = length_hint(&r[1], 8);
    if (hint < 0 || (hint > 0 && ((uint64_t)hint > vm_max_object_size() / sizeof(Obj) ?
                                  (err_nomemory(), -1) : list_make_room(&r[0], hint)) < 0)) {
        vm_unroots(r);
        return -1;
    }
    for (;;) {
        Obj v = vm_next(r[2]);
        if (!v)
            break;
        if (list_append(r[0], v) < 0) {
            vm_unroots(r);
            return -1;
        }
    }
    vm_unroots(r);
    return err_occurred() ? -1 : 0;
}

Obj list_from_iterable(Obj iterable)
{
    Obj *r = vm_roots(2);
    r[0] = iterable;
    r[1] = list_new_capacity(0);
    Obj res = NULL;
    if (r[1] && list_extend(r[1], r[0]) == 0)
        res = r[1];
    vm_unroots(r);
    return res;
}

Obj list_as_tuple(Obj list)
{
    list = vm_unwrap(list);
    int64_t n = LIST_LEN(list);
    Obj *r = vm_roots(1);
    r[0] = list;
    Obj t = tuple_new(n);
    list = r[0];
    vm_unroots(r);
    if (!t)
        return NULL;
    n = n < LIST_LEN(list) ? n : LIST_LEN(list);
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(t)[i] = LIST_ITEMS(list)[i];
    return t;
}

/* ---- basic mutations ---- */

int list_insert(Obj list, int64_t i, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = list;
    r[1] = v;
    if (list_make_room(&r[0], 1) < 0) {
        vm_unroots(r);
        return -1;
    }
    Obj l = r[0];
    int64_t n = LIST(l)->length;
    if (i < 0) {
        i += n;
        if (i < 0)
            i = 0;
    }
    if (i > n)
        i = n;
    Obj arr = LIST(l)->array;
    VM_WRITE(arr);
    Obj __seg_gs *items = ARRAY(arr)->items;
    if (n > i)
        memmove(VM_LINEAR(items + i + 1), VM_LINEAR(items + i), (size_t)(n - i) * sizeof(Obj));
    items[i] = r[1];
    VM_WRITE(l);
    LIST(l)->length = n + 1;
    vm_unroots(r);
    return 0;
}

/* Remove the items [lo, hi) (0 <= lo <= hi <= length). */
static void list_remove_range(Obj l, int64_t lo, int64_t hi)
{
    int64_t n = LIST(l)->length;
    if (hi <= lo)
        return;
    Obj arr = LIST(l)->array;
    VM_WRITE(arr);
    Obj __seg_gs *items = ARRAY(arr)->items;
    if (n > hi)
        memmove(VM_LINEAR(items + lo), VM_LINEAR(items + hi), (size_t)(n - hi) * sizeof(Obj));
    int64_t nn = n - (hi - lo);
    for (int64_t k = nn; k < n; k++)
        items[k] = NULL;   /* let the GC free what was there */
    VM_WRITE(l);
    LIST(l)->length = nn;
}

Obj list_pop(Obj list, int64_t i)
{
    list = vm_unwrap(list);
    int64_t n = LIST_LEN(list);
    if (n == 0) {
        err_set(E_IndexError, "pop from empty list");
        return NULL;
    }
    if (i < 0)
        i += n;
    if ((uint64_t)i >= (uint64_t)n) {
        err_set(E_IndexError, "pop index out of range");
        return NULL;
    }
    Obj v = LIST_ITEMS(list)[i];
    list_remove_range(list, i, i + 1);
    return v;
}

void list_clear(Obj list)
{
    list = vm_unwrap(list);
    /* nothing to free: a no-op, as CPython's (list.sort sees no change) */
    if (LIST(list)->length == 0 && ARRAY(LIST(list)->array)->length == 0)
        return;
    VM_WRITE(list);
    LIST(list)->array = g_empty_array;
    LIST(list)->length = 0;
}

static void list_reverse(Obj list)
{
    list = vm_unwrap(list);
    int64_t n = LIST_LEN(list);
    if (n < 2)
        return;
    Obj arr = LIST(list)->array;
    VM_WRITE(arr);
    Obj __seg_gs *items = ARRAY(arr)->items;
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        Obj t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

static Obj list_getslice(Obj list, int64_t lo, int64_t hi)
{
    int64_t n = LIST_LEN(list);
    if (lo < 0)
        lo = 0;
    if (hi > n)
        hi = n;
    if (hi < lo)
        hi = lo;
    Obj *r = vm_roots(1);
    r[0] = list;
    Obj res = list_new_capacity(hi - lo);
    list = r[0];
    vm_unroots(r);
    if (!res)
        return NULL;
    if (hi > lo) {
        memcpy(VM_LINEAR(LIST_ITEMS(res)), VM_LINEAR(LIST_ITEMS(list) + lo), (size_t)(hi - lo) * sizeof(Obj));
        LIST(res)->length = hi - lo;
    }
    return res;
}

Obj list_copy(Obj list)
{
    list = vm_unwrap(list);
    return list_getslice(list, 0, LIST_LEN(list));
}

/* ---- sequence slots ---- */

/* Items of `v` as a vector: a list or tuple (a copy when it is `l` itself),
 * else list(v). NULL + TypeError(msg) if v is not iterable. */
static Obj seq_fast(Obj l, Obj v, const char *msg)
{
    Obj u = vm_unwrap(v);
    if (u == l)
        return list_getslice(l, 0, LIST_LEN(l));
    if (IS_LIST(u) || IS_TUPLE(u))
        return u;
    Obj it = vm_iter(v);
    if (!it) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_set(E_TypeError, msg);
        }
        return NULL;
    }
    return list_from_iterable(it);
}

/* l[lo:hi] = v (v NULL: delete). */
static int list_ass_slice(Obj l, int64_t lo, int64_t hi, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = l;
    if (v) {
        r[1] = seq_fast(l, v, "can only assign an iterable");
        if (!r[1]) {
            vm_unroots(r);
            return -1;
        }
    }
    l = r[0];
    int64_t n = LIST(l)->length;
    if (lo < 0)
        lo = 0;
    else if (lo > n)
        lo = n;
    if (hi < lo)
        hi = lo;
    else if (hi > n)
        hi = n;
    int64_t m = r[1] ? seq_len(r[1]) : 0;
    int64_t d = m - (hi - lo);
    if (d > 0 && list_make_room(&r[0], d) < 0) {
        vm_unroots(r);
        return -1;
    }
    l = r[0];
    if (d < 0) {
        list_remove_range(l, lo + m, hi);
    } else if (d > 0) {
        Obj arr = LIST(l)->array;
        VM_WRITE(arr);
        Obj __seg_gs *items = ARRAY(arr)->items;
        memmove(VM_LINEAR(items + hi + d), VM_LINEAR(items + hi), (size_t)(n - hi) * sizeof(Obj));
        VM_WRITE(l);
        LIST(l)->length = n + d;
    }
    if (m) {
        Obj arr = LIST(l)->array;
        VM_WRITE(arr);
        memcpy(VM_LINEAR(ARRAY(arr)->items + lo), VM_LINEAR(seq_items(r[1])), (size_t)m * sizeof(Obj));
    }
    vm_unroots(r);
    return 0;
}

static int list_ass_subscript_slice(Obj l, Obj slice, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = l;
    r[1] = v;
    int64_t start, stop, step;
    if (slice_unpack(slice, &start, &stop, &step) < 0) {
        vm_unroots(r);
        return -1;
    }
    int64_t slen = slice_adjust(LIST_LEN(r[0]), &start, &stop, step);   /* the length after __index__ ran */
    if (step == 1) {
        int rc = list_ass_slice(r[0], start, stop, r[1]);
        vm_unroots(r);
        return rc;
    }
    if (!r[1]) {
        /* del l[a:b:step] */
        if (slen > 0) {
            if (step < 0) {
                start = start + step * (slen - 1);
                step = -step;
            }
            l = r[0];
            Obj arr = LIST(l)->array;
            VM_WRITE(arr);
            Obj __seg_gs *items = ARRAY(arr)->items;
            int64_t n = LIST(l)->length;
            int64_t w = start, k = 0;
            for (int64_t i = start; i < n; i++) {
                if (k < slen && i == start + k * step) {
                    k++;
                    continue;
                }
                items[w++] = items[i];
            }
            for (int64_t i = w; i < n; i++)
                items[i] = NULL;
            VM_WRITE(l);
            LIST(l)->length = w;
        }
        vm_unroots(r);
        return 0;
    }
    Obj seq = seq_fast(r[0], r[1], "must assign iterable to extended slice");
    if (!seq) {
        vm_unroots(r);
        return -1;
    }
    r[1] = seq;
    if (seq_len(seq) != slen) {
        err_format(E_ValueError, "attempt to assign sequence of size %ld to extended slice of size %ld",
                   (long)seq_len(seq), (long)slen);
        vm_unroots(r);
        return -1;
    }
    l = r[0];
    /* the list may have shrunk while list(v) ran user code */
    if (slen && (start + (slen - 1) * step >= LIST(l)->length || start >= LIST(l)->length)) {
        vm_unroots(r);
        return 0;
    }
    Obj arr = LIST(l)->array;
    VM_WRITE(arr);
    for (int64_t k = 0, i = start; k < slen; k++, i += step)
        ARRAY(arr)->items[i] = seq_items(seq)[k];
    vm_unroots(r);
    return 0;
}

static Obj list_getitem(Obj self, Obj key)
{
    Obj l = vm_unwrap(self);
    int64_t i;
    if (IS_SMALLINT(key)) {
        i = SMALLINT_VAL(key);
    } else if (TID(key) == TID_SLICE) {
        int64_t start, stop, step;
        Obj *r = vm_roots(1);
        r[0] = l;
        if (slice_unpack(key, &start, &stop, &step) < 0) {
            vm_unroots(r);
            return NULL;
        }
        int64_t n = slice_adjust(LIST_LEN(r[0]), &start, &stop, step);   /* the length after __index__ ran */
        if (step == 1) {
            Obj res = list_getslice(r[0], start, stop);
            vm_unroots(r);
            return res;
        }
        Obj res = list_new_capacity(n);
        l = r[0];
        vm_unroots(r);
        if (!res)
            return NULL;
        for (int64_t k = 0, j = start; k < n; k++, j += step)
            LIST_ITEMS(res)[k] = LIST_ITEMS(l)[j];
        LIST(res)->length = n;
        return res;
    } else {
        Obj *r = vm_roots(1);
        r[0] = l;
        int rc = seq_index_arg(key, &i);
        l = r[0];
        vm_unroots(r);
        if (rc < 0)
            return NULL;
        if (rc == 0) {
            err_format(E_TypeError, "list indices must be integers or slices, not %s", type_name(key));
            return NULL;
        }
    }
    VM_READ(l);
    int64_t n = LIST_LEN(l);
    if (i < 0)
        i += n;
    if ((uint64_t)i >= (uint64_t)n) {
        err_set(E_IndexError, "list index out of range");
        return NULL;
    }
    VM_READ(LIST(l)->array);
    return LIST_ITEMS(l)[i];
}

int list_setitem(Obj self, Obj key, Obj v)
{
    Obj l = vm_unwrap(self);
    int64_t i;
    if (IS_SMALLINT(key)) {
        i = SMALLINT_VAL(key);
    } else if (TID(key) == TID_SLICE) {
        return list_ass_subscript_slice(l, key, v);
    } else {
        Obj *r = vm_roots(2);
        r[0] = l;
        r[1] = v;
        int rc = seq_index_arg(key, &i);
        l = r[0];
        v = r[1];
        vm_unroots(r);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            err_format(E_TypeError, "list indices must be integers or slices, not %s", type_name(key));
            return -1;
        }
    }
    int64_t n = LIST_LEN(l);
    if (i < 0)
        i += n;
    if ((uint64_t)i >= (uint64_t)n) {
        err_set(E_IndexError, "list assignment index out of range");
        return -1;
    }
    if (v) {
        Obj arr = LIST(l)->array;
        VM_WRITE_ITEM(arr, i);
        ARRAY(arr)->items[i] = v;
    } else {
        list_remove_range(l, i, i + 1);
    }
    return 0;
}

static Obj list_iter(Obj self)
{
    return list_iter_new(vm_unwrap(self));
}

static Obj list_add(Obj a, Obj b)
{
    Obj ua = vm_unwrap(a), ub = vm_unwrap(b);
    if (!IS_LIST(ua))
        return g_NotImplemented;
    if (!IS_LIST(ub)) {
        TypeObj *tb = TYPE(b);   /* types never move */
        if (seq_reflected_may_handle(b, "__radd__"))
            return g_NotImplemented;
        err_format(E_TypeError, "can only concatenate list (not \"%s\") to list", type_name_of_type(tb));
        return NULL;
    }
    int64_t la = LIST_LEN(ua), lb = LIST_LEN(ub);
    Obj *r = vm_roots(2);
    r[0] = ua;
    r[1] = ub;
    Obj res = list_new_capacity(la + lb);
    if (res) {
        if (la)
            memcpy(VM_LINEAR(LIST_ITEMS(res)), VM_LINEAR(LIST_ITEMS(r[0])), (size_t)la * sizeof(Obj));
        if (lb)
            memcpy(VM_LINEAR(LIST_ITEMS(res) + la), VM_LINEAR(LIST_ITEMS(r[1])), (size_t)lb * sizeof(Obj));
        LIST(res)->length = la + lb;
    }
    vm_unroots(r);
    return res;
}

static Obj list_iadd(Obj a, Obj b)
{
    if (!IS_LIST(vm_unwrap(a)))
        return g_NotImplemented;
    Obj *r = vm_roots(1);
    r[0] = a;
    int rc = list_extend(vm_unwrap(a), b);
    a = r[0];
    vm_unroots(r);
    return rc < 0 ? NULL : a;
}

static Obj list_mul(Obj a, Obj b)
{
    bool seq_is_a = IS_LIST(vm_unwrap(a));
    Obj l = vm_unwrap(seq_is_a ? a : b);
    if (!IS_LIST(l))
        return g_NotImplemented;
    Obj *r = vm_roots(1);
    r[0] = l;
    int64_t n;
    int rc = seq_repeat_count(a, b, seq_is_a, &n);
    if (rc <= 0) {
        vm_unroots(r);
        return rc == 0 ? g_NotImplemented : NULL;
    }
    int64_t len = LIST_LEN(r[0]);
    if (n < 0)
        n = 0;
    if (len && n > INT64_MAX / 8 / len) {
        vm_unroots(r);
        return err_nomemory();
    }
    Obj res = list_new_capacity(len * n);
    if (res) {
        l = r[0];
        len = len < LIST_LEN(l) ? len : LIST_LEN(l);
        for (int64_t k = 0; k < n; k++)
            if (len)
                memcpy(VM_LINEAR(LIST_ITEMS(res) + k * len), VM_LINEAR(LIST_ITEMS(l)), (size_t)len * sizeof(Obj));
        LIST(res)->length = len * n;
    }
    vm_unroots(r);
    return res;
}

static Obj list_imul(Obj a, Obj b)
{
    if (!IS_LIST(vm_unwrap(a)))
        return g_NotImplemented;
    Obj *r = vm_roots(1);
    r[0] = a;
    int64_t n;
    int rc = seq_repeat_count(a, b, true, &n);
    if (rc <= 0) {
        vm_unroots(r);
        return rc == 0 ? g_NotImplemented : NULL;
    }
    Obj l = vm_unwrap(r[0]);
    int64_t len = LIST_LEN(l);
    if (n <= 0 || len == 0) {
        list_clear(l);
    } else if (n > 1) {
        if (n > INT64_MAX / 8 / len) {
            vm_unroots(r);
            return err_nomemory();
        }
        if (list_reserve(l, len * n) < 0) {
            vm_unroots(r);
            return NULL;
        }
        l = vm_unwrap(r[0]);
        Obj arr = LIST(l)->array;
        VM_WRITE(arr);
        for (int64_t k = 1; k < n; k++)
            memcpy(VM_LINEAR(ARRAY(arr)->items + k * len), VM_LINEAR(ARRAY(arr)->items), (size_t)len * sizeof(Obj));
        VM_WRITE(l);
        LIST(l)->length = len * n;
    }
    a = r[0];
    vm_unroots(r);
    return a;
}

static int64_t list_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj list_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return container_wrap_for_type(T_list, type, list_new_capacity(0));
}

static int list_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("list", nargs, kwnames, 0, 1) < 0)
        return -1;
    Obj l = vm_unwrap(self);
    if (LIST_LEN(l))
        list_clear(l);
    if (nargs == 0)
        return 0;
    return list_extend(l, args[0]);
}

/* ---- methods ---- */


static Obj list_append_m(Obj *args, size_t nargs, Obj kwnames)
{
#if TM_STM
    if (list_append_shared(vm_unwrap(args[0]), args[1]) < 0)
#else
    if (list_append(vm_unwrap(args[0]), args[1]) < 0)
#endif
        return NULL;
    return g_None;
}

static Obj list_extend_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (list_extend(vm_unwrap(args[0]), args[1]) < 0)
        return NULL;
    return g_None;
}

static Obj list_insert_m(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i;
    if (arg_ssize(args[1], &i) < 0)
        return NULL;
    if (list_insert(vm_unwrap(args[0]), i, args[2]) < 0)
        return NULL;
    return g_None;
}

static Obj list_pop_m(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t i = -1;
    if (nargs > 1 && arg_ssize(args[1], &i) < 0)
        return NULL;
    return list_pop(vm_unwrap(args[0]), i);
}

static Obj list_remove_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = vm_unwrap(args[0]);
    r[1] = args[1];
    int64_t i = seq_find(&r[0], &r[1], 0, INT64_MAX);
    if (i >= 0 && i < LIST_LEN(r[0]))
        list_remove_range(r[0], i, i + 1);
    vm_unroots(r);
    if (i == -2)
        return NULL;
    if (i == -1) {
        err_set(E_ValueError, "list.remove(x): x not in list");
        return NULL;
    }
    return g_None;
}

static Obj list_reverse_m(Obj *args, size_t nargs, Obj kwnames)
{
    list_reverse(args[0]);
    return g_None;
}

static Obj list_copy_m(Obj *args, size_t nargs, Obj kwnames)
{
    return list_copy(args[0]);
}

static Obj list_clear_m(Obj *args, size_t nargs, Obj kwnames)
{
    list_clear(args[0]);
    return g_None;
}

static Obj list_sort_m(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs > 1) {
        err_set(E_TypeError, "sort() takes no positional arguments");
        return NULL;
    }
    Obj key = g_None;
    int64_t reverse = 0;
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    for (int64_t k = 0; k < nkw; k++) {
        Obj name = TUPLE_ITEMS(kwnames)[k];
        Obj val = args[nargs + k];
        if (str_eq_cstr(name, "key")) {
            key = val;
        } else if (str_eq_cstr(name, "reverse")) {
            if (arg_ssize(val, &reverse) < 0)
                return NULL;
        } else {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for sort()", str_cstr(name));
            return NULL;
        }
    }
    if (list_sort(vm_unwrap(args[0]), key == g_None ? NULL : key, reverse != 0) < 0)
        return NULL;
    return g_None;
}

static Obj list_reversed_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj l = vm_unwrap(args[0]);
    Obj it = iter_alloc(T_list_reverseiterator, l, ITK_LIST_REV);
    if (it)
        ITER(it)->i = LIST_LEN(ITER(it)->a) - 1;
    return it;
}

static const MethodDef list_methods[] = {
    {"append", list_append_m, METH_O, "Append object to the end of the list."},
    {"extend", list_extend_m, METH_O, "Extend list by appending elements from the iterable."},
    {"insert", list_insert_m, METH_ARGS(2, 2), "Insert object before index."},
    {"pop", list_pop_m, METH_ARGS(0, 1), "Remove and return item at index (default last)."},
    {"remove", list_remove_m, METH_O, "Remove first occurrence of value."},
    {"index", seq_index_method, METH_ARGS(1, 3), "Return first index of value."},
    {"count", seq_count_method, METH_O, "Return number of occurrences of value."},
    {"reverse", list_reverse_m, METH_NOARGS, "Reverse *IN PLACE*."},
    {"sort", list_sort_m, METH_KW, "Sort the list in ascending order and return None."},
    {"copy", list_copy_m, METH_NOARGS, "Return a shallow copy of the list."},
    {"clear", list_clear_m, METH_NOARGS, "Remove all items from list."},
    {"__reversed__", list_reversed_m, METH_NOARGS, "Return a reverse iterator over the list."},
    {NULL, NULL, 0, NULL},
};

void list_init_type(void)
{
    ensure_empty_array();
    T_list = (TypeObj *)type_new_builtin("list", T_object, TID_LIST, TPF_BASETYPE | TPF_SEQUENCE | TPF_MATCH_SELF);
    TypeObj *t = T_list;
    t->tp_repr = seq_repr;
    t->tp_hash = list_unhashable;
    t->tp_richcompare = seq_compare;
    t->tp_len = seq_len_slot;
    t->tp_getitem = list_getitem;
    t->tp_setitem = list_setitem;
    t->tp_contains = seq_contains_slot;
    t->tp_iter = list_iter;
    t->tp_bool = seq_bool_slot;
    t->tp_new = list_tp_new;
    t->tp_init = list_tp_init;
    t->nb[NB_ADD] = list_add;
    t->nb[NB_MUL] = list_mul;
    t->nb_inplace[NB_ADD] = list_iadd;
    t->nb_inplace[NB_MUL] = list_imul;
    type_add_methods(t, list_methods);
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);

    T_list_iterator = iter_make_type("list_iterator", list_iter_next, true);
    T_list_reverseiterator = iter_make_type("list_reverseiterator", list_reviter_next, true);
    seqiter_add_pickling(T_list_iterator);
    seqiter_add_pickling(T_list_reverseiterator);
}
