/* gc: the collector's interface (runtime/gc.h). tmpy's GC is generational
 * and tracing, not reference counting with a cycle detector, so the
 * CPython functions map onto it as follows (each docstring says so):
 * collect() runs a major collection (after a minor one) and then the weak
 * callbacks and finalizers it queued; get_threshold() is (nursery size in
 * KiB, the major collection's minimum old-space size in MiB, its growth
 * factor in percent); get_count() is (KiB allocated young by this thread
 * since its last minor collection, minor collections since the last major
 * one, 0). Left out, because they would not be honest here: get_referrers,
 * get_referents, get_objects, is_tracked, is_finalized, freeze, set_debug.
 * callbacks are called around gc.collect() only (automatic collections run
 * inside allocation, where no Python code can run). */
#include "modules.h"
#include "objects/containers.h"
#include "objects/objects.h"

#include <stdlib.h>

static Obj g_gc_callbacks;   /* gc.callbacks (a list, a global root) */
static Obj g_gc_garbage;     /* gc.garbage: always empty (PEP 442 collects cycles with finalizers) */
/* Automatic major collections run when gc.enable()d and threshold0 != 0,
 * two separate switches as in CPython (written by inevitable transactions). */
static bool gc_enabled = true, threshold0_zero = false;

static void apply_auto(void)
{
    vm_tx_become_inevitable();   /* C globals */
    tm_gc_set_auto_major(gc_enabled && !threshold0_zero);
}

/* Each callback of gc.callbacks with (phase, info). */
static int run_callbacks(const char *phase, int64_t collected)
{
    if (!g_gc_callbacks || !LIST_LEN(g_gc_callbacks))
        return 0;
    Obj *r = vm_roots(4);
    int rc = -1;
    r[0] = str_from_cstr(phase);
    r[1] = r[0] ? dict_new() : NULL;
    if (!r[1])
        goto out;
    r[2] = str_from_cstr("generation");
    if (!r[2] || dict_setitem(r[1], r[2], MAKE_SMALLINT(2)) < 0)
        goto out;
    r[2] = str_from_cstr("collected");
    if (!r[2] || !(r[3] = int_from_i64(collected)) || dict_setitem(r[1], r[2], r[3]) < 0)
        goto out;
    r[2] = str_from_cstr("uncollectable");
    if (!r[2] || dict_setitem(r[1], r[2], MAKE_SMALLINT(0)) < 0)
        goto out;
    /* a copy: a callback may change the list */
    r[2] = list_copy(g_gc_callbacks);
    if (!r[2])
        goto out;
    for (int64_t i = 0; i < LIST_LEN(r[2]); i++)
        if (!vm_call2(LIST_ITEMS(r[2])[i], r[0], r[1]))
            goto out;
    rc = 0;
out:
    vm_unroots(r);
    return rc;
}

static Obj gc_collect(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"generation", NULL};
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("collect", args, nargs, kwnames, names, 0, 1, r) < 0)
        goto out;
    if (r[0]) {
        int64_t g;
        if (vm_index_i64(r[0], &g) < 0)
            goto out;
        if (g < 0 || g > 2) {
            err_set(E_ValueError, "invalid generation");
            goto out;
        }
    }
    if (run_callbacks("start", 0) < 0)
        goto out;
    int64_t found = 0;
    if (!vm_gc_collect(args + nargs + (kwnames ? TUPLE_LEN(kwnames) : 0), &found))
        goto out;
    if (run_callbacks("stop", found) < 0)
        goto out;
    res = int_from_i64(found);
out:
    vm_unroots(r);
    return res;
}

static Obj gc_enable(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    gc_enabled = true;
    apply_auto();
    return g_None;
}

static Obj gc_disable(Obj *args, size_t nargs, Obj kwnames)
{
    vm_tx_become_inevitable();
    gc_enabled = false;
    apply_auto();
    return g_None;
}

static Obj gc_isenabled(Obj *args, size_t nargs, Obj kwnames)
{
    return vm_bool(gc_enabled);
}

static Obj gc_get_count(Obj *args, size_t nargs, Obj kwnames)
{
    return tuple_pack(3, int_from_i64((int64_t)(tm_gc_young_bytes() >> 10)),
                      int_from_i64((int64_t)tm_gc_minors_since_major()), MAKE_SMALLINT(0));
}

static Obj gc_get_threshold(Obj *args, size_t nargs, Obj kwnames)
{
    size_t min;
    double factor;
    tm_gc_get_major_threshold(&min, &factor);
    int64_t t0 = threshold0_zero ? 0 : (int64_t)(tm_gc_nursery_size() >> 10);
    return tuple_pack(3, int_from_i64(t0), int_from_i64((int64_t)(min >> 20)),
                      int_from_i64((int64_t)(factor * 100 + 0.5)));
}

/* set_threshold(threshold0[, threshold1[, threshold2]]): threshold0 0
 * turns automatic collections off (as in CPython, apart from gc.disable()),
 * any other value on (the
 * nursery size itself is fixed at start-up: TMPY_NURSERY_SIZE);
 * threshold1 is the major collection's minimum old-space size in MiB (at
 * least 1); threshold2 its growth factor in percent (at least 110). */
static Obj gc_set_threshold(Obj *args, size_t nargs, Obj kwnames)
{
    int64_t t[3];
    for (size_t i = 0; i < nargs; i++)
        if (vm_index_i64(args[i], &t[i]) < 0)
            return NULL;
    size_t min;
    double factor;
    tm_gc_get_major_threshold(&min, &factor);
    if (nargs > 1)
        min = (size_t)(t[1] < 1 ? 1 : t[1] > (1 << 20) ? (1 << 20) : t[1]) << 20;
    if (nargs > 2)
        factor = (double)(t[2] < 110 ? 110 : t[2] > 100000 ? 100000 : t[2]) / 100.0;
    vm_tx_become_inevitable();
    threshold0_zero = t[0] == 0;
    apply_auto();
    tm_gc_set_major_threshold(min, factor);
    return g_None;
}

static const MethodDef gc_functions[] = {
    {"collect", gc_collect, METH_KW,
     "Run a major collection, then the weak-reference callbacks and finalizers it queued. Returns the number "
     "of unreachable objects it found that hold references (young and old; numbers, strings and bytes are "
     "not counted, as CPython's reference counting frees them), including those queued for finalization."},
    {"enable", gc_enable, METH_NOARGS, "Enable automatic major collections (started by old-space growth)."},
    {"disable", gc_disable, METH_NOARGS,
     "Disable automatic major collections; minor collections still run, and a full heap still collects."},
    {"isenabled", gc_isenabled, METH_NOARGS, "Returns true if automatic major collections are enabled."},
    {"get_count", gc_get_count, METH_NOARGS,
     "(KiB allocated young by this thread since its last minor collection, minor collections since the "
     "last major collection, 0)."},
    {"get_threshold", gc_get_threshold, METH_NOARGS,
     "(nursery size in KiB, minimum old-space size for a major collection in MiB, major growth factor in "
     "percent)."},
    {"set_threshold", gc_set_threshold, METH_OLDMSG | METH_ARGS(1, 3),
     "set_threshold(threshold0[, threshold1[, threshold2]]): threshold0 == 0 disables automatic collections, "
     "any other value enables them (the nursery size is fixed at start-up); threshold1: the major "
     "collection's minimum old-space size in MiB; threshold2: its growth factor in percent (>= 110)."},
    {NULL, NULL, 0, NULL},
};

Obj gc_module_init(void)
{
    Obj *r = vm_roots(1);
    r[0] = module_new("gc");
    Obj m = NULL;
    if (r[0]) {
        module_add_functions(r[0], gc_functions);
        if (module_add(r[0], "callbacks", g_gc_callbacks) == 0 && module_add(r[0], "garbage", g_gc_garbage) == 0)
            m = r[0];
    }
    vm_unroots(r);
    return m;
}

/* Start-up: the two lists are global roots, written only now. */
void gc_init(void)
{
    VM_GLOBAL_ROOT(g_gc_callbacks);
    VM_GLOBAL_ROOT(g_gc_garbage);
    g_gc_callbacks = list_new_capacity(0);
    g_gc_garbage = list_new_capacity(0);
    if (!g_gc_callbacks || !g_gc_garbage) {
        fputs("tmpy: fatal: out of memory at start-up\n", stderr);
        exit(1);
    }
}
