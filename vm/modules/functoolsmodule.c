/* _functools: the C half of CPython's Lib/functools.py (which runs unchanged
 * over it and takes partial, reduce, cmp_to_key and _lru_cache_wrapper from
 * here in place of its pure-Python fallbacks), written from the documented
 * behaviour of CPython 3.11's module.
 *
 * partial: an instance (TID_INSTANCE, so it has a __dict__, weak references
 * and Python subclasses of the same layout) whose base_value is its state,
 * an IterObj of the hidden type functools._partial_state: a = func, b = args
 * (tuple), c = keywords (dict). The state object is never replaced (base_value
 * is read without a barrier): __setstate__ writes its fields. As CPython 3.11's
 * C partial it has no __get__ (a partial in a class body is not a method), and
 * partial(p, ...) of a partial p whose type calls through partial_call and
 * whose __dict__ was never made takes p's func, args and keywords
 * (flattening), so a chain of partials is one call.
 *
 * _lru_cache_wrapper: an instance (a __dict__ for update_wrapper) whose
 * base_value is an IterObj of functools._lru_state: a = the user function,
 * b = the cache dict, c = [cache_info_type, stripes, eviction token, eviction
 * hint], i = maxsize (-1: None), kind = typed. The cache is the dict: its
 * order is the recency order for a bounded cache (a hit finds its key and
 * moves it to the end in one lookup, so a key's __eq__ runs once, as in
 * CPython; eviction pops the first, its scan starting past the entries the
 * previous evictions found deleted: dict_popitem_first_hinted).
 * Keys are hashed once per call (the dict's known-hash forms). hits and
 * misses are counted per thread, in a stripe object of this thread's runtime
 * index in the stripes dict: a hit of an unbounded cache reads the cache and
 * writes only its own thread's stripe, so under STM threads hitting one cache
 * do not conflict (an abort rolls a stripe back with the rest, so hits +
 * misses is always the number of calls); cache_info sums the stripes. */
#include "modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

static TypeObj *T_partial, *T_partial_state, *T_keywrapper, *T_lru_wrapper, *T_lru_state, *T_lru_counts;
static Obj g_kwd_mark;   /* separates positional from keyword arguments in lru_cache keys */

/* Past this many arguments a call goes through a tuple and a dict, not root slots. */
enum { ROOTED_ARGS_MAX = 512 };

/* ------------------------------------------------------------------ */
/* partial                                                             */
/* ------------------------------------------------------------------ */

/* The state of a partial instance, or NULL (TypeError when `err`). */
static Obj partial_state(Obj self, bool err)
{
    if (TID(self) == TID_INSTANCE) {
        Obj st = INST(self)->base_value;
        if (st && TID(st) == TID_ITER && ITER(st)->cls == (Obj)T_partial_state)
            return st;
    }
    if (err)
        err_format(E_TypeError, "'%s' object is not an initialized functools.partial", type_name(self));
    return NULL;
}

static Obj partial_call(Obj self, Obj *args, size_t nargs, Obj kwnames);

static Obj partial_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1) {
        err_set(E_TypeError, "type 'partial' takes at least one argument");
        return NULL;
    }
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots(9);   /* type, func, inner args, inner keywords, args, keywords, instance, state, kwnames */
    Obj res = NULL;
    r[0] = type;
    r[8] = kwnames;
    r[1] = args[0];
    Obj st;
    if (TYPE(r[1])->tp_call == partial_call && (st = partial_state(r[1], false)) && !INST(r[1])->dict) {
        r[2] = ITER(st)->b;
        r[3] = ITER(st)->c;
        r[1] = ITER(st)->a;
    }
    if (!vm_callable(r[1])) {
        err_set(E_TypeError, "the first argument must be callable");
        goto out;
    }
    int64_t ninner = r[2] ? TUPLE_LEN(r[2]) : 0, nnew = (int64_t)nargs - 1;
    if (ninner == 0) {
        r[4] = tuple_from_array(args + 1, nnew);
    } else if (nnew == 0) {
        r[4] = r[2];
    } else {
        r[4] = tuple_new(ninner + nnew);
        if (r[4]) {
            VM_WRITE(r[4]);
            for (int64_t i = 0; i < ninner; i++)
                TUPLE_ITEMS(r[4])[i] = TUPLE_ITEMS(r[2])[i];
            for (int64_t i = 0; i < nnew; i++)
                TUPLE_ITEMS(r[4])[ninner + i] = args[1 + i];
        }
    }
    if (!r[4])
        goto out;
    r[5] = r[3] && dict_len(r[3]) ? dict_copy(r[3]) : dict_new();
    if (!r[5])
        goto out;
    for (int64_t i = 0; i < nkw; i++)
        if (dict_setitem(r[5], TUPLE_ITEMS(r[8])[i], args[nargs + i]) < 0)
            goto out;
    r[6] = instance_new((TypeObj *)r[0]);
    if (!r[6])
        goto out;
    r[7] = iter_alloc(T_partial_state, r[1], 0);
    if (!r[7])
        goto out;
    VM_WRITE(r[7]);
    ITER(r[7])->b = r[4];
    ITER(r[7])->c = r[5];
    VM_WRITE(r[6]);
    INST(r[6])->base_value = r[7];
    res = r[6];
out:
    vm_unroots(r);
    return res;
}

/* func(*args, *call_args, **{**keywords, **call_keywords}) */
static Obj partial_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = partial_state(self, true);
    if (!st)
        return NULL;
    Obj pargs = ITER(st)->b, pkw = ITER(st)->c;
    int64_t np = TUPLE_LEN(pargs), nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    int64_t npkw = dict_len(pkw);
    if (npkw == 0 && np + (int64_t)nargs + nkw <= ROOTED_ARGS_MAX) {
        /* the common case: the partial's positionals, then the call's arguments as they came */
        if (np == 0)
            return vm_call(ITER(st)->a, args, nargs, kwnames);
        int64_t n = np + (int64_t)nargs + nkw;
        Obj *r = vm_roots((int)n + 1);   /* (does not allocate: st stays where it is) */
        r[n] = ITER(st)->a;
        pargs = ITER(st)->b;
        for (int64_t i = 0; i < np; i++)
            r[i] = TUPLE_ITEMS(pargs)[i];
        for (int64_t i = 0; i < (int64_t)nargs + nkw; i++)
            r[np + i] = args[i];
        Obj res = vm_call(r[n], r, (size_t)(np + (int64_t)nargs), kwnames);
        vm_unroots(r);
        return res;
    }
    /* keywords to merge (the call's override the partial's), or many arguments */
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = self;
    r[3] = kwnames;
    r[1] = tuple_new(np + (int64_t)nargs);
    if (!r[1])
        goto out;
    st = partial_state(r[0], false);
    if (np + (int64_t)nargs)   /* (the empty tuple is shared) */
        VM_WRITE(r[1]);
    for (int64_t i = 0; i < np; i++)
        TUPLE_ITEMS(r[1])[i] = TUPLE_ITEMS(ITER(st)->b)[i];
    for (size_t i = 0; i < nargs; i++)
        TUPLE_ITEMS(r[1])[np + (int64_t)i] = args[i];
    r[2] = dict_copy(ITER(st)->c);
    if (!r[2])
        goto out;
    for (int64_t i = 0; i < nkw; i++)
        if (dict_setitem(r[2], TUPLE_ITEMS(r[3])[i], args[nargs + (size_t)i]) < 0)
            goto out;
    st = partial_state(r[0], false);
    res = vm_call_tuple_dict(ITER(st)->a, r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* "functools.partial(<function f>, 1, k=2)"; "..." for a partial inside its own repr. */
static Obj partial_repr(Obj self)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = self;
    Obj st = partial_state(self, true);
    if (!st)
        goto done;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        if (rc > 0)
            res = str_from_cstr("...");
        goto done;
    }
    st = partial_state(r[0], false);
    r[1] = ITER(st)->b;
    r[2] = dict_items_list(ITER(st)->c);   /* a snapshot: a key's __str__ may change the dict */
    StrBuf b;
    sb_init(&b);
    if (TYPE(r[0]) == T_partial)
        sb_adds(&b, "functools.partial");
    else
        sb_add_str(&b, TYPE(r[0])->name);
    sb_addc(&b, '(');
    if (!r[2])
        goto fail;
    st = partial_state(r[0], false);
    if (!(r[3] = vm_repr(ITER(st)->a)))
        goto fail;
    sb_add_str(&b, r[3]);
    for (int64_t i = 0; i < TUPLE_LEN(r[1]); i++) {
        if (!(r[3] = vm_repr(TUPLE_ITEMS(r[1])[i])))
            goto fail;
        sb_adds(&b, ", ");
        sb_add_str(&b, r[3]);
    }
    for (int64_t i = 0; i < LIST_LEN(r[2]); i++) {
        Obj item = LIST_ITEMS(r[2])[i];
        if (!(r[3] = vm_str(TUPLE_ITEMS(item)[0])))
            goto fail;
        sb_adds(&b, ", ");
        sb_add_str(&b, r[3]);
        sb_addc(&b, '=');
        item = LIST_ITEMS(r[2])[i];
        if (!(r[3] = vm_repr(TUPLE_ITEMS(item)[1])))
            goto fail;
        sb_add_str(&b, r[3]);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
    goto out;
fail:
    sb_free(&b);
out:
    repr_leave();
done:
    vm_unroots(r);
    return res;
}

/* (type(self), (func,), (func, args, keywords, __dict__ or None)) */
static Obj partial_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = partial_state(args[0], true);
    if (!st)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = tuple_pack(1, ITER(st)->a);
    if (!r[1])
        goto out;
    st = partial_state(r[0], false);
    Obj d = INST(r[0])->dict;
    r[2] = tuple_pack(4, ITER(st)->a, ITER(st)->b, ITER(st)->c, d ? d : g_None);
    if (r[2])
        res = tuple_pack(3, (Obj)TYPE(r[0]), r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

static Obj partial_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!partial_state(args[0], true))
        return NULL;
    Obj state = args[1];
    Obj *r = vm_roots(5);   /* self, func, args, keywords, dict */
    Obj res = NULL;
    r[0] = args[0];
    if (!IS_TUPLE(state) || TUPLE_LEN(state) != 4)
        goto invalid;
    r[1] = TUPLE_ITEMS(state)[0];
    r[2] = TUPLE_ITEMS(state)[1];
    r[3] = TUPLE_ITEMS(state)[2];
    r[4] = TUPLE_ITEMS(state)[3];
    if (!vm_callable(r[1]) || !vm_isinstance_type(r[2], T_tuple) ||
        (r[3] != g_None && !vm_isinstance_type(r[3], T_dict)))
        goto invalid;
    if (!IS_TUPLE(r[2]) && !(r[2] = vm_tuple_from_iter(r[2])))
        goto out;
    if (r[3] == g_None)
        r[3] = dict_new();
    else if (!IS_DICT(r[3]))
        r[3] = dict_copy(r[3]);
    if (!r[3])
        goto out;
    if (r[4] == g_None)
        r[4] = NULL;
    else if (!IS_DICT(vm_unwrap(r[4]))) {
        err_format(E_TypeError, "__dict__ must be set to a dictionary, not a '%s'", type_name(r[4]));
        goto out;
    }
    Obj st = partial_state(r[0], false);
    VM_WRITE(st);
    ITER(st)->a = r[1];
    ITER(st)->b = r[2];
    ITER(st)->c = r[3];
    VM_WRITE(r[0]);
    INST(r[0])->dict = r[4];
    res = g_None;
    goto out;
invalid:
    err_set(E_TypeError, "invalid partial state");
out:
    vm_unroots(r);
    return res;
}

static Obj partial_member(Obj self, int which)
{
    Obj st = partial_state(self, true);
    if (!st)
        return NULL;
    return which == 0 ? ITER(st)->a : which == 1 ? ITER(st)->b : ITER(st)->c;
}
static Obj partial_func(Obj *args, size_t nargs, Obj kwnames) { return partial_member(args[0], 0); }
static Obj partial_args(Obj *args, size_t nargs, Obj kwnames) { return partial_member(args[0], 1); }
static Obj partial_keywords(Obj *args, size_t nargs, Obj kwnames) { return partial_member(args[0], 2); }

static Obj generic_alias_of(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_import_cstr("types");
    if (r[0] && (r[0] = vm_getattr_cstr(r[0], "GenericAlias")))
        res = vm_call2(r[0], args[0], args[1]);
    vm_unroots(r);
    return res;
}

static const MethodDef partial_methods[] = {
    {"__reduce__", partial_reduce, METH_NOARGS, NULL},
    {"__setstate__", partial_setstate, METH_O, NULL},
    {"__class_getitem__", generic_alias_of, METH_CLASS | METH_O, "See PEP 585"},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* reduce                                                              */
/* ------------------------------------------------------------------ */

static Obj functools_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);   /* function, iterator, result, item */
    Obj res = NULL;
    r[0] = args[0];
    r[2] = nargs > 2 ? args[2] : NULL;
    r[1] = vm_iter(args[1]);
    if (!r[1]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_set(E_TypeError, "reduce() arg 2 must support iteration");
        }
        goto out;
    }
    for (;;) {
        r[3] = vm_next(r[1]);
        if (!r[3]) {
            if (err_occurred())
                goto out;
            break;
        }
        if (!r[2])
            r[2] = r[3];
        else if (!(r[2] = vm_call2(r[0], r[2], r[3])))
            goto out;
    }
    if (!r[2])
        err_set(E_TypeError, "reduce() of empty iterable with no initial value");
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* cmp_to_key: KeyWrapper objects, IterObj a = cmp, b = obj (NULL: none) */
/* ------------------------------------------------------------------ */

static Obj keywrapper_make(Obj cmp, Obj obj)
{
    Obj *r = vm_roots(1);
    r[0] = obj;
    Obj k = iter_alloc(T_keywrapper, cmp, 0);
    if (k) {
        VM_WRITE(k);
        ITER(k)->b = r[0];
    }
    vm_unroots(r);
    return k;
}

static Obj cmp_to_key(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"mycmp", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("cmp_to_key", args, nargs, kwnames, names, 1, 1, a) == 0)
        res = keywrapper_make(a[0], NULL);
    vm_unroots(a);
    return res;
}

static Obj keywrapper_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    a[1] = self;
    if (vm_parse_args("K", args, nargs, kwnames, names, 1, 1, a) == 0)
        res = keywrapper_make(ITER(a[1])->a, a[0]);
    vm_unroots(a);
    return res;
}

/* cmp(self.obj, other.obj) <op> 0 */
static Obj keywrapper_richcompare(Obj self, Obj other, int op)
{
    if (TID(other) != TID_ITER || ITER(other)->cls != (Obj)T_keywrapper) {
        err_set(E_TypeError, "other argument must be K instance");
        return NULL;
    }
    Obj x = ITER(self)->b, y = ITER(other)->b;
    if (!x || !y) {
        err_set(E_AttributeError, "object");
        return NULL;
    }
    Obj *r = vm_roots(2);
    r[0] = x;
    r[1] = y;
    Obj c = vm_call(ITER(self)->a, r, 2, NULL);
    vm_unroots(r);
    return c ? vm_richcompare(c, MAKE_SMALLINT(0), op) : NULL;
}

static int64_t keywrapper_unhashable(Obj self)
{
    err_format(E_TypeError, "unhashable type: '%s'", type_name(self));
    return -1;
}

static Obj keywrapper_obj_get(Obj *args, size_t nargs, Obj kwnames)
{
    Obj v = ITER(args[0])->b;
    return v ? v : g_None;
}

static Obj keywrapper_obj_set(Obj *args, size_t nargs, Obj kwnames)
{
    VM_WRITE(args[0]);
    ITER(args[0])->b = args[1];   /* NULL: deleted */
    return g_None;
}

/* ------------------------------------------------------------------ */
/* _lru_cache_wrapper                                                  */
/* ------------------------------------------------------------------ */

static Obj lru_state(Obj self)
{
    if (TID(self) == TID_INSTANCE) {
        Obj st = INST(self)->base_value;
        if (st && TID(st) == TID_ITER && ITER(st)->cls == (Obj)T_lru_state)
            return st;
    }
    err_format(E_TypeError, "'%s' object is not an initialized functools._lru_cache_wrapper", type_name(self));
    return NULL;
}

static Obj lru_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"user_function", "maxsize", "typed", "cache_info_type", NULL};
    Obj *a = vm_roots(9);   /* the 4 arguments, type, instance, state, cache, stripes */
    Obj res = NULL;
    a[4] = type;
    if (vm_parse_args("lru_cache", args, nargs, kwnames, names, 4, 4, a) < 0)
        goto out;
    if (!vm_callable(a[0])) {
        err_set(E_TypeError, "the first argument must be callable");
        goto out;
    }
    int64_t maxsize;
    if (a[1] == g_None) {
        maxsize = -1;
    } else if (IS_INT(vm_unwrap(a[1])) || TYPE(a[1])->nb_index) {
        Obj m = vm_index(a[1]);
        if (!m)
            goto out;
        if (int_as_i64(m, &maxsize) < 0) {
            err_clear();
            err_set(E_OverflowError, "Python int too large to convert to C ssize_t");
            goto out;
        }
        if (maxsize < 0)
            maxsize = 0;
    } else {
        err_set(E_TypeError, "maxsize should be integer or None");
        goto out;
    }
    int typed = vm_is_true(a[2]);
    if (typed < 0)
        goto out;
    if (!(a[7] = dict_new()) || !(a[8] = dict_new()))
        goto out;
    a[6] = a[8];
    if (!(a[8] = list_new(4)))
        goto out;
    LIST_ITEMS(a[8])[0] = a[3];
    LIST_ITEMS(a[8])[1] = a[6];
    LIST_ITEMS(a[8])[2] = g_None;
    LIST_ITEMS(a[8])[3] = MAKE_SMALLINT(0);
    if (!(a[5] = instance_new((TypeObj *)a[4])))
        goto out;
    if (!(a[6] = iter_alloc(T_lru_state, a[0], typed)))
        goto out;
    VM_WRITE(a[6]);
    ITER(a[6])->b = a[7];
    ITER(a[6])->c = a[8];
    ITER(a[6])->i = maxsize;
    VM_WRITE(a[5]);
    INST(a[5])->base_value = a[6];
    res = a[5];
out:
    vm_unroots(a);
    return res;
}

/* One more hit (or miss) in this thread's stripe of the counts of the cache
 * whose state is *stp (a root slot). */
static int lru_count(Obj *stp, bool hit)
{
    Obj key = MAKE_SMALLINT((int64_t)tm_self.index);
    Obj stripes = LIST_ITEMS(ITER(*stp)->c)[1];
    Obj s = dict_getitem(stripes, key);   /* a small-int key: no Python code runs */
    if (!s) {
        s = iter_alloc(T_lru_counts, NULL, 0);
        if (!s)
            return -1;
        Obj *r = vm_roots(1);
        r[0] = s;
        int rc = dict_setitem(LIST_ITEMS(ITER(*stp)->c)[1], key, r[0]);
        s = r[0];
        vm_unroots(r);
        if (rc < 0)
            return -1;
    }
    VM_WRITE(s);
    if (hit)
        ITER(s)->i++;
    else
        ITER(s)->n++;
    return 0;
}

/* CPython's key: the arguments, then (kwd_mark, name, value, ...) if there
 * are keywords, then the types of all the values if typed; the one argument
 * itself when it is an exact str or int and nothing else is added. */
static Obj lru_make_key(Obj *args, size_t nargs, Obj kwnames, bool typed)
{
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    if (!typed && nkw == 0) {
        if (nargs == 1 && (IS_INT_EXACT(args[0]) || IS_STR(args[0])))
            return args[0];
        return tuple_from_array(args, (int64_t)nargs);
    }
    int64_t n = (int64_t)nargs + (nkw ? 1 + 2 * nkw : 0) + (typed ? (int64_t)nargs + nkw : 0);
    Obj *r = vm_roots(1);
    r[0] = kwnames;
    Obj key = n ? tuple_new(n) : g_empty_tuple;
    if (key && n) {
        VM_WRITE(key);
        int64_t k = 0;
        for (size_t i = 0; i < nargs; i++)
            TUPLE_ITEMS(key)[k++] = args[i];
        if (nkw) {
            TUPLE_ITEMS(key)[k++] = g_kwd_mark;
            for (int64_t i = 0; i < nkw; i++) {
                TUPLE_ITEMS(key)[k++] = TUPLE_ITEMS(r[0])[i];
                TUPLE_ITEMS(key)[k++] = args[nargs + (size_t)i];
            }
        }
        if (typed) {
            for (size_t i = 0; i < nargs; i++)
                TUPLE_ITEMS(key)[k++] = (Obj)TYPE(args[i]);
            for (int64_t i = 0; i < nkw; i++)
                TUPLE_ITEMS(key)[k++] = (Obj)TYPE(args[nargs + (size_t)i]);
        }
    }
    vm_unroots(r);
    return key;
}

/* Drop the least recently used entry of the cache whose state is *stp. */
static int lru_evict(Obj *stp)
{
    Obj *r = vm_roots(1);
    Obj conf = ITER(*stp)->c;
    r[0] = LIST_ITEMS(conf)[2] == g_None ? NULL : LIST_ITEMS(conf)[2];
    int64_t hint = SMALLINT_VAL(LIST_ITEMS(conf)[3]);
    int rc = !dict_popitem_first_hinted(ITER(*stp)->b, &r[0], &hint) && err_occurred() ? -1 : 0;
    if (rc == 0 && r[0]) {
        conf = ITER(*stp)->c;
        Obj arr = LIST(conf)->array;
        VM_WRITE_ITEMS(arr, 2, 2);
        ARRAY(arr)->items[2] = r[0];
        ARRAY(arr)->items[3] = MAKE_SMALLINT(hint);
    }
    vm_unroots(r);
    return rc;
}

static Obj lru_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);   /* state, key, result, self, kwnames */
    Obj res = NULL;
    r[3] = self;
    r[4] = kwnames;
    r[0] = lru_state(self);
    if (!r[0])
        goto out;
    int64_t maxsize = ITER(r[0])->i;
    if (maxsize == 0) {   /* no cache: every call is a miss */
        if (lru_count(&r[0], false) < 0)
            goto out;
        res = vm_call(ITER(r[0])->a, args, nargs, r[4]);
        goto out;
    }
    r[1] = lru_make_key(args, nargs, kwnames, ITER(r[0])->kind != 0);
    if (!r[1])
        goto out;
    int64_t h = vm_hash(r[1]);
    if (h == -1)
        goto out;
    r[2] = maxsize > 0 ? dict_get_move_to_end_known_hash(ITER(r[0])->b, r[1], h)
                       : dict_getitem_known_hash(ITER(r[0])->b, r[1], h);
    if (r[2]) {
        if (lru_count(&r[0], true) < 0)
            goto out;
        res = r[2];
        goto out;
    }
    if (err_occurred() || lru_count(&r[0], false) < 0)
        goto out;
    r[2] = vm_call(ITER(r[0])->a, args, nargs, r[4]);
    if (!r[2])
        goto out;
    if (maxsize > 0) {
        /* the call may have put this key in already (recursion, another thread): keep that */
        if (dict_getitem_known_hash(ITER(r[0])->b, r[1], h)) {
            res = r[2];
            goto out;
        }
        if (err_occurred())
            goto out;
        if (dict_len(ITER(r[0])->b) >= maxsize && lru_evict(&r[0]) < 0)
            goto out;
    }
    if (dict_setitem_known_hash(ITER(r[0])->b, r[1], r[2], h) < 0)
        goto out;
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

/* A method when looked up through an instance, as a function. */
static Obj lru_descr_get(Obj self, Obj obj, Obj type)
{
    if (!obj || obj == g_None)
        return self;
    return method_new(self, obj);
}

static Obj lru_cache_info(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(6);   /* state, hits, misses, maxsize, currsize, stripe */
    Obj res = NULL;
    r[0] = lru_state(args[0]);
    if (!r[0])
        goto out;
    int64_t hits = 0, misses = 0, pos = 0;
    Obj stripes = LIST_ITEMS(ITER(r[0])->c)[1];
    Obj s;
    while (dict_next(stripes, &pos, NULL, &s)) {
        hits += ITER(s)->i;
        misses += ITER(s)->n;
    }
    int64_t maxsize = ITER(r[0])->i;
    if (!(r[1] = int_from_i64(hits)) || !(r[2] = int_from_i64(misses)) ||
        !(r[3] = maxsize < 0 ? g_None : int_from_i64(maxsize)) || !(r[4] = int_from_i64(dict_len(ITER(r[0])->b))))
        goto out;
    res = vm_call(LIST_ITEMS(ITER(r[0])->c)[0], &r[1], 4, NULL);
out:
    vm_unroots(r);
    return res;
}

static Obj lru_cache_clear(Obj *args, size_t nargs, Obj kwnames)
{
    Obj st = lru_state(args[0]);
    if (!st)
        return NULL;
    Obj stripes = LIST_ITEMS(ITER(st)->c)[1];
    int64_t pos = 0;
    Obj s;
    while (dict_next(stripes, &pos, NULL, &s)) {
        VM_WRITE(s);
        ITER(s)->i = ITER(s)->n = 0;
    }
    dict_clear(ITER(st)->b);
    return g_None;
}

/* Pickled by reference: its qualified name. */
static Obj lru_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_getattr_cstr(args[0], "__qualname__");
}

static Obj lru_copy(Obj *args, size_t nargs, Obj kwnames)
{
    return args[0];
}

static const MethodDef lru_methods[] = {
    {"cache_info", lru_cache_info, METH_NOARGS, "Report cache statistics"},
    {"cache_clear", lru_cache_clear, METH_NOARGS, "Clear the cache and cache statistics"},
    {"__reduce__", lru_reduce, METH_NOARGS, NULL},
    {"__copy__", lru_copy, METH_NOARGS, NULL},
    {"__deepcopy__", lru_copy, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* The module                                                          */
/* ------------------------------------------------------------------ */

static void set_doc(TypeObj *t, const char *doc)
{
    Obj d = str_from_cstr(doc);
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
}

static void make_types(void)
{
    VM_GLOBAL_ROOT(g_kwd_mark);
    g_kwd_mark = instance_new(T_object);

    T_partial_state = (TypeObj *)type_new_builtin("functools._partial_state", T_object, TID_ITER, 0);
    type_ready(T_partial_state);
    T_lru_state = (TypeObj *)type_new_builtin("functools._lru_state", T_object, TID_ITER, 0);
    type_ready(T_lru_state);
    T_lru_counts = (TypeObj *)type_new_builtin("functools._lru_counts", T_object, TID_ITER, 0);
    type_ready(T_lru_counts);

    TypeObj *t = T_partial = (TypeObj *)type_new_builtin(
        "functools.partial", T_object, TID_INSTANCE, TPF_BASETYPE | TPF_HAS_DICT | TPF_WEAKREFABLE);
    VM_WRITE(t);
    t->tp_new = partial_new;
    t->tp_call = partial_call;
    t->tp_repr = partial_repr;
    type_add_methods(t, partial_methods);
    type_add_member(t, "func", partial_func, NULL, "function object to use in future partial calls");
    type_add_member(t, "args", partial_args, NULL, "tuple of arguments to future partial calls");
    type_add_member(t, "keywords", partial_keywords, NULL, "dictionary of keyword arguments to future partial calls");
    type_add_getset(t, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
    type_ready(t);
    set_doc(t, "partial(func, *args, **keywords) - new function with partial application\n"
               "    of the given arguments and keywords.\n");

    t = T_keywrapper = (TypeObj *)type_new_builtin("functools.KeyWrapper", T_object, TID_ITER, 0);
    VM_WRITE(t);
    t->tp_call = keywrapper_call;
    t->tp_richcompare = keywrapper_richcompare;
    t->tp_hash = keywrapper_unhashable;
    type_add_member(t, "obj", keywrapper_obj_get, keywrapper_obj_set, "Value wrapped by a key function.");
    type_ready(t);
    type_set_attr_cstr(t, "__hash__", g_None);

    t = T_lru_wrapper = (TypeObj *)type_new_builtin("functools._lru_cache_wrapper", T_object, TID_INSTANCE,
                                                    TPF_HAS_DICT | TPF_WEAKREFABLE);
    VM_WRITE(t);
    t->tp_new = lru_new;
    t->tp_call = lru_call;
    t->tp_descr_get = lru_descr_get;
    type_add_methods(t, lru_methods);
    type_add_getset(t, "__dict__", vm_getset_dict_get, vm_getset_dict_set);
    type_ready(t);
    set_doc(t, "Create a cached callable that wraps another function.\n\n"
               "user_function:      the function being cached\n\n"
               "maxsize:  0         for no caching\n"
               "          None      for unlimited cache size\n"
               "          n         for a bounded cache\n\n"
               "typed:    False     cache f(3) and f(3.0) as identical calls\n"
               "          True      cache f(3) and f(3.0) as distinct calls\n\n"
               "cache_info_type:    namedtuple class with the fields:\n"
               "                        hits misses currsize maxsize\n");
}

static const MethodDef functools_funcs[] = {
    {"reduce", functools_reduce, METH_ARGS(2, 3) | METH_BARENAME,
     "reduce(function, iterable[, initial]) -> value\n\n"
     "Apply a function of two arguments cumulatively to the items of a sequence\n"
     "or iterable, from left to right, so as to reduce the iterable to a single\n"
     "value.  For example, reduce(lambda x, y: x+y, [1, 2, 3, 4, 5]) calculates\n"
     "((((1+2)+3)+4)+5).  If initial is present, it is placed before the items\n"
     "of the iterable in the calculation, and serves as a default when the\n"
     "iterable is empty."},
    {"cmp_to_key", cmp_to_key, METH_KW, "Convert a cmp= function into a key= function."},
    {NULL, NULL, 0, NULL},
};

Obj functools_module_init(void)
{
    if (!T_partial)   /* module inits run inevitable: C globals may be written */
        make_types();
    Obj *r = vm_roots(2);
    r[0] = module_new("_functools");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], functools_funcs);
        if (module_add(r[0], "partial", (Obj)T_partial) < 0 ||
            module_add(r[0], "_lru_cache_wrapper", (Obj)T_lru_wrapper) < 0)
            m = NULL;
        r[1] = str_from_cstr("Tools that operate on functions.");
        m = m && r[1] && module_add(r[0], "__doc__", r[1]) == 0 ? r[0] : NULL;
    }
    vm_unroots(r);
    return m;
}
