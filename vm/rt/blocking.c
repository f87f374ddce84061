/* Blocking calls: the places where a thread lets others run. Under the GIL
 * a thread runs Python only while it owns segment 1; around every call that
 * may wait (I/O, sleep, lock waits) it hands the segment on, which runs a
 * minor collection: callers keep references in root slots and re-read them
 * afterwards, and pass only C memory to the system call. */
#include "objects/objects.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Threads started and not yet finished, the main thread included. While it
 * is 1 nobody can want the GIL, so a blocking call keeps it (which spares a
 * minor collection per read). Counted by the starter, before the new thread
 * exists, so that a parent blocking in join() right away does release it. */
int vm_live_threads = 1;
static __thread bool released_for_blocking;

/* STM: the call's effect cannot be undone, so the transaction before it
 * commits (or, inside `with tm.atomic:` or with no other thread, becomes
 * inevitable); the one after it starts inevitable, here, where no eval loop
 * could take an abort back (txstate.c). */
void vm_blocking_begin(void)
{
    int e = errno;
    if (__atomic_load_n(&vm_live_threads, __ATOMIC_ACQUIRE) > 1 && !vm_ts.atomic) {
#if TM_STM
        vm_hooks.tx_commit();   /* vm_tx_commit: drops the eval loop's undo log */
#else
        tm_commit_transaction();
#endif
        /* Only once committed: the commit may abort, and the retry may take
         * another path (into `with tm.atomic:`, where no transaction must
         * start at the end; issue 21, 2). */
        released_for_blocking = true;
    } else {
        vm_tx_become_inevitable();
    }
    errno = e;
}

void vm_blocking_end(void)
{
    int e = errno;
    if (released_for_blocking) {
        released_for_blocking = false;
        tm_start_transaction();
        tm_become_solo_or_inevitable();   /* an abort while it waits comes back here */
    }
    errno = e;
}

void vm_commit_point(void)
{
#if TM_STM
    vm_tx_become_inevitable();   /* so the commit below cannot abort */
    if (!vm_ts.atomic) {
        vm_hooks.tx_commit();
        tm_start_transaction();
        tm_become_inevitable();
    }
#endif
}

/* PEP 475: a read a signal interrupts runs the handlers, then reads on
 * unless one raised. */
ssize_t vm_blocking_read(int fd, void *buf, size_t n)
{
    ssize_t got;
    for (;;) {
        vm_blocking_begin();
        do {
            if (tm_interrupted()) {   /* a signal just before: do not start waiting */
                got = -1;
                errno = EINTR;
                break;
            }
            got = read(fd, buf, n);
        } while (got < 0 && errno == EINTR);
        vm_blocking_end();
        if (got >= 0 || errno != EINTR)
            return got;
        if (vm_signals_check() < 0) {
            errno = EINTR;
            return -1;
        }
    }
}

/* The same for a write that a signal interrupts before it wrote anything
 * (one interrupted after some bytes returns their count: vm_write_all). */
ssize_t vm_blocking_write(int fd, const void *buf, size_t n)
{
    ssize_t w;
    for (;;) {
        vm_blocking_begin();
        do {
            if (tm_interrupted()) {
                w = -1;
                errno = EINTR;
                break;
            }
            w = write(fd, buf, n);
        } while (w < 0 && errno == EINTR);
        vm_blocking_end();
        if (w >= 0 || errno != EINTR)
            return w;
        if (vm_signals_check() < 0) {
            errno = EINTR;
            return -1;
        }
    }
}

/* All n bytes: a partial write (a full pipe, a signal) runs the signal
 * handlers before writing on, as CPython's buffered writer does: one that
 * raises ends the write (-1, errno EINTR, its exception set); else it would
 * block again, maybe for ever (test_io's interrupted writes). */
int vm_write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = vm_blocking_write(fd, p, n);
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
        if (n > 0 && vm_signals_check() < 0) {
            errno = EINTR;
            return -1;
        }
    }
    return 0;
}

int vm_blocking_open(const char *path, int flags, int mode)
{
    /* path may point into a str object, which may move while we wait */
    char *copy = strdup(path);
    if (!copy) {
        errno = ENOMEM;
        return -1;
    }
    int fd;
    vm_blocking_begin();
    do
        fd = open(copy, flags, (mode_t)mode);
    while (fd < 0 && errno == EINTR);
    vm_blocking_end();
    free(copy);
    return fd;
}
