/* The Python side of the import system, as CPython's: sys.meta_path and
 * sys.path_hooks hold BuiltinImporter, FrozenImporter, PathFinder and
 * FileFinder's path hook, and CPython's own importlib._bootstrap and
 * _bootstrap_external (from its installed Lib/) run as _frozen_importlib and
 * _frozen_importlib_external. Compiling those two (3,000 lines) at every
 * start would double tmpy's start-up, so they are loaded on first need: an
 * import of importlib (or of _frozen_importlib), a finder or hook the user
 * installed, or a call on a default finder. Until then sys.meta_path and
 * sys.path_hooks hold stand-ins with the same names whose find_spec (or
 * call) loads them and hands over; loading them swaps the stand-ins for the
 * real objects in place, and gives the modules already imported their
 * __spec__ and __loader__. import.c keeps finding and loading files in C
 * while the default finders are the ones in place (importhooks_kind). */
#include "eval.h"
#include "objects/strobj.h"
#include "objects/containers.h"

#include <stdlib.h>
#include <string.h>

#ifndef TMPY_STDLIBDIR
#define TMPY_STDLIBDIR "/usr/lib/python3.11"
#endif

static Obj g_stand_ins[IMPORTHOOK_NKINDS];   /* the start-up stand-ins, by kind */
static Obj g_finders[IMPORTHOOK_NKINDS];     /* CPython's classes, once loaded */
static Obj g_file_hook_stand_in;             /* sys.path_hooks' stand-in */
static Obj g_zip_hook_stand_in;              /* sys.path_hooks' zipimporter until zipimport is loaded */
static Obj g_zip_hook;                       /* zipimport.zipimporter, once loaded */
static Obj g_file_hook;                      /* FileFinder.path_hook(...)'s closure, once loaded */
static Obj g_file_finder;                    /* _frozen_importlib_external.FileFinder */
static Obj g_bootstrap, g_bootstrap_external;

static Obj load_bootstrap(void);
static void swap_in(const char *name, const Obj *olds, const Obj *news, int n);

/* ------------------------------------------------------------------ */
/* Stand-ins                                                           */
/* ------------------------------------------------------------------ */

static const char *const kind_names[IMPORTHOOK_NKINDS] = {"BuiltinImporter", "FrozenImporter", "PathFinder"};

/* stand_in.find_spec(...) / the hook's call: load the bootstrap, then the
 * real object answers. */
static Obj forward_find_spec(int kind, Obj *args, size_t nargs, Obj kwnames)
{
    if (!load_bootstrap())
        return NULL;
    size_t total = nargs + (kwnames ? (size_t)TUPLE_LEN(kwnames) : 0);
    Obj *r = vm_roots((int)total + 2);
    Obj res = NULL;
    r[0] = kwnames;
    memcpy(r + 2, args, total * sizeof(Obj));
    r[1] = vm_getattr_cstr(g_finders[kind], "find_spec");
    if (r[1])
        res = vm_call(r[1], r + 2, nargs, r[0]);
    vm_unroots(r);
    return res;
}

static Obj stand_in_builtin_find_spec(Obj *args, size_t nargs, Obj kwnames)
{
    return forward_find_spec(IMPORTHOOK_BUILTIN, args, nargs, kwnames);
}

static Obj stand_in_frozen_find_spec(Obj *args, size_t nargs, Obj kwnames)
{
    return forward_find_spec(IMPORTHOOK_FROZEN, args, nargs, kwnames);
}

static Obj stand_in_path_find_spec(Obj *args, size_t nargs, Obj kwnames)
{
    return forward_find_spec(IMPORTHOOK_PATH, args, nargs, kwnames);
}

static Obj stand_in_file_hook(Obj *args, size_t nargs, Obj kwnames)
{
    if (!load_bootstrap())
        return NULL;
    return vm_call1(g_file_hook, args[0]);
}

/* zipimporter(path), sys.path_hooks[0] as CPython's: loads zipimport
 * (CPython's, from source: it is frozen there) on the first call, which
 * PathFinder makes only when it runs in Python (a file on sys.path, a
 * hook of the user's), and puts its class in the stand-in's place. */
static Obj stand_in_zip_hook(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = args[0];
    if (!g_zip_hook) {
        if (!(r[1] = str_from_cstr("zipimport")) || !(r[1] = import_source_module(r[1])) ||
            !(r[1] = vm_getattr_cstr(r[1], "zipimporter")))
            goto out;
        vm_tx_become_inevitable();   /* a C global root: an abort would not undo it */
        g_zip_hook = r[1];
        swap_in("path_hooks", &g_zip_hook_stand_in, &g_zip_hook, 1);
    }
    res = vm_call1(g_zip_hook, r[0]);
out:
    vm_unroots(r);
    return res;
}

static const MethodDef zip_hook_def = {"zipimporter", stand_in_zip_hook, METH_O, NULL};

static const MethodDef stand_in_defs[IMPORTHOOK_NKINDS + 1] = {
    {"find_spec", stand_in_builtin_find_spec, METH_KW, NULL},
    {"find_spec", stand_in_frozen_find_spec, METH_KW, NULL},
    {"find_spec", stand_in_path_find_spec, METH_KW, NULL},
    {"path_hook_for_FileFinder", stand_in_file_hook, METH_O, NULL},
};

/* class NAME: find_spec = <forwarder>, in module MODULE */
static Obj make_stand_in(const char *module, const char *name, const MethodDef *def)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    if (!(r[0] = dict_new()) || !(r[1] = str_from_cstr(module)) || dict_setitem(r[0], NAME(__module__), r[1]) < 0)
        goto out;
    if (!(r[1] = builtin_new(def, NULL, NULL)) || dict_setitem_cstr(r[0], def->name, r[1]) < 0)
        goto out;
    if (!(r[1] = str_from_cstr(name)) || !(r[2] = tuple_pack(1, (Obj)T_object)))
        goto out;
    res = vm_call3((Obj)T_type, r[1], r[2], r[0]);
out:
    vm_unroots(r);
    return res;
}

/* Start-up: the stand-ins in sys.meta_path and sys.path_hooks (C global
 * roots, set before a second thread exists). */
void importhooks_init(void)
{
    static const char *const modules[IMPORTHOOK_NKINDS] = {"_frozen_importlib", "_frozen_importlib",
                                                           "_frozen_importlib_external"};
    for (int k = 0; k < IMPORTHOOK_NKINDS; k++)
        VM_GLOBAL_ROOT(g_stand_ins[k]);
    for (int k = 0; k < IMPORTHOOK_NKINDS; k++)
        VM_GLOBAL_ROOT(g_finders[k]);
    VM_GLOBAL_ROOT(g_file_hook_stand_in);
    VM_GLOBAL_ROOT(g_zip_hook_stand_in);
    VM_GLOBAL_ROOT(g_zip_hook);
    VM_GLOBAL_ROOT(g_file_hook);
    VM_GLOBAL_ROOT(g_file_finder);
    VM_GLOBAL_ROOT(g_bootstrap);
    VM_GLOBAL_ROOT(g_bootstrap_external);
    Obj meta = sys_get("meta_path"), hooks = sys_get("path_hooks");
    for (int k = 0; k < IMPORTHOOK_NKINDS; k++) {
        g_stand_ins[k] = make_stand_in(modules[k], kind_names[k], &stand_in_defs[k]);
        meta = sys_get("meta_path");
        if (!g_stand_ins[k] || !meta || !IS_LIST(meta) || list_append(meta, g_stand_ins[k]) < 0)
            goto fail;
    }
    g_zip_hook_stand_in = builtin_new(&zip_hook_def, NULL, NULL);
    hooks = sys_get("path_hooks");
    if (!g_zip_hook_stand_in || !hooks || !IS_LIST(hooks) || list_append(hooks, g_zip_hook_stand_in) < 0)
        goto fail;
    g_file_hook_stand_in = builtin_new(&stand_in_defs[IMPORTHOOK_NKINDS], NULL, NULL);
    hooks = sys_get("path_hooks");
    if (!g_file_hook_stand_in || !hooks || !IS_LIST(hooks) || list_append(hooks, g_file_hook_stand_in) < 0)
        goto fail;
    return;
fail:
    err_clear();
}

/* ------------------------------------------------------------------ */
/* Which finder is which                                               */
/* ------------------------------------------------------------------ */

/* One of the default finders (its stand-in or CPython's class), or
 * IMPORTHOOK_OTHER. */
int importhooks_kind(Obj finder)
{
    for (int k = 0; k < IMPORTHOOK_NKINDS; k++)
        if (finder == g_stand_ins[k] || (g_finders[k] && finder == g_finders[k]))
            return k;
    return IMPORTHOOK_OTHER;
}

/* Whether PathFinder would see only what import.c's search sees:
 * sys.path_hooks holds only zipimporter and FileFinder's hook (a file on
 * the path, zipimporter's, is left to CPython's PathFinder by import.c),
 * and sys.path_importer_cache holds no finder but FileFinders (and None). */
bool importhooks_path_default(void)
{
    Obj hooks = sys_get("path_hooks");
    if (!hooks || !IS_LIST(hooks) || LIST_LEN(hooks) == 0)
        return false;
    for (int64_t i = 0; i < LIST_LEN(hooks); i++) {
        Obj h = LIST_ITEMS(hooks)[i];
        if (h != g_file_hook_stand_in && !(g_file_hook && h == g_file_hook) && h != g_zip_hook_stand_in &&
            !(g_zip_hook && h == g_zip_hook))
            return false;
    }
    Obj cache = sys_get("path_importer_cache");
    if (!cache || !IS_DICT(cache))
        return false;
    int64_t pos = 0;
    Obj k, v;
    while (dict_next(cache, &pos, &k, &v))
        if (!IS_NONE(v) && !(g_file_finder && TYPE(v) == (TypeObj *)g_file_finder) &&
            !(g_zip_hook && TYPE(v) == (TypeObj *)g_zip_hook))
            return false;
    return true;
}

/* ------------------------------------------------------------------ */
/* Loading CPython's bootstrap                                         */
/* ------------------------------------------------------------------ */

/* The directory of CPython's importlib package: the one on sys.path, else
 * the standard library's. */
static int importlib_dir(char *out, size_t cap)
{
    Obj *r = vm_roots(1);
    bool is_pkg = false;
    int rc = -1;
    r[0] = str_from_cstr("importlib");
    Obj init = r[0] ? import_find_source(r[0], &is_pkg) : NULL;
    if (init && IS_STR(init) && is_pkg && STR(init)->nbytes > 12) {
        size_t n = (size_t)STR(init)->nbytes - 12;   /* strip "/__init__.py" */
        if (n + 1 <= cap) {
            memcpy(out, str_cstr(init), n);
            out[n] = 0;
            utf8_unescape_os(out, n);
            rc = 0;
        }
    } else if (!err_occurred()) {
        const char *stdlib = getenv("TMPY_STDLIB");
        int k = snprintf(out, cap, "%s/importlib", stdlib && *stdlib ? stdlib : TMPY_STDLIBDIR);
        rc = k > 0 && (size_t)k < cap ? 0 : -1;
    }
    if (rc < 0 && !err_occurred())
        err_set(E_ImportError, "CPython's importlib package is not on sys.path (TMPY_STDLIB)");
    vm_unroots(r);
    return rc;
}

/* Run dir/file as module `name` (in sys.modules first; taken out again if
 * it fails), its code named "<frozen importlib.NAME>" as CPython's. */
static Obj run_frozen(const char *name, const char *dir, const char *file, const char *frozen_name)
{
    char path[4096];
    int k = snprintf(path, sizeof path, "%s/%s", dir, file);
    if (k < 0 || (size_t)k >= sizeof path) {
        err_set(E_ImportError, "path of importlib's bootstrap too long");
        return NULL;
    }
    char *src;
    size_t len;
    if (import_read_file(path, &src, &len) < 0)
        return NULL;
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new(name);
    if (!r[0] || !(r[1] = str_from_cstr(name)) || dict_setitem(g_modules, r[1], r[0]) < 0) {
        free(src);
        goto out;
    }
    if (module_add(r[0], "__builtins__", g_builtins) < 0 || module_add(r[0], "__package__", g_empty_str) < 0) {
        free(src);
        goto out;
    }
    char code_name[64];
    snprintf(code_name, sizeof code_name, "<frozen %s>", frozen_name);
    r[2] = vm_compile(src, len, code_name, COMPILE_EXEC);
    free(src);
    if (r[2]) {
        Obj d = ((ModuleObj *)r[0])->dict;
        if (vm_eval_code(r[2], d, d))
            res = r[0];
    }
    if (!res) {
        Obj *e = vm_roots(1);
        e[0] = err_fetch();
        Obj dummy;
        if (dict_pop(g_modules, r[1], &dummy) < 0)
            err_clear();
        err_set_obj(e[0]);
        vm_unroots(e);
    }
out:
    vm_unroots(r);
    return res;
}

/* In the list sys.NAME, each stand-in replaced by the real object. */
static void swap_in(const char *name, const Obj *olds, const Obj *news, int n)
{
    Obj list = sys_get(name);
    if (!list || !IS_LIST(list))
        return;
    for (int64_t i = 0; i < LIST_LEN(list); i++)
        for (int k = 0; k < n; k++)
            if (LIST_ITEMS(list)[i] == olds[k] && news[k]) {
                VM_WRITE(LIST(list)->array);
                LIST_ITEMS(list)[i] = news[k];
            }
}

static Obj gcd_import_builtin(void);
static int give_specs_to_loaded_modules(void);

/* Load _frozen_importlib and _frozen_importlib_external (once, under the
 * import lock), set them up as CPython's start-up does, swap them in for
 * the stand-ins. The C globals are set at the end, in one inevitable
 * stretch with no allocation (an abort cannot undo a C global; the Python
 * code before may run in several transactions). Returns _frozen_importlib
 * or NULL. */
static Obj load_bootstrap(void)
{
    if (g_bootstrap_external)
        return g_bootstrap;
    if (import_lock_acquire() < 0)
        return NULL;
    Obj *r = vm_roots(11);   /* bootstrap, external, _imp, scratch, FileFinder, hook, 3 finders, gcd, name */
    Obj res = NULL;
    if (g_bootstrap_external) {
        res = g_bootstrap;
        goto out;
    }
    /* being loaded by this thread (the lock is re-entrant): sys.modules says so */
    if (!(r[10] = str_from_cstr("_frozen_importlib")))
        goto out;
    if (dict_getitem(g_modules, r[10])) {
        err_set(E_ImportError, "importlib's bootstrap imported while it is being set up");
        goto out;
    }
    char dir[4096];
    if (importlib_dir(dir, sizeof dir) < 0)
        goto out;
    if (!(r[0] = run_frozen("_frozen_importlib", dir, "_bootstrap.py", "importlib._bootstrap")))
        goto out;
    if (!(r[2] = import_cstr("_imp")) || !(r[3] = vm_getattr_cstr(r[0], "_setup")) ||
        !vm_call2(r[3], g_sys_module, r[2]))
        goto fail;
    if (!(r[1] = run_frozen("_frozen_importlib_external", dir, "_bootstrap_external.py",
                            "importlib._bootstrap_external")))
        goto fail;
    if (!(r[3] = vm_getattr_cstr(r[1], "_set_bootstrap_module")) || !vm_call1(r[3], r[0]) ||
        vm_setattr(r[0], vm_intern_cached("_bootstrap_external"), r[1]) < 0)
        goto fail;
    /* tmpy's .pyc magic (before importlib.util copies it): made from the instruction set,
     * above CPython's numbers (3.11: 3495), so neither reads the other's and a rebuilt
     * tmpy with other bytecode recompiles (cache_tag "tmpy-311" keeps the files apart too) */
    {
        uint32_t magic = 20000 + code_bytecode_fingerprint() % 10000;
        char b[4] = {(char)(magic & 0xff), (char)(magic >> 8), '\r', '\n'};
        if (!(r[3] = bytes_new(b, 4)) || vm_setattr(r[1], vm_intern_cached("MAGIC_NUMBER"), r[3]) < 0 ||
            !(r[3] = int_from_i64((int64_t)magic | (int64_t)'\r' << 16 | (int64_t)'\n' << 24)) ||
            vm_setattr(r[1], vm_intern_cached("_RAW_MAGIC_NUMBER"), r[3]) < 0)
            goto fail;
    }
    /* FileFinder.path_hook(*_get_supported_file_loaders()) */
    if (!(r[3] = vm_getattr_cstr(r[1], "_get_supported_file_loaders")) || !(r[3] = vm_call0(r[3])))
        goto fail;
    if (!(r[4] = vm_getattr_cstr(r[1], "FileFinder")) || !(r[5] = vm_getattr_cstr(r[4], "path_hook")))
        goto fail;
    if (!IS_LIST(r[3]) || !(r[3] = list_as_tuple(r[3])) || !(r[5] = vm_call_tuple_dict(r[5], r[3], NULL)))
        goto fail;
    if (!(r[6] = vm_getattr_cstr(r[0], "BuiltinImporter")) || !(r[7] = vm_getattr_cstr(r[0], "FrozenImporter")) ||
        !(r[8] = vm_getattr_cstr(r[1], "PathFinder")))
        goto fail;
    /* one import lock: importlib.import_module goes through import.c */
    if (!(r[9] = gcd_import_builtin()) || vm_setattr(r[0], vm_intern_cached("_gcd_import"), r[9]) < 0)
        goto fail;
    vm_tx_become_inevitable();
    g_finders[IMPORTHOOK_BUILTIN] = r[6];
    g_finders[IMPORTHOOK_FROZEN] = r[7];
    g_finders[IMPORTHOOK_PATH] = r[8];
    g_file_hook = r[5];
    g_file_finder = r[4];
    g_bootstrap = r[0];
    g_bootstrap_external = r[1];
    swap_in("meta_path", g_stand_ins, g_finders, IMPORTHOOK_NKINDS);
    swap_in("path_hooks", &g_file_hook_stand_in, &g_file_hook, 1);
    if (give_specs_to_loaded_modules() < 0)
        goto out;   /* (loaded: a module without its spec is no reason to unload) */
    res = r[0];
    goto out;
fail:   /* nothing half set: the two modules leave sys.modules */
    {
        Obj *e = vm_roots(2);
        e[0] = err_fetch();
        Obj dummy;
        if (dict_pop(g_modules, r[10], &dummy) < 0 || !(e[1] = str_from_cstr("_frozen_importlib_external")) ||
            dict_pop(g_modules, e[1], &dummy) < 0)
            err_clear();
        err_set_obj(e[0]);
        vm_unroots(e);
    }
out:
    import_lock_release();
    vm_unroots(r);
    return res;
}

/* The registry's init of _frozen_importlib and _frozen_importlib_external
 * (import.c: the FrozenImporter's part). */
Obj importhooks_frozen_module(Obj name)
{
    if (!load_bootstrap())
        return NULL;
    return str_eq_cstr(name, "_frozen_importlib") ? g_bootstrap : g_bootstrap_external;
}

/* Whether the bootstrap is being set up (by this thread: the import lock
 * is held while it is): its own imports must not send a search to the
 * PathFinder it is making. */
bool importhooks_bootstrap_loading(void)
{
    return !g_bootstrap_external && dict_getitem(g_modules, vm_intern_cached("_frozen_importlib"));
}

bool importhooks_is_frozen(Obj name)
{
    return str_eq_cstr(name, "_frozen_importlib") || str_eq_cstr(name, "_frozen_importlib_external");
}

/* ------------------------------------------------------------------ */
/* Specs                                                               */
/* ------------------------------------------------------------------ */

/* __spec__ and __loader__ of a module import.c loads (or loaded before the
 * bootstrap): spec_from_file_location(name, file[, submodule_search_locations
 * =path]), or a namespace package's spec as PathFinder makes it; then
 * _init_module_attrs. Nothing before the bootstrap is loaded (it gives
 * them all when it is). */
int importhooks_attach_spec(Obj mod, Obj name, Obj file, Obj path_list)
{
    if (!g_bootstrap_external)
        return 0;
    Obj *r = vm_roots(8);
    int rc = -1;
    r[0] = mod;
    r[1] = name;
    r[2] = file;
    r[3] = path_list;
    if (r[2] && IS_STR(r[2])) {
        r[4] = vm_getattr_cstr(g_bootstrap_external, "spec_from_file_location");
        if (!r[4])
            goto out;
        r[5] = r[1];
        r[6] = r[2];
        if (r[3]) {
            r[7] = r[3];
            Obj kw = vm_intern_cached("submodule_search_locations");
            Obj *q = vm_roots(1);
            q[0] = kw ? tuple_pack(1, kw) : NULL;
            r[4] = q[0] ? vm_call(r[4], r + 5, 2, q[0]) : NULL;
            vm_unroots(q);
        } else {
            r[4] = vm_call(r[4], r + 5, 2, NULL);
        }
    } else if (r[3]) {   /* a namespace package */
        r[4] = vm_getattr_cstr(g_bootstrap, "ModuleSpec");
        if (!r[4] || !(r[4] = vm_call2(r[4], r[1], g_None)))
            goto out;
        if (!(r[5] = vm_getattr_cstr(g_bootstrap_external, "_NamespacePath")) ||
            !(r[6] = vm_getattr_cstr(g_finders[IMPORTHOOK_PATH], "_get_spec")) ||
            !(r[5] = vm_call3(r[5], r[1], r[3], r[6])) ||
            vm_setattr(r[4], vm_intern_cached("submodule_search_locations"), r[5]) < 0 ||
            module_add(r[0], "__path__", r[5]) < 0)
            goto out;
    } else {
        rc = 0;
        goto out;
    }
    if (!r[4])
        goto out;
    if (!(r[5] = vm_getattr_cstr(g_bootstrap, "_init_module_attrs")) || !vm_call2(r[5], r[4], r[0]))
        goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* What CPython's start-up gives every module it imported before site: a
 * spec. Modules made from files get theirs (import.c loaded them before
 * the bootstrap existed); __main__ keeps its own. */
static int give_specs_to_loaded_modules(void)
{
    Obj *r = vm_roots(5);
    int rc = -1;
    r[0] = dict_items_list(g_modules);
    if (!r[0])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[0]); i++) {
        Obj item = LIST_ITEMS(r[0])[i];
        r[1] = TUPLE_ITEMS(item)[0];
        r[2] = TUPLE_ITEMS(item)[1];
        if (TID(r[2]) != TID_MODULE || !IS_STR(r[1]) || str_eq_cstr(r[1], "__main__"))
            continue;
        Obj d = ((ModuleObj *)r[2])->dict;
        /* an alias (multiprocessing keeps __main__ as __mp_main__ too) gets
         * no spec under its other name: spawn reads __main__.__spec__ */
        Obj own = dict_getitem_str(d, NAME(__name__));
        if (!own || !IS_STR(own) || !str_eq(own, r[1]))
            continue;
        Obj spec = dict_getitem_str(d, NAME(__spec__));
        if (spec && !IS_NONE(spec))
            continue;
        r[3] = dict_getitem_str(d, NAME(__file__));
        r[4] = dict_getitem_str(d, NAME(__path__));
        if (r[3] && !IS_STR(r[3]))
            continue;
        if (!r[3] && !(r[4] && IS_LIST(r[4])))
            continue;
        if (importhooks_attach_spec(r[2], r[1], r[3], r[4]) < 0)
            goto out;
    }
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Finders the user installed                                          */
/* ------------------------------------------------------------------ */

/* finder.find_spec(name, path) (path None for a top-level module), or the
 * legacy find_module through _bootstrap._find_spec_legacy. None if it has
 * no spec. */
Obj importhooks_find_spec(Obj finder, Obj name, Obj path)
{
    Obj *r = vm_roots(5);
    Obj res = NULL;
    r[0] = finder;
    r[1] = name;
    r[2] = path ? path : g_None;
    r[3] = vm_getattr_opt(r[0], vm_intern_cached("find_spec"));
    if (r[3]) {
        res = vm_call2(r[3], r[1], r[2]);
        goto out;
    }
    if (err_occurred() || !load_bootstrap())
        goto out;
    r[4] = vm_getattr_cstr(g_bootstrap, "_find_spec_legacy");
    if (r[4])
        res = vm_call3(r[4], r[0], r[1], r[2]);
out:
    vm_unroots(r);
    return res;
}

/* PathFinder.find_spec(name, path), CPython's, for when sys.path_hooks or
 * sys.path_importer_cache hold the user's finders. */
Obj importhooks_path_find_spec(Obj name, Obj path)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = name;
    r[1] = path ? path : g_None;
    if (load_bootstrap() && (r[2] = vm_getattr_cstr(g_finders[IMPORTHOOK_PATH], "find_spec")))
        res = vm_call2(r[2], r[0], r[1]);
    vm_unroots(r);
    return res;
}

/* Load the module a finder's spec describes: _bootstrap._load(spec). */
Obj importhooks_load_spec(Obj spec)
{
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = spec;
    if (load_bootstrap() && (r[1] = vm_getattr_cstr(g_bootstrap, "_load")))
        res = vm_call1(r[1], r[0]);
    vm_unroots(r);
    return res;
}

/* ------------------------------------------------------------------ */
/* Tracebacks                                                          */
/* ------------------------------------------------------------------ */

static bool bootstrap_entry(Obj tb)
{
    CodeObj *co = (CodeObj *)((TracebackObj *)tb)->code;
    return co && IS_CODE((Obj)co) && IS_STR(co->filename) &&
           !strncmp(str_cstr(co->filename), "<frozen importlib._bootstrap", 28);
}

/* CPython's remove_importlib_frames on a failed import's exception: a run
 * of entries of the bootstrap's code is cut up to its last
 * _call_with_frames_removed (the loader's call of the module's code), or
 * whole for an ImportError, so the traceback shows the program's frames as
 * if the import were one step. Relinks the entries in place, as CPython
 * does; allocates nothing. */
void importhooks_trim_traceback(Obj exc)
{
    enum { MAX_ENTRIES = 1024 };
    Obj ents[MAX_ENTRIES];
    bool keep[MAX_ENTRIES];
    if (!exc || !IS_EXCEPTION(exc) || !EXC(exc)->traceback || !g_bootstrap)
        return;
    int n = 0;
    for (Obj tb = EXC(exc)->traceback; tb; tb = ((TracebackObj *)tb)->next) {
        if (n == MAX_ENTRIES)
            return;   /* (a deep recursion's: left whole) */
        ents[n] = tb;
        keep[n] = true;
        n++;
    }
    bool always = vm_isinstance_type(exc, E_ImportError), changed = false;
    int chunk = -1;
    for (int i = 0; i < n; i++) {
        if (!bootstrap_entry(ents[i])) {
            chunk = -1;
            continue;
        }
        if (chunk < 0)
            chunk = i;
        CodeObj *co = (CodeObj *)((TracebackObj *)ents[i])->code;
        if (always || (IS_STR(co->name) && str_eq_cstr(co->name, "_call_with_frames_removed"))) {
            for (int k = chunk; k <= i; k++)
                keep[k] = false;
            changed = true;
        }
    }
    if (!changed)
        return;
    Obj head = NULL, prev = NULL;
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        if (prev) {
            VM_WRITE_RARE(prev);
            ((TracebackObj *)prev)->next = ents[i];
        } else {
            head = ents[i];
        }
        prev = ents[i];
    }
    if (prev) {
        VM_WRITE_RARE(prev);
        ((TracebackObj *)prev)->next = NULL;
    }
    VM_WRITE(exc);
    EXC(exc)->traceback = head;
}

/* ------------------------------------------------------------------ */
/* _gcd_import                                                         */
/* ------------------------------------------------------------------ */

/* _bootstrap._gcd_import(name, package=None, level=0), which
 * importlib.import_module and importlib.__import__ call: import.c's import,
 * so they take the one import lock (a Python-level import beside a C one
 * could deadlock on it) and keep its speed. The checks are _sanity_check's. */
static Obj gcd_import(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"name", "package", "level", NULL};
    Obj *a = vm_roots(5);
    Obj res = NULL;
    if (vm_parse_args("_gcd_import", args, nargs, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (!IS_STR(a[0])) {
        Obj *q = vm_roots(1);
        q[0] = vm_repr((Obj)TYPE(a[0]));
        if (q[0])
            err_format(E_TypeError, "module name must be str, not %s", str_cstr(q[0]));
        vm_unroots(q);
        goto out;
    }
    int64_t level = 0;
    if (a[2] && vm_index_i64(a[2], &level) < 0)
        goto out;
    if (level < 0) {
        err_set(E_ValueError, "level must be >= 0");
        goto out;
    }
    if (level > 0) {
        if (!a[1] || !IS_STR(a[1])) {
            err_set(E_TypeError, "__package__ not set to a string");
            goto out;
        }
        if (str_len(a[1]) == 0) {
            err_set(E_ImportError, "attempted relative import with no known parent package");
            goto out;
        }
        if (!(a[3] = dict_new()) || dict_setitem(a[3], NAME(__package__), a[1]) < 0)
            goto out;
        if (!(a[4] = import_resolve_relative(a[0], a[3], (int)level)))
            goto out;
    } else {
        if (str_len(a[0]) == 0) {
            err_set(E_ValueError, "Empty module name");
            goto out;
        }
        a[4] = a[0];
    }
    res = import_absolute(a[4]);
out:
    vm_unroots(a);
    return res;
}

static const MethodDef gcd_import_def = {"_gcd_import", gcd_import, METH_KW, NULL};

static Obj gcd_import_builtin(void)
{
    return builtin_new(&gcd_import_def, NULL, NULL);
}
