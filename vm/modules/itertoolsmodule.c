/* itertools: CPython 3.11's itertools module, all in C (CPython has no
 * Python half), written from the documented behaviour of CPython's module:
 * the same types, argument errors, __reduce__/__setstate__ (3.11 still
 * pickles and copies its iterators) and __copy__ of tee objects.
 *
 * Every iterator is an IterObj (TID_ITER, cls = its type; types that CPython
 * lets Python subclass are TPF_ITER_VALUE, so a subclass's instance wraps
 * one) holding all its state in its fields, and the fields of the objects
 * they point to (an ArrayObj of references, a RawObj of indices): nothing in
 * C memory, so an STM abort rolls an iterator back with everything else, and
 * next() on an iterator over C iterators runs no Python code (no yield
 * point), which makes it one atomic step for threads sharing it. Each type
 * says below what its fields hold.
 *
 * itertools.count keeps its own layout (CountObj, TID_COUNTER): next() reads
 * the value and stores value + step in one C call. As CPython, an int start
 * with a step of int 1 is kept as an exact int (count(True) counts 1, 2, ...);
 * other starts are kept as given. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <stdio.h>

TypeObj *T_count;
static TypeObj *T_cycle, *T_repeat, *T_accumulate, *T_chain, *T_compress, *T_dropwhile, *T_takewhile,
    *T_filterfalse, *T_starmap, *T_islice, *T_pairwise, *T_groupby, *T_grouper, *T_tee, *T_teedata,
    *T_zip_longest, *T_product, *T_permutations, *T_combinations, *T_cwr;

/* Values a _tee_dataobject holds before it links to the next one (CPython's LINKCELLS). */
enum { TEE_LINK_SIZE = 57 };

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

/* next() of an iterator these read: counted as a recursive call (nested
 * iterators a million deep raise RecursionError, not a C stack overflow);
 * NULL without error when exhausted, a StopIteration raised inside too. */
static Obj it_next(Obj it)
{
    if (vm_enter_recursive(NULL) < 0)
        return NULL;
    Obj v = vm_next(it);
    vm_leave_recursive();
    return v;
}

/* The IterObj of self (a subclass's instance wraps one), or TypeError. */
static Obj state_of(Obj self, TypeObj *t)
{
    Obj u = vm_unwrap(self);
    if (TID(u) == TID_ITER && ITER(u)->cls == (Obj)t)
        return u;
    err_format(E_TypeError, "'%s' object is not initialized", type_name(self));
    return NULL;
}

/* A new iterator of type t with fields a, b, c (the counters zero). */
static Obj new_iter(TypeObj *t, Obj a, Obj b, Obj c)
{
    Obj *r = vm_roots(3);
    r[0] = a;
    r[1] = b;
    r[2] = c;
    Obj it = iter_alloc(t, r[0], 0);
    if (it) {
        ITER(it)->b = r[1];
        ITER(it)->c = r[2];
        ITER(it)->i = 0;
        ITER(it)->n = 0;
    }
    vm_unroots(r);
    return it;
}

/* The int64 indices of a RawObj. */
static inline int64_t __seg_gs *raw_ints(Obj raw)
{
    return (int64_t __seg_gs *)RAW(raw)->data;
}

static Obj raw_ints_new(int64_t n)
{
    return raw_new(n * (int64_t)sizeof(int64_t));
}

/* "'x' is an invalid keyword argument for f()" unless every keyword is in names. */
static int check_keywords(const char *fname, Obj kwnames, const char *const *names)
{
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    for (int64_t i = 0; i < nkw; i++) {
        Obj k = TUPLE_ITEMS(kwnames)[i];
        bool known = false;
        for (int j = 0; names[j] && !known; j++)
            known = str_eq_cstr(k, names[j]);
        if (!known) {
            char name[128];
            snprintf(name, sizeof name, "%s", str_cstr(k));   /* a C copy: err_format allocates */
            err_format(E_TypeError, "'%s' is an invalid keyword argument for %s()", name, fname);
            return -1;
        }
    }
    return 0;
}

/* CPython's rule for the constructors that take no keywords: the keywords
 * of a call to a subclass that defines its own __init__ are that __init__'s
 * (the constructor ignores them). */
static Obj own_keywords(Obj type, TypeObj *t, Obj kwnames)
{
    TypeObj *ty = (TypeObj *)type;
    return ty != t && ty->tp_init != t->tp_init ? NULL : kwnames;
}

/* One positional argument and no keyword ("cycle expected 1 argument, got 0"). */
static int check_one_arg(const char *fname, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", fname);
        return -1;
    }
    if (nargs != 1) {
        err_format(E_TypeError, "%s expected 1 argument, got %zu", fname, nargs);
        return -1;
    }
    return 0;
}

/* The state argument of __setstate__: a tuple of min..max items, as
 * PyArg_ParseTuple checks it. NULL with TypeError otherwise. */
static Obj state_tuple(Obj state, int64_t min, int64_t max)
{
    Obj t = vm_unwrap(state);
    if (!IS_TUPLE(t)) {
        err_set(E_TypeError, "state is not a tuple");
        return NULL;
    }
    int64_t n = TUPLE_LEN(t);
    if (n < min || n > max) {
        if (min == max)
            err_format(E_TypeError, "function takes exactly %ld argument%s (%ld given)", (long)min,
                       min == 1 ? "" : "s", (long)n);
        else if (n < min)
            err_format(E_TypeError, "function takes at least %ld argument%s (%ld given)", (long)min,
                       min == 1 ? "" : "s", (long)n);
        else
            err_format(E_TypeError, "function takes at most %ld argument%s (%ld given)", (long)max,
                       max == 1 ? "" : "s", (long)n);
        return NULL;
    }
    return t;
}


/* (type(self), args) and (type(self), args, state): args and state rooted by tuple_pack. */
static Obj reduce_value(Obj self, Obj args, Obj state)
{
    if (!args)
        return NULL;
    if (state)
        return tuple_pack(3, (Obj)TYPE(self), args, state);
    return tuple_pack(2, (Obj)TYPE(self), args);
}

/* A tuple of the int64 indices idx[0..n). */
static Obj ints_tuple(Obj *raw_slot, int64_t start, int64_t n)
{
    Obj t = tuple_new(n);
    if (!t)
        return NULL;
    if (n)
        VM_WRITE(t);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = raw_ints(*raw_slot)[start + i];
        TUPLE_ITEMS(t)[i] = MAKE_SMALLINT(v);   /* indices are far inside the small ints */
    }
    return t;
}

/* ------------------------------------------------------------------ */
/* count                                                               */
/* ------------------------------------------------------------------ */

/* CPython's PyNumber_Check: __index__, __int__ or __float__, or a complex. */
static bool is_number(Obj v)
{
    Obj u = vm_unwrap(v);
    if (IS_INT(u) || IS_FLOAT(u) || IS_COMPLEX(u))
        return true;
    return vm_lookup_special(v, "__index__") || vm_lookup_special(v, "__int__") ||
           vm_lookup_special(v, "__float__");
}

/* An int (bool and subclasses included) equal to 1. */
static bool is_int_one(Obj v)
{
    Obj u = vm_unwrap(v);
    if (IS_SMALLINT(u))
        return SMALLINT_VAL(u) == 1;
    if (TID(u) == TID_BOOL)
        return ((BoolObj *)u)->value == 1;
    return false;   /* a big int is never 1 */
}

static Obj count_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"start", "step", NULL};
    if (check_keywords("count", kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(3);   /* start, step, the type (a subclass may move: __index__ runs Python) */
    Obj res = NULL;
    a[2] = type;
    if (vm_parse_args("count", args, nargs, kwnames, names, 0, 2, a) < 0)
        goto out;
    if (!a[0])
        a[0] = MAKE_SMALLINT(0);
    if (!a[1])
        a[1] = MAKE_SMALLINT(1);
    if (!is_number(a[0]) || !is_number(a[1])) {
        err_set(E_TypeError, "a number is required");
        goto out;
    }
    if (IS_INT(vm_unwrap(a[0])) && is_int_one(a[1])) {
        a[0] = vm_index(a[0]);   /* the exact int */
        if (!a[0])
            goto out;
        a[1] = MAKE_SMALLINT(1);
    }
    Obj c = tm_allocate(TID_COUNTER, sizeof(struct CountObj_));
    if (!c) {
        err_nomemory();
        goto out;
    }
    COUNTOBJ(c)->value = a[0];
    COUNTOBJ(c)->step = a[1];
    res = container_wrap_for_type(T_count, a[2], c);   /* a subclass: an instance around it */
out:
    vm_unroots(a);
    return res;
}

static Obj count_next(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self = vm_unwrap(self);
    r[1] = COUNTOBJ(self)->value;
    Obj step = COUNTOBJ(self)->step;
    Obj next = IS_SMALLINT(r[1]) && IS_SMALLINT(step) ? int_add(r[1], step) : vm_binop(r[1], step, NB_ADD);
    Obj res = NULL;
    if (next) {
        VM_WRITE(r[0]);
        COUNTOBJ(r[0])->value = next;
        res = r[1];
    }
    vm_unroots(r);
    return res;
}

static Obj count_repr(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(COUNTOBJ(vm_unwrap(self))->value);
    if (!r[1])
        goto out;
    if (!is_int_one(COUNTOBJ(vm_unwrap(r[0]))->step)) {
        r[2] = vm_repr(COUNTOBJ(vm_unwrap(r[0]))->step);
        if (!r[2])
            goto out;
    }
    StrBuf b;
    sb_init(&b);
    sb_add_str(&b, TYPE(r[0])->name);
    sb_addc(&b, '(');
    sb_add_str(&b, r[1]);
    if (r[2]) {
        sb_adds(&b, ", ");
        sb_add_str(&b, r[2]);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    vm_unroots(r);
    return res;
}

/* (type, (value,)) for an int counting by 1, else (type, (value, step)). */
static Obj count_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = vm_unwrap(args[0]);
    if (TID(u) != TID_COUNTER) {
        err_format(E_TypeError, "'%s' object is not initialized", type_name(args[0]));
        return NULL;
    }
    Obj v = COUNTOBJ(u)->value, s = COUNTOBJ(u)->step;
    Obj t = IS_SMALLINT(v) && s == MAKE_SMALLINT(1) ? tuple_pack(1, v) : tuple_pack(2, v, s);
    return reduce_value(args[0], t, NULL);
}

/* ------------------------------------------------------------------ */
/* cycle: a = the iterator (NULL once exhausted), b = the saved list,  */
/* i = next index into it, n = firstpass (the iterator's items are     */
/* already saved)                                                      */
/* ------------------------------------------------------------------ */

static Obj cycle_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("cycle", nargs, own_keywords(type, T_cycle, kwnames)) < 0)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_iter(args[0]);
    if (r[0])
        r[1] = list_new(0);
    if (r[1])
        res = new_iter(T_cycle, r[0], r[1], NULL);
    vm_unroots(r);
    return res;
}

static Obj cycle_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    if (ITER(self)->a) {
        r[1] = it_next(ITER(self)->a);
        if (r[1]) {
            if (!ITER(r[0])->n && list_append(ITER(r[0])->b, r[1]) < 0)
                goto out;
            res = r[1];
            goto out;
        }
        if (err_occurred())
            goto out;
        VM_WRITE(r[0]);
        ITER(r[0])->a = NULL;
    }
    Obj saved = ITER(r[0])->b;
    int64_t len = LIST_LEN(saved), i = ITER(r[0])->i;
    if (len == 0)
        goto out;
    if (i >= len)   /* the saved list was shortened from outside */
        i = 0;
    res = LIST_ITEMS(saved)[i];
    VM_WRITE(r[0]);
    ITER(r[0])->i = i + 1 >= len ? 0 : i + 1;
out:
    vm_unroots(r);
    return res;
}

static Obj cycle_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = state_of(args[0], T_cycle);
    if (!r[0])
        goto out;
    if (!ITER(r[0])->a) {
        /* past the first pass: iter(saved) at the next index */
        r[1] = vm_iter(ITER(r[0])->b);
        if (!r[1])
            goto out;
        if (ITER(r[0])->i) {
            r[3] = MAKE_SMALLINT(ITER(r[0])->i);
            if (!vm_call_method(r[1], "__setstate__", &r[3], 1))
                goto out;
        }
        r[1] = tuple_pack(1, r[1]);
        r[2] = tuple_pack(2, ITER(r[0])->b, g_True);
    } else {
        r[1] = tuple_pack(1, ITER(r[0])->a);
        r[2] = tuple_pack(2, ITER(r[0])->b, ITER(r[0])->n ? g_True : g_False);
    }
    if (r[1] && r[2])
        res = reduce_value(args[0], r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

static Obj cycle_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_cycle))
        return NULL;
    Obj t = state_tuple(args[1], 2, 2);
    if (!t)
        return NULL;
    Obj saved = vm_unwrap(TUPLE_ITEMS(t)[0]);
    if (!IS_LIST(saved)) {
        err_format(E_TypeError, "argument 1 must be list, not %s", type_name(TUPLE_ITEMS(t)[0]));
        return NULL;
    }
    int64_t firstpass;
    if (arg_c_int(TUPLE_ITEMS(t)[1], &firstpass) < 0)
        return NULL;
    Obj u = vm_unwrap(args[0]);
    t = vm_unwrap(args[1]);
    VM_WRITE(u);
    ITER(u)->b = vm_unwrap(TUPLE_ITEMS(t)[0]);
    ITER(u)->n = firstpass != 0;
    ITER(u)->i = 0;
    return g_None;
}

/* ------------------------------------------------------------------ */
/* repeat: a = the object, i = times left (-1: forever)                */
/* ------------------------------------------------------------------ */

static Obj repeat_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"object", "times", NULL};
    if (check_keywords("repeat", kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("repeat", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    int64_t cnt = -1;
    if (a[1]) {
        if (arg_ssize(a[1], &cnt) < 0)
            goto out;
        if (cnt < 0)
            cnt = 0;
    }
    res = new_iter(T_repeat, a[0], NULL, NULL);
    if (res)
        ITER(res)->i = cnt;
out:
    vm_unroots(a);
    return res;
}

static Obj repeat_next(Obj self)
{
    int64_t cnt = ITER(self)->i;
    if (cnt == 0)
        return NULL;
    if (cnt > 0) {
        VM_WRITE(self);
        ITER(self)->i = cnt - 1;
    }
    return ITER(self)->a;
}

/* "repeat(object)", "repeat(object, times)" (a subclass's instance comes wrapped: its name) */
static Obj repeat_repr(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = vm_repr(ITER(vm_unwrap(self))->a);
    if (r[1]) {
        int64_t cnt = ITER(vm_unwrap(r[0]))->i;
        StrBuf b;
        sb_init(&b);
        sb_add_str(&b, TYPE(r[0])->name);
        sb_addc(&b, '(');
        sb_add_str(&b, r[1]);
        if (cnt >= 0) {
            char num[32];
            snprintf(num, sizeof num, ", %ld", (long)cnt);
            sb_adds(&b, num);
        }
        sb_addc(&b, ')');
        res = sb_finish(&b);
    }
    vm_unroots(r);
    return res;
}

static Obj repeat_length_hint(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_repeat);
    if (!u)
        return NULL;
    if (ITER(u)->i < 0) {
        err_set(E_TypeError, "len() of unsized object");
        return NULL;
    }
    return int_from_i64(ITER(u)->i);
}

static Obj repeat_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_repeat);
    if (!u)
        return NULL;
    int64_t cnt = ITER(u)->i;
    if (cnt < 0) {
        Obj t = tuple_pack(1, ITER(u)->a);
        return reduce_value(args[0], t, NULL);
    }
    Obj *r = vm_roots(1);
    r[0] = int_from_i64(cnt);
    Obj t = r[0] ? tuple_pack(2, ITER(vm_unwrap(args[0]))->a, r[0]) : NULL;
    vm_unroots(r);
    return reduce_value(args[0], t, NULL);
}

/* ------------------------------------------------------------------ */
/* accumulate: a = the iterator, b = the function (NULL: +), c = the   */
/* running total (NULL before the first), n = c is the initial value,  */
/* not yet given out                                                   */
/* ------------------------------------------------------------------ */

static Obj accumulate_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "func", "initial", NULL};
    if (check_keywords("accumulate", kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("accumulate", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    a[3] = vm_iter(a[0]);
    if (!a[3])
        goto out;
    bool initial = a[2] && !IS_NONE(a[2]);
    res = new_iter(T_accumulate, a[3], a[1] && !IS_NONE(a[1]) ? a[1] : NULL, initial ? a[2] : NULL);
    if (res)
        ITER(res)->n = initial;
out:
    vm_unroots(a);
    return res;
}

static Obj accumulate_next(Obj self)
{
    if (ITER(self)->n) {
        VM_WRITE(self);
        ITER(self)->n = 0;
        return ITER(self)->c;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = it_next(ITER(self)->a);
    if (!r[1])
        goto out;
    r[2] = ITER(r[0])->c;
    if (r[2]) {
        Obj f = ITER(r[0])->b;
        r[1] = f ? vm_call2(f, r[2], r[1]) : vm_binop(r[2], r[1], NB_ADD);
        if (!r[1])
            goto out;
    }
    VM_WRITE(r[0]);
    ITER(r[0])->c = r[1];
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj accumulate_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = state_of(args[0], T_accumulate);
    if (!r[0])
        goto out;
    r[3] = ITER(r[0])->b ? ITER(r[0])->b : g_None;
    if (ITER(r[0])->n || (ITER(r[0])->c && IS_NONE(ITER(r[0])->c))) {
        /* chain((initial or total,), it): a None total cannot be the state */
        bool initial = ITER(r[0])->n;
        r[1] = tuple_pack(1, ITER(r[0])->c);
        if (r[1])
            r[1] = tuple_pack(2, r[1], ITER(r[0])->a);
        if (r[1])
            r[1] = vm_iter(r[1]);
        if (r[1])
            r[1] = new_iter(T_chain, r[1], NULL, NULL);
        if (!r[1])
            goto out;
        if (initial) {
            r[1] = tuple_pack(2, r[1], r[3]);
            res = reduce_value(args[0], r[1], g_None);
            goto out;
        }
        /* islice(accumulate(chain((None,), it), func), 1, None) */
        r[2] = r[1];
        r[1] = vm_call2((Obj)TYPE(args[0]), r[2], r[3]);
        if (r[1])
            r[1] = tuple_pack(3, r[1], MAKE_SMALLINT(1), g_None);
        if (r[1])
            res = tuple_pack(2, (Obj)T_islice, r[1]);
        goto out;
    }
    r[1] = tuple_pack(2, ITER(r[0])->a, r[3]);
    res = reduce_value(args[0], r[1], ITER(r[0])->c ? ITER(r[0])->c : g_None);
out:
    vm_unroots(r);
    return res;
}

static Obj accumulate_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_accumulate);
    if (!u)
        return NULL;
    VM_WRITE(u);
    ITER(u)->c = args[1];
    ITER(u)->n = 0;
    return g_None;
}

/* ------------------------------------------------------------------ */
/* chain: a = the iterator of iterables (NULL once exhausted), b = the */
/* iterator being read (NULL: take the next iterable)                  */
/* ------------------------------------------------------------------ */

static Obj chain_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("chain", nargs, own_keywords(type, T_chain, kwnames), 0, -1) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = tuple_from_array(args, (int64_t)nargs);
    if (r[0])
        r[0] = vm_iter(r[0]);
    if (r[0])
        res = new_iter(T_chain, r[0], NULL, NULL);
    vm_unroots(r);
    return res;
}

static Obj chain_from_iterable(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_iter(args[1]);
    if (r[0])
        r[0] = new_iter(T_chain, r[0], NULL, NULL);
    if (r[0])
        res = container_wrap_for_type(T_chain, args[0], r[0]);
    vm_unroots(r);
    return res;
}

static Obj chain_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    while (ITER(r[0])->a) {
        if (!ITER(r[0])->b) {
            r[1] = it_next(ITER(r[0])->a);
            if (r[1])
                r[1] = vm_iter(r[1]);
            if (!r[1]) {   /* no more iterables, or an error */
                VM_WRITE(r[0]);
                ITER(r[0])->a = NULL;
                break;
            }
            VM_WRITE(r[0]);
            ITER(r[0])->b = r[1];
        }
        r[1] = it_next(ITER(r[0])->b);
        if (r[1]) {
            res = r[1];
            break;
        }
        if (err_occurred())
            break;
        VM_WRITE(r[0]);
        ITER(r[0])->b = NULL;
    }
    vm_unroots(r);
    return res;
}

static Obj chain_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_chain);
    if (!u)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = g_empty_tuple;
    if (ITER(u)->a) {
        r[1] = ITER(u)->b ? tuple_pack(2, ITER(u)->a, ITER(u)->b) : tuple_pack(1, ITER(u)->a);
        if (r[1])
            res = reduce_value(args[0], r[0], r[1]);
    } else {
        res = reduce_value(args[0], r[0], NULL);
    }
    vm_unroots(r);
    return res;
}

static Obj chain_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_chain))
        return NULL;
    Obj t = state_tuple(args[1], 1, 2);
    if (!t)
        return NULL;
    Obj source = TUPLE_ITEMS(t)[0], active = TUPLE_LEN(t) > 1 ? TUPLE_ITEMS(t)[1] : NULL;
    if (!TYPE(source)->tp_iternext || (active && !TYPE(active)->tp_iternext)) {
        err_set(E_TypeError, "Arguments must be iterators.");
        return NULL;
    }
    Obj u = vm_unwrap(args[0]);
    VM_WRITE(u);
    ITER(u)->a = source;
    ITER(u)->b = active;
    return g_None;
}

static Obj chain_class_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    return generic_alias_new(args[0], args[1]);
}

/* ------------------------------------------------------------------ */
/* compress: a = the data iterator, b = the selectors iterator         */
/* ------------------------------------------------------------------ */

static Obj compress_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"data", "selectors", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("compress", args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    a[0] = vm_iter(a[0]);
    if (a[0])
        a[1] = vm_iter(a[1]);
    if (a[0] && a[1])
        res = new_iter(T_compress, a[0], a[1], NULL);
out:
    vm_unroots(a);
    return res;
}

static Obj compress_next(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    for (;;) {
        r[1] = it_next(ITER(r[0])->a);
        if (!r[1])
            break;
        r[2] = it_next(ITER(r[0])->b);
        if (!r[2])
            break;
        int ok = vm_is_true(r[2]);
        if (ok < 0)
            break;
        if (ok) {
            res = r[1];
            break;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj compress_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_compress);
    if (!u)
        return NULL;
    Obj t = tuple_pack(2, ITER(u)->a, ITER(u)->b);
    return reduce_value(args[0], t, NULL);
}

/* ------------------------------------------------------------------ */
/* dropwhile, takewhile, filterfalse, starmap: a = the function, b =   */
/* the iterator; i = dropwhile's "started", takewhile's "stopped"      */
/* ------------------------------------------------------------------ */

static Obj func_iter_new(Obj type, TypeObj *t, const char *name, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args(name, nargs, own_keywords(type, t, kwnames), 2, 2) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_iter(args[1]);
    if (r[0])
        res = new_iter(t, args[0], r[0], NULL);
    vm_unroots(r);
    return res;
}

static Obj dropwhile_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return func_iter_new(type, T_dropwhile, "dropwhile", args, nargs, kwnames);
}

static Obj takewhile_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return func_iter_new(type, T_takewhile, "takewhile", args, nargs, kwnames);
}

static Obj filterfalse_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return func_iter_new(type, T_filterfalse, "filterfalse", args, nargs, kwnames);
}

static Obj starmap_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return func_iter_new(type, T_starmap, "starmap", args, nargs, kwnames);
}

/* predicate(item) as a truth value: 1, 0, -1. None and bool mean the item's truth. */
static int predicate_true(Obj func, Obj *item_slot)
{
    if (IS_NONE(func) || func == (Obj)T_bool)
        return vm_is_true(*item_slot);
    Obj v = vm_call(func, item_slot, 1, NULL);
    return v ? vm_is_true(v) : -1;
}

static Obj dropwhile_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    for (;;) {
        r[1] = it_next(ITER(r[0])->b);
        if (!r[1] || ITER(r[0])->i) {
            res = r[1];
            break;
        }
        Obj v = vm_call(ITER(r[0])->a, &r[1], 1, NULL);
        int ok = v ? vm_is_true(v) : -1;
        if (ok < 0)
            break;
        if (!ok) {
            VM_WRITE(r[0]);
            ITER(r[0])->i = 1;
            res = r[1];
            break;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj takewhile_next(Obj self)
{
    if (ITER(self)->i)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = it_next(ITER(self)->b);
    if (r[1]) {
        Obj v = vm_call(ITER(r[0])->a, &r[1], 1, NULL);
        int ok = v ? vm_is_true(v) : -1;
        if (ok > 0) {
            res = r[1];
        } else if (ok == 0) {
            VM_WRITE(r[0]);
            ITER(r[0])->i = 1;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj filterfalse_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    for (;;) {
        r[1] = it_next(ITER(r[0])->b);
        if (!r[1])
            break;
        int ok = predicate_true(ITER(r[0])->a, &r[1]);
        if (ok < 0)
            break;
        if (!ok) {
            res = r[1];
            break;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj starmap_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = it_next(ITER(self)->b);
    if (!r[1])
        goto out;
    if (TID(r[1]) != TID_TUPLE) {
        r[1] = vm_tuple_from_iter(r[1]);
        if (!r[1])
            goto out;
    }
    int64_t n = TUPLE_LEN(r[1]);
    Obj *a = vm_roots((int)n);
    for (int64_t i = 0; i < n; i++)
        a[i] = TUPLE_ITEMS(r[1])[i];
    res = vm_call(ITER(r[0])->a, a, (size_t)n, NULL);
    vm_unroots(a);
out:
    vm_unroots(r);
    return res;
}

static Obj func_iter_reduce(Obj *args, TypeObj *t, bool with_flag)
{
    Obj u = state_of(args[0], t);
    if (!u)
        return NULL;
    Obj flag = ITER(u)->i ? g_True : g_False;
    Obj tup = tuple_pack(2, ITER(u)->a, ITER(u)->b);
    return reduce_value(args[0], tup, with_flag ? flag : NULL);
}

static Obj func_iter_setflag(Obj *args, TypeObj *t)
{
    if (!state_of(args[0], t))
        return NULL;
    int v = vm_is_true(args[1]);
    if (v < 0)
        return NULL;
    Obj u = vm_unwrap(args[0]);
    VM_WRITE(u);
    ITER(u)->i = v;
    return g_None;
}

static Obj dropwhile_reduce(Obj *args, size_t nargs, Obj kwnames) { return func_iter_reduce(args, T_dropwhile, true); }
static Obj takewhile_reduce(Obj *args, size_t nargs, Obj kwnames) { return func_iter_reduce(args, T_takewhile, true); }
static Obj filterfalse_reduce(Obj *args, size_t nargs, Obj kwnames) { return func_iter_reduce(args, T_filterfalse, false); }
static Obj starmap_reduce(Obj *args, size_t nargs, Obj kwnames) { return func_iter_reduce(args, T_starmap, false); }
static Obj dropwhile_setstate(Obj *args, size_t nargs, Obj kwnames) { return func_iter_setflag(args, T_dropwhile); }
static Obj takewhile_setstate(Obj *args, size_t nargs, Obj kwnames) { return func_iter_setflag(args, T_takewhile); }

/* ------------------------------------------------------------------ */
/* islice: a = the iterator (NULL once done), i = index of the next    */
/* item to give, n = stop (-1: None), kind = step, c = items read so   */
/* far (a small int)                                                   */
/* ------------------------------------------------------------------ */

static const char islice_stop_msg[] = "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.";

static Obj islice_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("islice", nargs, own_keywords(type, T_islice, kwnames), 2, 4) < 0)
        return NULL;
    int64_t start = 0, stop = -1, step = 1;
    if (nargs == 2) {
        if (!IS_NONE(args[1]) && (arg_ssize(args[1], &stop) < 0 || stop == -1)) {
            err_clear();
            err_set(E_ValueError, islice_stop_msg);
            return NULL;
        }
    } else {
        if (!IS_NONE(args[1]) && arg_ssize(args[1], &start) < 0) {
            err_clear();
            start = -1;
        }
        if (!IS_NONE(args[2]) && (arg_ssize(args[2], &stop) < 0 || stop == -1)) {
            err_clear();
            err_set(E_ValueError, islice_stop_msg);
            return NULL;
        }
    }
    if (start < 0 || stop < -1) {
        err_set(E_ValueError, "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
        return NULL;
    }
    if (nargs == 4 && !IS_NONE(args[3]) && arg_ssize(args[3], &step) < 0) {
        err_clear();
        step = -1;
    }
    if (step < 1) {
        err_set(E_ValueError, "Step for islice() must be a positive integer or None.");
        return NULL;
    }
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_iter(args[0]);
    if (r[0])
        res = new_iter(T_islice, r[0], NULL, MAKE_SMALLINT(0));
    if (res) {
        ITER(res)->i = start;
        ITER(res)->n = stop;
        ITER(res)->kind = step;
    }
    vm_unroots(r);
    return res;
}

static Obj islice_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    while (SMALLINT_VAL(ITER(r[0])->c) < ITER(r[0])->i) {
        r[1] = it_next(ITER(r[0])->a);
        if (!r[1])
            goto empty;
        VM_WRITE(r[0]);
        ITER(r[0])->c = MAKE_SMALLINT(SMALLINT_VAL(ITER(r[0])->c) + 1);
    }
    int64_t stop = ITER(r[0])->n;
    if (stop != -1 && SMALLINT_VAL(ITER(r[0])->c) >= stop)
        goto empty;
    r[1] = it_next(ITER(r[0])->a);
    if (!r[1])
        goto empty;
    IterObj *p = ITER(r[0]);
    VM_WRITE(r[0]);
    p->c = MAKE_SMALLINT(SMALLINT_VAL(p->c) + 1);
    int64_t oldnext = p->i;
    int64_t next = (int64_t)((uint64_t)oldnext + (uint64_t)p->kind);
    stop = p->n;
    if (next < oldnext || (stop != -1 && next > stop))
        next = stop;
    p->i = next;
    res = r[1];
    goto out;
empty:
    VM_WRITE(r[0]);
    ITER(r[0])->a = NULL;
out:
    vm_unroots(r);
    return res;
}

static Obj islice_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = state_of(args[0], T_islice);
    if (!r[0])
        goto out;
    if (!ITER(r[0])->a) {
        r[1] = list_new(0);
        if (r[1])
            r[1] = vm_iter(r[1]);
        if (r[1])
            r[1] = tuple_pack(2, r[1], MAKE_SMALLINT(0));
        res = reduce_value(args[0], r[1], MAKE_SMALLINT(0));
        goto out;
    }
    r[2] = ITER(r[0])->n == -1 ? g_None : int_from_i64(ITER(r[0])->n);
    if (!r[2])
        goto out;
    Obj *n = vm_roots(2);
    n[0] = int_from_i64(ITER(r[0])->i);
    n[1] = n[0] ? int_from_i64(ITER(r[0])->kind) : NULL;
    if (n[1])
        r[1] = tuple_pack(4, ITER(r[0])->a, n[0], r[2], n[1]);
    vm_unroots(n);
    res = reduce_value(args[0], r[1], ITER(r[0])->c);
out:
    vm_unroots(r);
    return res;
}

static Obj islice_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_islice))
        return NULL;
    int64_t cnt;
    if (arg_ssize(args[1], &cnt) < 0)
        return NULL;
    if (cnt < 0 || !SMALLINT_FITS(cnt))
        cnt = cnt < 0 ? 0 : SMALLINT_MAX;
    Obj u = vm_unwrap(args[0]);
    VM_WRITE(u);
    ITER(u)->c = MAKE_SMALLINT(cnt);
    return g_None;
}

/* ------------------------------------------------------------------ */
/* pairwise: a = the iterator (NULL once done), b = the last item      */
/* ------------------------------------------------------------------ */

static Obj pairwise_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("pairwise", nargs, own_keywords(type, T_pairwise, kwnames)) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_iter(args[0]);
    if (r[0])
        res = new_iter(T_pairwise, r[0], NULL, NULL);
    vm_unroots(r);
    return res;
}

static Obj pairwise_next(Obj self)
{
    if (!ITER(self)->a)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    if (!ITER(self)->b) {
        r[1] = it_next(ITER(self)->a);
        if (!r[1])
            goto done;
        VM_WRITE(r[0]);
        ITER(r[0])->b = r[1];
    }
    r[2] = it_next(ITER(r[0])->a);
    if (!r[2])
        goto done;
    res = tuple_pack(2, ITER(r[0])->b, r[2]);
    if (res) {
        VM_WRITE(r[0]);
        ITER(r[0])->b = r[2];
    }
    goto out;
done:
    VM_WRITE(r[0]);
    ITER(r[0])->a = NULL;
    ITER(r[0])->b = NULL;
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* groupby: a = the iterator, b = the key function (None: the item),   */
/* c = an ArrayObj [tgtkey, currkey, currvalue] (NULL: not set), i =   */
/* the number of the current _grouper (CPython's currgrouper pointer:  */
/* a group's _grouper yields only while its number is current).        */
/* _grouper: a = the groupby, b = its key, n = its number.             */
/* ------------------------------------------------------------------ */

enum { GB_TGTKEY, GB_CURRKEY, GB_CURRVALUE };

static Obj gb_get(Obj gb, int k)
{
    return ARRAY(ITER(gb)->c)->items[k];
}

static void gb_set(Obj gb, int k, Obj v)
{
    Obj st = ITER(gb)->c;
    VM_WRITE(st);
    ARRAY(st)->items[k] = v;
}

static Obj groupby_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "key", NULL};
    if (check_keywords("groupby", kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("groupby", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    a[0] = vm_iter(a[0]);
    if (a[0])
        a[2] = array_new(3);
    if (a[2])
        res = new_iter(T_groupby, a[0], a[1] ? a[1] : g_None, a[2]);
out:
    vm_unroots(a);
    return res;
}

/* Read the next item and its key into currvalue and currkey: 0, or -1
 * (exhausted, or an error). *slot: the groupby, in a root slot. */
static int groupby_step(Obj *slot)
{
    Obj *r = vm_roots(2);
    int rc = -1;
    r[0] = it_next(ITER(*slot)->a);
    if (!r[0])
        goto out;
    Obj kf = ITER(*slot)->b;
    r[1] = IS_NONE(kf) ? r[0] : vm_call(kf, &r[0], 1, NULL);
    if (!r[1])
        goto out;
    gb_set(*slot, GB_CURRVALUE, r[0]);
    gb_set(*slot, GB_CURRKEY, r[1]);
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* A new _grouper of gb (in *slot) for tgtkey, made the current one. */
static Obj grouper_create(Obj *slot, Obj tgtkey)
{
    Obj g = new_iter(T_grouper, *slot, tgtkey, NULL);
    if (!g)
        return NULL;
    Obj gb = vm_unwrap(ITER(g)->a);
    int64_t num = ITER(gb)->i + 1;
    VM_WRITE(gb);
    ITER(gb)->i = num;
    ITER(g)->n = num;   /* g is new: nothing allocated since */
    return g;
}

static Obj groupby_next(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    VM_WRITE(self);
    ITER(self)->i++;   /* the current _grouper ends */
    for (;;) {
        if (!gb_get(r[0], GB_CURRKEY)) {
            /* nothing read yet */
        } else if (!gb_get(r[0], GB_TGTKEY)) {
            break;
        } else {
            int eq = vm_richcompare_bool(gb_get(r[0], GB_TGTKEY), gb_get(r[0], GB_CURRKEY), CMP_EQ);
            if (eq < 0)
                goto out;
            if (!eq)
                break;
        }
        if (groupby_step(&r[0]) < 0)
            goto out;
    }
    r[1] = gb_get(r[0], GB_CURRKEY);
    gb_set(r[0], GB_TGTKEY, r[1]);
    r[2] = grouper_create(&r[0], r[1]);
    if (r[2])
        res = tuple_pack(2, r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

static Obj groupby_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = state_of(args[0], T_groupby);
    if (!r[0])
        goto out;
    r[1] = tuple_pack(2, ITER(r[0])->a, ITER(r[0])->b);
    if (!r[1])
        goto out;
    if (gb_get(r[0], GB_TGTKEY) && gb_get(r[0], GB_CURRKEY) && gb_get(r[0], GB_CURRVALUE)) {
        Obj st = tuple_pack(3, gb_get(r[0], GB_CURRKEY), gb_get(r[0], GB_CURRVALUE), gb_get(r[0], GB_TGTKEY));
        res = st ? reduce_value(args[0], r[1], st) : NULL;
    } else {
        res = reduce_value(args[0], r[1], NULL);
    }
out:
    vm_unroots(r);
    return res;
}

static Obj groupby_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_groupby);
    if (!u)
        return NULL;
    Obj t = state_tuple(args[1], 3, 3);
    if (!t)
        return NULL;
    gb_set(u, GB_CURRKEY, TUPLE_ITEMS(t)[0]);
    gb_set(u, GB_CURRVALUE, TUPLE_ITEMS(t)[1]);
    gb_set(u, GB_TGTKEY, TUPLE_ITEMS(t)[2]);
    return g_None;
}

static Obj grouper_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("_grouper", nargs, kwnames, 2, 2) < 0)
        return NULL;
    if (!vm_isinstance_type(args[0], T_groupby) || !state_of(args[0], T_groupby)) {
        err_clear();
        err_format(E_TypeError, "_grouper() argument 1 must be itertools.groupby, not %s", type_name(args[0]));
        return NULL;
    }
    return grouper_create(&args[0], args[1]);
}

static Obj grouper_next(Obj self)
{
    Obj gb = vm_unwrap(ITER(self)->a);
    if (ITER(gb)->i != ITER(self)->n)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    if (!gb_get(gb, GB_CURRVALUE)) {
        r[1] = gb;
        if (groupby_step(&r[1]) < 0)
            goto out;
    }
    gb = vm_unwrap(ITER(r[0])->a);
    int eq = vm_richcompare_bool(ITER(r[0])->b, gb_get(gb, GB_CURRKEY), CMP_EQ);
    if (eq <= 0)   /* an error, or the group ends */
        goto out;
    gb = vm_unwrap(ITER(r[0])->a);
    res = gb_get(gb, GB_CURRVALUE);
    gb_set(gb, GB_CURRVALUE, NULL);
out:
    vm_unroots(r);
    return res;
}

/* (_grouper, (groupby, key)) while current, else iter(()). */
static Obj grouper_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_grouper);
    if (!u)
        return NULL;
    Obj gb = vm_unwrap(ITER(u)->a);
    if (ITER(gb)->i != ITER(u)->n) {
        Obj *r = vm_roots(1);
        r[0] = dict_getitem_cstr(g_builtins, "iter");
        Obj t = tuple_pack(1, g_empty_tuple);
        Obj res = t ? tuple_pack(2, r[0], t) : NULL;
        vm_unroots(r);
        return res;
    }
    Obj t = tuple_pack(2, ITER(u)->a, ITER(u)->b);
    return reduce_value(args[0], t, NULL);
}

/* ------------------------------------------------------------------ */
/* tee: a _tee object has a = its _tee_dataobject, i = the index of    */
/* its next value in it. A _tee_dataobject has a = the iterator, b =   */
/* an ArrayObj of TEE_LINK_SIZE values (n of them read), c = the next  */
/* _tee_dataobject (NULL until a tee object needs it), i = "running"   */
/* (the iterator is being read: re-entry raises RuntimeError).         */
/* ------------------------------------------------------------------ */

static Obj teedata_new_internal(Obj it)
{
    Obj *r = vm_roots(2);
    r[0] = it;
    r[1] = array_new(TEE_LINK_SIZE);
    Obj res = r[1] ? new_iter(T_teedata, r[0], r[1], NULL) : NULL;
    vm_unroots(r);
    return res;
}

static Obj teedata_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("teedataobject", nargs, kwnames, 3, 3) < 0)
        return NULL;
    Obj values = vm_unwrap(args[1]);
    if (!IS_LIST(values)) {
        err_format(E_TypeError, "teedataobject() argument 2 must be list, not %s", type_name(args[1]));
        return NULL;
    }
    Obj next = args[2];
    int64_t len = LIST_LEN(values);
    if (len > TEE_LINK_SIZE || (len == TEE_LINK_SIZE && !IS_NONE(next) && !(TID(next) == TID_ITER && ITER(next)->cls == (Obj)T_teedata)) ||
        (len < TEE_LINK_SIZE && !IS_NONE(next))) {
        err_set(E_ValueError, "Invalid arguments");
        return NULL;
    }
    Obj d = teedata_new_internal(args[0]);
    if (!d)
        return NULL;
    values = vm_unwrap(args[1]);
    len = LIST_LEN(values);   /* (unchanged: no Python code ran) */
    Obj arr = ITER(d)->b;
    VM_WRITE(arr);
    for (int64_t i = 0; i < len; i++)
        ARRAY(arr)->items[i] = LIST_ITEMS(values)[i];
    VM_WRITE(d);
    ITER(d)->n = len;
    if (!IS_NONE(args[2]))
        ITER(d)->c = args[2];
    return d;
}

static Obj teedata_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = state_of(args[0], T_teedata);
    if (!r[0])
        goto out;
    int64_t n = ITER(r[0])->n;
    r[1] = list_new(n);
    if (!r[1])
        goto out;
    for (int64_t i = 0; i < n; i++) {
        Obj arr = LIST(r[1])->array;
        VM_WRITE(arr);
        ARRAY(arr)->items[i] = ARRAY(ITER(r[0])->b)->items[i];
    }
    r[1] = tuple_pack(3, ITER(r[0])->a, r[1], ITER(r[0])->c ? ITER(r[0])->c : g_None);
    res = reduce_value(args[0], r[1], NULL);
out:
    vm_unroots(r);
    return res;
}

static Obj tee_from_data(Obj data, int64_t index)
{
    Obj t = new_iter(T_tee, data, NULL, NULL);
    if (t)
        ITER(t)->i = index;
    return t;
}

/* _tee(iterable): a copy of a tee object, or a tee object over iter(iterable). */
static Obj tee_fromiterable(Obj iterable)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_iter(iterable);
    if (!r[0])
        goto out;
    if (TID(r[0]) == TID_ITER && ITER(r[0])->cls == (Obj)T_tee) {
        res = tee_from_data(ITER(r[0])->a, ITER(r[0])->i);
        goto out;
    }
    r[0] = teedata_new_internal(r[0]);
    if (r[0])
        res = tee_from_data(r[0], 0);
out:
    vm_unroots(r);
    return res;
}

static Obj tee_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("_tee", nargs, kwnames) < 0)
        return NULL;
    return tee_fromiterable(args[0]);
}

static Obj tee_next(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    if (ITER(self)->i >= TEE_LINK_SIZE) {
        /* on to the next link, made by the first tee object that gets there */
        if (!ITER(ITER(self)->a)->c) {
            r[1] = teedata_new_internal(ITER(ITER(self)->a)->a);
            if (!r[1])
                goto out;
            Obj d = ITER(r[0])->a;
            VM_WRITE(d);
            ITER(d)->c = r[1];
        }
        Obj next = ITER(ITER(r[0])->a)->c;
        VM_WRITE(r[0]);
        ITER(r[0])->a = next;
        ITER(r[0])->i = 0;
    }
    r[1] = ITER(r[0])->a;
    int64_t i = ITER(r[0])->i;
    if (i < ITER(r[1])->n) {
        res = ARRAY(ITER(r[1])->b)->items[i];
    } else {
        if (ITER(r[1])->i) {
            err_set(E_RuntimeError, "cannot re-enter the tee iterator");
            goto out;
        }
        VM_WRITE(r[1]);
        ITER(r[1])->i = 1;
        Obj v = it_next(ITER(r[1])->a);
        VM_WRITE(r[1]);
        ITER(r[1])->i = 0;
        if (!v)
            goto out;
        int64_t n = ITER(r[1])->n;   /* == i: no other reader got in while it ran */
        Obj arr = ITER(r[1])->b;
        VM_WRITE(arr);
        ARRAY(arr)->items[n] = v;
        ITER(r[1])->n = n + 1;
        res = v;
    }
    VM_WRITE(r[0]);
    ITER(r[0])->i = i + 1;
out:
    vm_unroots(r);
    return res;
}

static Obj tee_copy(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_tee);
    return u ? tee_from_data(ITER(u)->a, ITER(u)->i) : NULL;
}

static Obj tee_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_tee);
    if (!u)
        return NULL;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = tuple_pack(2, ITER(u)->a, MAKE_SMALLINT(ITER(u)->i));
    if (r[0])
        r[1] = tuple_pack(1, g_empty_tuple);
    if (r[1])
        res = reduce_value(args[0], r[1], r[0]);
    vm_unroots(r);
    return res;
}

static Obj tee_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    if (!state_of(args[0], T_tee))
        return NULL;
    Obj t = state_tuple(args[1], 2, 2);
    if (!t)
        return NULL;
    Obj d = TUPLE_ITEMS(t)[0];
    if (!(TID(d) == TID_ITER && ITER(d)->cls == (Obj)T_teedata)) {
        err_format(E_TypeError, "argument 1 must be itertools._tee_dataobject, not %s", type_name(d));
        return NULL;
    }
    int64_t index;
    if (arg_c_int(TUPLE_ITEMS(t)[1], &index) < 0)
        return NULL;
    if (index < 0 || index > TEE_LINK_SIZE) {
        err_set(E_ValueError, "Index out of range");
        return NULL;
    }
    t = vm_unwrap(args[1]);
    Obj u = vm_unwrap(args[0]);
    VM_WRITE(u);
    ITER(u)->a = TUPLE_ITEMS(t)[0];
    ITER(u)->i = index;
    return g_None;
}

/* tee(iterable, n=2, /): n independent iterators. */
static Obj itertools_tee(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n = 2;
    if (nargs > 1 && arg_ssize(args[1], &n) < 0)
        return NULL;
    if (n < 0) {
        err_set(E_ValueError, "n must be >= 0");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = tuple_new(n);
    if (!r[0])
        goto out;
    if (n == 0) {
        res = r[0];
        goto out;
    }
    VM_WRITE(r[0]);
    for (int64_t i = 0; i < n; i++)
        TUPLE_ITEMS(r[0])[i] = g_None;
    r[1] = vm_iter(args[0]);
    if (!r[1])
        goto out;
    r[2] = str_intern_cstr("__copy__");
    r[2] = vm_getattr_opt(r[1], r[2]);
    if (!r[2]) {
        if (err_occurred())
            goto out;
        r[1] = tee_fromiterable(r[1]);
        if (!r[1])
            goto out;
        r[2] = vm_getattr_cstr(r[1], "__copy__");
        if (!r[2])
            goto out;
    }
    /* iter() and __copy__ may run Python code, which may have committed the
     * tuple: a tuple is read without barriers once published */
    VM_WRITE_RARE(r[0]);
    TUPLE_ITEMS(r[0])[0] = r[1];
    for (int64_t i = 1; i < n; i++) {
        Obj c = vm_call0(r[2]);
        if (!c)
            goto out;
        VM_WRITE_RARE(r[0]);
        TUPLE_ITEMS(r[0])[i] = c;
    }
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* zip_longest: a = an ArrayObj of the iterators (NULL: exhausted), b  */
/* = the fill value, n = iterators not yet exhausted                   */
/* ------------------------------------------------------------------ */

static Obj zip_longest_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    if (nkw > 1 || (nkw == 1 && !str_eq_cstr(TUPLE_ITEMS(kwnames)[0], "fillvalue"))) {
        err_set(E_TypeError, "zip_longest() got an unexpected keyword argument");
        return NULL;
    }
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[1] = nkw ? args[nargs] : g_None;
    r[0] = array_new((int64_t)nargs);
    for (size_t i = 0; r[0] && i < nargs; i++) {
        r[2] = vm_iter(args[i]);
        if (!r[2])
            goto out;
        VM_WRITE(r[0]);
        ARRAY(r[0])->items[i] = r[2];
    }
    if (!r[0])
        goto out;
    res = new_iter(T_zip_longest, r[0], r[1], NULL);
    if (res)
        ITER(res)->n = (int64_t)nargs;
out:
    vm_unroots(r);
    return res;
}

static Obj zip_longest_next(Obj self)
{
    int64_t n = ARRAY(ITER(self)->a)->length;
    if (n == 0 || ITER(self)->n == 0)
        return NULL;
    Obj *r = vm_roots((int)n + 1);
    Obj res = NULL;
    r[n] = self;
    for (int64_t i = 0; i < n; i++) {
        Obj it = ARRAY(ITER(r[n])->a)->items[i];
        if (!it) {
            r[i] = ITER(r[n])->b;
            continue;
        }
        r[i] = it_next(it);
        if (r[i])
            continue;
        VM_WRITE(r[n]);
        ITER(r[n])->n--;
        if (ITER(r[n])->n == 0 || err_occurred()) {
            ITER(r[n])->n = 0;
            goto out;
        }
        Obj its = ITER(r[n])->a;
        VM_WRITE(its);
        ARRAY(its)->items[i] = NULL;
        r[i] = ITER(r[n])->b;
    }
    res = tuple_from_array(r, n);
out:
    vm_unroots(r);
    return res;
}

static Obj zip_longest_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = state_of(args[0], T_zip_longest);
    if (!r[0])
        goto out;
    int64_t n = ARRAY(ITER(r[0])->a)->length;
    r[1] = tuple_new(n);
    if (!r[1])
        goto out;
    if (n)
        VM_WRITE(r[1]);
    for (int64_t i = 0; i < n; i++) {
        Obj it = ARRAY(ITER(r[0])->a)->items[i];
        TUPLE_ITEMS(r[1])[i] = it ? it : g_empty_tuple;
    }
    res = reduce_value(args[0], r[1], ITER(r[0])->b);
out:
    vm_unroots(r);
    return res;
}

static Obj zip_longest_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_zip_longest);
    if (!u)
        return NULL;
    VM_WRITE(u);
    ITER(u)->b = args[1];
    return g_None;
}

/* ------------------------------------------------------------------ */
/* The combinatoric iterators. product: a = the pools (a tuple of      */
/* tuples), b = a RawObj of one index per pool, c = the last tuple     */
/* given (NULL: none yet), i = stopped. permutations, combinations,    */
/* combinations_with_replacement: a = the pool, b = a RawObj of the    */
/* indices (permutations: n indices, then r cycles), c = the last      */
/* tuple, i = stopped, n = r.                                          */
/* ------------------------------------------------------------------ */

/* A tuple of pool[idx[k]] for k < r (pool and idx read after the tuple is made). */
static Obj pick_tuple(Obj *self_slot, int64_t r)
{
    Obj t = tuple_new(r);
    if (!t)
        return NULL;
    Obj pool = ITER(*self_slot)->a;
    int64_t __seg_gs *idx = raw_ints(ITER(*self_slot)->b);
    if (r)
        VM_WRITE(t);
    for (int64_t k = 0; k < r; k++)
        TUPLE_ITEMS(t)[k] = TUPLE_ITEMS(pool)[idx[k]];
    return t;
}

static Obj product_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"repeat", NULL};
    if (check_keywords("product", kwnames, names) < 0)
        return NULL;
    int64_t repeat = 1;
    if (kwnames && TUPLE_LEN(kwnames)) {
        if (arg_ssize(args[nargs], &repeat) < 0)
            return NULL;
        if (repeat < 0) {
            err_set(E_ValueError, "repeat argument cannot be negative");
            return NULL;
        }
    }
    int64_t nin = repeat == 0 ? 0 : (int64_t)nargs;
    if (repeat && nin > INT64_MAX / 8 / repeat) {
        err_set(E_OverflowError, "repeat argument too large");
        return NULL;
    }
    int64_t npools = nin * repeat;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = tuple_new(npools);
    if (!r[0])
        goto out;
    if (npools)
        VM_WRITE(r[0]);
    for (int64_t i = 0; i < npools; i++)
        TUPLE_ITEMS(r[0])[i] = g_None;
    for (int64_t i = 0; i < nin; i++) {
        r[2] = vm_tuple_from_iter(args[i]);
        if (!r[2])
            goto out;
        /* the iteration ran Python code, which may have committed the tuple:
         * a tuple is read without barriers once published */
        VM_WRITE_RARE(r[0]);
        TUPLE_ITEMS(r[0])[i] = r[2];
    }
    if (npools)
        VM_WRITE_RARE(r[0]);
    for (int64_t i = nin; i < npools; i++)
        TUPLE_ITEMS(r[0])[i] = TUPLE_ITEMS(r[0])[i - nin];
    r[1] = raw_ints_new(npools);
    if (r[1])
        res = new_iter(T_product, r[0], r[1], NULL);
out:
    vm_unroots(r);
    return res;
}

/* The tuple of pools[k][idx[k]]. */
static Obj product_tuple(Obj *self_slot)
{
    int64_t np = TUPLE_LEN(ITER(*self_slot)->a);
    Obj t = tuple_new(np);
    if (!t)
        return NULL;
    Obj pools = ITER(*self_slot)->a;
    int64_t __seg_gs *idx = raw_ints(ITER(*self_slot)->b);
    if (np)
        VM_WRITE(t);
    for (int64_t k = 0; k < np; k++)
        TUPLE_ITEMS(t)[k] = TUPLE_ITEMS(TUPLE_ITEMS(pools)[k])[idx[k]];
    return t;
}

static Obj product_next(Obj self)
{
    if (ITER(self)->i)
        return NULL;
    Obj pools = ITER(self)->a;
    int64_t np = TUPLE_LEN(pools);
    if (!ITER(self)->c) {
        for (int64_t k = 0; k < np; k++)
            if (TUPLE_LEN(TUPLE_ITEMS(pools)[k]) == 0)
                goto stop;
    } else {
        Obj raw = ITER(self)->b;
        VM_WRITE(raw);
        int64_t __seg_gs *idx = raw_ints(raw);
        int64_t k;
        for (k = np - 1; k >= 0; k--) {
            if (++idx[k] < TUPLE_LEN(TUPLE_ITEMS(pools)[k]))
                break;
            idx[k] = 0;   /* roll over, and advance the pool on the left */
        }
        if (k < 0)
            goto stop;
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj t = product_tuple(&r[0]);
    if (t) {
        VM_WRITE(r[0]);
        ITER(r[0])->c = t;
    }
    vm_unroots(r);
    return t;
stop:
    VM_WRITE(self);
    ITER(self)->i = 1;
    return NULL;
}

static Obj product_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = state_of(args[0], T_product);
    if (!r[0])
        goto out;
    if (ITER(r[0])->i) {
        r[1] = tuple_pack(1, g_empty_tuple);
        res = reduce_value(args[0], r[1], NULL);
    } else if (!ITER(r[0])->c) {
        res = reduce_value(args[0], ITER(r[0])->a, NULL);
    } else {
        r[2] = ITER(r[0])->b;
        r[1] = ints_tuple(&r[2], 0, TUPLE_LEN(ITER(r[0])->a));
        if (r[1])
            res = reduce_value(args[0], ITER(r[0])->a, r[1]);
    }
out:
    vm_unroots(r);
    return res;
}

/* The indices of a __setstate__ tuple item by item: vm_index_i64 of each
 * (an error ends it). 0 or -1. */
static int state_index(Obj state_slot_tuple, int64_t k, int64_t *out)
{
    return arg_ssize(TUPLE_ITEMS(state_slot_tuple)[k], out);
}

static Obj product_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_product);
    if (!u)
        return NULL;
    int64_t np = TUPLE_LEN(ITER(u)->a);
    Obj st = vm_unwrap(args[1]);
    if (!IS_TUPLE(st) || TUPLE_LEN(st) != np) {
        err_set(E_ValueError, "invalid arguments");
        return NULL;
    }
    for (int64_t k = 0; k < np; k++) {
        int64_t index;
        if (state_index(vm_unwrap(args[1]), k, &index) < 0)
            return NULL;
        u = vm_unwrap(args[0]);
        int64_t size = TUPLE_LEN(TUPLE_ITEMS(ITER(u)->a)[k]);
        if (size == 0) {
            VM_WRITE(u);
            ITER(u)->i = 1;
            return g_None;
        }
        index = index < 0 ? 0 : index > size - 1 ? size - 1 : index;
        Obj raw = ITER(u)->b;
        VM_WRITE(raw);
        raw_ints(raw)[k] = index;
    }
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    Obj t = product_tuple(&r[0]);
    if (t) {
        VM_WRITE(r[0]);
        ITER(r[0])->c = t;
    }
    vm_unroots(r);
    return t ? g_None : NULL;
}

/* combinations(iterable, r), combinations_with_replacement(iterable, r) */
static Obj comb_new(TypeObj *t, const char *name, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "r", NULL};
    if (check_keywords(name, kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args(name, args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    a[0] = vm_tuple_from_iter(a[0]);
    if (!a[0])
        goto out;
    int64_t r;
    if (arg_ssize(a[1], &r) < 0)
        goto out;
    if (r < 0) {
        err_set(E_ValueError, "r must be non-negative");
        goto out;
    }
    a[2] = raw_ints_new(r);
    if (!a[2])
        goto out;
    int64_t n = TUPLE_LEN(a[0]);
    int64_t __seg_gs *idx = raw_ints(a[2]);
    for (int64_t k = 0; k < r; k++)
        idx[k] = t == T_combinations ? k : 0;
    res = new_iter(t, a[0], a[2], NULL);
    if (res) {
        ITER(res)->n = r;
        ITER(res)->i = t == T_combinations ? r > n : (n == 0 && r > 0);
    }
out:
    vm_unroots(a);
    return res;
}

static Obj combinations_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return comb_new(T_combinations, "combinations", args, nargs, kwnames);
}

static Obj cwr_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    return comb_new(T_cwr, "combinations_with_replacement", args, nargs, kwnames);
}

/* The next indices of combinations (replace: with replacement): false when done. */
static bool comb_advance(Obj self, bool replace)
{
    int64_t n = TUPLE_LEN(ITER(self)->a), r = ITER(self)->n;
    Obj raw = ITER(self)->b;
    VM_WRITE(raw);
    int64_t __seg_gs *idx = raw_ints(raw);
    int64_t i;
    /* the rightmost index not at its maximum */
    for (i = r - 1; i >= 0 && idx[i] == (replace ? n - 1 : i + n - r); i--)
        ;
    if (i < 0)
        return false;
    if (replace) {
        int64_t v = idx[i] + 1;
        for (; i < r; i++)
            idx[i] = v;
    } else {
        idx[i]++;
        for (int64_t j = i + 1; j < r; j++)
            idx[j] = idx[j - 1] + 1;
    }
    return true;
}

/* The next indices of permutations: false when done. */
static bool perm_advance(Obj self)
{
    int64_t n = TUPLE_LEN(ITER(self)->a), r = ITER(self)->n;
    if (n == 0)
        return false;
    Obj raw = ITER(self)->b;
    VM_WRITE(raw);
    int64_t __seg_gs *idx = raw_ints(raw);
    int64_t __seg_gs *cycles = idx + n;
    for (int64_t i = r - 1; i >= 0; i--) {
        if (--cycles[i] == 0) {
            /* indices[i:] = indices[i+1:] + indices[i:i+1] */
            int64_t v = idx[i];
            for (int64_t j = i; j < n - 1; j++)
                idx[j] = idx[j + 1];
            idx[n - 1] = v;
            cycles[i] = n - i;
        } else {
            int64_t j = cycles[i];
            int64_t v = idx[i];
            idx[i] = idx[n - j];
            idx[n - j] = v;
            return true;
        }
    }
    return false;
}

/* next() of combinations, combinations_with_replacement and permutations. */
static Obj pool_iter_next(Obj self)
{
    if (ITER(self)->i)
        return NULL;
    if (ITER(self)->c) {
        TypeObj *t = (TypeObj *)ITER(self)->cls;
        bool more = t == T_permutations ? perm_advance(self) : comb_advance(self, t == T_cwr);
        if (!more) {
            VM_WRITE(self);
            ITER(self)->i = 1;
            return NULL;
        }
    }
    Obj *r = vm_roots(1);
    r[0] = self;
    Obj t = pick_tuple(&r[0], ITER(self)->n);
    if (t) {
        VM_WRITE(r[0]);
        ITER(r[0])->c = t;
    }
    vm_unroots(r);
    return t;
}

static Obj pool_iter_reduce(Obj *args, TypeObj *t)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = state_of(args[0], t);
    if (!r[0])
        goto out;
    r[1] = int_from_i64(ITER(r[0])->n);
    if (!r[1])
        goto out;
    if (!ITER(r[0])->c) {
        r[2] = tuple_pack(2, ITER(r[0])->a, r[1]);
        res = reduce_value(args[0], r[2], NULL);
    } else if (ITER(r[0])->i) {
        r[2] = tuple_pack(2, g_empty_tuple, r[1]);
        res = reduce_value(args[0], r[2], NULL);
    } else {
        r[3] = ITER(r[0])->b;
        int64_t n = TUPLE_LEN(ITER(r[0])->a), rr = ITER(r[0])->n;
        if (t == T_permutations) {
            r[2] = ints_tuple(&r[3], 0, n);
            if (r[2])
                r[3] = ints_tuple(&r[3], n, rr);
            if (r[2] && r[3])
                r[2] = tuple_pack(2, r[2], r[3]);
        } else {
            r[2] = ints_tuple(&r[3], 0, rr);
        }
        if (r[2])
            r[1] = tuple_pack(2, ITER(r[0])->a, r[1]);
        if (r[2] && r[1])
            res = reduce_value(args[0], r[1], r[2]);
    }
out:
    vm_unroots(r);
    return res;
}

static Obj combinations_reduce(Obj *args, size_t nargs, Obj kwnames) { return pool_iter_reduce(args, T_combinations); }
static Obj cwr_reduce(Obj *args, size_t nargs, Obj kwnames) { return pool_iter_reduce(args, T_cwr); }
static Obj permutations_reduce(Obj *args, size_t nargs, Obj kwnames) { return pool_iter_reduce(args, T_permutations); }

/* Set the indices from a tuple of ints, clamped to [lo(k), hi(k)]. */
typedef int64_t (*bound_fn)(int64_t k, int64_t n, int64_t r);
static int set_indices(Obj *args, TypeObj *t, Obj *tuple_slot, int64_t start, int64_t count, bound_fn lo, bound_fn hi)
{
    for (int64_t k = 0; k < count; k++) {
        int64_t index;
        if (state_index(*tuple_slot, k, &index) < 0)
            return -1;
        Obj u = vm_unwrap(args[0]);
        int64_t n = TUPLE_LEN(ITER(u)->a), r = ITER(u)->n;
        int64_t h = hi(k, n, r), l = lo(k, n, r);
        if (index > h)
            index = h;
        if (index < l)
            index = l;
        Obj raw = ITER(u)->b;
        VM_WRITE(raw);
        raw_ints(raw)[start + k] = index;
    }
    return 0;
}

static int64_t lo_zero(int64_t k, int64_t n, int64_t r) { return 0; }
static int64_t lo_one(int64_t k, int64_t n, int64_t r) { return 1; }
static int64_t hi_comb(int64_t k, int64_t n, int64_t r) { return k + n - r; }
static int64_t hi_last(int64_t k, int64_t n, int64_t r) { return n - 1; }
static int64_t hi_cycle(int64_t k, int64_t n, int64_t r) { return n - k; }

/* After the indices are set: the tuple they pick, or stopped when they
 * cannot pick one (an empty pool). */
static Obj pool_iter_after_setstate(Obj *args)
{
    Obj *r = vm_roots(1);
    r[0] = vm_unwrap(args[0]);
    int64_t n = TUPLE_LEN(ITER(r[0])->a), rr = ITER(r[0])->n;
    Obj res = g_None;
    bool ok = true;
    for (int64_t k = 0; k < rr; k++) {
        int64_t v = raw_ints(ITER(r[0])->b)[k];
        if (v < 0 || v >= n)
            ok = false;
    }
    if (!ok) {
        VM_WRITE(r[0]);
        ITER(r[0])->i = 1;
    } else {
        Obj t = pick_tuple(&r[0], rr);
        if (t) {
            VM_WRITE(r[0]);
            ITER(r[0])->c = t;
        } else {
            res = NULL;
        }
    }
    vm_unroots(r);
    return res;
}

static Obj comb_setstate(Obj *args, TypeObj *t)
{
    Obj u = state_of(args[0], t);
    if (!u)
        return NULL;
    Obj st = vm_unwrap(args[1]);
    if (!IS_TUPLE(st) || TUPLE_LEN(st) != ITER(u)->n) {
        err_set(E_ValueError, "invalid arguments");
        return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = st;
    int rc = set_indices(args, t, &r[0], 0, TUPLE_LEN(st), lo_zero, t == T_combinations ? hi_comb : hi_last);
    vm_unroots(r);
    return rc < 0 ? NULL : pool_iter_after_setstate(args);
}

static Obj combinations_setstate(Obj *args, size_t nargs, Obj kwnames) { return comb_setstate(args, T_combinations); }
static Obj cwr_setstate(Obj *args, size_t nargs, Obj kwnames) { return comb_setstate(args, T_cwr); }

static Obj permutations_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"iterable", "r", NULL};
    if (check_keywords("permutations", kwnames, names) < 0)
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("permutations", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    a[0] = vm_tuple_from_iter(a[0]);
    if (!a[0])
        goto out;
    int64_t n = TUPLE_LEN(a[0]), r = n;
    if (a[1] && !IS_NONE(a[1])) {
        if (!IS_INT(vm_unwrap(a[1]))) {
            err_set(E_TypeError, "Expected int as r");
            goto out;
        }
        if (arg_ssize(a[1], &r) < 0)
            goto out;
    }
    if (r < 0) {
        err_set(E_ValueError, "r must be non-negative");
        goto out;
    }
    a[2] = raw_ints_new(n + r);
    if (!a[2])
        goto out;
    int64_t __seg_gs *idx = raw_ints(a[2]);
    for (int64_t k = 0; k < n; k++)
        idx[k] = k;
    for (int64_t k = 0; k < r && k < n; k++)
        idx[n + k] = n - k;
    res = new_iter(T_permutations, a[0], a[2], NULL);
    if (res) {
        ITER(res)->n = r;
        ITER(res)->i = r > n;
    }
out:
    vm_unroots(a);
    return res;
}

static Obj permutations_setstate(Obj *args, size_t nargs, Obj kwnames)
{
    Obj u = state_of(args[0], T_permutations);
    if (!u)
        return NULL;
    Obj st = state_tuple(args[1], 2, 2);
    if (!st)
        return NULL;
    for (int k = 0; k < 2; k++) {
        if (!IS_TUPLE(vm_unwrap(TUPLE_ITEMS(st)[k]))) {
            err_format(E_TypeError, "argument %d must be tuple, not %s", k + 1, type_name(TUPLE_ITEMS(st)[k]));
            return NULL;
        }
    }
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = vm_unwrap(TUPLE_ITEMS(st)[0]);
    r[1] = vm_unwrap(TUPLE_ITEMS(st)[1]);
    int64_t n = TUPLE_LEN(ITER(u)->a);
    if (TUPLE_LEN(r[0]) != n || TUPLE_LEN(r[1]) != ITER(u)->n || ITER(u)->n > n) {
        err_set(E_ValueError, "invalid arguments");
        goto out;
    }
    if (set_indices(args, T_permutations, &r[0], 0, n, lo_zero, hi_last) < 0 ||
        set_indices(args, T_permutations, &r[1], n, TUPLE_LEN(r[1]), lo_one, hi_cycle) < 0)
        goto out;
    res = pool_iter_after_setstate(args);
out:
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Types and the module                                                */
/* ------------------------------------------------------------------ */

#define REDUCE_DOC "Return state information for pickling."
#define SETSTATE_DOC "Set state information for unpickling."

static const MethodDef count_methods[] = {
    {"__reduce__", count_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef cycle_methods[] = {
    {"__reduce__", cycle_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", cycle_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef repeat_methods[] = {
    {"__length_hint__", repeat_length_hint, METH_NOARGS, "Private method returning an estimate of len(list(it))."},
    {"__reduce__", repeat_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef accumulate_methods[] = {
    {"__reduce__", accumulate_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", accumulate_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef chain_methods[] = {
    {"from_iterable", chain_from_iterable, METH_CLASS | METH_O,
     "Alternative chain() constructor taking a single iterable argument that evaluates lazily."},
    {"__reduce__", chain_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", chain_setstate, METH_O, SETSTATE_DOC},
    {"__class_getitem__", chain_class_getitem, METH_CLASS | METH_O, "See PEP 585"},
    {NULL, NULL, 0, NULL},
};
static const MethodDef compress_methods[] = {
    {"__reduce__", compress_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef dropwhile_methods[] = {
    {"__reduce__", dropwhile_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", dropwhile_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef takewhile_methods[] = {
    {"__reduce__", takewhile_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", takewhile_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef filterfalse_methods[] = {
    {"__reduce__", filterfalse_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef starmap_methods[] = {
    {"__reduce__", starmap_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef islice_methods[] = {
    {"__reduce__", islice_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", islice_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef groupby_methods[] = {
    {"__reduce__", groupby_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", groupby_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef grouper_methods[] = {
    {"__reduce__", grouper_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef tee_methods[] = {
    {"__copy__", tee_copy, METH_NOARGS, "Returns an independent iterator."},
    {"__reduce__", tee_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", tee_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef teedata_methods[] = {
    {"__reduce__", teedata_reduce, METH_NOARGS, REDUCE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef zip_longest_methods[] = {
    {"__reduce__", zip_longest_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", zip_longest_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef product_methods[] = {
    {"__reduce__", product_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", product_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef combinations_methods[] = {
    {"__reduce__", combinations_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", combinations_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef cwr_methods[] = {
    {"__reduce__", cwr_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", cwr_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};
static const MethodDef permutations_methods[] = {
    {"__reduce__", permutations_reduce, METH_NOARGS, REDUCE_DOC},
    {"__setstate__", permutations_setstate, METH_O, SETSTATE_DOC},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_type(const char *name, unaryfunc next, newfunc tp_new, const MethodDef *methods, bool base)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, base ? TPF_BASETYPE | TPF_ITER_VALUE : 0);
    VM_WRITE(t);
    t->tp_iter = next ? iter_self : NULL;
    t->tp_iternext = next;
    if (next == repeat_next)
        t->tp_repr = repeat_repr;   /* the others: object's */
    t->tp_new = tp_new;
    if (methods)
        type_add_methods(t, methods);
    type_ready(t);
    return t;
}

void itertools_init_types(void)
{
    T_count = (TypeObj *)type_new_builtin("itertools.count", T_object, TID_COUNTER, TPF_BASETYPE);
    TypeObj *t = T_count;
    VM_WRITE(t);
    t->tp_iter = iter_self;
    t->tp_iternext = count_next;
    t->tp_repr = count_repr;
    t->tp_new = count_new;
    type_add_methods(t, count_methods);
    type_ready(t);

    T_cycle = make_type("itertools.cycle", cycle_next, cycle_new, cycle_methods, true);
    T_repeat = make_type("itertools.repeat", repeat_next, repeat_new, repeat_methods, true);
    T_accumulate = make_type("itertools.accumulate", accumulate_next, accumulate_new, accumulate_methods, true);
    T_chain = make_type("itertools.chain", chain_next, chain_new, chain_methods, true);
    T_compress = make_type("itertools.compress", compress_next, compress_new, compress_methods, true);
    T_dropwhile = make_type("itertools.dropwhile", dropwhile_next, dropwhile_new, dropwhile_methods, true);
    T_takewhile = make_type("itertools.takewhile", takewhile_next, takewhile_new, takewhile_methods, true);
    T_filterfalse = make_type("itertools.filterfalse", filterfalse_next, filterfalse_new, filterfalse_methods, true);
    T_starmap = make_type("itertools.starmap", starmap_next, starmap_new, starmap_methods, true);
    T_islice = make_type("itertools.islice", islice_next, islice_new, islice_methods, true);
    T_pairwise = make_type("itertools.pairwise", pairwise_next, pairwise_new, NULL, true);
    T_groupby = make_type("itertools.groupby", groupby_next, groupby_new, groupby_methods, true);
    T_grouper = make_type("itertools._grouper", grouper_next, grouper_new, grouper_methods, false);
    T_tee = make_type("itertools._tee", tee_next, tee_new, tee_methods, false);
    VM_WRITE(T_tee);
    T_tee->flags |= TPF_WEAKREFABLE;
    T_teedata = make_type("itertools._tee_dataobject", NULL, teedata_new, teedata_methods, false);
    T_zip_longest = make_type("itertools.zip_longest", zip_longest_next, zip_longest_new, zip_longest_methods, true);
    T_product = make_type("itertools.product", product_next, product_new, product_methods, true);
    T_permutations = make_type("itertools.permutations", pool_iter_next, permutations_new, permutations_methods, true);
    T_combinations = make_type("itertools.combinations", pool_iter_next, combinations_new, combinations_methods, true);
    T_cwr = make_type("itertools.combinations_with_replacement", pool_iter_next, cwr_new, cwr_methods, true);
}

static const MethodDef itertools_functions[] = {
    {"tee", itertools_tee, METH_ARGS(1, 2), "Returns a tuple of n independent iterators."},
    {NULL, NULL, 0, NULL},
};

Obj itertools_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("itertools");
    if (!r[0])
        goto out;
    module_add_functions(r[0], itertools_functions);
    struct {
        const char *name;
        TypeObj *type;
    } types[] = {
        {"count", T_count}, {"cycle", T_cycle}, {"repeat", T_repeat}, {"accumulate", T_accumulate},
        {"chain", T_chain}, {"compress", T_compress}, {"dropwhile", T_dropwhile}, {"takewhile", T_takewhile},
        {"filterfalse", T_filterfalse}, {"starmap", T_starmap}, {"islice", T_islice}, {"pairwise", T_pairwise},
        {"groupby", T_groupby}, {"_grouper", T_grouper}, {"_tee", T_tee}, {"_tee_dataobject", T_teedata},
        {"zip_longest", T_zip_longest}, {"product", T_product}, {"permutations", T_permutations},
        {"combinations", T_combinations}, {"combinations_with_replacement", T_cwr},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (module_add(r[0], types[i].name, (Obj)types[i].type) < 0) {
            r[0] = NULL;
            break;
        }
    }
out:;
    Obj m = r[0];
    vm_unroots(r);
    return m;
}
