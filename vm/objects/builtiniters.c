/* The iterator types of the builtins: enumerate, zip, map, filter,
 * reversed and iter(callable, sentinel). All are IterObj (TID_ITER, cls
 * set); a NULL `a` marks an exhausted iterator. */
#include "objects.h"
#include "containers.h"

TypeObj *T_enumerate, *T_zip, *T_map, *T_filter, *T_reversed, *T_callable_iterator;

enum { ITK_ENUMERATE = 100, ITK_ENUMERATE_BIG, ITK_ZIP, ITK_MAP, ITK_MAP1, ITK_FILTER, ITK_REVERSED, ITK_CALLABLE };


/* next() of an iterator these wrap: counted as a recursive call, so that
 * map(f, map(f, ...)) nested a million deep raises RecursionError instead of
 * overflowing the C stack. A StopIteration the inner one raised is passed
 * on as it is (CPython's map calls its tp_iternext). */
static Obj inner_next(Obj it)
{
    if (vm_enter_recursive(NULL) < 0)
        return NULL;
    unaryfunc f = TYPE(it)->tp_iternext;
    Obj v = f ? f(it) : vm_next(it);
    vm_leave_recursive();
    return v;
}

static Obj iter_repr(Obj self)
{
    Obj *r = vm_roots(1);
    r[0] = self;
    uint64_t id = vm_object_id(self);
    Obj res = str_from_format("<%s object at 0x%lx>", type_name(r[0]), (unsigned long)id);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* enumerate                                                           */
/* ------------------------------------------------------------------ */

static Obj enumerate_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "start", NULL};
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (nargs == 0 && !(kwnames && TUPLE_LEN(kwnames))) {
        err_set(E_TypeError, "enumerate() missing required argument 'iterable'");
        goto out;
    }
    if (vm_parse_args("enumerate", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t start = 0;
    bool big = false;
    if (a[1]) {
        Obj s = vm_unwrap(a[1]);
        if (!IS_INT(s)) {
            s = vm_index(a[1]);
            if (!s)
                goto out;
        }
        if (IS_SMALLINT(s))
            start = SMALLINT_VAL(s);
        else if (TID(s) == TID_BOOL)
            start = ((BoolObj *)s)->value;
        else
            big = true;
        a[1] = s;
    }
    a[2] = vm_iter(a[0]);
    if (!a[2])
        goto out;
    Obj it = iter_alloc(T_enumerate, a[2], big ? ITK_ENUMERATE_BIG : ITK_ENUMERATE);
    if (!it)
        goto out;
    if (big)
        ITER(it)->b = a[1];
    else
        ITER(it)->i = start;
    res = it;
out:
    vm_unroots(a);
    return res;
}

static Obj enumerate_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = inner_next(ITER(self)->a);
    if (!r[1]) {
        if (!err_occurred()) {
            VM_WRITE(r[0]);
            ITER(r[0])->a = NULL;
        }
        goto out;
    }
    self = r[0];
    if (ITER(self)->kind == ITK_ENUMERATE) {
        int64_t i = ITER(self)->i;
        if (i < SMALLINT_MAX) {
            VM_WRITE(self);
            ITER(self)->i = i + 1;
            r[2] = MAKE_SMALLINT(i);
        } else {
            /* past the small ints: continue with an int object */
            r[2] = int_from_i64(i);
            if (!r[2])
                goto out;
            VM_WRITE(r[0]);
            ITER(r[0])->kind = ITK_ENUMERATE_BIG;
            ITER(r[0])->b = r[2];
        }
    }
    if (ITER(r[0])->kind == ITK_ENUMERATE_BIG) {
        r[2] = ITER(r[0])->b;
        Obj n = int_add(r[2], MAKE_SMALLINT(1));
        if (!n)
            goto out;
        VM_WRITE(r[0]);
        ITER(r[0])->b = n;
    }
    res = tuple_pack(2, r[2], r[1]);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* zip                                                                 */
/* ------------------------------------------------------------------ */

/* a: tuple of iterators; n: strict. */
static Obj iters_tuple(Obj *args, size_t nargs)
{
    Obj *r = vm_roots(1);
    r[0] = tuple_new((int64_t)nargs);
    for (size_t i = 0; r[0] && i < nargs; i++) {
        VM_WRITE(r[0]);
        TUPLE_ITEMS(r[0])[i] = g_None;
    }
    for (size_t i = 0; r[0] && i < nargs; i++) {
        Obj it = vm_iter(args[i]);
        if (!it) {
            r[0] = NULL;
            break;
        }
        VM_WRITE(r[0]);
        TUPLE_ITEMS(r[0])[i] = it;
    }
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj zip_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    int strict = 0;
    int64_t nk = kwnames ? TUPLE_LEN(kwnames) : 0;
    for (int64_t i = 0; i < nk; i++) {
        Obj k = TUPLE_ITEMS(kwnames)[i];
        if (!str_eq_cstr(k, "strict")) {
            err_format(E_TypeError, "'%s' is an invalid keyword argument for zip()", str_cstr(k));
            return NULL;
        }
    }
    if (nk && (strict = vm_is_true(args[nargs + nk - 1])) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    r[0] = type;
    r[1] = iters_tuple(args, nargs);
    Obj it = r[1] ? iter_alloc(T_zip, r[1], ITK_ZIP) : NULL;
    if (it)
        ITER(it)->n = strict;
    Obj res = it;
    vm_unroots(r);
    return res;
}

static Obj zip_strict_error(int64_t i, bool shorter)
{
    if (i == 1)
        err_format(E_ValueError, "zip() argument 2 is %s than argument 1", shorter ? "shorter" : "longer");
    else
        err_format(E_ValueError, "zip() argument %ld is %s than arguments 1-%ld", (long)(i + 1),
                   shorter ? "shorter" : "longer", (long)i);
    return NULL;
}

static Obj zip_next(Obj self)
{
    Obj its = ITER(self)->a;
    if (!its)
        return NULL;
    int64_t n = TUPLE_LEN(its);
    if (n == 0)
        return NULL;
    Obj *r = vm_roots((int)n + 2);
    Obj res = NULL;
    r[n] = self;
    for (int64_t i = 0; i < n; i++) {
        Obj v = inner_next(TUPLE_ITEMS(ITER(r[n])->a)[i]);
        if (v) {
            r[i] = v;
            continue;
        }
        if (err_occurred())
            goto out;
        /* exhausted: strict mode checks that all the others are too */
        bool strict = ITER(r[n])->n != 0;
        if (strict) {
            if (i > 0) {
                zip_strict_error(i, true);
                goto out;
            }
            for (int64_t j = 1; j < n; j++) {
                Obj w = inner_next(TUPLE_ITEMS(ITER(r[n])->a)[j]);
                if (w) {
                    zip_strict_error(j, false);
                    goto out;
                }
                if (err_occurred())
                    goto out;
            }
        }
        VM_WRITE(r[n]);
        ITER(r[n])->a = NULL;
        goto out;
    }
    res = tuple_from_array(r, n);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* map                                                                 */
/* ------------------------------------------------------------------ */

static Obj map_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    /* (CPython: a subclass defining __init__ takes its own keywords) */
    if ((TypeObj *)type != T_map && ((TypeObj *)type)->tp_init != T_map->tp_init)
        kwnames = NULL;
    if (vm_check_args("map", nargs, kwnames, 0, -1) < 0)
        return NULL;
    if (nargs < 2) {
        err_set(E_TypeError, "map() must have at least two arguments.");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = type;
    if (nargs == 2) {
        r[1] = vm_iter(args[1]);
        if (!r[1])
            goto out;
        Obj it = iter_alloc(T_map, args[0], ITK_MAP1);
        if (!it)
            goto out;
        ITER(it)->c = r[1];
        res = it;
        goto out;
    }
    r[1] = iters_tuple(args + 1, nargs - 1);
    if (!r[1])
        goto out;
    Obj it = iter_alloc(T_map, args[0], ITK_MAP);
    if (!it)
        goto out;
    ITER(it)->b = r[1];
    res = it;
out:
    vm_unroots(r);
    return res;
}

static Obj map_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    if (ITER(self)->kind == ITK_MAP1) {
        Obj *r = vm_roots(2);
        Obj res = NULL;
        r[0] = self;
        r[1] = inner_next(ITER(self)->c);
        if (r[1])
            res = vm_call(ITER(r[0])->a, &r[1], 1, NULL);
        else if (!err_occurred()) {
            VM_WRITE(r[0]);
            ITER(r[0])->a = NULL;
        }
        vm_unroots(r);
        return res;
    }
    int64_t n = TUPLE_LEN(ITER(self)->b);
    Obj *r = vm_roots((int)n + 1);
    Obj res = NULL;
    r[n] = self;
    for (int64_t i = 0; i < n; i++) {
        Obj v = inner_next(TUPLE_ITEMS(ITER(r[n])->b)[i]);
        if (!v) {
            if (!err_occurred()) {
                VM_WRITE(r[n]);
                ITER(r[n])->a = NULL;
            }
            goto out;
        }
        r[i] = v;
    }
    res = vm_call(ITER(r[n])->a, r, (size_t)n, NULL);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* filter                                                              */
/* ------------------------------------------------------------------ */

static Obj filter_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if ((TypeObj *)type != T_filter && ((TypeObj *)type)->tp_init != T_filter->tp_init)
        kwnames = NULL;   /* as map's */
    if (vm_check_args("filter", nargs, kwnames, 2, 2) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = vm_iter(args[1]);
    if (r[1]) {
        Obj it = iter_alloc(T_filter, r[1], ITK_FILTER);
        if (it) {
            /* None and bool both mean "keep the true items" */
            ITER(it)->b = (IS_NONE(args[0]) || args[0] == (Obj)T_bool) ? NULL : args[0];
            ITER(it)->c = args[0];   /* as given, for __reduce__ */
            res = it;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj filter_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    for (;;) {
        r[1] = inner_next(ITER(r[0])->a);
        if (!r[1]) {
            if (!err_occurred()) {
                VM_WRITE(r[0]);
                ITER(r[0])->a = NULL;
            }
            break;
        }
        Obj f = ITER(r[0])->b;
        int t;
        if (!f) {
            t = vm_is_true(r[1]);
        } else {
            r[2] = vm_call(f, &r[1], 1, NULL);
            if (!r[2])
                break;
            t = vm_is_true(r[2]);
        }
        if (t < 0)
            break;
        if (t) {
            res = r[1];
            break;
        }
    }
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* reversed                                                            */
/* ------------------------------------------------------------------ */

static Obj reversed_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("reversed", nargs, kwnames, 0, -1) < 0)
        return NULL;
    if (nargs != 1) {   /* not "takes exactly one argument": CPython's own wording */
        err_format(E_TypeError, "reversed expected 1 argument, got %zu", nargs);
        return NULL;
    }
    Obj meth = vm_lookup_special(args[0], "__reversed__");
    if (meth) {
        if (IS_NONE(meth)) {
            err_format(E_TypeError, "'%s' object is not reversible", type_name(args[0]));
            return NULL;
        }
        return vm_call_method(args[0], "__reversed__", NULL, 0);
    }
    Obj seq = args[0];
    if (!TYPE(seq)->tp_getitem || IS_DICT(vm_unwrap(seq))) {
        err_format(E_TypeError, "'%s' object is not reversible", type_name(seq));
        return NULL;
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = seq;
    int64_t n = vm_len(seq);
    if (n >= 0) {
        Obj it = iter_alloc(T_reversed, r[1], ITK_REVERSED);
        if (it) {
            ITER(it)->i = n - 1;
            res = it;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj reversed_next(Obj self)
{
    Obj seq = ITER(self)->a;
    if (!seq)
        return NULL;
    int64_t i = ITER(self)->i;
    if (i < 0) {
        VM_WRITE(self);
        ITER(self)->a = NULL;
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj v = vm_getitem(seq, MAKE_SMALLINT(i));
    self = r[0];
    vm_unroots(r);
    if (v) {
        VM_WRITE(self);
        ITER(self)->i = i - 1;
        return v;
    }
    if (err_matches(E_IndexError) || err_matches(E_StopIteration)) {
        err_clear();
        VM_WRITE(self);
        ITER(self)->a = NULL;
    }
    return NULL;
}

/* The items left, bounded by the sequence's length now (it may have shrunk;
 * an error of its __len__ comes through, as CPython's). */
static Obj reversed_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    Obj self = vm_unwrap(args[0]);
    if (TID(self) != TID_ITER || !ITER(self)->a)
        return MAKE_SMALLINT(0);
    int64_t pos = ITER(self)->i + 1;
    int64_t n = vm_len(ITER(self)->a);
    if (n < 0)
        return NULL;
    return MAKE_SMALLINT(n < pos ? 0 : pos);
}

/* ------------------------------------------------------------------ */
/* iter(callable, sentinel)                                            */
/* ------------------------------------------------------------------ */

Obj callable_iter_new(Obj callable, Obj sentinel)
{
    Obj *r = vm_roots(1);
    r[0] = sentinel;
    Obj it = iter_alloc(T_callable_iterator, callable, ITK_CALLABLE);
    if (it)
        ITER(it)->b = r[0];
    vm_unroots(r);
    return it;
}

static Obj callable_iter_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_call0(ITER(self)->a);
    if (!r[1]) {
        if (err_matches(E_StopIteration)) {
            err_clear();
            VM_WRITE(r[0]);
            ITER(r[0])->a = NULL;
        }
        goto out;
    }
    int eq = vm_richcompare_bool(r[1], ITER(r[0])->b, CMP_EQ);
    if (eq < 0)
        goto out;
    if (eq) {
        VM_WRITE(r[0]);
        ITER(r[0])->a = NULL;
        ITER(r[0])->b = NULL;
        goto out;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* Pickling: __reduce__ gives (type(self), args[, state]) as CPython's */
/* ------------------------------------------------------------------ */

/* The IterObj of `self` (an instance of a subclass wraps one). */
static Obj iter_of(Obj self, TypeObj *builtin)
{
    Obj u = vm_unwrap(self);
    if (TID(u) != TID_ITER || TYPE(u) != builtin) {
        err_format(E_TypeError, "'%s' object is not initialized", type_name(self));
        return NULL;
    }
    return u;
}

/* iter(()): what an exhausted iterator pickles as its source. */
static Obj empty_iter(void)
{
    return vm_iter(g_empty_tuple);
}

static Obj enumerate_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = iter_of(args[0], T_enumerate);
    if (!r[0])
        goto out;
    r[1] = ITER(r[0])->a ? ITER(r[0])->a : empty_iter();
    if (!r[1])
        goto out;
    r[2] = ITER(r[0])->kind == ITK_ENUMERATE ? MAKE_SMALLINT(ITER(r[0])->i) : ITER(r[0])->b;
    r[1] = tuple_pack(2, r[1], r[2]);
    if (r[1])
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj zip_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = iter_of(args[0], T_zip);
    if (!u)
        return NULL;
    Obj its = ITER(u)->a ? ITER(u)->a : g_empty_tuple;
    if (ITER(u)->n)
        return tuple_pack(3, (Obj)TYPE(args[0]), its, g_True);
    return tuple_pack(2, (Obj)TYPE(args[0]), its);
}

static Obj zip_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = iter_of(args[0], T_zip);
    if (!u)
        return NULL;
    int strict = vm_is_true(args[1]);
    if (strict < 0)
        return NULL;
    u = vm_unwrap(args[0]);
    VM_WRITE(u);
    ITER(u)->n = strict;
    return g_None;
}

/* map(func, *iterators); an exhausted map has let go of its function and
 * pickles as map(None, ()), which yields nothing as well. */
static Obj map_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = iter_of(args[0], T_map);
    if (!r[0])
        goto out;
    if (!ITER(r[0])->a) {
        r[1] = tuple_pack(2, g_None, g_empty_tuple);
    } else if (ITER(r[0])->kind == ITK_MAP1) {
        r[1] = tuple_pack(2, ITER(r[0])->a, ITER(r[0])->c);
    } else {
        int64_t n = TUPLE_LEN(ITER(r[0])->b);
        r[1] = tuple_new(n + 1);
        if (r[1]) {
            VM_WRITE(r[1]);
            TUPLE_ITEMS(r[1])[0] = ITER(r[0])->a;
            for (int64_t i = 0; i < n; i++)
                TUPLE_ITEMS(r[1])[i + 1] = TUPLE_ITEMS(ITER(r[0])->b)[i];
        }
    }
    if (r[1])
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj filter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = iter_of(args[0], T_filter);
    if (!r[0])
        goto out;
    r[1] = ITER(r[0])->a ? ITER(r[0])->a : empty_iter();
    if (r[1])
        r[1] = tuple_pack(2, ITER(r[0])->c, r[1]);
    if (r[1])
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[1]);
out:
    vm_unroots(r);
    return res;
}

/* (type, (seq,), next index) while items are left, (type, ((),)) after. */
static Obj reversed_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = iter_of(args[0], T_reversed);
    if (!r[0])
        goto out;
    r[1] = tuple_pack(1, ITER(r[0])->a ? ITER(r[0])->a : g_empty_tuple);
    if (!r[1])
        goto out;
    if (ITER(r[0])->a)
        res = tuple_pack(3, (Obj)TYPE(args[0]), r[1], MAKE_SMALLINT(ITER(r[0])->i));
    else
        res = tuple_pack(2, (Obj)TYPE(args[0]), r[1]);
out:
    vm_unroots(r);
    return res;
}

static Obj reversed_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = iter_of(args[0], T_reversed);
    if (!u)
        return NULL;
    int64_t i;
    if (arg_i64(args[1], &i) < 0)
        return NULL;
    u = vm_unwrap(args[0]);
    if (ITER(u)->a) {
        int64_t n = vm_len(ITER(u)->a);
        if (n < 0)
            return NULL;
        u = vm_unwrap(args[0]);
        VM_WRITE(u);
        ITER(u)->i = i < -1 ? -1 : i > n - 1 ? n - 1 : i;
    }
    return g_None;
}

static const MethodDef enumerate_methods[] = {
    {"__reduce__", enumerate_reduce, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef zip_methods[] = {
    {"__reduce__", zip_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", zip_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef map_methods[] = {
    {"__reduce__", map_reduce, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef filter_methods[] = {
    {"__reduce__", filter_reduce, METH_NOARGS, "Return state information for pickling."},
    {NULL, NULL, 0, NULL},
};

static const MethodDef reversed_methods[] = {
    {"__length_hint__", reversed_length_hint, METH_NOARGS, NULL},
    {"__reduce__", reversed_reduce, METH_NOARGS, "Return state information for pickling."},
    {"__setstate__", reversed_setstate, METH_O, "Set state information for unpickling."},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name, unaryfunc next, newfunc tp_new, unsigned flags)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, flags);
    VM_WRITE(t);
    t->tp_iter = iter_self;
    t->tp_iternext = next;
    t->tp_repr = iter_repr;
    t->tp_new = tp_new;
    return t;
}

void iter_init_types(void)
{
    T_enumerate = make_type("enumerate", enumerate_next, enumerate_new, TPF_BASETYPE | TPF_ITER_VALUE);
    T_zip = make_type("zip", zip_next, zip_new, TPF_BASETYPE | TPF_ITER_VALUE);
    T_map = make_type("map", map_next, map_new, TPF_BASETYPE | TPF_ITER_VALUE);
    T_filter = make_type("filter", filter_next, filter_new, TPF_BASETYPE | TPF_ITER_VALUE);
    T_reversed = make_type("reversed", reversed_next, reversed_new, TPF_BASETYPE | TPF_ITER_VALUE);
    type_add_methods(T_enumerate, enumerate_methods);
    type_add_methods(T_zip, zip_methods);
    type_add_methods(T_map, map_methods);
    type_add_methods(T_filter, filter_methods);
    type_add_methods(T_reversed, reversed_methods);
    T_callable_iterator = make_type("callable_iterator", callable_iter_next, NULL, 0);
    type_ready(T_enumerate);
    type_ready(T_zip);
    type_ready(T_map);
    type_ready(T_filter);
    type_ready(T_reversed);
    type_ready(T_callable_iterator);
    /* (the dict and set iterator types exist by now: dict.c and set.c) */
    TypeObj *const copied[] = {T_dict_keyiterator, T_dict_valueiterator, T_dict_itemiterator,
                               T_dict_reversekeyiterator, T_dict_reversevalueiterator, T_dict_reverseitemiterator,
                               T_set_iterator};
    for (size_t i = 0; i < ARRAY_LEN(copied); i++)
        copyiter_add_pickling(copied[i]);
}
