/* tuple: an immutable array of references (TupleObj). The hash follows
 * CPython 3.11's xxHash-based tuple hash, so sets of tuples iterate in
 * CPython's order. TupleObj.hash caches it (0: not cached) when every item
 * is of an immutable built-in type. */
#include "objects.h"
#include "containers.h"

#include <string.h>

TypeObj *T_tuple;

Obj tuple_new(int64_t n)
{
    if (n == 0 && g_empty_tuple)
        return g_empty_tuple;
    if (n < 0) {
        err_set(E_SystemError, "negative tuple size");
        return NULL;
    }
    Obj t = tm_allocate_var(TID_TUPLE, (uintptr_t)n);
    if (!t)
        return err_nomemory();
    return t;
}

Obj tuple_pack(int n, ...)
{
    Obj *r = vm_roots(n);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        r[i] = va_arg(ap, Obj);
    va_end(ap);
    Obj t = tuple_from_array(r, n);
    vm_unroots(r);
    return t;
}

Obj tuple_from_array(Obj *items, int64_t n)
{
    Obj t = tuple_new(n);
    if (!t)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(t)[i] = items[i];
    return t;
}

/* ---- hash ---- */

#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL
#define XXROTATE(x) (((x) << 31) | ((x) >> 33))

/* Items whose hash can never change: the tuple's hash may be cached. */
static bool hash_is_stable(Obj v)
{
    if (IS_SMALLINT(v))
        return true;
    switch (v->h.tid) {
    case TID_STR: case TID_BIGINT: case TID_FLOAT: case TID_BOOL: case TID_NONETYPE: case TID_BYTES:
        return true;
    case TID_TUPLE:
        return TUPLE(v)->hash != 0;
    default:
        return false;
    }
}

static int64_t tuple_hash(Obj t)
{
    t = vm_unwrap(t);
    int64_t cached = TUPLE(t)->hash;
    if (cached)
        return cached;
    Obj *r = vm_roots(1);
    r[0] = t;
    uint64_t acc = XXPRIME_5;
    int64_t n = TUPLE_LEN(t);
    bool stable = true;
    for (int64_t i = 0; i < n; i++) {
        Obj item = TUPLE_ITEMS(r[0])[i];
        int64_t h;
        if (IS_SMALLINT(item) || item->h.tid == TID_STR) {
            h = container_hash(item);
        } else {
            if (vm_enter_recursive(" while hashing a tuple") < 0) {
                vm_unroots(r);
                return -1;
            }
            h = vm_hash(item);
            vm_leave_recursive();
            if (h == -1) {
                vm_unroots(r);
                return -1;
            }
            item = TUPLE_ITEMS(r[0])[i];
            stable = stable && hash_is_stable(item);
        }
        acc += (uint64_t)h * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    acc += (uint64_t)n ^ (XXPRIME_5 ^ 3527539ULL);
    if (acc == (uint64_t)-1)
        acc = 1546275796;
    t = r[0];
    vm_unroots(r);
    if (stable && acc != 0)
        vm_cache_store(&TUPLE(t)->hash, (int64_t)acc);
    return (int64_t)acc;
}

/* ---- sequence ---- */

static Obj tuple_getslice(Obj t, int64_t lo, int64_t hi)
{
    int64_t n = TUPLE_LEN(t);
    if (lo < 0)
        lo = 0;
    if (hi > n)
        hi = n;
    if (hi <= lo)
        return tuple_new(0);
    if (lo == 0 && hi == n && IS_TUPLE(t))
        return t;
    Obj *r = vm_roots(1);
    r[0] = t;
    Obj res = tuple_new(hi - lo);
    t = r[0];
    vm_unroots(r);
    if (!res)
        return NULL;
    for (int64_t i = lo; i < hi; i++)
        TUPLE_ITEMS(res)[i - lo] = TUPLE_ITEMS(t)[i];
    return res;
}

static Obj tuple_getitem(Obj self, Obj key)
{
    Obj t = vm_unwrap(self);
    int64_t i;
    if (IS_SMALLINT(key)) {
        i = SMALLINT_VAL(key);
    } else if (TID(key) == TID_SLICE) {
        int64_t start, stop, step;
        Obj *r = vm_roots(1);
        r[0] = t;
        int64_t n = slice_indices(key, TUPLE_LEN(t), &start, &stop, &step);
        if (n < 0) {
            vm_unroots(r);
            return NULL;
        }
        if (step == 1) {
            Obj res = tuple_getslice(r[0], start, stop);
            vm_unroots(r);
            return res;
        }
        Obj res = tuple_new(n);
        t = r[0];
        vm_unroots(r);
        if (!res)
            return NULL;
        for (int64_t k = 0, j = start; k < n; k++, j += step)
            TUPLE_ITEMS(res)[k] = TUPLE_ITEMS(t)[j];
        return res;
    } else {
        Obj *r = vm_roots(1);
        r[0] = t;
        int rc = seq_index_arg(key, &i);
        t = r[0];
        vm_unroots(r);
        if (rc < 0)
            return NULL;
        if (rc == 0) {
            err_format(E_TypeError, "tuple indices must be integers or slices, not %s", type_name(key));
            return NULL;
        }
    }
    int64_t n = TUPLE_LEN(t);
    if (i < 0)
        i += n;
    if ((uint64_t)i >= (uint64_t)n) {
        err_set(E_IndexError, "tuple index out of range");
        return NULL;
    }
    return TUPLE_ITEMS(t)[i];
}

static Obj tuple_iter(Obj self)
{
    return tuple_iter_new(vm_unwrap(self));
}

static Obj tuple_concat(Obj a, Obj b)
{
    int64_t la = TUPLE_LEN(a), lb = TUPLE_LEN(b);
    if (lb == 0 && IS_TUPLE(a))
        return a;
    if (la == 0 && IS_TUPLE(b))
        return b;
    Obj *r = vm_roots(2);
    r[0] = a;
    r[1] = b;
    Obj t = tuple_new(la + lb);
    if (t) {
        for (int64_t i = 0; i < la; i++)
            TUPLE_ITEMS(t)[i] = TUPLE_ITEMS(r[0])[i];
        for (int64_t i = 0; i < lb; i++)
            TUPLE_ITEMS(t)[la + i] = TUPLE_ITEMS(r[1])[i];
    }
    vm_unroots(r);
    return t;
}

static Obj tuple_add(Obj a, Obj b)
{
    Obj ua = vm_unwrap(a), ub = vm_unwrap(b);
    if (!IS_TUPLE(ua))
        return g_NotImplemented;
    if (!IS_TUPLE(ub)) {
        TypeObj *tb = TYPE(b);   /* types never move */
        if (seq_reflected_may_handle(b, "__radd__"))
            return g_NotImplemented;
        err_format(E_TypeError, "can only concatenate tuple (not \"%s\") to tuple", type_name_of_type(tb));
        return NULL;
    }
    return tuple_concat(ua, ub);
}

static Obj tuple_mul(Obj a, Obj b)
{
    bool seq_is_a = IS_TUPLE(vm_unwrap(a));
    Obj t = vm_unwrap(seq_is_a ? a : b);
    if (!IS_TUPLE(t))
        return g_NotImplemented;
    Obj *r = vm_roots(1);
    r[0] = t;
    int64_t n;
    int rc = seq_repeat_count(a, b, seq_is_a, &n);
    t = r[0];
    vm_unroots(r);
    if (rc <= 0)
        return rc == 0 ? g_NotImplemented : NULL;
    int64_t len = TUPLE_LEN(t);
    if (n <= 0 || len == 0)
        return tuple_new(0);
    if (n == 1 && IS_TUPLE(t))
        return t;
    if (len > INT64_MAX / 8 / n)
        return err_nomemory();
    r = vm_roots(1);
    r[0] = t;
    Obj res = tuple_new(len * n);
    t = r[0];
    vm_unroots(r);
    if (!res)
        return NULL;
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < len; i++)
            TUPLE_ITEMS(res)[k * len + i] = TUPLE_ITEMS(t)[i];
    return res;
}

/* tuple(iterable) as an exact tuple. */
static Obj tuple_from_iterable(Obj it)
{
    Obj u = vm_unwrap(it);
    if (IS_TUPLE(u))
        return u;
    if (IS_LIST(u))
        return list_as_tuple(u);
    Obj l = list_from_iterable(it);
    if (!l)
        return NULL;
    return list_as_tuple(l);
}

static Obj tuple_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("tuple", nargs, kwnames, 0, 1) < 0)
        return NULL;
    Obj t = nargs ? tuple_from_iterable(args[0]) : tuple_new(0);
    return container_wrap_for_type(T_tuple, type, t);
}

/* ---- methods ---- */

static Obj tuple_getnewargs_m(Obj *args, size_t nargs, Obj kwnames)
{
    Obj t = tuple_getslice(vm_unwrap(args[0]), 0, INT64_MAX);
    if (!t)
        return NULL;
    return tuple_pack(1, t);
}

static const MethodDef tuple_methods[] = {
    {"index", seq_index_method, METH_ARGS(1, 3), "Return first index of value."},
    {"count", seq_count_method, METH_O, "Return number of occurrences of value."},
    {"__getnewargs__", tuple_getnewargs_m, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

void tuple_init_type(void)
{
    T_tuple = (TypeObj *)type_new_builtin("tuple", T_object, TID_TUPLE, TPF_BASETYPE | TPF_SEQUENCE | TPF_MATCH_SELF);
    TypeObj *t = T_tuple;
    t->tp_repr = seq_repr;
    t->tp_hash = tuple_hash;
    t->tp_richcompare = seq_compare;
    t->tp_len = seq_len_slot;
    t->tp_getitem = tuple_getitem;
    t->tp_contains = seq_contains_slot;
    t->tp_iter = tuple_iter;
    t->tp_bool = seq_bool_slot;
    t->tp_new = tuple_tp_new;
    t->nb[NB_ADD] = tuple_add;
    t->nb[NB_MUL] = tuple_mul;
    type_add_methods(t, tuple_methods);
    type_ready(t);

    T_tuple_iterator = iter_make_type("tuple_iterator", tuple_iter_next, true);
    T_seq_iterator = iter_make_type("iterator", seq_iter_next, false);
    seqiter_add_pickling(T_tuple_iterator);
    seqiter_add_pickling(T_seq_iterator);
}
