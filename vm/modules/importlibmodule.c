/* The importlib module (minimal): import_module, reload, invalidate_caches;
 * a package (empty __path__) whose one submodule is the built-in
 * importlib.machinery: the file suffixes tmpy's import system knows (what
 * inspect reads). */
#include "modules.h"
#include "objects/objects.h"
#include "objects/strobj.h"
#include "objects/containers.h"

static Obj il_import_module(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"name", "package", NULL};
    Obj *a = vm_roots(4);
    Obj res = NULL;
    if (vm_parse_args("import_module", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (!IS_STR(a[0])) {
        err_format(E_TypeError, "module name must be str, not %s", type_name(a[0]));
        goto out;
    }
    const char *n = str_cstr(a[0]);
    int level = 0;
    while (n[level] == '.')
        level++;
    if (level) {
        if (!a[1] || IS_NONE(a[1])) {
            err_format(E_TypeError, "the 'package' argument is required to perform a relative import for %s",
                       str_cstr(a[0]));
            goto out;
        }
        if (!IS_STR(a[1])) {
            err_set(E_TypeError, "package must be a string");
            goto out;
        }
        a[2] = dict_new();
        if (!a[2] || dict_setitem(a[2], NAME(__package__), a[1]) < 0)
            goto out;
        a[3] = str_from_cstr(str_cstr(a[0]) + level);
        if (!a[3] || !(a[3] = import_resolve_relative(a[3], a[2], level)))
            goto out;
    } else {
        a[3] = a[0];
    }
    res = import_absolute(a[3]);
out:
    vm_unroots(a);
    return res;
}

static Obj il_reload(Obj *args, size_t nargs, Obj kwnames)
{
    if (TID(args[0]) != TID_MODULE) {
        err_set(E_TypeError, "reload() argument must be a module");
        return NULL;
    }
    Obj file = vm_getattr_opt(args[0], NAME(__file__));
    if (!file || !IS_STR(file)) {
        if (!err_occurred())
            err_set(E_ModuleNotFoundError, "reload(): the module has no source file");
        return NULL;
    }
    return import_run_source_file(args[0], file) ? args[0] : NULL;
}

static Obj il_invalidate_caches(Obj *args, size_t nargs, Obj kwnames)
{
    return g_None;
}

static const MethodDef importlib_functions[] = {
    {"import_module", il_import_module, METH_KW, NULL},
    {"reload", il_reload, METH_O, NULL},
    {"invalidate_caches", il_invalidate_caches, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

Obj importlib_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj m = NULL;
    r[0] = module_new("importlib");
    if (r[0])
        module_add_functions(r[0], importlib_functions);   /* allocates: r[0] follows the module */
    if (r[0] && (r[1] = list_new(0)) && module_add(r[0], "__path__", r[1]) == 0)
        m = r[0];
    vm_unroots(r);
    return m;
}

/* importlib.machinery.all_suffixes(): source then bytecode suffixes (tmpy loads no extension modules) */
static Obj im_all_suffixes(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    if (r[0] && (r[1] = str_from_cstr(".py")) && list_append(r[0], r[1]) == 0 && (r[1] = str_from_cstr(".pyc")) &&
        list_append(r[0], r[1]) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}

static const MethodDef machinery_functions[] = {
    {"all_suffixes", im_all_suffixes, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* A list holding the one str s, or an empty list (s NULL). */
static Obj suffix_list(const char *s)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = list_new(0);
    if (r[0] && (!s || ((r[1] = str_from_cstr(s)) && list_append(r[0], r[1]) == 0)))
        res = r[0];
    vm_unroots(r);
    return res;
}

Obj importlib_machinery_module_init(void)
{
    static const struct { const char *name, *suffix; } lists[] = {
        {"SOURCE_SUFFIXES", ".py"}, {"BYTECODE_SUFFIXES", ".pyc"}, {"DEBUG_BYTECODE_SUFFIXES", ".pyc"},
        {"OPTIMIZED_BYTECODE_SUFFIXES", ".pyc"}, {"EXTENSION_SUFFIXES", NULL},
    };
    Obj *r = vm_roots(2);
    Obj m = NULL;
    r[0] = module_new("importlib.machinery");
    if (!r[0])
        goto out;
    module_add_functions(r[0], machinery_functions);
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (!(r[1] = suffix_list(lists[i].suffix)) || module_add(r[0], lists[i].name, r[1]) < 0)
            goto out;
    m = r[0];
out:
    vm_unroots(r);
    return m;
}
