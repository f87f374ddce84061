/* _weakref: the C half of lib/weakref.py. The types live in
 * objects/weakrefobject.c; the runtime finds the weak references to an
 * object (runtime/gc.h, tm_foreach_weakref_to). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"

struct found { Obj *slots; int64_t n, cap; };

static void count_one(object_t *w, void *ctx)
{
    (void)w;
    ((struct found *)ctx)->n++;
}

static void store_one(object_t *w, void *ctx)
{
    struct found *f = ctx;
    if (f->n < f->cap)   /* STM: a commit since the count may have published more */
        f->slots[f->n++] = (Obj)w;
}

/* The live weak references to *slot. The runtime also knows dead ones no
 * major collection has freed yet, so when it knows any, a collection
 * (gc.collect()'s, callbacks included) runs first; stack_top is where the
 * caller's arguments end (vm_gc_collect). */
static int64_t count_refs(Obj *slot, Obj *stack_top)
{
    if (IS_SMALLINT(*slot))
        return 0;
    struct found f = {NULL, 0, 0};
    tm_foreach_weakref_to((object_t *)*slot, count_one, &f);
    if (!f.n)
        return 0;
    int64_t found;
    if (!vm_gc_collect(stack_top, &found))   /* may move *slot: the runtime matches the new address */
        return -1;
    f.n = 0;
    tm_foreach_weakref_to((object_t *)*slot, count_one, &f);
    return f.n;
}

static Obj wr_getweakrefcount(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    r[0] = args[0];
    int64_t n = count_refs(&r[0], args + nargs);
    vm_unroots(r);
    return n < 0 ? NULL : int_from_i64(n);
}

static Obj wr_getweakrefs(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = args[0];
    int64_t n = count_refs(&r[0], args + nargs);
    if (n < 0) {
        vm_unroots(r);
        return NULL;
    }
    /* Rooted before anything allocates: a major collection could free a
     * dead weak reference held only in C. */
    Obj *refs = vm_roots((int)n);
    struct found f = {refs, 0, n};
    if (n)
        tm_foreach_weakref_to((object_t *)r[0], store_one, &f);
    Obj res = list_new(0);
    r[1] = res;
    for (int64_t i = 0; res && i < f.n; i++) {
        Obj w = WREF(refs[i])->wrapper;
        if (list_append(r[1], w ? w : refs[i]) < 0)
            res = NULL;
    }
    if (res)
        res = r[1];
    vm_unroots(r);
    return res;
}

static Obj wr_proxy(Obj *args, size_t nargs, Obj kwnames)
{
    return weakref_new(T_weakproxy, args[0], nargs > 1 ? args[1] : NULL);
}

/* _remove_dead_weakref(dict, key): del dict[key] if it holds a dead weak reference. */
static Obj wr_remove_dead_weakref(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_DICT(args[0])) {
        err_format(E_TypeError, "_remove_dead_weakref() argument 1 must be dict, not %s", type_name(args[0]));
        return NULL;
    }
    Obj v = dict_getitem(args[0], args[1]);
    if (!v) {
        if (err_occurred())
            return NULL;
        return g_None;
    }
    Obj w = vm_unwrap(v);
    if (TID(w) == TID_WEAKREF && !weakref_referent(w) && dict_delitem(args[0], args[1]) < 0)
        return NULL;
    return g_None;
}

static const MethodDef weakref_functions[] = {
    {"getweakrefcount", wr_getweakrefcount, METH_O, "Return the number of weak references to 'object'."},
    {"getweakrefs", wr_getweakrefs, METH_O, "Return a list of all weak reference objects pointing to 'object'."},
    {"proxy", wr_proxy, METH_ARGS(1, 2), "Create a proxy object that weakly references 'object'."},
    {"_remove_dead_weakref", wr_remove_dead_weakref, METH_ARGS(2, 2), NULL},
    {NULL, NULL, 0, NULL},
};

Obj weakref_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("_weakref");
    Obj m = NULL;
    if (r[0]) {
        module_add_functions(r[0], weakref_functions);
        if (module_add(r[0], "ref", (Obj)T_weakref) == 0 && module_add(r[0], "ReferenceType", (Obj)T_weakref) == 0 &&
            module_add(r[0], "ProxyType", (Obj)T_weakproxy) == 0 &&
            module_add(r[0], "CallableProxyType", (Obj)T_weakcallableproxy) == 0)
            m = r[0];
    }
    vm_unroots(r);
    return m;
}
