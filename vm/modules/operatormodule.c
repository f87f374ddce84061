/* _operator: the C half of CPython's Lib/operator.py (which runs unchanged
 * over it): the operators as functions, each one C call into the same
 * abstract operations the eval loop uses (so map(operator.add, ...) or a
 * sort key runs no Python frame, and messages are the interpreter's own:
 * "'complex' object cannot be interpreted as an integer"), and the getter
 * types itemgetter, attrgetter and methodcaller (operator.py's
 * `from _operator import *` puts them in place of its Python classes).
 * What this module leaves out (abs, length_hint, _abs) operator.py defines
 * in Python. */
#include "modules.h"
#include "objects/objects.h"
#include "objects/numbers.h"
#include "objects/strobj.h"
#include "objects/containers.h"

static TypeObj *T_itemgetter, *T_attrgetter, *T_methodcaller;

/* Comparisons: the rich comparison's result object, as `a < b`. */
#define COMPARE_FN(name, op)                                        \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_richcompare(args[0], args[1], op);                \
    }
COMPARE_FN(lt, CMP_LT)
COMPARE_FN(le, CMP_LE)
COMPARE_FN(eq, CMP_EQ)
COMPARE_FN(ne, CMP_NE)
COMPARE_FN(ge, CMP_GE)
COMPARE_FN(gt, CMP_GT)

/* Binary operators (a + b) and their in-place forms (a += b; the result). */
#define BINARY_FN(name, op)                                         \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_binop(args[0], args[1], op);                      \
    }                                                               \
    static Obj op_i##name(Obj *args, size_t nargs, Obj kwnames)     \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_inplace_binop(args[0], args[1], op);              \
    }
BINARY_FN(add, NB_ADD)
BINARY_FN(sub, NB_SUB)
BINARY_FN(mul, NB_MUL)
BINARY_FN(truediv, NB_TRUEDIV)
BINARY_FN(floordiv, NB_FLOORDIV)
BINARY_FN(mod, NB_MOD)
BINARY_FN(pow, NB_POW)
BINARY_FN(lshift, NB_LSHIFT)
BINARY_FN(rshift, NB_RSHIFT)
BINARY_FN(and, NB_AND)
BINARY_FN(or, NB_OR)
BINARY_FN(xor, NB_XOR)
BINARY_FN(matmul, NB_MATMUL)

#define UNARY_FN(name, op)                                          \
    static Obj op_##name(Obj *args, size_t nargs, Obj kwnames)      \
    {                                                               \
        (void)nargs;                                                \
        (void)kwnames;                                              \
        return vm_unaryop(args[0], op);                             \
    }
UNARY_FN(neg, UN_NEG)
UNARY_FN(pos, UN_POS)
UNARY_FN(inv, UN_INVERT)

static Obj op_not(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_is_true(args[0]);
    return t < 0 ? NULL : vm_bool(!t);
}

static Obj op_truth(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_is_true(args[0]);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj op_is(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_bool(args[0] == args[1]);
}

static Obj op_is_not(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_bool(args[0] != args[1]);
}

static Obj op_index(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_index(args[0]);
}

static Obj op_contains(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    int t = vm_contains(args[0], args[1]);
    return t < 0 ? NULL : vm_bool(t);
}

static Obj op_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_getitem(args[0], args[1]);
}

static Obj op_setitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_setitem(args[0], args[1], args[2]) < 0 ? NULL : g_None;
}

static Obj op_delitem(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return vm_delitem(args[0], args[1]) < 0 ? NULL : g_None;
}

/* CPython's sequence check: a __getitem__, and not a dict. */
static bool is_sequence(Obj v)
{
    return !IS_DICT(vm_unwrap(v)) && vm_lookup_special(v, "__getitem__");
}

/* The built-in sequences whose + is their concatenation. */
static bool has_concat(Obj v)
{
    Obj u = vm_unwrap(v);
    return IS_LIST(u) || IS_TUPLE(u) || IS_STR(u) || IS_BYTES(u) || TID(u) == TID_BYTEARRAY ||
           TID(u) == TID_DEQUE;
}

/* concat and iconcat: a + b (a += b) for sequences only. */
static Obj concat(Obj a, Obj b, bool inplace)
{
    if (has_concat(a) || (is_sequence(a) && is_sequence(b)))
        return inplace ? vm_inplace_binop(a, b, NB_ADD) : vm_binop(a, b, NB_ADD);
    err_format(E_TypeError, "'%s' object can't be concatenated", type_name(a));
    return NULL;
}

static Obj op_concat(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return concat(args[0], args[1], false);
}

static Obj op_iconcat(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return concat(args[0], args[1], true);
}

/* countOf and indexOf: walk seq for items that are b or equal b; with
 * `first`, stop at the first one and return its index. */
static Obj search(Obj seq, Obj b, bool first)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[1] = b;
    r[0] = vm_iter(seq);
    if (!r[0]) {
        if (err_matches(E_TypeError)) {
            err_clear();
            err_format(E_TypeError, "argument of type '%s' is not iterable", type_name(seq));
        }
        goto out;
    }
    int64_t n = 0, i = 0;
    for (;; i++) {
        r[2] = vm_next(r[0]);
        if (!r[2]) {
            if (err_occurred())
                goto out;
            break;
        }
        int eq = vm_equal(r[2], r[1]);
        if (eq < 0)
            goto out;
        if (eq && first) {
            res = int_from_i64(i);
            goto out;
        }
        n += eq;
    }
    if (first)
        err_set(E_ValueError, "sequence.index(x): x not in sequence");
    else
        res = int_from_i64(n);
out:
    vm_unroots(r);
    return res;
}

static Obj op_countOf(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return search(args[0], args[1], false);
}

static Obj op_indexOf(Obj *args, size_t nargs, Obj kwnames)
{
    (void)nargs;
    (void)kwnames;
    return search(args[0], args[1], true);
}

/* ------------------------------------------------------------------ */
/* itemgetter, attrgetter, methodcaller: IterObj instances             */
/*   itemgetter:   a = tuple of the items, n = their count              */
/*   attrgetter:   a = tuple of the names, each an interned str or, for  */
/*                 a dotted name, a tuple of its interned parts; n = count */
/*   methodcaller: a = method name, b = tuple of the positional then the */
/*                 keyword argument values, c = keyword names (or NULL), */
/*                 n = number of positional arguments                     */
/* ------------------------------------------------------------------ */

/* A getter takes exactly one positional argument, as CPython's. */
static int check_one_arg(const char *name, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_format(E_TypeError, "%s() takes no keyword arguments", name);
        return -1;
    }
    if (nargs != 1) {
        err_format(E_TypeError, "%s expected 1 argument, got %zu", name, nargs);
        return -1;
    }
    return 0;
}

static Obj getter_alloc(TypeObj *t, Obj a, int64_t n)
{
    Obj g = iter_alloc(t, a, 0);
    if (g)
        ITER(g)->n = n;
    return g;
}

/* obj[item], with CPython's shortcut for a tuple or list and an int index. */
static inline Obj get_item(Obj obj, Obj item)
{
    if (IS_SMALLINT(item) && !IS_SMALLINT(obj)) {
        int64_t i = SMALLINT_VAL(item);
        if (IS_TUPLE(obj)) {
            int64_t n = TUPLE_LEN(obj);
            if (i < 0)
                i += n;
            if (i >= 0 && i < n)
                return TUPLE_ITEMS(obj)[i];
        } else if (IS_LIST(obj)) {
            VM_READ(obj);
            int64_t n = LIST_LEN(obj);
            if (i < 0)
                i += n;
            if (i >= 0 && i < n)
                return LIST_ITEMS(obj)[i];
        }
    }
    return vm_getitem(obj, item);
}

static Obj itemgetter_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "itemgetter() takes no keyword arguments");
        return NULL;
    }
    if (nargs == 0) {
        err_set(E_TypeError, "itemgetter expected 1 argument, got 0");
        return NULL;
    }
    Obj items = tuple_from_array(args, (int64_t)nargs);
    return items ? getter_alloc(T_itemgetter, items, (int64_t)nargs) : NULL;
}

/* A getter applied to obj: one(obj, spec) for its one spec, or a tuple of
 * one(obj, spec) for each (itemgetter and attrgetter share it). */
static Obj getter_apply(Obj obj, Obj specs, int64_t n, Obj (*one)(Obj, Obj))
{
    if (n == 1)
        return one(obj, TUPLE_ITEMS(specs)[0]);
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = obj;
    r[1] = specs;
    r[2] = tuple_new(n);
    for (int64_t i = 0; r[2] && i < n; i++) {
        VM_WRITE(r[2]);
        TUPLE_ITEMS(r[2])[i] = g_None;
    }
    if (!r[2])
        goto out;
    for (int64_t i = 0; i < n; i++) {
        Obj v = one(r[0], TUPLE_ITEMS(r[1])[i]);
        if (!v)
            goto out;
        VM_WRITE(r[2]);
        TUPLE_ITEMS(r[2])[i] = v;
    }
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj itemgetter_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("itemgetter", nargs, kwnames) < 0)
        return NULL;
    return getter_apply(args[0], ITER(self)->a, ITER(self)->n, get_item);
}

/* "operator.itemgetter(1, 'k')": the type's name and the reprs of `args` (a
 * tuple; `nkw` of them at the end are values for the names of `kwnames`). */
static Obj getter_repr(Obj self, Obj args, int64_t nkw, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = self;
    r[1] = args;
    r[2] = kwnames;
    int rc = repr_enter(&r[0]);
    if (rc != 0) {
        if (rc > 0)
            res = str_from_format("operator.%s(...)", str_cstr(TYPE(r[0])->name));
        vm_unroots(r);
        return res;
    }
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "operator.");
    sb_add_str(&b, TYPE(r[0])->name);
    sb_addc(&b, '(');
    int64_t n = TUPLE_LEN(r[1]), npos = n - nkw;
    for (int64_t i = 0; i < n; i++) {
        if (i)
            sb_add(&b, ", ", 2);
        if (i >= npos) {
            sb_add_str(&b, TUPLE_ITEMS(r[2])[i - npos]);
            sb_addc(&b, '=');
        }
        Obj s = vm_repr(TUPLE_ITEMS(r[1])[i]);
        if (!s) {
            sb_free(&b);
            goto out;
        }
        sb_add_str(&b, s);
    }
    sb_addc(&b, ')');
    res = sb_finish(&b);
out:
    repr_leave();
    vm_unroots(r);
    return res;
}

static Obj itemgetter_repr(Obj self)
{
    return getter_repr(self, ITER(self)->a, 0, NULL);
}

static Obj itemgetter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(2, (Obj)T_itemgetter, ITER(args[0])->a);
}

/* attrgetter: each name checked and split at its dots into interned parts. */
static Obj attrgetter_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (kwnames && TUPLE_LEN(kwnames)) {
        err_set(E_TypeError, "attrgetter() takes no keyword arguments");
        return NULL;
    }
    if (nargs == 0) {
        err_set(E_TypeError, "attrgetter expected 1 argument, got 0");
        return NULL;
    }
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = tuple_from_array(args, (int64_t)nargs);   /* the names as given, in a root */
    r[1] = tuple_new((int64_t)nargs);
    for (size_t i = 0; r[1] && i < nargs; i++) {
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[i] = g_None;
    }
    if (!r[0] || !r[1])
        goto out;
    for (size_t i = 0; i < nargs; i++) {
        Obj name = vm_unwrap(TUPLE_ITEMS(r[0])[i]);
        if (!IS_STR(name)) {
            err_set(E_TypeError, "attribute name must be a string");
            goto out;
        }
        const char *p = str_cstr(name);
        size_t len = (size_t)STR(name)->nbytes;
        const char *dot = memchr(p, '.', len);
        if (!dot) {
            r[2] = str_intern(name);
        } else {
            int64_t parts = 1;
            for (size_t k = 0; k < len; k++)
                parts += p[k] == '.';
            r[2] = tuple_new(parts);
            for (int64_t k = 0; r[2] && k < parts; k++) {
                VM_WRITE(r[2]);
                TUPLE_ITEMS(r[2])[k] = g_empty_str;
            }
            size_t start = 0;
            for (int64_t k = 0; r[2] && k < parts; k++) {
                name = vm_unwrap(TUPLE_ITEMS(r[0])[i]);   /* (an allocation may have moved it) */
                p = str_cstr(name);
                const char *end = memchr(p + start, '.', len - start);
                size_t stop = end ? (size_t)(end - p) : len;
                r[3] = str_new(p + start, stop - start);
                if (r[3])
                    r[3] = str_intern(r[3]);
                if (!r[3]) {
                    r[2] = NULL;
                    break;
                }
                VM_WRITE(r[2]);
                TUPLE_ITEMS(r[2])[k] = r[3];
                start = stop + 1;
            }
        }
        if (!r[2])
            goto out;
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[i] = r[2];
    }
    res = getter_alloc(T_attrgetter, r[1], (int64_t)nargs);
out:
    vm_unroots(r);
    return res;
}

/* getattr through each part of one name (an interned str or a tuple). */
static Obj get_attr_path(Obj obj, Obj spec)
{
    if (IS_STR(spec))
        return vm_getattr(obj, spec);
    Obj *r = vm_roots(2);
    r[0] = obj;
    r[1] = spec;
    int64_t n = TUPLE_LEN(spec);
    for (int64_t k = 0; r[0] && k < n; k++)
        r[0] = vm_getattr(r[0], TUPLE_ITEMS(r[1])[k]);
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static Obj attrgetter_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("attrgetter", nargs, kwnames) < 0)
        return NULL;
    return getter_apply(args[0], ITER(self)->a, ITER(self)->n, get_attr_path);
}

/* The names as the user wrote them: dotted parts joined again. */
static Obj attrgetter_names(Obj self)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = ITER(self)->a;
    int64_t n = TUPLE_LEN(r[0]);
    r[1] = tuple_new(n);
    for (int64_t i = 0; r[1] && i < n; i++) {
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[i] = g_None;
    }
    if (!r[1])
        goto out;
    for (int64_t i = 0; i < n; i++) {
        Obj spec = TUPLE_ITEMS(r[0])[i];
        if (!IS_STR(spec)) {
            if (!r[2] && !(r[2] = str_from_cstr(".")))
                goto out;
            spec = str_join(r[2], spec);
            if (!spec)
                goto out;
        }
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[i] = spec;
    }
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj attrgetter_repr(Obj self)
{
    Obj *r = vm_roots(2);
    r[0] = self;
    r[1] = attrgetter_names(self);
    Obj res = r[1] ? getter_repr(r[0], r[1], 0, NULL) : NULL;
    vm_unroots(r);
    return res;
}

static Obj attrgetter_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj names = attrgetter_names(args[0]);
    return names ? tuple_pack(2, (Obj)T_attrgetter, names) : NULL;
}

static Obj methodcaller_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs == 0) {
        err_set(E_TypeError, "methodcaller needs at least one argument, the method name");
        return NULL;
    }
    if (!IS_STR(vm_unwrap(args[0]))) {
        err_set(E_TypeError, "method name must be a string");
        return NULL;
    }
    int64_t nkw = kwnames ? TUPLE_LEN(kwnames) : 0;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = kwnames;
    r[1] = str_intern(vm_unwrap(args[0]));
    if (r[1])
        r[2] = tuple_from_array(args + 1, (int64_t)nargs - 1 + nkw);
    if (r[2])
        res = getter_alloc(T_methodcaller, r[1], (int64_t)nargs - 1);
    if (res) {
        ITER(res)->b = r[2];
        ITER(res)->c = nkw ? r[0] : NULL;
    }
    vm_unroots(r);
    return res;
}

static Obj methodcaller_call(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    if (check_one_arg("methodcaller", nargs, kwnames) < 0)
        return NULL;
    Obj *s = vm_roots(1);
    s[0] = self;
    Obj m = vm_getattr(args[0], ITER(self)->a);
    self = s[0];
    vm_unroots(s);
    if (!m)
        return NULL;
    int64_t n = TUPLE_LEN(ITER(self)->b);
    if (n == 0)
        return vm_call(m, NULL, 0, NULL);
    /* the arguments go to the call from root slots (a collection may move the tuple) */
    Obj *r = vm_roots((int)n + 1);
    r[n] = m;
    for (int64_t i = 0; i < n; i++)
        r[i] = TUPLE_ITEMS(ITER(self)->b)[i];
    Obj res = vm_call(r[n], r, (size_t)ITER(self)->n, ITER(self)->c);
    vm_unroots(r);
    return res;
}

static Obj methodcaller_repr(Obj self)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = self;
    r[1] = tuple_new(TUPLE_LEN(ITER(self)->b) + 1);
    if (r[1]) {
        Obj b = ITER(r[0])->b;
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[0] = ITER(r[0])->a;
        for (int64_t i = 0; i < TUPLE_LEN(b); i++)
            TUPLE_ITEMS(r[1])[i + 1] = TUPLE_ITEMS(b)[i];
        Obj kw = ITER(r[0])->c;
        res = getter_repr(r[0], r[1], kw ? TUPLE_LEN(kw) : 0, kw);
    }
    vm_unroots(r);
    return res;
}

/* (methodcaller, (name, *args)); with keywords, CPython's
 * (functools.partial(methodcaller, name, **kwargs), args). */
static Obj methodcaller_reduce(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    Obj kw = ITER(r[0])->c;
    int64_t npos = ITER(r[0])->n;
    if (!kw) {
        r[1] = tuple_new(npos + 1);
        if (!r[1])
            goto out;
        VM_WRITE(r[1]);
        TUPLE_ITEMS(r[1])[0] = ITER(r[0])->a;
        for (int64_t i = 0; i < npos; i++)
            TUPLE_ITEMS(r[1])[i + 1] = TUPLE_ITEMS(ITER(r[0])->b)[i];
        res = tuple_pack(2, (Obj)T_methodcaller, r[1]);
        goto out;
    }
    r[1] = vm_import_cstr("functools");
    if (!r[1] || !(r[1] = vm_getattr_cstr(r[1], "partial")))
        goto out;
    int64_t nkw = TUPLE_LEN(kw);
    /* partial(methodcaller, name, k=v, ...) */
    Obj *c = vm_roots((int)nkw + 2);
    c[0] = (Obj)T_methodcaller;
    c[1] = ITER(r[0])->a;
    for (int64_t i = 0; i < nkw; i++)
        c[i + 2] = TUPLE_ITEMS(ITER(r[0])->b)[npos + i];
    r[2] = vm_call(r[1], c, 2, ITER(r[0])->c);
    vm_unroots(c);
    if (!r[2])
        goto out;
    r[3] = tuple_new(npos);
    if (!r[3])
        goto out;
    VM_WRITE(r[3]);
    for (int64_t i = 0; i < npos; i++)
        TUPLE_ITEMS(r[3])[i] = TUPLE_ITEMS(ITER(r[0])->b)[i];
    res = tuple_pack(2, r[2], r[3]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef itemgetter_methods[] = {
    {"__reduce__", itemgetter_reduce, METH_NOARGS, "Return state information for pickling"},
    {NULL, NULL, 0, NULL},
};
static const MethodDef attrgetter_methods[] = {
    {"__reduce__", attrgetter_reduce, METH_NOARGS, "Return state information for pickling"},
    {NULL, NULL, 0, NULL},
};
static const MethodDef methodcaller_methods[] = {
    {"__reduce__", methodcaller_reduce, METH_NOARGS, "Return state information for pickling"},
    {NULL, NULL, 0, NULL},
};

static TypeObj *make_getter_type(const char *name, newfunc tp_new, vectorcallfunc call, unaryfunc repr,
                                 const MethodDef *methods, const char *doc)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    VM_WRITE(t);
    t->tp_new = tp_new;
    t->tp_call = call;
    t->tp_repr = repr;
    type_add_methods(t, methods);
    type_ready(t);
    Obj d = str_from_cstr(doc);
    if (d)
        type_set_attr_cstr(t, "__doc__", d);
    return t;
}

static void make_getter_types(void)
{
    T_itemgetter = make_getter_type(
        "operator.itemgetter", itemgetter_new, itemgetter_call, itemgetter_repr, itemgetter_methods,
        "itemgetter(item, ...) --> itemgetter object\n\nReturn a callable object that fetches the given "
        "item(s) from its operand.\nAfter f = itemgetter(2), the call f(r) returns r[2].\nAfter g = "
        "itemgetter(2, 5, 3), the call g(r) returns (r[2], r[5], r[3])");
    T_attrgetter = make_getter_type(
        "operator.attrgetter", attrgetter_new, attrgetter_call, attrgetter_repr, attrgetter_methods,
        "attrgetter(attr, ...) --> attrgetter object\n\nReturn a callable object that fetches the given "
        "attribute(s) from its operand.\nAfter f = attrgetter('name'), the call f(r) returns r.name.\n"
        "After g = attrgetter('name', 'date'), the call g(r) returns (r.name, r.date).\nAfter h = "
        "attrgetter('name.first', 'name.last'), the call h(r) returns\n(r.name.first, r.name.last).");
    T_methodcaller = make_getter_type(
        "operator.methodcaller", methodcaller_new, methodcaller_call, methodcaller_repr, methodcaller_methods,
        "methodcaller(name, ...) --> methodcaller object\n\nReturn a callable object that calls the given "
        "method on its operand.\nAfter f = methodcaller('name'), the call f(r) returns r.name().\nAfter g = "
        "methodcaller('name', 'date', foo=1), the call g(r) returns\nr.name('date', foo=1).");
}

#define F1(pyname, fn, doc) {pyname, fn, METH_ARGS(1, 1), doc}
#define F2(pyname, fn, doc) {pyname, fn, METH_ARGS(2, 2), doc}
#define FB(name, sym) F2(#name, op_##name, "Same as a " sym " b."), F2("i" #name, op_i##name, "Same as a " sym "= b.")
static const MethodDef operator_funcs[] = {
    F2("lt", op_lt, "Same as a < b."),
    F2("le", op_le, "Same as a <= b."),
    F2("eq", op_eq, "Same as a == b."),
    F2("ne", op_ne, "Same as a != b."),
    F2("ge", op_ge, "Same as a >= b."),
    F2("gt", op_gt, "Same as a > b."),
    FB(add, "+"),
    FB(sub, "-"),
    FB(mul, "*"),
    FB(truediv, "/"),
    FB(floordiv, "//"),
    FB(mod, "%"),
    FB(pow, "**"),
    FB(lshift, "<<"),
    FB(rshift, ">>"),
    F2("and_", op_and, "Same as a & b."),
    F2("iand", op_iand, "Same as a &= b."),
    F2("or_", op_or, "Same as a | b."),
    F2("ior", op_ior, "Same as a |= b."),
    FB(xor, "^"),
    FB(matmul, "@"),
    F1("neg", op_neg, "Same as -a."),
    F1("pos", op_pos, "Same as +a."),
    F1("inv", op_inv, "Same as ~a."),
    F1("invert", op_inv, "Same as ~a."),
    F1("not_", op_not, "Same as not a."),
    F1("truth", op_truth, "Return True if a is true, False otherwise."),
    F2("is_", op_is, "Same as a is b."),
    F2("is_not", op_is_not, "Same as a is not b."),
    F1("index", op_index, "Same as a.__index__()"),
    F2("contains", op_contains, "Same as b in a (note reversed operands)."),
    F2("getitem", op_getitem, "Same as a[b]."),
    {"setitem", op_setitem, METH_ARGS(3, 3), "Same as a[b] = c."},
    F2("delitem", op_delitem, "Same as del a[b]."),
    F2("concat", op_concat, "Same as a + b, for a and b sequences."),
    F2("iconcat", op_iconcat, "Same as a += b, for a and b sequences."),
    F2("countOf", op_countOf, "Return the number of items in a which are, or which equal, b."),
    F2("indexOf", op_indexOf, "Return the first index of b in a."),
    F2("_compare_digest", hashlib_compare_digest, "Return 'a == b'."),
    {NULL, NULL, 0, NULL},
};

Obj operator_module_init(void)
{
    if (!T_itemgetter)   /* module inits run inevitable: C globals may be written */
        make_getter_types();
    Obj *r = vm_roots(2);
    r[0] = module_new("_operator");
    Obj m = r[0];
    if (m) {
        module_add_functions(r[0], operator_funcs);
        if (module_add(r[0], "itemgetter", (Obj)T_itemgetter) < 0 ||
            module_add(r[0], "attrgetter", (Obj)T_attrgetter) < 0 ||
            module_add(r[0], "methodcaller", (Obj)T_methodcaller) < 0)
            m = NULL;
        r[1] = str_from_cstr("Operator interface.\n\nThis module exports a set of functions implemented in C "
                             "corresponding\nto the intrinsic operators of Python.  For example, "
                             "operator.add(x, y)\nis equivalent to the expression x+y.  The function names "
                             "are those\nused for special methods; variants without leading and trailing\n"
                             "'__' are also provided for convenience.");
        m = m && r[1] && module_add(r[0], "__doc__", r[1]) == 0 ? r[0] : NULL;
    }
    vm_unroots(r);
    return m;
}
