/* The _multiprocessing module (POSIX part): SemLock, a lock or semaphore
 * on a POSIX named semaphore that processes share, and sem_unlink; what
 * CPython's multiprocessing.synchronize builds its Lock, RLock, Semaphore,
 * Condition and Event on.
 *
 * A SemLock is an IterObj: i = the sem_t * (sem_open's mapping, C memory,
 * shared with forked children), a = the name (str, or None once unlinked),
 * b = the kind, c = the maxvalue (small ints), n = how many times this
 * process holds it (count), kind = the pthread_self() of the thread that
 * last acquired it. count and the owner are per process, as in CPython:
 * _after_fork() zeroes count in the child.
 *
 * Every sem_* call that changes the semaphore is an effect no abort may
 * repeat: the transaction becomes inevitable first (STM). A wait frees the
 * segment (vm_blocking_begin), as other blocking calls do. */
#define _GNU_SOURCE
#include "eval.h"
#include "modules.h"
#include "objects/containers.h"
#include "objects/numbers.h"
#include "objects/objects.h"
#include "objects/strobj.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RECURSIVE_MUTEX = 0, SEMAPHORE = 1 };

static TypeObj *T_semlock;

#define SEM_HANDLE(o) ((sem_t *)(uintptr_t)ITER(o)->i)
#define SEM_NAME(o) (ITER(o)->a)
#define SEM_KIND(o) SMALLINT_VAL(ITER(o)->b)
#define SEM_MAXVALUE(o) SMALLINT_VAL(ITER(o)->c)
#define SEM_COUNT(o) (ITER(o)->n)
#define SEM_OWNER(o) ((unsigned long)ITER(o)->kind)

static Obj semlock_self(Obj self, const char *meth)
{
    Obj s = vm_unwrap(self);
    if (TID(s) != TID_ITER || ITER(s)->cls != (Obj)T_semlock) {
        err_format(E_TypeError, "descriptor '%s' for '_multiprocessing.SemLock' objects doesn't apply to a '%s' object",
                   meth, type_name(self));
        return NULL;
    }
    return s;
}

#define SELF(meth)                            \
    Obj s = semlock_self(args[0], meth);      \
    if (!s)                                   \
        return NULL;

static bool is_mine(Obj s)
{
    return SEM_COUNT(s) > 0 && SEM_OWNER(s) == (unsigned long)pthread_self();
}

/* A new SemLock over handle; name: a str, or None. */
static Obj semlock_alloc(sem_t *handle, int kind, int maxvalue, Obj name)
{
    Obj s = iter_alloc(T_semlock, name, 0);
    if (!s)
        return NULL;
    VM_WRITE(s);
    ITER(s)->i = (int64_t)(uintptr_t)handle;
    ITER(s)->b = MAKE_SMALLINT(kind);
    ITER(s)->c = MAKE_SMALLINT(maxvalue);
    tm_register_finalizer((object_t *)s);   /* sem_close when collected: semlock_del */
    return s;
}

static int int_arg(Obj v, int *out)
{
    int64_t x;
    if (vm_index_i64(v, &x) < 0)
        return -1;
    if (x < INT_MIN || x > INT_MAX) {
        err_set(E_OverflowError, "Python int too large to convert to C int");
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* SemLock(kind, value, maxvalue, name, unlink) */
static Obj semlock_new(Obj type, Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"kind", "value", "maxvalue", "name", "unlink", NULL};
    Obj *a = vm_roots(6);
    Obj res = NULL;
    int kind, value, maxvalue, unlink_now;
    if (vm_parse_args("SemLock", args, nargs, kwnames, names, 5, 5, a) < 0 || int_arg(a[0], &kind) < 0 ||
        int_arg(a[1], &value) < 0 || int_arg(a[2], &maxvalue) < 0)
        goto out;
    if (!IS_STR(vm_unwrap(a[3]))) {
        err_format(E_TypeError, "SemLock() argument 'name' must be str, not %s", type_name(a[3]));
        goto out;
    }
    if ((unlink_now = vm_is_true(a[4])) < 0)
        goto out;
    if (kind != RECURSIVE_MUTEX && kind != SEMAPHORE) {
        err_set(E_ValueError, "unrecognized kind");
        goto out;
    }
    char *name = strdup(str_cstr(vm_unwrap(a[3])));
    if (!name) {
        err_nomemory();
        goto out;
    }
    vm_tx_become_inevitable();   /* a semaphore made is not undone */
    sem_t *h = sem_open(name, O_CREAT | O_EXCL, 0600, (unsigned)value);
    if (h == SEM_FAILED || (unlink_now && sem_unlink(name) < 0)) {
        int e = errno;
        if (h != SEM_FAILED)
            sem_close(h);
        free(name);
        err_from_errno(e, NULL);
        goto out;
    }
    free(name);
    res = semlock_alloc(h, kind, maxvalue, unlink_now ? g_None : vm_unwrap(a[3]));
    if (!res)
        sem_close(h);
out:
    vm_unroots(a);
    return res;
}

/* _rebuild(handle, kind, maxvalue, name): the SemLock of an unpickled
 * multiprocessing lock: opened again by name, or the handle itself (a
 * forked child shares the parent's mapping). */
static Obj semlock_rebuild(Obj *args, size_t nargs, Obj kwnames)
{
    int kind, maxvalue;
    int64_t handle;
    if (int_as_i64(args[1], &handle) < 0 || int_arg(args[2], &kind) < 0 || int_arg(args[3], &maxvalue) < 0)
        return NULL;
    Obj name = vm_unwrap(args[4]);
    if (!IS_NONE(name) && !IS_STR(name)) {
        err_format(E_TypeError, "_rebuild() argument 4 must be str or None, not %s", type_name(args[4]));
        return NULL;
    }
    sem_t *h = (sem_t *)(uintptr_t)handle;
    if (!IS_NONE(name)) {
        char *cname = strdup(str_cstr(name));
        if (!cname)
            return err_nomemory();
        vm_tx_become_inevitable();
        h = sem_open(cname, 0);
        int e = errno;
        free(cname);
        if (h == SEM_FAILED)
            return err_from_errno(e, NULL);
    }
    Obj r = semlock_alloc(h, kind, maxvalue, vm_unwrap(args[4]));
    if (!r && !IS_NONE(vm_unwrap(args[4])))
        sem_close(h);
    return r;
}

static uint64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* acquire(block=True, timeout=None) */
static Obj semlock_acquire(Obj *args, size_t nargs, Obj kwnames)
{
    static const char *const names[] = {"block", "timeout", NULL};
    SELF("acquire");
    Obj *a = vm_roots(2);
    Obj res = NULL;
    if (vm_parse_args("acquire", args + 1, nargs - 1, kwnames, names, 0, 2, a) < 0)
        goto out;
    int blocking = 1;
    if (a[0] && (blocking = vm_is_true(a[0])) < 0)
        goto out;
    double timeout = -1;   /* -1: none */
    if (blocking && a[1] && !IS_NONE(a[1])) {
        if (vm_as_double(a[1], &timeout) < 0)
            goto out;
        if (timeout < 0)
            timeout = 0;
    }
    s = vm_unwrap(args[0]);
    if (SEM_KIND(s) == RECURSIVE_MUTEX && is_mine(s)) {
        VM_WRITE(s);
        SEM_COUNT(s)++;
        res = g_True;
        goto out;
    }
    sem_t *h = SEM_HANDLE(s);
    uint64_t deadline = timeout >= 0 ? realtime_ns() + (uint64_t)(timeout * 1e9) : 0;
    vm_tx_become_inevitable();   /* a semaphore taken is not given back by an abort */
    int rc, e = 0;
    do {
        rc = sem_trywait(h);
        e = errno;
        if (rc < 0 && e == EINTR && vm_signals_check() < 0)
            goto out;
    } while (rc < 0 && e == EINTR);
    while (rc < 0 && e == EAGAIN && blocking) {
        vm_blocking_begin();
        if (timeout < 0) {
            rc = sem_wait(h);
        } else {
            struct timespec ts = {(time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u)};
            rc = sem_timedwait(h, &ts);
        }
        e = errno;
        vm_blocking_end();
        if (rc == 0 || e != EINTR)
            break;
        if (vm_signals_check() < 0)   /* PEP 475: a handler that raises ends the wait */
            goto out;
    }
    if (rc < 0) {
        if (e == EAGAIN || e == ETIMEDOUT)
            res = g_False;
        else
            err_from_errno(e, NULL);
        goto out;
    }
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    SEM_COUNT(s)++;
    ITER(s)->kind = (int64_t)(unsigned long)pthread_self();
    res = g_True;
out:
    vm_unroots(a);
    return res;
}

static Obj semlock_enter(Obj *args, size_t nargs, Obj kwnames)
{
    return semlock_acquire(args, 1, NULL);
}

static Obj semlock_release(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("release");
    if (SEM_KIND(s) == RECURSIVE_MUTEX) {
        if (!is_mine(s)) {
            err_set(E_AssertionError, "attempt to release recursive lock not owned by thread");
            return NULL;
        }
        if (SEM_COUNT(s) > 1) {
            VM_WRITE(s);
            SEM_COUNT(s)--;
            return g_None;
        }
    } else {
        int sval;
        if (sem_getvalue(SEM_HANDLE(s), &sval) < 0)
            return err_from_errno(errno, NULL);
        if (sval >= SEM_MAXVALUE(s)) {
            err_set(E_ValueError, "semaphore or lock released too many times");
            return NULL;
        }
    }
    vm_tx_become_inevitable();
    s = vm_unwrap(args[0]);
    if (sem_post(SEM_HANDLE(s)) < 0)
        return err_from_errno(errno, NULL);
    VM_WRITE(s);
    SEM_COUNT(s)--;
    return g_None;
}

static Obj semlock_count(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_count");
    return int_from_i64(SEM_COUNT(s));
}

static Obj semlock_is_mine(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_is_mine");
    return is_mine(s) ? g_True : g_False;
}

static Obj semlock_get_value(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_get_value");
    int sval;
    if (sem_getvalue(SEM_HANDLE(s), &sval) < 0)
        return err_from_errno(errno, NULL);
    return int_from_i64(sval < 0 ? 0 : sval);   /* some systems count the waiters negative */
}

static Obj semlock_is_zero(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_is_zero");
    int sval;
    if (sem_getvalue(SEM_HANDLE(s), &sval) < 0)
        return err_from_errno(errno, NULL);
    return sval == 0 ? g_True : g_False;
}

/* In a forked child: this process holds it no more. */
static Obj semlock_after_fork(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("_after_fork");
    VM_WRITE(s);
    SEM_COUNT(s) = 0;
    return g_None;
}

/* The finalizer of a collected SemLock (gcwork.c calls __del__). */
static Obj semlock_del(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("__del__");
    sem_t *h = SEM_HANDLE(s);
    if (!h)
        return g_None;
    vm_tx_become_inevitable();
    s = vm_unwrap(args[0]);
    VM_WRITE(s);
    ITER(s)->i = 0;
    sem_close(h);
    return g_None;
}

static Obj semlock_handle(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("handle");
    return int_from_u64((uint64_t)(uintptr_t)SEM_HANDLE(s));
}

static Obj semlock_kind(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("kind");
    return ITER(s)->b;
}

static Obj semlock_maxvalue(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("maxvalue");
    return ITER(s)->c;
}

static Obj semlock_name(Obj *args, size_t nargs, Obj kwnames)
{
    SELF("name");
    return SEM_NAME(s);
}

static const MethodDef semlock_methods[] = {
    {"acquire", semlock_acquire, METH_KW, "Acquire the semaphore/lock."},
    {"release", semlock_release, METH_NOARGS, "Release the semaphore/lock."},
    {"__enter__", semlock_enter, METH_NOARGS, "Enter the semaphore/lock."},
    {"__exit__", semlock_release, METH_ARGS(0, 0xff), "Exit the semaphore/lock."},
    {"_count", semlock_count, METH_NOARGS, "Num of `acquire()`s minus num of `release()`s for this process."},
    {"_is_mine", semlock_is_mine, METH_NOARGS, "Whether the lock is owned by this thread."},
    {"_get_value", semlock_get_value, METH_NOARGS, "Get the value of the semaphore."},
    {"_is_zero", semlock_is_zero, METH_NOARGS, "Return whether semaphore has value zero."},
    {"_rebuild", semlock_rebuild, METH_CLASS | METH_ARGS(4, 4), NULL},
    {"_after_fork", semlock_after_fork, METH_NOARGS, "Rezero the net acquisition count after fork()."},
    {"__del__", semlock_del, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* sem_unlink(name) */
static Obj mp_sem_unlink(Obj *args, size_t nargs, Obj kwnames)
{
    Obj name = vm_unwrap(args[0]);
    if (!IS_STR(name)) {
        err_format(E_TypeError, "sem_unlink() argument must be str, not %s", type_name(args[0]));
        return NULL;
    }
    char *c = strdup(str_cstr(name));
    if (!c)
        return err_nomemory();
    vm_tx_become_inevitable();
    int rc = sem_unlink(c);
    int e = errno;
    free(c);
    return rc < 0 ? err_from_errno(e, NULL) : g_None;
}

static const MethodDef mp_functions[] = {
    {"sem_unlink", mp_sem_unlink, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static void make_types(void)
{
    if (T_semlock)
        return;
    TypeObj *t = (TypeObj *)type_new_builtin("_multiprocessing.SemLock", T_object, TID_ITER, 0);
    VM_WRITE_RARE(t);
    t->tp_new = semlock_new;
    type_add_methods(t, semlock_methods);
    type_add_getset(t, "handle", semlock_handle, NULL);
    type_add_getset(t, "kind", semlock_kind, NULL);
    type_add_getset(t, "maxvalue", semlock_maxvalue, NULL);
    type_add_getset(t, "name", semlock_name, NULL);
    type_set_attr_cstr(t, "SEM_VALUE_MAX", int_from_i64(SEM_VALUE_MAX));
    type_ready(t);
    T_semlock = t;
}

Obj multiprocessing_module_init(void)
{
    vm_tx_become_inevitable();   /* the type is a C global */
    make_types();
    Obj *r = vm_roots(3);
    Obj res = NULL;
    r[0] = module_new("_multiprocessing");
    if (!r[0])
        goto out;
    module_add_functions(r[0], mp_functions);
    if (module_add(r[0], "SemLock", (Obj)T_semlock) < 0 || !(r[1] = dict_new()))
        goto out;
    static const char *const flags[] = {"HAVE_SEM_OPEN", "HAVE_SEM_TIMEDWAIT"};
    for (size_t i = 0; i < ARRAY_LEN(flags); i++) {
        r[2] = str_from_cstr(flags[i]);
        if (!r[2] || dict_setitem(r[1], r[2], MAKE_SMALLINT(1)) < 0)
            goto out;
    }
    if (module_add(r[0], "flags", r[1]) < 0)
        goto out;
    res = r[0];
out:
    vm_unroots(r);
    return res;
}
