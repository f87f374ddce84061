/* What the _thread and tm modules share (private to modules/). */
#ifndef TMPY_THREADS_H
#define TMPY_THREADS_H

#include "objects/objects.h"

/* The largest timeout in seconds (nanoseconds in 64 bits), _thread.TIMEOUT_MAX. */
#define TIMEOUT_MAX 9223372036.0

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
