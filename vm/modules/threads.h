/* What the _thread and tm modules share (private to modules/). */
#ifndef TMPY_THREADS_H
#define TMPY_THREADS_H

#include "objects/objects.h"

/* The largest timeout in seconds (nanoseconds in 64 bits), _thread.TIMEOUT_MAX. */
#define TIMEOUT_MAX 9223372036.0

/* _thread.lock and RLock operations that left their inlined fast path
 * (threadmodule.c): acquires that found the lock taken, releases that had
 * waiters to wake or hand the lock to, or released another thread's lock
 * (a thread's sentinel at its end, too); tm.stats()'s lock_slow_acquires
 * and lock_slow_releases. Counted where the slow path starts, in a
 * transaction that may abort: a retry counts again. */
extern uint64_t thread_lock_slow_acquires, thread_lock_slow_releases;

/* A built-in type of IterObj instances (lock, RLock, tm.synchronized). */
static inline TypeObj *thread_make_type(const char *name, newfunc tp_new, unaryfunc tp_repr,
                                        const MethodDef *methods)
{
    TypeObj *t = (TypeObj *)type_new_builtin(name, T_object, TID_ITER, 0);
    VM_WRITE(t);
    t->tp_new = tp_new;
    t->tp_repr = tp_repr;
    type_add_methods(t, methods);
    type_ready(t);
    return t;
}

#endif
