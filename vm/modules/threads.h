/* What the _thread and tm modules share (private to modules/). */
#ifndef TMPY_THREADS_H
#define TMPY_THREADS_H

#include "tmpy.h"

/* The largest timeout in seconds (nanoseconds in 64 bits), _thread.TIMEOUT_MAX. */
#define TIMEOUT_MAX 9223372036.0

/* A built-in type of IterObj instances (lock, RLock, tm.synchronized). */
TypeObj *thread_make_type(const char *name, newfunc tp_new, unaryfunc tp_repr, const MethodDef *methods);
/* tmmodule.c, called by threads_init: 0, or -1 out of memory. */
int tm_init(void);

#endif
