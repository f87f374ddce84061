/* The _queue module: SimpleQueue, an unbounded FIFO queue whose get()
 * blocks (with a timeout) in the queue object's own monitor, and Empty.
 *
 * A SimpleQueue is an IterObj: a = the list holding the items, i = the
 * index of the first one (taken items are set to None; the list is
 * compacted when half of it is taken), n = the getters waiting (counted
 * from entering the monitor to leaving it). A put only writes the list
 * (under STM, a write in the transaction) unless a getter waits: then it
 * notifies one in the monitor. A waiting getter frees the segment
 * (tm_monitor_wait's blocking hooks, vm_blocking_begin). */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "threads.h"
#include "objects/containers.h"
#include "objects/objects.h"

#include <time.h>

static TypeObj *T_simplequeue, *E_Empty;

#define Q_ITEMS(o) (ITER(o)->a)
#define Q_HEAD(o) (ITER(o)->i)
#define Q_GETTERS(o) (ITER(o)->n)
#define Q_SIZE(o) (LIST_LEN(Q_ITEMS(o)) - Q_HEAD(o))

static Obj q_self(Obj self, const char *meth)
{
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)T_simplequeue) {
        err_format(E_TypeError, "descriptor '%s' for '_queue.SimpleQueue' objects doesn't apply to a '%s' object",
                   meth, type_name(self));
        return NULL;
    }
    return s;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static Obj q_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    if (vm_check_args("SimpleQueue", nargs, kwnames, 0, 0) < 0)
        return NULL;
    Obj *r = vm_roots(1);
    Obj res = NULL;
    if ((r[0] = list_new_capacity(4)))
        res = iter_alloc(T_simplequeue, r[0], 0);
    vm_unroots(r);
    return res;
}

/* The first item, taken out (the queue in *slot is not empty). */
static Obj take_first(Obj *slot)
{
    Obj q = vm_unwrap(*slot);
    Obj items = Q_ITEMS(q);
    int64_t head = Q_HEAD(q);
    Obj item = LIST_ITEMS(items)[head];
    Obj array = LIST(items)->array;
    VM_WRITE_ITEM(array, head);
    ARRAY(array)->items[head] = g_None;
    VM_WRITE(q);
    Q_HEAD(q) = ++head;
    if (head == LIST_LEN(items)) {   /* empty: start again at 0 */
        list_clear(items);
        q = vm_unwrap(*slot);
        VM_WRITE(q);
        Q_HEAD(q) = 0;
    } else if (head >= 16 && head * 2 >= LIST_LEN(items)) {
        Obj *r = vm_roots(2);
        r[0] = item;
        r[1] = list_new_capacity(LIST_LEN(items) - head);
        if (!r[1]) {
            err_clear();   /* no memory to compact: keep the list as it is */
        } else {
            q = vm_unwrap(*slot);
            for (int64_t k = Q_HEAD(q); k < LIST_LEN(Q_ITEMS(q)); k++) {
                if (list_append(r[1], LIST_ITEMS(Q_ITEMS(q))[k]) < 0) {
                    err_clear();
                    r[1] = NULL;
                    break;
                }
                q = vm_unwrap(*slot);
            }
            if (r[1]) {
                q = vm_unwrap(*slot);
                VM_WRITE(q);
                Q_ITEMS(q) = r[1];
                Q_HEAD(q) = 0;
            }
        }
        item = r[0];
        vm_unroots(r);
    }
    return item;
}

/* get(block=True, timeout=None) */
static Obj q_get(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"block", "timeout", NULL};
    if (!q_self(args[0], "get"))
        return NULL;
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("get", args + 1, nargs - 1, kwnames, names, 0, 2, a) < 0)
        goto out;
    int blocking = 1;
    if (a[0] && (blocking = vm_is_true(a[0])) < 0)
        goto out;
    int64_t timeout_ns = TM_MONITOR_FOREVER;
    if (!blocking) {
        timeout_ns = 0;
    } else if (a[1] && !IS_NONE(a[1])) {
        double t;
        if (vm_as_double(a[1], &t) < 0)
            goto out;
        if (t < 0) {
            err_set(E_ValueError, "'timeout' must be a non-negative number");
            goto out;
        }
        if (t > TIMEOUT_MAX) {
            err_set(E_OverflowError, "timeout value is too large");
            goto out;
        }
        timeout_ns = (int64_t)(t * 1e9);
    }
    if (Q_SIZE(vm_unwrap(args[0])) > 0) {
        res = take_first(&args[0]);
        goto out;
    }
    if (timeout_ns == 0) {
        err_set(E_Empty, NULL);
        goto out;
    }
    uint64_t deadline = timeout_ns > 0 ? now_ns() + (uint64_t)timeout_ns : 0;
    for (;;) {
        tm_monitor_enter((object_t *)vm_unwrap(args[0]));
        Obj q = vm_unwrap(args[0]);
        VM_WRITE(q);
        Q_GETTERS(q)++;
        int rc = TM_MONITOR_TIMED_OUT;
        bool got = false;
        for (;;) {
            if (Q_SIZE(vm_unwrap(args[0])) > 0) {
                got = true;
                break;
            }
            int64_t left = TM_MONITOR_FOREVER;
            if (timeout_ns > 0) {
                uint64_t now = now_ns();
                left = now >= deadline ? 0 : (int64_t)(deadline - now);
            }
            if (left == 0)
                break;
            rc = tm_monitor_wait((object_t *)vm_unwrap(args[0]), left);
            if (rc == TM_MONITOR_INTERRUPTED)
                break;
        }
        if (got)
            res = take_first(&args[0]);
        q = vm_unwrap(args[0]);
        VM_WRITE(q);
        Q_GETTERS(q)--;
        tm_monitor_exit((object_t *)q);
        if (got)
            goto out;
        if (rc != TM_MONITOR_INTERRUPTED) {
            err_set(E_Empty, NULL);
            goto out;
        }
        if (vm_signals_check() < 0)   /* PEP 475: a handler that raises ends the wait */
            goto out;
    }
out:
    vm_unroots(a);
    return res;
}

static Obj q_get_nowait(Obj *args, size_t nargs, Obj kwnames)
{
    if (!q_self(args[0], "get_nowait"))
        return NULL;
    if (Q_SIZE(vm_unwrap(args[0])) == 0) {
        err_set(E_Empty, NULL);
        return NULL;
    }
    return take_first(&args[0]);
}

/* put(item, block=True, timeout=None): never blocks */
static Obj q_put(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"item", "block", "timeout", NULL};
    if (!q_self(args[0], "put"))
        return NULL;
    Obj *a = vm_roots(3);
    Obj res = NULL;
    if (vm_parse_args("put", args + 1, nargs - 1, kwnames, names, 1, 3, a) < 0)
        goto out;
    if (list_append(Q_ITEMS(vm_unwrap(args[0])), a[0]) < 0)
        goto out;
    if (Q_GETTERS(vm_unwrap(args[0])) > 0) {
        tm_monitor_enter((object_t *)vm_unwrap(args[0]));
        tm_monitor_notify((object_t *)vm_unwrap(args[0]), 1);
        tm_monitor_exit((object_t *)vm_unwrap(args[0]));
    }
    res = g_None;
out:
    vm_unroots(a);
    return res;
}

static Obj q_put_nowait(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"item", NULL};
    if (!q_self(args[0], "put_nowait"))
        return NULL;
    Obj *a = vm_roots(1);
    Obj res = NULL;
    if (vm_parse_args("put_nowait", args + 1, nargs - 1, kwnames, names, 1, 1, a) == 0) {
        Obj *call = vm_roots(2);   /* q_put's arguments are root slots */
        call[0] = args[0];
        call[1] = a[0];
        res = q_put(call, 2, NULL);
        vm_unroots(call);
    }
    vm_unroots(a);
    return res;
}

static Obj q_empty(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = q_self(args[0], "empty");
    return !s ? NULL : Q_SIZE(s) == 0 ? g_True : g_False;
}

static Obj q_qsize(Obj *args, size_t nargs, Obj kwnames)
{
    Obj s = q_self(args[0], "qsize");
    return s ? int_from_i64(Q_SIZE(s)) : NULL;
}

static Obj q_class_getitem(Obj *args, size_t nargs, Obj kwnames)
{
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = vm_import_cstr("types");
    if (r[0] && (r[0] = vm_getattr_cstr(r[0], "GenericAlias")))
        res = vm_call2(r[0], args[0], args[1]);
    vm_unroots(r);
    return res;
}

static const MethodDef q_methods[] = {
    {"get", q_get, METH_KW, "Remove and return an item from the queue."},
    {"get_nowait", q_get_nowait, METH_NOARGS, "Remove and return an item from the queue without blocking."},
    {"put", q_put, METH_KW, "Put the item on the queue."},
    {"put_nowait", q_put_nowait, METH_KW, "Put an item into the queue without blocking."},
    {"empty", q_empty, METH_NOARGS, "Return True if the queue is empty, False otherwise (not reliable!)."},
    {"qsize", q_qsize, METH_NOARGS, "Return the approximate size of the queue (not reliable!)."},
    {"__class_getitem__", q_class_getitem, METH_CLASS | METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static void make_types(void)
{
    if (T_simplequeue)
        return;
    TypeObj *t = (TypeObj *)type_new_builtin("_queue.SimpleQueue", T_object, TID_ITER, 0);
    VM_WRITE_RARE(t);
    t->tp_new = q_new;
    type_add_methods(t, q_methods);
    type_ready(t);
    E_Empty = (TypeObj *)type_new_builtin("_queue.Empty", E_Exception, TID_EXCEPTION, TPF_BASETYPE | TPF_HAS_DICT);
    type_ready(E_Empty);
    T_simplequeue = t;
}

Obj queue_module_init(void)
{
    vm_tx_become_inevitable();   /* the types are C globals */
    make_types();
    Obj *r = vm_roots(1);
    Obj res = NULL;
    r[0] = module_new("_queue");
    if (r[0] && module_add(r[0], "SimpleQueue", (Obj)T_simplequeue) == 0 &&
        module_add(r[0], "Empty", (Obj)E_Empty) == 0)
        res = r[0];
    vm_unroots(r);
    return res;
}
