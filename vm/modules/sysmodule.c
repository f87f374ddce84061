/* The sys module. */
#include "modules.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"
#include "objects/containers.h"
#include "eval.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double vm_switch_interval = 0.005;

/* ------------------------------------------------------------------ */
/* sys functions                                                       */
/* ------------------------------------------------------------------ */

static Obj sys_exit(Obj *args, size_t nargs, Obj kwnames)
{
    Obj exc = exc_new(E_SystemExit, args, nargs);
    if (exc)
        err_set_obj(exc);
    return NULL;
}

static Obj sys_getrecursionlimit(Obj *args, size_t nargs, Obj kwnames)
{
    return MAKE_SMALLINT(vm_recursion_limit);
}

static Obj sys_setrecursionlimit(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t n;
    if (IS_FLOAT(args[0])) {
        err_set(E_TypeError, "'float' object cannot be interpreted as an integer");
        return NULL;
    }
    if (vm_index_i64(args[0], &n) < 0)
        return NULL;
    if (n < 1) {
        err_set(E_ValueError, "recursion limit must be greater or equal than 1");
        return NULL;
    }
    if (n > INT_MAX) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return NULL;
    }
    /* as CPython: a limit at or below the depth the thread is at now fails
     * (code that probes for the lowest limit it can set relies on it) */
    int depth = vm_ts.py_depth + vm_ts.c_depth;
    if (depth >= n) {
        err_format(E_RecursionError, "cannot set the recursion limit to %d at the recursion depth %d: the limit is too low",
                   (int)n, depth);
        return NULL;
    }
    vm_tx_become_inevitable();   /* a C global: an abort would not restore it */
    vm_recursion_limit = (int)n;
    return g_None;
}

static Obj handled_exception(void)
{
    Obj e = vm_ts.roots ? vm_ts.roots[ROOT_HANDLED_EXC] : NULL;
    return (e && !IS_NONE(e)) ? e : NULL;
}

static Obj sys_exc_info(Obj *args, size_t nargs, Obj kwnames)
{
    Obj e = handled_exception();
    if (!e)
        return tuple_pack(3, g_None, g_None, g_None);
    Obj tb = IS_EXCEPTION(e) && EXC(e)->traceback ? EXC(e)->traceback : g_None;
    return tuple_pack(3, (Obj)TYPE(e), e, tb);
}

static Obj sys_exception(Obj *args, size_t nargs, Obj kwnames)
{
    Obj e = handled_exception();
    return e ? e : g_None;
}

static Obj sys_intern(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "intern() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    return str_intern(args[0]);
}

/* Roughly CPython's sizes on 64-bit Linux, so programs that print them see
 * plausible numbers. */
static int64_t approx_size(Obj v)
{
    if (IS_SMALLINT(v)) {
        int64_t n = SMALLINT_VAL(v);
        uint64_t m = n < 0 ? (uint64_t)-n : (uint64_t)n;
        int digits = 0;
        while (m) {
            digits++;
            m >>= 30;
        }
        return 24 + 4 * (digits ? digits : 1);
    }
    switch (v->h.tid) {
    case TID_BOOL: return 28;
    case TID_BIGINT: {
        uint64_t bits = int_bit_length(v);
        return 24 + 4 * (int64_t)((bits + 29) / 30);
    }
    case TID_FLOAT: return 24;
    case TID_NONETYPE: return 16;
    case TID_STR: {
        if (str_is_ascii(v))
            return 49 + STR(v)->nbytes;
        const unsigned char *p = (const unsigned char *)str_cstr(v);
        uint32_t maxc = 0;
        for (int64_t i = 0; i < STR(v)->nbytes;) {
            int len;
            uint32_t c = utf8_decode(p + i, &len);
            if (c > maxc)
                maxc = c;
            i += len;
        }
        int64_t n = STR(v)->length;
        return maxc < 0x100 ? 73 + n : maxc < 0x10000 ? 74 + 2 * n : 76 + 4 * n;
    }
    case TID_BYTES: return 33 + ((BytesObj *)v)->length;
    case TID_BYTEARRAY: return 56 + ((BYTEARRAY(v))->raw ? RAW(BYTEARRAY(v)->raw)->length + 1 : 0);
    case TID_TUPLE: return 40 + 8 * TUPLE_LEN(v);
    case TID_LIST: return 56 + 8 * (LIST(v)->array ? ARRAY(LIST(v)->array)->length : 0);
    case TID_DICT: {
        /* object + keys header + index bytes + 24-byte entries */
        int64_t n = dict_len(v);
        if (n == 0)
            return 64;
        int64_t cap = 8;
        while (cap * 2 / 3 < n)
            cap *= 2;
        int64_t ix = cap <= 128 ? 1 : cap <= 65536 ? 2 : 4;
        return 64 + 32 + cap * ix + 24 * (cap * 2 / 3);
    }
    case TID_SET: {
        int64_t n = set_len(v);
        int64_t cap = 8;
        while (cap * 3 / 5 < n)
            cap *= 4;
        return cap == 8 ? 216 : 216 + 16 * cap;
    }
    case TID_RANGE: return 48;
    case TID_FUNCTION: return 152;
    case TID_INSTANCE: return 48;
    case TID_TYPE: return 1072;
    case TID_MODULE: return 72;
    default:
        return (int64_t)tm_object_size(v) + 8;
    }
}

static Obj sys_getsizeof(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"object", "default", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("getsizeof", args, nargs, kwnames, names, 1, 2, a) == 0) {
        Obj m = vm_lookup_special(a[0], "__sizeof__");
        TypeObj *where = NULL;
        Obj key = vm_intern_cached("__sizeof__");
        if (m && key && vm_unwrap(a[0]) != a[0] && type_lookup_uncached(TYPE(a[0]), key, &where) && where &&
            !(where->flags & TPF_HEAPTYPE)) {
            /* an instance of a subclass of a built-in that keeps the built-in's
             * __sizeof__: its value's size and the instance's own */
            res = int_from_i64(approx_size(vm_unwrap(a[0])) + (int64_t)tm_object_size(a[0]));
        } else if (m && TID(a[0]) == TID_INSTANCE && TYPE(a[0])->flags & TPF_HEAPTYPE) {
            Obj v = vm_call_method(a[0], "__sizeof__", NULL, 0);
            if (v) {
                int64_t n;
                if (vm_index_i64(v, &n) == 0) {
                    if (n < 0)
                        err_set(E_ValueError, "__sizeof__() should return >= 0");
                    else
                        res = int_from_i64(n + 16);
                }
            }
        } else {
            res = int_from_i64(approx_size(a[0]));
        }
    }
    vm_unroots(a);
    return res;
}

/* Async generator hooks: per thread (root slots), as CPython keeps them in
 * the thread state. firstiter is called when an async generator is first
 * iterated (coroutine.c); the finalizer is kept by the generator and
 * called with it when it is collected unfinished (generator.c,
 * gen_finalize). */
static Obj g_asyncgen_hooks_type;   /* the structseq type asyncgen_hooks (a global root) */

static Obj sys_set_asyncgen_hooks(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"firstiter", "finalizer", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("set_asyncgen_hooks", args, nargs, kwnames, names, 0, 2, a) < 0)
        goto done;
    if (a[1] && !IS_NONE(a[1]) && !vm_callable(a[1])) {
        err_format(E_TypeError, "callable finalizer expected, got %s", type_name(a[1]));
        goto done;
    }
    if (a[0] && !IS_NONE(a[0]) && !vm_callable(a[0])) {
        err_format(E_TypeError, "callable firstiter expected, got %s", type_name(a[0]));
        goto done;
    }
    if (a[1])
        vm_ts.roots[ROOT_ASYNCGEN_FINALIZER] = IS_NONE(a[1]) ? NULL : a[1];
    if (a[0])
        vm_ts.roots[ROOT_ASYNCGEN_FIRSTITER] = IS_NONE(a[0]) ? NULL : a[0];
    res = g_None;
done:
    vm_unroots(a);
    return res;
}

static Obj sys_get_asyncgen_hooks(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *it = vm_roots(2);
    it[0] = vm_ts.roots[ROOT_ASYNCGEN_FIRSTITER] ? vm_ts.roots[ROOT_ASYNCGEN_FIRSTITER] : g_None;
    it[1] = vm_ts.roots[ROOT_ASYNCGEN_FINALIZER] ? vm_ts.roots[ROOT_ASYNCGEN_FINALIZER] : g_None;
    Obj res = structseq_new(g_asyncgen_hooks_type, it, 2);
    vm_unroots(it);
    return res;
}

static Obj sys_getdefaultencoding(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_cstr("utf-8");
}

static Obj sys_getfilesystemencodeerrors(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_cstr("surrogateescape");   /* str_from_os / str_to_os */
}

static Obj sys_setswitchinterval(Obj *args, size_t nargs, Obj kwnames)
{
    double d;
    if (vm_as_double(args[0], &d) < 0)
        return NULL;
    if (!(d > 0.0)) {
        err_set(E_ValueError, "switch interval must be strictly positive");
        return NULL;
    }
    /* Kept in whole microseconds, as CPython does. */
    uint64_t us = d * 1e6 >= 1e15 ? (uint64_t)1e15 : (uint64_t)(d * 1e6);
    vm_tx_become_inevitable();   /* a C global: an abort would not restore it */
    vm_switch_interval = (double)us * 1e-6;
    tm_set_switch_interval_ns(us * 1000);   /* STM: how long a thread keeps its segment while others wait */
    return g_None;
}

static Obj sys_getswitchinterval(Obj *args, size_t nargs, Obj kwnames)
{
    return float_new(vm_switch_interval);
}

static Obj sys_get_int_max_str_digits(Obj *args, size_t nargs, Obj kwnames)
{
    return int_from_i64(int_get_max_str_digits());
}

static Obj sys_set_int_max_str_digits(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"maxdigits", NULL};
    Obj *a = vm_roots(1);
    Obj res = NULL;
    int64_t n;
    if (vm_parse_args("set_int_max_str_digits", args, nargs, kwnames, names, 1, 1, a) == 0 &&
        vm_index_i64(a[0], &n) == 0) {
        vm_tx_become_inevitable();   /* a C global: an abort would not restore it */
        if (int_set_max_str_digits(n) == 0)
            res = g_None;
    }
    vm_unroots(a);
    return res;
}

static Obj sys_excepthook(Obj *args, size_t nargs, Obj kwnames)
{
    if (!IS_EXCEPTION(args[1])) {
        file_write_cstr(g_sys_stderr, "TypeError: print_exception(): Exception expected for value, ", 61);
        Obj *r = vm_roots(1);
        r[0] = str_from_format("%s found\n", type_name(args[1]));
        if (r[0])
            file_write_str(g_sys_stderr, r[0]);
        vm_unroots(r);
        return g_None;
    }
    vm_print_exception(args[1]);
    return g_None;
}

/* sys.__unraisablehook__(unraisable): what CPython's default prints. */
static Obj sys_unraisablehook(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(4);
    Obj res = NULL;
    r[0] = args[0];
    if (!(r[1] = vm_getattr_cstr(r[0], "exc_value")) || !(r[2] = vm_getattr_cstr(r[0], "object")) ||
        !(r[3] = vm_getattr_cstr(r[0], "err_msg")))
        goto out;
    vm_print_unraisable(IS_NONE(r[1]) ? NULL : r[1], r[2], r[3]);
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

static Obj sys_displayhook(Obj *args, size_t nargs, Obj kwnames)
{
    if (IS_NONE(args[0]))
        return g_None;
    Obj *r = vm_roots(2);
    Obj res = NULL;
    r[0] = args[0];
    if (g_builtins && dict_setitem_cstr(g_builtins, "_", g_None) < 0)
        goto out;
    r[1] = vm_repr(r[0]);
    Obj out = r[1] ? sys_get("stdout") : NULL;
    if (!out) {
        if (r[1])
            err_set(E_RuntimeError, "lost sys.stdout");
        goto out;
    }
    if (file_write_str(out, r[1]) < 0 || file_write_cstr(sys_get("stdout"), "\n", 1) < 0)
        goto out;
    if (g_builtins && dict_setitem_cstr(g_builtins, "_", r[0]) < 0)
        goto out;
    res = g_None;
out:
    vm_unroots(r);
    return res;
}

/* sys.settrace / sys.setprofile: this thread's functions (trace.c calls
 * them). The frames running now are past their call event; a transaction
 * that changes them becomes inevitable (the loop's dispatch table is C
 * state an abort would not undo). */
static Obj set_tracing(Obj *args, size_t nargs, Obj kwnames, const char *name, int root)
{
    vm_tx_become_inevitable();
    vm_ts.roots[root] = IS_NONE(args[0]) ? NULL : args[0];
    bool was = vm_tracing;
    vm_tracing = vm_ts.roots[ROOT_TRACE_FUNC] || vm_ts.roots[ROOT_PROFILE_FUNC];
    vm_profiling = vm_ts.roots[ROOT_PROFILE_FUNC] != NULL;
    if (vm_tracing && !was)
        for (Frame *f = vm_ts.frame; f; f = f->back) {
            f->traced = 1;
            f->trace_last = (int32_t)(f->ip - f->code->code - 1);
        }
    eval_dispatch_update();
    return g_None;
}

static Obj sys_settrace(Obj *args, size_t nargs, Obj kwnames)
{
    return set_tracing(args, nargs, kwnames, "settrace", ROOT_TRACE_FUNC);
}

static Obj sys_setprofile(Obj *args, size_t nargs, Obj kwnames)
{
    return set_tracing(args, nargs, kwnames, "setprofile", ROOT_PROFILE_FUNC);
}

static Obj sys_gettrace(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_ts.roots[ROOT_TRACE_FUNC] ? vm_ts.roots[ROOT_TRACE_FUNC] : g_None;
}

static Obj sys_getprofile(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_ts.roots[ROOT_PROFILE_FUNC] ? vm_ts.roots[ROOT_PROFILE_FUNC] : g_None;
}

static Obj sys_is_finalizing(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(vm_finalizing);
}

/* sys._getframe(depth=0): the frame object of a Python frame of this
 * thread (the one trace functions get: trace.c). */
static Obj sys_getframe(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t depth = 0;
    if (nargs == 1 && vm_index_i64(args[0], &depth) < 0)
        return NULL;
    Frame *f = vm_ts.frame;
    while (f && depth > 0) {
        f = f->back;
        depth--;
    }
    if (!f || depth < 0) {
        err_set(E_ValueError, "call stack is not deep enough");
        return NULL;
    }
    return eval_frame_object(f);
}

static Obj sys_getrefcount(Obj *args, size_t nargs, Obj kwnames)
{
    (void)args;   /* no reference counts here: a plausible constant */
    return MAKE_SMALLINT(2);
}

/* PEP 578 audit hooks: a list made at start-up (a global root, never
 * rebound; adding a hook is a transactional append). tmpy itself raises no
 * audit events; sys.audit() from Python code reaches every hook. */
static Obj g_audit_hooks;

/* sys.audit(event, *args): each hook(event, args) in the order added. */
static Obj sys_audit(Obj *args, size_t nargs, Obj kwnames)
{
    if (nargs < 1) {
        err_set(E_TypeError, "audit() missing 1 required positional argument: 'event'");
        return NULL;
    }
    if (!IS_STR(args[0])) {
        err_format(E_TypeError, "expected str for argument 'event', not %s", type_name(args[0]));
        return NULL;
    }
    if (!LIST_LEN(g_audit_hooks))
        return g_None;
    Obj *r = vm_roots(3);
    r[0] = args[0];
    r[1] = tuple_from_array(args + 1, (int64_t)nargs - 1);
    Obj res = r[1] ? g_None : NULL;
    for (int64_t i = 0; res && i < LIST_LEN(g_audit_hooks); i++) {
        r[2] = LIST_ITEMS(g_audit_hooks)[i];
        if (!vm_call(r[2], &r[0], 2, NULL))
            res = NULL;
    }
    vm_unroots(r);
    return res;
}

/* sys.addaudithook(hook): the hooks already there hear "sys.addaudithook"
 * first; one raising an Exception (any, as CPython: not only RuntimeError) vetoes it
 * silently. */
static Obj sys_addaudithook(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(2);
    r[0] = args[0];
    r[1] = str_intern_cstr("sys.addaudithook");
    Obj res = g_None;
    if (!sys_audit(&r[1], 1, NULL)) {
        if (err_matches(E_Exception))
            err_clear();
        else
            res = NULL;
    } else if (list_append(g_audit_hooks, r[0]) < 0) {
        res = NULL;
    }
    vm_unroots(r);
    return res;
}

/* sys.breakpointhook(*args, **kws): the callable that $PYTHONBREAKPOINT
 * names (pdb.set_trace when unset or empty, nothing for "0"; ignored under
 * -E), called with the arguments; a name that does not import warns. */
static Obj sys_breakpointhook(Obj *args, size_t nargs, Obj kwnames)
{
    const char *env = sys_cflags.ignore_environment ? NULL : getenv("PYTHONBREAKPOINT");
    if (!env || !*env)
        env = "pdb.set_trace";
    else if (strcmp(env, "0") == 0)
        return g_None;
    const char *dot = strrchr(env, '.');
    Obj *r = vm_roots(3);
    Obj res = NULL;
    if (dot == env)
        goto warn;
    r[0] = dot ? str_new(env, (size_t)(dot - env)) : str_from_cstr("builtins");
    if (!r[0])
        goto out;
    if (!(r[1] = import_absolute(r[0]))) {
        if (err_matches(E_ImportError))
            goto warn;
        goto out;
    }
    if (!(r[2] = vm_getattr_cstr(r[1], dot ? dot + 1 : env)))
        goto warn;
    res = vm_call(r[2], args, nargs, kwnames);
    goto out;
warn:
    err_clear();
    r[0] = str_from_format("Ignoring unimportable $PYTHONBREAKPOINT: \"%s\"", env);
    if (r[0] && vm_warn(E_RuntimeWarning, r[0], NULL) == 0)
        res = g_None;
out:
    vm_unroots(r);
    return res;
}

static const MethodDef sys_functions[] = {
    {"exit", sys_exit, METH_ARGS(0, 1), NULL},
    {"audit", sys_audit, 0, NULL},
    {"breakpointhook", sys_breakpointhook, METH_KW, NULL},
    {"addaudithook", sys_addaudithook, METH_O, NULL},
    {"set_asyncgen_hooks", sys_set_asyncgen_hooks, METH_KW, NULL},
    {"get_asyncgen_hooks", sys_get_asyncgen_hooks, METH_NOARGS, NULL},
    {"getrecursionlimit", sys_getrecursionlimit, METH_NOARGS, NULL},
    {"setrecursionlimit", sys_setrecursionlimit, METH_O, NULL},
    {"exc_info", sys_exc_info, METH_NOARGS, NULL},
    {"exception", sys_exception, METH_NOARGS, NULL},
    {"intern", sys_intern, METH_O, NULL},
    {"getsizeof", sys_getsizeof, METH_KW, NULL},
    {"getdefaultencoding", sys_getdefaultencoding, METH_NOARGS, NULL},
    {"getfilesystemencoding", sys_getdefaultencoding, METH_NOARGS, NULL},
    {"getfilesystemencodeerrors", sys_getfilesystemencodeerrors, METH_NOARGS, NULL},
    {"setswitchinterval", sys_setswitchinterval, METH_O, NULL},
    {"getswitchinterval", sys_getswitchinterval, METH_NOARGS, NULL},
    {"get_int_max_str_digits", sys_get_int_max_str_digits, METH_NOARGS, NULL},
    {"set_int_max_str_digits", sys_set_int_max_str_digits, METH_KW, NULL},
    {"excepthook", sys_excepthook, METH_ARGS(3, 3), NULL},
    {"displayhook", sys_displayhook, METH_O, NULL},
    {"unraisablehook", sys_unraisablehook, METH_O, NULL},
    {"gettrace", sys_gettrace, METH_NOARGS, NULL},
    {"getprofile", sys_getprofile, METH_NOARGS, NULL},
    {"settrace", sys_settrace, METH_O, NULL},
    {"setprofile", sys_setprofile, METH_O, NULL},
    {"is_finalizing", sys_is_finalizing, METH_NOARGS,
     "is_finalizing()\n\nReturn True if Python is exiting.\n\ntmpy: true while the finalizers of what is still "
     "reachable run, after the atexit handlers."},
    {"getrefcount", sys_getrefcount, METH_O,
     "getrefcount(object) -> 2\n\ntmpy has no reference counts (its garbage collector traces): this always "
     "returns 2, the count CPython gives for an object that only the argument refers to."},
    {"_getframe", sys_getframe, METH_ARGS(0, 1), NULL},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Start-up                                                            */
/* ------------------------------------------------------------------ */

static int add(Obj m, const char *name, Obj v)
{
    if (!v)
        return -1;
    return module_add(m, name, v);
}

static Obj make_structseq(const char *name, const char *const *fields, int n, Obj *items)
{
    Obj *r = vm_roots(1);
    r[0] = structseq_new_type("sys", name, fields, n, n);
    Obj res = r[0] ? structseq_new(r[0], items, n) : NULL;
    vm_unroots(r);
    return res;
}

static Obj make_version_info(void)
{
    static const char *const f[] = {"major", "minor", "micro", "releaselevel", "serial"};
    Obj *it = vm_roots(5);
    it[0] = MAKE_SMALLINT(3);
    it[1] = MAKE_SMALLINT(11);
    it[2] = MAKE_SMALLINT(7);
    it[3] = str_from_cstr("final");
    it[4] = MAKE_SMALLINT(0);
    Obj res = it[3] ? make_structseq("version_info", f, 5, it) : NULL;
    vm_unroots(it);
    return res;
}

static Obj make_float_info(void)
{
    static const char *const f[] = {"max", "max_exp", "max_10_exp", "min", "min_exp", "min_10_exp",
                                    "dig", "mant_dig", "epsilon", "radix", "rounds"};
    Obj *it = vm_roots(11);
    Obj res = NULL;
    if (!(it[0] = float_new(DBL_MAX)) || !(it[3] = float_new(DBL_MIN)) || !(it[8] = float_new(DBL_EPSILON)))
        goto out;
    it[1] = MAKE_SMALLINT(DBL_MAX_EXP);
    it[2] = MAKE_SMALLINT(DBL_MAX_10_EXP);
    it[4] = MAKE_SMALLINT(DBL_MIN_EXP);
    it[5] = MAKE_SMALLINT(DBL_MIN_10_EXP);
    it[6] = MAKE_SMALLINT(DBL_DIG);
    it[7] = MAKE_SMALLINT(DBL_MANT_DIG);
    it[9] = MAKE_SMALLINT(FLT_RADIX);
    it[10] = MAKE_SMALLINT(1);
    res = make_structseq("float_info", f, 11, it);
out:
    vm_unroots(it);
    return res;
}

static Obj make_int_info(void)
{
    static const char *const f[] = {"bits_per_digit", "sizeof_digit", "default_max_str_digits",
                                    "str_digits_check_threshold"};
    Obj *it = vm_roots(4);
    it[0] = MAKE_SMALLINT(30);
    it[1] = MAKE_SMALLINT(4);
    it[2] = MAKE_SMALLINT(INT_MAX_STR_DIGITS_DEFAULT);
    it[3] = MAKE_SMALLINT(INT_MAX_STR_DIGITS_THRESHOLD);
    Obj res = make_structseq("int_info", f, 4, it);
    vm_unroots(it);
    return res;
}

static Obj make_hash_info(void)
{
    static const char *const f[] = {"width", "modulus", "inf", "nan", "imag", "algorithm",
                                    "hash_bits", "seed_bits", "cutoff"};
    Obj *it = vm_roots(9);
    Obj res = NULL;
    it[0] = MAKE_SMALLINT(64);
    it[1] = MAKE_SMALLINT((int64_t)((1ULL << 61) - 1));
    it[2] = MAKE_SMALLINT(314159);
    it[3] = MAKE_SMALLINT(0);
    it[4] = MAKE_SMALLINT(1000003);
    it[6] = MAKE_SMALLINT(64);
    it[7] = MAKE_SMALLINT(128);
    it[8] = MAKE_SMALLINT(0);
    if ((it[5] = str_from_cstr("siphash13")))
        res = make_structseq("hash_info", f, 9, it);
    vm_unroots(it);
    return res;
}

static Obj make_flags(void)
{
    static const char *const f[] = {"debug", "inspect", "interactive", "optimize", "dont_write_bytecode",
                                    "no_user_site", "no_site", "ignore_environment", "verbose",
                                    "bytes_warning", "quiet", "hash_randomization", "isolated",
                                    "dev_mode", "utf8_mode", "warn_default_encoding", "safe_path",
                                    "int_max_str_digits"};
    Obj *it = vm_roots(18);
    for (int i = 0; i < 18; i++)
        it[i] = MAKE_SMALLINT(0);
    it[3] = MAKE_SMALLINT(sys_cflags.optimize);
    it[4] = MAKE_SMALLINT(sys_cflags.dont_write_bytecode);
    it[5] = MAKE_SMALLINT(sys_cflags.no_user_site);
    it[6] = MAKE_SMALLINT(sys_cflags.no_site);
    it[7] = MAKE_SMALLINT(sys_cflags.ignore_environment);
    it[8] = MAKE_SMALLINT(sys_cflags.verbose);
    it[10] = MAKE_SMALLINT(sys_cflags.quiet);
    it[11] = MAKE_SMALLINT(1);
    it[12] = MAKE_SMALLINT(sys_cflags.isolated);
    it[13] = g_False;
    it[16] = vm_bool(sys_cflags.safe_path);
    it[17] = MAKE_SMALLINT(-1);
    Obj res = make_structseq("flags", f, 18, it);
    vm_unroots(it);
    return res;
}

static int ns_set(Obj *r, const char *name)
{
    Obj key = str_intern_cstr(name);
    return key ? vm_setattr(r[1], key, r[2]) : -1;
}

static Obj make_implementation(Obj version_info)
{
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = version_info;
    r[1] = namespace_new();
    if (!r[1])
        goto out;
    /* the key is made (and pinned) before r[1] is read: it may move */
#define NS_SET(name, expr) (r[2] = (expr), !r[2] ? -1 : ns_set(r, name))
    if (NS_SET("name", str_from_cstr("tmpy")) < 0 || NS_SET("cache_tag", str_from_cstr("tmpy-311")) < 0 ||
        NS_SET("version", r[0]) < 0 || NS_SET("hexversion", MAKE_SMALLINT(0x030b07f0)) < 0 ||
        NS_SET("_multiarch", str_from_cstr("x86_64-linux-gnu")) < 0)
        goto out;
#undef NS_SET
    res = r[1];
out:
    vm_unroots(r);
    return res;
}

static Obj str_list(const char *const *items, int n)
{
    Obj *r = vm_roots(2);
    r[0] = list_new_capacity(n);
    for (int i = 0; r[0] && i < n; i++) {
        r[1] = str_from_cstr(items[i]);
        if (!r[1] || list_append(r[0], r[1]) < 0)
            r[0] = NULL;
    }
    Obj res = r[0];
    vm_unroots(r);
    return res;
}

static char g_executable[4096];

/* CPython's format, which platform._sys_version parses: "3.11.7 (BUILD,
 * DATE, TIME) [COMPILER]"; tmpy is named where CPython names its branch. */
#define SYS_VERSION "3.11.7 (tmpy, " __DATE__ ", " __TIME__ ") [GCC " __VERSION__ "]"

Obj sys_init(Obj argv_list)
{
    Obj *r = vm_roots(4);
    r[0] = argv_list;   /* before the first allocation, which may move it */
    VM_GLOBAL_ROOT(g_sys_module);
    VM_GLOBAL_ROOT(g_sys_dict);
    VM_GLOBAL_ROOT(g_sys_path);
    VM_GLOBAL_ROOT(g_audit_hooks);
    if (!(g_audit_hooks = list_new_capacity(2))) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
    namespace_init();
    Obj m = module_new("sys");   /* g_modules: made by builtins_init, which runs first */
    if (!m)
        goto fail;
    g_sys_module = m;
    g_sys_dict = ((ModuleObj *)m)->dict;
    module_add_functions(m, sys_functions);
    if (!g_sys_path)
        g_sys_path = list_new_capacity(8);
    if (!g_sys_path)
        goto fail;

    ssize_t n = readlink("/proc/self/exe", g_executable, sizeof g_executable - 1);
    g_executable[n > 0 ? n : 0] = 0;

    /* ADD evaluates the value before reading g_sys_module (it may move). */
#define ADD(name, expr) (r[3] = (expr), add(g_sys_module, name, r[3]))
    if (ADD("argv", r[0] ? r[0] : list_new(0)) < 0 ||
        ADD("orig_argv", r[0] ? list_copy(r[0]) : list_new(0)) < 0 ||
        ADD("path", g_sys_path) < 0 ||
        ADD("modules", g_modules) < 0 ||
        ADD("stdin", g_sys_stdin) < 0 || ADD("__stdin__", g_sys_stdin) < 0 ||
        ADD("stdout", g_sys_stdout) < 0 || ADD("__stdout__", g_sys_stdout) < 0 ||
        ADD("stderr", g_sys_stderr) < 0 || ADD("__stderr__", g_sys_stderr) < 0 ||
        ADD("maxsize", int_from_i64(INT64_MAX)) < 0 ||
        ADD("maxunicode", MAKE_SMALLINT(0x10ffff)) < 0 ||
        ADD("version", str_from_cstr(SYS_VERSION)) < 0 ||
        ADD("hexversion", MAKE_SMALLINT(0x030b07f0)) < 0 ||
        ADD("api_version", MAKE_SMALLINT(1013)) < 0 ||
        ADD("platform", str_from_cstr("linux")) < 0 ||
        ADD("byteorder", str_from_cstr("little")) < 0 ||
        ADD("executable", str_from_os_cstr(g_executable)) < 0 ||   /* import_init_paths sets these five */
        ADD("_base_executable", str_from_os_cstr(g_executable)) < 0 ||
        ADD("platlibdir", str_from_cstr("lib")) < 0 ||
        ADD("copyright", str_from_cstr("Copyright (c) tmpy authors; Python semantics (c) PSF.")) < 0 ||
        ADD("float_repr_style", str_from_cstr("short")) < 0 ||
        ADD("abiflags", str_from_cstr("")) < 0 ||
        ADD("dont_write_bytecode", g_True) < 0 ||
        ADD("meta_path", list_new(0)) < 0 ||
        ADD("path_hooks", list_new(0)) < 0 ||
        ADD("path_importer_cache", dict_new()) < 0 ||
        ADD("warnoptions", list_new(0)) < 0 ||
        ADD("_xoptions", dict_new()) < 0 ||
        ADD("pycache_prefix", g_None) < 0)
        goto fail;
    {   /* (builtin_module_names: import_init_paths, from the registry of C modules) */
        static const char *const stdlib[] = {"abc", "atexit", "builtins", "collections", "copy", "functools",
                                             "heapq", "importlib", "io", "itertools", "math", "operator", "os",
                                             "posixpath", "random", "re", "string", "sys", "time", "types",
                                             "typing", "warnings"};
        r[1] = str_list(stdlib, (int)ARRAY_LEN(stdlib));
        if (!r[1] || ADD("stdlib_module_names", frozenset_new(r[1])) < 0)
            goto fail;
    }
    {
        static const char *const f[] = {"firstiter", "finalizer"};
        VM_GLOBAL_ROOT(g_asyncgen_hooks_type);
        g_asyncgen_hooks_type = structseq_new_type("builtins", "asyncgen_hooks", f, 2, 2);
        if (!g_asyncgen_hooks_type)
            goto fail;
    }
    r[2] = make_version_info();
    if (ADD("version_info", r[2]) < 0 || ADD("implementation", make_implementation(r[2])) < 0 ||
        ADD("float_info", make_float_info()) < 0 || ADD("int_info", make_int_info()) < 0 ||
        ADD("hash_info", make_hash_info()) < 0 || ADD("flags", make_flags()) < 0)
        goto fail;
    for (const char *const *h = (const char *const[]){"excepthook", "displayhook", "unraisablehook", "breakpointhook", NULL}; *h; h++) {
        Obj f = dict_getitem_cstr(g_sys_dict, *h);
        char dunder[32];
        snprintf(dunder, sizeof dunder, "__%s__", *h);
        if (f && module_add(g_sys_module, dunder, f) < 0)
            goto fail;
    }
    if (dict_setitem_cstr(g_modules, "sys", g_sys_module) < 0)
        goto fail;
    vm_unroots(r);
    return g_sys_module;
fail:
    vm_unroots(r);
    return NULL;
}

Obj sys_module_init(void)
{
    return g_sys_module;
}
