/* _abc: the C half of CPython's abc.py (ABCMeta's registry and caches).
 * Without it abc.py falls back on _py_abc, whose Python frames sit between
 * ABCMeta.__instancecheck__ and a __subclasshook__: typing's protocol hook
 * looks two frames up for the abc module's name (sys._getframe) and
 * refuses isinstance() checks that CPython allows. Here the checks run in C
 * and add no frame.
 *
 * A class's state, cls._abc_impl, is a list [registry, cache, negative
 * cache, negative cache version]: the three sets are _weakrefset.WeakSet
 * objects (they forget a class when it dies); membership is tested in C on
 * the set of weak references each holds (WeakSet.data). The invalidation
 * counter (get_cache_token) is item 0 of a list kept as a global root. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/dictset.h"
#include "objects/objects.h"

static Obj g_abc_counter;   /* [int]: bumped by every register() */
static Obj g_abc_weakset;   /* _weakrefset.WeakSet */

enum { IMPL_REGISTRY, IMPL_CACHE, IMPL_NEGATIVE, IMPL_VERSION, IMPL_LEN };

static Obj counter_value(void) { return LIST_ITEMS(g_abc_counter)[0]; }

/* o.name, or NULL without an error when o has no such attribute. */
static Obj getattr_or_null(Obj o, const char *name)
{
    Obj v = vm_getattr_cstr(o, name);
    if (!v && err_matches(E_AttributeError))
        err_clear();
    return v;
}

static int setattr_cstr(Obj o, const char *name, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = o;
    r[1] = v;
    Obj n = vm_intern_cached(name);
    int rc = n ? vm_setattr(r[0], n, r[1]) : -1;
    vm_unroots(r);
    return rc;
}

/* bool(o.__isabstractmethod__), false if it has none: 1, 0, -1 */
static int is_abstract(Obj o)
{
    Obj flag = getattr_or_null(o, "__isabstractmethod__");
    if (!flag)
        return err_occurred() ? -1 : 0;
    return vm_is_true(flag);
}

static Obj get_impl(Obj cls)
{
    Obj impl = vm_getattr_cstr(cls, "_abc_impl");
    if (impl && !(IS_LIST(impl) && LIST_LEN(impl) == IMPL_LEN)) {
        err_set(E_TypeError, "_abc_impl is set to a wrong type");
        return NULL;
    }
    return impl;
}

/* item in weak set ws: 1, 0, -1. An object that takes no weak reference is
 * in no weak set (as WeakSet.__contains__). */
static int weakset_contains(Obj ws, Obj item)
{
    Obj *r = vm_roots(2);
    r[0] = ws;
    r[1] = weakref_new(T_weakref, item, NULL);
    int rc = 0;
    if (!r[1]) {
        if (err_matches(E_TypeError))
            err_clear();
        else
            rc = -1;
    } else {
        Obj data = vm_getattr_cstr(r[0], "data");
        rc = data ? vm_contains(data, r[1]) : -1;
    }
    vm_unroots(r);
    return rc;
}

static int weakset_call(Obj ws, const char *method, Obj item)
{
    Obj res = item ? vm_call_method1(ws, method, item) : vm_call_method(ws, method, NULL, 0);
    return res ? 0 : -1;
}

/* _abc_init(cls): cls.__abstractmethods__ and a fresh cls._abc_impl. */
static Obj abc_init(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(7);   /* cls, abstracts, items/iterator, name, value, bases, impl */
    Obj res = NULL;
    r[0] = args[0];
    if (!(r[1] = set_new(NULL)))
        goto out;
    /* names in the namespace whose value is abstract */
    Obj ns = vm_getattr_cstr(r[0], "__dict__");
    if (!ns || !(r[2] = vm_call_method(ns, "items", NULL, 0)) || !(r[2] = vm_iter(r[2])))
        goto out;
    for (;;) {
        r[4] = vm_next(r[2]);
        if (!r[4]) {
            if (err_occurred())
                goto out;
            break;
        }
        if (!IS_TUPLE(r[4]) || TUPLE_LEN(r[4]) != 2) {
            err_set(E_TypeError, "items() returned item which is not a 2-tuple");
            goto out;
        }
        int t = is_abstract(TUPLE_ITEMS(r[4])[1]);
        if (t < 0 || (t && set_add(r[1], TUPLE_ITEMS(r[4])[0]) < 0))
            goto out;
    }
    /* inherited abstract names still abstract here */
    if (!(r[5] = vm_getattr_cstr(r[0], "__bases__")))
        goto out;
    if (!IS_TUPLE(r[5])) {
        err_set(E_TypeError, "__bases__ is not tuple");
        goto out;
    }
    for (int64_t i = 0; i < TUPLE_LEN(r[5]); i++) {
        Obj names = getattr_or_null(TUPLE_ITEMS(r[5])[i], "__abstractmethods__");
        if (!names) {
            if (err_occurred())
                goto out;
            continue;
        }
        if (!(r[2] = vm_iter(names)))
            goto out;
        for (;;) {
            r[3] = vm_next(r[2]);
            if (!r[3]) {
                if (err_occurred())
                    goto out;
                break;
            }
            if (!IS_STR(r[3])) {
                err_set(E_TypeError, "__abstractmethods__ must contain strings");
                goto out;
            }
            r[4] = vm_getattr_opt(r[0], r[3]);
            if (!r[4]) {
                if (err_occurred())
                    goto out;
                continue;
            }
            int t = is_abstract(r[4]);
            if (t < 0 || (t && set_add(r[1], r[3]) < 0))
                goto out;
        }
    }
    if (!(r[1] = frozenset_new(r[1])) || setattr_cstr(r[0], "__abstractmethods__", r[1]) < 0)
        goto out;
    if (!(r[6] = list_new_capacity(IMPL_LEN)))
        goto out;
    for (int i = 0; i < 3; i++) {
        Obj ws = vm_call0(g_abc_weakset);
        if (!ws || list_append(r[6], ws) < 0)
            goto out;
    }
    if (list_append(r[6], counter_value()) < 0 || setattr_cstr(r[0], "_abc_impl", r[6]) < 0)
        goto out;
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* _abc_register(cls, subclass) */
static Obj abc_register(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    if (!IS_TYPE(r[1])) {
        err_set(E_TypeError, "Can only register classes");
        goto out;
    }
    int t = vm_issubclass(r[1], r[0]);
    if (t < 0)
        goto out;
    if (t) {
        res = r[1];   /* already a subclass */
        goto out;
    }
    if ((t = vm_issubclass(r[0], r[1])) < 0)
        goto out;
    if (t) {
        err_set(E_RuntimeError, "Refusing to create an inheritance cycle");
        goto out;
    }
    if (!(r[2] = get_impl(r[0])) || weakset_call(LIST_ITEMS(r[2])[IMPL_REGISTRY], "add", r[1]) < 0)
        goto out;
    Obj next = vm_binop(counter_value(), MAKE_SMALLINT(1), NB_ADD);
    if (!next || list_setitem(g_abc_counter, MAKE_SMALLINT(0), next) < 0)
        goto out;
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

/* cls.__subclasscheck__(c): 1, 0, -1 */
static int call_subclasscheck(Obj cls, Obj c)
{
    Obj res = vm_call_method1(cls, "__subclasscheck__", c);
    return res ? vm_is_true(res) : -1;
}

/* _abc_instancecheck(cls, instance) */
static Obj abc_instancecheck(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);   /* cls, instance/subtype, impl, subclass */
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    if (!(r[2] = get_impl(r[0])) || !(r[3] = vm_getattr_cstr(r[1], "__class__")))
        goto out;
    int t = weakset_contains(LIST_ITEMS(r[2])[IMPL_CACHE], r[3]);
    if (t < 0)
        goto out;
    if (t) {
        res = g_True;
        goto out;
    }
    r[1] = (Obj)TYPE(r[1]);
    if (r[1] == r[3]) {
        Obj version = LIST_ITEMS(r[2])[IMPL_VERSION];
        int same = vm_richcompare_bool(version, counter_value(), CMP_EQ);
        if (same < 0)
            goto out;
        if (same) {
            if ((t = weakset_contains(LIST_ITEMS(r[2])[IMPL_NEGATIVE], r[3])) < 0)
                goto out;
            if (t) {
                res = g_False;
                goto out;
            }
        }
        if ((t = call_subclasscheck(r[0], r[3])) >= 0)
            res = vm_bool(t);
        goto out;
    }
    if ((t = call_subclasscheck(r[0], r[3])) < 0)
        goto out;
    if (!t && (t = call_subclasscheck(r[0], r[1])) < 0)
        goto out;
    res = vm_bool(t);
out:
    vm_unroots(r);
    return res;
}

/* subclass is a subclass of any class of the iterable *seq: 1, 0, -1 */
static int subclass_of_any(Obj subclass, Obj seq)
{
    Obj *r = vm_roots(3);
    int rc = -1;
    r[0] = subclass;
    if (!(r[1] = vm_iter(seq)))
        goto out;
    for (;;) {
        r[2] = vm_next(r[1]);
        if (!r[2]) {
            rc = err_occurred() ? -1 : 0;
            break;
        }
        int t = vm_issubclass(r[0], r[2]);
        if (t) {
            rc = t;
            break;
        }
    }
out:
    vm_unroots(r);
    return rc;
}

/* _abc_subclasscheck(cls, subclass) */
static Obj abc_subclasscheck(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);   /* cls, subclass, impl, scratch */
    Obj res = NULL;
    int t;
    r[0] = args[0];
    r[1] = args[1];
    if (!IS_TYPE(r[1])) {
        err_set(E_TypeError, "issubclass() arg 1 must be a class");
        goto out;
    }
    if (!(r[2] = get_impl(r[0])))
        goto out;
    /* 1. the positive cache */
    if ((t = weakset_contains(LIST_ITEMS(r[2])[IMPL_CACHE], r[1])) < 0)
        goto out;
    if (t) {
        res = g_True;
        goto out;
    }
    /* 2. the negative cache, emptied when a register() happened since */
    int stale = vm_richcompare_bool(LIST_ITEMS(r[2])[IMPL_VERSION], counter_value(), CMP_LT);
    if (stale < 0)
        goto out;
    if (stale) {
        if (weakset_call(LIST_ITEMS(r[2])[IMPL_NEGATIVE], "clear", NULL) < 0 ||
            list_setitem(r[2], MAKE_SMALLINT(IMPL_VERSION), counter_value()) < 0)
            goto out;
    } else {
        if ((t = weakset_contains(LIST_ITEMS(r[2])[IMPL_NEGATIVE], r[1])) < 0)
            goto out;
        if (t) {
            res = g_False;
            goto out;
        }
    }
    /* 3. the subclass hook */
    if (!(r[3] = vm_call_method1(r[0], "__subclasshook__", r[1])))
        goto out;
    if (r[3] != g_NotImplemented) {
        if (r[3] != g_True && r[3] != g_False) {
            err_set(E_AssertionError, "__subclasshook__ must return either False, True, or NotImplemented");
            goto out;
        }
        res = r[3];
        if (weakset_call(LIST_ITEMS(r[2])[res == g_True ? IMPL_CACHE : IMPL_NEGATIVE], "add", r[1]) < 0)
            res = NULL;
        goto out;
    }
    /* 4. a direct subclass; 5. a subclass of a registered class; 6. of a subclass */
    t = 0;
    if (!(r[3] = getattr_or_null(r[1], "__mro__"))) {
        if (err_occurred())
            goto out;
    } else if (IS_TUPLE(r[3])) {
        for (int64_t i = 0; i < TUPLE_LEN(r[3]) && !t; i++)
            t = TUPLE_ITEMS(r[3])[i] == r[0];
    }
    if (!t) {
        if ((t = subclass_of_any(r[1], LIST_ITEMS(r[2])[IMPL_REGISTRY])) < 0)   /* iterates the live classes */
            goto out;
    }
    if (!t) {
        if (!(r[3] = vm_call_method(r[0], "__subclasses__", NULL, 0)) || (t = subclass_of_any(r[1], r[3])) < 0)
            goto out;
    }
    if (weakset_call(LIST_ITEMS(r[2])[t ? IMPL_CACHE : IMPL_NEGATIVE], "add", r[1]) < 0)
        goto out;
    res = vm_bool(t);
out:
    vm_unroots(r);
    return res;
}

static Obj abc_get_cache_token(Obj *args, size_t nargs, Obj kwnames)
{
    return counter_value();
}

/* _get_dump(cls): (registry, cache, negative cache, version), the sets as
 * sets of weak references (for tests and debugging). */
static Obj abc_get_dump(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    if (!(r[0] = get_impl(args[0])))
        goto out;
    for (int i = 0; i < 3; i++) {
        Obj data = vm_getattr_cstr(LIST_ITEMS(r[0])[i], "data");
        if (!data || !(r[1 + i] = set_new(data)))
            goto out;
    }
    if ((r[4] = tuple_new(4))) {
        for (int i = 0; i < 3; i++)
            TUPLE_ITEMS(r[4])[i] = r[1 + i];
        TUPLE_ITEMS(r[4])[3] = LIST_ITEMS(r[0])[IMPL_VERSION];
        res = r[4];
    }
out:
    vm_unroots(r);
    return res;
}

static Obj clear_sets(Obj cls, int first, int last)
{
    Obj *r = vm_roots(1);
    Obj res = g_None;
    if (!(r[0] = get_impl(cls)))
        res = NULL;
    for (int i = first; res && i <= last; i++)
        if (weakset_call(LIST_ITEMS(r[0])[i], "clear", NULL) < 0)
            res = NULL;
    vm_unroots(r);
    return res;
}

static Obj abc_reset_registry(Obj *args, size_t nargs, Obj kwnames)
{
    return clear_sets(args[0], IMPL_REGISTRY, IMPL_REGISTRY);
}

static Obj abc_reset_caches(Obj *args, size_t nargs, Obj kwnames)
{
    return clear_sets(args[0], IMPL_CACHE, IMPL_NEGATIVE);
}

static const MethodDef abc_functions[] = {
    {"get_cache_token", abc_get_cache_token, METH_NOARGS,
     "Returns the current ABC cache token (it changes when a class is registered with an ABC)."},
    {"_abc_init", abc_init, METH_O, "Internal ABC helper for class set-up. Should be never used outside abc module."},
    {"_abc_register", abc_register, METH_ARGS(2, 2),
     "Internal ABC helper for subclasss registration. Should be never used outside abc module."},
    {"_abc_instancecheck", abc_instancecheck, METH_ARGS(2, 2),
     "Internal ABC helper for instance checks. Should be never used outside abc module."},
    {"_abc_subclasscheck", abc_subclasscheck, METH_ARGS(2, 2),
     "Internal ABC helper for subclasss checks. Should be never used outside abc module."},
    {"_get_dump", abc_get_dump, METH_O, "Internal ABC helper for cache and registry debugging."},
    {"_reset_registry", abc_reset_registry, METH_O, "Internal ABC helper to reset registry of a given class."},
    {"_reset_caches", abc_reset_caches, METH_O, "Internal ABC helper to reset both caches of a given class."},
    {NULL, NULL, 0, NULL},
};

/* Run by load_module in an inevitable transaction: the globals are written
 * once, by the first import. */
Obj abc_module_init(void)
{
    if (!g_abc_weakset) {
        Obj ws = vm_import_cstr("_weakrefset");
        if (!ws || !(ws = vm_getattr_cstr(ws, "WeakSet")))
            return NULL;
        VM_GLOBAL_ROOT(g_abc_weakset);
        g_abc_weakset = ws;
        VM_GLOBAL_ROOT(g_abc_counter);
        if (!(g_abc_counter = list_new_capacity(1)) || list_append(g_abc_counter, MAKE_SMALLINT(0)) < 0)
            return NULL;
    }
    Obj *r = vm_roots(1);
    r[0] = module_new("_abc");
    Obj m = NULL;
    if (r[0]) {
        module_add_functions(r[0], abc_functions);
        m = r[0];
    }
    vm_unroots(r);
    return m;
}
