/* The tm module: object monitors on any value (synchronized, wait,
 * notify, is_owned) and how this interpreter runs threads (mode). */
#include "eval.h"
#include "modules.h"
#include "threads.h"
#include "objects/containers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static TypeObj *T_synchronized, *T_atomic;
static Obj g_atomic;   /* tm.atomic */

/* Small ints are immediate values without a header: they share the monitor
 * of one object (more exclusion than needed, never less). */
static Obj g_immediate_monitor;

static object_t *monitor_of(Obj v)
{
    return (object_t *)(IS_SMALLINT(v) ? g_immediate_monitor : v);
}

/* A timeout in seconds or None (forever): -1 forever, else ns (negative
 * values wait not at all, as Condition.wait does). */
static int parse_timeout(Obj v, int64_t *ns)
{
    if (!v || IS_NONE(v)) {
        *ns = TM_MONITOR_FOREVER;
        return 0;
    }
    double t;
    if (vm_as_double(v, &t) < 0)
        return -1;
    if (isnan(t)) {
        err_set(E_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    if (t > TIMEOUT_MAX) {
        err_set(E_OverflowError, "timeout value is too large");
        return -1;
    }
    *ns = t <= 0 ? 0 : (int64_t)(t * 1e9);
    return 0;
}

static Obj tm_mode(Obj *args, size_t nargs, Obj kwnames)
{
    return str_from_cstr(TM_STM ? "stm" : tm_elision_on ? "htm" : "gil");
}

static Obj tm_synchronized(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = iter_alloc(T_synchronized, args[0], 0);
    return s ? s : err_nomemory();
}

static Obj sync_enter(Obj *args, size_t nargs, Obj kwnames)
{
    tm_monitor_enter(monitor_of(ITER(args[0])->a));
    return ITER(args[0])->a;
}

static Obj sync_exit(Obj *args, size_t nargs, Obj kwnames)
{
    if (!tm_monitor_exit(monitor_of(ITER(args[0])->a))) {
        err_set(E_RuntimeError, "cannot release un-acquired monitor");
        return NULL;
    }
    return g_False;
}

static Obj sync_repr(Obj self)
{
    uint64_t id = vm_object_id_slot(&self);
    return str_from_format("<tm.synchronized on %s object at 0x%lx>", type_name(ITER(self)->a),
                           (unsigned long)id);
}

static const MethodDef sync_methods[] = {
    {"__enter__", sync_enter, METH_NOARGS, NULL},
    {"__exit__", sync_exit, 0, NULL},
    {NULL, NULL, 0, NULL},
};

static Obj tm_wait(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "timeout", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t ns;
    if (vm_parse_args("wait", args, nargs, kwnames, names, 1, 2, a) < 0 || parse_timeout(a[1], &ns) < 0)
        goto out;
    int rc = tm_monitor_wait(monitor_of(a[0]), ns);
    if (rc == TM_MONITOR_NOT_OWNER) {
        err_set(E_RuntimeError, "cannot wait on un-acquired monitor");
    } else if (rc == TM_MONITOR_INTERRUPTED) {
        /* A signal ended the main thread's wait: its handlers run (holding
         * the monitor again); unless one raised, this is a spurious wakeup
         * (True), as the wait may have missed a notify the handler made.
         * Callers re-check their condition (Condition.wait_for, join, queue). */
        if (vm_signals_check() == 0)
            res = g_True;
    } else {
        res = rc == TM_MONITOR_NOTIFIED ? g_True : g_False;
    }
out:
    vm_unroots(a);
    return res;
}

static Obj notify_common(Obj obj, uint64_t n)
{
    int64_t woken = tm_monitor_notify(monitor_of(obj), n);
    if (woken < 0) {
        err_set(E_RuntimeError, "cannot notify on un-acquired monitor");
        return NULL;
    }
    return int_from_i64(woken);
}

static Obj tm_notify(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"obj", "n", NULL};
    Obj *a = vm_roots(2);
    Obj res = NULL;
    int64_t n = 1;
    if (vm_parse_args("notify", args, nargs, kwnames, names, 1, 2, a) < 0)
        goto out;
    if (a[1] && int_as_i64(a[1], &n) < 0) {
        double d;   /* a huge n wakes everyone, a hugely negative one no one */
        if (!err_matches(E_OverflowError) || (err_clear(), int_as_double(a[1], &d) < 0))
            goto out;
        n = d > 0 ? INT64_MAX : 0;
    }
    res = notify_common(a[0], n < 0 ? 0 : (uint64_t)n);
out:
    vm_unroots(a);
    return res;
}

static Obj tm_notify_all(Obj *args, size_t nargs, Obj kwnames)
{
    return notify_common(args[0], UINT64_MAX);
}

static Obj tm_is_owned(Obj *args, size_t nargs, Obj kwnames)
{
    return tm_monitor_count(monitor_of(args[0])) ? g_True : g_False;
}

/* ---- tm.atomic: `with tm.atomic:` runs its block as one transaction ----
 * STM: no yield point inside it ends the transaction, and a blocking call
 * makes it inevitable instead of committing; an abort re-runs it whole.
 * GIL: no thread switch inside it. Blocks nest (flattened); an exception
 * leaves the block with its effects kept, as with a lock. */
static Obj atomic_enter(Obj *args, size_t nargs, Obj kwnames)
{
    vm_ts.atomic++;
    return g_None;
}

static Obj atomic_exit(Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_ts.atomic > 0)
        vm_ts.atomic--;
    return g_False;
}

static Obj atomic_repr(Obj self)
{
    (void)self;
    return str_from_cstr("<tm.atomic>");
}

static const MethodDef atomic_methods[] = {
    {"__enter__", atomic_enter, METH_NOARGS, NULL},
    {"__exit__", atomic_exit, 0, NULL},
    {NULL, NULL, 0, NULL},
};

static int stat_item(Obj d, const char *key, uint64_t v)
{
    Obj *r = vm_roots(1);
    r[0] = int_from_u64(v);
    int rc = r[0] ? dict_setitem_cstr(d, key, r[0]) : -1;
    vm_unroots(r);
    return rc;
}

/* The transaction counters of `s` into a new dict: r[0] (r[1] is room). */
static int stm_counters(Obj *r, const tm_stm_stats *s)
{
    r[0] = dict_new();
    r[1] = r[0] ? dict_new() : NULL;
    if (!r[1])
        return -1;
    static const char *const causes[TM_ABORT_CAUSES] = {
        [TM_ABORT_READ_WRITE] = "read_write", [TM_ABORT_WRITE_WRITE] = "write_write",
        [TM_ABORT_INEVITABLE] = "inevitable", [TM_ABORT_EXPLICIT] = "explicit", [TM_ABORT_INJECTED] = "injected",
        [TM_ABORT_RARE_WRITE] = "rare_write",
    };
    for (int c = 0; c < TM_ABORT_CAUSES; c++)
        if (causes[c] && stat_item(r[1], causes[c], s->aborts_by_cause[c]) < 0)
            return -1;
    if (stat_item(r[0], "transactions", s->started) < 0 || stat_item(r[0], "commits", s->committed) < 0 ||
        stat_item(r[0], "aborts", s->aborted) < 0 || dict_setitem_cstr(r[0], "aborts_by_cause", r[1]) < 0 ||
        stat_item(r[0], "inevitable", s->inevitable) < 0 || stat_item(r[0], "solo", s->solo) < 0 ||
        stat_item(r[0], "segments_kept", s->segments_kept) < 0 ||
        stat_item(r[0], "solo_went_on", s->solo_went_on) < 0 ||
        stat_item(r[0], "pages_privatised", s->pages_privatised) < 0 ||
        stat_item(r[0], "aborted_ns", s->aborted_ns) < 0 ||
        stat_item(r[0], "commit_ns", s->commit_ns) < 0 || stat_item(r[0], "wait_ns", s->wait_ns) < 0)
        return -1;
    return 0;
}

/* tm.stats(): the runtime's transaction counters, summed over all threads
 * (zero under the GIL, where nothing aborts), and the interpreter's. */
static Obj tm_stats(Obj *args, size_t nargs, Obj kwnames)
{
    tm_stm_stats s;
    tm_stm_get_stats(&s);
    Obj *r = vm_roots(2);
    Obj res = NULL;
    if (stm_counters(r, &s) < 0 ||
        stat_item(r[0], "set_ops_blind", __atomic_load_n(&vm_set_ops_blind, __ATOMIC_RELAXED)) < 0 ||
        stat_item(r[0], "c_blocks_freed_by_aborts", __atomic_load_n(&vm_tx_blocks_freed, __ATOMIC_RELAXED)) < 0 ||
        stat_item(r[0], "lock_slow_acquires", __atomic_load_n(&thread_lock_slow_acquires, __ATOMIC_RELAXED)) < 0 ||
        stat_item(r[0], "lock_slow_releases", __atomic_load_n(&thread_lock_slow_releases, __ATOMIC_RELAXED)) < 0)
        goto out;
    /* fairness: waits by kind, each (count, total ns, longest ns) */
    tm_wait_stat w[TM_WAIT_KINDS];
    tm_wait_get_stats(w);
    r[1] = dict_new();
    if (!r[1] || dict_setitem_cstr(r[0], "waits", r[1]) < 0)
        goto out;
    for (int k = 0; k < TM_WAIT_KINDS; k++) {
        Obj *v = vm_roots(3);   /* each int may allocate */
        Obj t = (v[0] = int_from_u64(w[k].count)) && (v[1] = int_from_u64(w[k].total_ns)) &&
                        (v[2] = int_from_u64(w[k].max_ns)) ? tuple_pack(3, v[0], v[1], v[2]) : NULL;
        vm_unroots(v);
        if (!t || dict_setitem_cstr(r[1], tm_wait_names[k], t) < 0)
            goto out;
    }
    if (!TM_STM && vm_elision_stats(r[0]) < 0)   /* tmpy-gil: the HTM elision's (zero without --tm=htm) */
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}

/* tm.thread_stats(): the calling thread's transaction counters alone (a
 * program that asks how its own transactions fared, whatever others do). */
static Obj tm_thread_stats(Obj *args, size_t nargs, Obj kwnames)
{
    tm_stm_stats s;
    tm_stm_get_thread_stats(&s);
    Obj *r = vm_roots(2);
    Obj res = stm_counters(r, &s) < 0 ? NULL : r[0];
    vm_unroots(r);
    return res;
}

static const MethodDef tm_functions[] = {
    {"stats", tm_stats, METH_NOARGS, "The transaction statistics: transactions, commits, aborts by cause, ..."},
    {"thread_stats", tm_thread_stats, METH_NOARGS,
     "The calling thread's transaction statistics (the counters of stats() that are per thread)."},
    {"mode", tm_mode, METH_NOARGS, "'gil', 'htm' (tmpy-gil --tm=htm with an HTM) or 'stm': how this interpreter runs threads."},
    {"synchronized", tm_synchronized, METH_O, "A re-entrant context manager on obj's monitor."},
    {"wait", tm_wait, METH_KW, "Wait on obj's monitor (held by the caller) until notified or the timeout."},
    {"notify", tm_notify, METH_KW, "Wake up to n threads waiting on obj's monitor."},
    {"notify_all", tm_notify_all, METH_O, "Wake every thread waiting on obj's monitor."},
    {"is_owned", tm_is_owned, METH_O, "Whether the calling thread holds obj's monitor."},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------ */
/* Start-up                                                            */
/* ------------------------------------------------------------------ */

/* Start-up: the shared monitor of small ints and the synchronized type. */
void tm_init(void)
{
    VM_GLOBAL_ROOT(g_immediate_monitor);
    g_immediate_monitor = list_new_capacity(0);
    if (!g_immediate_monitor) {
        fputs("tmpy: fatal: out of memory starting the thread support\n", stderr);
        exit(1);
    }
    T_synchronized = thread_make_type("tm.synchronized", NULL, sync_repr, sync_methods);
    T_atomic = thread_make_type("tm.atomic_type", NULL, atomic_repr, atomic_methods);
    VM_GLOBAL_ROOT(g_atomic);
    g_atomic = iter_alloc(T_atomic, NULL, 0);
    if (!g_atomic) {
        fputs("tmpy: fatal: out of memory starting the thread support\n", stderr);
        exit(1);
    }
}

Obj tm_module_init(void)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("tm");
    if (!r[0])
        goto out;
    module_add_functions(r[0], tm_functions);
    if (module_add(r[0], "synchronized_type", (Obj)T_synchronized) < 0 || module_add(r[0], "atomic", g_atomic) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
