/* _collections: the C half of lib/collections. collections.deque (its type
 * lives in modules/dequeobject.c), and the operations of defaultdict and
 * OrderedDict that CPython makes atomic by writing them in C: each is one C
 * call with no yield point inside (atomic under the GIL, one transaction
 * under the STM). lib/collections puts them in its classes' bodies; they are
 * method descriptors of dict, so they apply to any dict subclass instance.
 *
 * - defaultdict.__missing__: the default_factory call and the insertion,
 *   with nothing in between; a built-in factory (int, list, ...) runs no
 *   Python, so a lookup that misses and its insertion are one step, and
 *   threads that miss the same key at once never lose an item.
 * - OrderedDict.move_to_end and popitem: the order changes in one step
 *   (dict.c rebuilds or edits the table without rehashing any key). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"

/* The `last` argument of move_to_end / popitem (default True): a[nlast]. */
static int parse_last(Obj *a, int nlast, bool *last)
{
    if (!a[nlast])
        return 0;
    int t = vm_is_true(a[nlast]);
    if (t < 0)
        return -1;
    *last = t;
    return 0;
}

static Obj defaultdict_missing(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("defaultdict.__missing__", nargs - 1, kwnames, 1, 1) < 0)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = args[1];
    r[2] = vm_getattr_cstr(r[0], "default_factory");
    if (!r[2]) {
        if (!err_matches(E_AttributeError))
            goto out;
        err_clear();   /* as a factory of None */
    }
    if (!r[2] || r[2] == g_None) {
        err_set_value(E_KeyError, r[1]);   /* as a plain dict's miss (a tuple key stays one argument) */
        goto out;
    }
    r[2] = vm_call0(r[2]);
    if (r[2] && vm_setitem(r[0], r[1], r[2]) == 0)
        res = r[2];
out:
    vm_unroots(r);
    return res;
}

static Obj odict_move_to_end(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "last", NULL};
    Obj *a = vm_roots(2);
    bool last = true;
    Obj res = NULL;
    if (vm_parse_args("move_to_end", args + 1, nargs - 1, kwnames, names, 1, 2, a) == 0 &&
        parse_last(a, 1, &last) == 0 && dict_move_to_end(args[0], a[0], last) == 0)
        res = g_None;
    vm_unroots(a);
    return res;
}

static Obj odict_popitem(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"last", NULL};
    Obj *a = vm_roots(1);
    bool last = true;
    int rc = vm_parse_args("popitem", args + 1, nargs - 1, kwnames, names, 0, 1, a);
    if (rc == 0)
        rc = parse_last(a, 0, &last);
    vm_unroots(a);
    if (rc < 0)
        return NULL;
    Obj t = dict_popitem_end(args[0], last);
    if (!t && !err_occurred())
        err_set(E_KeyError, "dictionary is empty");
    return t;
}

/* guarded_repr(obj, fn): fn(obj), or '...' when obj's repr is already being
 * built on this thread (CPython's reprlib.recursive_repr, on the same guard
 * as the built-in containers' reprs), so OrderedDict and ChainMap reprs of
 * themselves end instead of overflowing. */
static Obj guarded_repr(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = args[1];
    Obj res = NULL;
    int rc = repr_enter(&r[0]);
    if (rc > 0) {
        res = str_from_cstr("...");
    } else if (rc == 0) {
        res = vm_call1(r[1], r[0]);
        repr_leave();
        if (res && !IS_STR(res)) {
            err_format(E_TypeError, "__repr__ returned non-string (type %s)", type_name(res));
            res = NULL;
        }
    }
    vm_unroots(r);
    return res;
}

/* _count_elements(mapping, iterable): mapping[e] = mapping.get(e, 0) + 1
 * for each e (Counter.update over an iterable), through the mapping's own
 * get and __setitem__ (a subclass's override runs). */
static Obj count_elements(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = args[0];
    r[1] = vm_getattr_cstr(r[0], "get");
    r[2] = r[1] ? vm_iter(args[1]) : NULL;
    if (!r[2])
        goto out;
    for (;;) {
        r[3] = vm_next(r[2]);
        if (!r[3]) {
            if (!err_occurred())
                res = g_None;
            break;
        }
        r[4] = vm_call2(r[1], r[3], MAKE_SMALLINT(0));
        if (r[4])
            r[4] = vm_binop(r[4], MAKE_SMALLINT(1), NB_ADD);
        if (!r[4] || vm_setitem(r[0], r[3], r[4]) < 0)
            break;
    }
out:
    vm_unroots(r);
    return res;
}

static const MethodDef module_funcs[] = {
    {"_count_elements", count_elements, METH_ARGS(2, 2), "Count elements in the iterable, updating the mapping"},
    {"guarded_repr", guarded_repr, METH_ARGS(2, 2), "guarded_repr(obj, fn) -> fn(obj), or '...' inside obj's own repr"},
    {NULL, NULL, 0, NULL},
};

static const MethodDef dict_ops[] = {
    {"__missing__", defaultdict_missing, 0,
     "__missing__(key) # Called by __getitem__ for missing key; pseudo-code:\n"
     "  if self.default_factory is None: raise KeyError((key,))\n"
     "  self[key] = value = self.default_factory()\n"
     "  return value"},
    {"move_to_end", odict_move_to_end, METH_KW,
     "Move an existing element to the end (or beginning if last is false).\n\n"
     "Raise KeyError if the element does not exist."},
    {"popitem", odict_popitem, METH_KW,
     "Remove and return a (key, value) pair from the dictionary.\n\n"
     "Pairs are returned in LIFO order if last is true or FIFO order if false."},
    {NULL, NULL, 0, NULL},
};
/* Their names in the module (the classes take them under the names above). */
static const char *const dict_op_names[] = {"defaultdict_missing", "odict_move_to_end", "odict_popitem"};

Obj collections_module_init(void)
{
    Obj *r = vm_roots(2);
    r[0] = module_new("_collections");
    Obj m = r[0];
    if (m && module_add(r[0], "deque", (Obj)T_deque) < 0)
        m = NULL;
    if (m)
        module_add_functions(r[0], module_funcs);
    for (size_t i = 0; m && dict_ops[i].name; i++) {
        r[1] = builtin_new(&dict_ops[i], NULL, (Obj)T_dict);
        if (!r[1] || module_add(r[0], dict_op_names[i], r[1]) < 0)
            m = NULL;
    }
    if (m)
        m = r[0];
    vm_unroots(r);
    return m;
}
