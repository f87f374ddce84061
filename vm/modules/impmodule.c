/* The _imp module: what CPython's importlib (its _bootstrap and
 * _bootstrap_external, which tmpy runs as _frozen_importlib(_external):
 * vm/importhooks.c) and test.support ask of the import system's C side.
 * Built-in modules come from vm/import.c's registry; tmpy has no frozen
 * modules (its two bootstrap modules are compiled from CPython's source on
 * first need, not frozen: is_frozen answers False for them as for every
 * name) and loads no extension modules, so the frozen and dynamic entry
 * points answer as an interpreter without them does. The import lock is
 * vm/import.c's. */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

static Obj imp_lock_held(Obj *args, size_t nargs, Obj kwnames)
{
    return import_lock_held() ? g_True : g_False;
}

static Obj imp_acquire_lock(Obj *args, size_t nargs, Obj kwnames)
{
    return import_lock_acquire() < 0 ? NULL : g_None;
}

static Obj imp_release_lock(Obj *args, size_t nargs, Obj kwnames)
{
    if (!import_lock_release()) {
        err_set(E_RuntimeError, "not holding the import lock");
        return NULL;
    }
    return g_None;
}

static int name_arg(Obj name)
{
    if (!IS_STR(name)) {
        err_format(E_TypeError, "argument must be str, not %s", type_name(name));
        return -1;
    }
    return 0;
}

/* 1 for a built-in module, -1 for one that cannot be initialised twice
 * (sys, builtins), 0 otherwise: CPython's answers. */
static Obj imp_is_builtin(Obj *args, size_t nargs, Obj kwnames)
{
    if (name_arg(args[0]) < 0)
        return NULL;
    if (!import_is_builtin(args[0]))
        return int_from_i64(0);
    bool once = str_eq_cstr(args[0], "sys") || str_eq_cstr(args[0], "builtins");
    return int_from_i64(once ? -1 : 1);
}

/* create_builtin(spec): the built-in module spec.name (the one already
 * loaded, as CPython returns sys and builtins). */
static Obj imp_create_builtin(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_getattr_cstr(args[0], "name");
    if (!r[0])
        goto out;
    if (!IS_STR(r[0])) {
        err_format(E_TypeError, "name must be string, not %s", type_name(r[0]));
        goto out;
    }
    if (!import_is_builtin(r[0])) {
        err_format(E_ImportError, "no built-in module named %s", str_cstr(r[0]));
        goto out;
    }
    res = import_absolute(r[0]);
out:
    vm_unroots(r);
    return res;
}

/* exec_builtin(module): tmpy's built-in modules are complete once made. */
static Obj imp_exec_builtin(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(0);
}

static Obj imp_is_frozen(Obj *args, size_t nargs, Obj kwnames)
{
    return name_arg(args[0]) < 0 ? NULL : g_False;
}

/* find_frozen(name, /, *, withdata=False) */
static Obj imp_find_frozen(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs != 1) {
        err_format(E_TypeError, "find_frozen() takes exactly 1 positional argument (%zu given)", nargs);
        return NULL;
    }
    return name_arg(args[0]) < 0 ? NULL : g_None;
}

/* No frozen module exists: what CPython raises for an unknown name. */
static Obj imp_no_frozen(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1 || name_arg(args[0]) < 0)
        return NULL;
    Obj *r = vm_roots(3);
    r[0] = args[0];
    r[1] = str_from_format("No such frozen object named '%s'", str_cstr(r[0]));
    /* rooted: setting .name makes the instance dict, which may move it */
    if (r[1] && (r[2] = exc_new(E_ImportError, &r[1], 1)) && vm_setattr(r[2], NAME(name), r[0]) == 0)
        err_set_obj(r[2]);
    vm_unroots(r);
    return NULL;
}

static Obj imp_extension_suffixes(Obj *args, size_t nargs, Obj kwnames)
{
    return list_new(0);   /* tmpy loads no extension modules */
}

static Obj imp_no_dynamic(Obj *args, size_t nargs, Obj kwnames)
{
    err_set(E_ImportError, "tmpy cannot load extension modules (C API modules are not supported)");
    return NULL;
}

/* test.support switches frozen modules on and off around tests: with none
 * there is nothing to switch. */
static Obj imp_override_frozen(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t v;
    return arg_c_int(args[0], &v) < 0 ? NULL : g_None;
}

/* _fix_co_filename(code, path): a code object read from a .pyc names the
 * file it was compiled from; the loader gives it (and the code objects in
 * it that named the same file) the path it was found at. */
static void rename_code_file(Obj code, Obj oldname, Obj newname)
{
    CodeObj *co = (CodeObj *)code;
    if (!IS_STR(co->filename) || !str_eq(co->filename, oldname))
        return;
    VM_WRITE_RARE(code);
    co->filename = newname;
    Obj consts = co->consts;
    for (int64_t i = 0; consts && IS_TUPLE(consts) && i < TUPLE_LEN(consts); i++)
        if (IS_CODE(TUPLE_ITEMS(consts)[i]))
            rename_code_file(TUPLE_ITEMS(consts)[i], oldname, newname);
}

static Obj imp_fix_co_filename(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_CODE(args[0])) {
        err_format(E_TypeError, "_fix_co_filename() argument 1 must be code, not %s", type_name(args[0]));
        return NULL;
    }
    if (!IS_STR(args[1])) {
        err_format(E_TypeError, "_fix_co_filename() argument 2 must be str, not %s", type_name(args[1]));
        return NULL;
    }
    Obj old = ((CodeObj *)args[0])->filename;
    if (IS_STR(old) && !str_eq(old, args[1]))
        rename_code_file(args[0], old, args[1]);   /* (no allocation: nothing moves) */
    return g_None;
}

/* ---- source_hash: SipHash-1-3 keyed by (key, 0), as hash-based .pyc
 * files record their source (PEP 552); 8 bytes, little-endian. ---- */

static uint64_t rotl64(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

#define SIP_ROUND(v0, v1, v2, v3)                                                                   \
    do {                                                                                            \
        v0 += v1; v1 = rotl64(v1, 13); v1 ^= v0; v0 = rotl64(v0, 32);                               \
        v2 += v3; v3 = rotl64(v3, 16); v3 ^= v2;                                                    \
        v0 += v3; v3 = rotl64(v3, 21); v3 ^= v0;                                                    \
        v2 += v1; v1 = rotl64(v1, 17); v1 ^= v2; v2 = rotl64(v2, 32);                               \
    } while (0)

static uint64_t siphash13(uint64_t k0, uint64_t k1, const unsigned char *p, size_t n)
{
    uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = 0;
        for (int k = 7; k >= 0; k--)
            m = (m << 8) | p[i + (size_t)k];
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    uint64_t last = (uint64_t)n << 56;
    for (size_t k = 0; i + k < n; k++)
        last |= (uint64_t)p[i + k] << (8 * k);
    v3 ^= last;
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= last;
    v2 ^= 0xff;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

static Obj imp_source_hash(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"key", "source", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("source_hash", args, nargs, kwnames, names, 2, 2, a) < 0)
        goto out;
    int64_t key;
    if (vm_index_i64(a[0], &key) < 0)
        goto out;
    const char *p;
    int64_t n;
    if (!bytes_like_arg(a[1], &p, &n))
        goto out;
    uint64_t h = siphash13((uint64_t)key, 0, (const unsigned char *)p, (size_t)n);
    char out8[8];
    for (int k = 0; k < 8; k++)
        out8[k] = (char)(h >> (8 * k));
    res = bytes_new(out8, 8);
out:
    vm_unroots(a);
    return res;
}

static const MethodDef imp_functions[] = {
    {"lock_held", imp_lock_held, METH_NOARGS, NULL},
    {"acquire_lock", imp_acquire_lock, METH_NOARGS, NULL},
    {"release_lock", imp_release_lock, METH_NOARGS, NULL},
    {"is_builtin", imp_is_builtin, METH_O, NULL},
    {"create_builtin", imp_create_builtin, METH_O, NULL},
    {"exec_builtin", imp_exec_builtin, METH_O, NULL},
    {"is_frozen", imp_is_frozen, METH_O, NULL},
    {"find_frozen", imp_find_frozen, METH_KW, NULL},
    {"is_frozen_package", imp_no_frozen, METH_O, NULL},
    {"get_frozen_object", imp_no_frozen, METH_ARGS(1, 2), NULL},
    {"init_frozen", imp_no_frozen, METH_O, NULL},
    {"extension_suffixes", imp_extension_suffixes, METH_NOARGS, NULL},
    {"create_dynamic", imp_no_dynamic, METH_ARGS(1, 2), NULL},
    {"exec_dynamic", imp_no_dynamic, METH_O, NULL},
    {"_override_frozen_modules_for_tests", imp_override_frozen, METH_O, NULL},
    {"_fix_co_filename", imp_fix_co_filename, METH_ARGS(2, 2), NULL},
    {"source_hash", imp_source_hash, METH_KW, NULL},
    {NULL, NULL, 0, NULL},
};

Obj imp_module_init(void)
{
    Obj *r = vm_roots(2);
    Obj m = NULL;
    r[0] = module_new("_imp");
    if (!r[0])
        goto out;
    module_add_functions(r[0], imp_functions);
    r[1] = str_from_cstr("default");   /* --check-hash-based-pycs: tmpy writes no .pyc files */
    if (!r[1] || module_add(r[0], "check_hash_based_pycs", r[1]) < 0)
        goto out;
    m = r[0];
out:
    vm_unroots(r);
    return m;
}
