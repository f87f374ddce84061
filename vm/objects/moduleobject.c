/* Module objects: a namespace dict with __name__, attribute lookup with
 * module __getattr__, repr with the file or "(built-in)". */
#include "objects.h"

#include <stdlib.h>
#include <string.h>

TypeObj *T_module;

Obj module_new(const char *name)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = str_from_cstr(name);
    if (!r[0])
        goto out;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    if (dict_setitem(r[1], NAME(__name__), r[0]) < 0 || dict_setitem(r[1], NAME(__doc__), g_None) < 0 ||
        dict_setitem(r[1], NAME(__package__), g_None) < 0 || dict_setitem(r[1], NAME(__loader__), g_None) < 0 ||
        dict_setitem(r[1], NAME(__spec__), g_None) < 0)
        goto out;
    r[2] = (Obj)tm_allocate(TID_MODULE, sizeof(struct ModuleObj_));
    if (!r[2]) {
        err_nomemory();
        goto out;
    }
    ((ModuleObj *)r[2])->dict = r[1];
    ((ModuleObj *)r[2])->name = r[0];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

int module_add(Obj module, const char *name, Obj v)
{
    Obj *r = vm_roots(2);
    r[0] = module;
    r[1] = v;
    Obj key = vm_intern_cached(name);
    int rc = key ? dict_setitem(((ModuleObj *)r[0])->dict, key, r[1]) : -1;
    vm_unroots(r);
    return rc;
}

void module_add_functions(Obj module, const MethodDef *defs)
{
    Obj *r = vm_roots(2);
    r[0] = module;
    for (const MethodDef *d = defs; d->name; d++) {
        r[1] = builtin_new(d, r[0], NULL);
        if (!r[1] || module_add(r[0], d->name, r[1]) < 0) {
            fprintf(stderr, "tmpy: fatal: out of memory adding module functions\n");
            exit(1);
        }
    }
    vm_unroots(r);
}

static Obj module_getattro(Obj m, Obj name)
{
    if (likely(IS_STR(name)) && !((ModuleObj *)m)->cls) {   /* (a subclass may have data descriptors) */
        const char *c = str_cstr(name);
        if (!(c[0] == '_' && c[1] == '_')) {
            VM_READ(m);
            Obj v = dict_getitem_str(((ModuleObj *)m)->dict, name);
            if (v)
                return v;
        }
    }
    Obj *r = vm_roots(2);
    r[0] = m;
    r[1] = name;
    Obj res = vm_generic_getattr(m, name);
    if (!res && err_matches(E_AttributeError)) {
        Obj ga = dict_getitem_str(((ModuleObj *)r[0])->dict, NAME(__getattr__));
        if (ga) {
            err_clear();
            res = vm_call1(ga, r[1]);
        } else {
            err_clear();
            err_no_attr(r[0], r[1]);
        }
    }
    vm_unroots(r);
    return res;
}

static bool is_builtin_module_name(Obj name)
{
    Obj names = sys_get("builtin_module_names");
    if (!names || !IS_TUPLE(names))
        return false;
    for (int64_t i = 0; i < TUPLE_LEN(names); i++)
        if (IS_STR(TUPLE_ITEMS(names)[i]) && str_eq(TUPLE_ITEMS(names)[i], name))
            return true;
    return false;
}

/* "<module NAME from FILE>", "<module NAME (ORIGIN or LOADER)>" or
 * "<module NAME>", from __spec__ when it has one, as importlib's
 * _module_repr words it. tmpy's C modules have no spec: they say
 * "(built-in)" by their name. */
static Obj module_repr(Obj m)
{
    /* r: 0 module, 1 name, 2 spec/file, 3 origin/loader, 4 name repr, 5 the other repr */
    Obj *r = vm_roots(6);
    Obj res = NULL;
    r[0] = m;
    Obj spec = dict_getitem_str(((ModuleObj *)m)->dict, NAME(__spec__));
    if (spec && !IS_NONE(spec)) {
        r[2] = spec;
        r[1] = vm_getattr_opt(r[2], NAME(name));
        if (!r[1] && err_occurred())
            goto out;
        if (r[1] && IS_NONE(r[1]))
            r[1] = NULL;   /* '?' */
        r[3] = vm_getattr_cstr(r[2], "origin");
        if (!r[3])
            err_clear();
        if (r[3] && !IS_NONE(r[3])) {
            Obj has_loc = vm_getattr_cstr(r[2], "has_location");
            int loc = has_loc ? vm_is_true(has_loc) : 0;
            if (loc < 0 || (!has_loc && !err_matches(E_AttributeError)))
                goto out;
            err_clear();
            if (!(r[4] = r[1] ? vm_repr(r[1]) : str_from_cstr("'?'")) || !(r[5] = loc ? vm_repr(r[3]) : vm_str(r[3])))
                goto out;
            res = str_from_format(loc ? "<module %s from %s>" : "<module %s (%s)>", str_cstr(r[4]), str_cstr(r[5]));
            goto out;
        }
        r[3] = vm_getattr_cstr(r[2], "loader");
        if (!r[3])
            err_clear();
    } else {
        Obj d = ((ModuleObj *)m)->dict;
        r[1] = dict_getitem_str(d, NAME(__name__));
        r[2] = dict_getitem_str(d, NAME(__file__));
        r[3] = dict_getitem_str(d, NAME(__loader__));
        if (r[2]) {
            if (!(r[4] = r[1] ? vm_repr(r[1]) : str_from_cstr("'?'")) || !(r[5] = vm_repr(r[2])))
                goto out;
            res = str_from_format("<module %s from %s>", str_cstr(r[4]), str_cstr(r[5]));
            goto out;
        }
    }
    if (!(r[4] = r[1] ? vm_repr(r[1]) : str_from_cstr("'?'")))
        goto out;
    if (r[3] && !IS_NONE(r[3])) {
        if ((r[5] = vm_repr(r[3])))
            res = str_from_format("<module %s (%s)>", str_cstr(r[4]), str_cstr(r[5]));
    } else if ((!spec || IS_NONE(spec)) && r[1] && IS_STR(r[1]) && is_builtin_module_name(r[1])) {
        res = str_from_format("<module %s (built-in)>", str_cstr(r[4]));
    } else {
        res = str_from_format("<module %s>", str_cstr(r[4]));
    }
out:
    vm_unroots(r);
    return res;
}

/* module.__new__: an empty namespace, of `type` (a ModuleType subclass
 * is kept in the module's cls); __init__ names it. */
static Obj module_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)args, (void)nargs, (void)kwnames;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = type;
    r[1] = dict_new();
    if (!r[1])
        goto out;
    Obj m = (Obj)tm_allocate(TID_MODULE, sizeof(struct ModuleObj_));
    if (!m) {
        err_nomemory();
        goto out;
    }
    ((ModuleObj *)m)->dict = r[1];
    if ((TypeObj *)r[0] != T_module) {
        ((ModuleObj *)m)->cls = r[0];
        if (((TypeObj *)r[0])->flags & TPF_HAS_DEL)
            tm_register_finalizer((object_t *)m);
    }
    res = m;
out:
    vm_unroots(r);
    return res;
}

/* module.__init__(name, doc=None): CPython's five names. */
static int module_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"name", "doc", NULL};
    Obj *r = vm_roots(4);
    int rc = -1;
    r[2] = self;
    if (vm_parse_args("module", args, nargs, kwnames, names, 1, 2, r) < 0)
        goto out;
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "module() argument 'name' must be str, not %s", type_name(r[0]));
        goto out;
    }
    r[3] = ((ModuleObj *)r[2])->dict;   /* may move while the stores allocate */
    if (dict_setitem(r[3], NAME(__name__), r[0]) < 0 || dict_setitem(r[3], NAME(__doc__), r[1] ? r[1] : g_None) < 0 ||
        dict_setitem(r[3], NAME(__package__), g_None) < 0 || dict_setitem(r[3], NAME(__loader__), g_None) < 0 ||
        dict_setitem(r[3], NAME(__spec__), g_None) < 0)
        goto out;
    if (((ModuleObj *)r[2])->name != r[0]) {
        VM_WRITE_RARE(r[2]);
        ((ModuleObj *)r[2])->name = r[0];
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj module_dir_m(Obj *args, size_t nargs, Obj kw)
{
    Obj d = ((ModuleObj *)args[0])->dict;
    Obj f = dict_getitem_str(d, NAME(__dir__));
    if (f)
        return vm_call0(f);
    return dict_keys_list(d);
}

void module_init_type(void)
{
    TypeObj *t;

    static const MethodDef module_methods[] = {
        {"__dir__", module_dir_m, METH_NOARGS, NULL},
        {NULL, NULL, 0, NULL},
    };
    t = T_module = (TypeObj *)type_new_builtin("module", T_object, TID_MODULE, TPF_HAS_DICT | TPF_BASETYPE);
    t->tp_getattro = module_getattro;
    t->tp_repr = module_repr;
    t->tp_new = module_tp_new;
    t->tp_init = module_tp_init;
    type_add_methods(t, module_methods);
    type_add_getset(t, "__dict__", vm_getset_dict_get, NULL);
    type_ready(t);
}
