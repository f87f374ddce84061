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
    if (likely(IS_STR(name))) {
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

static Obj module_repr(Obj m)
{
    Obj d = ((ModuleObj *)m)->dict;
    Obj name = dict_getitem_str(d, NAME(__name__));
    if (!name || !IS_STR(name))
        name = ((ModuleObj *)m)->name;
    Obj file = dict_getitem_str(d, NAME(__file__));
    StrBuf b;
    sb_init(&b);
    sb_adds(&b, "<module '");
    if (name && IS_STR(name))
        sb_add_str(&b, name);
    else
        sb_adds(&b, "?");
    if (file && IS_STR(file)) {
        sb_adds(&b, "' from '");
        sb_add_str(&b, file);
        sb_adds(&b, "'>");
    } else {
        sb_adds(&b, "' (built-in)>");
    }
    return sb_finish(&b);
}

static Obj module_tp_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    (void)type;
    static const char *const names[] = {"name", "doc", NULL};
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("module", args, nargs, kwnames, names, 1, 2, r) < 0)
        goto out;
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "module.__init__() argument 'name' must be str, not %s", type_name(r[0]));
        goto out;
    }
    r[2] = module_new(str_cstr(r[0]));
    if (!r[2])
        goto out;
    if (dict_setitem(((ModuleObj *)r[2])->dict, NAME(__name__), r[0]) < 0)
        goto out;
    if (r[1] && dict_setitem(((ModuleObj *)r[2])->dict, NAME(__doc__), r[1]) < 0)
        goto out;
    VM_WRITE_RARE(r[2]);
    ((ModuleObj *)r[2])->name = r[0];
    res = r[2];
out:
    vm_unroots(r);
    return res;
}

static int module_tp_init(Obj self, Obj *args, size_t nargs, Obj kwnames)
{
    (void)self, (void)args, (void)nargs, (void)kwnames;
    return 0;
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
    t = T_module = (TypeObj *)type_new_builtin("module", T_object, TID_MODULE, TPF_HAS_DICT);
    t->tp_getattro = module_getattro;
    t->tp_repr = module_repr;
    t->tp_new = module_tp_new;
    t->tp_init = module_tp_init;
    type_add_methods(t, module_methods);
    type_add_getset(t, "__dict__", vm_getset_dict_get, NULL);
    type_ready(t);
}
